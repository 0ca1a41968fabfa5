//! Answers tried before one is written: an answer to a question of its
//! own whose program must print what known commands print (see
//! [`Question::runs`]) is run first in a copy of the workspace, and while
//! it prints otherwise the question is asked again, warmer, a few times;
//! the best answer is written (see [`rank`]). Asked t42's greet-shout
//! question seven times apart, Qwen2.5-Coder 1.5B answered right once
//! (BENCHMARKS.md, session of 2026-12-01 18:42): written at once, a wrong
//! answer was the file the next question showed back, and the model gave
//! it back unchanged (t42's greet-shout, six times). The fix of one
//! function is tried the same way, called with the values it must return
//! (see [`Question::returns`]).

use std::path::Path;
use std::time::Duration;

use super::Agent;
use super::prompt::{self, Question};
use crate::chat::Usage;
use crate::lang::Review;
use crate::lang::examples;
use crate::model::ChatReply;
use crate::state::{Event, TriedAnswer};
use crate::store::{Durability, StoreError};
use crate::tools::{Call, Toolbox};

/// Answers asked of one question in a turn, at most.
const MAX_TRIED: u32 = 4;
/// Seconds each run of a tried answer may take.
const RUN_TIMEOUT: u64 = 10;
/// A workspace copied to try answers in holds at most so many files and
/// bytes: a larger one is not copied, and the first answer is written.
const MAX_COPIED_FILES: usize = 500;
const MAX_COPIED_BYTES: u64 = 32 * 1024 * 1024;
/// Bytes of what a wrong run printed that the log keeps.
const WRONG_MAX: usize = 200;

impl Agent<'_> {
    /// Of `first` and answers to `question` asked again (warmer each time,
    /// from `again`, how many were asked before in the subtask), the one
    /// to write: the first whose program prints what each of the
    /// question's runs must, else the best by [`rank`] (the
    /// earliest of those). The others are logged as
    /// [`Event::AnswersTried`]. A question with no runs, or a workspace
    /// too large to copy, gives `first`.
    pub(super) async fn best_answer(
        &mut self,
        question: &Question,
        again: u32,
        first: ChatReply,
    ) -> Result<ChatReply, StoreError> {
        if question.runs.is_empty() && question.returns.is_none() {
            return Ok(first);
        }
        // An answer in prose alone is followed by the question for its
        // code alone (see `turn`), not asked anew.
        if question.said.is_none() && self.answered(question, &first.content).is_none() {
            return Ok(first);
        }
        let Some(copy) = copied(self.tools.root()) else {
            return Ok(first);
        };
        let tools = self.tools.elsewhere(copy.path());
        let before: Vec<String> = (self.state().ran_before.iter())
            .map(|run| run.command.clone())
            .collect();
        let mut best_tried = self.try_answer(question, &first, &tools).await;
        let mut best = first;
        let mut tried = Vec::new();
        let mut usage = Usage::default();
        let mut retries = 0;
        let mut asked = 1;
        while best_tried.0.passed < best_tried.0.runs && asked < MAX_TRIED {
            let request =
                prompt::question_request(self.settings, self.num_ctx, question, again + asked);
            let reply = match self.ask(&request).await {
                Some(Ok(reply)) => reply,
                // Stopped, or the model failed: the best answer so far.
                _ => break,
            };
            asked += 1;
            let this = self.try_answer(question, &reply, &tools).await;
            let (kept, dropped, dropped_tried) =
                match rank(question, &this, &before) > rank(question, &best_tried, &before) {
                    true => (reply, best, std::mem::replace(&mut best_tried, this).0),
                    false => (best, reply, this.0),
                };
            best = kept;
            usage += dropped.usage;
            retries += dropped.retries;
            tried.push(dropped_tried);
        }
        if !tried.is_empty() {
            tracing::info!(path = %question.path, ?tried, "answers run before written");
            self.record(
                Event::AnswersTried {
                    path: question.path.clone(),
                    tried,
                    usage,
                    retries,
                },
                Durability::Lazy,
            )?;
        }
        Ok(best)
    }

    /// How many of `question`'s runs the program `reply` answers with
    /// prints what they must, written in the copy `tools` work in, and
    /// which; the call of its function's values (see
    /// [`Question::returns`]) counts as one more run, right when each
    /// value is. An answer with no code to write passes none.
    async fn try_answer(
        &mut self,
        question: &Question,
        reply: &ChatReply,
        tools: &Toolbox,
    ) -> (TriedAnswer, Vec<bool>) {
        let runs = question.runs.len() as u32 + u32::from(question.returns.is_some());
        let mut tried = TriedAnswer {
            passed: 0,
            runs,
            wrong: None,
        };
        let Some(code) = self
            .answered(question, &reply.content)
            .and_then(|call| call.arguments["content"].as_str().map(str::to_string))
        else {
            return (tried, Vec::new());
        };
        // A function alone is put in beside what its file of the project
        // holds, as its write would be.
        let code = match question.function {
            Some(_) => self.merged(&question.path, &code).unwrap_or(code),
            None => code,
        };
        // As the review would write it: mended (an import put back), or
        // not at all. t46's greet-shout answers lacked the `import sys`
        // their last line used, which the review puts back.
        let code = match self.review(&question.path, &code) {
            Review::Accept => code,
            Review::Repair { content, .. } => content,
            Review::Refuse(refusal) => {
                tried.wrong = Some(crate::state::head_and_tail(&refusal.reason, WRONG_MAX));
                return (tried, Vec::new());
            }
        };
        if fs_err::write(tools.root().join(&question.path), code).is_err() {
            return (tried, Vec::new());
        }
        let mut right = Vec::new();
        for (command, must) in &question.runs {
            let printed = run_in(tools, command, &self.stop).await;
            let is_right = self.prints_as_it_must(command, must, &printed);
            right.push(is_right);
            match is_right {
                true => tried.passed += 1,
                false if tried.wrong.is_none() => {
                    tried.wrong = Some(format!(
                        "$ {command}\n{}",
                        crate::state::head_and_tail(printed.trim_end(), WRONG_MAX)
                    ));
                }
                false => {}
            }
        }
        if let Some(command) = &question.returns {
            let outcome = tools
                .run_own(command, Duration::from_secs(RUN_TIMEOUT), &self.stop)
                .await;
            let printed = crate::tools::printed(&outcome.result);
            let calls = examples::read_alone(&printed).map(|(calls, _)| calls);
            let wrong = match &calls {
                None => Some(format!(
                    "the function could not be called: {}",
                    crate::state::head_and_tail(printed.trim_end(), WRONG_MAX)
                )),
                Some(calls) => calls.iter().find(|t| !t.same).map(examples::Tried::said),
            };
            let is_right = wrong.is_none() && calls.is_some_and(|calls| !calls.is_empty());
            right.push(is_right);
            match is_right {
                true => tried.passed += 1,
                false if tried.wrong.is_none() => tried.wrong = wrong,
                false => {}
            }
        }
        (tried, right)
    }
}

/// How an answer ranks: first by the runs it got right of those made
/// before the plan (`before`: what the program printed then is known),
/// then by all it got right (what the goal's words make it print is the
/// model's own reading of them: t44's join-sep readings agreed on
/// `one two three 2` for `--sep 2`).
fn rank(
    question: &Question,
    (tried, right): &(TriedAnswer, Vec<bool>),
    before: &[String],
) -> (usize, u32) {
    let kept = (question.runs.iter().zip(right))
        .filter(|((command, _), right)| **right && before.contains(command))
        .count();
    (kept, tried.passed)
}

/// What `command` printed, run as the model's `run_cmd` would be in the
/// folder of `tools`; what refused it, when it was.
async fn run_in(tools: &Toolbox, command: &str, stop: &crate::stop::Stop) -> String {
    let call = crate::chat::ToolCall {
        name: "run_cmd".into(),
        arguments: serde_json::json!({ "cmd": command, "timeout_sec": RUN_TIMEOUT }),
    };
    match tools.parse(&call) {
        Ok(Call::Action(action)) => {
            crate::tools::printed(&tools.execute(&action, stop).await.result).to_string()
        }
        Ok(_) => String::new(),
        Err(refusal) => refusal.to_string(),
    }
}

/// A copy of the workspace at `root` (its files as the checks list them:
/// no hidden folder, no `.agent_context`), in a temp folder removed when
/// it goes; `None` when it is larger than [`MAX_COPIED_FILES`] files or
/// [`MAX_COPIED_BYTES`] bytes, or could not be made.
fn copied(root: &Path) -> Option<tempfile::TempDir> {
    let files = super::complete::workspace_files(root);
    if files.len() > MAX_COPIED_FILES {
        return None;
    }
    let mut bytes = 0;
    for file in &files {
        bytes += fs_err::metadata(root.join(file)).ok()?.len();
    }
    if bytes > MAX_COPIED_BYTES {
        return None;
    }
    let copy = tempfile::Builder::new()
        .prefix("runner-tried-")
        .tempdir_in(crate::tools::env::temp_root())
        .ok()?;
    for file in &files {
        let to = copy.path().join(file);
        if let Some(parent) = to.parent() {
            fs_err::create_dir_all(parent).ok()?;
        }
        fs_err::copy(root.join(file), to).ok()?;
    }
    Some(copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_that_keeps_what_ran_before_ranks_above_one_that_prints_a_guess() {
        let question =
            Question::of_file("join.py".into(), "python", String::new()).with_runs(vec![
                ("python3 join.py a b --sep -".into(), "a b -".into()),
                ("python3 join.py a b".into(), "a b".into()),
            ]);
        let before = vec!["python3 join.py a b".to_string()];
        let answer = |right: Vec<bool>| {
            let passed = right.iter().filter(|r| **r).count() as u32;
            let tried = TriedAnswer {
                passed,
                runs: 2,
                wrong: None,
            };
            (tried, right)
        };
        let guess = rank(&question, &answer(vec![true, false]), &before);
        let kept = rank(&question, &answer(vec![false, true]), &before);
        let both = rank(&question, &answer(vec![true, true]), &before);
        assert!(kept > guess, "{kept:?} {guess:?}");
        assert!(both > kept);
        assert!(rank(&question, &answer(Vec::new()), &before) < guess);
    }

    #[test]
    fn a_copy_holds_the_workspace_without_its_hidden_folders() {
        let root = tempfile::tempdir().unwrap();
        fs_err::write(root.path().join("greet.py"), "print(1)\n").unwrap();
        fs_err::create_dir_all(root.path().join("pkg")).unwrap();
        fs_err::write(root.path().join("pkg/mod.py"), "x = 1\n").unwrap();
        fs_err::create_dir_all(root.path().join(".agent_context")).unwrap();
        fs_err::write(root.path().join(".agent_context/history.jsonl"), "{}\n").unwrap();
        let copy = copied(root.path()).expect("copied");
        assert_eq!(
            fs_err::read_to_string(copy.path().join("pkg/mod.py")).unwrap(),
            "x = 1\n"
        );
        assert!(copy.path().join("greet.py").is_file());
        assert!(!copy.path().join(".agent_context").exists());
    }
}
