//! Decomposition: the goal into tasks and concrete subtasks, with Ollama's
//! structured output, checked, sent back with the error at most twice, and
//! the goal itself as the single task when that fails.

use serde_json::{Value, json};

use crate::chat::{Message, Usage};
use crate::model::{ChatRequest, Failure, Model, Options};
use crate::state::{Event, TaskPlan};

/// Corrections sent back before falling back to the goal as the only task.
const CORRECTIONS: usize = 2;
const MAX_TASKS: usize = 8;
const MAX_SUBTASKS: usize = 8;
/// A description longer than this is not a concrete step.
const MAX_DESCRIPTION: usize = 400;

const SYSTEM: &str = "You plan work for a coding agent that can list, read and write files and run \
programs (python, pytest, pip) in a folder. Break the user's goal into 1 to 3 tasks. Give each task \
1 to 4 subtasks. A subtask is one concrete step done with one tool: writing one named file, or \
running one named command. Name the files. Do not add steps the goal does not need. Answer with \
JSON only.";

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tasks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "description": { "type": "string" },
                        "subtasks": { "type": "array", "items": { "type": "string" } }
                    },
                    "required": ["description", "subtasks"]
                }
            }
        },
        "required": ["tasks"]
    })
}

/// Asks for a plan; returns the `planned` event. Only a failure of the
/// model itself (unreachable, not pulled) is an error.
pub async fn plan(model: &dyn Model, goal: &str, options: Options) -> Result<Event, Failure> {
    let mut messages = vec![
        Message::system(SYSTEM),
        Message::user(format!(
            "GOAL: {goal}\n\nAnswer as {{\"tasks\": [{{\"description\": \"...\", \"subtasks\": [\"...\"]}}]}}"
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
                     {{\"tasks\": [{{\"description\": \"...\", \"subtasks\": [\"...\"]}}]}}."
                )));
                last_error = error;
            }
        }
    }
    Ok(Event::Planned {
        tasks: vec![TaskPlan {
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

/// Parses and checks a plan: `{"tasks": [...]}` or a bare array of tasks,
/// optionally inside a ```json fence; a subtask may be a string or an object
/// with a `description`.
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
