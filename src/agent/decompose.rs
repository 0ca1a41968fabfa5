//! Decomposition: the goal into concrete subtasks, with structured output,
//! checked, sent back with the error at most twice, and the goal itself as
//! the single task when that fails.
//!
//! The plan is asked for in the shape a small model fills well: the files to
//! write, each with what it must hold, and one command that checks the work.
//! Each file becomes a subtask "Write PATH: ...", the check a last subtask
//! "Run `CMD` ...": every subtask is one tool step by construction. Asked
//! for steps in prose, a 1.5B model plans "Open a text editor" and "Save the
//! file"; asked for files, it names them. What small models get wrong in
//! such a plan is put right here (see [`files_plan`]). The original shape,
//! `{"tasks": [{"description", "subtasks"}]}` or a bare array of tasks, is
//! accepted too.

use serde_json::{Value, json};

use crate::chat::{Message, Usage};
use crate::lang::Languages;
use crate::model::{ChatRequest, Failure, Model, Options};
use crate::state::{Event, SubtaskKind, TaskPlan};

/// Corrections sent back before falling back to the goal as the only task.
const CORRECTIONS: usize = 2;
const MAX_TASKS: usize = 8;
const MAX_SUBTASKS: usize = 8;
/// Files of one plan: more is not a plan a small model finishes.
const MAX_FILES: usize = 6;
/// A description longer than this is not a concrete step.
const MAX_DESCRIPTION: usize = 400;
/// What a file must hold, cut to this: a model that wrote its code there
/// gets the start of it, not a prompt full of code.
const MAX_PURPOSE: usize = 200;

const SYSTEM: &str = "You plan the work of a coding agent that writes files and runs commands \
(python3, pytest, pip) in a folder.\n\
Each task writes one file. List the tasks in the order to do them: for each, the file's path and \
what it must hold (the functions it defines, their arguments and what they return; no code).\n\
Then give the one command that checks the work.\n\
File names are short, lowercase, with underscores (e.g. word_count.py). Only the files the goal \
asks for: test files only when it asks for tests. Answer with JSON only.";

/// How the answer is asked for, in the user message.
const SHAPE: &str = "{\"tasks\": [{\"path\": \"...\", \"purpose\": \"...\"}], \"check\": \"...\"}";

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tasks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "path": { "type": "string" },
                        "purpose": { "type": "string" }
                    },
                    "required": ["path", "purpose"]
                }
            },
            "check": { "type": "string" }
        },
        "required": ["tasks", "check"]
    })
}

/// What the planner is told of the folder: the workspace map (see
/// [`crate::workspace::Map`]) and what a plan may do with what is there.
/// Empty for an empty folder.
pub fn workspace_section(map: &str) -> String {
    if map.is_empty() {
        return String::new();
    }
    format!(
        "{map}\n\nA task may change a file that is already there: give its path, and in its \
         purpose what to change and what to keep as it is. When the project has tests, the \
         check is the project's own tests.\n\n"
    )
}

/// Asks for a plan, showing the model `map`, the workspace as it is;
/// returns the `planned` event. Only a failure of the model itself
/// (unreachable, not pulled) is an error.
pub async fn plan(
    model: &dyn Model,
    goal: &str,
    map: &str,
    options: Options,
) -> Result<Event, Failure> {
    let mut messages = vec![
        Message::system(SYSTEM),
        Message::user(format!(
            "GOAL: {goal}\n\n{}Answer as {SHAPE}",
            workspace_section(map)
        )),
    ];
    let (mut calls, mut usage, mut retries) = (0, Usage::default(), 0);
    let mut last_error = String::new();
    for _ in 0..=CORRECTIONS {
        let request = ChatRequest {
            messages: messages.clone(),
            tools: Vec::new(),
            format: Some(schema()),
            options,
        };
        let reply = model.chat(&request).await.map_err(|mut failure| {
            failure.retries += retries;
            failure
        })?;
        calls += 1;
        usage += reply.usage;
        retries += reply.retries;
        match parse(&reply.content) {
            Ok(tasks) => {
                return Ok(Event::Planned {
                    tasks,
                    fallback: None,
                    model_calls: calls,
                    usage,
                    retries,
                });
            }
            Err(error) => {
                messages.push(Message::assistant(reply.content, Vec::new()));
                messages.push(Message::user(format!(
                    "That plan cannot be used: {error}. Answer again with JSON only, shaped as \
                     {SHAPE}."
                )));
                last_error = error;
            }
        }
    }
    Ok(Event::Planned {
        tasks: vec![TaskPlan {
            kinds: Vec::new(),
            description: goal.to_string(),
            subtasks: vec![goal.to_string()],
        }],
        fallback: Some(format!(
            "no valid plan after {} tries ({last_error}); the goal is the single task",
            CORRECTIONS + 1
        )),
        model_calls: calls,
        usage,
        retries,
    })
}

/// Parses and checks a plan: the files shape (`{"tasks": [{"path",
/// "purpose"}], "check"}`), or the original one (`{"tasks": [...]}` or a bare
/// array of tasks, a subtask a string or an object with a `description`),
/// optionally inside a ```json fence.
pub fn parse(text: &str) -> Result<Vec<TaskPlan>, String> {
    let text = strip_fence(text.trim());
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("it is not valid JSON ({e})"))?;
    let tasks = match &value {
        Value::Array(items) => items,
        Value::Object(map) => map
            .get("tasks")
            .and_then(Value::as_array)
            .ok_or("it has no \"tasks\" array")?,
        _ => return Err("it is neither an object with \"tasks\" nor an array".into()),
    };
    if tasks.iter().any(|task| task.get("path").is_some()) || value.get("check").is_some() {
        let check = value.get("check").and_then(Value::as_str).unwrap_or("");
        return files_plan(tasks, check);
    }
    if tasks.is_empty() || tasks.len() > MAX_TASKS {
        return Err(format!(
            "it has {} tasks; give 1 to {MAX_TASKS}",
            tasks.len()
        ));
    }
    tasks
        .iter()
        .enumerate()
        .map(|(i, task)| parse_task(i + 1, task))
        .collect()
}

/// The files shape as one task: a subtask per file, then the check. Put
/// right on the way by the files' languages (see [`Languages::plan_check`]
/// and [`crate::lang::Language::plan_path`]): `my-game.py` becomes
/// `my_game.py` (a module with a hyphen cannot be imported by its tests);
/// the check is the one that runs the planned tests.
fn files_plan(items: &[Value], check: &str) -> Result<Vec<TaskPlan>, String> {
    if items.len() > MAX_FILES {
        return Err(format!(
            "it has {} files; give 1 to {MAX_FILES}",
            items.len()
        ));
    }
    let languages = Languages::default();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut check = check.trim().trim_matches('`').trim().to_string();
    for (i, item) in items.iter().enumerate() {
        let given = item
            .get("path")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or("");
        let path = given.trim_start_matches("./");
        if path.is_empty() || path.contains(char::is_whitespace) {
            return Err(format!(
                "task {} has no file path (give one like \"word_count.py\")",
                i + 1
            ));
        }
        if path.starts_with('/') || path.split('/').any(|part| part == "..") {
            return Err(format!(
                "task {}: {path} is not inside the folder; give a relative path",
                i + 1
            ));
        }
        let path = languages
            .for_path(path)
            .map_or(path.to_string(), |l| l.plan_path(path));
        if path != given {
            check = check.replace(given, &path);
        }
        let purpose: String = item
            .get("purpose")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .chars()
            .take(MAX_PURPOSE)
            .collect();
        if !files.iter().any(|(known, _)| *known == path) {
            files.push((path, purpose));
        }
    }
    let is_test = |path: &str| languages.is_test(path);
    let is_program = |path: &str| languages.for_path(path).is_some() && !is_test(path);
    let program = files
        .iter()
        .rev()
        .map(|(path, _)| path)
        .find(|path| is_program(path));
    let paths: Vec<String> = files.iter().map(|(path, _)| path.clone()).collect();
    let check = languages.plan_check(&paths, &check);
    if files.is_empty() && check.is_empty() {
        return Err("it names no file to write and no command to run".into());
    }
    // What a small model leaves out unless told: the import of the module
    // under test, test functions, and the code itself (it writes `pass`).
    let tested = files.iter().any(|(path, _)| is_test(path));
    let mut subtasks: Vec<String> = files
        .iter()
        .map(|(path, purpose)| {
            let mut line = match purpose.is_empty() {
                true => format!("Write {path}"),
                false => format!("Write {path}: {}", purpose.trim_end_matches('.')),
            };
            match (program, languages.for_path(path)) {
                (Some(program), Some(language)) if is_test(path) => {
                    line.push_str(&language.test_file_hint(program))
                }
                _ if is_program(path) => {
                    line.push_str(". Complete working code, no placeholders");
                    // A game that draws its moves at random inside the
                    // function its tests call cannot be tested (Qwen2.5-
                    // Coder 1.5B wrote one, then flipped the expected value
                    // with every run).
                    if tested {
                        line.push_str(
                            ". Functions take their inputs as arguments and return their \
                             results, so tests can call them; input() and random choices stay \
                             out of them",
                        );
                    }
                }
                _ => {}
            }
            line
        })
        .collect();
    let names: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
    let mut description = match names.len() {
        0 => String::new(),
        1 => format!("Write {}", names[0]),
        n => format!("Write {} and {}", names[..n - 1].join(", "), names[n - 1]),
    };
    let mut kinds: Vec<SubtaskKind> = files
        .iter()
        .map(|(path, _)| SubtaskKind::Write { path: path.clone() })
        .collect();
    if !check.is_empty() {
        kinds.push(SubtaskKind::Check { cmd: check.clone() });
        subtasks.push(format!(
            "Run `{check}` and make it succeed (fix the files if it fails)"
        ));
        description = match description.is_empty() {
            true => format!("Run `{check}`"),
            false => format!("{description}, then run `{check}`"),
        };
    }
    Ok(vec![TaskPlan {
        kinds,
        description,
        subtasks,
    }])
}

fn parse_task(n: usize, task: &Value) -> Result<TaskPlan, String> {
    let description = text_of(task.get("description").or_else(|| task.get("task")))
        .ok_or(format!("task {n} has no description"))?;
    let subtasks = task
        .get("subtasks")
        .and_then(Value::as_array)
        .ok_or(format!("task {n} has no \"subtasks\" array"))?;
    if subtasks.is_empty() || subtasks.len() > MAX_SUBTASKS {
        return Err(format!(
            "task {n} has {} subtasks; give 1 to {MAX_SUBTASKS}",
            subtasks.len()
        ));
    }
    let subtasks = subtasks
        .iter()
        .enumerate()
        .map(|(j, s)| {
            text_of(Some(s).map(|s| s.get("description").unwrap_or(s)))
                .ok_or(format!("subtask {n}.{} is empty or not text", j + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TaskPlan {
        kinds: Vec::new(),
        description,
        subtasks,
    })
}

fn text_of(value: Option<&Value>) -> Option<String> {
    let text = value?.as_str()?.trim();
    (!text.is_empty() && text.len() <= MAX_DESCRIPTION).then(|| text.to_string())
}

fn strip_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    rest.strip_suffix("```").unwrap_or(rest).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_and_a_fence_are_accepted() {
        let want = vec![TaskPlan {
            kinds: Vec::new(),
            description: "Create hello.py".into(),
            subtasks: vec!["write hello.py".into(), "run it".into()],
        }];
        let object = r#"{"tasks":[{"description":"Create hello.py","subtasks":["write hello.py","run it"]}]}"#;
        assert_eq!(parse(object), Ok(want.clone()));
        let array = r#"[{"description":"Create hello.py","subtasks":[{"description":"write hello.py"},"run it"]}]"#;
        assert_eq!(parse(array), Ok(want.clone()));
        assert_eq!(parse(&format!("```json\n{object}\n```")), Ok(want));
    }

    #[test]
    fn the_files_shape_becomes_a_write_per_file_then_the_check() {
        let plan = r#"{"tasks": [{"path": "hello.py", "purpose": "Print hello."}], "check": "python3 hello.py"}"#;
        assert_eq!(
            parse(plan),
            Ok(vec![TaskPlan {
                kinds: vec![
                    SubtaskKind::Write {
                        path: "hello.py".into()
                    },
                    SubtaskKind::Check {
                        cmd: "python3 hello.py".into()
                    },
                ],
                description: "Write hello.py, then run `python3 hello.py`".into(),
                subtasks: vec![
                    "Write hello.py: Print hello. Complete working code, no placeholders".into(),
                    "Run `python3 hello.py` and make it succeed (fix the files if it fails)".into(),
                ],
            }])
        );
    }

    #[test]
    fn what_small_models_get_wrong_in_a_files_plan_is_put_right() {
        // A hyphen in a module, a pytest check that collects nothing.
        let tests = r#"{"tasks": [{"path": "./my-game.py", "purpose": "the game"},
            {"path": "test_my_game.py", "purpose": "tests"}], "check": "pytest my-game.py"}"#;
        let plan = parse(tests).unwrap();
        assert_eq!(
            plan[0].subtasks,
            [
                "Write my_game.py: the game. Complete working code, no placeholders. Functions \
                 take their inputs as arguments and return their results, so tests can call \
                 them; input() and random choices stay out of them",
                "Write test_my_game.py: tests. It imports from my_game (`from my_game import \
                 ...`) and has 3 to 5 short test_ functions, each calling it and asserting \
                 what it returns",
                "Run `python3 -m pytest -q` and make it succeed (fix the files if it fails)"
            ]
        );
        // A pytest check without tests runs the program; so does no check.
        for check in ["python3 -m pytest -q", ""] {
            let plan = parse(&format!(
                r#"{{"tasks": [{{"path": "hi.py", "purpose": ""}}], "check": "{check}"}}"#
            ))
            .unwrap();
            assert_eq!(
                plan[0].subtasks,
                [
                    "Write hi.py. Complete working code, no placeholders",
                    "Run `python3 hi.py` and make it succeed (fix the files if it fails)"
                ]
            );
        }
        // A long purpose (code, as small models write) is cut.
        let long = format!(
            r#"{{"tasks": [{{"path": "a.txt", "purpose": "{}"}}], "check": ""}}"#,
            "x".repeat(1000)
        );
        assert_eq!(
            parse(&long).unwrap()[0].subtasks,
            [format!("Write a.txt: {}", "x".repeat(200))]
        );
    }

    #[test]
    fn invalid_files_plans_say_what_is_wrong() {
        let error = |plan: &str| parse(plan).unwrap_err();
        assert!(error(r#"{"tasks": [], "check": ""}"#).contains("no file"));
        assert!(
            error(r#"{"tasks": [{"path": "", "purpose": "x"}], "check": "x"}"#)
                .contains("task 1 has no file path")
        );
        assert!(
            error(r#"{"tasks": [{"path": "../a.py", "purpose": "x"}], "check": ""}"#)
                .contains("not inside")
        );
        let many: Vec<String> = (0..7)
            .map(|i| format!(r#"{{"path": "f{i}.py", "purpose": ""}}"#))
            .collect();
        assert!(
            error(&format!(
                r#"{{"tasks": [{}], "check": ""}}"#,
                many.join(",")
            ))
            .contains("7 files")
        );
    }

    #[test]
    fn invalid_plans_say_what_is_wrong() {
        assert!(
            parse("sure! here is a plan")
                .unwrap_err()
                .contains("not valid JSON")
        );
        assert!(parse(r#"{"tasks":[]}"#).unwrap_err().contains("0 tasks"));
        assert!(
            parse(r#"{"tasks":[{"description":"a","subtasks":[]}]}"#)
                .unwrap_err()
                .contains("0 subtasks")
        );
        assert!(
            parse(r#"{"tasks":[{"subtasks":["x"]}]}"#)
                .unwrap_err()
                .contains("no description")
        );
        assert!(
            parse(r#"{"tasks":[{"description":"a","subtasks":[""]}]}"#)
                .unwrap_err()
                .contains("1.1")
        );
    }
}
