//! A check subtask: done when its command exits with code 0, not when the
//! model says so.

use super::last::in_workspace;
use super::{result_of, tool_calls};
use crate::lang::{Language, Languages};
use crate::state::{CallFact, Came, State, SubtaskKind, verdict};

/// The command of a check subtask, as the planner set it (a plan of files
/// ends with one): the subtask is done when that command exits with code
/// 0, not when the model says so.
pub fn check_command(state: &State) -> Option<String> {
    match &state.tree.active()?.1.kind {
        SubtaskKind::Check { cmd } | SubtaskKind::Show { cmd, .. } => Some(cmd.clone()),
        _ => None,
    }
}

/// What the output of the active subtask's command must hold, when the
/// subtask shows a requirement ([`SubtaskKind::Show`]).
pub fn check_expects(state: &State) -> Option<String> {
    match &state.tree.active()?.1.kind {
        SubtaskKind::Show { expects, .. } => Some(expects.clone()),
        _ => None,
    }
}

/// Whether the last tool of the active subtask was `check`, run to exit
/// code 0 (with nothing written after it), its output holding what the
/// subtask expects of it.
pub fn check_passed(state: &State, check: &str) -> bool {
    tool_calls(state)
        .last()
        .is_some_and(|fact| ran(fact, check) && passed(fact) && short_of(state, fact).is_none())
}

/// For a run of the active subtask's command that exited with code 0 but
/// printed less than the subtask expects, or printed its option back: what
/// it printed instead. A
/// cli-flag cycle ran `python3 greet.py` (exit code 0) and was done while
/// `--shout` was still printed back as a name.
///
/// A plain check that passes an option (a cycle's `python3 greet.py
/// --shout`, see `complete::cycle`) is short of it too when it prints the
/// option back.
pub(super) fn short_of(state: &State, fact: &CallFact) -> Option<String> {
    let check = check_command(state)?;
    if !ran(fact, &check) {
        return None;
    }
    let printed = crate::tools::printed(result_of(state, fact));
    let back = verdict::printed_back(&check, &printed).map(|option| {
        format!(
            "; it printed {option} back: the program took the option for an argument (it must \
             read {option} as an option and print no {option})"
        )
    });
    // A plain check expects nothing of its output.
    let expects = check_expects(state);
    let held = expects.as_deref().map_or(Ok(()), |expects| {
        verdict::holds(&printed, expects).map(drop)
    });
    match (held, back) {
        (Ok(()), None) => None,
        (Ok(()), Some(back)) => Some(format!(
            "`{check}` printed {:?}{back}",
            printed.trim().lines().next().unwrap_or("")
        )),
        // An expectation that describes the output is held by no output:
        // a run that printed something ends the subtask, and the
        // assessment, which judges the requirement, is asked again.
        (Err(_), None)
            if expects.as_deref().is_some_and(verdict::describes) && !printed.trim().is_empty() =>
        {
            None
        }
        (Err(why), back) => Some(format!("`{check}` {why}{}", back.unwrap_or_default())),
    }
}

/// The option the last call of the active subtask, a run of its
/// command that exited with code 0, printed back (see
/// [`verdict::printed_back`]).
pub(super) fn option_printed_back(state: &State) -> Option<String> {
    let check = check_command(state)?;
    let fact = tool_calls(state).last()?;
    if !(ran(fact, &check) && passed(fact)) {
        return None;
    }
    let printed = crate::tools::printed(result_of(state, fact));
    verdict::printed_back(&check, &printed).map(str::to_string)
}

/// Whether `check` has not run in the active subtask since a file was last
/// written there (or at all): its result for the files as they are now is
/// not known.
pub fn check_unknown(state: &State, check: &str) -> bool {
    let facts: Vec<&CallFact> = tool_calls(state).collect();
    facts
        .into_iter()
        .rev()
        .find_map(|fact| {
            let wrote = wrote(fact);
            (wrote || ran(fact, check)).then_some(wrote)
        })
        .unwrap_or(true)
}

/// The command the active check subtask's planned one becomes, when that
/// one runs a program with no arguments (a language's run of a file, not
/// a test run), it failed in this subtask, and the last call ran the same
/// with arguments after it, to exit code 0. A small model planned `python3
/// word_count.py` for a goal whose program counts the words of the file
/// given as its argument; the check could not pass whatever the program
/// did. Only for a goal that gives its program arguments (its words, or an
/// option it names): r4's hello printed `sys.argv[1]`, its check became
/// `python3 hello.py hello`, an argument of the model's own, and the run
/// ended "Goal achieved".
pub fn given_check(state: &State) -> Option<String> {
    let SubtaskKind::Check { cmd: check } = &state.tree.active()?.1.kind else {
        return None;
    };
    verdict::gives_arguments(&state.goal).then_some(())?;
    bare_program(check)?;
    let planned: Vec<&str> = check.split_whitespace().collect();
    let facts: Vec<&CallFact> = tool_calls(state).collect();
    let last = facts.last()?;
    let Came::Ran { outcome } = &last.came else {
        return None;
    };
    let command = outcome.command.as_deref()?;
    let words: Vec<&str> = command.split_whitespace().collect();
    let extends = words.len() > planned.len() && words[..planned.len()] == planned[..];
    let bare_failed = facts.iter().any(|fact| ran(fact, check) && !passed(fact));
    (extends && !outcome.interrupted && passed(last) && bare_failed).then(|| words.join(" "))
}

/// The names a sample input is given, the first that is free.
const SAMPLES: [&str; 3] = ["sample.txt", "sample_input.txt", "input_sample.txt"];

/// The command the active check subtask's planned one becomes, and the
/// sample input it runs on, when that one runs a program with no
/// arguments (a language's run of a file), the last call ran it, it
/// stopped where the program reads its arguments ([`crate::lang::Language::wants_arguments`]),
/// and the program (its text by `text`) opens files: `python3
/// word_count.py sample.txt`, with sample.txt to write. o3's word-count
/// program was right; its check, `python3 word_count.py`, raised an
/// `IndexError` at `sys.argv[1]`, and the model, told to fix the file,
/// wrote it again unchanged until the loop guard failed the subtask.
pub fn wanted_input(
    state: &State,
    text: impl Fn(&str) -> Option<String>,
) -> Option<(String, String)> {
    let SubtaskKind::Check { cmd: check } = &state.tree.active()?.1.kind else {
        return None;
    };
    let program = bare_program(check)?;
    let (command, output) = stopped_for_arguments(state)?;
    command
        .split_whitespace()
        .eq(check.split_whitespace())
        .then_some(())?;
    let languages = Languages::default();
    let language = languages.for_path(&program)?;
    let reads = text(&program).is_some_and(|text| language.reads_files(&text));
    (reads && wants_only_arguments(language, output)).then_some(())?;
    let input = SAMPLES
        .into_iter()
        .find(|sample| !in_workspace(state, sample))?;
    Some((format!("{check} {input}"), input.to_string()))
}

/// Whether a run that showed `output` stopped where its program reads its
/// arguments, not keyboard input: no command gives that, and the code is
/// to read its arguments instead (o1's word-count: `input('Enter file
/// path: ')`).
fn wants_only_arguments(language: &dyn Language, output: &str) -> bool {
    language.wants_arguments(output) && !language.waits_for_keyboard(output)
}

/// The last run of the active subtask, with no file changed after it,
/// when it ran a program with no arguments (see [`bare_program`]) that
/// failed: its command and what it showed.
fn stopped_for_arguments(state: &State) -> Option<(String, &str)> {
    let fact = tool_calls(state)
        .filter(|fact| fact.tool == "run_cmd" || wrote(fact))
        .last()?;
    let Came::Ran { outcome } = &fact.came else {
        return None;
    };
    let command = outcome.command.as_deref()?;
    bare_program(command)?;
    (!outcome.interrupted && !passed(fact)).then(|| (command.to_string(), result_of(state, fact)))
}

/// What to do when the last run of the active subtask ran a program with
/// no arguments and it stopped where it reads them: the code is not at
/// fault, so no fix is asked for. A check given a sample input (see
/// [`wanted_input`]) says to write the sample, then run it; otherwise the
/// model is to run the program with the arguments the goal gives it, a
/// run that becomes the check once it passes (see [`given_check`]).
pub fn arguments_wanted(state: &State) -> Option<String> {
    let (command, output) = stopped_for_arguments(state)?;
    let program = bare_program(&command)?;
    let languages = Languages::default();
    wants_only_arguments(languages.for_path(&program)?, output).then_some(())?;
    let said = format!(
        "The code is not at fault: `{command}` gives {program} no arguments, and it stopped \
         where it reads them."
    );
    let check = check_command(state);
    let input = check.as_deref().and_then(|check| {
        let rest = check.strip_prefix(command.as_str())?.trim();
        (!rest.is_empty() && !rest.contains(' ')).then_some(rest)
    });
    Some(match (check.as_deref(), input) {
        (Some(check), Some(input)) if !in_workspace(state, input) => format!(
            "{said} The check is now `{check}`, and {input} is not there yet: write it first, a \
             small sample input that {program} reads, with content whose right answer you know \
             (answer with write_file and path {input}); then run `{check}`."
        ),
        (Some(check), Some(_)) => format!(
            "{said} The check is now `{check}`: answer with exactly {}",
            run_call(check)
        ),
        _ => format!(
            "{said} Run it with the arguments the goal gives it: answer with run_cmd and \
             `{command}` followed by them; a run of that which passes is then the check."
        ),
    })
}

/// When the last run of the active subtask ran a program with no
/// arguments and it stopped at keyboard input on line `line` of its
/// content in `contents`: the edit that reads its first argument there
/// instead, ready to copy, for a goal that gives it arguments
/// ([`verdict::speaks_of_arguments`]). Told to fix the
/// file and that a command gets no keyboard input, n1's and o1's
/// word-count models wrote the same `input('Enter the file path: ')`
/// again until the loop guard ended the subtask.
pub fn keyboard_edit(state: &State, line: u32, contents: &[(String, String)]) -> Option<String> {
    // A game that asks its moves at the keyboard is no program of
    // arguments: only a goal that gives it some is edited so.
    verdict::speaks_of_arguments(&state.goal).then_some(())?;
    let (command, output) = stopped_for_arguments(state)?;
    let program = bare_program(&command)?;
    let languages = Languages::default();
    let language = languages.for_path(&program)?;
    language.waits_for_keyboard(output).then_some(())?;
    let (_, content) = contents.iter().find(|(path, _)| *path == program)?;
    let edit = language.argument_for_keyboard(content, line)?;
    let call = serde_json::json!({ "name": "edit_file", "arguments": {
        "path": program, "old": edit.old, "new": edit.new } });
    Some(format!(
        "{program} asks for keyboard input on line {line}, and a command gets none: `{command}` \
         can never give it. When the goal gives {program} its input as an argument, read that \
         instead: answer with exactly {call}"
    ))
}

/// For a check that runs a program with no arguments (see
/// [`given_check`]), whose content in `contents` reads its arguments or
/// its input: how to give it them. A command gets no keyboard input, so a
/// small model's `input()` loop timed out the check again and again.
pub fn input_hint(check: &str, contents: &[(String, String)]) -> Option<String> {
    let program = bare_program(check)?;
    let languages = Languages::default();
    let (_, content) = contents.iter().find(|(path, _)| *path == program)?;
    let reads = languages.for_path(&program)?.reads_input(content);
    reads.then(|| {
        format!(
            "{program} reads input and `{check}` gives it none (a command here gets no keyboard \
             input): if the goal gives it arguments or an input file, make {program} read them \
             from its command line, and run `{check}` with them after it (write a small input \
             file first when it reads one); that run is then the check."
        )
    })
}

/// The program a check runs with no arguments: the command is its
/// language's run of it (`python3 a.py`), not a test run.
pub fn bare_program(check: &str) -> Option<String> {
    let program = check.split_whitespace().last()?;
    let languages = Languages::default();
    let run = languages.for_path(program)?.run_command(program);
    run.split_whitespace()
        .eq(check.split_whitespace())
        .then(|| program.to_string())
}

/// Whether `fact` is a run of `check` (its words, however spaced).
pub(super) fn ran(fact: &CallFact, check: &str) -> bool {
    matches!(&fact.came, Came::Ran { outcome }
    if !outcome.interrupted
        && outcome.command.as_deref().is_some_and(|ran| {
            ran.split_whitespace().eq(check.split_whitespace())
        }))
}

/// Whether `fact` is a command that exited with code 0.
pub(super) fn passed(fact: &CallFact) -> bool {
    matches!(&fact.came, Came::Ran { outcome } if outcome.ok && outcome.exit_code == Some(0))
}

/// Whether `fact` is a write or an edit that changed a file.
pub(super) fn wrote(fact: &CallFact) -> bool {
    matches!(fact.tool.as_str(), "write_file" | "edit_file")
        && matches!(&fact.came, Came::Ran { outcome }
            if outcome.write.as_ref().is_some_and(|write| write.changed()))
}

/// The call that runs `command`, ready to copy.
pub fn run_call(command: &str) -> String {
    serde_json::json!({ "name": "run_cmd", "arguments": { "cmd": command } }).to_string()
}
