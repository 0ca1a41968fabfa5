//! What the last call of the active subtask came to, from its typed
//! outcome; a failed command's output is read through the language seam for
//! the error and the file it points at.

use super::check::{passed, short_of, wrote};
use super::{COMPLETE, call_of, calls, result_of, tool_calls};
use crate::lang::Languages;
use crate::model::text_calls;
use crate::state::{ActionOutcome, CallFact, Came, RefusalKind, State, SubtaskKind, verdict};
use crate::tools;

/// What the last tool call of the active subtask came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Last {
    /// Nothing has run for this subtask yet.
    Nothing,
    /// It worked: `did` says what, in words that fit a completion reason.
    Worked { did: String },
    /// A command failed: its error line, and the written file its output
    /// points at (with the line), when it names one.
    Failed { what: String, file: Option<String> },
    /// The call was refused or blocked: the first line of why, and the
    /// refusal's kind when the runner refused it before it ran.
    Refused {
        why: String,
        kind: Option<RefusalKind>,
    },
}

/// What the last tool call of the active subtask left unwired, when it
/// worked and its result said so (a write's note, see [`tools::NOTE`]):
/// `no call in greet.py gives ...`.
pub fn unwired(state: &State) -> Option<String> {
    note_of(state, tool_calls(state).last()?)
}

/// What the last write or edit of the active subtask that changed a file
/// left unwired, when its result said so (see [`unwired`]): nothing that
/// the subtask's calls did since changed a file, so it still holds.
pub fn unwired_still(state: &State) -> Option<String> {
    note_of(state, tool_calls(state).filter(|fact| wrote(fact)).last()?)
}

/// The note of a call's result: its line after [`tools::NOTE`], without
/// what follows it on other lines (the file as the write left it).
fn note_of(state: &State, fact: &CallFact) -> Option<String> {
    let (_, note) = result_of(state, fact).split_once(tools::NOTE)?;
    let note = note.split(tools::NOTE).next()?;
    let note = note.lines().next()?.trim();
    (!note.is_empty()).then(|| note.to_string())
}

/// How the last tool call of the active subtask went.
pub fn last(state: &State) -> Last {
    match tool_calls(state).last() {
        Some(fact) => outcome(state, fact),
        None => Last::Nothing,
    }
}

/// Whether a tool other than `note` ran in the active subtask: a call that
/// was refused or blocked did nothing.
pub fn acted(state: &State) -> bool {
    tool_calls(state).any(|fact| !matches!(outcome(state, fact), Last::Refused { .. }))
}

/// The files the active subtask's writes and edits changed, and the one
/// it is to write, each once.
pub fn changed_files(state: &State) -> Vec<String> {
    let planned = state
        .tree
        .active()
        .and_then(|(_, subtask)| match &subtask.kind {
            SubtaskKind::Write { path } => Some(path.clone()),
            _ => None,
        });
    let mut paths: Vec<String> = planned.into_iter().collect();
    for fact in tool_calls(state) {
        if let Came::Ran { outcome } = &fact.came
            && let Some(write) = &outcome.write
            && write.changed()
            && !paths.contains(&write.path)
        {
            paths.push(write.path.clone());
        }
    }
    paths
}

/// The output of the last command of the active subtask that failed, as
/// the model was shown it (see [`crate::lang::Workspace::failed_output`]).
pub fn failed_output(state: &State) -> Option<String> {
    // The fact keeps the outcome without its text: the conversation holds
    // what the model was shown (until 2026-11-29 this read the fact's
    // empty text, and no failed run ever pointed a review at a line).
    tool_calls(state)
        .filter(|fact| match &fact.came {
            Came::Ran { outcome } => {
                outcome.command.is_some() && !outcome.ok && !outcome.interrupted
            }
            _ => false,
        })
        .last()
        .map(|fact| result_of(state, fact).to_string())
        .filter(|result| !result.is_empty())
}

/// The output of the active subtask's last command that ran tests, when
/// some of them failed and some passed and no write of the subtask changed
/// `path` since: what tells which tests of `path`, as it is, passed.
pub fn tests_failed_since(state: &State, path: &str) -> Option<String> {
    let mut found = None;
    for fact in tool_calls(state) {
        let Came::Ran { outcome } = &fact.came else {
            continue;
        };
        if outcome
            .write
            .as_ref()
            .is_some_and(|write| write.path == path && write.changed())
        {
            found = None;
        } else if outcome.command.is_some()
            && !outcome.interrupted
            && let Some(tally) = crate::lang::tally::tally(result_of(state, fact))
        {
            found =
                (tally.failed > 0 && tally.passed > 0).then(|| result_of(state, fact).to_string());
        }
    }
    found
}

/// Whether giving up the active subtask was already refused as too soon.
pub fn gave_up_before(state: &State) -> bool {
    completion_refused(state, RefusalKind::GaveUpTooSoon)
}

/// Whether a completion of the active subtask was refused as `kind`.
pub fn completion_refused(state: &State, kind: RefusalKind) -> bool {
    calls(state).any(|fact| fact.tool == COMPLETE && fact.came == Came::Refused { kind })
}

/// Whether the runner made an edit in place of a claim of the active
/// subtask (see `Agent::edit_ignored`): the claim's call ran an action.
pub fn edit_made_for_claim(state: &State) -> bool {
    calls(state).any(|fact| fact.tool == COMPLETE && matches!(fact.came, Came::Ran { .. }))
}

/// How the last call of the active subtask was refused, when it was a
/// claim that the subtask is done that the runner refused.
pub fn claim_refused(state: &State) -> Option<RefusalKind> {
    let fact = calls(state).filter(|fact| fact.tool != "note").last()?;
    match fact.came {
        Came::Refused { kind } if fact.tool == COMPLETE => Some(kind),
        _ => None,
    }
}

/// Whether the last call of the active subtask was the write an answer to
/// a question of its own gave, and it changed the file: what the program
/// prints now is that answer's.
pub fn answer_written(state: &State) -> bool {
    let Some(fact) = calls(state).filter(|fact| fact.tool != "note").last() else {
        return false;
    };
    state.answer_exchange == Some(fact.exchange) && super::check::wrote(fact)
}

/// The write the model sent again, and had blocked as a repeat, after the
/// file's language refused it: its path and content, as the refused call
/// is kept, and the first line of the refusal. t9's and t10's textkit sent
/// the same unreadable `write_file` six rounds in a row, told each time
/// which line Python could not read, and the subtask ended stuck. An edit
/// refused so and sent again is the file as the edit would have left it
/// (`text` reads a file as it is now): t42's join-sep sent the same edit,
/// which read an `args` nothing set, five times.
pub fn unreadable_write(
    state: &State,
    text: impl Fn(&str) -> Option<String>,
) -> Option<(String, String, String)> {
    let facts: Vec<&CallFact> = tool_calls(state).collect();
    let tool = facts.last()?.tool.clone();
    if tool != "write_file" && tool != "edit_file" {
        return None;
    }
    let repeats = facts
        .iter()
        .rev()
        .take_while(|fact| fact.came == Came::Blocked && fact.tool == tool)
        .count();
    let refused = facts.len().checked_sub(repeats + 1).map(|at| facts[at])?;
    let unreadable = Came::Refused {
        kind: RefusalKind::LanguageRefused,
    };
    if repeats == 0 || refused.tool != tool || refused.came != unreadable {
        return None;
    }
    let call = call_of(state, refused)?;
    let path = call.arguments["path"].as_str()?.to_string();
    let content = match tool.as_str() {
        "edit_file" => crate::tools::apply_edit(
            &text(&path)?,
            call.arguments["old"].as_str()?,
            call.arguments["new"].as_str()?,
            &path,
        )
        .ok()?,
        _ => call.arguments["content"].as_str()?.to_string(),
    };
    let why = result_of(state, refused).lines().next()?.to_string();
    Some((path, content, why))
}

/// Whether a call of the active subtask was refused as `kind`.
pub fn refused_in_subtask(state: &State, kind: RefusalKind) -> bool {
    calls(state).any(|fact| fact.came == Came::Refused { kind })
}

/// Whether a write or an edit of the active subtask was refused.
pub fn write_refused_in_subtask(state: &State) -> bool {
    calls(state).any(|fact| matches!(fact.came, Came::Refused { kind } if kind.is_refused_write()))
}

/// The file the active subtask is to change, while no write or edit has
/// changed a file in it, when the subtask is a cycle's (its requirement was found
/// missing on the files as they are) or the file was there before the run
/// (the plan asked for a change of it): a claim that it is done, with
/// nothing changed, is a claim against the evidence. An add-function run
/// marked "Change textutil.py: Add count_vowels ..." done after running
/// `python3 textutil.py` on the file as it was.
pub fn unchanged(state: &State) -> Option<String> {
    let cursor = state.tree.cursor?;
    let in_cycle = state.cycles > 0 && cursor.task >= state.cycle_start;
    let (_, subtask) = state.tree.active()?;
    let SubtaskKind::Write { path } = &subtask.kind else {
        return None;
    };
    if !in_cycle && !state.baseline.files.contains_key(path) {
        return None;
    }
    // A write of the content the file had changes nothing: a cli-flag
    // cycle wrote greet.py as it was and marked the subtask done.
    let changed = tool_calls(state).any(|fact| {
        wrote(fact) && matches!(&fact.came, Came::Ran { outcome } if !outcome.interrupted)
    });
    (!changed).then(|| path.clone())
}

/// What one call of the active subtask came to.
fn outcome(state: &State, fact: &CallFact) -> Last {
    let text = result_of(state, fact);
    let refused = |kind| Last::Refused {
        why: text.lines().next().unwrap_or("").to_string(),
        kind,
    };
    let outcome = match &fact.came {
        Came::Ran { outcome } if !outcome.interrupted => outcome,
        Came::Refused { kind } => return refused(Some(*kind)),
        _ => return refused(None),
    };
    match fact.tool.as_str() {
        "run_cmd" => match &outcome.command {
            Some(command) if passed(fact) => match short_of(state, fact) {
                Some(what) => Last::Failed {
                    what,
                    file: program_of(state, command),
                },
                None => Last::Worked {
                    did: format!("ran {command}: exit code 0"),
                },
            },
            Some(command) => failure(state, command, outcome, text),
            None => refused(outcome.refusal),
        },
        "write_file" => match &outcome.write {
            Some(write)
                if !write.changed()
                    && let Some(Last::Failed { what, file }) = last_failure(state) =>
            {
                Last::Failed {
                    what: format!(
                        "your write changed nothing ({} already had that content), so {what}",
                        write.path
                    ),
                    file,
                }
            }
            Some(write) if !write.changed() => Last::Worked {
                did: format!(
                    "wrote {} with the content it had: nothing changed",
                    write.path
                ),
            },
            Some(write) => Last::Worked {
                did: format!("wrote {}", write.path),
            },
            None => refused(outcome.refusal),
        },
        "edit_file" => match &outcome.write {
            Some(write) if write.changed() => Last::Worked {
                did: format!("edited {}", write.path),
            },
            // Told it was not run, a small model sent the same edit of a
            // file that already held what the subtask asked, seven times,
            // until the loop guard ended the subtask.
            Some(write) => Last::Worked {
                did: format!(
                    "edited {} with `new` equal to `old`: it holds that text already, nothing \
                     changed",
                    write.path
                ),
            },
            // The same edit sent again, refused as its `new` is there
            // already: what it was to make is in the file. Counted as
            // nothing done, it had l1's add-function cycle (whose function
            // was there, and an assessment had called it missing) refused
            // "nothing has been done" until the loop guard failed it.
            None if outcome.refusal == Some(RefusalKind::EditMadeBefore) => Last::Worked {
                did: format!(
                    "found that {} holds what the edit was to make already: nothing changed",
                    text.split_once("edit_file ")
                        .and_then(|(_, rest)| rest.split_once(':'))
                        .map_or("the file", |(path, _)| path)
                ),
            },
            _ => refused(outcome.refusal),
        },
        "read_file" | "list_dir" | "search" if outcome.ok => Last::Worked {
            did: format!(
                "looked at {}",
                text.lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(60)
                    .collect::<String>()
            ),
        },
        _ => refused(outcome.refusal),
    }
}

/// The last command of the active subtask, when it ran and failed.
fn last_failure(state: &State) -> Option<Last> {
    let fact = calls(state).filter(|fact| fact.tool == "run_cmd").last()?;
    let Came::Ran { outcome } = &fact.came else {
        return None;
    };
    let command = outcome.command.as_deref()?;
    if outcome.interrupted {
        return None;
    }
    if passed(fact) {
        let what = short_of(state, fact)?;
        return Some(Last::Failed {
            what,
            file: program_of(state, command),
        });
    }
    Some(failure(state, command, outcome, result_of(state, fact)))
}

/// The file of the workspace a command runs (`greet.py` of `python3
/// greet.py --shout`): one the run wrote or one that was there before it.
fn program_of(state: &State, command: &str) -> Option<String> {
    command
        .split_whitespace()
        .skip(1)
        .map(|word| word.trim_start_matches("./"))
        .find(|word| state.files.contains_key(*word) || state.baseline.files.contains_key(*word))
        .map(str::to_string)
}

/// Whether `path` is a file of the workspace now, by the run's record: one
/// it wrote and did not lose, or one that was there before it and was not
/// deleted.
pub(super) fn in_workspace(state: &State, path: &str) -> bool {
    state.files.contains_key(path) && !state.missing.iter().any(|m| m == path)
        || state.baseline.files.contains_key(path)
            && !state.baseline.deleted.iter().any(|d| d == path)
}

/// A command that ran and failed: how it ended, its error, and the file its
/// output (`output`) points at.
fn failure(state: &State, command: &str, outcome: &ActionOutcome, output: &str) -> Last {
    let status = match (outcome.end, outcome.exit_code) {
        (Some(end), _) => end.describe(),
        (None, Some(code)) => format!("exit code {code}"),
        (None, None) => "was killed".to_string(),
    };
    let mut what = match error_line(output) {
        Some(error) => format!("`{command}` {status}: {error}"),
        None => format!("`{command}` {status}"),
    };
    // A file it was given that is not there (`python3 word_count.py
    // test.txt`): a small model made the program print that it found no
    // file, which no run can show right.
    let absent = verdict::absent(command, |path| in_workspace(state, path));
    what.push_str(&verdict::absent_note(&absent));
    let broke = broken_tests(state, output);
    if !broke.is_empty() {
        what.push_str(&format!(
            "; {} passed before this run and {} now: a change of this run broke what {} \
             (put back what {} and fix only what failed before)",
            broke.join(", "),
            if broke.len() == 1 { "fails" } else { "fail" },
            if broke.len() == 1 {
                "it tests"
            } else {
                "they test"
            },
            if broke.len() == 1 {
                "it needs"
            } else {
                "they need"
            },
        ));
    }
    what.push_str(&raised_note(state, output));
    Last::Failed {
        what,
        file: failed_at(state, output),
    }
}

/// The first failure `output` shows when it was raised inside a file that
/// stays as it is (see [`super::next_step::staying`]: the code whose tests
/// the goal asks for) from a call at a place of the workspace in another
/// file: that place (the test's line) is what is wrong. t22's add-tests
/// model, told "The error is at inventory.py line 12 ... Fix it: answer
/// with write_file and the whole corrected content of inventory.py" after
/// its test removed what it never added, tried to write inventory.py and
/// was refused, until the rounds ran out.
fn raised_inside(state: &State, output: &str) -> Option<(crate::lang::Problem, String, u32)> {
    let problem = Languages::default()
        .all()
        .find_map(|language| language.failures(output).into_iter().next())?;
    let (caller, line) = problem.caller.clone()?;
    (in_workspace(state, &caller) && super::next_step::staying(state).contains(&problem.path))
        .then_some((problem, caller, line))
}

/// What [`raised_inside`] found, said after the error: where it was raised,
/// and that the calling line is what to change.
fn raised_note(state: &State, output: &str) -> String {
    let Some((problem, caller, line)) = raised_inside(state, output) else {
        return String::new();
    };
    let at = problem
        .line
        .map(|n| format!(" line {n}"))
        .unwrap_or_default();
    let expect = Languages::default()
        .for_path(&caller)
        .and_then(|language| language.expecting_error(&problem.message))
        .map(|how| format!(" ({how})"))
        .unwrap_or_default();
    format!(
        " (raised inside {}{at}, which stays as it is: that is what it does for the call at \
         {caller} line {line}, so that line of the test is what is wrong: expect the error \
         there{expect}, or call it as it works)",
        problem.path
    )
}

/// The file of the workspace and the line where the language's reading of
/// `output` places the failure its error line is (see [`error_line`]);
/// else [`pointed_at`]. With two tests failing, the last place pytest
/// named was the second one's, and t3's temp-fix was shown the first
/// one's message against the second one's line.
fn failed_at(state: &State, output: &str) -> Option<String> {
    if let Some((_, caller, line)) = raised_inside(state, output) {
        return Some(format!("{caller} line {line}"));
    }
    Languages::default()
        .all()
        .find_map(|language| language.failures(output).into_iter().next())
        .filter(|problem| in_workspace(state, &problem.path))
        .map(|problem| match problem.line {
            Some(line) => format!("{} line {line}", problem.path),
            None => problem.path,
        })
        .or_else(|| pointed_at(state, output))
}

/// The failure of the project's tests as the last check over the whole
/// project found it (before the plan, or at the last completion check),
/// read as a failed command of the subtask is: what a change of the code
/// it calls starts from, before the subtask has run anything.
pub fn checked_failure(state: &State) -> Option<Last> {
    let check = failed_tests_check(state)?;
    let status = match check.exit_code {
        Some(code) => format!("exit code {code}"),
        None => "was killed".to_string(),
    };
    let what = match error_line(&check.output) {
        Some(error) => format!("`{}` {status}: {error}", check.command),
        None => format!("`{}` {status}", check.command),
    };
    Some(Last::Failed {
        what,
        file: failed_at(state, &check.output),
    })
}

/// The last check over the whole project that ran tests and some failed.
pub(super) fn failed_tests_check(state: &State) -> Option<&verdict::CheckRun> {
    (state.checks.iter()).find(|check| !check.passed() && check.tests.is_some_and(|t| t.failed > 0))
}

/// The project's tests that `output` says failed and that passed when they
/// ran before the plan: in a test file there before the run and not
/// changed since, not among those that failed then. A small model asked
/// to fix `average` made `add` return `a + b + 1` too, and `test_add`,
/// which had passed, failed with the rest.
fn broken_tests(state: &State, output: &str) -> Vec<String> {
    if state.tests_before.is_none() {
        return Vec::new();
    }
    let baseline = &state.baseline;
    crate::lang::failed_tests(output)
        .into_iter()
        .filter(|test| {
            let file = test.split("::").next().unwrap_or(test);
            baseline.files.contains_key(file)
                && !baseline.changed.iter().any(|c| c == file)
                && !state.failing_before.contains(test)
        })
        .take(3)
        .collect()
}

/// The line of a failing program's output that says what went wrong: what
/// a language's reading of its failed check says (pytest's `E   ...`,
/// `node --test`'s error), or the last `...Error: ...` / `error: ...` line.
fn error_line(output: &str) -> Option<String> {
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    let found = Languages::default()
        .all()
        .find_map(|language| language.failures(output).into_iter().next())
        .map(|problem| problem.message)
        .or_else(|| {
            lines
                .iter()
                .rev()
                .find(|line| {
                    let head = line.split(':').next().unwrap_or("");
                    line.contains(':')
                        && (head.ends_with("Error")
                            || head.ends_with("Exception")
                            || head == "error")
                })
                .map(|line| line.to_string())
        })?;
    Some(found.chars().take(200).collect())
}

/// The file, written by the run or there before it, a failing program's
/// output names last (a traceback's innermost frame, pytest's `file.py:12:
/// Error`), with its line number. The project's own failing test was left
/// unnamed, and a calc-fix run was told only to fix "the file that is
/// wrong".
fn pointed_at(state: &State, output: &str) -> Option<String> {
    let (_, path) = state
        .files
        .keys()
        .chain(state.baseline.files.keys())
        .filter_map(|path| {
            text_calls::mentions(output, path, true)
                .last()
                .map(|&at| (at, path))
        })
        .max()?;
    let digits = |text: &str| -> String { text.chars().take_while(char::is_ascii_digit).collect() };
    let line = text_calls::mentions(output, path, true)
        .into_iter()
        .rev()
        .find_map(|at| {
            let after = &output[at + path.len()..];
            after
                .strip_prefix(':')
                .map(digits)
                .or_else(|| after.strip_prefix("\", line ").map(digits))
                .filter(|line| !line.is_empty())
        });
    Some(match line {
        Some(line) => format!("{path} line {line}"),
        None => path.clone(),
    })
}
