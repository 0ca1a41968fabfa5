//! A plan on a project that is already there: a subtask that writes a file
//! the workspace holds says to change it and keep the rest. "Write calc.py:
//! ... Complete working code" over an existing calc.py reads as "write it
//! anew", and a small model did (Qwen2.5-Coder 1.5B lost every function
//! the goal did not name).

use crate::state::{SubtaskKind, TaskPlan};

/// What a subtask on an existing file adds.
const KEEP: &str = ". It exists: change what the goal asks and keep the rest of it";
/// What a subtask on an existing test file adds: the runner refuses a
/// change of its asserts (see `Agent::kept_tests`). A small model planned
/// "Change test_calc.py: Fix the bug in calc.py so that the tests pass"
/// and changed the test's expected value.
const KEEP_TESTS: &str = ". It exists and holds the project's tests: keep each of its asserts as \
it is (a change to them is refused) and change the code they test; add tests only if the goal \
asks for them";

/// `tasks` with each write of a file for which `exists` holds said as a
/// change of that file; of a test file (`is_test`), one that keeps its
/// asserts.
pub fn on_workspace(
    tasks: &mut [TaskPlan],
    exists: impl Fn(&str) -> bool,
    is_test: impl Fn(&str) -> bool,
) {
    for task in tasks {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            if !exists(path) {
                continue;
            }
            if let Some(rest) = subtask.strip_prefix(&format!("Write {path}")) {
                *subtask = format!("Change {path}{rest}");
            }
            let keep = if is_test(path) { KEEP_TESTS } else { KEEP };
            if !subtask.ends_with(keep) {
                subtask.push_str(keep);
            }
        }
    }
}

/// `tasks` checked by the project's own tests, `check` (the command its
/// languages give for the tests that were there before the run): a plan
/// whose checks do not run it gets it as its last subtask. A small model
/// asked to fix a bug that the project's tests show planned `python3
/// calc.py` as the check, which passes on the bug.
pub fn project_check(tasks: &mut [TaskPlan], check: &str) {
    let runs_it = |kind: &SubtaskKind| {
        matches!(kind, SubtaskKind::Check { cmd }
            if cmd.split_whitespace().eq(check.split_whitespace()))
    };
    // A plan of descriptions alone (free kinds) runs it when a subtask
    // says so.
    let says_it = |subtask: &String| {
        let words: Vec<&str> = subtask.split_whitespace().collect();
        let check: Vec<&str> = check.split_whitespace().collect();
        words.windows(check.len()).any(|w| {
            w.iter()
                .map(|word| word.trim_matches('`'))
                .eq(check.iter().copied())
        })
    };
    if tasks.iter().flat_map(|t| &t.kinds).any(runs_it)
        || tasks.iter().flat_map(|t| &t.subtasks).any(says_it)
    {
        return;
    }
    let Some(last) = tasks.last_mut() else {
        return;
    };
    // A plan given as descriptions alone has no kinds yet: free ones.
    last.kinds.resize(last.subtasks.len(), SubtaskKind::Free);
    last.subtasks.push(format!(
        "Run the project's tests, `{check}`, and make them pass (fix the code if they fail)"
    ));
    last.kinds.push(SubtaskKind::Check {
        cmd: check.to_string(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_of_an_existing_file_is_a_change_that_keeps_the_rest() {
        let mut tasks = vec![TaskPlan {
            description: "Write calc.py and test_calc.py".into(),
            subtasks: vec![
                "Write calc.py: fix average. Complete working code, no placeholders".into(),
                "Write test_calc.py: tests".into(),
                "Run `python3 -m pytest -q`".into(),
            ],
            kinds: vec![
                SubtaskKind::Write {
                    path: "calc.py".into(),
                },
                SubtaskKind::Write {
                    path: "test_calc.py".into(),
                },
                SubtaskKind::Check {
                    cmd: "python3 -m pytest -q".into(),
                },
            ],
        }];
        on_workspace(&mut tasks, |path| path == "calc.py", |_| false);
        assert_eq!(
            tasks[0].subtasks,
            vec![
                format!(
                    "Change calc.py: fix average. Complete working code, no placeholders{KEEP}"
                ),
                "Write test_calc.py: tests".to_string(),
                "Run `python3 -m pytest -q`".to_string(),
            ]
        );
        let once = tasks.clone();
        on_workspace(&mut tasks, |path| path == "calc.py", |_| false);
        assert_eq!(tasks, once, "said once");
    }

    #[test]
    fn a_plan_that_does_not_run_the_projects_tests_gets_them_last() {
        let plan = |check: &str| TaskPlan {
            description: "Fix calc.py".into(),
            subtasks: vec!["Change calc.py".into(), format!("Run `{check}`")],
            kinds: vec![
                SubtaskKind::Write {
                    path: "calc.py".into(),
                },
                SubtaskKind::Check { cmd: check.into() },
            ],
        };
        let mut tasks = vec![plan("python3 calc.py")];
        project_check(&mut tasks, "python3 -m pytest -q");
        assert_eq!(tasks[0].subtasks.len(), 3);
        assert_eq!(
            tasks[0].kinds[2],
            SubtaskKind::Check {
                cmd: "python3 -m pytest -q".into()
            }
        );
        assert!(tasks[0].subtasks[2].contains("`python3 -m pytest -q`"));
        let mut checked = vec![plan("python3  -m pytest -q")];
        let before = checked.clone();
        project_check(&mut checked, "python3 -m pytest -q");
        assert_eq!(checked, before, "already run: unchanged");
        let mut said = vec![TaskPlan {
            description: "Fix calc.py".into(),
            subtasks: vec!["Fix calc.py".into(), "run `python3 -m pytest -q`".into()],
            kinds: Vec::new(),
        }];
        let before = said.clone();
        project_check(&mut said, "python3 -m pytest -q");
        assert_eq!(said, before, "said in words: unchanged");
    }
}
