//! Tool calls written as text. Local models often put the call in the
//! message instead of `tool_calls`: a JSON object (bare, in a ```json fence,
//! several in a row, or in an array), Qwen's `<tool_call>...</tool_call>`,
//! Llama's `<function=NAME>{...}</function>`, or with the doubled braces of a
//! chat template. This finds them.

use serde_json::{Map, Value};

use crate::chat::ToolCall;

/// Keys that name the tool, and keys that hold its arguments.
const NAME_KEYS: [&str; 3] = ["name", "tool", "tool_name"];
const ARGUMENT_KEYS: [&str; 5] = ["arguments", "parameters", "args", "input", "params"];

/// The tool calls written in `text`. An object counts as a call when it names
/// a tool and has arguments, or names one of `known` tools.
pub fn extract(text: &str, known: &[&str]) -> Vec<ToolCall> {
    let mut calls = Vec::new();
    for chunk in candidates(text) {
        let undoubled = chunk
            .contains("{{")
            .then(|| chunk.replace("{{", "{").replace("}}", "}"));
        for variant in std::iter::once(chunk).chain(undoubled) {
            for value in json_values(&variant) {
                collect(&value, known, &mut calls);
            }
            if !calls.is_empty() {
                return calls;
            }
        }
    }
    calls
}

/// Where calls may be written: the insides of `<tool_call>` tags first, then
/// Llama's `<function=...>` form, then the whole text.
fn candidates(text: &str) -> Vec<String> {
    let mut inside_tags = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<tool_call>") {
        let after = &rest[start + "<tool_call>".len()..];
        let end = after.find("</tool_call>").unwrap_or(after.len());
        inside_tags.push_str(&after[..end]);
        inside_tags.push('\n');
        rest = &after[end..];
    }
    let mut out = Vec::new();
    if !inside_tags.trim().is_empty() {
        out.push(inside_tags);
    }
    let functions = llama_functions(text);
    if !functions.is_empty() {
        out.push(functions);
    }
    out.push(text.to_string());
    out
}

/// `<function=write_file>{"path": ...}</function>` as `{"name":..., "arguments":...}` lines.
fn llama_functions(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<function=") {
        let after = &rest[start + "<function=".len()..];
        let Some(close) = after.find('>') else { break };
        let name = after[..close].trim();
        let body = &after[close + 1..];
        let end = body.find("</function>").unwrap_or(body.len());
        if let Some(Value::Object(arguments)) = json_values(&body[..end]).into_iter().next() {
            let call = serde_json::json!({ "name": name, "arguments": arguments });
            out.push_str(&call.to_string());
            out.push('\n');
        }
        rest = &body[end..];
    }
    out
}

/// Every JSON object or array that parses, scanning left to right.
fn json_values(text: &str) -> Vec<Value> {
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

fn collect(value: &Value, known: &[&str], calls: &mut Vec<ToolCall>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| collect(item, known, calls)),
        Value::Object(map) => {
            if let Some(Value::Array(items)) = map.get("tool_calls") {
                items.iter().for_each(|item| collect(item, known, calls));
            } else if let Some(call) = as_call(map, known) {
                calls.push(call);
            }
        }
        _ => {}
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
        .trim()
        .to_string();
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const KNOWN: [&str; 3] = ["write_file", "run_cmd", "mark_subtask_complete"];

    fn names(text: &str) -> Vec<(String, Value)> {
        extract(text, &KNOWN)
            .into_iter()
            .map(|c| (c.name, c.arguments))
            .collect()
    }

    #[test]
    fn a_bare_object_with_prose_around_it() {
        let text = r#"I will write it now. {"name": "write_file", "arguments": {"path": "a.py", "content": "x = {1: 2}"}} Done."#;
        assert_eq!(
            names(text),
            [(
                "write_file".into(),
                json!({"path": "a.py", "content": "x = {1: 2}"})
            )]
        );
    }

    #[test]
    fn a_fenced_function_object_with_parameters() {
        let text = "```json\n{\"type\": \"function\", \"function\": {\"name\": \"run_cmd\", \"parameters\": {\"cmd\": \"python3 a.py\"}}}\n```";
        assert_eq!(
            names(text),
            [("run_cmd".into(), json!({"cmd": "python3 a.py"}))]
        );
    }

    #[test]
    fn several_calls_in_one_message_and_in_an_array() {
        let text = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": \"\"}}\n{\"name\": \"run_cmd\", \"arguments\": {\"cmd\": \"ls\"}}";
        assert_eq!(names(text).len(), 2);
        let array = r#"[{"name": "run_cmd", "arguments": {"cmd": "a"}}, {"name": "run_cmd", "arguments": {"cmd": "b"}}]"#;
        assert_eq!(names(array).len(), 2);
    }

    #[test]
    fn qwen_tags_and_llama_functions() {
        let qwen = "<tool_call>\n{\"name\": \"mark_subtask_complete\", \"arguments\": {\"success\": true, \"reason\": \"ok\"}}\n</tool_call>";
        assert_eq!(names(qwen)[0].0, "mark_subtask_complete");
        let llama = "<function=run_cmd>{\"cmd\": \"pytest\"}</function>";
        assert_eq!(names(llama), [("run_cmd".into(), json!({"cmd": "pytest"}))]);
    }

    #[test]
    fn arguments_as_a_string_and_doubled_braces_are_kept_for_the_parser() {
        let text = r#"{"name": "run_cmd", "arguments": "{\"cmd\": \"ls\"}"}"#;
        assert_eq!(
            names(text),
            [("run_cmd".into(), json!("{\"cmd\": \"ls\"}"))]
        );
        let doubled = r#"{{"name": "run_cmd", "arguments": {{"cmd": "ls"}}}}"#;
        assert_eq!(names(doubled), [("run_cmd".into(), json!({"cmd": "ls"}))]);
    }

    #[test]
    fn data_that_is_not_a_call_is_left_alone() {
        assert!(names(r#"The config is {"name": "Alice", "age": 3}."#).is_empty());
        assert!(names("no json here").is_empty());
        assert!(names("{broken").is_empty());
        // An unknown tool with arguments is a call (the loop corrects it).
        assert_eq!(
            names(r#"{"name": "delete_all", "arguments": {}}"#)[0].0,
            "delete_all"
        );
    }
}
