//! A JSON value read as tool calls: the keys that name the tool and hold
//! its arguments, in the shapes models and chat templates write them.

use serde_json::{Map, Value};

use crate::chat::ToolCall;

/// Keys that name the tool, and keys that hold its arguments.
const NAME_KEYS: [&str; 3] = ["name", "tool", "tool_name"];
const ARGUMENT_KEYS: [&str; 5] = ["arguments", "parameters", "args", "input", "params"];
/// Every JSON object or array that parses, scanning left to right.
pub(super) fn json_values(text: &str) -> Vec<Value> {
    let mut values = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let Some(offset) = text[at..].find(['{', '[']) else {
            break;
        };
        let start = at + offset;
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => {
                values.push(value);
                at = start + stream.byte_offset().max(1);
            }
            _ => at = start + 1,
        }
    }
    values
}

pub(super) fn collect(value: &Value, known: &[&str], calls: &mut Vec<ToolCall>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| collect(item, known, calls)),
        Value::Object(map) => {
            if let Some(Value::Array(items)) = map.get("tool_calls") {
                items.iter().for_each(|item| collect(item, known, calls));
            } else if let Some(mut call) = as_call(map, known) {
                if let Value::Object(arguments) = &mut call.arguments {
                    for value in arguments.values_mut() {
                        if let Value::String(text) = value {
                            *text = without_markers(text);
                        }
                    }
                }
                calls.push(call);
            }
        }
        _ => {}
    }
}

/// `text` without a first or last line that is only a marker such as
/// `<|start-of-content|>`, or a marker that begins it: small models frame
/// a file's content with the look of their chat template's special tokens.
fn without_markers(text: &str) -> String {
    let marker = |line: &str| {
        let line = line.trim();
        line.len() > 4
            && line.starts_with("<|")
            && line.ends_with("|>")
            && line[2..line.len() - 2]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.first().is_some_and(|line| marker(line)) {
        lines.remove(0);
    } else if let Some(first) = lines.first_mut()
        && let Some(end) = first.find("|>")
        && marker(&first[..end + 2])
    {
        // t38's mathkit: `<|python|>from mathkit import gcd, lcm`.
        *first = &first[end + 2..];
    }
    if lines.last().is_some_and(|line| marker(line)) {
        lines.pop();
        // The line break before the marker ends the file.
        lines.push("");
    }
    match lines.len() {
        0 => String::new(),
        _ => lines.join("\n"),
    }
}

fn as_call(map: &Map<String, Value>, known: &[&str]) -> Option<ToolCall> {
    // {"function": {"name": ..., "arguments": ...}} and {"type": "function", ...}
    if let Some(Value::Object(function)) = map.get("function") {
        return as_call(function, known);
    }
    let name = NAME_KEYS
        .iter()
        .chain(["function"].iter())
        .find_map(|key| map.get(*key).and_then(Value::as_str))?
        .trim();
    let name = known_name(name, known).unwrap_or(name).to_string();
    let arguments = ARGUMENT_KEYS.iter().find_map(|key| map.get(*key)).cloned();
    let is_known = known.contains(&name.as_str());
    if name.is_empty() || (arguments.is_none() && !is_known) || name.contains(char::is_whitespace) {
        return None;
    }
    Some(ToolCall {
        name,
        arguments: arguments.unwrap_or(Value::Object(Map::new())),
    })
}

/// The known tool `name` stands for, written in another case or with
/// hyphens or spaces (`Mark_subtask_complete`, `write-file`).
fn known_name<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let plain = name.to_lowercase().replace(['-', ' '], "_");
    known.iter().copied().find(|k| *k == plain)
}
