//! (b) of "done?", continued: a requirement about what a program prints or
//! does is shown by running the command the assessment gave for it, and
//! judged by what that printed (`verdict::hold_to_output`), never by the
//! model's reading of the code.

use std::time::Duration;

use crate::agent::Agent;
use crate::state::verdict::{self, Requirement, Shown};
use crate::tools;

/// Commands run to show requirements, at most: one per requirement, and
/// one more without the options it names.
const MAX_SHOWN: usize = 2 * super::assess::MAX_REQUIREMENTS;
/// How long one may run: it shows an output, it is not a test suite.
const SHOW_TIMEOUT: Duration = Duration::from_secs(30);

impl Agent<'_> {
    /// Runs each distinct command that shows a requirement the model says
    /// is met (about output or not), as the model's `run_cmd` would (the same whitelist, sandbox
    /// and limits; its program may be inline, `python3 -c`, see
    /// [`Agent::run_to_see`]). Like a check, it only reads the work, so it is not
    /// announced in the log; the requirement's evidence records it.
    pub(super) async fn show(&mut self, requirements: &[Requirement]) -> Vec<Shown> {
        let mut commands: Vec<String> = Vec::new();
        for requirement in requirements {
            // A run of tests given for a requirement not about output is
            // left to the checks, which ran them (see
            // `verdict::hold_to_tests`); so is a command of a program the
            // model may not run (`ls -l word_count.py` for "word_count.py
            // is a Python file"), which would show nothing of the work:
            // refused, it held a word-count run's claim unmet for two
            // cycles.
            let allowed = &self.tools.config().allowed;
            let shown = requirement
                .to_show()
                .or_else(|| {
                    requirement.to_try().filter(|command| {
                        !self.languages.iter().any(|l| l.runs_tests(command))
                            && command
                                .split_whitespace()
                                .next()
                                .is_some_and(|program| allowed.iter().any(|a| a == program))
                    })
                })
                .map(str::to_string);
            for command in shown.into_iter().chain(requirement.to_show_without()) {
                if !commands.contains(&command) && commands.len() < MAX_SHOWN {
                    commands.push(command);
                }
            }
        }
        let mut runs = Vec::new();
        for command in commands {
            if self.stop.is_requested() {
                break;
            }
            runs.push(self.run_shown(&command).await);
        }
        runs
    }

    pub(super) async fn run_shown(&mut self, command: &str) -> Shown {
        let outcome = match self.run_to_see(command, Some(SHOW_TIMEOUT.as_secs())).await {
            Ok(outcome) if outcome.command.is_some() => outcome,
            Ok(outcome) => return not_run(command, outcome.error.unwrap_or_default()),
            Err(why) => return not_run(command, why),
        };
        let absent = match outcome.exit_code {
            Some(0) => Vec::new(),
            _ => verdict::absent(command, |path| self.tools.contents(path).is_some()),
        };
        Shown {
            command: command.to_string(),
            exit_code: outcome.exit_code,
            printed: tools::printed(&outcome.result),
            not_run: None,
            absent,
        }
    }
}

fn not_run(command: &str, why: String) -> Shown {
    Shown {
        command: command.to_string(),
        exit_code: None,
        printed: String::new(),
        not_run: Some(why),
        absent: Vec::new(),
    }
}
