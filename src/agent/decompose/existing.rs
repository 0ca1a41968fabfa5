//! A plan on a project that is already there: a subtask that writes a file
//! the workspace holds says to change it and keep the rest. "Write calc.py:
//! ... Complete working code" over an existing calc.py reads as "write it
//! anew", and a small model did (Qwen2.5-Coder 1.5B lost every function
//! the goal did not name).

use crate::state::{SubtaskKind, TaskPlan};

/// What a subtask on an existing file adds.
const KEEP: &str = ". It exists: change what the goal asks and keep the rest of it";

/// `tasks` with each write of a file for which `exists` holds said as a
/// change of that file.
pub fn on_workspace(tasks: &mut [TaskPlan], exists: impl Fn(&str) -> bool) {
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
            if !subtask.ends_with(KEEP) {
                subtask.push_str(KEEP);
            }
        }
    }
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
        on_workspace(&mut tasks, |path| path == "calc.py");
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
        on_workspace(&mut tasks, |path| path == "calc.py");
        assert_eq!(tasks, once, "said once");
    }
}
