//! The round, top to bottom: probe, done?, context, model, act, advance, and
//! a nudge when the model answered without a tool call.

pub mod decompose;
pub mod prompt;
mod reconcile;

use serde_json::json;

use crate::chat::ToolCall;
use crate::guard;
use crate::model::{ChatReply, ChatRequest, Failure, Model, ModelError, Options};
use crate::settings::Settings;
use crate::state::{ActionOutcome, Ending, Event, Outcome, Record, State, WriteIntent};
use crate::stop::Stop;
use crate::store::{Durability, Store, StoreError};
use crate::tools::{self, Action, Call, Toolbox};

/// Who is told what happens: the terminal, a JSON stream, or nobody.
pub trait Reporter {
    /// An event was recorded; `state` is the state after it.
    fn event(&mut self, record: &Record, state: &State);
    /// The model is thinking (`true`) or answered (`false`).
    fn thinking(&mut self, on: bool);
}

/// A reporter that shows nothing (benchmarks, tests).
pub struct Silent;

impl Reporter for Silent {
    fn event(&mut self, _: &Record, _: &State) {}
    fn thinking(&mut self, _: bool) {}
}

/// One invocation of the runner on one workspace.
pub struct Agent<'a> {
    pub settings: &'a Settings,
    pub store: &'a mut Store,
    pub model: &'a dyn Model,
    pub tools: &'a Toolbox,
    pub reporter: &'a mut dyn Reporter,
    pub stop: Stop,
}

impl Agent<'_> {
    /// Runs (or resumes) the goal until it ends, the rounds are spent, or a
    /// stop is requested. Only a broken store is an error; everything else is
    /// an ending, recorded in the log.
    pub async fn run(mut self, goal: &str) -> Result<Ending, StoreError> {
        self.record(
            Event::RunStarted {
                goal: goal.to_string(),
                model: self.settings.model.clone(),
                max_rounds: self.settings.max_rounds,
            },
            Durability::Lazy,
        )?;
        if !self.state().tree.is_planned() {
            match self.plan(goal).await {
                None => return self.end(Outcome::Interrupted, "stopped by the user".into()),
                Some(Err(failure)) => return self.model_failed(failure),
                Some(Ok(planned)) => self.record(planned, Durability::Lazy)?,
            };
        }
        if let Some(flight) = self.state().in_flight.clone() {
            let outcome = reconcile::outcome(&flight, self.tools, &self.stop).await;
            self.record(
                Event::ActionFinished {
                    action: flight.action,
                    outcome,
                },
                Durability::Lazy,
            )?;
        }
        loop {
            self.store.checkpoint()?;
            if self.stop.is_requested() {
                return self.end(Outcome::Interrupted, "stopped by the user".into());
            }
            if let Some((index, call)) = self.state().next_call() {
                let call = call.clone();
                self.handle(index, call).await?;
                continue;
            }
            // 1. probe
            let missing = self.probe();
            // 2. done?
            if self.state().tree.is_finished() {
                return self.finish();
            }
            if self.state().run_rounds >= self.settings.max_rounds {
                let reason = format!(
                    "{} rounds spent; run `runner resume` to go on with a fresh budget",
                    self.settings.max_rounds
                );
                return self.end(Outcome::Stopped, reason);
            }
            let round = self.state().rounds + 1;
            self.record(Event::RoundStarted { round, missing }, Durability::Lazy)?;
            // 3. context, 4. model
            let request = prompt::request(self.state(), self.settings);
            if let Some(context) = request.messages.last() {
                tracing::info!(
                    round,
                    bytes = request.size(),
                    "context block:\n{}",
                    context.content
                );
            }
            let reply = match self.ask(&request).await {
                None => return self.end(Outcome::Interrupted, "stopped by the user".into()),
                Some(Ok(reply)) => reply,
                Some(Err(failure)) => match failure.error {
                    ModelError::ToolParse { .. } => {
                        if let Some(ending) = self.correct(failure)? {
                            return Ok(ending);
                        }
                        continue;
                    }
                    _ => return self.model_failed(failure),
                },
            };
            let acted = !reply.tool_calls.is_empty();
            self.record(
                Event::ModelReplied {
                    content: reply.content,
                    calls: reply.tool_calls,
                    from_text: false,
                    usage: reply.usage,
                    retries: reply.retries,
                    done_reason: reply.done_reason,
                },
                Durability::Lazy,
            )?;
            // 5. act and 6. advance happen as the calls are handled above;
            // 7. no tools: nudge.
            if !acted && let Some(ending) = self.nudge()? {
                return Ok(ending);
            }
        }
    }

    fn state(&self) -> &State {
        self.store.state()
    }

    fn record(&mut self, event: Event, durability: Durability) -> Result<Record, StoreError> {
        let record = self.store.append(event, durability)?;
        tracing::info!(seq = record.seq, event = record.event.name(), "recorded");
        self.reporter.event(&record, self.store.state());
        Ok(record)
    }

    fn options(&self) -> Options {
        Options {
            temperature: self.settings.temperature,
            num_ctx: self.settings.num_ctx,
            num_predict: Some(self.settings.num_predict),
        }
    }

    /// The `planned` event; `None` when a stop was requested meanwhile.
    async fn plan(&mut self, goal: &str) -> Option<Result<Event, Failure>> {
        self.reporter.thinking(true);
        let planned = tokio::select! {
            planned = decompose::plan(self.model, goal, self.options()) => Some(planned),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        planned
    }

    /// Files the runner wrote that are gone now. Costs a stat per file the
    /// runner wrote, never a walk of the workspace.
    fn probe(&self) -> Vec<String> {
        self.state()
            .files
            .keys()
            .filter(|path| !self.tools.exists(path))
            .cloned()
            .collect()
    }

    /// One model call; `None` when a stop was requested meanwhile.
    async fn ask(&mut self, request: &ChatRequest) -> Option<Result<ChatReply, Failure>> {
        self.reporter.thinking(true);
        let result = tokio::select! {
            result = self.model.chat(request) => Some(result),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        result
    }

    /// Handles call `index` of the pending reply.
    async fn handle(&mut self, index: usize, call: ToolCall) -> Result<(), StoreError> {
        let reject = |error: String| Event::CallRejected {
            call: index,
            tool: call.name.clone(),
            error,
        };
        if index >= tools::MAX_CALLS_PER_REPLY {
            let error = format!(
                "not run: only the first {} tool calls of a reply run; call fewer at a time",
                tools::MAX_CALLS_PER_REPLY
            );
            self.record(reject(error), Durability::Lazy)?;
            return Ok(());
        }
        if self.subtask_ended_earlier_in_reply(index) {
            let error = "not run: the subtask changed before this call; look at the new ACTIVE SUBTASK first".to_string();
            self.record(reject(error), Durability::Lazy)?;
            return Ok(());
        }
        let event = match self.tools.parse(&call) {
            Err(error) => reject(error),
            Ok(Call::Note { text }) => Event::Noted { call: index, text },
            Ok(Call::Complete { success, reason }) => match self.state().tree.cursor {
                Some(cursor) => Event::SubtaskEnded {
                    call: Some(index),
                    task: cursor.task,
                    subtask: cursor.subtask,
                    success,
                    reason,
                },
                None => reject("there is no active subtask left".into()),
            },
            Ok(Call::Action(action)) => return self.act(index, action).await,
        };
        self.record(event, Durability::Lazy)?;
        Ok(())
    }

    fn subtask_ended_earlier_in_reply(&self, index: usize) -> bool {
        self.state().reply.as_ref().is_some_and(|reply| {
            reply.calls[..index.min(reply.calls.len())]
                .iter()
                .any(|c| c.name == "mark_subtask_complete")
        })
    }

    /// Act on one call: loop check, `action_started` (synced before a side
    /// effect), execute, `action_finished`.
    async fn act(&mut self, index: usize, action: Action) -> Result<(), StoreError> {
        let signature = action.signature();
        let recent: Vec<_> = self.state().recent.iter().collect();
        if let Some(pattern) = guard::check(&recent, &signature) {
            let message = format!(
                "Blocked: {} repeats what you already did with no file changed in between, so it \
                 was not run. Do something different: change the code, run another command, or \
                 call mark_subtask_complete.",
                action.summary()
            );
            let record = self.record(
                Event::ActionBlocked {
                    call: index,
                    tool: action.tool().to_string(),
                    signature: signature.clone(),
                    pattern,
                    message,
                },
                Durability::Lazy,
            )?;
            self.store.record_loop(json!({
                "signature": signature,
                "tool": action.tool(),
                "args": self.state_call_args(index),
                "pattern": pattern,
                "round": self.state().rounds,
                "seq": record.seq,
                "time": record.ts,
            }))?;
            self.store.ledger("BLOCKED", &signature)?;
            return Ok(());
        }
        let write = match &action {
            Action::WriteFile { path, content, .. } => Some(WriteIntent {
                path: path.clone(),
                before: self.tools.hash_of(path),
                after: tools::sha256_hex(content.as_bytes()),
            }),
            _ => None,
        };
        // Keep what a write is about to replace: `runner rollback` restores it.
        if let Some(intent) = &write
            && intent.before.as_ref().is_some_and(|b| *b != intent.after)
            && let Some(old) = self.tools.contents(&intent.path)
        {
            self.store.keep_blob(&old)?;
        }
        let durability = if action.is_read_only() {
            Durability::Lazy
        } else {
            Durability::Sync
        };
        let started = self.record(
            Event::ActionStarted {
                call: index,
                tool: action.tool().to_string(),
                summary: action.summary(),
                signature,
                write,
            },
            durability,
        )?;
        let outcome = self.tools.execute(&action, &self.stop).await;
        self.ledger(&action, &outcome)?;
        self.record(
            Event::ActionFinished {
                action: started.seq,
                outcome,
            },
            Durability::Lazy,
        )?;
        Ok(())
    }

    /// The arguments of call `index` of the last reply, from the log's view.
    fn state_call_args(&self, index: usize) -> serde_json::Value {
        self.state()
            .conversation
            .back()
            .and_then(|exchange| exchange.first())
            .and_then(|message| message.tool_calls.get(index))
            .map(|call| call.arguments.clone())
            .unwrap_or_default()
    }

    fn ledger(&mut self, action: &Action, outcome: &ActionOutcome) -> Result<(), StoreError> {
        let (kind, text) = match action {
            Action::RunCmd { cmd, .. } if outcome.command.is_some() => (
                "CMD",
                match outcome.exit_code {
                    Some(code) => format!("{cmd} -> rc={code}"),
                    None => format!("{cmd} -> killed"),
                },
            ),
            _ if !outcome.ok => (
                "ERROR",
                format!(
                    "{}: {}",
                    action.summary(),
                    outcome.error.as_deref().unwrap_or("failed")
                ),
            ),
            Action::WriteFile { path, content, .. } => {
                ("WRITE", format!("{path} ({} bytes)", content.len()))
            }
            _ => ("TRIED", action.summary()),
        };
        self.store.ledger(kind, &text)
    }

    /// The model answered in prose: nudge it, escalating, or stop when the
    /// nudges for this subtask are spent.
    fn nudge(&mut self) -> Result<Option<Ending>, StoreError> {
        let state = self.state();
        let subtask = state
            .tree
            .active()
            .map(|(_, subtask)| subtask.description.clone())
            .unwrap_or_default();
        if state.nudges >= self.settings.max_nudges {
            let reason = format!(
                "the model stopped calling tools on \"{subtask}\" ({} nudges spent); \
                 run `runner resume` to try again",
                self.settings.max_nudges
            );
            return self.end(Outcome::Stopped, reason).map(Some);
        }
        let level = state.nudges + 1;
        let left = self.settings.max_rounds.saturating_sub(state.run_rounds);
        let message = match level {
            1 => format!(
                "You answered without calling a tool, but the ACTIVE SUBTASK is not done: {subtask}. \
                 {left} rounds are left. Call a tool now; if your approach did not work, try another one."
            ),
            2 => "You stopped twice without acting. Act now: write a file (write_file), run a command \
                  (run_cmd), or mark the subtask complete or failed (mark_subtask_complete)."
                .to_string(),
            _ => format!(
                "Last chance: call mark_subtask_complete now, with success=true if \"{subtask}\" is \
                 done, or success=false and the reason if it cannot be done."
            ),
        };
        self.record(Event::Nudged { level, message }, Durability::Lazy)?;
        Ok(None)
    }

    /// The server could not parse the model's tool call: tell the model the
    /// exact format instead of retrying the same request blindly.
    fn correct(&mut self, failure: Failure) -> Result<Option<Ending>, StoreError> {
        self.record(
            Event::ModelFailed {
                error: failure.error.to_string(),
                retries: failure.retries,
            },
            Durability::Lazy,
        )?;
        self.nudge()
    }

    fn model_failed(&mut self, failure: Failure) -> Result<Ending, StoreError> {
        let error = failure.error.to_string();
        self.record(
            Event::ModelFailed {
                error: error.clone(),
                retries: failure.retries,
            },
            Durability::Lazy,
        )?;
        self.end(Outcome::ModelUnusable, error)
    }

    /// Every subtask has ended: achieved, or not with the reasons.
    fn finish(&mut self) -> Result<Ending, StoreError> {
        let failures = self.state().tree.failures();
        if failures.is_empty() {
            return self.end(Outcome::Achieved, "every subtask completed".into());
        }
        let reasons: Vec<String> = failures
            .iter()
            .map(|(subtask, reason)| format!("\"{subtask}\" failed: {reason}"))
            .collect();
        self.end(Outcome::NotAchieved, reasons.join("; "))
    }

    fn end(&mut self, outcome: Outcome, reason: String) -> Result<Ending, StoreError> {
        self.record(
            Event::RunEnded {
                outcome,
                reason: reason.clone(),
            },
            Durability::Lazy,
        )?;
        Ok(Ending { outcome, reason })
    }
}
