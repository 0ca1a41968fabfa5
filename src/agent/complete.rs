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

use serde_json::{Value, json};

use super::{Agent, prompt};
use crate::chat::{Message, ToolCall};
use crate::lang::{self, Languages};
use crate::model::ChatRequest;
use crate::state::verdict::{self, CheckRun, Requirement, Verdict};
use crate::state::{Ending, Event, Outcome, Status, SubtaskKind, TaskPlan, Tree};
use crate::store::{Durability, StoreError};
use crate::tools::Call;

/// Bytes of a check's output the assessment (and the state) keeps.
const CHECK_OUTPUT: usize = 3 * 1024;
/// Bytes of the files' contents the assessment is shown: enough for the
/// small programs of a goal, bounded so the prompt fits a small context.
const FILES_BUDGET: usize = 8 * 1024;
/// Answers asked of the model before the assessment is given up.
const ASKS: usize = 2;
/// Subtasks of a cycle: each missing requirement, then the checks.
const MAX_CYCLE_SUBTASKS: usize = 6;
/// A requirement or its evidence is cut to this in a subtask's text.
const MAX_LINE: usize = 200;
/// Requirements asked for at most, each string at most this long, and the
/// answer's tokens at most: a small model asked for JSON without bounds
/// writes until the token cap, minutes on a workstation's CPU.
const MAX_REQUIREMENTS: usize = 8;
const MAX_TEXT: usize = 160;
const MAX_ANSWER_TOKENS: u32 = 600;

const SYSTEM: &str = "You check whether a coding agent's work meets the user's goal. You trust \
only the files and the output of the checks, never what the agent said it did.";

fn schema() -> Value {
    let text = json!({ "type": "string", "maxLength": MAX_TEXT });
    json!({
        "type": "object",
        "properties": {
            "requirements": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_REQUIREMENTS,
                "items": {
                    "type": "object",
                    "properties": {
                        "requirement": text,
                        "met": { "type": "boolean" },
                        "evidence": text,
                        "about_tests": { "type": "boolean" }
                    },
                    "required": ["requirement", "met", "evidence", "about_tests"]
                }
            }
        },
        "required": ["requirements"]
    })
}

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
        self.record(
            Event::Checked {
                checks: checks.clone(),
            },
            Durability::Lazy,
        )?;
        let Some(requirements) = self.assess(&checks).await? else {
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
                let task = cycle_task(cycle, &checks, &requirements, &failed);
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

    /// Whether what is missing gets another cycle: not past `--max-cycles`,
    /// and not after a cycle that changed no file (it cannot have fixed
    /// anything, and another would do the same).
    fn another_cycle(&self) -> bool {
        let state = self.state();
        state.cycles < self.settings.max_cycles && (state.cycles == 0 || state.cycle_writes > 0)
    }

    /// The commands that check the work: each check of the plan, then the
    /// check of the workspace as it is now (the project's own tests, by
    /// the language they are in), once each. A plan without a check, or
    /// one whose check does not run the tests the workspace now holds, is
    /// checked all the same.
    fn check_commands(&self) -> Vec<String> {
        let mut commands = plan_checks(&self.state().tree);
        let files = workspace_files(self.tools.root());
        if let Some(command) = Languages::default().check_command(self.tools.root(), &files)
            && !commands.iter().any(|known| same_command(known, &command))
        {
            commands.push(command);
        }
        commands
    }

    /// Runs one check as the model's `run_cmd` would (the same whitelist,
    /// sandbox and limits). A check only reads the work, so it is not
    /// announced in the log first: one a crash interrupted runs again.
    async fn run_check(&mut self, command: &str) -> CheckRun {
        let call = ToolCall {
            name: "run_cmd".into(),
            arguments: json!({ "cmd": command }),
        };
        let outcome = match self.tools.parse(&call) {
            Ok(Call::Action(action)) => {
                self.reporter.thinking(true);
                let outcome = self.tools.execute(&action, &self.stop).await;
                self.reporter.thinking(false);
                outcome
            }
            Ok(_) => return refused(command, "not a command"),
            Err(error) => return refused(command, &error),
        };
        CheckRun {
            command: command.to_string(),
            exit_code: outcome.exit_code,
            tests: lang::tally(&outcome.result),
            output: crate::state::head_and_tail(&outcome.result, CHECK_OUTPUT),
        }
    }

    /// The model's requirement-by-requirement answer, recorded; `None` when
    /// the run ended meanwhile (a stop, an unusable model, or no usable
    /// answer).
    async fn assess(
        &mut self,
        checks: &[CheckRun],
    ) -> Result<Option<Vec<Requirement>>, StoreError> {
        let files = prompt::written_files(self.state(), self.tools, FILES_BUDGET);
        let mut messages = vec![
            Message::system(SYSTEM),
            Message::user(assessment_prompt(&self.state().goal, &files, checks)),
        ];
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let mut error = String::new();
        for _ in 0..ASKS {
            let mut options = self.options();
            options.num_predict = options.num_predict.map(|n| n.min(MAX_ANSWER_TOKENS));
            let request = ChatRequest {
                messages: messages.clone(),
                tools: Vec::new(),
                format: Some(schema()),
                options,
            };
            let reply = match self.ask(&request).await {
                None => {
                    return self
                        .end(Outcome::Interrupted, "stopped by the user".into())
                        .map(|_| None);
                }
                Some(Err(failure)) => return self.model_failed(failure).map(|_| None),
                Some(Ok(reply)) => reply,
            };
            usage += reply.usage;
            retries += reply.retries;
            match parse(&reply.content) {
                Ok(requirements) => {
                    let requirements = verdict::hold_to_tests(requirements, checks);
                    self.record(
                        Event::Assessed {
                            requirements: requirements.clone(),
                            usage,
                            retries,
                        },
                        Durability::Lazy,
                    )?;
                    return Ok(Some(requirements));
                }
                Err(why) => {
                    tracing::warn!(%why, answer = %reply.content, "an unusable assessment");
                    messages.push(Message::assistant(reply.content, Vec::new()));
                    messages.push(Message::user(format!(
                        "That answer cannot be used: {why}. Answer again with JSON only."
                    )));
                    error = why;
                }
            }
        }
        self.record(
            Event::Assessed {
                requirements: Vec::new(),
                usage,
                retries,
            },
            Durability::Lazy,
        )?;
        let reason = format!(
            "not achieved: the model gave no usable assessment of the goal ({error}); the checks \
             {}",
            match checks.iter().all(CheckRun::passed) {
                true => "passed",
                false => "failed",
            }
        );
        self.end_reflecting(Outcome::NotAchieved, reason)
            .await
            .map(|_| None)
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
fn same_command(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// Files of the workspace a check is chosen by: at most this many.
const MAX_LISTED: usize = 5_000;

/// The workspace's files, relative, without the runner's folder, `.git`
/// and virtual environments; bounded.
fn workspace_files(root: &std::path::Path) -> Vec<String> {
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
    }
}

fn assessment_prompt(goal: &str, files: &[(String, String)], checks: &[CheckRun]) -> String {
    let mut text = format!("GOAL: {goal}\n\nFILES:\n");
    if files.is_empty() {
        text.push_str("(the run wrote no file)\n");
    }
    for (path, content) in files {
        text.push_str(&format!("--- {path} ---\n{}\n", content.trim_end()));
    }
    text.push_str("\nCHECKS:\n");
    if checks.is_empty() {
        text.push_str("(no check command)\n");
    }
    for check in checks {
        text.push_str(&format!("{}\n", check.output.trim_end()));
        // "$ CMD" and "exit code N" alone: say so, or a small model reads
        // the output it expected into the silence.
        if check.output.trim_end().lines().count() <= 2 {
            text.push_str("(it printed nothing)\n");
        }
    }
    text.push_str(
        "\nList every requirement of the GOAL: each thing the user asked for (a file, a \
         function, a behaviour, an output, tests). For each say whether the FILES and the CHECKS \
         show it is met, the evidence (quote the line), and whether it is about tests (it asks \
         for tests, or for tests to pass). At most 8 requirements, a short line each. Answer with JSON: {\"requirements\": \
         [{\"requirement\": \"...\", \"met\": true, \"evidence\": \"...\", \"about_tests\": \
         false}]}",
    );
    text
}

/// The requirements in the model's answer.
fn parse(content: &str) -> Result<Vec<Requirement>, String> {
    let text = content.trim();
    let text = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .unwrap_or(text);
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("it is not JSON ({e})"))?;
    let items = value
        .get("requirements")
        .and_then(Value::as_array)
        .ok_or("it has no \"requirements\" array")?;
    let requirements: Vec<Requirement> = items
        .iter()
        .filter_map(|item| {
            let requirement = item.get("requirement")?.as_str()?.trim();
            (!requirement.is_empty()).then(|| Requirement {
                requirement: requirement.to_string(),
                met: item.get("met").and_then(Value::as_bool).unwrap_or(false),
                evidence: item
                    .get("evidence")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                about_tests: item
                    .get("about_tests")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            })
        })
        .collect();
    if requirements.is_empty() {
        return Err("it lists no requirement".into());
    }
    Ok(requirements)
}

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
fn cycle_task(
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
    let mut subtasks: Vec<String> = unmet
        .iter()
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

fn achieved_reason(checks: &[CheckRun], requirements: &[Requirement]) -> String {
    let checks: Vec<String> = checks
        .iter()
        .map(|check| match check.tests {
            Some(t) => format!("`{}` passed ({} tests)", check.command, t.passed),
            None => format!("`{}` passed", check.command),
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
        }
    }

    #[test]
    fn the_answer_is_read_whatever_its_fence_and_bad_items_are_left_out() {
        let answer = "```json\n{\"requirements\": [{\"requirement\": \"add\", \"met\": true, \
                      \"evidence\": \"def add\", \"about_tests\": false}, {\"met\": true}]}\n```";
        assert_eq!(
            parse(answer),
            Ok(vec![Requirement {
                requirement: "add".into(),
                met: true,
                evidence: "def add".into(),
                about_tests: false
            }])
        );
        assert!(parse("{\"requirements\": []}").is_err());
        assert!(parse("all done!").is_err());
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
    fn a_check_that_printed_nothing_is_said_to_have_printed_nothing() {
        let silent = CheckRun {
            command: "python3 hello_world.py".into(),
            exit_code: Some(0),
            output: "$ python3 hello_world.py\nexit code 0".into(),
            tests: None,
        };
        let prompt = assessment_prompt(
            "Write a hello world script",
            &[],
            std::slice::from_ref(&silent),
        );
        assert!(
            prompt.contains("exit code 0\n(it printed nothing)"),
            "{prompt}"
        );
        let spoke = CheckRun {
            output: format!("{}\nHello, World!", silent.output),
            ..silent
        };
        let prompt = assessment_prompt("Write a hello world script", &[], &[spoke]);
        assert!(!prompt.contains("printed nothing"), "{prompt}");
    }

    #[test]
    fn with_no_check_a_failed_subtask_is_done_again() {
        let task = cycle_task(1, &[], &[req("add", true)], &["Write poem.txt".into()]);
        assert_eq!(task.subtasks, vec!["Write poem.txt".to_string()]);
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
