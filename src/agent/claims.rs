//! The claims of a reply, before it is logged: a claim that a check subtask
//! is done, made while the check's result for the files as they are is not
//! known, becomes the run of the check; an edit of the file the active
//! subtask writes, while the file is not there, becomes its write.

use super::{Agent, focus};
use crate::chat::ToolCall;
use crate::state::SubtaskKind;
use crate::tools::{Action, Call, Refusal};

/// A call as the tools parsed it.
pub(super) type Parsed = Result<Call, Refusal>;

impl Agent<'_> {
    /// The reply's calls with an edit of the file the active subtask
    /// writes, while it is not there, made its write: it can only mean the
    /// file holding `new`, and nothing is there to lose. n1's fizzbuzz was
    /// told to begin its test file "so", edited that start into the whole
    /// right file, was told "no such file" and never wrote it. Done before
    /// the writes are reviewed, so that such a write is mended as any
    /// other: t1's slug-tests made `tests/test_slug.py` one top-level
    /// assert this way, which the review would have put in a test
    /// function, and pytest found no test.
    pub(super) fn edits_of_absent_files_written(&self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        let writes = match self.state().tree.active().map(|(_, subtask)| &subtask.kind) {
            Some(SubtaskKind::Write { path }) => self.tools.shown_path(path),
            _ => None,
        };
        if writes.is_none() {
            return calls;
        }
        calls
            .into_iter()
            .map(|call| match self.tools.parse(&call) {
                Ok(Call::Action(Action::EditFile { path, new, .. }))
                    if self.tools.shown_path(&path) == writes
                        && !new.trim().is_empty()
                        && !self.tools.exists(&path) =>
                {
                    tracing::warn!(
                        path,
                        "an edit of the file the subtask writes, which is not there: writing it"
                    );
                    ToolCall {
                        name: "write_file".into(),
                        arguments: serde_json::json!({ "path": path, "content": new }),
                    }
                }
                _ => call,
            })
            .collect()
    }

    /// The calls of a reply with each claim that a check subtask is done,
    /// made while the check's result for the files as they are is not known
    /// (it has not run since the last write), turned into the run of the
    /// check: the subtask is done when the check passes, and that run is
    /// what finds out. A small model claims "done" after a fix rather than
    /// run the check, and refused, claims it again or says it in prose
    /// (Qwen2.5-Coder 1.5B: "Mark the subtask complete with success=true."
    /// four rounds in a row, until the run stopped). A claim after the
    /// check failed, with nothing changed since, is refused as before.
    /// Done before the reply is logged: the log and the conversation hold
    /// the run of the check.
    /// Each call comes back with its parse, the one the call is handled
    /// with.
    pub(super) fn checked_claims(&self, calls: Vec<ToolCall>) -> Vec<(ToolCall, Parsed)> {
        let state = self.state();
        let parse = |call: ToolCall| {
            let parsed = self.tools.parse(&call);
            (call, parsed)
        };
        let Some(check) = focus::check_command(state) else {
            return calls.into_iter().map(parse).collect();
        };
        let mut unknown = focus::check_unknown(state, &check);
        calls
            .into_iter()
            .map(parse)
            .map(|(call, parsed)| match &parsed {
                Ok(Call::Action(Action::WriteFile { .. } | Action::EditFile { .. })) => {
                    unknown = true;
                    (call, parsed)
                }
                Ok(Call::Action(Action::RunCmd { cmd, .. }))
                    if cmd.split_whitespace().eq(check.split_whitespace()) =>
                {
                    unknown = false;
                    (call, parsed)
                }
                Ok(Call::Complete { success: true, .. }) if unknown => {
                    tracing::warn!(check, "a claim that the check subtask is done, made before the check ran on the files as they are: running the check");
                    unknown = false;
                    parse(ToolCall {
                        name: "run_cmd".into(),
                        arguments: serde_json::json!({ "cmd": check }),
                    })
                }
                _ => (call, parsed),
            })
            .collect()
    }
}
