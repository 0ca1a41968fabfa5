//! (a) of "done?": the commands that check the work, run once more on the
//! files as they are.

use serde_json::json;

use crate::agent::Agent;
use crate::chat::ToolCall;
use crate::lang::{self, Languages};
use crate::state::verdict::CheckRun;
use crate::state::{ActionOutcome, SubtaskKind, Tree};
use crate::tools::Call;

/// Bytes of a check's output the assessment (and the state) keeps.
const CHECK_OUTPUT: usize = 3 * 1024;

impl Agent<'_> {
    /// The commands that check the work: each check of the plan, then the
    /// check of the workspace as it is now (the project's own tests, by
    /// the language they are in), once each. A plan without a check, or
    /// one whose check does not run the tests the workspace now holds, is
    /// checked all the same. The programs that ran before the plan (see
    /// [`crate::state::Event::RanBefore`]) run again, to be held to what
    /// they printed then.
    pub(super) fn check_commands(&self) -> Vec<String> {
        let mut commands = plan_checks(&self.state().tree);
        let files = workspace_files(self.tools.root());
        let state = self.state();
        let more = Languages::default()
            .check_command(self.tools.root(), &files)
            .into_iter()
            .chain(state.ran_before.iter().map(|run| run.command.clone()));
        for command in more {
            if !commands.iter().any(|known| same_command(known, &command)) {
                commands.push(command);
            }
        }
        commands
    }

    /// Runs one check as the model's `run_cmd` would (the same whitelist,
    /// sandbox and limits). A check only reads the work, so it is not
    /// announced in the log first: one a crash interrupted runs again.
    pub(in crate::agent) async fn run_check(&mut self, command: &str) -> CheckRun {
        self.run_check_within(command, None).await
    }

    /// [`Agent::run_check`] within `timeout` seconds (the default when
    /// `None`).
    pub(in crate::agent) async fn run_check_within(
        &mut self,
        command: &str,
        timeout: Option<u64>,
    ) -> CheckRun {
        let outcome = match self.run_as_the_model_would(command, timeout).await {
            Ok(outcome) => outcome,
            Err(why) => return refused(command, &why),
        };
        let wants_arguments = outcome.exit_code.is_some_and(|code| code != 0)
            && !stated(&self.state().goal, command)
            && crate::agent::focus::bare_program(command).is_some_and(|program| {
                Languages::default()
                    .for_path(&program)
                    .is_some_and(|language| language.wants_arguments(&outcome.result))
            });
        CheckRun {
            command: command.to_string(),
            exit_code: outcome.exit_code,
            tests: lang::tally(&outcome.result),
            output: crate::state::head_and_tail(&outcome.result, CHECK_OUTPUT),
            wants_arguments,
        }
    }

    /// Runs `command` through the model's `run_cmd` (its whitelist,
    /// sandbox and limits; `timeout` seconds, or the default), without a
    /// record: `Err` when the call is refused before it runs.
    pub(super) async fn run_as_the_model_would(
        &mut self,
        command: &str,
        timeout: Option<u64>,
    ) -> Result<ActionOutcome, String> {
        self.run_command(command, timeout, false).await
    }

    /// [`Agent::run_as_the_model_would`], but the program may be given
    /// inline (`python3 -c`): a command the runner runs to see the work,
    /// not one of the model's. x1's package assessment gave `python3 -c
    /// 'from mathx import add; print(add(1, 2))'` to show that the package
    /// has `add`; refused as the model's, the requirement stayed unmet
    /// with nothing the model could change.
    pub(super) async fn run_to_see(
        &mut self,
        command: &str,
        timeout: Option<u64>,
    ) -> Result<ActionOutcome, String> {
        self.run_command(command, timeout, true).await
    }

    async fn run_command(
        &mut self,
        command: &str,
        timeout: Option<u64>,
        own: bool,
    ) -> Result<ActionOutcome, String> {
        let mut arguments = json!({ "cmd": command });
        if let Some(timeout) = timeout {
            arguments["timeout_sec"] = json!(timeout);
        }
        let call = ToolCall {
            name: "run_cmd".into(),
            arguments,
        };
        match self.tools.parse(&call) {
            Ok(Call::Action(action)) => {
                self.reporter.thinking(true);
                let outcome = match own {
                    true => self.tools.execute_own(&action, &self.stop).await,
                    false => self.tools.execute(&action, &self.stop).await,
                };
                self.reporter.thinking(false);
                Ok(outcome)
            }
            Ok(_) => Err("not a command".into()),
            Err(refusal) => Err(refusal.message),
        }
    }
}

/// The distinct commands of the plan's check subtasks, in order.
pub(super) fn plan_checks(tree: &Tree) -> Vec<String> {
    let mut commands: Vec<String> = Vec::new();
    for subtask in tree.tasks.iter().flat_map(|task| &task.subtasks) {
        if let SubtaskKind::Check { cmd } = &subtask.kind
            && !commands.iter().any(|known| same_command(known, cmd))
        {
            commands.push(cmd.clone());
        }
    }
    commands
}

/// The same words, however spaced.
pub(in crate::agent) fn same_command(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// Whether `goal` gives `command` itself, its words in a row (quotes and
/// backticks aside): the user's own check, which must pass as it is.
fn stated(goal: &str, command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    let said: Vec<&str> = goal
        .split_whitespace()
        .map(|word| word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | ';' | ':')))
        .collect();
    !words.is_empty() && said.windows(words.len()).any(|run| run == words.as_slice())
}

/// Files of the workspace a check is chosen by: at most this many.
const MAX_LISTED: usize = 5_000;

/// The workspace's files, relative, without the runner's folder, `.git`
/// and virtual environments; bounded.
pub(in crate::agent) fn workspace_files(root: &std::path::Path) -> Vec<String> {
    walkdir::WalkDir::new(root)
        .max_depth(6)
        .into_iter()
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            entry.depth() == 0
                || !(name.starts_with('.') || name == "node_modules" || name == "__pycache__")
        })
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let relative = entry.path().strip_prefix(root).ok()?;
            Some(relative.to_string_lossy().into_owned())
        })
        .take(MAX_LISTED)
        .collect()
}

fn refused(command: &str, why: &str) -> CheckRun {
    CheckRun {
        command: command.to_string(),
        exit_code: None,
        output: format!("not run: {why}"),
        tests: None,
        wants_arguments: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::TaskPlan;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_command_the_goal_gives_is_its_own() {
        let goal = "Write fizzbuzz.py so that `python3 fizzbuzz.py` prints 1 to 15";
        assert!(stated(goal, "python3  fizzbuzz.py"));
        assert!(stated(
            "Make \"python3 a.py\", then test it",
            "python3 a.py"
        ));
        assert!(!stated(goal, "python3 fizzbuzz.py 15"));
        assert!(!stated(
            "Write fizzbuzz.py with a function fizzbuzz(n)",
            "python3 fizzbuzz.py"
        ));
    }

    #[test]
    fn the_plan_checks_are_its_run_subtasks_once_each() {
        let check = |cmd: &str| SubtaskKind::Check { cmd: cmd.into() };
        let tree = Tree::from_plan(&[
            TaskPlan {
                description: "write".into(),
                subtasks: vec![
                    "Write calc.py".into(),
                    "Run `python3 -m pytest -q` and make it succeed".into(),
                ],
                kinds: vec![SubtaskKind::Free, check("python3 -m pytest -q")],
            },
            TaskPlan {
                description: "again".into(),
                subtasks: vec!["Run the tests again".into()],
                kinds: vec![check("python3  -m pytest -q")],
            },
        ]);
        assert_eq!(plan_checks(&tree), vec!["python3 -m pytest -q".to_string()]);
    }
}
