//! Step 7 of the round and its relatives: what the model is told when it
//! answers in prose, or when its calls could not be used.

use serde_json::Value;

use super::{Agent, MAX_CORRECTIONS, focus};
use crate::chat::ToolSpec;
use crate::lang;
use crate::model::text_calls;
use crate::state::{Came, Ending, Event, NudgeKind, Outcome, SubtaskKind};
use crate::store::{Durability, StoreError};
use crate::tools::{self, Call, Refusal, RefusalKind};

impl Agent<'_> {
    /// The model answered in prose while subtasks remain: nudge it,
    /// escalating, or stop (resumably) when this subtask's nudges are spent.
    /// `contents` are the written files the round's prompt showed.
    pub(super) async fn nudge(
        &mut self,
        contents: &[(String, String)],
    ) -> Result<Option<Ending>, StoreError> {
        let state = self.state();
        let Some((_, subtask)) = state.tree.active() else {
            return Ok(None);
        };
        let subtask = subtask.description.clone();
        if state.nudges >= self.settings.max_nudges {
            let reason = format!(
                "the model stopped calling tools on \"{subtask}\" ({} nudges spent); \
                 run `runner resume` to try again",
                self.settings.max_nudges
            );
            return self
                .end_reflecting(Outcome::Stopped, reason)
                .await
                .map(Some);
        }
        let level = state.nudges + 1;
        let left = self.settings.max_rounds.saturating_sub(state.run_rounds);
        let missing = match state.files.len() {
            0 => "No file has been written yet.".to_string(),
            n => format!("{n} files written so far; the subtask is still open."),
        };
        // The exact call to write: a small model that did the work and then
        // described it copies this; one whose command failed is told which
        // file to fix; one that did nothing is shown the form of a call.
        let how = match focus::last(state) {
            focus::Last::Worked { did } => match focus::after_work(state, &did) {
                focus::Ending::Complete(call) => {
                    format!("If it is done, answer with exactly {call}")
                }
                focus::Ending::CheckAgain(call) => {
                    format!("Run the check again: answer with exactly {call}")
                }
            },
            focus::Last::Failed { what, file } => {
                format!(
                    "Your last command failed: {what}. {}",
                    focus::fix_failure(state, file.as_deref(), &what, contents)
                )
            }
            focus::Last::Nothing | focus::Last::Refused { .. } => {
                "Answer with one tool call as JSON, e.g. {\"name\": \"write_file\", \
                 \"arguments\": {\"path\": \"...\", \"content\": \"...\"}} or {\"name\": \
                 \"run_cmd\", \"arguments\": {\"cmd\": \"...\"}}."
                    .to_string()
            }
        };
        let message = match level {
            1 => format!(
                "You answered without calling a tool, but the ACTIVE SUBTASK is not done: \
                 {subtask}. {missing} {left} rounds are left. Call a tool now; if your approach \
                 did not work, try another one. {how}"
            ),
            2 => format!(
                "You stopped twice without acting. Act now: write a file (write_file), run a \
                 command (run_cmd), or mark the subtask complete or failed \
                 (mark_subtask_complete). {how}"
            ),
            _ => format!(
                "Last chance: call mark_subtask_complete now, with success=true if \"{subtask}\" \
                 is done, or success=false and the reason if it cannot be done."
            ),
        };
        self.record(
            Event::Nudged {
                kind: NudgeKind::Prose,
                level,
                message,
            },
            Durability::Lazy,
        )?;
        Ok(None)
    }

    /// Every call of the last reply was refused (unknown tool, bad
    /// arguments) and this round has corrections left.
    pub(super) fn needs_correction(&self) -> bool {
        let state = self.state();
        state.reply.is_none()
            && state.reply_calls > 0
            && state.reply_rejected == state.reply_calls
            && state.corrections < MAX_CORRECTIONS
    }

    /// Tells the model why its calls were refused, with the tools' schemas;
    /// or, when they were well formed and refused for what they held (a
    /// file not written, a completion not accepted), only why: the schemas
    /// would bury the one thing to change, and the model sends the same
    /// call again.
    pub(super) fn correct(&mut self) -> Result<(), StoreError> {
        let state = self.state();
        let errors: Vec<String> = state
            .conversation
            .back()
            .map(|exchange| {
                exchange
                    .iter()
                    .filter(|m| m.role == crate::chat::Role::Tool)
                    .map(|m| m.content.clone())
                    .collect()
            })
            .unwrap_or_default();
        let last = state.exchanges.saturating_sub(1);
        let mut facts = state
            .calls
            .iter()
            .filter(|fact| fact.exchange == last)
            .peekable();
        let refused_as_is = facts.peek().is_some()
            && facts
                .all(|fact| matches!(fact.came, Came::Refused { kind } if kind.is_about_content()));
        if refused_as_is {
            return self.record_correction(format!(
                "Your call was not run: {}. Answer with the corrected call.",
                errors.join("; ").trim_end_matches('.')
            ));
        }
        self.send_correction(&errors.join("; "))
    }

    pub(super) fn send_correction(&mut self, error: &str) -> Result<(), StoreError> {
        let schemas: Vec<String> = tools::specs()
            .iter()
            .map(|spec| {
                format!(
                    "- {}: {} Call: {}",
                    spec.name,
                    spec.description,
                    call_form(spec)
                )
            })
            .collect();
        let message = format!(
            "Your last reply had no tool call that could run ({error}). Answer with exactly one \
             of these tool calls, as JSON, with your values in place of the dots:\n{}",
            schemas.join("\n")
        );
        self.record_correction(message)
    }

    pub(super) fn record_correction(&mut self, message: String) -> Result<(), StoreError> {
        let level = self.state().corrections + 1;
        self.record(
            Event::Nudged {
                kind: NudgeKind::Correction,
                level,
                message,
            },
            Durability::Lazy,
        )?;
        Ok(())
    }

    /// Why a reply without a usable call did not give one, when it tried:
    /// the JSON error, or the token cap that cut it.
    pub(super) fn broken_call(&self, content: &str, done_reason: Option<&str>) -> Option<String> {
        let error = text_calls::diagnose(content, &tools::names())?;
        if done_reason == Some(crate::model::runaway::REPEATING) {
            return Some(
                "your reply began to repeat the same lines over and over, so it was stopped and \
                 the call is incomplete: write each line once, and end the call"
                    .into(),
            );
        }
        if done_reason == Some("length") {
            return Some(format!(
                "your reply was cut off at the limit of {} tokens, so the call is incomplete: \
                 write less in one call (a shorter file)",
                self.settings.num_predict
            ));
        }
        Some(error)
    }

    /// What to answer with after a reply the token cap cut (or the runner
    /// stopped) in a call: a file that is there is changed a part at a
    /// time; a new one is written shorter first. t106's temps-tests, told
    /// to edit_file a part of tests/test_temps.py after its write of the
    /// new file was cut, edited the file that was not there nine times.
    pub(super) fn after_cut_off(&self, content: &str) -> String {
        let new_file = text_calls::begun_calls(content, &tools::names())
            .into_iter()
            .filter(|call| call.name == "write_file")
            .find_map(|call| call.arguments["path"].as_str().map(str::to_string))
            .filter(|path| self.tools.contents(path).is_none());
        match new_file {
            Some(path) => format!(
                "{path} is not there yet, so write_file it shorter: each test or function once, \
                 a few of them; add more after with edit_file."
            ),
            None => "to change part of a file, edit_file that part.".into(),
        }
    }

    /// A checked call the runner still refuses: a subtask marked done before
    /// anything was done for it (small models copy the call that ends a
    /// subtask from their prompt), or a file written with the mark of a
    /// shortened call or result (copied from the history, it would cut the
    /// file), or a write its language refused (see [`crate::lang`]), or an
    /// edit that leaves its file as its language would refuse a write, or
    /// a write or an edit that drops an assert of the project's own tests
    /// or a definition of a file that was there, which the goal does not
    /// name.
    pub(super) fn accept(&self, call: Call) -> Result<Call, Refusal> {
        let state = self.state();
        match &call {
            Call::Complete { success: true, .. } if !focus::acted(state) => Err(Refusal::new(
                RefusalKind::NothingDone,
                "not accepted: nothing has been done for the ACTIVE SUBTASK yet (no tool ran for \
                 it). Do it first with one tool call, then mark it complete.",
            )),
            // A subtask that writes a file is not done while the file is
            // not there: an rps run's game module was refused as Python
            // could not read it, the model ran pytest (no test ran) and
            // marked the module's subtask done, and the game was never
            // written. Refused once a subtask: the completion check judges
            // what is there in the end.
            Call::Complete { success: true, .. }
                if let Some((_, subtask)) = state.tree.active()
                    && let SubtaskKind::Write { path } = &subtask.kind
                    && !self.written_as(path)
                    && !focus::completion_refused(state, RefusalKind::FileMissing) =>
            {
                Err(Refusal::new(
                    RefusalKind::FileMissing,
                    format!(
                        "not accepted: this subtask writes {path}, and {path} is not there: \
                         write it first (write_file with its whole content); if it cannot be \
                         written, mark the subtask with success=false and the reason."
                    ),
                ))
            }
            // A test file's subtask marked done while a function of the
            // code the goal asks tests of, which its words name, is called
            // by no test: t7's, t10's and t12's slug-tests plans asked for
            // "tests for slugify and truncate", the model wrote tests of
            // slugify alone and marked the subtask done, and a whole cycle
            // went to truncate, which none of them got to pass. Refused
            // once a subtask, with the first line of each test to add.
            Call::Complete { success: true, .. }
                if !focus::completion_refused(state, RefusalKind::Untested)
                    && let Some((code, untested)) = self.untested_here()
                    && let Some((_, subtask)) = state.tree.active()
                    && let SubtaskKind::Write { path } = &subtask.kind =>
            {
                let names: Vec<&str> = untested.iter().map(|(name, _)| name.as_str()).collect();
                let heads: Vec<&str> = untested.iter().map(|(_, head)| head.as_str()).collect();
                Err(Refusal::new(
                    RefusalKind::Untested,
                    format!(
                        "not accepted yet: no test in {path} calls {} of {code}. Add to {path} \
                         a test of its own for each, below the tests there, calling it and \
                         asserting what it returns: `{}`. Then mark the subtask complete; if \
                         they must not be tested here, mark it complete again.",
                        names.join(", "),
                        heads.join("`, `"),
                    ),
                ))
            }
            Call::Complete { success: true, .. }
                if let Some(path) = focus::unchanged(state)
                    && !focus::completion_refused(state, RefusalKind::NothingChanged) =>
            {
                let why = match state.cycles > 0 {
                    true => "the check of the work found this missing in the files as they are",
                    false => "this subtask changes a file that was there before the run",
                };
                Err(Refusal::new(
                    RefusalKind::NothingChanged,
                    format!(
                        "not accepted: {why}, and no file has changed since this subtask began. \
                         Change {path} (edit_file or write_file) so that it is true; if it cannot \
                         be done, mark the subtask with success=false and the reason."
                    ),
                ))
            }
            // A package's `__init__.py` written without the names of the
            // package's modules: `from mathx import add` gives the module
            // (n1's package wrote it empty, as its plan said, and pytest
            // failed on `mathx.add(1, 2)`). Refused once a subtask, with
            // the lines that bind them.
            Call::Complete { success: true, .. }
                if let Some((_, subtask)) = state.tree.active()
                    && let SubtaskKind::Write { path } = &subtask.kind
                    && !focus::completion_refused(state, RefusalKind::Unexported)
                    && let missing = self
                        .unexported()
                        .into_iter()
                        .filter(|u| u.binder == *path)
                        .collect::<Vec<_>>()
                    && let Some(first) = missing.first() =>
            {
                let lines: Vec<&str> = missing.iter().map(|u| u.binding.as_str()).collect();
                Err(Refusal::new(
                    RefusalKind::Unexported,
                    format!(
                        "not accepted yet: {path} does not import {name} from {module}, so `from \
                         {package} import {name}` gives the module, not {name}. Put these lines \
                         in {path}:\n{}\nthen mark the subtask complete. If {path} must not \
                         import them, mark the subtask complete again.",
                        lines.join("\n"),
                        name = first.name,
                        module = first.module,
                        package = first.package,
                    ),
                ))
            }
            // A parameter the change gave a function that no call of it
            // in the file gives: the change never takes effect (two
            // cli-flag runs gave `greeting` a `shout=False` that `main`
            // never passed, and marked the change done). Refused once a
            // subtask: a parameter meant for callers elsewhere passes on
            // the second claim.
            Call::Complete { success: true, .. }
                if !focus::completion_refused(state, RefusalKind::Unwired)
                    && let Some((path, unpassed)) = self.unwired() =>
            {
                Err(Refusal::new(
                    RefusalKind::Unwired,
                    format!(
                        "not accepted yet: {}, so what you changed never happens. {} If no \
                         call there is meant to give it, mark the subtask complete again.",
                        unpassed.describe(&path),
                        self.wiring(&path, &unpassed)
                    ),
                ))
            }
            // A run after the last write shows the program does not read an
            // option of the goal's as one: it printed it back, taking it for
            // an argument (e1's cli-flag marked `greet.py` done while
            // `--shout` came out as the name), or printed what it prints
            // without it (f1's); or a program that ran before the plan
            // fails now (l3's, NameError). Refused once a subtask for each,
            // with what to do (the edit that leaves options out, when there
            // is one).
            Call::Complete { success: true, .. }
                if let Some(taken) = self.last_runs_found()
                    && !focus::completion_refused(state, taken.kind) =>
            {
                // An edit given to copy is made by the runner at the next
                // claim without it (see `Agent::edit_ignored`).
                let again = match taken.edit {
                    Some(_) => {
                        "Marked complete again without it, the edit is made for you".to_string()
                    }
                    None => format!("{}, mark the subtask complete again", taken.again),
                };
                Err(Refusal::new(
                    taken.kind,
                    format!(
                        "not accepted yet: after your last change, {}. {}, then mark the \
                         subtask complete. {again}.",
                        taken.told, taken.advice
                    ),
                ))
            }
            Call::Complete { success: true, .. }
                if let Some(check) = focus::check_command(state)
                    && !focus::check_passed(state, &check) =>
            {
                let prints = focus::check_expects(state)
                    .map(|expects| format!(" and prints {expects:?}"))
                    .unwrap_or_default();
                Err(Refusal::new(
                    RefusalKind::CheckNotPassed,
                    format!(
                        "not accepted: this subtask is done when `{check}` exits with code \
                         0{prints}, and it has not since the last change. Run it: {} If it \
                         fails, fix the file it points at; if it cannot be made to pass, mark \
                         the subtask with success=false and the reason.",
                        focus::run_call(&check)
                    ),
                ))
            }
            Call::Complete { success: false, .. }
                if !focus::acted(state)
                    && let focus::Last::Refused {
                        why,
                        kind: Some(kind),
                    } = focus::last(state)
                    && kind.is_refused_write()
                    && !focus::gave_up_before(state) =>
            {
                Err(Refusal::new(
                    RefusalKind::GaveUpTooSoon,
                    format!(
                        "{GIVING_UP} your write was refused, not tried: {why} Write the file \
                         again with that changed; give the subtask up only if that fails."
                    ),
                ))
            }
            // A change of a file the project had given up after a write
            // that left it as it was: nothing of the change was tried.
            // t97's add-hex wrote colors.py back unchanged and gave
            // "Add hex_to_rgb" up at its second round. Not after a refused
            // write: that was tried.
            Call::Complete { success: false, .. }
                if let Some(path) = focus::unchanged(state)
                    && !focus::write_refused_in_subtask(state)
                    && !focus::gave_up_before(state) =>
            {
                Err(Refusal::new(
                    RefusalKind::GaveUpTooSoon,
                    format!(
                        "{GIVING_UP} nothing this subtask asks was tried: {path} is as it was. \
                         Change {path} as the subtask says, keeping the rest of it (with \
                         edit_file, or write_file and the whole new content); give the subtask \
                         up only if that fails."
                    ),
                ))
            }
            Call::Action(tools::Action::WriteFile { path, content, .. })
                if let Some(mark) = cut_mark(content) =>
            {
                Err(Refusal::new(
                    RefusalKind::ShortenedContent,
                    format!(
                        "not written: the content of {path} holds \"{mark}\", the mark of text \
                         shortened in your history, so it is not the whole file. Give the \
                         complete content."
                    ),
                ))
            }
            Call::Action(tools::Action::WriteFile { path, content, .. })
                if let Some(refusal) = self.kept(path, content, true) =>
            {
                Err(refusal)
            }
            Call::Action(tools::Action::WriteFile { path, content, .. })
                if let Some(refusal) = self.refusal(path, content) =>
            {
                Err(Refusal::new(
                    RefusalKind::LanguageRefused,
                    self.refused_write(path, content, refusal),
                ))
            }
            Call::Action(tools::Action::EditFile { path, old, new })
                if let Some((before, after)) = self.edited(path, old, new)
                    && let Some(refusal) = self
                        .kept(path, &after, false)
                        .or_else(|| self.edit_refusal(path, &before, &after)) =>
            {
                Err(refusal)
            }
            _ => Ok(call),
        }
    }
}

impl Agent<'_> {
    /// What a file of the project the active subtask changed (or is to
    /// change) leaves unwired that it did not when the run began (see
    /// [`lang::newly_unpassed`]): `no call in greet.py gives `shout` to
    /// `greeting` ...`, read against the file as it was, from the blob its
    /// first change kept. A file the run wrote is not held so: a new
    /// program's `play(rounds=3)` called as `play()` is its design.
    fn unwired(&self) -> Option<(String, lang::Unpassed)> {
        let state = self.state();
        focus::changed_files(state).into_iter().find_map(|path| {
            let sha256 = state.baseline.files.get(&path)?.sha256.as_deref()?;
            let before = crate::store::blobs::read(self.store.paths(), sha256).ok()??;
            let before = String::from_utf8(before).ok()?;
            let now = self.tools.text(&path)?;
            let unpassed =
                lang::newly_unpassed(&self.reviews.languages, &path, Some(&before), &now)
                    .into_iter()
                    .next()?;
            Some((path, unpassed))
        })
    }

    /// How to give the parameter `unpassed` names: for one that is an
    /// option the goal names (`shout` for `--shout`), the call with it
    /// given as its language reads the option, as rustc suggests a fix.
    fn wiring(&self, path: &str, unpassed: &lang::Unpassed) -> String {
        let options = crate::state::verdict::named_options(&self.state().goal);
        let option = options
            .iter()
            .find(|option| option.trim_start_matches('-').replace('-', "_") == unpassed.parameter);
        let suggested = option.and_then(|option| {
            let given = self
                .reviews
                .languages
                .for_path(path)?
                .option_given(option)?;
            Some((option, given.clone(), unpassed.given(&given)?))
        });
        match suggested {
            Some((option, given, call)) => format!(
                "`{}` is the goal's {option}, and `{given}` is True when it is given: make the \
                 call `{call}` (edit_file{}), then mark the subtask complete.",
                unpassed.parameter,
                self.wiring_edit(path, unpassed, &call)
                    .map(|edit| format!(": {edit}"))
                    .unwrap_or_default()
            ),
            None => "Make that call give it, with the value from where the caller gets it, \
                     then mark the subtask complete."
                .to_string(),
        }
    }

    /// The `edit_file` call that makes the first call of `unpassed` the
    /// `call` that gives its parameter, as the model would write it: the
    /// call's whole line quoted, and that line with the call changed. A
    /// small model told the call to make edited the function again, not its
    /// caller (d1's cli-flag, three times); it copies a call it is shown.
    /// `None` when the line does not hold the call once.
    fn wiring_edit(&self, path: &str, unpassed: &lang::Unpassed, call: &str) -> Option<String> {
        let first = unpassed.calls.first()?;
        let text = self.tools.text(path)?;
        let line = text
            .lines()
            .nth(usize::try_from(first.line).ok()?.checked_sub(1)?)?;
        (line.matches(first.text.as_str()).count() == 1).then_some(())?;
        Some(edit_call(
            path,
            line,
            &line.replacen(first.text.as_str(), call, 1),
        ))
    }

    /// Whether `path` is there, or the run wrote a file of its name in
    /// another folder (`tests/test_x.py` for `test_x.py`).
    fn written_as(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        self.tools.contents(path).is_some()
            || self.state().files.keys().any(|written| {
                written.rsplit('/').next() == Some(name) && self.tools.exists(written)
            })
    }

    /// A write its language refused, told to the model: what is wrong, and
    /// what to write instead when the language knows. A test file that is
    /// a copy of a file the run wrote is said to be one: a small model shown
    /// a module's content writes it again as its test file (Qwen2.5-Coder
    /// 1.5B did, twice in a row, then gave the subtask up).
    fn refused_write(&self, path: &str, content: &str, refusal: lang::Refusal) -> String {
        let copy = self
            .reviews
            .languages
            .is_test(path)
            .then(|| {
                self.state()
                    .files
                    .keys()
                    .filter(|other| other.as_str() != path)
                    .find(|other| {
                        self.tools.contents(other).is_some_and(|old| {
                            String::from_utf8_lossy(&old).trim() == content.trim()
                        })
                    })
            })
            .flatten()
            .map(|other| format!(" It is the content of {other}, not tests of it."))
            .unwrap_or_default();
        let instead = refusal
            .instead
            .map(|start| format!(" Begin it so:\n{start}"))
            .unwrap_or_default();
        format!("not written: {}{copy}{instead}", refusal.reason)
    }
}

/// An `edit_file` call as the model would write it: name, then path, old
/// and new.
pub(super) fn edit_call(path: &str, old: &str, new: &str) -> String {
    let quoted = |text: &str| serde_json::Value::from(text).to_string();
    format!(
        "{{\"name\": \"edit_file\", \"arguments\": {{\"path\": {}, \"old\": {}, \"new\": {}}}}}",
        quoted(path),
        quoted(old),
        quoted(new)
    )
}

/// The start of the refusal of a subtask given up after nothing but a
/// refused write: Qwen2.5-Coder 1.5B gave a test file up at once when told
/// two of its asserts contradicted each other, and wrote the file in the
/// next subtask with the mistake the refusal would have kept out.
/// Refused once a subtask.
const GIVING_UP: &str = "not accepted: do not give up yet:";

/// The marks the state leaves in shortened text: "… [1234 bytes in all]"
/// (a long argument) and "[... 1234 bytes cut ...]" (a long result).
fn cut_mark(content: &str) -> Option<String> {
    for (open, close) in [("… [", " bytes in all]"), ("[... ", " bytes cut ...]")] {
        let mut rest = content;
        while let Some(at) = rest.find(open) {
            let after = &rest[at + open.len()..];
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && after[digits..].starts_with(close) {
                return Some(format!("{open}{}{close}", &after[..digits]));
            }
            rest = after;
        }
    }
    None
}

/// A tool's call as the model should write it, its required arguments with
/// placeholders: `{"name": "run_cmd", "arguments": {"cmd": "..."}}`.
fn call_form(spec: &ToolSpec) -> String {
    let required: Vec<&str> = spec.parameters["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let arguments: Vec<String> = required
        .iter()
        .map(|name| {
            let placeholder = match spec.parameters["properties"][name]["type"].as_str() {
                Some("boolean") => "true",
                Some("integer") => "1",
                _ => "\"...\"",
            };
            format!("\"{name}\": {placeholder}")
        })
        .collect();
    format!(
        "{{\"name\": \"{}\", \"arguments\": {{{}}}}}",
        spec.name,
        arguments.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_shown_in_the_form_to_write() {
        let form = |name: &str| {
            let spec = tools::specs().iter().find(|s| s.name == name).unwrap();
            call_form(spec)
        };
        assert_eq!(
            form("write_file"),
            r#"{"name": "write_file", "arguments": {"path": "...", "content": "..."}}"#
        );
        assert_eq!(
            form("mark_subtask_complete"),
            r#"{"name": "mark_subtask_complete", "arguments": {"success": true, "reason": "..."}}"#
        );
        for spec in tools::specs() {
            let call: Value = serde_json::from_str(&call_form(spec)).unwrap();
            assert_eq!(call["name"], spec.name);
        }
    }

    #[test]
    fn the_marks_of_shortened_text_are_found() {
        assert_eq!(
            cut_mark("x = 1\n… [2048 bytes in all]").as_deref(),
            Some("… [2048 bytes in all]")
        );
        assert_eq!(
            cut_mark("a\n[... 77 bytes cut ...]\nb").as_deref(),
            Some("[... 77 bytes cut ...]")
        );
        assert_eq!(cut_mark("print('[... n bytes cut ...]')"), None);
        assert_eq!(cut_mark("plain code"), None);
    }
}
