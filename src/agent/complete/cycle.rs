//! (c) of "done?": what is still missing becomes the task of a new cycle.

use crate::agent::focus::bare_program;
use crate::state::verdict::{self, CheckRun, Requirement};
use crate::state::{SubtaskKind, TaskPlan};
use crate::text::names_path;

/// Subtasks of a cycle: each missing requirement, then the checks.
const MAX_CYCLE_SUBTASKS: usize = 6;
/// A requirement or its evidence is cut to this in a subtask's text.
const MAX_LINE: usize = 200;

fn cut(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(MAX_LINE) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The source file requirement `r` is about: the first of `sources` its
/// words, its evidence or the command that shows it name, else the first
/// of them (the plan's own file). A cycle's "Make this true: ... takes an
/// optional --shout flag" named no file, and a small model ran `python3
/// greet.py --shout`, saw it fail, and called the subtask done, twice.
fn file_of<'a>(r: &Requirement, sources: &'a [String]) -> Option<&'a String> {
    let command = r.shown_by.as_ref().map(|s| s.command.as_str());
    let texts = [
        Some(r.requirement.as_str()),
        Some(r.evidence.as_str()),
        command,
    ];
    sources
        .iter()
        .find(|path| texts.iter().flatten().any(|text| names_path(text, path)))
        .or(sources.first())
}

/// Where the tests a goal asks for go when the workspace has none for its
/// code: the test file (by the code's language) and the command that runs
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TestsPlace {
    pub path: String,
    pub command: String,
}

/// The task of a new cycle: each unmet requirement, then each check (the
/// failed ones, or all of them when a requirement was missing, so the
/// cycle ends with the work checked). An unmet requirement about tests,
/// with a place for them (`tests`), is the write of that test file, and
/// the cycle runs them: a cycle asked to "add pytest tests" of a
/// fizzbuzz.py with its plan's check, `python3 fizzbuzz.py`, wrote
/// fizzbuzz.py again twice and never a test.
pub(super) fn cycle_task(
    cycle: u32,
    checks: &[CheckRun],
    requirements: &[Requirement],
    failed: &[String],
    tests: Option<&TestsPlace>,
    sources: &[String],
) -> TaskPlan {
    let unmet: Vec<&Requirement> = requirements.iter().filter(|r| !r.met).collect();
    // With no check, a failed subtask is done again (see verdict::verdict),
    // but not a run of a stated command that an unmet requirement gives as
    // its own subtask below.
    let shown: Vec<String> = unmet
        .iter()
        .filter_map(|r| r.to_redo())
        .map(|(command, expects)| crate::agent::decompose::show_subtask(command, expects))
        .collect();
    let again = failed
        .iter()
        .filter(|subtask| checks.is_empty() && !shown.contains(subtask))
        .map(|subtask| (cut(subtask), SubtaskKind::Free));
    // Tests that must pass, with a check that failed: the check's own
    // subtask below ("make it succeed") is that work, unless there are no
    // tests yet to make pass.
    let check_failed = checks.iter().any(CheckRun::failed);
    let make_true = |r: &&Requirement| {
        format!(
            "Make this true: {} (found: {})",
            cut(&r.requirement),
            cut(&r.evidence)
        )
    };
    let written = tests.and_then(|place| {
        let r = unmet.iter().find(|r| r.about_tests)?;
        Some((
            format!(
                "Write {}: {}. The tests go in {}, a file of their own that imports what it tests",
                place.path,
                make_true(r),
                place.path
            ),
            SubtaskKind::Write {
                path: place.path.clone(),
            },
        ))
    });
    // A run that only wanted arguments cannot be made to pass as it is:
    // the requirement `verdict::hold_to_run` added, when any, is the work.
    let mut runs: Vec<&str> = checks
        .iter()
        .filter(|check| !(check.wants_arguments || (unmet.is_empty() && check.passed())))
        .map(|check| check.command.as_str())
        .collect();
    if let Some(place) = tests.filter(|_| written.is_some())
        && !runs
            .iter()
            .any(|run| run.split_whitespace().eq(place.command.split_whitespace()))
    {
        runs.push(&place.command);
    }
    let tests_written = written.is_some();
    let (mut subtasks, mut kinds): (Vec<String>, Vec<SubtaskKind>) = unmet
        .iter()
        // One about tests with its test file known (see
        // `verdict::hold_to_exercised`) is a change of that file.
        .filter(|r| !(r.about_tests && r.file.is_none() && (check_failed || tests_written)))
        .map(|r| {
            // The file the runner knows the requirement is about first:
            // named only in its words, a package's `__init__.py` that did
            // not exist lost to the module the words named too, and a
            // small model put the import in the module itself.
            let known = r.file.as_ref();
            let verb = match known.is_some_and(|path| !sources.contains(path) && !r.about_tests) {
                true => "Write",
                false => "Change",
            };
            let path = known.or_else(|| file_of(r, sources).filter(|_| !r.about_tests));
            // No command showed what the program prints: the work may be
            // right, and what is missing is a run that shows it. Asked to
            // "change greet.py: make this true: the program prints what
            // the goal says", a small model answered in prose until the
            // run stopped.
            if r.requirement == verdict::OUTPUT_ASKED && r.shown_by.is_none() {
                let (program, fix) = match path {
                    Some(path) => (path.as_str(), path.as_str()),
                    None => ("the program", "the files"),
                };
                return (
                    format!(
                        "Run {program} with run_cmd the way the goal says (with what the goal \
                         gives it on the command line) and see that it prints what the goal \
                         asks; if it does not, fix {fix}"
                    ),
                    SubtaskKind::Free,
                );
            }
            match path {
                Some(path) => (
                    format!("{verb} {path}: {}", make_true(r)),
                    SubtaskKind::Write { path: path.clone() },
                ),
                None => (make_true(r), SubtaskKind::Free),
            }
        })
        .chain(written)
        .chain(again)
        .take(MAX_CYCLE_SUBTASKS - runs.len().min(MAX_CYCLE_SUBTASKS - 1))
        .unzip();
    // Each requirement about output, shown by a command, is run until its
    // output holds what it must: a cli-flag cycle whose check was `python3
    // greet.py` passed it with `--shout` still printed back as a name, and
    // the next cycle did the same.
    // Once each, when two requirements give the same run and texts that
    // differ in spacing or punctuation only.
    let mut shows: Vec<(&str, &str)> = Vec::new();
    for (command, expects) in unmet.iter().filter_map(|r| r.to_redo()) {
        let known = shows.iter().any(|(known, wanted)| {
            known.split_whitespace().eq(command.split_whitespace())
                && verdict::spoken(wanted) == verdict::spoken(expects)
        });
        if !known {
            shows.push((command, expects));
        }
    }
    for (command, expects) in shows
        .into_iter()
        .take(MAX_CYCLE_SUBTASKS.saturating_sub(subtasks.len() + runs.len()))
    {
        subtasks.push(crate::agent::decompose::show_subtask(command, expects));
        kinds.push(SubtaskKind::Show {
            cmd: command.to_string(),
            expects: expects.to_string(),
        });
    }
    // A requirement that names an option and gives no command that shows
    // it (the one `verdict::hold_to_goal` adds): the plan's run of its
    // program that passed, with the option, which fails while the program prints the
    // option back (see `focus::check::short_of`). A cli-flag cycle was
    // only told to "make this true: the program takes --shout"; the model
    // made `shout` default to true, and `python3 greet.py` passed.
    let mut optioned: Vec<(String, String)> = Vec::new();
    for r in unmet.iter().filter(|r| r.to_redo().is_none()) {
        let named = r.options().join(" ");
        if named.is_empty() {
            continue;
        }
        // A run of the program alone that passed: it needs no argument.
        for check in checks
            .iter()
            .filter(|check| check.passed() && bare_program(&check.command).is_some())
        {
            let command = format!("{} {named}", check.command);
            if !optioned.iter().any(|(known, _)| *known == command) {
                optioned.push((command, named.clone()));
            }
        }
    }
    for (command, named) in optioned
        .into_iter()
        .take(MAX_CYCLE_SUBTASKS.saturating_sub(subtasks.len() + runs.len()))
    {
        subtasks.push(format!(
            "Run `{command}` and make it succeed, reading {named} as an option (fix the files if \
             it fails or prints it back)"
        ));
        kinds.push(SubtaskKind::Check { cmd: command });
    }
    for run in runs {
        subtasks.push(format!(
            "Run `{run}` and make it succeed (fix the files if it fails)"
        ));
        kinds.push(SubtaskKind::Check {
            cmd: run.to_string(),
        });
    }
    if subtasks.is_empty() {
        subtasks.push("Make the goal true: the assessment found no requirement met".into());
        kinds.push(SubtaskKind::Free);
    }
    let what: Vec<String> = unmet.iter().map(|r| cut(&r.requirement)).collect();
    let failed: Vec<String> = checks
        .iter()
        .filter(|c| c.failed())
        .map(|c| format!("`{}` passes", c.command))
        .collect();
    TaskPlan {
        description: format!(
            "Cycle {cycle}: what is still missing: {}",
            what.into_iter()
                .chain(failed)
                .collect::<Vec<_>>()
                .join("; ")
        ),
        subtasks,
        kinds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn check(command: &str, exit_code: Option<i32>) -> CheckRun {
        CheckRun {
            command: command.into(),
            exit_code,
            output: String::new(),
            tests: None,
            wants_arguments: false,
        }
    }

    fn req(text: &str, met: bool) -> Requirement {
        Requirement {
            requirement: text.into(),
            met,
            evidence: "mathx/__init__.py has no mul".into(),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: None,
        }
    }

    #[test]
    fn a_cycle_asks_for_what_is_missing_and_ends_with_the_checks() {
        let task = cycle_task(
            1,
            &[check("python3 -m pytest -q", Some(0))],
            &[req("add", true), req("mul", false)],
            &["Write mathx/mul.py".into()],
            None,
            &[],
        );
        assert_eq!(
            task.subtasks,
            vec![
                "Make this true: mul (found: mathx/__init__.py has no mul)".to_string(),
                "Run `python3 -m pytest -q` and make it succeed (fix the files if it fails)"
                    .to_string(),
            ]
        );
        assert_eq!(task.description, "Cycle 1: what is still missing: mul");
    }

    /// A failed run of a stated command, with no check, is not done again
    /// beside the same run the unmet requirement it shows gives.
    #[test]
    fn a_failed_show_subtask_is_not_done_twice() {
        let mut stated = req("`python3 hi.py Ann` prints \"Hi, Ann!\"", false);
        stated.about_output = true;
        stated.shown_by = Some(verdict::ShownBy {
            command: "python3 hi.py Ann".into(),
            expects: "Hi, Ann!".into(),
        });
        let show = crate::agent::decompose::show_subtask("python3 hi.py Ann", "Hi, Ann!");
        let failed = [show.clone(), "Write notes.txt".to_string()];
        let task = cycle_task(1, &[], &[stated], &failed, None, &["hi.py".into()]);
        assert_eq!(task.subtasks.iter().filter(|s| **s == show).count(), 1);
        assert!(task.subtasks.contains(&"Write notes.txt".to_string()));
    }

    /// A package's `__init__.py` that must import a name: the cycle writes
    /// it, though the requirement's words name the module too (and that
    /// module is a source file there).
    #[test]
    fn a_requirement_about_a_file_the_runner_knows_changes_that_file() {
        let mut missing = req("mathx/__init__.py imports add from mathx/add.py", false);
        missing.file = Some("mathx/__init__.py".into());
        let sources = ["mathx/add.py".to_string()];
        let task = cycle_task(1, &[], &[missing.clone()], &[], None, &sources);
        assert_eq!(
            task.kinds[0],
            SubtaskKind::Write {
                path: "mathx/__init__.py".into()
            }
        );
        assert!(task.subtasks[0].starts_with("Write mathx/__init__.py: Make this true"));
        let sources = ["mathx/add.py".to_string(), "mathx/__init__.py".to_string()];
        let task = cycle_task(1, &[], &[missing], &[], None, &sources);
        assert!(task.subtasks[0].starts_with("Change mathx/__init__.py: Make this true"));
    }

    /// The requirement added when no command showed what a program
    /// prints is a run of the program to do, not a change to make.
    #[test]
    fn a_missing_run_of_the_program_is_a_run_to_do_not_a_change() {
        let claimed = req("count_words returns the number of words", true);
        let asked = verdict::hold_to_output_asked(true, vec![claimed]);
        let sources = ["word_count.py".to_string()];
        let checks = [check("python3 word_count.py sample.txt", Some(0))];
        let task = cycle_task(1, &checks, &asked, &[], None, &sources);
        assert_eq!(task.kinds[0], SubtaskKind::Free);
        assert!(
            task.subtasks[0].starts_with(
                "Run word_count.py with run_cmd the way the goal says (with what the goal gives \
                 it on the command line) and see that it prints what the goal asks; if it does \
                 not, fix word_count.py"
            ),
            "{}",
            task.subtasks[0]
        );
        let mut other = asked[1].clone();
        other.requirement = "word_count.py prints the count".into();
        let task = cycle_task(1, &checks, &[other], &[], None, &sources);
        assert!(task.subtasks[0].starts_with("Change word_count.py: Make this true"));
    }

    /// A requirement that names an option and gives no command: the plan's
    /// run of its program, with the option, is a check of the cycle.
    #[test]
    fn an_option_with_no_command_is_checked_by_the_run_with_it() {
        let flag = req(
            "the program takes --shout and it works as the goal says",
            false,
        );
        let sources = ["greet.py".to_string()];
        let checks = [
            check("python3 greet.py", Some(0)),
            check("python3 -m pytest -q", Some(0)),
        ];
        let failed = [check("python3 greet.py", Some(1))];
        let task = cycle_task(1, &failed, std::slice::from_ref(&flag), &[], None, &sources);
        assert!(
            !task.subtasks.iter().any(|s| s.contains("--shout`")),
            "{:?}",
            task.subtasks
        );
        let task = cycle_task(1, &checks, &[flag], &[], None, &sources);
        assert_eq!(
            task.kinds[1..],
            [
                SubtaskKind::Check {
                    cmd: "python3 greet.py --shout".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 greet.py".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 -m pytest -q".into()
                },
            ]
        );
        assert_eq!(
            task.subtasks[1],
            "Run `python3 greet.py --shout` and make it succeed, reading --shout as an option \
             (fix the files if it fails or prints it back)"
        );
    }

    /// A requirement about output the assessment shows by a command: its
    /// cycle runs that command until the output holds what it must; one
    /// whose command leaves out the option the requirement names does not.
    #[test]
    fn a_requirement_about_output_is_run_until_its_output_holds_it() {
        let mut flag = req("greet.py takes an optional --shout flag", false);
        flag.about_output = true;
        flag.shown_by = Some(crate::state::verdict::ShownBy {
            command: "python3 greet.py --shout".into(),
            expects: "HELLO, WORLD!".into(),
        });
        let sources = ["greet.py".to_string()];
        let checks = [check("python3 greet.py", Some(0))];
        let task = cycle_task(1, &checks, &[flag.clone()], &[], None, &sources);
        assert_eq!(
            task.kinds,
            vec![
                SubtaskKind::Write {
                    path: "greet.py".into()
                },
                SubtaskKind::Show {
                    cmd: "python3 greet.py --shout".into(),
                    expects: "HELLO, WORLD!".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 greet.py".into()
                },
            ]
        );
        assert_eq!(
            task.subtasks[1],
            "Run `python3 greet.py --shout` and make its output hold \"HELLO, WORLD!\" (fix the \
             files until it does)"
        );
        // The same show given for two requirements is run once, whatever
        // comes between them.
        let mut other = flag.clone();
        other.shown_by = Some(crate::state::verdict::ShownBy {
            command: "python3 greet.py --shout Ann".into(),
            expects: "HELLO, ANN!".into(),
        });
        let requirements = [flag.clone(), other, flag.clone()];
        let twice = cycle_task(1, &[], &requirements, &[], None, &sources);
        let shows = twice
            .kinds
            .iter()
            .filter(|kind| matches!(kind, SubtaskKind::Show { .. }))
            .count();
        assert_eq!(shows, 2, "{:?}", twice.kinds);
        flag.shown_by = Some(crate::state::verdict::ShownBy {
            command: "python3 greet.py".into(),
            expects: "HELLO, WORLD!".into(),
        });
        let task = cycle_task(1, &checks, &[flag.clone()], &[], None, &sources);
        assert!(
            !task
                .kinds
                .iter()
                .any(|kind| matches!(kind, SubtaskKind::Show { .. }))
        );
        // Met, it is not run again.
        flag.met = true;
        let task = cycle_task(1, &checks, &[flag], &[], None, &sources);
        assert!(
            task.kinds
                .iter()
                .all(|kind| !matches!(kind, SubtaskKind::Show { .. }))
        );
    }

    #[test]
    fn a_failed_check_alone_makes_a_cycle_of_running_it() {
        let task = cycle_task(
            2,
            &[check("python3 -m pytest -q", Some(1))],
            &[req("add", true)],
            &[],
            None,
            &[],
        );
        assert_eq!(
            task.subtasks,
            vec!["Run `python3 -m pytest -q` and make it succeed (fix the files if it fails)"]
        );
        assert_eq!(
            task.description,
            "Cycle 2: what is still missing: `python3 -m pytest -q` passes"
        );
    }

    #[test]
    fn missing_tests_with_no_test_file_are_written_in_their_own_and_run() {
        let tests = Requirement {
            about_tests: true,
            ..req("pytest tests for fizzbuzz", false)
        };
        let place = TestsPlace {
            path: "test_fizzbuzz.py".into(),
            command: "python3 -m pytest -q".into(),
        };
        let checks = [check("python3 fizzbuzz.py", Some(0))];
        let task = cycle_task(
            1,
            &checks,
            &[req("fizzbuzz", true), tests.clone()],
            &[],
            Some(&place),
            &[],
        );
        assert_eq!(
            task.kinds,
            vec![
                SubtaskKind::Write {
                    path: "test_fizzbuzz.py".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 fizzbuzz.py".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 -m pytest -q".into()
                },
            ]
        );
        assert!(
            task.subtasks[0].starts_with(
                "Write test_fizzbuzz.py: Make this true: pytest tests for fizzbuzz (found:"
            ),
            "{}",
            task.subtasks[0]
        );
        // Without a place, the requirement is said as before, and the
        // checks are the plan's.
        let task = cycle_task(1, &checks, std::slice::from_ref(&tests), &[], None, &[]);
        assert_eq!(task.kinds[0], SubtaskKind::Free);
        assert_eq!(task.subtasks.len(), 2);
        // With the project's test file known, a change of it, even while
        // its tests fail.
        let known = Requirement {
            file: Some("test_fizzbuzz.py".into()),
            ..tests
        };
        let failed = [check("python3 -m pytest -q", Some(1))];
        let task = cycle_task(1, &failed, &[known], &[], None, &[]);
        assert!(
            task.subtasks[0].starts_with("Change test_fizzbuzz.py: Make this true"),
            "{:?}",
            task.subtasks
        );
        assert_eq!(task.kinds.len(), 2);
    }

    #[test]
    fn a_missing_requirement_is_the_change_of_the_file_it_is_about() {
        let shout = Requirement {
            shown_by: Some(crate::state::verdict::ShownBy {
                command: "python3 greet.py --shout".into(),
                expects: "HELLO".into(),
            }),
            ..req("it takes an optional --shout flag", false)
        };
        let sources = ["util.py".to_string(), "greet.py".to_string()];
        let checks = [check("python3 greet.py", Some(0))];
        let task = cycle_task(
            1,
            &checks,
            std::slice::from_ref(&shout),
            &[],
            None,
            &sources,
        );
        assert_eq!(
            task.kinds[0],
            SubtaskKind::Write {
                path: "greet.py".into()
            }
        );
        assert_eq!(
            task.subtasks[0],
            "Change greet.py: Make this true: it takes an optional --shout flag (found: \
             mathx/__init__.py has no mul)"
        );
        // Named nowhere: the first source, the plan's own file.
        let plain = req("it shouts", false);
        let task = cycle_task(1, &checks, &[plain], &[], None, &sources);
        assert_eq!(
            task.kinds[0],
            SubtaskKind::Write {
                path: "util.py".into()
            }
        );
        // No source: said as it is.
        let task = cycle_task(1, &checks, &[shout], &[], None, &[]);
        assert_eq!(task.kinds[0], SubtaskKind::Free);
    }

    #[test]
    fn with_no_check_a_failed_subtask_is_done_again() {
        let task = cycle_task(
            1,
            &[],
            &[req("add", true)],
            &["Write poem.txt".into()],
            None,
            &[],
        );
        assert_eq!(task.subtasks, vec!["Write poem.txt".to_string()]);
    }
}
