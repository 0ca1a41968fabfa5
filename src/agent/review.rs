//! The review of the reply's writes, before the reply is logged: the
//! language of each written file (see [`crate::lang`]) accepts it, mends it
//! (the log then holds what is written) or refuses it with what to write
//! instead. One review per write: the refusal found here is what the call
//! gets when it is handled.

use std::collections::HashMap;

use super::{Agent, focus};
use crate::chat::ToolCall;
use crate::lang::{self, Languages, Refusal, Review, Workspace};
use crate::state::SubtaskKind;
use crate::tools::{self, RefusalKind, Toolbox};

/// The reviews of the pending reply's writes: path and content to the
/// refusal, `None` when accepted.
#[derive(Default)]
pub(super) struct Reviews {
    pub languages: Languages,
    done: HashMap<(String, String), Option<Refusal>>,
}

/// The workspace as the review reads it: the files at its top and those
/// the run wrote.
struct Seen<'a> {
    tools: &'a Toolbox,
    written: Vec<String>,
    /// The files there before the run.
    existed: &'a std::collections::BTreeMap<String, crate::state::BaselineFile>,
    /// The output of the active subtask's last failed command.
    failed: Option<String>,
    /// The calls the goal's words give the value of.
    given: Vec<(String, String)>,
    /// The code that stays as it is (see [`focus::staying`]).
    kept: Vec<String>,
}

impl Workspace for Seen<'_> {
    fn text(&self, path: &str) -> Option<String> {
        self.tools.text(path)
    }

    fn files(&self) -> Vec<String> {
        let mut files: Vec<String> = std::fs::read_dir(self.tools.root())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| !name.starts_with('.'))
            .chain(self.written.iter().cloned())
            .collect();
        files.sort();
        files.dedup();
        files
    }

    fn written(&self) -> Vec<String> {
        self.written.clone()
    }

    fn existed(&self, path: &str) -> bool {
        self.existed.contains_key(path)
    }

    fn failed_output(&self) -> Option<String> {
        self.failed.clone()
    }

    fn goal_examples(&self) -> Vec<(String, String)> {
        self.given.clone()
    }

    fn kept_code(&self) -> Vec<String> {
        self.kept.clone()
    }
}

/// The path and content of a `write_file` call.
fn write_of(call: &ToolCall) -> Option<(String, String)> {
    if call.name != "write_file" {
        return None;
    }
    let path = call.arguments["path"].as_str()?;
    let content = call.arguments["content"].as_str()?;
    Some((path.to_string(), content.to_string()))
}

/// Whether `a` and `b` are the same text but for blank lines, white space
/// at line ends and the last line break: a write of a code file with only
/// those changed changes nothing the file says, and over a file of the user's
/// it is a change the goal did not ask for (b2's calc-fix: the model wrote
/// the project's test_calc.py again as it was but its last line break).
fn same_but_blank(a: &str, b: &str) -> bool {
    fn lines(text: &str) -> impl Iterator<Item = &str> {
        text.lines()
            .map(str::trim_end)
            .filter(|line| !line.is_empty())
    }
    lines(a).eq(lines(b))
}

/// The path, `old` and `new` of an `edit_file` call.
fn edit_of(call: &ToolCall) -> Option<(String, String, String)> {
    if call.name != "edit_file" {
        return None;
    }
    let text = |key: &str| call.arguments[key].as_str().map(str::to_string);
    Some((text("path")?, text("old")?, text("new")?))
}

impl Agent<'_> {
    /// Step 5 of the round: the reply's calls as they are to be logged,
    /// each write reviewed by its language and each premature claim of a
    /// check turned into its run.
    /// Each call comes with its parse (see [`Agent::checked_claims`]).
    pub(super) fn reviewed(
        &mut self,
        calls: Vec<ToolCall>,
    ) -> Vec<(ToolCall, super::claims::Parsed)> {
        let calls = self.edits_of_absent_files_written(calls);
        let calls = self.review_writes(calls);
        self.checked_claims(calls)
    }

    /// The reply's calls with each write reviewed: mended where its
    /// language mends it, its refusal kept for when it is handled.
    fn review_writes(&mut self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        self.reviews.done.clear();
        calls
            .into_iter()
            .map(|mut call| {
                if let Some((path, old, new)) = edit_of(&call)
                    && let Some((old, new)) = self.put_in(&path, &old, &new)
                {
                    tracing::warn!(
                        path,
                        "an edit whose new text is whole definitions, which spliced at its \
                         quote would break the file: put in by definitions"
                    );
                    call.arguments["old"] = serde_json::Value::String(old);
                    call.arguments["new"] = serde_json::Value::String(new);
                    return call;
                }
                if let Some((path, old, new)) = edit_of(&call)
                    && let Some((old, new, why)) = self.repaired_edit(&path, &old, &new)
                {
                    tracing::warn!(path, why, "mended an edit before it is logged");
                    call.arguments["old"] = serde_json::Value::String(old);
                    call.arguments["new"] = serde_json::Value::String(new);
                    return call;
                }
                let Some((path, mut content)) = write_of(&call) else {
                    return call;
                };
                if let Some(now) = self.as_it_is(&path, &content) {
                    tracing::warn!(
                        path,
                        "a write that differs from the file only in blank lines and white space \
                         at line ends: the file kept as it is"
                    );
                    call.arguments["content"] = serde_json::Value::String(now.clone());
                    content = now;
                }
                if let Some(merged) = self.merged(&path, &content) {
                    tracing::warn!(
                        path,
                        "a write of definitions alone over a file of the project: put in \
                         beside what the file holds, not over it"
                    );
                    call.arguments["content"] = serde_json::Value::String(merged.clone());
                    content = merged;
                }
                if let Some((kept, names)) = self.passing_tests_kept(&path, &content) {
                    tracing::warn!(
                        path,
                        ?names,
                        "a write of a test file that dropped tests that passed at the last run: \
                         put back"
                    );
                    call.arguments["content"] = serde_json::Value::String(kept.clone());
                    content = kept;
                }
                if let Some(corrected) = self.corrections_kept(&path, &content) {
                    tracing::warn!(
                        path,
                        "a write of the run's test file that corrected asserts and dropped most \
                         of the others: the corrections put in, the others kept"
                    );
                    call.arguments["content"] = serde_json::Value::String(corrected.clone());
                    content = corrected;
                }
                let refusal = match self.taken(&mut call, &path, &content) {
                    Err(refusal) => Some(refusal),
                    Ok(None) => None,
                    // Mended, it may be definitions alone that the file's
                    // language can put in beside what the file holds, which
                    // it could not read before: x3's add-function wrote
                    // textutil.py with `count_vowels` in place of `reverse`
                    // and a `'!"`, and the mended write was refused for
                    // dropping `reverse` six times, never told that its
                    // `count_vowels` was `reverse`.
                    Ok(Some(mended)) => self.merged(&path, &mended).and_then(|merged| {
                        tracing::warn!(
                            path,
                            "a mended write of definitions alone over a file of the project: \
                             put in beside what the file holds, not over it"
                        );
                        call.arguments["content"] = serde_json::Value::String(merged.clone());
                        self.taken(&mut call, &path, &merged).err()
                    }),
                };
                // Mended (an import put back), a write may be the file
                // again but for blank lines: t1's temp-fix wrote the
                // project's test file without its import and its last line
                // break, the import was put back, and the file was changed.
                if refusal.is_none()
                    && let Some((path, content)) = write_of(&call)
                    && let Some(now) = self.as_it_is(&path, &content)
                {
                    tracing::warn!(path, "a mended write that is the file again: kept as it is");
                    call.arguments["content"] = serde_json::Value::String(now);
                }
                if let Some((path, content)) = write_of(&call) {
                    self.reviews.done.insert((path, content), refusal);
                }
                call
            })
            .collect()
    }

    /// What `path` holds now, when a write of `content` over it differs
    /// only in blank lines and white space at line ends (see
    /// [`same_but_blank`]) and the file is code: in prose (Markdown, text)
    /// a blank line parts two paragraphs and white space at a line's end
    /// breaks it.
    fn as_it_is(&self, path: &str, content: &str) -> Option<String> {
        let now = self.tools.text(path)?;
        (now != content
            && self.languages.iter().any(|l| l.owns(path))
            && same_but_blank(&now, content))
        .then_some(now)
    }

    /// The review of writing `content` to `path`, taken into `call`: the
    /// mended content when its language mends it (put in the call's
    /// content), `None` when it is taken as it is, or the refusal.
    fn taken(
        &self,
        call: &mut ToolCall,
        path: &str,
        content: &str,
    ) -> Result<Option<String>, Refusal> {
        match self.review(path, content) {
            Review::Accept => Ok(None),
            Review::Repair { content, why } => {
                tracing::warn!(path, why, "mended a write before it is logged");
                call.arguments["content"] = serde_json::Value::String(content.clone());
                Ok(Some(content))
            }
            Review::Refuse(refusal) => Err(refusal),
        }
    }

    /// Why writing `content` to `path` is refused: the review of the reply
    /// when it had one, else (a reply handled after a resume) a review now.
    pub(super) fn refusal(&self, path: &str, content: &str) -> Option<Refusal> {
        let key = (path.to_string(), content.to_string());
        match self.reviews.done.get(&key) {
            Some(refusal) => refusal.clone(),
            None => match self.review(path, content) {
                Review::Refuse(refusal) => Some(refusal),
                _ => None,
            },
        }
    }

    /// The text of `path` now and as an `edit_file` call would leave it;
    /// `None` when the edit does not apply (the tool says why when it runs).
    pub(super) fn edited(&self, path: &str, old: &str, new: &str) -> Option<(String, String)> {
        let before = self.tools.text(path)?;
        let after = tools::apply_edit(&before, old, new, path).ok()?;
        Some((before, after))
    }

    /// Why writing `content` to `path` (whole, or by an edit) is refused:
    /// it changes the project's tests or drops its definitions.
    pub(super) fn kept(&self, path: &str, content: &str, whole: bool) -> Option<tools::Refusal> {
        if let Some(why) = self.kept_tests(path, content) {
            return Some(tools::Refusal::new(RefusalKind::TestsKept, why));
        }
        if let Some(why) = self.against_goal(path, content) {
            return Some(tools::Refusal::new(RefusalKind::AgainstGoal, why));
        }
        if let Some(why) = self.code_under_test_kept(path, content) {
            return Some(tools::Refusal::new(RefusalKind::CodeUnderTestKept, why));
        }
        if let Some(why) = self
            .kept_definitions(path, content, whole)
            .or_else(|| self.goals_definitions_kept(path, content))
            .or_else(|| self.unasked_changes(path, content))
        {
            return Some(tools::Refusal::new(RefusalKind::DefinitionsKept, why));
        }
        if let Some(why) = self.returns_nothing(path, content) {
            return Some(tools::Refusal::new(RefusalKind::ReturnsNothing, why));
        }
        let why = self.runs_nothing(path, content)?;
        Some(tools::Refusal::new(RefusalKind::RunsNothing, why))
    }

    /// Why writing `content` to `path`, a test file, is refused: it
    /// asserts that a call returns another value than the goal's own words
    /// say (see [`lang::examples::goal_given`]), where the file did not
    /// already. Such a test can only fail on code that does what the goal
    /// says, or pass on code that does not: t26's add-duration, in the
    /// cycle that was to make `format_duration(3725)` give '1:02:05' as the
    /// goal says, wrote a test that it gives '01:02:05'.
    fn against_goal(&self, path: &str, content: &str) -> Option<String> {
        let given = self.state().goal_given();
        if given.is_empty() {
            return None;
        }
        let path = path.trim_start_matches("./");
        let language = self.reviews.languages.for_path(path)?;
        if !language.is_test(path) {
            return None;
        }
        let asserted =
            |text: &str| language.asserted_calls(&[(path.to_string(), text.to_string())]);
        let before = self
            .tools
            .text(path)
            .map(|old| asserted(&old))
            .unwrap_or_default();
        let (call, expected, value) =
            asserted(content).into_iter().find_map(|(call, expected)| {
                let value = lang::examples::goal_says(&given, &call)?;
                let against = !lang::examples::same_value(language, &expected, value)
                    && !before.contains(&(call.clone(), expected.clone()));
                against.then(|| (call, expected, value.to_string()))
            })?;
        let line = language
            .assert_equal(&call, &value)
            .map(|line| format!(": write that assert as `{line}`"))
            .unwrap_or_default();
        Some(format!(
            "not written: {path} asserts that `{call}` returns {expected}, and the goal says it \
             returns {value}. A test expects what the goal says{line}. If the code returns \
             something else, the code is what to change."
        ))
    }

    /// Why writing `content` to `path` is refused, once a subtask, because
    /// a function the goal says returns a value (see
    /// [`lang::said_to_return`]) has no `return` of one, by its language:
    /// as `content` defines it, or, for a test file, as the workspace's
    /// module that defines it does (its tests fail whatever they assert).
    /// p3's and q1's fizzbuzz printed 'Fizz' where the goal says it returns
    /// it; the tests then failed on `None`, and the model rewrote the tests
    /// until the rounds ran out.
    fn returns_nothing(&self, path: &str, content: &str) -> Option<String> {
        let state = self.state();
        let path = path.trim_start_matches("./");
        let language = self.reviews.languages.for_path(path)?;
        if focus::refused_in_subtask(state, RefusalKind::ReturnsNothing) {
            return None;
        }
        let said: Vec<String> = lang::called_names(&state.goal)
            .into_iter()
            .filter(|name| lang::said_to_return(&state.goal, name))
            .collect();
        let defining = |text: &str| said.iter().any(|name| language.defines(text, name));
        let files: Vec<(String, String)> = match language.is_test(path) {
            false if defining(content) => vec![(path.to_string(), content.to_string())],
            false => return None,
            true => focus::known_paths(state)
                .into_iter()
                .filter(|known| language.owns(known) && !language.is_test(known))
                .filter_map(|known| {
                    let text = self.tools.text(&known)?;
                    defining(&text).then_some((known, text))
                })
                .collect(),
        };
        if files.is_empty() {
            return None;
        }
        let valueless = language.valueless(&files);
        let (module, name) = files
            .iter()
            .zip(valueless)
            .find_map(|((module, _), names)| {
                let names = names?;
                let name = said.iter().find(|name| names.contains(name))?;
                Some((module, name))
            })?;
        let what = format!(
            "the goal says {name} returns a value, and {name} in {module} returns none (no \
             `return` of a value: what it prints is not returned to its caller)"
        );
        Some(match module == path {
            true => format!(
                "not written: {what}. Make {name} return what the goal says, and print it only \
                 where the program runs. (Refused once: if {name} must return nothing, send it \
                 again as it is.)"
            ),
            false => format!(
                "not written: {what}, so its tests fail whatever they assert. Change {module} \
                 first: make {name} return what the goal says. (Refused once: to write {path} \
                 anyway, send it again as it is.)"
            ),
        })
    }

    /// Why writing `content` to `path` is refused, once a subtask, because
    /// the program a check of the plan runs would run nothing: it only
    /// defines things, and no test checks them. A small model's word-count
    /// program defined `count_words` and called nothing; the plan's check
    /// `python3 word_count.py` passed in silence, and two cycles could not
    /// tell why nothing was printed. A module tests import (a plan with a
    /// test run) is not held to it.
    fn runs_nothing(&self, path: &str, content: &str) -> Option<String> {
        let state = self.state();
        let path = path.trim_start_matches("./");
        let languages = &self.reviews.languages;
        let kinds: Vec<&SubtaskKind> = state
            .tree
            .tasks
            .iter()
            .flat_map(|task| &task.subtasks)
            .map(|subtask| &subtask.kind)
            .collect();
        let tested = kinds.iter().any(|kind| match kind {
            SubtaskKind::Check { cmd } => languages.all().any(|l| l.runs_tests(cmd)),
            SubtaskKind::Write { path: written } => languages.is_test(written),
            _ => false,
        });
        let check = kinds.iter().find_map(|kind| match kind {
            SubtaskKind::Check { cmd } if focus::bare_program(cmd).as_deref() == Some(path) => {
                Some(cmd)
            }
            _ => None,
        })?;
        if tested || focus::refused_in_subtask(state, RefusalKind::RunsNothing) {
            return None;
        }
        let language = languages.for_path(path)?;
        // A module of the project that runs nothing as it is (a library
        // the goal adds a function to) stays one: the plan's bare run of
        // it shows nothing whatever is written, and the assessment judges
        // the function. Refused, a small model wrote `__main__` blocks
        // over `textutil.py` until the loop guard ended its subtask.
        let library = state.baseline.files.contains_key(path)
            && self
                .tools
                .text(path)
                .is_some_and(|now| language.runs_nothing(&now, false).is_some());
        if library {
            return None;
        }
        let arguments = crate::state::verdict::gives_arguments(&state.goal);
        let how = language.runs_nothing(content, arguments)?;
        Some(format!(
            "not written: {path} only defines things, and the check `{check}` runs it: as \
             written it would run nothing and print nothing. {how}. (Refused once: if {path} \
             must only define things, send it again as it is.)"
        ))
    }

    /// Why writing `content` to `path` is refused because it changes the
    /// project's own tests: `path` is a test file that was there before
    /// the run, and `content` drops or alters its asserts (see
    /// [`lang::dropped_asserts`]). They are what shows the code works: a
    /// small model told to fix a bug the tests show changed `== 4` to
    /// `== 5` in the test instead. Tests may be added, and names changed.
    ///
    /// Under a check subtask, the tests this run wrote keep their number
    /// of asserts, but for fewer than half of them dropped: the check is
    /// made to pass by the code. A fizzbuzz run
    /// whose 50 asserts failed on a `fizzbuzz` that printed instead of
    /// returning made them one, `assert fizzbuzz(1) == None`, and pytest
    /// passed. An assert the run wrote may still be changed: a small
    /// model's own test expecting `add(1, 2) == 4` is fixed so. Tests of
    /// code the run found and left as it was are not held so (see
    /// [`Agent::tests_of_kept_code`]).
    fn kept_tests(&self, path: &str, content: &str) -> Option<String> {
        let path = path.trim_start_matches("./");
        let state = self.state();
        let projects = state.baseline.files.contains_key(path);
        let check = super::focus::check_command(state);
        if !projects && check.is_none() {
            return None;
        }
        let language = self.reviews.languages.for_path(path)?;
        if !language.is_test(path) {
            return None;
        }
        if !projects && self.tests_of_kept_code(language, path) {
            return None;
        }
        let old = self.tools.text(path)?;
        let dropped = lang::dropped_asserts(language, &old, content);
        let asserts = |text: &str| text.lines().filter(|l| language.asserts(l.trim())).count();
        // The same text in other quotes or spacing: t104's stock-fix
        // wrote the project's test_stock.py again with `'pen'` for
        // `"pen"`, and a goal that said to leave the tests as they are
        // changed them.
        let plain = |text: &str| -> String {
            (text.chars())
                .filter(|c| !c.is_whitespace())
                .map(|c| if c == '\'' { '"' } else { c })
                .collect()
        };
        let rewritten = content.trim() != old.trim() && plain(content) == plain(&old);
        if projects && rewritten {
            return Some(format!(
                "not written: {path} was there before this run and holds the project's tests; \
                 this change writes the same tests again, in other quotes or spacing. Leave \
                 {path} as it is and change the code it tests."
            ));
        }
        if projects && dropped.is_empty() {
            return self.failing_tests_grown(language, path, &old, content);
        }
        let shown: Vec<String> = dropped.iter().take(3).map(|l| format!("`{l}`")).collect();
        let fewer = asserts(&old).saturating_sub(asserts(content));
        // The run's own tests may lose a wrong assert while most of them
        // stay: a package run's `assert mul() == 0` (a call with no
        // arguments) failed, and the write that dropped it, keeping
        // `assert mul(1, 2) == 2`, was refused; the model gave up.
        let most_stay = dropped.len() * 2 <= asserts(&old);
        if dropped.is_empty() || (!projects && (fewer == 0 || most_stay)) {
            return None;
        }
        Some(match (projects, check) {
            (false, Some(check)) => format!(
                "not written: this subtask makes `{check}` pass by changing the code; the tests \
                 in {path} say what the code must do, and this change drops {fewer} of their \
                 asserts (among {}). Keep them and change the code they test; an assert that \
                 contradicts the goal may be corrected, one for one, or dropped while most of \
                 them stay.",
                shown.join(", ")
            ),
            _ => format!(
                "not written: {path} was there before this run and holds the project's tests, \
                 which show whether the code works; this change drops or alters {} of its \
                 asserts: {}. Keep them as they are and change the code they test so that they \
                 pass (adding tests is fine).",
                dropped.len(),
                shown.join(", ")
            ),
        })
    }

    /// `content`, written over test file `path`, with the tests it drops
    /// that passed at the active subtask's last run of the tests put back
    /// (see [`lang::Language::tests_put_back`]), and their names. z1b's
    /// add-tests ran its three tests, one failed, and the write meant to fix
    /// it was one new test: the two that passed were lost, and the
    /// assessment found no test of `add` left.
    fn passing_tests_kept(&self, path: &str, content: &str) -> Option<(String, Vec<String>)> {
        let path = path.trim_start_matches("./");
        let language = self.reviews.languages.for_path(path)?;
        if !language.is_test(path) {
            return None;
        }
        let output = focus::tests_failed_since(self.state(), path)?;
        // A test's id as its runner names it (`tests/t.py::test_a[1-2]`),
        // to the name it is defined by.
        let failed: Vec<String> = lang::tally::failed_tests(&output)
            .iter()
            .filter_map(|id| id.rsplit("::").next()?.split('[').next())
            .map(str::to_string)
            .collect();
        // Which failed must be known, or a failed one is put back.
        if failed.is_empty() {
            return None;
        }
        let old = self.tools.text(path)?;
        language.tests_put_back(&old, content, &failed)
    }

    /// Why writing `content` over `old`, test file `path` of the project,
    /// is refused: its tests failed before the run, and the write adds
    /// asserts to test functions it had. They are what a fix is measured
    /// by (t35's money-fix added four asserts, one of them wrong, to the
    /// failing tests the goal said to leave alone, and no code could pass
    /// them then). A new test function is not held so: a goal may ask for
    /// a test of the bug beside them.
    fn failing_tests_grown(
        &self,
        language: &dyn lang::Language,
        path: &str,
        old: &str,
        content: &str,
    ) -> Option<String> {
        let failed_before = self
            .state()
            .failing_before
            .iter()
            .any(|test| test.split("::").next() == Some(path));
        let added = lang::dropped_asserts(language, content, old);
        if !failed_before || added.is_empty() {
            return None;
        }
        let mut shapes = language
            .shapes(&[
                (path.to_string(), old.to_string()),
                (path.to_string(), content.to_string()),
            ])
            .into_iter();
        let (before, after) = (shapes.next()??, shapes.next()??);
        let grown: Vec<String> = after
            .iter()
            .filter(|(name, shape)| before.iter().any(|(was, old)| was == name && old != shape))
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        if grown.is_empty() {
            return None;
        }
        let shown: Vec<String> = added.iter().take(3).map(|l| format!("`{l}`")).collect();
        Some(format!(
            "not written: {path} was there before this run and its tests failed then: they are \
             what the fix is measured by, and this change adds {} assert(s) to {}: {}. Leave \
             its tests as they are and change the code they call so that they pass.",
            added.len(),
            grown.join(", "),
            shown.join(", ")
        ))
    }

    /// Test file `path` as it is with the asserts `content` corrects put
    /// in, one for one (see [`lang::asserts_corrected`]), when writing
    /// `content` would be refused for the asserts it drops and the
    /// corrections alone would not: the run's own tests under a check,
    /// whose asserts may be corrected and not lost. t34's rps corrected
    /// one assert of nine in a write that left out five, and sent that
    /// write again, refused, until the round cap.
    fn corrections_kept(&self, path: &str, content: &str) -> Option<String> {
        let path = path.trim_start_matches("./");
        let language = self.reviews.languages.for_path(path)?;
        if !language.is_test(path) || self.kept_tests(path, content).is_none() {
            return None;
        }
        let old = self.tools.text(path)?;
        let corrected = lang::asserts_corrected(language, &old, content)?;
        self.kept_tests(path, &corrected)
            .is_none()
            .then_some(corrected)
    }

    /// Whether the code test file `path` (one this run wrote) tests was
    /// there before the run and the run has not changed it: such tests say
    /// what that code does, and one that fails is wrong, not the code.
    /// Asked to add tests to `inventory.py`, a small model's test expected
    /// the removal of a missing item to pass where the class raises;
    /// refused the change of that test, and told to change the code the
    /// goal did not ask to touch, it gave up.
    fn tests_of_kept_code(&self, language: &dyn lang::Language, path: &str) -> bool {
        let state = self.state();
        let subjects: Vec<String> = language
            .subjects(path)
            .into_iter()
            .filter(|code| state.baseline.files.contains_key(code))
            .collect();
        !subjects.is_empty()
            && subjects.iter().all(|code| {
                !state.baseline.changed.contains(code) && !state.files.contains_key(code)
            })
    }

    /// Why writing `content` to `path` is refused because it changes or
    /// removes what the goal asks tests of (see [`Agent::under_test`]):
    /// each function, class and method of the file (of the classes the
    /// goal names), by its language's shapes (see [`lang::Language::shapes`]),
    /// and, of a whole file, any line it had; what it adds beside them is
    /// taken. Such tests say what the code
    /// does as it is. Asked to cover `Account` in bank.py with tests, z3's
    /// plan kept "Change bank.py: Define the Account class with methods
    /// for deposit, withdraw, and balance", and the model's rewrite lost
    /// `self.balance -= amount`; the tests it wrote then passed on the
    /// broken class.
    fn code_under_test_kept(&self, path: &str, content: &str) -> Option<String> {
        let path = path.trim_start_matches("./");
        let classes = self.under_test(path)?;
        let language = self.reviews.languages.for_path(path)?;
        let old = self.tools.text(path)?;
        let mut shapes = language.shapes(&[
            (path.to_string(), old.clone()),
            (path.to_string(), content.to_string()),
        ]);
        let new: std::collections::HashMap<String, String> = shapes.pop()??.into_iter().collect();
        let in_scope = |name: &str| {
            classes.is_empty()
                || classes.iter().any(|class| {
                    name == class
                        || name
                            .strip_prefix(class.as_str())
                            .is_some_and(|rest| rest.starts_with('.'))
                })
        };
        let mut changed: Vec<String> = shapes
            .pop()??
            .into_iter()
            .filter(|(name, shape)| in_scope(name) && new.get(name) != Some(shape))
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        // Of a whole file under test, the lines it had stay, in order, as
        // they were: what is added beside them is taken, and a docstring
        // or a comment rewritten is a change too (t61's timeparse-tests
        // rewrote the docstring of `to_minutes`).
        if changed.is_empty() && classes.is_empty() {
            let mut kept = content.lines();
            let lost = old
                .lines()
                .enumerate()
                .find(|(_, line)| !kept.any(|new| new.trim_end() == line.trim_end()));
            if let Some((at, line)) = lost {
                changed.push(format!("line {} (`{}`)", at + 1, line.trim()));
            }
        }
        if changed.is_empty() {
            return None;
        }
        let tests = language
            .test_path(path)
            .unwrap_or_else(|| "a test file".to_string());
        Some(format!(
            "not written: the goal asks for tests of {path}, not for a change of it, and this \
             changes {} of {path}, which {} there before this run. {path} stays as it is: the \
             tests say what it does now, and a test that fails where it does otherwise is \
             wrong, not the code. Write the tests in {tests} and leave {path} as it is.",
            changed.join(", "),
            if changed.len() == 1 { "was" } else { "were" },
        ))
    }

    /// Why writing `content` to `path` is refused because it removes
    /// top-level definitions: `path` was there before the run and the goal
    /// does not name them. A small model adding `count_vowels` quoted
    /// `def reverse(text):` as `old` and left it out of `new`: `reverse`
    /// was gone and its body under the new function, and told so, it marked
    /// the subtask done. A goal that names a definition may remove it.
    /// `whole`: a `write_file`, not an edit.
    fn kept_definitions(&self, path: &str, content: &str, whole: bool) -> Option<String> {
        let path = path.trim_start_matches("./");
        if !self.state().baseline.files.contains_key(path) {
            return None;
        }
        let bytes = self.tools.contents(path)?;
        // A whole write over a file the model has not seen is refused with
        // the file shown first (see `Agent::unseen`), which says more.
        if whole {
            let shown = self.tools.shown_path(path)?;
            if self.state().seen.get(&shown) != Some(&tools::sha256_hex(&bytes)) {
                return None;
            }
        }
        let old = String::from_utf8(bytes).ok()?;
        let lost = self.lost_unasked(path, &old, content);
        // The lines to quote to add code at the end: t97's add-hex, told
        // only how, sent its edit that turned `def rgb_to_hex` into `def
        // hex_to_rgb` eleven times.
        let at_end = tools::last_lines(&old)
            .map(|quote| {
                format!(
                    " To add code at the end of {path}, give as `old` its last lines:\n```\n\
                     {quote}\n```\nand as `new` those same lines followed by the new code."
                )
            })
            .unwrap_or_default();
        (!lost.is_empty()).then(|| {
            format!(
                "not written: this change removes {} of {path}, which was there before this run, \
                 and the goal does not ask for that. Keep {}: put new code beside what is there \
                 (with edit_file, quote the line after which it goes and give that line again at \
                 the start of `new`).{at_end}",
                lost.iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if lost.len() == 1 { "it" } else { "them" }
            )
        })
    }

    /// Why writing `content` to `path` is refused: it removes a function
    /// the goal's own words say what it returns (see
    /// [`lang::examples::goal_given`]), which no other file of the run
    /// defines. t32's add-duration model, its fix of `format_duration`
    /// failing, wrote timeutil.py again without it and spent the rest of
    /// the run on a test of a function that was gone.
    fn goals_definitions_kept(&self, path: &str, content: &str) -> Option<String> {
        let state = self.state();
        let given = state.goal_given();
        if given.is_empty() {
            return None;
        }
        let path = path.trim_start_matches("./");
        let old = self.tools.text(path)?;
        let lost = tools::lost_definitions(&self.reviews.languages, path, &old, content);
        let (call, value) = given.iter().find(|(call, _)| {
            lang::examples::call_name(call).is_some_and(|name| lost.iter().any(|l| l == name))
        })?;
        let name = lang::examples::call_name(call)?;
        let elsewhere = focus::known_paths(state)
            .into_iter()
            .filter(|other| other != path)
            .any(|other| {
                self.reviews
                    .languages
                    .for_path(&other)
                    .is_some_and(|language| {
                        !language.is_test(&other)
                            && self
                                .tools
                                .text(&other)
                                .is_some_and(|text| language.defines(&text, name))
                    })
            });
        (!elsewhere).then(|| {
            format!(
                "not written: this change removes `{name}` from {path}, and the goal says \
                 `{call}` returns {value}: {name} must stay. Keep its name and parameters, and \
                 change what its body does."
            )
        })
    }

    /// Why writing `content` to `path` is refused: it changes a definition
    /// the file had before the run that the goal does not name, while the
    /// goal asks for a new one (it calls a function no source file of the
    /// project defined) and no test of the project failed before the run
    /// (there is nothing to fix). t108's add-hex ("Add hex_to_rgb(code)
    /// that does the opposite") wrote the body of hex_to_rgb, reading the
    /// keyboard, into `rgb_to_hex`, and what the project did was gone.
    fn unasked_changes(&self, path: &str, content: &str) -> Option<String> {
        let state = self.state();
        let path = path.trim_start_matches("./");
        if !state.failing_before.is_empty() || !state.baseline.files.contains_key(path) {
            return None;
        }
        let language = self.reviews.languages.for_path(path)?;
        if language.is_test(path) {
            return None;
        }
        let goal = &state.goal;
        let sources: Vec<String> = (state.baseline.files.keys())
            .filter(|p| language.owns(p) && !language.is_test(p))
            .filter_map(|p| self.text_before_run(p))
            .collect();
        let asked: Vec<String> = crate::lang::called_names(goal)
            .into_iter()
            .filter(|name| !sources.iter().any(|text| language.defines(text, name)))
            .collect();
        if asked.is_empty() {
            return None;
        }
        let before = self.text_before_run(path)?;
        let now = self.tools.text(path)?;
        let mut shapes = language.shapes(&[
            (path.to_string(), before),
            (path.to_string(), now),
            (path.to_string(), content.to_string()),
        ]);
        let new: std::collections::HashMap<String, String> = shapes.pop()??.into_iter().collect();
        let now: std::collections::HashMap<String, String> = shapes.pop()??.into_iter().collect();
        let named = |name: &str| {
            name.split('.')
                .any(|part| crate::text::has_word(goal, part))
        };
        let changed: Vec<String> = shapes
            .pop()??
            .into_iter()
            .filter(|(name, _)| !named(name))
            // Changed by this write: as it is now, and otherwise after it,
            // and not back to what it was. One with no shape after it is
            // made a stub (a docstring alone: t110's add-hex left `is_hex`
            // its docstring, and "Goal achieved" was said), or removed,
            // which `kept_definitions` refuses first.
            .filter(|(name, was)| {
                now.get(name)
                    .is_some_and(|now| new.get(name) != Some(now) && new.get(name) != Some(was))
            })
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        if changed.is_empty() {
            return None;
        }
        Some(format!(
            "not written: this changes {} of {path}, which {} there before this run, and the goal \
             does not ask to change {}: it asks for {}. Keep {} as {} and put the new code beside \
             it.",
            changed.join(", "),
            if changed.len() == 1 { "was" } else { "were" },
            if changed.len() == 1 { "it" } else { "them" },
            asked
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", "),
            changed.join(", "),
            if changed.len() == 1 {
                "it is"
            } else {
                "they are"
            },
        ))
    }

    /// The top-level definitions of `old` that `new` no longer has and the
    /// goal does not name (a goal that names one may remove it).
    pub(super) fn lost_unasked(&self, path: &str, old: &str, new: &str) -> Vec<String> {
        let goal = &self.state().goal;
        // A longer name of a function the goal calls, given up for the
        // goal's name, is a rename the goal asks for: put back, the
        // function the assessment said must be named `count_vowels` was a
        // copy of `count_vowels_in`, refused as one.
        let called = crate::lang::called_names(goal);
        let language = self.reviews.languages.for_path(path);
        let renamed = |name: &str| {
            called.iter().any(|goals| {
                crate::state::verdict::longer_name(name, goals)
                    && language.is_some_and(|l| l.defines(new, goals))
            })
        };
        let lost = tools::lost_definitions(&self.reviews.languages, path, old, new);
        // A name the goal gives may be one it asks to keep ("Keep center
        // as it is": t105's add-wrap wrote textfmt.py with `wrap` alone,
        // and the project's test of `center` failed to import): one the
        // project's own tests call stays all the same.
        let tested = match lost.iter().any(|name| crate::text::has_word(goal, name)) {
            true => self.called_by_project_tests(),
            false => Vec::new(),
        };
        lost.into_iter()
            .filter(|name| {
                (!crate::text::has_word(goal, name) || tested.contains(name)) && !renamed(name)
            })
            .collect()
    }

    /// The names the test files the project had before the run call, as
    /// they are now (see [`lang::Language::called`]).
    fn called_by_project_tests(&self) -> Vec<String> {
        let paths: Vec<&String> = self.state().baseline.files.keys().collect();
        self.reviews
            .languages
            .all()
            .flat_map(|language| {
                let tests: Vec<(String, String)> = (paths.iter())
                    .filter(|path| language.owns(path) && language.is_test(path))
                    .filter_map(|path| Some((path.to_string(), self.tools.text(path)?)))
                    .collect();
                match tests.is_empty() {
                    true => Vec::new(),
                    false => language.called(&tests),
                }
            })
            .flatten()
            .flatten()
            .collect()
    }

    /// `content` put into `path` beside what it holds, when `content` is
    /// nothing but definitions and writing it whole would remove
    /// definitions of the project's file that the goal does not name, or
    /// what the file runs when it runs (its `__main__` block; see
    /// [`crate::lang::Language::merge`]): a small model fixing `average`
    /// writes `def average` alone over `calc.py`, as aider's models give a
    /// block to put in. A definition the fragment repeats is replaced
    /// where it is.
    pub(super) fn merged(&self, path: &str, content: &str) -> Option<String> {
        let path = path.trim_start_matches("./");
        if !self.state().baseline.files.contains_key(path) {
            return None;
        }
        let language = self.reviews.languages.for_path(path)?;
        let old = self.tools.text(path)?;
        // Definitions alone over a program lose what it runs: a cli-flag
        // run wrote `greeting` and `main` (twice) over greet.py, without
        // its `__main__` block, and refused for running nothing, put that
        // block inside `greeting`.
        let stops_running = || {
            language.runs_nothing(content, false).is_some()
                && language.runs_nothing(&old, false).is_none()
        };
        if self.lost_unasked(path, &old, content).is_empty() && !stops_running() {
            return None;
        }
        let merged = language.merge(&old, content)?;
        self.lost_unasked(path, &old, &merged)
            .is_empty()
            .then_some(merged)
    }

    /// The `old` and `new` of an edit of `path` that puts in the
    /// definitions `new` gives (see [`crate::lang::Language::put_in`]),
    /// when `new` is whole definitions (or `old` and then whole
    /// definitions) and the edit as it is would be
    /// refused: its quote is not there, or spliced there it leaves the
    /// file as its language refuses it or without definitions the goal
    /// does not ask to remove. What is put in is then said as the
    /// smallest edit that does it, which the log and the conversation
    /// keep. `None` when the edit goes ahead as it is, or putting in does
    /// not give a file that would be accepted.
    fn put_in(&self, path: &str, old: &str, new: &str) -> Option<(String, String)> {
        let language = self.reviews.languages.for_path(path)?;
        let before = self.tools.text(path)?;
        // The same edit sent again is refused as it is, never put in: a
        // class given again with a docstring alone would lose its methods.
        if tools::edit_made_before(&before, old, new).is_some() {
            return None;
        }
        let refused = |after: &str| {
            self.kept(path, after, false).is_some()
                || self.edit_refusal(path, &before, after).is_some()
        };
        if let Ok(spliced) = tools::apply_edit(&before, old, new, path)
            && !refused(&spliced)
        {
            return None;
        }
        // `new` may be the quote again with definitions after it: an
        // insertion after a line the file may have more than once. z6's
        // stack-tests cycles, asked for a test, quoted `stack.push(1)` (in
        // four tests) and gave it again with lines after it, until the loop
        // guard stopped them; lines have no safe place, a whole test
        // function does.
        let after_quote = new
            .strip_prefix(old)
            .map(|rest| rest.trim_start_matches(['\n', '\r']))
            .filter(|rest| !old.trim().is_empty() && !rest.trim().is_empty());
        let merged = language
            .put_in(&before, new)
            .or_else(|| language.put_in(&before, after_quote?))?;
        if refused(&merged) {
            return None;
        }
        tools::smallest_edit(&before, &merged)
    }

    /// An edit that leaves its file as its language would mend a write of
    /// it (see [`Review::Repair`]: `if C: A else: B` on one line), as the
    /// smallest edit to the mended text, and what was mended. A cli-flag
    /// run refused such an edit of greet.py six times. Mended whatever
    /// [`Agent::kept`] says of the mended text: the edit is then held to
    /// it as a write is. Left as it was, a file that does not parse shows
    /// nothing to hold, and p2's word-count edit put `return len(words)}}`
    /// in.
    fn repaired_edit(&self, path: &str, old: &str, new: &str) -> Option<(String, String, String)> {
        let before = self.tools.text(path)?;
        let spliced = tools::apply_edit(&before, old, new, path).ok()?;
        let Review::Repair { content, why } = self.review(path, &spliced) else {
            return None;
        };
        let (old, new) = tools::smallest_edit(&before, &content)?;
        Some((old, new, why))
    }

    /// Why an `edit_file` call that turns `before` into `after` is refused:
    /// `after` is what the file's language refuses, and `before` was not
    /// (a model that quotes part of a line writes a block its file cannot
    /// parse; the edit tool would write it).
    pub(super) fn edit_refusal(
        &self,
        path: &str,
        before: &str,
        after: &str,
    ) -> Option<tools::Refusal> {
        let Review::Refuse(refusal) = self.review(path, after) else {
            return None;
        };
        if matches!(self.review(path, before), Review::Refuse(was) if was.reason == refusal.reason)
        {
            return None;
        }
        Some(tools::Refusal::new(
            RefusalKind::LanguageRefused,
            format!(
                "not edited: with this edit {path} would be refused: {} {path} is unchanged. \
                 Quote whole lines in `old`, with their indentation, and give `new` as whole \
                 lines too; or write the whole file with write_file.",
                refusal.reason
            ),
        ))
    }

    pub(super) fn review(&self, path: &str, content: &str) -> Review {
        let Some(language) = self.reviews.languages.for_path(path) else {
            return Review::Accept;
        };
        let workspace = Seen {
            tools: self.tools,
            written: self.state().files.keys().cloned().collect(),
            existed: &self.state().baseline.files,
            failed: focus::failed_output(self.state()),
            given: self.state().goal_given(),
            kept: focus::staying(self.state()),
        };
        language.review(path, content, &workspace)
    }
}
