//! The model's plan read and checked: the files shape, or the original
//! shape of tasks and subtasks, in a fence or not.

use serde_json::Value;

use super::files::{Shape, files_plan};
use crate::state::TaskPlan;

const MAX_TASKS: usize = 8;
const MAX_SUBTASKS: usize = 8;
/// A description longer than this is not a concrete step.
const MAX_DESCRIPTION: usize = 400;

/// Parses and checks a plan: the files shape (`{"tasks": [{"path",
/// "purpose"}], "check"}`), or the original one (`{"tasks": [...]}` or a bare
/// array of tasks, a subtask a string or an object with a `description`),
/// optionally inside a ```json fence.
pub fn parse(text: &str) -> Result<Vec<TaskPlan>, String> {
    parse_for(text, &Shape::default())
}

/// [`parse`], for the goal and workspace of `shape`.
pub fn parse_for(text: &str, shape: &Shape) -> Result<Vec<TaskPlan>, String> {
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
        return files_plan(tasks, check, shape);
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
