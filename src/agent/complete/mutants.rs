//! Whether the tests a goal asks of a project's code would catch it broken
//! (see [`crate::lang::mutants`] and [`verdict::hold_to_mutants`]).

use std::time::Duration;

use super::Agent;
use crate::lang::mutants;
use crate::state::verdict::{self, CheckRun, Requirement, TestedCode};

/// A mutants command in all: the script gives each mutant its own limit
/// and stops starting them after 90 s.
const MUTANTS_TIMEOUT: Duration = Duration::from_secs(120);

impl Agent<'_> {
    /// The mutants of each file of `code` its tests passed. Run only when
    /// the rest says the tests are done: tests ran and passed, no check
    /// failed, and every requirement about tests is met (what is missing
    /// before that is the work, and the mutants say nothing of failing
    /// tests).
    pub(super) async fn uncaught(
        &mut self,
        code: &[TestedCode],
        checks: &[CheckRun],
        requirements: &[Requirement],
    ) -> Vec<verdict::Uncaught> {
        let done = checks.iter().any(CheckRun::tests_passed)
            && !checks.iter().any(CheckRun::failed)
            && requirements.iter().all(|r| !r.about_tests || r.met);
        let mut found = Vec::new();
        if !done {
            return found;
        }
        for tested in code {
            let Some(command) = self
                .languages
                .iter()
                .find(|language| language.owns(&tested.path))
                .and_then(|language| {
                    language.mutants_command(&tested.path, &tested.names, &tested.test_files)
                })
            else {
                continue;
            };
            let outcome = self
                .tools
                .run_own(&command, MUTANTS_TIMEOUT, &self.stop)
                .await;
            // Cut short by the user: what it gave says nothing of the tests.
            if self.stop.is_requested() {
                break;
            }
            let printed = crate::tools::printed(&outcome.result);
            let Some(survivors) = mutants::read(&printed) else {
                tracing::info!(path = %tested.path, %printed, "the mutants could not be run");
                continue;
            };
            tracing::info!(path = %tested.path, ?survivors, "the tests ran against mutants");
            found.push(verdict::Uncaught {
                path: tested.path.clone(),
                test_file: tested.test_file.clone(),
                survivors,
            });
        }
        found
    }
}
