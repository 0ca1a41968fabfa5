//! Answers tried before one is written: an answer to a question of its
//! own whose program must print what known commands print (see
//! [`Question::runs`]) is run first in a copy of the workspace, and while
//! it prints otherwise the question is asked again, warmer, a few times;
//! the answer that printed most of what it must is written. Asked the same
//! question seven times, Qwen2.5-Coder 1.5B answered greet-shout's right
//! once (/tmp experiments of the session of 2026-12-01 18:42): written at
//! once, a wrong answer was the file the next question showed back, and
//! the model gave it back unchanged (t42's greet-shout, six times).

use std::path::Path;

use super::Agent;
use super::prompt::{self, Question};
use crate::chat::Usage;
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
    /// question's runs must, else the one that printed most of it (the
    /// earliest of those). The others are logged as
    /// [`Event::AnswersTried`]. A question with no runs, or a workspace
    /// too large to copy, gives `first`.
    pub(super) async fn best_answer(
        &mut self,
        question: &Question,
        again: u32,
        first: ChatReply,
    ) -> Result<ChatReply, StoreError> {
        if question.runs.is_empty() {
            return Ok(first);
        }
        let Some(copy) = copied(self.tools.root()) else {
            return Ok(first);
        };
        let tools = self.tools.elsewhere(copy.path());
        let mut best_tried = self.try_answer(question, &first, &tools).await;
        let mut best = first;
        let mut tried = Vec::new();
        let mut usage = Usage::default();
        let mut retries = 0;
        let mut asked = 1;
        while best_tried.passed < best_tried.runs && asked < MAX_TRIED {
            let request =
                prompt::question_request(self.settings, self.num_ctx, question, again + asked);
            let reply = match self.ask(&request).await {
                Some(Ok(reply)) => reply,
                // Stopped, or the model failed: the best answer so far.
                _ => break,
            };
            asked += 1;
            let this = self.try_answer(question, &reply, &tools).await;
            let (kept, dropped, dropped_tried) = match this.passed > best_tried.passed {
                true => (reply, best, std::mem::replace(&mut best_tried, this)),
                false => (best, reply, this),
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
    /// prints what they must, written in the copy `tools` work in. An
    /// answer with no code to write passes none.
    async fn try_answer(
        &mut self,
        question: &Question,
        reply: &ChatReply,
        tools: &Toolbox,
    ) -> TriedAnswer {
        let runs = question.runs.len() as u32;
        let mut tried = TriedAnswer {
            passed: 0,
            runs,
            wrong: None,
        };
        let Some(code) = self
            .answered(question, &reply.content)
            .and_then(|call| call.arguments["content"].as_str().map(str::to_string))
        else {
            return tried;
        };
        if fs_err::write(tools.root().join(&question.path), code).is_err() {
            return tried;
        }
        for (command, must) in &question.runs {
            let printed = run_in(tools, command, &self.stop).await;
            match same(&printed, must) {
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
        tried
    }
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

/// Whether two outputs are the same but for spacing.
fn same(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
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
    fn outputs_are_the_same_but_for_spacing() {
        assert!(same("one two\nthree\n", "one two three"));
        assert!(!same("one two", "one  three"));
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
