//! The calls of a reply: its native tool calls, or else the calls the
//! model wrote as text (JSON in prose, a file as a code block, a call cut
//! by the token cap). See [`crate::model::text_calls`] for the parsing.

use super::{Agent, focus};
use crate::chat::ToolCall;
use crate::model::text_calls;
use crate::state::SubtaskKind;
use crate::tools;

impl Agent<'_> {
    /// The reply's calls, and whether they were taken from its text.
    pub(super) fn calls_of(
        &self,
        content: &str,
        tool_calls: Vec<ToolCall>,
        done_reason: Option<&str>,
    ) -> (Vec<ToolCall>, bool) {
        if !tool_calls.is_empty() {
            // Native calls too: the file the text gives goes first.
            let calls = self.with_fenced_files(content, tool_calls);
            return (calls, false);
        }
        let names = tools::names();
        let cut = crate::model::runaway::cut_off(done_reason);
        let calls = text_calls::extract(content, &names);
        let mut calls = self.with_fenced_files(content, calls);
        if calls.is_empty() && !cut {
            calls = text_calls::extract_unclosed(content, &names);
        }
        // Cut at the cap while repeating itself: the file up to where the
        // repetition began is the model's work; asked again, it repeats
        // itself again, minutes a reply.
        if calls.is_empty()
            && cut
            && let Some((writes, dropped)) = text_calls::cut_repetition(content, &names)
        {
            tracing::warn!(
                dropped,
                "the reply was cut at the token cap while repeating lines; \
                 writing its file up to where the repetition began"
            );
            calls = writes;
        }
        // Stopped by the runner as it began to repeat itself, before the
        // rules above see enough of the loop: the file up to where the
        // repetition began (see `runaway::repetition_start`).
        if calls.is_empty()
            && done_reason == Some(crate::model::runaway::REPEATING)
            && let Some(at) = crate::model::runaway::repetition_start(content)
            && let Some(writes) = text_calls::cut_before(content, at, &names)
        {
            tracing::warn!(
                at,
                "the reply was stopped as it repeated lines; writing its file up to where the \
                 repetition began"
            );
            calls = writes;
        }
        // A command given as a code block, when nothing else is a call.
        if calls.is_empty()
            && let Some(call) = text_calls::fenced_command(
                content,
                &self.tools.config().allowed,
                focus::check_command(self.state()).as_deref(),
            )
        {
            calls.push(call);
        }
        // A completion written as a sentence, when nothing else is a call
        // (what it claims is judged as any claim is).
        if calls.is_empty()
            && let Some(call) = text_calls::completion_in_prose(content)
        {
            calls.push(call);
        }
        let from_text = !calls.is_empty();
        (calls, from_text)
    }

    /// `calls` after the files the reply's text gives as code blocks: a
    /// file so given is written before the calls after it (the run of the
    /// tests it fixes, the claim that it is done), unless a call writes or
    /// edits a file itself. Under a subtask that writes one file, only a
    /// block of that file is: an add-tests run, under "Write
    /// test_inventory.py: ... inventory.py stays as it is", had its block
    /// of inventory.py with docstrings added written over the project's
    /// file. Nor is a block that would drop a top-level definition the file
    /// has (by its language) that the goal does not name: which file a
    /// block of prose is meant for is a guess, and q2's line-count, told to
    /// write a sample for `line_count.py`, explained in prose how to, and
    /// its example block, named after "that line_count.py reads", was
    /// written over the right program. Unless it is definitions alone that
    /// the language puts in beside the others, as a write of them is.
    fn with_fenced_files(&self, content: &str, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        if calls
            .iter()
            .any(|call| call.name == "write_file" || call.name == "edit_file")
        {
            return calls;
        }
        let state = self.state();
        let paths = match state.tree.active() {
            Some((_, subtask)) if let SubtaskKind::Write { path } = &subtask.kind => {
                vec![path.clone()]
            }
            _ => focus::known_paths(state),
        };
        let current = |path: &str| {
            let bytes = self.tools.contents(path)?;
            String::from_utf8(bytes).ok()
        };
        // Definitions alone that the file's language puts in beside what
        // it holds are what a write of them is (see `merged`), however
        // short: u2's temp-fix gave the right `celsius_to_fahrenheit`
        // alone in a block of its prose, which was dropped as a snippet,
        // and never wrote it as a call.
        let part = |path: &str, code: &str| self.merged(path, code).is_some();
        let writes = text_calls::fenced_files(content, &paths, current, part)
            .into_iter()
            .filter(|write| {
                let path = write.arguments["path"].as_str().unwrap_or_default();
                let code = write.arguments["content"].as_str().unwrap_or_default();
                let lost = current(path)
                    .map(|old| self.lost_unasked(path, &old, code))
                    .unwrap_or_default();
                let taken = lost.is_empty() || part(path, code);
                if !taken {
                    tracing::warn!(
                        path,
                        ?lost,
                        "a code block of the reply's prose that would drop definitions of the \
                         file: not taken for its content"
                    );
                }
                taken
            });
        writes.chain(calls).collect()
    }
}
