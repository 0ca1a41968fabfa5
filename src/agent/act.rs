//! Step 5 of the round: each call of the model's reply is checked, then
//! either refused, blocked as a loop, or announced, run and recorded.

use serde_json::json;

use super::Agent;
use crate::chat::ToolCall;
use crate::state::guard;
use crate::state::{Event, LoopPattern, SeenFile, WriteIntent};
use crate::store::{Durability, StoreError};
use crate::tools::{self, Action, Call, Refusal, RefusalKind};

/// Blocked actions in a row, with nothing run in between, after which the
/// subtask is given up as stuck instead of spending every round.
const STUCK_AFTER: u32 = 6;
/// Bytes of a file shown by the refusal of a blind write (head and tail).
const SHOWN_BYTES: usize = 6 * 1024;

impl Agent<'_> {
    /// Handles call `index` of the pending reply.
    pub(super) async fn handle(&mut self, index: usize, call: ToolCall) -> Result<(), StoreError> {
        let moved_on = self
            .state()
            .reply
            .as_ref()
            .is_some_and(|reply| reply.cursor != self.state().tree.cursor);
        let refusal = if index >= tools::MAX_CALLS_PER_REPLY {
            Some(Refusal::new(
                RefusalKind::PastCallLimit,
                format!(
                    "not run: only the first {} tool calls of a reply run; make fewer calls at a \
                     time",
                    tools::MAX_CALLS_PER_REPLY
                ),
            ))
        } else if moved_on {
            Some(Refusal::new(
                RefusalKind::SubtaskEnded,
                "not run: the subtask it was meant for has ended; look at the new ACTIVE SUBTASK \
                 first",
            ))
        } else {
            None
        };
        // A refusal that is not the model's doing is not counted as a loop.
        let counted = refusal.is_none();
        let parsed = match refusal {
            Some(refusal) => Err(refusal),
            None => self
                .parsed_call(index, &call)
                .and_then(|parsed| self.accept(parsed)),
        };
        let event = match parsed {
            Err(Refusal {
                kind,
                message: error,
            }) => {
                let signature = counted.then(|| refusal_signature(&call.name, &error));
                if let Some(signature) = &signature
                    && self.state().refused.contains(signature)
                {
                    let message = format!(
                        "Blocked: this {} call was refused the same way before, with no file \
                         changed in between; asking again will not change the answer. The \
                         refusal was: {error} Do what it asks, or something different.",
                        call.name
                    );
                    return self.block(index, &call.name, signature.clone(), message);
                }
                Event::CallRejected {
                    call: index,
                    tool: call.name.clone(),
                    kind,
                    error,
                    signature,
                    seen: None,
                }
            }
            // A note that says again what the last one said, with nothing
            // done in between, is a repeat: it changes nothing.
            Ok(Call::Note { text })
                if super::focus::noted_last(self.state())
                    && self.state().notes.last() == Some(&text) =>
            {
                let signature = guard::signature(&call.name, &json!({ "text": text }));
                let message = "Blocked: this note repeats the note before it, with nothing done \
                               in between; a note changes nothing. Do what it says with a tool \
                               call, or call mark_subtask_complete."
                    .to_string();
                return self.block(index, &call.name, signature, message);
            }
            Ok(Call::Note { text }) => Event::Noted { call: index, text },
            // Claimed again without the edit its refusal gave: the runner
            // makes it (see `Agent::edit_ignored`), and the subtask goes on.
            Ok(Call::Complete { success: true, .. })
                if let Some((path, edit)) = self.edit_ignored() =>
            {
                let prior = Some(self.tools.contents(&path));
                let said = "Not accepted yet: the edit you were given was not made, so the \
                            runner made it for you. "
                    .to_string();
                let action = Action::EditFile {
                    path,
                    old: edit.old,
                    new: edit.new,
                };
                return self.act(index, action, prior, Some(said)).await;
            }
            Ok(Call::Complete { success, reason }) => match self.state().tree.cursor {
                Some(cursor) => Event::SubtaskEnded {
                    call: Some(index),
                    task: cursor.task,
                    subtask: cursor.subtask,
                    success,
                    reason,
                },
                None => Event::CallRejected {
                    call: index,
                    tool: call.name.clone(),
                    kind: RefusalKind::NoActiveSubtask,
                    error: "there is no active subtask left".into(),
                    signature: None,
                    seen: None,
                },
            },
            Ok(Call::Action(mut action)) => {
                // The one read of the file a write or an edit replaces.
                let prior = match &action {
                    Action::WriteFile { path, .. } | Action::EditFile { path, .. } => {
                        Some(self.tools.contents(path))
                    }
                    _ => None,
                };
                if let (Action::WriteFile { content, .. }, Some(Some(old))) = (&mut action, &prior)
                {
                    tools::keep_final_newline(content, old);
                }
                match self.unseen(&action, prior.as_ref().and_then(Option::as_deref)) {
                    Some((refusal, seen)) => Event::CallRejected {
                        call: index,
                        tool: call.name.clone(),
                        kind: refusal.kind,
                        error: refusal.message,
                        signature: None,
                        seen: Some(Box::new(seen)),
                    },
                    None => return self.act(index, action, prior, None).await,
                }
            }
        };
        self.record(event, Durability::Lazy)?;
        Ok(())
    }

    /// Call `index` of the pending reply as it was parsed when the reply
    /// was reviewed (once: parsing reads only the call and the settings);
    /// a reply handled after a resume is parsed here.
    fn parsed_call(&mut self, index: usize, call: &ToolCall) -> Result<Call, Refusal> {
        match self.parsed.get_mut(index).and_then(Option::take) {
            Some(parsed) => parsed,
            None => self.tools.parse(call),
        }
    }

    /// Loop check, `action_started` (synced before a side effect), execute,
    /// `action_finished`. `prior`: the bytes of the file a write or an edit
    /// replaces, as read once for it (`Some(None)`: no file). `given`: what
    /// the result says first of an action the runner made in place of the
    /// call.
    async fn act(
        &mut self,
        index: usize,
        action: Action,
        prior: Option<Option<Vec<u8>>>,
        given: Option<String>,
    ) -> Result<(), StoreError> {
        let signature = action.signature();
        let recent: Vec<_> = self.state().recent.iter().collect();
        if guard::check(&recent, &signature).is_some() {
            let message = format!(
                "Blocked: {} repeats what you already did with no file changed in between, so it \
                 was not run. Do something different: change the code, run another command, or \
                 call mark_subtask_complete.",
                action.summary()
            );
            return self.block(index, action.tool(), signature, message);
        }
        // A write and an edit that applies announce the file's hashes before
        // and after, so diff, rollback and crash reconciliation cover both.
        let old = prior.as_ref().and_then(Option::as_deref);
        let after = tools::content_after(&action, old);
        let write = match &action {
            Action::WriteFile { path, .. } | Action::EditFile { path, .. } => {
                after.as_ref().map(|after| WriteIntent {
                    path: path.clone(),
                    before: old.map(tools::sha256_hex),
                    after: tools::sha256_hex(after.as_bytes()),
                })
            }
            _ => None,
        };
        // Keep what a write is about to replace: `runner rollback` restores it.
        if let Some(intent) = &write
            && intent.before.as_ref().is_some_and(|b| *b != intent.after)
            && let Some(old) = old
        {
            self.store.keep_blob(old)?;
        }
        // The hash the write announced: what the file holds after it when
        // the tool wrote what was announced.
        let announced = write.as_ref().map(|intent| intent.after.clone());
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
        let mut outcome = self.tools.execute_over(&action, prior, &self.stop).await;
        // An action the runner made in place of the call: said first.
        if let Some(given) = given {
            outcome.result.insert_str(0, &given);
        }
        // Why the active subtask is done, when the runs after the write
        // show it (see `rerun::shows`).
        let mut done = None;
        // What the programs the work is held to print now (see rerun.rs).
        if outcome.ok
            && outcome
                .write
                .as_ref()
                .is_some_and(|change| change.changed())
        {
            let (rerun, shown) = self.rerun_after_write().await;
            outcome.result.push_str(&rerun);
            done = shown;
        }
        // What the code under test returns where the tests that failed
        // expect otherwise (see returned.rs).
        if let Action::RunCmd { cmd, .. } = &action
            && outcome.exit_code.is_some_and(|code| code != 0)
        {
            let returned = self.returned_instead(cmd).await;
            outcome.result.push_str(&returned);
        }
        // Text quoted from another file of the workspace, said so.
        if let Action::EditFile { path, old, .. } = &action
            && outcome.refusal == Some(RefusalKind::EditNoMatch)
        {
            let texts: Vec<(String, String)> = super::focus::known_paths(self.state())
                .into_iter()
                .filter(|other| other != path)
                .filter_map(|other| {
                    let text = self.tools.text(&other)?;
                    Some((other, text))
                })
                .collect();
            outcome
                .result
                .push_str(&quoted_elsewhere(path, old, &texts));
        }
        // The file as the write left it, after its result: see
        // `prompt::shown_after_write`.
        if let (Some(change), Some(after), Some(announced)) = (&outcome.write, &after, &announced)
            && outcome.ok
            && change.changed()
            && change.after == *announced
        {
            outcome
                .result
                .push_str(&super::prompt::shown_after_write(&change.path, after));
        }
        self.record(
            Event::ActionFinished {
                action: started.seq,
                outcome,
            },
            Durability::Lazy,
        )?;
        if let Some(reason) = done
            && self.end_active(true, reason)?
        {
            return Ok(());
        }
        // A run of the active subtask's own command that passed (its
        // output holding what the subtask expects) ends it, when a claim
        // of it would be accepted now: the runner saw it done, and the
        // model's word adds nothing. n1's add-function ran pytest to
        // `1 passed`, then twice wrote "Mark the subtask complete" as
        // prose, and the run stopped at the round cap.
        if matches!(action, Action::RunCmd { .. })
            && let Some(check) = super::focus::check_command(self.state())
            && super::focus::check_passed(self.state(), &check)
        {
            let reason = format!("ran `{check}`: exit code 0");
            let claim = Call::Complete {
                success: true,
                reason: reason.clone(),
            };
            if self.accept(claim).is_ok() && self.end_active(true, reason)? {
                return Ok(());
            }
        }
        let given = super::focus::given_check(self.state()).map(|cmd| (cmd, None));
        let given = given.or_else(|| {
            super::focus::wanted_input(self.state(), |path| {
                self.tools
                    .contents(path)
                    .and_then(|bytes| String::from_utf8(bytes).ok())
            })
            .map(|(cmd, input)| (cmd, Some(input)))
        });
        if let Some((cmd, input)) = given
            && let Some(cursor) = self.state().tree.cursor
        {
            self.record(
                Event::CheckGiven {
                    task: cursor.task,
                    subtask: cursor.subtask,
                    cmd,
                    input,
                },
                Durability::Lazy,
            )?;
        }
        Ok(())
    }

    /// Nothing is replaced unseen: a `write_file` over an existing file
    /// whose current content the model has not been shown in this run is
    /// refused once, with that content (head and tail when large), which
    /// counts as shown. `edit_file` is not refused: it only applies to a
    /// passage the model quoted from the file, and changes nothing else.
    fn unseen(&self, action: &Action, prior: Option<&[u8]>) -> Option<(Refusal, SeenFile)> {
        let Action::WriteFile { path, .. } = action else {
            return None;
        };
        let prior = prior?;
        let now = tools::sha256_hex(prior);
        let shown = self.tools.shown_path(path)?;
        if self.state().seen.get(&shown) == Some(&now) {
            return None;
        }
        // A file that is not text is not shown; its write goes ahead.
        let text = std::str::from_utf8(prior).ok()?;
        let excerpt = crate::state::head_and_tail(text, SHOWN_BYTES);
        let error = format!(
            "not written: {shown} already exists and you have not seen its current content in \
             this run, so writing it whole could lose code the goal does not ask to change. Here \
             it is. Keep what must stay: change a part with edit_file, or write the whole file \
             again with everything it needs.\n--- {shown} ---\n{excerpt}"
        );
        Some((
            Refusal::new(RefusalKind::UnseenFile, error),
            SeenFile {
                path: shown,
                sha256: now,
            },
        ))
    }

    /// Records call `index` as blocked,
    /// then what follows a block.
    fn block(
        &mut self,
        index: usize,
        tool: &str,
        signature: String,
        message: String,
    ) -> Result<(), StoreError> {
        let recent: Vec<_> = self.state().recent.iter().collect();
        let pattern = guard::check(&recent, &signature).unwrap_or(LoopPattern::Repeat);
        // loops.json, ledger.log and memory.json follow from the record
        // (store::project).
        self.record(
            Event::ActionBlocked {
                call: index,
                tool: tool.to_string(),
                signature: signature.clone(),
                pattern,
                message,
            },
            Durability::Lazy,
        )?;
        self.after_block(&signature)
    }

    /// After a blocked call: a loop nudge (limited per run), and the subtask
    /// given up once the model is stuck.
    fn after_block(&mut self, signature: &str) -> Result<(), StoreError> {
        let state = self.state();
        if state.loop_nudges < self.settings.max_loop_nudges {
            let level = state.loop_nudges + 1;
            let message = self.settings.loop_message.clone();
            self.record(
                Event::Nudged {
                    kind: crate::state::NudgeKind::Loop,
                    level,
                    message,
                },
                Durability::Lazy,
            )?;
        }
        if self.state().blocked_in_a_row >= STUCK_AFTER {
            self.end_active(
                false,
                format!(
                    "stuck in a loop: {STUCK_AFTER} actions in a row were blocked (last: {})",
                    crate::state::guard::shown(signature)
                ),
            )?;
        }
        Ok(())
    }

    /// Ends the active subtask by the runner's own finding (no call of the
    /// model's); `false` when none is active.
    fn end_active(&mut self, success: bool, reason: String) -> Result<bool, StoreError> {
        let Some(cursor) = self.state().tree.cursor else {
            return Ok(false);
        };
        self.record(
            Event::SubtaskEnded {
                call: None,
                task: cursor.task,
                subtask: cursor.subtask,
                success,
                reason,
            },
            Durability::Lazy,
        )?;
        Ok(true)
    }
}

/// For an edit of `path` whose `old` is not there: where it is instead,
/// when it is in one other file of `texts` (path and text) — ` That text
/// is in tests/test_wordfreq.py (line 9), not in wordfreq.py ...` — else
/// nothing. t6's wordfreq-fix quoted the assert of a failing test as the
/// text of the code to change, three times, each told only the nearest
/// lines of the code.
fn quoted_elsewhere(path: &str, old: &str, texts: &[(String, String)]) -> String {
    let quoted: Vec<&str> = old
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    let Some(first) = quoted.first() else {
        return String::new();
    };
    let holds = |text: &str| {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        lines
            .windows(quoted.len())
            .position(|window| window == quoted.as_slice())
            .map(|at| at + 1)
    };
    let found: Vec<(&String, usize)> = texts
        .iter()
        .filter_map(|(other, text)| Some((other, holds(text)?)))
        .collect();
    match found.as_slice() {
        [(other, line)] => format!(
            "\nThat text is in {other} (line {line}: `{first}`), not in {path}: an edit of \
             {path} quotes lines of {path} as `old`, as they are above."
        ),
        _ => String::new(),
    }
}

/// The signature of a refusal: the tool and the error, so that the same
/// refusal is the same whatever free text (a reason) came with the call.
fn refusal_signature(tool: &str, error: &str) -> String {
    guard::signature(tool, &json!({ "refused": error }))
}

#[cfg(test)]
mod tests {
    use super::quoted_elsewhere;

    #[test]
    fn an_edit_quoting_another_files_lines_is_told_which_file_holds_them() {
        let texts = [
            (
                "tests/test_wordfreq.py".to_string(),
                "from wordfreq import top_words\n\n\ndef test_top_word():\n    assert \
                 top_words(\"a b b c c c\", 1) == [\"c\"]\n"
                    .to_string(),
            ),
            ("notes.py".to_string(), "x = 1\n".to_string()),
        ];
        let old = "assert top_words(\"a b b c c c\", 1) == [\"c\"]";
        assert_eq!(
            quoted_elsewhere("wordfreq.py", old, &texts),
            "\nThat text is in tests/test_wordfreq.py (line 5: `assert top_words(\"a b b c c \
             c\", 1) == [\"c\"]`), not in wordfreq.py: an edit of wordfreq.py quotes lines of \
             wordfreq.py as `old`, as they are above."
        );
        assert_eq!(quoted_elsewhere("wordfreq.py", "y = 2", &texts), "");
        let twice = [
            texts[0].clone(),
            ("copy.py".to_string(), texts[0].1.clone()),
        ];
        assert_eq!(
            quoted_elsewhere("wordfreq.py", old, &twice),
            "",
            "in two files: not said"
        );
    }
}
