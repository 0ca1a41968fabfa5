//! What the completion check found: the checks run on the files as they
//! are, and the goal's requirements, each met or not with its evidence.
//! "Goal achieved" is decided here from these facts, never from a claim.

use serde::{Deserialize, Serialize};

/// How many tests a check ran, as its test runner reported them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub passed: u32,
    pub failed: u32,
}

/// One run of a check command at the end of a cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRun {
    pub command: String,
    /// `None` when it was killed or never started.
    pub exit_code: Option<i32>,
    /// Its output's head and tail, as the model is shown it.
    pub output: String,
    /// The tests it ran, when its output says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<Tally>,
}

impl CheckRun {
    pub fn passed(&self) -> bool {
        self.exit_code == Some(0)
    }

    /// Tests ran, at least one, and none failed.
    pub fn tests_passed(&self) -> bool {
        self.passed() && self.tests.is_some_and(|t| t.passed > 0 && t.failed == 0)
    }
}

/// One requirement of the goal, as the assessment found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requirement {
    pub requirement: String,
    pub met: bool,
    pub evidence: String,
    /// It asks for tests: met only by tests that ran and passed.
    #[serde(default)]
    pub about_tests: bool,
}

/// Whether the goal is achieved, from the last checks and requirements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Achieved,
    /// What is missing, one line each.
    Missing(Vec<String>),
}

/// The verdict: every check passed and every requirement is met (and there
/// is at least one requirement: an assessment that found none proves
/// nothing). With no check to run, the subtasks of this cycle that failed
/// (`failed`) are missing too: nothing else tests the model's word.
pub fn verdict(checks: &[CheckRun], requirements: &[Requirement], failed: &[String]) -> Verdict {
    let mut missing: Vec<String> = checks
        .iter()
        .filter(|check| !check.passed())
        .map(|check| match check.exit_code {
            Some(code) => format!("`{}` failed (exit code {code})", check.command),
            None => format!("`{}` did not finish", check.command),
        })
        .collect();
    if checks.is_empty() {
        missing.extend(
            failed
                .iter()
                .map(|subtask| format!("{subtask} (it failed)")),
        );
    }
    if requirements.is_empty() {
        missing.push("no requirement of the goal could be assessed".into());
    }
    missing.extend(
        requirements
            .iter()
            .filter(|r| !r.met)
            .map(|r| format!("{} ({})", r.requirement, r.evidence)),
    );
    match missing.is_empty() {
        true => Verdict::Achieved,
        false => Verdict::Missing(missing),
    }
}

/// A requirement about tests is met only when a check ran tests and they
/// passed: the model's word is not enough.
pub fn hold_to_tests(mut requirements: Vec<Requirement>, checks: &[CheckRun]) -> Vec<Requirement> {
    let tested = checks.iter().any(CheckRun::tests_passed);
    for requirement in &mut requirements {
        if requirement.about_tests && requirement.met && !tested {
            requirement.met = false;
            requirement.evidence = match checks.is_empty() {
                true => "no check ran any test".into(),
                false => "the last check ran no test that passed".into(),
            };
        }
    }
    requirements
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn run(command: &str, exit_code: Option<i32>, tests: Option<(u32, u32)>) -> CheckRun {
        CheckRun {
            command: command.into(),
            exit_code,
            output: String::new(),
            tests: tests.map(|(passed, failed)| Tally { passed, failed }),
        }
    }

    fn req(text: &str, met: bool, about_tests: bool) -> Requirement {
        Requirement {
            requirement: text.into(),
            met,
            evidence: "seen".into(),
            about_tests,
        }
    }

    #[test]
    fn achieved_only_when_every_check_passed_and_every_requirement_is_met() {
        let pass = run("python3 -m pytest -q", Some(0), Some((3, 0)));
        assert_eq!(
            verdict(std::slice::from_ref(&pass), &[req("add", true, false)], &[]),
            Verdict::Achieved
        );
        assert_eq!(
            verdict(
                &[run("python3 -m pytest -q", Some(1), Some((2, 1)))],
                &[req("add", true, false)],
                &["write calc.py".into()]
            ),
            Verdict::Missing(vec!["`python3 -m pytest -q` failed (exit code 1)".into()])
        );
        assert_eq!(
            verdict(
                std::slice::from_ref(&pass),
                &[req("mul", false, false)],
                &[]
            ),
            Verdict::Missing(vec!["mul (seen)".into()])
        );
        assert_eq!(
            verdict(&[pass], &[], &[]),
            Verdict::Missing(vec!["no requirement of the goal could be assessed".into()])
        );
        assert_eq!(
            verdict(
                &[run("python3 game.py", None, None)],
                &[req("game", true, false)],
                &[]
            ),
            Verdict::Missing(vec!["`python3 game.py` did not finish".into()])
        );
        assert_eq!(
            verdict(&[], &[req("poem", true, false)], &["Write poem.txt".into()]),
            Verdict::Missing(vec!["Write poem.txt (it failed)".into()]),
            "with no check, a failed subtask is not taken as done"
        );
        assert_eq!(
            verdict(&[], &[req("poem", true, false)], &[]),
            Verdict::Achieved
        );
    }

    #[test]
    fn a_requirement_about_tests_needs_tests_that_ran_and_passed() {
        let claimed = vec![
            req("tests of fizzbuzz", true, true),
            req("fizzbuzz", true, false),
        ];
        let ran_program = [run("python3 fizzbuzz.py", Some(0), None)];
        let held = hold_to_tests(claimed.clone(), &ran_program);
        assert!(!held[0].met);
        assert_eq!(held[0].evidence, "the last check ran no test that passed");
        assert!(
            held[1].met,
            "a requirement not about tests is the model's to judge"
        );
        let no_tests_collected = [run("python3 -m pytest -q", Some(0), Some((0, 0)))];
        assert!(!hold_to_tests(claimed.clone(), &no_tests_collected)[0].met);
        let tested = [run("python3 -m pytest -q", Some(0), Some((4, 0)))];
        assert_eq!(hold_to_tests(claimed.clone(), &tested), claimed);
        assert!(!hold_to_tests(claimed, &[])[0].met);
    }
}
