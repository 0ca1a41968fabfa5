//! Step 2 of the round, "done?": when every subtask has ended, completion is
//! checked, never taken from the model's claims (the original design's
//! "assessCompletion" and "CONTINUE/TERMINATE").
//!
//! (a) The plan's checks run once more on the files as they are. (b) One
//! structured-output call asks the model, given the goal, the files and the
//! checks' output, for each requirement of the goal whether it is met and
//! the evidence; a requirement about tests is met only by tests that ran
//! and passed. (c) What is missing becomes a new task, at most
//! `--max-cycles` times. "Goal achieved" only when every check passed and
//! every requirement is met.
//!
//! The flow is here; the checks in `checks.rs`, the assessment in
//! `assess.rs`, the commands that show what a program prints in
//! `shown.rs`, what a program prints for a sample it reads in `samples.rs`,
//! what it prints when the goal's words are that text in `goal_text.rs`,
//! the task of a new cycle in `cycle.rs`.

mod assess;
mod checks;
pub(super) use checks::{same_command, workspace_files};
mod cycle;
mod examples;
mod goal_text;
mod mutants;
mod outputs;
mod samples;
mod shown;

use super::{Agent, decompose};
use crate::state::verdict::{self, CheckRun, Requirement, Verdict};
use crate::state::{Ending, Event, Outcome, Status};
use crate::store::{Durability, StoreError};

use crate::lang::Languages;
use crate::state::SubtaskKind;
use cycle::{TestsPlace, cycle_task};

impl Agent<'_> {
    /// Every subtask has ended: check, assess, and either end or start a
    /// new cycle (`Ok(None)`: the round goes on with the new task).
    pub(super) async fn conclude(&mut self) -> Result<Option<Ending>, StoreError> {
        let mut checks = Vec::new();
        for command in self.check_commands() {
            checks.push(self.run_check(&command).await);
            if self.stop.is_requested() {
                return self
                    .end(Outcome::Interrupted, "stopped by the user".into())
                    .map(Some);
            }
        }
        // The checks of the last assessment, for the next to see what
        // changed since.
        let earlier = self.state().checks.clone();
        self.record(
            Event::Checked {
                checks: checks.clone(),
            },
            Durability::Lazy,
        )?;
        let Some(requirements) = self.assess(&checks, &earlier).await? else {
            return Ok(self.state().ended.clone());
        };
        let state = self.state();
        let failed: Vec<String> = state.tree.tasks[state.cycle_start.min(state.tree.tasks.len())..]
            .iter()
            .flat_map(|task| &task.subtasks)
            .filter(|subtask| subtask.status == Status::Failed)
            .map(|subtask| subtask.description.clone())
            .collect();
        match verdict::verdict(&checks, &requirements, &failed) {
            Verdict::Achieved => {
                let reason = achieved_reason(&checks, &requirements);
                self.end_reflecting(Outcome::Achieved, reason)
                    .await
                    .map(Some)
            }
            Verdict::Missing(missing) if self.another_cycle() => {
                let cycle = self.state().cycles + 1;
                let tests = self.tests_place(&requirements);
                let sources = self.sources();
                let mut task = cycle_task(
                    cycle,
                    &checks,
                    &requirements,
                    &failed,
                    tests.as_ref(),
                    &sources,
                );
                let baseline = &self.state().baseline.files;
                decompose::on_workspace(
                    std::slice::from_mut(&mut task),
                    |path| baseline.contains_key(path),
                    |path| self.languages.iter().any(|l| l.is_test(path)),
                );
                // A run of the cycle on an input file nobody wrote gets
                // its write first, as the plan's checks do.
                decompose::inputs_of_checks(
                    std::slice::from_mut(&mut task),
                    |path| baseline.contains_key(path) || self.tools.contents(path).is_some(),
                    |path| self.languages.iter().any(|l| l.owns(path)),
                );
                self.reporter.notice(&format!(
                    "not achieved yet ({}); cycle {cycle} of {} works on it",
                    missing.join("; "),
                    self.settings.max_cycles
                ));
                self.record(Event::CycleStarted { cycle, task }, Durability::Lazy)?;
                Ok(None)
            }
            Verdict::Missing(missing) => {
                let reason = format!("not achieved: {}", missing.join("; "));
                self.end_reflecting(Outcome::NotAchieved, reason)
                    .await
                    .map(Some)
            }
        }
    }

    /// Where the tests go that an unmet requirement about tests asks for,
    /// when the workspace holds no test file: the test file of the first
    /// of [`Self::sources`] (by its language), and the command that would
    /// run it.
    fn tests_place(&self, requirements: &[Requirement]) -> Option<TestsPlace> {
        if !requirements.iter().any(|r| r.about_tests && !r.met) {
            return None;
        }
        let state = self.state();
        let present = |path: &str| {
            state.files.contains_key(path)
                || (state.baseline.files.contains_key(path)
                    && !state.baseline.deleted.iter().any(|d| d == path))
        };
        let is_test = |path: &str| self.languages.iter().any(|l| l.is_test(path));
        let files: Vec<&String> = state
            .files
            .keys()
            .chain(state.baseline.files.keys())
            .collect();
        if files.iter().any(|path| present(path) && is_test(path)) {
            return None;
        }
        let path = self
            .sources()
            .iter()
            .find_map(|path| self.languages.iter().find_map(|l| l.test_path(path)))?;
        let mut listed: Vec<String> = files.iter().map(|path| path.to_string()).collect();
        listed.push(path.clone());
        let command = Languages::default().check_command(self.tools.root(), &listed)?;
        Some(TestsPlace { path, command })
    }

    /// The source files a requirement of the goal can be about, most
    /// likely first: those the plan writes, those the run wrote, those of
    /// the project the goal names; each there now, and not a test.
    fn sources(&self) -> Vec<String> {
        let state = self.state();
        let planned = state
            .tree
            .tasks
            .iter()
            .flat_map(|t| &t.subtasks)
            .filter_map(|subtask| match &subtask.kind {
                SubtaskKind::Write { path } => Some(path),
                _ => None,
            });
        let named = state
            .baseline
            .files
            .keys()
            .filter(|path| crate::text::names_path(&state.goal, path));
        let mut sources: Vec<String> = Vec::new();
        for path in planned.chain(state.files.keys()).chain(named) {
            let source = self
                .languages
                .iter()
                .any(|l| l.owns(path) && !l.is_test(path));
            let there = self.tools.contents(path).is_some();
            if source && there && !sources.contains(path) {
                sources.push(path.clone());
            }
        }
        sources
    }

    /// Whether what is missing gets another cycle: not past `--max-cycles`,
    /// and not after a cycle that changed no file (it cannot have fixed
    /// anything, and another would do the same).
    fn another_cycle(&self) -> bool {
        let state = self.state();
        state.cycles < self.settings.max_cycles && (state.cycles == 0 || state.cycle_writes > 0)
    }
}

fn achieved_reason(checks: &[CheckRun], requirements: &[Requirement]) -> String {
    let checks: Vec<String> = checks
        .iter()
        .map(|check| match (check.exit_code, check.tests) {
            // z1a's fizzbuzz: `python3 fizzbuzz.py` stopped at `sys.argv[1]`
            // and the run said it passed.
            (Some(code), _) if check.wants_arguments => format!(
                "`{}` stopped for the arguments it reads (exit code {code}; not counted)",
                check.command
            ),
            (_, Some(t)) => format!("`{}` passed ({} tests)", check.command, t.passed),
            (_, None) => format!("`{}` passed", check.command),
        })
        .collect();
    let met = format!(
        "{} requirement{} met",
        requirements.len(),
        if requirements.len() == 1 { "" } else { "s" }
    );
    match checks.is_empty() {
        true => format!("{met} (no check command)"),
        false => format!("{}; {met}", checks.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(command: &str, exit_code: i32, wants_arguments: bool) -> CheckRun {
        CheckRun {
            command: command.into(),
            exit_code: Some(exit_code),
            output: String::new(),
            tests: None,
            wants_arguments,
        }
    }

    #[test]
    fn the_reason_of_an_achieved_run_never_says_a_run_that_wanted_its_arguments_passed() {
        let reason = achieved_reason(
            &[
                check("python3 fizzbuzz.py", 1, true),
                CheckRun {
                    tests: Some(crate::state::Tally {
                        passed: 3,
                        failed: 0,
                    }),
                    ..check("python3 -m pytest -q", 0, false)
                },
            ],
            &[],
        );
        assert_eq!(
            reason,
            "`python3 fizzbuzz.py` stopped for the arguments it reads (exit code 1; not counted), \
             `python3 -m pytest -q` passed (3 tests); 0 requirements met"
        );
    }
}
