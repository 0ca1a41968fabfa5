//! The line that ends the context block, what to do now, and how to fix a
//! failure: the exact call to write, ready to copy.

use super::check::{arguments_wanted, input_hint, keyboard_edit, option_printed_back};
use super::{
    COMPLETE, Last, check_command, check_passed, checked_failure, last, run_call, unwired,
    unwired_still,
};
use crate::lang::Languages;
use crate::state::{Came, State, SubtaskKind};

/// The call that marks the subtask done, ready to copy, its reason filled
/// in from what the last call did.
pub fn complete_call(did: &str) -> String {
    serde_json::json!({ "name": COMPLETE, "arguments": { "success": true, "reason": did } })
        .to_string()
}

/// The last line of the context block: what to do now, with the subtask
/// named again where the model has not acted on it yet or its call was
/// refused (a small model follows the end of its prompt best); after a
/// call that worked, the ACTIVE SUBTASK line just above names it.
pub fn next_step(state: &State, contents: &[(String, String)]) -> String {
    let Some((_, subtask)) = state.tree.active() else {
        return "Every subtask has ended.".into();
    };
    let subtask = &subtask.description;
    match last(state) {
        Last::Nothing => match check_command(state) {
            Some(check) => format!(
                "Run the check of the ACTIVE SUBTASK now: answer with exactly {}",
                run_call(&check)
            ),
            None => format!(
                "Call one tool now for the ACTIVE SUBTASK: {subtask}. When it is done, call \
                 mark_subtask_complete."
            ),
        },
        Last::Worked { did } => match after_work(state, &did) {
            // The subtask is the round block's line above: named again in
            // every round of a subtask, it was the most of what the server
            // read again each round.
            // An option added to a function and never given: said
            // where the model reads last, or it marks the subtask done.
            Ending::Complete(call) => match unwired(state) {
                Some(note) => format!(
                    "Your last call worked ({did}), but {note}. If the goal needs it given, \
                     edit that call now (its line as `old`), not the definition. If the ACTIVE \
                     SUBTASK is done now, answer with exactly {call}."
                ),
                None => format!(
                    "Your last call worked ({did}). If the ACTIVE SUBTASK is done now, answer \
                     with exactly {call}. If not, call one tool for it."
                ),
            },
            Ending::CheckAgain(call) => format!(
                "Your last call worked ({did}). Now run the check again: answer with exactly \
                 {call}"
            ),
        },
        Last::Failed { what, file } => format!(
            "Your last command failed: {what}. {} Run the command again only after a file \
             changed.",
            fix_failure(state, file.as_deref(), &what, contents)
        ),
        Last::Refused { why, .. } => {
            match unwired_still(state) {
                None => format!(
                    "Your last call was not run: {why}. Make a different call for the ACTIVE \
                     SUBTASK: {subtask}."
                ),
                // What the subtask's last change left undone, said where
                // the model reads last: told only to make a different
                // call, a small model sent an edit it had made before
                // eight times, `main` never giving `shout` (c1's cli-flag).
                Some(note) => format!(
                    "Your last call was not run: {why}. Your change before it is made, but \
                     {note}. If the goal needs it given, edit that call now (its line as \
                     `old`), not the definition."
                ),
            }
        }
    }
}

/// What ends the active subtask after a call that worked: marking it
/// complete, or, on a check whose command has not passed since, running
/// the command again.
pub enum Ending {
    Complete(String),
    CheckAgain(String),
}

pub fn after_work(state: &State, did: &str) -> Ending {
    match check_command(state) {
        Some(check) if !check_passed(state, &check) => Ending::CheckAgain(run_call(&check)),
        _ => Ending::Complete(complete_call(did)),
    }
}

/// How to fix a failure (`what` failed): the file to write again, when
/// known, and the line the error is at, quoted from `contents` (the files
/// the run wrote); for an `assert CALL == EXPECTED` that failed, what the
/// call returned and the line that expects it.
/// With `kept`, the failing test is the project's own, one that failed
/// before the run: it is right, and the call it makes is shown where its
/// function is defined, to be fixed there. With `staying`, the files the
/// plan keeps as they are (see [`staying`]): a failing assert of a call of
/// theirs is given its corrected line as a ready `edit_file` call. `said`
/// holds what the goal's words say calls return (see
/// [`crate::lang::examples::goal_given`]): a failing assert of such a call
/// is told which side is wrong.
pub fn fix(
    file: Option<&str>,
    what: &str,
    contents: &[(String, String)],
    kept: bool,
    staying: &[String],
    said: &[(String, String)],
) -> String {
    let Some(file) = file else {
        if let Some(hint) = Languages::default().all().find_map(|l| l.no_tests(what)) {
            return hint;
        }
        return "Fix the cause: answer with write_file and the whole corrected content of the \
                file that is wrong."
            .into();
    };
    let (path, line) = match file.split_once(" line ") {
        Some((path, line)) => (path, line.parse::<usize>().ok()),
        None => (file, None),
    };
    let source = line.and_then(|n| line_of(contents, path, n));
    let quoted = source
        .map(|text| format!(" Line {} is: {}", line.unwrap_or(0), text.trim()))
        .unwrap_or_default();
    let hint = Languages::default()
        .for_path(path)
        .and_then(|language| {
            let unset = source
                .zip(contents.iter().find(|(p, _)| p == path))
                .and_then(|(line, (_, text))| language.option_unset(what, line, path, text));
            unset.or_else(|| language.failure_hint(what, path))
        })
        .map(|hint| format!(" {hint}"))
        .unwrap_or_default();
    // What the failing assert's call gave, read once (one python3 start)
    // for both ways of telling it.
    let languages = Languages::default();
    let read = source
        .zip(languages.for_path(path))
        .and_then(|(text, language)| Some((language, text, gave(language, text, what)?)));
    if let Some((language, text, gave)) = &read
        && let Some(edit) = test_to_correct(*language, (path, line), text, gave, contents, staying)
    {
        return format!("The error is at {file}.{quoted}{edit}");
    }
    let (expected, target) = read
        .and_then(|(language, _, gave)| {
            returned_instead(language, path, gave, contents, kept, said)
        })
        .unwrap_or_default();
    // A name the imported module does not define is that module's to
    // give: t8's textkit was told to write its test file again after
    // "cannot import name 'reverse_words' from 'textkit.reverse_words'",
    // and wrote the same test three times; the module held two imports.
    let missing = languages.for_path(path).and_then(|language| {
        let (name, files) = language.import_failed(what)?;
        let (module, text) = contents.iter().find(|(p, _)| files.contains(p))?;
        (!language.defines(text, &name)).then_some((name, module.as_str()))
    });
    let (hint, target) = match missing {
        Some((name, module)) => (
            format!(
                "{hint} {module} defines no `{name}`, so the import of it fails: the fix is in \
                 {module}, which is to define `{name}`."
            ),
            Some(module.to_string()),
        ),
        None => (hint, target),
    };
    // A function the test calls that reads the keyboard itself is no
    // test's to fix: its module is to take what it reads as parameters,
    // unless it is code that stays as it is.
    let reader = keyboard_reader(path, source, what, contents)
        .filter(|(_, module)| !staying.iter().any(|kept| kept == module));
    let (hint, target) = match reader {
        Some((reader, module)) => (format!(" {reader}"), Some(module.to_string())),
        None => (hint, target),
    };
    let target = target.as_deref().unwrap_or(path);
    let unwired = match line {
        None => unwired_in(path, contents),
        Some(_) => String::new(),
    };
    format!(
        "The error is at {file}.{quoted}{hint}{expected}{unwired} Fix it: answer with \
         write_file and the whole corrected content of {target}."
    )
}

/// For a failure (`what`) of test `path` at its line `source` that is
/// the code it calls reading the keyboard: how to fix the module that
/// defines a function of the line which reads it itself, and that module
/// (see [`crate::lang::Language::keyboard_in_test`]).
fn keyboard_reader<'a>(
    path: &str,
    source: Option<&str>,
    what: &str,
    contents: &'a [(String, String)],
) -> Option<(String, &'a str)> {
    let languages = Languages::default();
    let language = languages.for_path(path)?;
    names_called(source?).into_iter().find_map(|name| {
        let module = defining_module(path, &format!("{name}()"), contents)?;
        let (_, text) = contents.iter().find(|(p, _)| p == module)?;
        let hint = language.keyboard_in_test(what, name, module, text)?;
        Some((hint, module))
    })
}

/// The names `line` calls (`f` and `g` of `assert m.f(g(1)) == 2`), in
/// order, each once.
fn names_called(line: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for (at, _) in line.match_indices('(') {
        let before = line[..at].trim_end();
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| {
                i + before[i..].chars().next().map_or(1, char::len_utf8)
            });
        let name = &before[start..];
        if name.starts_with(|c: char| c.is_alphabetic() || c == '_') && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// ` Note: no call in greet.py gives ...` for each parameter program
/// `path` of `contents` leaves unpassed (see [`crate::lang::Unpassed`]):
/// what a program that printed the wrong thing may not have wired (an
/// option added to a function, never given by `main`).
fn unwired_in(path: &str, contents: &[(String, String)]) -> String {
    let Some((_, text)) = contents.iter().find(|(p, _)| p == path) else {
        return String::new();
    };
    let languages = Languages::default();
    let Some(language) = languages.for_path(path) else {
        return String::new();
    };
    let found = language.unpassed(&[(path.to_string(), text.clone())]);
    found
        .into_iter()
        .flatten()
        .flatten()
        .map(|unpassed| format!(" Note: {}.", unpassed.describe(path)))
        .collect()
}

/// How to fix a failure of the active subtask (see [`fix`]), and on a
/// check that runs a program with no arguments, whose program reads input,
/// how to give it some (see `check::input_hint`).
pub fn fix_failure(
    state: &State,
    file: Option<&str>,
    what: &str,
    contents: &[(String, String)],
) -> String {
    // A program run with no arguments that stopped where it reads them is
    // not to be fixed: o3's word-count model, told to, wrote its right
    // program again unchanged until the loop guard ended the subtask.
    if let Some(wanted) = arguments_wanted(state) {
        return wanted;
    }
    let line = file
        .and_then(|file| file.split_once(" line "))
        .and_then(|(_, line)| line.parse().ok());
    if let Some(edit) = line.and_then(|line| keyboard_edit(state, line, contents)) {
        return edit;
    }
    let input = check_command(state)
        .and_then(|check| input_hint(&check, contents))
        .map(|hint| format!(" {hint}"))
        .unwrap_or_default();
    let option = option_printed_back(state)
        .zip(file)
        .and_then(|(option, path)| {
            let valued = crate::state::verdict::takes_value(&state.goal, &option);
            reading_option(path, &option, valued, contents)
        })
        .map(|hint| format!(" {hint}"))
        .unwrap_or_default();
    let kept = file.and_then(|file| kept_test(state, file)).is_some();
    let staying = staying(state);
    let said = state.goal_given();
    format!(
        "{}{input}{option}",
        fix(file, what, contents, kept, &staying, &said)
    )
}

/// The files that stay as they are while the tests a goal asks for are
/// written: the active task's plan says so (`slug.py stays as it is`, its
/// own words for code whose tests a goal asks for, see
/// `decompose::existing`), or, in a goal that speaks of tests and is no
/// fix (the project's tests did not fail before the run), a source file
/// the project had that no task of the plan writes and the run has not
/// changed. A test of such a file that expects something else than it
/// returns is what is wrong.
pub fn staying(state: &State) -> Vec<String> {
    const STAYS: &str = " stays as it is";
    let Some((task, _)) = state.tree.active() else {
        return Vec::new();
    };
    let mut found: Vec<String> = Vec::new();
    let languages = Languages::default();
    let is_test = |path: &str| languages.all().any(|l| l.is_test(path));
    let speaks = crate::state::verdict::speaks_of_tests(&state.goal, is_test);
    if speaks && state.tests_before != Some(false) {
        let planned = |path: &str| {
            state.tree.tasks.iter().any(|task| {
                task.subtasks.iter().any(
                    |subtask| matches!(&subtask.kind, SubtaskKind::Write { path: p } if p == path),
                )
            })
        };
        for path in state.baseline.files.keys() {
            if languages.for_path(path).is_some()
                && !is_test(path)
                && !planned(path)
                && !state.files.contains_key(path)
                && !state.baseline.changed.contains(path)
            {
                found.push(path.clone());
            }
        }
    }
    for subtask in &task.subtasks {
        let text = subtask.description.as_str();
        for (at, _) in text.match_indices(STAYS) {
            let path = text[..at]
                .rsplit([' ', ';', ':', '('])
                .next()
                .unwrap_or_default();
            if !path.is_empty() && !found.iter().any(|p| p == path) {
                found.push(path.to_string());
            }
        }
    }
    found
}

/// The path of `file` (`path` or `path line N`, as a failure names it)
/// when it is the project's own test file and a test of it failed before
/// the run (the goal is to make it pass: the plan keeps it), or the run
/// has not changed it: the code it calls is what is wrong.
pub fn kept_test<'a>(state: &State, file: &'a str) -> Option<&'a str> {
    let path = file.split_once(" line ").map_or(file, |(path, _)| path);
    let failed_before = state.failing_before.iter().any(|id| {
        id.strip_prefix(path)
            .is_some_and(|rest| rest.starts_with("::"))
    });
    // A test file of the project's that the run has not changed holds
    // only the project's own tests: one that passed before and fails now,
    // the run broke. t98's shipping-fix made `shipping_cost(2)` give 10.0,
    // its test of 7.5 failed, and the model was told to write the test
    // file, whose asserts stay, twice.
    // A write of it with the content it had leaves it the project's (t108's
    // shipping-fix wrote tests/test_shipping.py as it was, and was then
    // told to write it again, not the code).
    let as_it_was = match (state.files.get(path), state.baseline.files.get(path)) {
        (None, _) => true,
        (Some(now), Some(was)) => was.sha256.as_deref() == Some(now.sha256.as_str()),
        (Some(_), None) => false,
    };
    let untouched = as_it_was && !state.baseline.changed.iter().any(|p| p == path);
    (state.baseline.files.contains_key(path) && (failed_before || untouched)).then_some(path)
}

/// For program `path` of `contents` that printed `option` back: the lines
/// where it reads its arguments, and how its language tells an option
/// from them. Told only that it took the option for an argument, a small
/// model kept `name = sys.argv[1]` and made `shout` always true, run
/// after run.
fn reading_option(
    path: &str,
    option: &str,
    valued: bool,
    contents: &[(String, String)],
) -> Option<String> {
    let (_, text) = contents.iter().find(|(p, _)| p == path)?;
    let at = Languages::default().for_path(path)?.arguments_at()?;
    Some(
        where_option_is_read(path, option, valued, text).unwrap_or_else(|| {
            format!(
                "{path} never reads {at}.{}",
                how_to_read(path, option, valued)
            )
        }),
    )
}

/// For `path` holding `text`, which reads its command-line arguments: the
/// lines where it reads them, and how its language tells `option` from
/// them; `None` when it reads none.
pub fn where_option_is_read(path: &str, option: &str, valued: bool, text: &str) -> Option<String> {
    let at = Languages::default().for_path(path)?.arguments_at()?;
    // `sys.argv`, or its last name alone: greet.py reads `argv[1]` in a
    // `main(argv)` it calls with `sys.argv`.
    let name = at.rsplit('.').next().unwrap_or(at);
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.contains(at) || crate::text::has_word(line, name))
        .take(3)
        .map(|(n, line)| format!("line {} `{}`", n + 1, line.trim()))
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "{path} reads its arguments at {}: {option} is one of them there.{}",
            lines.join(", "),
            how_to_read(path, option, valued)
        )
    })
}

/// How the language of `path` reads `option` (that takes a value when
/// `valued`), as a sentence after another.
fn how_to_read(path: &str, option: &str, valued: bool) -> String {
    Languages::default()
        .for_path(path)
        .and_then(|language| match valued {
            true => language.reading_valued_option(option),
            false => language.reading_option(option),
        })
        .map(|how| format!(" {how}: use them there."))
        .unwrap_or_default()
}

/// The module of `contents` (not a test) that defines the function `call`
/// calls, by its language: `fizzbuzz.py` for `fizzbuzz(3)`.
fn defining_module<'a>(
    test: &str,
    call: &str,
    contents: &'a [(String, String)],
) -> Option<&'a str> {
    // `validate.is_valid(...)` is `is_valid` of a module imported whole.
    let name = call.split_once('(')?.0.trim();
    let name = name.rsplit('.').next()?;
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let languages = Languages::default();
    let language = languages.for_path(test)?;
    contents
        .iter()
        .filter(|(path, _)| language.owns(path) && !language.is_test(path))
        .find(|(_, text)| language.defines(text, name))
        .map(|(path, _)| path.as_str())
}

/// What a failed `assert CALL == EXPECTED` (either side first) showed:
/// the call, what it gave, what the test expects, and the test's line with
/// what it gave in its place.
struct Gave {
    call: String,
    actual: String,
    expected: String,
    corrected: String,
    /// The line before and after the expected value as written; `None`
    /// for an assert that the call is true or false, which writes none.
    around: Option<(String, String)>,
}

/// Line `n` (1-based) of `path`, as `contents` holds it.
fn line_of<'a>(contents: &'a [(String, String)], path: &str, n: usize) -> Option<&'a str> {
    let (_, content) = contents.iter().find(|(p, _)| p == path)?;
    content.lines().nth(n.checked_sub(1)?)
}

/// The failing assert the last run of the active subtask stopped at, in a
/// test the run wrote (one the project had is right, see [`kept_test`]):
/// its call, what it expects and what the call returned, as `contents`
/// holds the test. `None` when the call returned no value (the code is
/// wrong, whatever the test expects) or its function is code that stays
/// as it is (see [`staying`]: the test is wrong).
pub fn failing_assert(
    state: &State,
    contents: &[(String, String)],
) -> Option<(String, String, String)> {
    let super::Last::Failed {
        what,
        file: Some(file),
    } = super::last(state)
    else {
        return None;
    };
    let (path, line) = file.split_once(" line ")?;
    let line: usize = line.parse().ok()?;
    let languages = Languages::default();
    let language = languages.for_path(path)?;
    if state.baseline.files.contains_key(path) || !language.is_test(path) {
        return None;
    }
    let source = line_of(contents, path, line)?;
    let gave = gave(language, source, &what)?;
    // Code that stays as it is is right: the test is what is wrong (see
    // `test_to_correct`).
    let stays = defining_module(path, &gave.call, contents)
        .is_some_and(|module| staying(state).iter().any(|kept| kept == module));
    (!stays && !language.no_value(&gave.actual)).then_some((gave.call, gave.expected, gave.actual))
}

/// For a test line (`source`) that asserts a call equals a value (`assert
/// CALL == EXPECTED`, `assertEqual(CALL, EXPECTED)`, either side first)
/// whose failure (in `what`: pytest's `assert ACTUAL == EXPECTED`,
/// unittest's `ACTUAL != EXPECTED`) shows what CALL gave, by `language`.
fn gave(language: &dyn crate::lang::Language, source: &str, what: &str) -> Option<Gave> {
    // A line may hold more than one (`assert a == 1; assert b == 2`: t7's
    // slug-tests): the one whose values the failure shows.
    let truth = || {
        let failed = language.truth_failed(source, what)?;
        Some(Gave {
            call: failed.call,
            actual: failed.actual,
            expected: failed.expected,
            corrected: failed.corrected,
            around: None,
        })
    };
    language
        .assertions_on(source)
        .into_iter()
        .find_map(|(left, right)| gave_by(language, source, what, left, right))
        .or_else(truth)
}

/// [`gave`] of the assert of `source` that compares `left` with `right`.
fn gave_by(
    language: &dyn crate::lang::Language,
    source: &str,
    what: &str,
    left: String,
    right: String,
) -> Option<Gave> {
    let (shown_left, shown_right) = language.compared(what)?;
    let same = |a: &str, b: &str| {
        let unquoted = |s: &str| {
            s.strip_prefix(['\'', '"'])
                .and_then(|s| s.strip_suffix(['\'', '"']))
                .map(|s| s.replace("\\'", "'"))
                .unwrap_or_else(|| s.to_string())
        };
        unquoted(a) == unquoted(b) || language.same_value(a, b)
    };
    let line = source.trim();
    // The side the failure shows as written is the expected value; the
    // line spelled out puts what the call gave in its place.
    let expected_first = match (
        same(right.trim(), &shown_right),
        same(left.trim(), &shown_left),
    ) {
        (true, _) => false,
        (false, true) => true,
        (false, false) => return None,
    };
    let (call, written, actual, expected) = match expected_first {
        true => (right, left, shown_right, shown_left),
        false => (left, right, shown_left, shown_right),
    };
    let written = written.trim();
    // The value's place beside its own call: before it, or after it.
    let call_at = line.find(call.trim())?;
    let at = match expected_first {
        true => line[..call_at].rfind(written),
        false => line[call_at + call.trim().len()..]
            .find(written)
            .map(|at| at + call_at + call.trim().len()),
    }?;
    let corrected = format!("{}{actual}{}", &line[..at], &line[at + written.len()..]);
    // A long value with `...` is cut short by the test runner (pytest
    // shows at most 240 characters of one); a short one is what the code
    // gave: t6's slug-tests' `truncate` returns 'Hello, ...', and the
    // model was never told so.
    if same(&actual, &expected) || (actual.contains("...") && actual.chars().count() > 120) {
        return None;
    }
    Some(Gave {
        call: call.trim().to_string(),
        actual,
        expected,
        corrected,
        around: Some((
            line[..at].to_string(),
            line[at + written.len()..].to_string(),
        )),
    })
}

/// The name a call calls: `f` of `f(0)`, `game.play` of `game.play(1)`.
fn called_name(call: &str) -> &str {
    call.split_once('(').map_or(call, |(name, _)| name.trim())
}

/// For a test line that asserts a call equals a value whose failure shows
/// what the call gave (see [`gave`]), where the call's function is defined
/// by a file of `staying` (code the plan keeps as it is): the test is what
/// is wrong, and the edit that makes it expect what the call gave, ready
/// to send. Told "if the code is right, the test is wrong" and to write
/// the whole test file again, t6's slug-tests wrote the same wrong
/// expectation back eleven times. The edit's `old` occurs once in the
/// file (lines around the line added until it does): t17's slug-tests had
/// the failing line twice, was given it alone as `old`, sent it, was told
/// it occurs twice, and the same edit again was blocked.
fn test_to_correct(
    language: &dyn crate::lang::Language,
    (path, line): (&str, Option<usize>),
    source: &str,
    gave: &Gave,
    contents: &[(String, String)],
    staying: &[String],
) -> Option<String> {
    let Gave {
        call,
        actual,
        expected,
        corrected,
        ..
    } = gave;
    let module = defining_module(path, call, contents)?;
    if !staying.iter().any(|kept| kept == module) || language.no_value(actual) {
        return None;
    }
    let (old, new) = line
        .zip(contents.iter().find(|(p, _)| p == path))
        .and_then(|(n, (_, content))| once_corrected(content, n, corrected))
        .unwrap_or_else(|| (source.trim().to_string(), corrected.clone()));
    let edit = crate::agent::nudge::edit_call(path, &old, &new);
    Some(format!(
        " `{call}` returned {actual}, not {expected}. {module} stays as it is, so the test is \
         what is wrong: make it expect what the code returns. Answer with exactly {edit}"
    ))
}

/// The edit that puts `corrected` in place of line `n` (1-based) of
/// `content`, at its indentation: the line alone when it occurs once in
/// `content`, with the lines around it that make it occur once otherwise
/// (see [`crate::tools::smallest_edit`]). `None` when neither is found.
fn once_corrected(content: &str, n: usize, corrected: &str) -> Option<(String, String)> {
    let line = content.lines().nth(n.checked_sub(1)?)?;
    if content.matches(line.trim()).count() == 1 {
        return Some((line.trim().to_string(), corrected.to_string()));
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    let after: Vec<String> = content
        .split('\n')
        .enumerate()
        .map(|(at, text)| match at + 1 == n {
            true => format!("{indent}{corrected}"),
            false => text.to_string(),
        })
        .collect();
    crate::tools::smallest_edit(content, &after.join("\n"))
}

/// For a test line that asserts a call equals a value whose failure shows
/// what the call gave (see [`gave`]): both ways to make them agree, the
/// test's line spelled out. A small model told only the line rewrote the
/// file with the same assert three times. When CALL gave no value at all
/// (its language's `None`) and a module of `contents` defines the
/// function, that module is the file to fix (the second part of the
/// answer): a fizzbuzz that printed its answers was told to fix the test
/// file, and the model wrote `== None` into it.
fn returned_instead(
    language: &dyn crate::lang::Language,
    path: &str,
    gave: Gave,
    contents: &[(String, String)],
    kept: bool,
    said: &[(String, String)],
) -> Option<(String, Option<String>)> {
    let Gave {
        call,
        actual,
        expected,
        corrected,
        around,
    } = gave;
    let call = call.as_str();
    if language.no_value(&actual)
        && let Some(module) = defining_module(path, call, contents)
    {
        let name = called_name(call);
        return Some((
            format!(
                " `{call}` returned {actual}, not {expected}: {name} in {module} gives no value \
                 there. The test is right: make {name} return the value (not print it)."
            ),
            Some(module.to_string()),
        ));
    }
    if kept && let Some(module) = defining_module(path, call, contents) {
        let name = called_name(call);
        let shown = contents
            .iter()
            .find(|(p, _)| p == module)
            .and_then(|(_, text)| definition_lines(language, module, text, name, true))
            .map(|lines| format!(" It is defined so:\n{lines}\n"))
            .unwrap_or_default();
        return Some((
            format!(
                " `{call}` returned {actual}, not {expected}.{} The test is the project's own \
                 and is right: the bug is in {name} of {module}.{shown} Find what in it gives \
                 {actual} instead of {expected}, and change that.",
                differ(&actual, &expected)
            ),
            Some(module.to_string()),
        ));
    }
    // The goal's own words decide between the test and the code: told
    // "if the code is right, the test is wrong", t26's add-duration wrote
    // the tests to expect what its `format_duration` gave, '01:02:05'
    // where the goal says 3725 gives 1:02:05.
    if let Some(value) = crate::lang::examples::goal_says(said, call) {
        use crate::lang::examples::same_value;
        let name = called_name(call);
        let module = defining_module(path, call, contents);
        if same_value(language, &expected, value) {
            let within = module.map(|m| format!(" in {m}")).unwrap_or_default();
            return Some((
                format!(
                    " `{call}` returned {actual}, not {expected}, and the goal says `{call}` \
                     returns {expected}: the test is right and the code is wrong.{} Change \
                     {name}{within} so that it returns {expected}.",
                    differ(&actual, &expected)
                ),
                module.map(str::to_string),
            ));
        }
        let then = match same_value(language, &actual, value) {
            true => String::new(),
            false => format!(" Then make {name} return {value}."),
        };
        let write = match around {
            Some((before, after)) => format!("Write that line as `{before}{value}{after}`."),
            None => format!("Write that line to expect {value}."),
        };
        return Some((
            format!(
                " `{call}` returned {actual}, not {expected}, and the goal says `{call}` returns \
                 {value}: the test is wrong. {write}{then}"
            ),
            None,
        ));
    }
    // A function that never reads a parameter cannot be made right by a
    // test: t31's rps `rock_paper_scissors(player1, player2)` drew both
    // choices at random, and its model, told "if the code is right, the
    // test is wrong", wrote each failing line to what the last run drew.
    if let Some(module) = defining_module(path, call, contents)
        && let Some(unread) = ignored_by(language, module, called_name(call), contents)
    {
        let name = called_name(call);
        let (its, them) = match unread.as_slice() {
            [one] => (format!("its parameter `{one}`"), "it"),
            _ => (
                format!(
                    "its parameters {}",
                    unread
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "them",
            ),
        };
        return Some((
            format!(
                " `{call}` returned {actual}, not {expected}. {name} in {module} never reads \
                 {its}: what it returns does not depend on the arguments a call gives, so no \
                 test can hold it. The code is wrong: make {name} use {them}."
            ),
            Some(module.to_string()),
        ));
    }
    // A model that wrote 'Rock wins!' where the code gave 'rock wins!'
    // wrote the test again as it was, four times (a1's rps): it did not see
    // the difference.
    let only = differ(&actual, &expected);
    Some((
        format!(
            " `{call}` returned {actual}, not {expected}.{only} If the code is right, the test \
             is wrong: write that line as `{corrected}`. If the test is right, fix the code."
        ),
        None,
    ))
}

/// ` They differ only in capital letters.`, or ` They differ in one
/// place: ...` for two strings (see [`crate::lang::examples::difference`]),
/// or nothing. t32's textcase model, asked the fix question of `kebab`
/// with 'Hello-World' and 'hello-world' shown whole, gave `s.replace(' ',
/// '-')` back three times.
pub fn differ(actual: &str, expected: &str) -> String {
    if actual != expected && actual.to_lowercase() == expected.to_lowercase() {
        return " They differ only in capital letters.".to_string();
    }
    crate::lang::examples::difference(actual, expected)
        .map(|differ| format!(" They differ in one place: {differ}."))
        .unwrap_or_default()
}

/// The parameters function `name` of `module` (as `contents` holds it)
/// never reads (see [`crate::lang::Ignored`]), when there are any.
fn ignored_by(
    language: &dyn crate::lang::Language,
    module: &str,
    name: &str,
    contents: &[(String, String)],
) -> Option<Vec<String>> {
    let (_, text) = contents.iter().find(|(p, _)| p == module)?;
    let found = language
        .ignored(&[(module.to_string(), text.clone())])
        .into_iter()
        .next()
        .flatten()?;
    found
        .into_iter()
        .find(|ignored| ignored.function == name)
        .map(|ignored| ignored.parameters)
}

/// A call that returned otherwise than it must (a failing test of the
/// project's own, one that failed before the run and whose asserts the
/// plan keeps; a failing test of what the goal's words say a call
/// returns; or such a call made by the runner), and the function it
/// calls, as a module of the files shown defines it: what a question of
/// its own asks the model to fix (see
/// [`crate::agent::prompt::repair_question`]). Asked in a round, with the
/// tools, the plan and the run around it, Qwen2.5-Coder 1.5B wrote
/// `celsius * 9 / 5 - 32` back unchanged round after round (u3's
/// temp-fix); asked in prose, it said the right formula (u2's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// The module that defines the function: the file to change.
    pub module: String,
    /// The function's name.
    pub name: String,
    /// The name of the module's language, the tag of its code blocks.
    pub language: &'static str,
    /// What shows the call wrong.
    pub shown: Shown,
    /// The call the line makes, what it gave, and what the test expects.
    pub call: String,
    pub actual: String,
    pub expected: String,
    /// The function's definition as the module holds it now.
    pub definition: String,
    /// The lines the call ran, told (see [`crate::lang::trace`]), when the
    /// runner has run it; [`repair`] leaves it out.
    pub trace: Option<String>,
    /// The last write of the module changed nothing: the model wrote the
    /// function back as it was (set by the asker; [`repair`] leaves it
    /// false).
    pub unchanged: bool,
}

/// What shows a [`Repair`]'s call wrong, and so why its expected value is
/// the right one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// A test (its file and its failing line, as written): the project's
    /// own, failing before the run, or one asserting what the goal says
    /// (`goal`).
    Test {
        test: String,
        line: String,
        goal: bool,
    },
    /// The call, made by the runner on an example the goal's words give.
    Goal,
}

/// The [`Repair`] the last failure of the active subtask asks for, when it
/// is one: a check failed at a line of the project's own failing tests
/// (see [`kept_test`]) that compares a call with a value, and a module
/// defines the function it calls. Before the subtask has run anything, a
/// subtask that changes a file the project had starts from the last check
/// of the project's tests (see [`checked_failure`]) when that file is the
/// one to fix. The files are those of `contents` (shown in the context),
/// else as `read` gives them.
pub fn repair(
    state: &State,
    contents: &[(String, String)],
    read: impl Fn(&str) -> Option<String>,
) -> Option<Repair> {
    let changes = match &state.tree.active()?.1.kind {
        SubtaskKind::Write { path } if state.baseline.files.contains_key(path) => Some(path),
        _ => None,
    };
    let (what, file, only) = match last(state) {
        Last::Failed {
            what,
            file: Some(file),
        } => (what, file, None),
        Last::Nothing => match (changes, checked_failure(state)) {
            (
                Some(path),
                Some(Last::Failed {
                    what,
                    file: Some(file),
                }),
            ) => (what, file, Some(path)),
            _ => return None,
        },
        _ => return None,
    };
    // An error raised inside the code, from a line of the project's own
    // tests: that line is what shows the call wrong (t104's stock-fix:
    // `assert remove_stock(stock, "pen", 3) == 0` raised ValueError in
    // stock.py, no question was asked, and the model rewrote the rest).
    let raised = raised_from_test(state, only.is_some(), &file);
    let file = match &raised {
        Some((place, _)) => place.clone(),
        None => file,
    };
    let kept = kept_test(state, &file);
    let test = kept.unwrap_or_else(|| file.split_once(" line ").map_or(&file, |(path, _)| path));
    let line: usize = file.split_once(" line ")?.1.parse().ok()?;
    let mut files = contents.to_vec();
    for path in [Some(test), changes.map(String::as_str)]
        .into_iter()
        .flatten()
    {
        if !files.iter().any(|(p, _)| p == path)
            && let Some(text) = read(path)
        {
            files.push((path.to_string(), text));
        }
    }
    let (_, text) = files.iter().find(|(p, _)| p == test)?;
    let source = text.lines().nth(line.checked_sub(1)?)?;
    let languages = Languages::default();
    let language = languages.for_path(test)?;
    let gave = match &raised {
        Some((_, error)) => raised_by(language, source, error)?,
        None => gave(language, source, &what)?,
    };
    if language.no_value(&gave.actual) || calls_in_arguments(&gave.call) {
        return None;
    }
    // A test the run wrote may be the wrong one, unless it expects what
    // the goal's own words say the call returns: t30's add-duration test
    // of `format_duration(3725) == '1:02:05'` failed, and the model
    // rewrote the test to the code's '01:02:05'.
    let call = match kept {
        Some(_) => gave.call.clone(),
        None => {
            let said = state.goal_given();
            let (call, value) = crate::lang::examples::goal_example(&said, &gave.call)?;
            if !crate::lang::examples::same_value(language, &gave.expected, value) {
                return None;
            }
            call.to_string()
        }
    };
    let module = defining_module(test, &call, &files)?;
    if only.is_some_and(|path| path != module) {
        return None;
    }
    let name = called_name(&call).to_string();
    let (_, code) = files.iter().find(|(p, _)| p == module)?;
    let definition = definition_lines(language, module, code, &name, false)?;
    Some(Repair {
        module: module.to_string(),
        name,
        language: language.name(),
        shown: Shown::Test {
            test: test.to_string(),
            line: source.trim().to_string(),
            goal: kept.is_none(),
        },
        call,
        actual: gave.actual,
        expected: gave.expected,
        definition,
        trace: None,
        unchanged: false,
    })
}

/// Where the last failure (of the active subtask's last command, or of
/// the last check of the project's tests when `checked`), raised at
/// `file` (`stock.py line 11`), was raised from: the project's test line
/// (`test_stock.py line 18`) whose call raised the error inside the code,
/// and the error (`ValueError: only 3 pen left`).
fn raised_from_test(state: &State, checked: bool, file: &str) -> Option<(String, String)> {
    let output = match checked {
        true => super::last::failed_tests_check(state).map(|check| check.output.clone()),
        false => super::failed_output(state),
    }?;
    let problem = (Languages::default().all())
        .find_map(|language| language.failures(&output).into_iter().next())?;
    let raised_at = format!("{} line {}", problem.path, problem.line?);
    let (test, line) = problem.caller.filter(|_| raised_at == file)?;
    let place = format!("{test} line {line}");
    kept_test(state, &place)?;
    Some((place, problem.message))
}

/// The assert of `source` that compares a call with a value, as a
/// [`Gave`] whose call raised `error` in place of returning the value.
fn raised_by(language: &dyn crate::lang::Language, source: &str, error: &str) -> Option<Gave> {
    let (call, expected) =
        (language.assertions_on(source).into_iter()).find_map(|(left, right)| {
            let called = |side: &str| crate::lang::examples::call_name(side).is_some();
            match (called(&left), called(&right)) {
                (true, false) => Some((left, right)),
                (false, true) => Some((right, left)),
                _ => None,
            }
        })?;
    Some(Gave {
        call: call.trim().to_string(),
        actual: format!("raised {error}"),
        expected: expected.trim().to_string(),
        corrected: source.trim().to_string(),
        around: None,
    })
}

/// Whether `call` passes a call as an argument (`format_cents(to_cents(
/// 3.75))`): what it returned says nothing of which function is wrong
/// (t35's money-fix was asked what in `format_cents` gives '$0.38', and
/// broke it; the bug was in `to_cents`). A tuple's parentheses are no
/// call.
fn calls_in_arguments(call: &str) -> bool {
    let Some((_, arguments)) = call.split_once('(') else {
        return false;
    };
    let mut previous = ' ';
    arguments.chars().any(|c| {
        let called = c == '(' && (previous.is_alphanumeric() || previous == '_');
        previous = c;
        called
    })
}

/// The [`Repair`] of the function `call` calls, defined in `module`
/// (`code`), which returned `actual` where the goal's words say it
/// returns `expected`; `None` when the module's language does not show
/// the definition.
pub fn goal_repair(
    module: &str,
    code: &str,
    call: &str,
    actual: &str,
    expected: &str,
) -> Option<Repair> {
    let languages = Languages::default();
    let language = languages.for_path(module)?;
    let name = called_name(call).to_string();
    let definition = definition_lines(language, module, code, &name, false)?;
    Some(Repair {
        module: module.to_string(),
        name,
        language: language.name(),
        shown: Shown::Goal,
        call: call.to_string(),
        actual: actual.to_string(),
        expected: expected.to_string(),
        definition,
        trace: None,
        unchanged: false,
    })
}

/// Whether the last write of the active subtask to `module` changed
/// nothing: it wrote the content the file had, or it was blocked as a
/// repeat of such a write.
pub fn wrote_back(state: &State, module: &str) -> bool {
    let Some(fact) = state
        .calls
        .iter()
        .rev()
        .find(|fact| ["write_file", "edit_file"].contains(&fact.tool.as_str()))
    else {
        return false;
    };
    match &fact.came {
        Came::Ran { outcome } => outcome
            .write
            .as_ref()
            .is_some_and(|w| w.path == module && w.before.as_deref() == Some(w.after.as_str())),
        Came::Blocked => true,
        _ => false,
    }
}

/// Lines a definition is shown in, at most.
const MAX_DEFINITION_LINES: usize = 12;

/// The lines of `name`'s top-level definition in `module` (`text`), by its
/// language: from its line to the next definition's, blank lines at the
/// end left out, `numbered` or as they are; at most
/// [`MAX_DEFINITION_LINES`].
fn definition_lines(
    language: &dyn crate::lang::Language,
    module: &str,
    text: &str,
    name: &str,
    numbered: bool,
) -> Option<String> {
    let definitions = language
        .definitions(&[(module.to_string(), text.to_string())])
        .into_iter()
        .next()?;
    let at = definitions.iter().position(|d| d.name == name)?;
    let first = definitions[at].line as usize;
    let lines: Vec<&str> = text.lines().collect();
    let end = definitions
        .get(at + 1)
        .map_or(lines.len(), |next| (next.line as usize).saturating_sub(1))
        .min(lines.len());
    let mut last = end;
    while last >= first.max(1) && lines[last - 1].trim().is_empty() {
        last -= 1;
    }
    let mut shown: Vec<String> = (first.max(1)..=last)
        .map(|n| match numbered {
            true => format!("{n}: {}", lines[n - 1]),
            false => lines[n - 1].to_string(),
        })
        .collect();
    shown.truncate(MAX_DEFINITION_LINES);
    (!shown.is_empty()).then(|| shown.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_call_passed_as_an_argument_is_told_from_a_tuple() {
        assert!(calls_in_arguments("format_cents(to_cents(3.75))"));
        assert!(calls_in_arguments("f(1, g._h(2))"));
        assert!(!calls_in_arguments("to_cents(2.5)"));
        assert!(!calls_in_arguments("area((1, 2), (3, 4))"));
        assert!(!calls_in_arguments("f"));
    }

    #[test]
    fn a_failed_assert_says_what_the_call_returned() {
        // Qwen2.5-Coder 1.5B's test of its own game, and pytest's words.
        let test = "from g import Game\n\ndef test_play():\n    game = Game()\n    assert game.play('scissors', 'rock') == 'Player 1 wins!'\n";
        let contents = [("test_g.py".to_string(), test.to_string())];
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert 'Player 2 wins!' == 'Player 1 wins!'";
        assert_eq!(
            fix(Some("test_g.py line 5"), what, &contents, false, &[], &[]),
            "The error is at test_g.py line 5. Line 5 is: assert game.play('scissors', 'rock') == \
             'Player 1 wins!' `game.play('scissors', 'rock')` returned 'Player 2 wins!', not \
             'Player 1 wins!'. They differ in one place: 'Player 2 wins!' has `2` after \
             `Player `, where 'Player 1 wins!' has `1`. If the code is right, the test is wrong: \
             write that line as \
             `assert game.play('scissors', 'rock') == 'Player 2 wins!'`. If the test is right, \
             fix the code. Fix it: answer with write_file and the whole corrected content of \
             test_g.py."
        );
        // Values that differ only in their capitals are said to.
        let capitals = what.replace("'Player 2 wins!'", "'player 1 wins!'");
        assert!(
            fix(
                Some("test_g.py line 5"),
                &capitals,
                &contents,
                false,
                &[],
                &[]
            )
            .contains(
                "returned 'player 1 wins!', not 'Player 1 wins!'. They differ only in capital \
                 letters. If the code is right"
            )
        );
        // The expected value in other quotes is the same value.
        let double = test.replace("'Player 1 wins!'", "\"Player 1 wins!\"");
        let contents = [("test_g.py".to_string(), double)];
        assert!(
            fix(Some("test_g.py line 5"), what, &contents, false, &[], &[])
                .contains("returned 'Player 2 wins!'")
        );
        // A failure that is not that assert's gets no such hint.
        let other = "`python3 -m pytest -q` exit code 1: NameError: name 'g' is not defined";
        assert!(
            !fix(Some("test_g.py line 5"), other, &contents, false, &[], &[]).contains("returned")
        );
        // pytest that ran no test is told to write one.
        assert!(
            fix(
                None,
                "`python3 -m pytest -q` exit code 5",
                &[],
                false,
                &[],
                &[]
            )
            .starts_with("pytest found no test")
        );
        assert!(
            fix(None, "`python3 a.py` exit code 5", &[], false, &[], &[])
                .starts_with("Fix the cause")
        );
        // A module of the standard library used and never imported: import
        // it. A name that is no module gets no such hint.
        let program = [(
            "wc.py".to_string(),
            "def wc(path):\n    return 1\n\nprint(wc(sys.argv[1]))\n".to_string(),
        )];
        let unimported = "`python3 wc.py s.txt` exit code 1: NameError: name 'sys' is not defined";
        assert_eq!(
            fix(Some("wc.py line 4"), unimported, &program, false, &[], &[]),
            "The error is at wc.py line 4. Line 4 is: print(wc(sys.argv[1])) `sys` is a module of \
             Python's standard library that wc.py uses without importing it: add `import sys` at \
             the top of wc.py. Fix it: answer with write_file and the whole corrected content of \
             wc.py."
        );
        let undefined = unimported.replace("'sys'", "'args'");
        assert!(
            !fix(Some("wc.py line 4"), &undefined, &program, false, &[], &[]).contains("import")
        );
        // A name the imported module does not define: the fix is there.
        let package = [
            (
                "textkit/reverse_words.py".to_string(),
                "from .reverse_words import *\nfrom .is_blank import *\n".to_string(),
            ),
            (
                "textkit/test_reverse_words.py".to_string(),
                "from textkit.reverse_words import reverse_words\n".to_string(),
            ),
        ];
        let unbound = "`python3 -m pytest -q` exit code 2: ImportError: cannot import name \
                       'reverse_words' from 'textkit.reverse_words' (/w/textkit/reverse_words.py)";
        let at = Some("textkit/test_reverse_words.py line 1");
        assert_eq!(
            fix(at, unbound, &package, false, &[], &[]),
            "The error is at textkit/test_reverse_words.py line 1. Line 1 is: from \
             textkit.reverse_words import reverse_words textkit/reverse_words.py defines no \
             `reverse_words`, so the import of it fails: the fix is in textkit/reverse_words.py, \
             which is to define `reverse_words`. Fix it: answer with write_file and the whole \
             corrected content of textkit/reverse_words.py."
        );
        // Defined there (the import fails for another cause): told as before.
        let mut defined = package.clone();
        defined[0].1 = "def reverse_words(s):\n    return s\n".to_string();
        assert!(
            fix(at, unbound, &defined, false, &[], &[])
                .ends_with("corrected content of textkit/test_reverse_words.py.")
        );
        let elsewhere = "`python3 -m pytest -q` exit code 1: AssertionError: assert 3 == 4";
        assert!(
            !fix(
                Some("test_g.py line 5"),
                elsewhere,
                &contents,
                false,
                &[],
                &[]
            )
            .contains("returned")
        );
    }

    #[test]
    fn what_a_call_gave_is_read_whatever_quotes_the_test_writes_its_value_in() {
        // t6's wordfreq-fix: the test writes `["c"]`, pytest shows `['c']`.
        let languages = Languages::default();
        let python = languages.for_path("tests/test_wordfreq.py").unwrap();
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert ['a'] == ['c']";
        let gave = gave(
            python,
            r#"    assert top_words("a b b c c c", 1) == ["c"]"#,
            what,
        )
        .expect("read");
        assert_eq!(gave.call, r#"top_words("a b b c c c", 1)"#);
        assert_eq!(
            (gave.actual.as_str(), gave.expected.as_str()),
            ("['a']", "['c']")
        );
        assert_eq!(
            gave.corrected,
            r#"assert top_words("a b b c c c", 1) == ['a']"#
        );
        let other = "`python3 -m pytest -q` exit code 1: AssertionError: assert ['a'] == ['d']";
        assert!(gave_none(python, other));
    }

    #[test]
    fn a_short_value_with_dots_is_what_the_call_gave_a_long_one_is_cut_short() {
        let languages = Languages::default();
        let python = languages.for_path("tests/test_slug.py").unwrap();
        let line = "    assert truncate('Hello, World!', 10) == 'Hello, World!'";
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert 'Hello, ...' == \
                    'Hello, World!'";
        let read = gave(python, line, what).expect("read");
        assert_eq!(
            read.corrected,
            "assert truncate('Hello, World!', 10) == 'Hello, ...'"
        );
        let long = format!("'{}...{}'", "a".repeat(110), "a".repeat(110));
        let what = format!("AssertionError: assert {long} == 'Hello, World!'");
        assert!(gave_none(python, &what) && gave(python, line, &what).is_none());
    }

    #[test]
    fn a_failing_test_of_code_that_stays_is_given_the_edit_that_corrects_it() {
        // t6's slug-tests.
        let slug = "def truncate(text, length):\n    if len(text) <= length:\n        return \
                    text\n    return text[: length - 3].rstrip() + '...'\n";
        let test = "from slug import truncate\n\ndef test_truncate():\n    assert \
                    truncate('Hello, World!', 10) == 'Hello, World!'\n";
        let contents = [
            ("slug.py".to_string(), slug.to_string()),
            ("tests/test_slug.py".to_string(), test.to_string()),
        ];
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert 'Hello, ...' == \
                    'Hello, World!'";
        let file = Some("tests/test_slug.py line 4");
        let staying = ["slug.py".to_string()];
        assert_eq!(
            fix(file, what, &contents, false, &staying, &[]),
            "The error is at tests/test_slug.py line 4. Line 4 is: assert truncate('Hello, \
             World!', 10) == 'Hello, World!' `truncate('Hello, World!', 10)` returned 'Hello, \
             ...', not 'Hello, World!'. slug.py stays as it is, so the test is what is wrong: \
             make it expect what the code returns. Answer with exactly {\"name\": \"edit_file\", \
             \"arguments\": {\"path\": \"tests/test_slug.py\", \"old\": \"assert \
             truncate('Hello, World!', 10) == 'Hello, World!'\", \"new\": \"assert \
             truncate('Hello, World!', 10) == 'Hello, ...'\"}}"
        );
        let elsewhere = fix(file, what, &contents, false, &[], &[]);
        assert!(!elsewhere.contains("Answer with exactly"), "{elsewhere}");
        assert!(
            elsewhere.contains("If the code is right, the test is wrong"),
            "{elsewhere}"
        );
    }

    #[test]
    fn a_failing_assert_that_a_call_is_false_of_code_that_stays_is_given_its_edit() {
        // t95's validate-tests.
        let validate = "def is_valid_username(name):\n    return name.isidentifier()\n";
        let test = "import validate\nfrom unittest import TestCase\n\nclass T(TestCase):\n    \
                    def test_a(self):\n        self.assertFalse(validate.is_valid_username('user_'))\n";
        let contents = [
            ("validate.py".to_string(), validate.to_string()),
            ("tests/test_validate.py".to_string(), test.to_string()),
        ];
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: True is not false";
        let file = Some("tests/test_validate.py line 6");
        let staying = ["validate.py".to_string()];
        let told = fix(file, what, &contents, false, &staying, &[]);
        assert!(
            told.contains(
                "`validate.is_valid_username('user_')` returned True, not False. validate.py \
                 stays as it is"
            ) && told.contains("\"new\": \"self.assertTrue(validate.is_valid_username('user_'))\""),
            "{told}"
        );
        // Of code that does not stay, both ways are told, the test's
        // spelled out.
        let told = fix(file, what, &contents, false, &[], &[]);
        assert!(
            told.contains("returned True, not False")
                && told.contains("self.assertTrue(validate.is_valid_username('user_'))"),
            "{told}"
        );
    }

    #[test]
    fn a_failing_line_the_test_file_has_twice_is_given_with_a_line_that_makes_it_once() {
        // t17's slug-tests: the same assert in two tests.
        let slug = "def truncate(text, width):\n    if len(text) <= width:\n        return \
                    text\n    return text[: width - 3] + '...'\n";
        let test = "from slug import truncate\n\ndef test_truncate():\n    assert \
                    truncate('Hello, World!', 20) == 'hello-world'\n\ndef test_again():\n    \
                    assert truncate('Hello, World!', 20) == 'hello-world'\n";
        let contents = [
            ("slug.py".to_string(), slug.to_string()),
            ("test_slug.py".to_string(), test.to_string()),
        ];
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert 'Hello, World!' \
                    == 'hello-world'";
        let staying = ["slug.py".to_string()];
        let told = fix(
            Some("test_slug.py line 7"),
            what,
            &contents,
            false,
            &staying,
            &[],
        );
        let edit = told.split("Answer with exactly ").nth(1).expect(&told);
        let edit: serde_json::Value = serde_json::from_str(edit).expect(edit);
        let (old, new) = (
            edit["arguments"]["old"].as_str().unwrap(),
            edit["arguments"]["new"].as_str().unwrap(),
        );
        assert_eq!(test.matches(old).count(), 1, "{old}");
        let applied = crate::tools::apply_edit(test, old, new, "test_slug.py").expect("applies");
        assert_eq!(
            applied,
            test.replacen(
                "def test_again():\n    assert truncate('Hello, World!', 20) == 'hello-world'",
                "def test_again():\n    assert truncate('Hello, World!', 20) == 'Hello, World!'",
                1
            )
        );
    }

    #[test]
    fn of_two_asserts_on_a_line_the_one_whose_values_failed_is_read() {
        // t7's slug-tests.
        let languages = Languages::default();
        let python = languages.for_path("tests/test_slug.py").unwrap();
        let line = "    assert slugify('Hello, World!') == 'hello-world'; assert \
                    truncate('Hello, World!', 10) == 'Hello, World!'";
        let what = "AssertionError: assert 'Hello, ...' == 'Hello, World!'";
        let read = gave(python, line, what).expect("read");
        assert_eq!(read.call, "truncate('Hello, World!', 10)");
        assert_eq!(
            read.corrected,
            "assert slugify('Hello, World!') == 'hello-world'; assert truncate('Hello, World!', \
             10) == 'Hello, ...'"
        );
        // Expected first, as unittest writes it.
        let read = gave(
            python,
            "self.assertEqual(3, f(3))",
            "AssertionError: 3 != 4",
        )
        .expect("read");
        assert_eq!(read.corrected, "self.assertEqual(4, f(3))");
    }

    fn gave_none(python: &dyn crate::lang::Language, what: &str) -> bool {
        gave(
            python,
            r#"assert top_words("a b b c c c", 1) == ["c"]"#,
            what,
        )
        .is_none()
    }

    #[test]
    fn a_call_that_gave_no_value_is_fixed_in_the_module_that_defines_it() {
        // Qwen2.5-Coder 1.5B's fizzbuzz printed its answers.
        let contents = [
            (
                "fizzbuzz.py".to_string(),
                "def fizzbuzz(n):\n    for i in range(1, n + 1):\n        print(i)\n".to_string(),
            ),
            (
                "test_fizzbuzz.py".to_string(),
                "from fizzbuzz import fizzbuzz\n\ndef test_fizzbuzz():\n    assert fizzbuzz(3) == 'Fizz'\n"
                    .to_string(),
            ),
        ];
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert None == 'Fizz'";
        assert_eq!(
            fix(
                Some("test_fizzbuzz.py line 4"),
                what,
                &contents,
                false,
                &[],
                &[]
            ),
            "The error is at test_fizzbuzz.py line 4. Line 4 is: assert fizzbuzz(3) == 'Fizz' \
             `fizzbuzz(3)` returned None, not 'Fizz': fizzbuzz in fizzbuzz.py gives no value \
             there. The test is right: make fizzbuzz return the value (not print it). Fix it: \
             answer with write_file and the whole corrected content of fizzbuzz.py."
        );
    }

    #[test]
    fn a_test_of_a_function_that_reads_the_keyboard_is_fixed_in_its_module() {
        // t93's rps: the function took no parameter and read the move.
        let game = "import random\n\ndef play():\n    move = input('Move: ')\n    return move\n\n\
                    def beats(a, b):\n    return a != b\n";
        let contents = [
            ("game.py".to_string(), game.to_string()),
            (
                "test_game.py".to_string(),
                "from game import play, beats\n\ndef test_play():\n    assert beats('a', 'b')\n    \
                 assert play() == 'rock'\n"
                    .to_string(),
            ),
        ];
        let what = "`python3 -m pytest -q` exit code 1: OSError: pytest: reading from stdin \
                    while output is captured!  Consider using `-s`.";
        let fixing =
            |at: &str, staying: &[String]| fix(Some(at), what, &contents, false, staying, &[]);
        let told = fixing("test_game.py line 5", &[]);
        assert!(
            told.contains("`play` in game.py reads the keyboard itself")
                && told.ends_with("the whole corrected content of game.py."),
            "{told}"
        );
        // Code that stays as it is is not to be changed: the test is.
        let staying = ["game.py".to_string()];
        let told = fixing("test_game.py line 5", &staying);
        assert!(
            told.contains("a test cannot type")
                && !told.contains("reads the keyboard itself")
                && told.ends_with("the whole corrected content of test_game.py."),
            "{told}"
        );
        // A line whose function reads no keyboard is the test's to fix.
        let told = fixing("test_game.py line 4", &[]);
        assert!(
            !told.contains("reads the keyboard itself")
                && told.ends_with("the whole corrected content of test_game.py."),
            "{told}"
        );
    }

    #[test]
    fn the_names_a_line_calls_are_read_once_each_in_order() {
        assert_eq!(
            names_called("assert m.f(g(1), “x”(2)) == f(h ())"),
            ["f", "g", "h"]
        );
    }

    #[test]
    fn the_goals_example_of_a_call_says_whether_the_test_or_the_code_is_wrong() {
        // t26's add-duration: the goal says 3725 gives 1:02:05.
        let module = "def format_duration(seconds):\n    return f'{seconds // 3600:02d}:02:05'\n";
        let contents = |assert: &str| {
            [
                ("timeutil.py".to_string(), module.to_string()),
                (
                    "test_timeutil.py".to_string(),
                    format!(
                        "from timeutil import format_duration\n\ndef test_it():\n    {assert}\n"
                    ),
                ),
            ]
        };
        let said = [("format_duration(3725)".to_string(), "'1:02:05'".to_string())];
        let at = Some("test_timeutil.py line 4");
        // The test expects what the goal says: the code is to change.
        let right = contents("assert format_duration(3725) == '1:02:05'");
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert '01:02:05' == \
                    '1:02:05'";
        let told = fix(at, what, &right, false, &[], &said);
        assert!(
            told.contains(
                "`format_duration(3725)` returned '01:02:05', not '1:02:05', and the goal says \
                 `format_duration(3725)` returns '1:02:05': the test is right and the code is \
                 wrong. They differ in one place: '01:02:05' has `0` at its start, where \
                 '1:02:05' has nothing. Change format_duration in timeutil.py so that it returns \
                 '1:02:05'."
            ) && told.ends_with("corrected content of timeutil.py."),
            "{told}"
        );
        assert!(!told.contains("If the code is right"), "{told}");
        // Without the goal's word, both ways are offered, as before.
        let unsaid = fix(at, what, &right, false, &[], &[]);
        assert!(
            unsaid.contains("If the code is right, the test is wrong"),
            "{unsaid}"
        );
        // The test expects another value: it is the test that is wrong,
        // and the code too when it does not give the goal's value.
        let wrong = contents("assert format_duration(3725) == '1:2:5'");
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert '01:02:05' == \
                    '1:2:5'";
        let told = fix(at, what, &wrong, false, &[], &said);
        assert!(
            told.contains(
                "the goal says `format_duration(3725)` returns '1:02:05': the test is wrong. \
                 Write that line as `assert format_duration(3725) == '1:02:05'`. Then make \
                 format_duration return '1:02:05'."
            ) && told.ends_with("corrected content of test_timeutil.py."),
            "{told}"
        );
    }

    #[test]
    fn a_failed_assert_equal_says_what_the_call_returned_whichever_side_it_is() {
        // Qwen2.5-Coder 1.5B's unittest of a fizzbuzz that printed, and
        // pytest's words for it.
        let module = "def fizzbuzz(n):\n    for i in range(1, n + 1):\n        print(i)\n";
        let test = |line: &str| {
            format!(
                "import unittest\nfrom fizzbuzz import fizzbuzz\n\nclass T(unittest.TestCase):\n    \
                 def test_f(self):\n        {line}\n"
            )
        };
        let contents = |line: &str| {
            [
                ("fizzbuzz.py".to_string(), module.to_string()),
                ("test_fizzbuzz.py".to_string(), test(line)),
            ]
        };
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: None != 'Fizz'";
        let hint = fix(
            Some("test_fizzbuzz.py line 6"),
            what,
            &contents("self.assertEqual(fizzbuzz(3), 'Fizz')"),
            false,
            &[],
            &[],
        );
        assert!(
            hint.contains("`fizzbuzz(3)` returned None, not 'Fizz': fizzbuzz in fizzbuzz.py")
                && hint.ends_with("corrected content of fizzbuzz.py."),
            "{hint}"
        );
        // The expected value first: unittest shows it first too.
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: 'Fizz' != None";
        let hint = fix(
            Some("test_fizzbuzz.py line 6"),
            what,
            &contents("self.assertEqual('Fizz', fizzbuzz(3))"),
            false,
            &[],
            &[],
        );
        assert!(
            hint.contains("`fizzbuzz(3)` returned None, not 'Fizz'"),
            "{hint}"
        );
        // A value, not None: the line spelled out with it, the value's
        // place found from the right, not in the call's own `3`.
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: 4 != 3";
        let contents = [("test_m.py".to_string(), test("self.assertEqual(f(3), 3)"))];
        let hint = fix(Some("test_m.py line 6"), what, &contents, false, &[], &[]);
        assert!(
            hint.contains(
                "`f(3)` returned 4, not 3. If the code is right, the test is wrong: write that \
                 line as `self.assertEqual(f(3), 4)`."
            ),
            "{hint}"
        );
        // A failure of another assert gives no such hint.
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: 4 != 5";
        assert!(
            !fix(Some("test_m.py line 6"), what, &contents, false, &[], &[]).contains("returned")
        );
    }
}
