//! A plan holds what the goal asks: tests it does not ask for are left
//! out. Asked for "a hello world script" in a folder holding
//! `hello_world.py`, Qwen2.5-Coder 1.5B planned `test_hello_world.py` and
//! `python3 -m pytest -q` as the check, wrote tests of a
//! `hello_world(name)` the script did not define, and spent the run on
//! them; a program planned beside tests is also told to return its
//! results rather than print them, which is how a hello world comes to
//! print nothing.

use super::files::{TESTABLE, check_subtask, then_run, writes};
use crate::state::{SubtaskKind, TaskPlan};

/// `tasks` without each planned write of a test file that is not there
/// (`is_new_test`), for a goal that does not speak of tests (the caller
/// decides): a check that runs tests (`runs_tests`) becomes the run of the
/// last program the plan writes (`run_command` gives it), and a program's
/// subtask no longer says to return results for tests. A plan that writes
/// nothing else is kept as it is. The project's own tests stay its check
/// (see [`super::project_check`]).
pub fn without_unasked_tests(
    tasks: &mut [TaskPlan],
    is_new_test: impl Fn(&str) -> bool,
    runs_tests: impl Fn(&str) -> bool,
    run_command: impl Fn(&str) -> Option<String>,
) {
    let unasked =
        |kind: &SubtaskKind| matches!(kind, SubtaskKind::Write { path } if is_new_test(path));
    let writes_other = tasks
        .iter()
        .flat_map(|t| &t.kinds)
        .any(|kind| matches!(kind, SubtaskKind::Write { .. }) && !unasked(kind));
    if !writes_other || !tasks.iter().flat_map(|t| &t.kinds).any(unasked) {
        return;
    }
    let program = tasks
        .iter()
        .flat_map(|t| &t.kinds)
        .rev()
        .find_map(|kind| match kind {
            SubtaskKind::Write { path } if !unasked(kind) => run_command(path),
            _ => None,
        });
    for task in tasks.iter_mut() {
        if task.kinds.len() != task.subtasks.len() {
            continue;
        }
        let dropped = task.kinds.iter().any(unasked);
        let mut kept = task.kinds.iter().map(|kind| !unasked(kind));
        task.subtasks.retain(|_| kept.next().unwrap_or(true));
        task.kinds.retain(|kind| !unasked(kind));
        let mut check = None;
        for (subtask, kind) in task.subtasks.iter_mut().zip(task.kinds.iter_mut()) {
            match kind {
                SubtaskKind::Check { cmd } if runs_tests(cmd) => {
                    let Some(program) = &program else { continue };
                    *cmd = program.clone();
                    *subtask = check_subtask(program);
                    check = Some(program.clone());
                }
                SubtaskKind::Write { .. } => *subtask = subtask.replace(TESTABLE, ""),
                _ => {}
            }
        }
        // A description of the files shape says the files and the check.
        if dropped && task.description.starts_with("Write ") {
            let names: Vec<&str> = task
                .kinds
                .iter()
                .filter_map(|kind| match kind {
                    SubtaskKind::Write { path } => Some(path.as_str()),
                    _ => None,
                })
                .collect();
            task.description = match check.or_else(|| {
                task.kinds.iter().find_map(|kind| match kind {
                    SubtaskKind::Check { cmd } => Some(cmd.clone()),
                    _ => None,
                })
            }) {
                Some(check) => then_run(&writes(&names), &check),
                None => writes(&names),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Languages;

    fn planned(plan: &str) -> Vec<TaskPlan> {
        super::super::parse(plan).expect("a plan")
    }

    fn dropped(tasks: &mut [TaskPlan], there: &[&str]) {
        let languages = Languages::default();
        without_unasked_tests(
            tasks,
            |path| languages.is_test(path) && !there.contains(&path),
            |command| languages.all().any(|l| l.runs_tests(command)),
            |path| Some(languages.for_path(path)?.run_command(path)),
        );
    }

    #[test]
    fn tests_the_goal_does_not_ask_for_are_left_out_and_the_program_is_the_check() {
        let mut tasks = planned(
            r#"{"tasks": [{"path": "hello_world.py", "purpose": "a hello world script"},
                {"path": "test_hello_world.py", "purpose": "tests"}], "check": "pytest"}"#,
        );
        assert!(tasks[0].subtasks[0].contains(TESTABLE), "{tasks:?}");
        dropped(&mut tasks, &[]);
        assert_eq!(
            tasks[0].subtasks,
            [
                "Write hello_world.py: a hello world script. Complete working code, no placeholders",
                "Run `python3 hello_world.py` and make it succeed (fix the files if it fails)"
            ]
        );
        assert_eq!(
            tasks[0].kinds,
            [
                SubtaskKind::Write {
                    path: "hello_world.py".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 hello_world.py".into()
                }
            ]
        );
        assert_eq!(
            tasks[0].description,
            "Write hello_world.py, then run `python3 hello_world.py`"
        );
    }

    #[test]
    fn a_test_file_that_is_there_and_a_plan_of_tests_alone_are_kept() {
        let plan = r#"{"tasks": [{"path": "calc.py", "purpose": "fix average"},
            {"path": "test_calc.py", "purpose": "the tests"}], "check": "pytest"}"#;
        let mut there = planned(plan);
        dropped(&mut there, &["test_calc.py"]);
        assert_eq!(there, planned(plan));
        let tests_alone = r#"{"tasks": [{"path": "test_calc.py", "purpose": "tests"}],
            "check": "pytest"}"#;
        let mut alone = planned(tests_alone);
        dropped(&mut alone, &[]);
        assert_eq!(alone, planned(tests_alone));
    }
}
