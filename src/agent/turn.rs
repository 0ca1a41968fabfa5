//! A turn of the model, steps 3 to 7 of the round: the context, the
//! question, the calls of the answer, their review, the record, then a
//! correction or a nudge when the model did not act.

use super::{Agent, MAX_CORRECTIONS, Step, prompt};
use crate::model::{ChatReply, ChatRequest, text_calls};
use crate::state::Event;
use crate::store::{Durability, StoreError};
use crate::tools;

impl Agent<'_> {
    /// One turn. The reply is logged with its calls reviewed; they are
    /// handled one by one in the next steps of the round.
    pub(super) async fn turn(&mut self) -> Result<Step, StoreError> {
        let (mut request, mut files) = self.context()?;
        // What the goal's words give of a failing assert of the run's own
        // test changes what the context says of it.
        if self.settle_own_test(&files).await? {
            (request, files) = self.context()?;
        }
        let question = self.question(&files).await;
        let request = match &question {
            Some((question, again)) => {
                tracing::info!(path = %question.path, "context: a question of its own:\n{}", question.ask);
                prompt::question_request(self.settings, self.num_ctx, question, *again)
            }
            None => request,
        };
        let reply = match self.ask(&request).await {
            None => return self.stopped().map(Step::End),
            Some(Ok(reply)) => reply,
            Some(Err(failure)) => return self.failed_turn(failure),
        };
        let reply = match &question {
            Some((question, again)) => self.best_answer(question, *again, reply).await?,
            None => reply,
        };
        let question = question.map(|(question, _)| question);
        let ChatReply {
            content,
            tool_calls,
            usage,
            retries,
            done_reason,
            notices: _,
        } = reply;
        let write = question.as_ref().and_then(|q| self.answered(q, &content));
        // An answer with no code, to a question not asked so already, is
        // followed by the question for its code alone.
        if let Some(question) = &question
            && write.is_none()
            && question.said.is_none()
            && !content.trim().is_empty()
        {
            self.said = Some((question.ask.clone(), content.clone()));
        }
        let (calls, from_text) = match write {
            Some(write) => (vec![write], true),
            None if question.is_some() => match tool_calls.is_empty() {
                true => (text_calls::extract(&content, &tools::names()), true),
                false => (tool_calls, false),
            },
            None => self.calls_of(&content, tool_calls, done_reason.as_deref()),
        };
        let broken = calls
            .is_empty()
            .then(|| self.broken_call(&content, done_reason.as_deref()))
            .flatten();
        let (calls, parsed): (Vec<_>, Vec<_>) = self
            .reviewed(
                calls
                    .into_iter()
                    .map(|call| tools::bounded(tools::plain(call)))
                    .collect(),
            )
            .into_iter()
            .unzip();
        let acted = !calls.is_empty();
        let cut_off = crate::model::runaway::cut_off(done_reason.as_deref());
        let after_cut = (cut_off && broken.is_some()).then(|| self.after_cut_off(&content));
        self.record(
            Event::ModelReplied {
                content,
                calls,
                from_text,
                usage,
                retries,
                done_reason,
                question: question.is_some(),
            },
            Durability::Lazy,
        )?;
        // A question of its own is not asked again after: the next round
        // is made anew (or is such a question again).
        self.asked = question
            .is_none()
            .then(|| (request, self.state().exchanges));
        self.parsed = parsed.into_iter().map(Some).collect();
        self.watch_context(usage)?;
        // A call that did not parse is corrected with its error, not nudged.
        if let Some(error) = broken
            && self.state().corrections < MAX_CORRECTIONS
        {
            match cut_off {
                // The call was made, only too long: the schemas again would
                // be ~400 tokens more in every later prompt of the subtask.
                true => {
                    let then = after_cut.unwrap_or_default();
                    self.record_correction(format!(
                        "Your last reply did not run: {error}. Answer again with one complete \
                         tool call: {then}"
                    ))?
                }
                false => self.send_correction(&error)?,
            }
            return Ok(Step::Reask);
        }
        // A question of its own answered with no block of the function is
        // asked again, warmer, while it may be (see `repair`); the rounds
        // after go on as rounds. It spends no nudge: three of them end the
        // run.
        if !acted
            && question.is_none()
            && let Some(ending) = self.nudge(&files).await?
        {
            return Ok(Step::End(ending));
        }
        Ok(Step::Go)
    }

    /// The request of the turn, and the files its context block shows (a
    /// nudge quotes them): those there before the run that the subtask or
    /// the goal names, then those the run wrote, within one budget, in the
    /// order of their last change (see [`crate::state::FileRecord`]).
    fn context(&mut self) -> Result<(ChatRequest, Vec<(String, String)>), StoreError> {
        let budget = prompt::files_budget(self.state());
        let mut files = self.show_named(budget)?;
        let used: usize = files.iter().map(|(_, text)| text.len()).sum();
        files.extend(prompt::written_files(
            self.state(),
            self.tools,
            budget.saturating_sub(used),
        ));
        let state = self.state();
        files.sort_by_key(|(path, _)| state.files.get(path).map_or(0, |f| f.changed_at));
        // Nothing came of the last reply: ask again after it, as it was.
        if let Some((last, at)) = &self.asked
            && *at == state.exchanges
            && let Some(request) = prompt::asked_again(last, state, self.settings)
        {
            tracing::info!(
                bytes = request.size(),
                "context: asked again after the last reply"
            );
            return Ok((request, files));
        }
        let head = self.head();
        let request =
            prompt::request_with_files(self.state(), self.settings, self.num_ctx, &head, &files);
        if let (Some(standing), Some(round)) = (request.messages.get(1), request.messages.last()) {
            tracing::info!(
                bytes = request.size(),
                "context:\n{}\n\n{}",
                standing.content,
                round.content
            );
        }
        Ok((request, files))
    }
}
