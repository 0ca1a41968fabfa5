//! (c) of "done?": what is still missing becomes the task of a new cycle.

use crate::state::verdict::{CheckRun, Requirement};
use crate::state::{SubtaskKind, TaskPlan};

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

/// The task of a new cycle: each unmet requirement, then each check (the
/// failed ones, or all of them when a requirement was missing, so the
/// cycle ends with the work checked).
pub(super) fn cycle_task(
    cycle: u32,
    checks: &[CheckRun],
    requirements: &[Requirement],
    failed: &[String],
) -> TaskPlan {
    let unmet: Vec<&Requirement> = requirements.iter().filter(|r| !r.met).collect();
    // With no check, a failed subtask is done again (see verdict::verdict).
    let again = failed
        .iter()
        .filter(|_| checks.is_empty())
        .map(|subtask| cut(subtask));
    // Tests that must pass, with a check that failed: the check's own
    // subtask below ("make it succeed") is that work.
    let check_failed = checks.iter().any(|c| !c.passed());
    let mut subtasks: Vec<String> = unmet
        .iter()
        .filter(|r| !(r.about_tests && check_failed))
        .map(|r| {
            format!(
                "Make this true: {} (found: {})",
                cut(&r.requirement),
                cut(&r.evidence)
            )
        })
        .chain(again)
        .take(MAX_CYCLE_SUBTASKS - checks.len().min(MAX_CYCLE_SUBTASKS - 1))
        .collect();
    let mut kinds = vec![SubtaskKind::Free; subtasks.len()];
    for check in checks {
        if unmet.is_empty() && check.passed() {
            continue;
        }
        subtasks.push(format!(
            "Run `{}` and make it succeed (fix the files if it fails)",
            check.command
        ));
        kinds.push(SubtaskKind::Check {
            cmd: check.command.clone(),
        });
    }
    if subtasks.is_empty() {
        subtasks.push("Make the goal true: the assessment found no requirement met".into());
        kinds.push(SubtaskKind::Free);
    }
    let what: Vec<String> = unmet.iter().map(|r| cut(&r.requirement)).collect();
    let failed: Vec<String> = checks
        .iter()
        .filter(|c| !c.passed())
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
        }
    }

    #[test]
    fn a_cycle_asks_for_what_is_missing_and_ends_with_the_checks() {
        let task = cycle_task(
            1,
            &[check("python3 -m pytest -q", Some(0))],
            &[req("add", true), req("mul", false)],
            &["Write mathx/mul.py".into()],
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

    #[test]
    fn a_failed_check_alone_makes_a_cycle_of_running_it() {
        let task = cycle_task(
            2,
            &[check("python3 -m pytest -q", Some(1))],
            &[req("add", true)],
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
    fn with_no_check_a_failed_subtask_is_done_again() {
        let task = cycle_task(1, &[], &[req("add", true)], &["Write poem.txt".into()]);
        assert_eq!(task.subtasks, vec!["Write poem.txt".to_string()]);
    }
}
