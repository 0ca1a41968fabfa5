//! Tool calls written as text. Local models often put the call in the
//! message instead of `tool_calls`: a JSON object (bare, in a ```json fence,
//! several in a row, or in an array), Qwen's `<tool_call>...</tool_call>`,
//! Llama's `<function=NAME>{...}</function>`, or with the doubled braces of a
//! chat template. Small models also write a call as code: a known tool's
//! name, any case, then its arguments as a JSON object in parentheses or
//! after it (`Mark_subtask_complete({"success": true, ...})`, Qwen2.5-Coder
//! 1.5B after a tool result), or as Python keywords
//! (`run_cmd(cmd="python3 a.py")`). This finds them.

use serde_json::{Map, Value};

use crate::chat::ToolCall;

/// Keys that name the tool, and keys that hold its arguments.
const NAME_KEYS: [&str; 3] = ["name", "tool", "tool_name"];
const ARGUMENT_KEYS: [&str; 5] = ["arguments", "parameters", "args", "input", "params"];

/// The tool calls written in `text`. An object counts as a call when it names
/// a tool and has arguments, or names one of `known` tools.
pub fn extract(text: &str, known: &[&str]) -> Vec<ToolCall> {
    let mut calls = Vec::new();
    for chunk in candidates(text, known) {
        let undoubled = chunk
            .contains("{{")
            .then(|| chunk.replace("{{", "{").replace("}}", "}"));
        let repaired = Some(repair(&chunk)).filter(|r| *r != chunk);
        // Last, as it may cut a file that holds a fence.
        let closed = Some(repair_with(&chunk, true)).filter(|r| *r != chunk);
        let variants = std::iter::once(chunk)
            .chain(undoubled)
            .chain(repaired)
            .chain(closed);
        for variant in variants {
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
/// Llama's `<function=...>` form, then the whole text, then calls written as
/// code.
fn candidates(text: &str, known: &[&str]) -> Vec<String> {
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
    let code = code_calls(text, known);
    if !code.is_empty() {
        out.push(code);
    }
    out
}

/// A known tool's name (any case) written as code: `NAME({...})`,
/// `NAME(key=value, ...)`, or `NAME` then a JSON object, as
/// `{"name":..., "arguments":...}` lines. Only known names count: prose is
/// full of words before parentheses.
fn code_calls(text: &str, known: &[&str]) -> String {
    let mut out = String::new();
    let lower = text.to_lowercase();
    for name in known {
        let mut from = 0;
        while let Some(found) = lower[from..].find(name) {
            let start = from + found;
            let end = start + name.len();
            from = end;
            let before = text[..start].chars().next_back();
            let after = text[end..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            if word(before) || word(after) {
                continue;
            }
            let rest = text[end..].trim_start();
            let rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
            let (inner, parenthesized) = match rest.strip_prefix('(') {
                Some(inner) => (inner.trim_start(), true),
                None => (rest, false),
            };
            let arguments = if inner.starts_with('{') {
                json_values(inner).into_iter().next()
            } else if parenthesized {
                keywords(inner)
            } else {
                None
            };
            if let Some(arguments @ Value::Object(_)) = arguments {
                let call = serde_json::json!({ "name": name, "arguments": arguments });
                out.push_str(&call.to_string());
                out.push('\n');
            }
        }
    }
    out
}

/// `key=value, ...)` as a JSON object: values as JSON, Python's True, False
/// and None, or strings in single or double quotes. `None` unless every
/// pair up to the closing parenthesis reads.
fn keywords(text: &str) -> Option<Value> {
    let mut arguments = Map::new();
    let mut rest = text.trim_start();
    loop {
        if rest.starts_with(')') {
            return (!arguments.is_empty()).then_some(Value::Object(arguments));
        }
        let key_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        let key = &rest[..key_len];
        let after_key = rest[key_len..].trim_start().strip_prefix('=')?.trim_start();
        let (value, used) = python_value(after_key)?;
        if key.is_empty() {
            return None;
        }
        arguments.insert(key.to_string(), value);
        rest = after_key[used..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
}

/// One Python literal at the start of `text`, and the bytes it took.
fn python_value(text: &str) -> Option<(Value, usize)> {
    for (word, value) in [
        ("True", Value::Bool(true)),
        ("False", Value::Bool(false)),
        ("None", Value::Null),
    ] {
        if text.starts_with(word) {
            return Some((value, word.len()));
        }
    }
    if let Some(body) = text.strip_prefix('\'') {
        let mut value = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, 't')) => value.push('\t'),
                    Some((_, other)) => value.push(other),
                    None => return None,
                },
                '\'' => return Some((Value::String(value), i + 2)),
                other => value.push(other),
            }
        }
        return None;
    }
    // A number: serde_json reads none that a parenthesis follows.
    let number = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
        .unwrap_or(text.len());
    if number > 0 {
        let value = serde_json::from_str::<Value>(&text[..number]).ok()?;
        return Some((value, number));
    }
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value)) => Some((value, stream.byte_offset())),
        _ => None,
    }
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

/// JSON as small models get it wrong, put right: a Python `"""` string
/// (Qwen2.5-Coder 1.5B writes a file's content so) becomes a JSON string,
/// a line break or tab typed inside a string is escaped, and a backslash
/// that starts no JSON escape is read as Python reads it (a backslash), or,
/// right after a `\n` and before a letter, as the line break it lost its
/// `n` from (Qwen2.5-Coder 1.5B writes `main()\n\nif` as `main()\n\if`).
pub fn repair(text: &str) -> String {
    repair_with(text, false)
}

/// [`repair`], and with `close_at_fence` a string still open at a closing
/// fence is closed there.
fn repair_with(text: &str, close_at_fence: bool) -> String {
    repair_closing(text, close_at_fence, false)
}

/// [`repair_with`], and with `close_at_end` a string, object or array still
/// open where the text ends (a reply cut at the token cap) is closed there.
fn repair_closing(text: &str, close_at_fence: bool, close_at_end: bool) -> String {
    let closers = |open: &mut Vec<char>| -> String {
        open.drain(..)
            .rev()
            .map(|o| if o == '{' { '}' } else { ']' })
            .collect()
    };
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    // The objects and arrays open outside strings.
    let mut open: Vec<char> = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if close_at_fence && in_string && rest.starts_with("\n```") {
            // The fence closes the block with a string still open: the
            // model wrote a file into it and stopped there. Close the
            // string and what is open around it.
            out.push('"');
            out.push_str(&closers(&mut open));
            in_string = false;
        }
        if !in_string && rest.starts_with("\"\"\"") {
            let body = &rest[3..];
            let Some(end) = body.find("\"\"\"") else {
                if close_at_end {
                    let content = body.strip_prefix('\n').unwrap_or(body);
                    out.push_str(&Value::String(content.to_string()).to_string());
                    out.push_str(&closers(&mut open));
                } else {
                    out.push_str(rest);
                }
                return out;
            };
            let content = body[..end].strip_prefix('\n').unwrap_or(&body[..end]);
            out.push_str(&Value::String(content.to_string()).to_string());
            rest = &body[end + 3..];
            continue;
        }
        rest = &rest[c.len_utf8()..];
        match c {
            '"' => {
                in_string = !in_string;
                out.push(c);
            }
            '\\' if in_string => {
                let Some(next) = rest.chars().next() else {
                    // A lone backslash at a cut is dropped with the cut.
                    if !close_at_end {
                        out.push(c);
                    }
                    break;
                };
                rest = &rest[next.len_utf8()..];
                if JSON_ESCAPES.contains(next) {
                    out.push(c);
                    out.push(next);
                } else if out.ends_with("\\n") && next.is_alphabetic() {
                    // `\n\if` for `\n\nif`: the second line break lost its `n`.
                    out.push_str("\\n");
                    out.push(next);
                } else {
                    // Not an escape in JSON: a backslash of its own, as
                    // Python reads `"\d"`.
                    out.push_str("\\\\");
                    out.push(next);
                }
            }
            '{' | '[' if !in_string => {
                open.push(c);
                out.push(c);
            }
            '}' | ']' if !in_string => {
                open.pop();
                out.push(c);
            }
            '\n' if in_string => out.push_str("\\n"),
            '\r' if in_string => out.push_str("\\r"),
            '\t' if in_string => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    if close_at_end {
        if in_string {
            out.push('"');
        }
        out.push_str(&closers(&mut open));
    }
    out
}

/// The calls of a reply that ended (not cut by the token cap) with objects
/// or a string still open: Qwen2.5-Coder 1.5B leaves off the last `}` of a
/// call that is otherwise whole. Only for a reply the model ended itself: a
/// reply the cap cut holds a file cut short.
pub fn extract_unclosed(text: &str, known: &[&str]) -> Vec<ToolCall> {
    closed_calls(text, known, true)
}

/// The calls of the first candidate of `text` that gives any, with what is
/// open at its end closed (and, with `close_at_fence`, at a closing fence).
fn closed_calls(text: &str, known: &[&str], close_at_fence: bool) -> Vec<ToolCall> {
    let mut calls = Vec::new();
    for chunk in candidates(text, known) {
        for value in json_values(&repair_closing(&chunk, close_at_fence, true)) {
            collect(&value, known, &mut calls);
        }
        if !calls.is_empty() {
            break;
        }
    }
    calls
}

/// A reply cut at the token cap while the model wrote the same lines over
/// and over (Qwen2.5-Coder 1.5B repeats a test file's block of asserts until
/// the cap): its `write_file` calls, each file's content up to where the
/// repetition began, and how many repeated lines were dropped. `None` when
/// no file in it ends in at least [`MIN_REPEATED`] repeated lines: a file
/// merely cut short is not written (the model is told to write less).
pub fn cut_repetition(text: &str, known: &[&str]) -> Option<(Vec<ToolCall>, usize)> {
    let calls = closed_calls(text, known, false);
    let mut dropped = 0;
    let mut writes = Vec::new();
    for mut call in calls.into_iter().filter(|call| call.name == "write_file") {
        let Some(content) = call.arguments["content"].as_str() else {
            continue;
        };
        // The last line is the one the cap cut.
        let whole = &content[..content.rfind('\n').map_or(0, |at| at + 1)];
        let lines: Vec<&str> = whole.lines().collect();
        let start = repeated_tail(&lines);
        let repeated = lines[start..]
            .iter()
            .filter(|l| !l.trim().is_empty())
            .count();
        if repeated < MIN_REPEATED || start == 0 {
            continue;
        }
        dropped += lines.len() - start;
        let kept = lines[..start].join("\n") + "\n";
        call.arguments["content"] = Value::String(kept);
        writes.push(call);
    }
    (!writes.is_empty()).then_some((writes, dropped))
}

/// A file that ends in this many lines each written before it is a model
/// repeating itself (code ends in a few closing lines, not six).
pub const MIN_REPEATED: usize = 6;

/// Where the run of lines at the end of `lines` begins in which every line
/// is blank or a copy of a line before it.
fn repeated_tail(lines: &[&str]) -> usize {
    let mut start = lines.len();
    while start > 0 {
        let line = lines[start - 1];
        if line.trim().is_empty() || lines[..start - 1].contains(&line) {
            start -= 1;
        } else {
            break;
        }
    }
    // Blank lines before the repetition belong to the file.
    while start < lines.len() && lines[start].trim().is_empty() {
        start += 1;
    }
    start
}

/// What may follow a backslash in a JSON string.
const JSON_ESCAPES: &str = "\"\\/bfnrtu";

/// Why a reply that tried to call a tool did not give a call: the JSON
/// error of the first object that names a tool (or has a "name" key) and
/// does not parse. `None` when nothing in `text` looks like a call.
pub fn diagnose(text: &str, known: &[&str]) -> Option<String> {
    let text = repair(text);
    let mut at = 0;
    while let Some(offset) = text[at..].find('{') {
        let start = at + offset;
        at = start + 1;
        let head: String = text[start..].chars().take(120).collect();
        let tool = known
            .iter()
            .find(|name| head.contains(&format!("\"{name}\"")));
        if tool.is_none() && !head.contains("\"name\"") {
            continue;
        }
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        if let Some(Err(error)) = stream.next() {
            let what = tool.map_or("a tool call".to_string(), |t| format!("a {t} call"));
            return Some(format!(
                "it looks like {what}, but it is not valid JSON ({error}). In JSON a string is \
                 in double quotes, with \\n for each new line and \\\" for a quote inside it"
            ));
        }
    }
    None
}

/// Files a reply gives as fenced code blocks instead of a `write_file` call
/// ("Here is the corrected content of `game.py`:" then ```` ```python ````):
/// small models fix a file so and then call only `run_cmd`. A block counts
/// when the text since the block before it names one of `paths` (the last
/// one named is the file); a block that is a tool call, or much shorter than
/// the file it would replace (`current` gives its text; a snippet, not the
/// file), does not.
pub fn fenced_files(
    text: &str,
    paths: &[String],
    current: impl Fn(&str) -> Option<String>,
) -> Vec<ToolCall> {
    let mut writes: Vec<ToolCall> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let before = &rest[..open];
        let after_fence = &rest[open + 3..];
        let Some(line_end) = after_fence.find('\n') else {
            break;
        };
        let language = after_fence[..line_end].trim();
        let body = &after_fence[line_end + 1..];
        let Some(close) = body.find("```") else {
            break;
        };
        let code = &body[..close];
        rest = &body[close + 3..];
        let named = paths
            .iter()
            .filter_map(|path| mentions(before, path, false).last().map(|&at| (at, path)))
            .max();
        let Some((_, path)) = named else {
            continue;
        };
        let code = code.trim_end_matches([' ', '\t']);
        let looks_like_call = language == "json" || code.trim_start().starts_with('{');
        if code.trim().is_empty() || looks_like_call {
            continue;
        }
        let whole = current(path).is_none_or(|old| code.lines().count() * 2 >= old.lines().count());
        if whole {
            writes.retain(|w| w.arguments["path"] != path.as_str());
            writes.push(ToolCall {
                name: "write_file".into(),
                arguments: serde_json::json!({ "path": path, "content": code }),
            });
        }
    }
    writes
}

/// Where `path` is named in `text` as a name of its own: not the end of a
/// longer name (`a.py` in `test_a.py`, and in `src/a.py` unless
/// `after_folder`, as in a traceback's `/work/a.py`).
pub fn mentions(text: &str, path: &str, after_folder: bool) -> Vec<usize> {
    text.match_indices(path)
        .map(|(at, _)| at)
        .filter(|&at| {
            text[..at].chars().next_back().is_none_or(|c| {
                !(c.is_alphanumeric() || c == '_' || c == '.' || (c == '/' && !after_folder))
            })
        })
        .collect()
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
/// `<|start-of-content|>`: small models frame a file's content with the
/// look of their chat template's special tokens.
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
    fn calls_written_as_code() {
        // Qwen2.5-Coder 1.5B after a tool result, word for word.
        let qwen = r#"Mark_subtask_complete({"success": true, "reason": "Wrote hello_world.py and ran it successfully."})"#;
        assert_eq!(
            names(qwen),
            [(
                "mark_subtask_complete".into(),
                json!({"success": true, "reason": "Wrote hello_world.py and ran it successfully."})
            )]
        );
        let python = "Now: run_cmd(cmd='python3 a.py', timeout_sec=30)";
        assert_eq!(
            names(python),
            [(
                "run_cmd".into(),
                json!({"cmd": "python3 a.py", "timeout_sec": 30})
            )]
        );
        let keywords = r#"mark_subtask_complete(success=True, reason="it's done")"#;
        assert_eq!(
            names(keywords),
            [(
                "mark_subtask_complete".into(),
                json!({"success": true, "reason": "it's done"})
            )]
        );
        let after = "write_file: {\"path\": \"a.py\", \"content\": \"x\"}";
        assert_eq!(
            names(after),
            [("write_file".into(), json!({"path": "a.py", "content": "x"}))]
        );
        // A name in another case inside a JSON call.
        let cased = r#"{"name": "Write_File", "arguments": {"path": "a", "content": ""}}"#;
        assert_eq!(names(cased)[0].0, "write_file");
        // Words that only contain a name, or a name in prose, are no call.
        assert!(names("Call mark_subtask_complete when done.").is_empty());
        assert!(names("my_run_cmd(x=1)").is_empty());
        assert!(names("run_cmd(cmd=python3)").is_empty());
    }

    #[test]
    fn python_strings_and_raw_line_breaks_are_repaired() {
        // Qwen2.5-Coder 1.5B, shortened: the content as a """ string.
        let qwen = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"test_a.py\",\n    \"content\": \"\"\"\nfrom a import f\n\ndef test_f():\n    assert f('x') == 'y'\n    \"\"\",\n    \"create_dirs\": true\n  }\n}\n```";
        assert_eq!(
            names(qwen),
            [(
                "write_file".into(),
                json!({"path": "test_a.py", "content": "from a import f\n\ndef test_f():\n    assert f('x') == 'y'\n    ", "create_dirs": true})
            )]
        );
        let raw = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.py\", \"content\": \"a = 1\n\tb = \\\"2\\\"\n\"}}";
        assert_eq!(
            names(raw),
            [(
                "write_file".into(),
                json!({"path": "a.py", "content": "a = 1\n\tb = \"2\"\n"})
            )]
        );
    }

    #[test]
    fn backslashes_that_start_no_escape_are_read_as_meant() {
        // Qwen2.5-Coder 1.5B, word for word at the end of a module.
        let qwen = r#"{"name": "write_file", "arguments": {"path": "g.py", "content": "    print(result)\n\if __name__ == '__main__':\n    main()"}}"#;
        assert_eq!(
            names(qwen)[0].1["content"],
            "    print(result)\n\nif __name__ == '__main__':\n    main()"
        );
        // Elsewhere a lone backslash is one, as in Python: a regex.
        let regex =
            r#"{"name": "write_file", "arguments": {"path": "r.py", "content": "p = r'\d+'\n"}}"#;
        assert_eq!(names(regex)[0].1["content"], "p = r'\\d+'\n");
        // Valid escapes are untouched.
        let valid = r#"{"name": "write_file", "arguments": {"path": "v.py", "content": "a\\b\t\"c\"\u00e9"}}"#;
        assert_eq!(names(valid)[0].1["content"], "a\\b\t\"c\"é");
    }

    #[test]
    fn a_string_left_open_at_the_closing_fence_is_closed_there() {
        // Qwen2.5-Coder 1.5B, shortened: the file typed into the string,
        // then the fence, then prose.
        let qwen = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"g.py\",\n    \"content\": \"def play(a, b):\n    return a\n```\n\nMark subtask complete.";
        assert_eq!(
            names(qwen),
            [(
                "write_file".into(),
                json!({"path": "g.py", "content": "def play(a, b):\n    return a"})
            )]
        );
        // A fence inside a string that is closed is content.
        let closed = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"R.md\", \"content\": \"a\n```\nb\"}}";
        assert_eq!(names(closed)[0].1["content"], "a\n```\nb");
    }

    #[test]
    fn a_call_missing_its_last_brace_is_closed() {
        // Qwen2.5-Coder 1.5B, shortened: the outer object is never closed.
        let qwen = r#"{"name": "write_file", "arguments": {"path": "t.py", "content": "x = 1\n"}"#;
        assert!(names(qwen).is_empty());
        let calls = extract_unclosed(qwen, &KNOWN);
        assert_eq!(calls.len(), 1);
        assert_eq!(
            calls[0].arguments,
            json!({"path": "t.py", "content": "x = 1\n"})
        );
        assert!(extract_unclosed("no call here {", &KNOWN).is_empty());
    }

    #[test]
    fn a_file_repeated_until_the_cap_is_cut_where_the_repetition_began() {
        // Qwen2.5-Coder 1.5B, shortened: a block of asserts written again
        // and again until the 1024-token cap cut the reply mid-line.
        let head =
            "from g import play\n\ndef test_play():\n    assert play('rock', 'scissors') == 'P1'\n";
        let block = "    assert play('rock', 'rock') == 'Tie'\n    assert play('rock', 'paper') == 'P2'\n    assert play('paper', 'scissors') == 'P2'\n";
        let file = format!("{head}{}{}    assert play('ro", block, block.repeat(3));
        let qwen = format!(
            "```json\n{{\n  \"name\": \"write_file\",\n  \"arguments\": {{\n    \"path\": \"test_g.py\",\n    \"content\": \"\"\"\n{file}"
        );
        assert!(names(&qwen).is_empty(), "a cut call is not a call");
        let (calls, dropped) = cut_repetition(&qwen, &KNOWN).unwrap();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].arguments["path"], "test_g.py");
        assert_eq!(calls[0].arguments["content"], format!("{head}{block}"));
        assert_eq!(dropped, 9);
        // The same, written as a JSON string cut after a backslash.
        let escaped =
            serde_json::to_string(&format!("{head}{}{}    x = '\\", block, block.repeat(2)))
                .unwrap();
        let escaped = format!(
            "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"test_g.py\", \"content\": {}",
            &escaped[..escaped.len() - 2]
        );
        let (calls, dropped) = cut_repetition(&escaped, &KNOWN).unwrap();
        assert_eq!(calls[0].arguments["content"], format!("{head}{block}"));
        assert_eq!(dropped, 6);
        // A file only cut short, or ending in a few repeated lines, is not
        // written.
        let short = format!(
            "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"a.py\", \"content\": \"{}",
            "x = 1\\n".to_string() + "def f():\\n    return 1\\n    \\n    return 1\\n"
        );
        assert_eq!(cut_repetition(&short, &KNOWN), None);
        assert_eq!(cut_repetition("All done, no call.", &KNOWN), None);
    }

    #[test]
    fn template_markers_around_a_files_content_are_dropped() {
        let qwen = r#"{"name": "write_file", "arguments": {"path": "t.py", "content": "<|start-of-content|>\nimport pytest\n<|end-of-content|>"}}"#;
        assert_eq!(names(qwen)[0].1["content"], "import pytest\n");
        // Inside the content, and with other text on the line, they stay.
        let kept = r#"{"name": "write_file", "arguments": {"path": "t.md", "content": "a\n<|x|>\nb <|y|>"}}"#;
        assert_eq!(names(kept)[0].1["content"], "a\n<|x|>\nb <|y|>");
    }

    #[test]
    fn files_given_as_code_blocks_become_writes() {
        // Qwen2.5-Coder 1.5B, shortened: the fix in a block, then a run.
        let qwen = "To fix the syntax error in `test_g.py`, close the strings. Here's the corrected content of `test_g.py`:\n\n```python\nfrom g import play\n\ndef test_tie():\n    assert play('rock', 'rock') == 'It\\'s a tie!'\n```\n\nAfter making this change, run the command again:\n\n```python\n{\"name\": \"run_cmd\", \"arguments\": {\"cmd\": \"python3 -m pytest -q\"}}\n```";
        let paths = ["g.py".to_string(), "test_g.py".to_string()];
        let old = "from g import play\n\ndef test_tie():\n    assert play('rock', 'rock') == 'It's a tie!'\n";
        let current = |path: &str| (path == "test_g.py").then(|| old.to_string());
        let writes = fenced_files(qwen, &paths, current);
        assert_eq!(writes.len(), 1, "{writes:?}");
        assert_eq!(writes[0].arguments["path"], "test_g.py");
        assert_eq!(
            writes[0].arguments["content"],
            "from g import play\n\ndef test_tie():\n    assert play('rock', 'rock') == 'It\\'s a tie!'\n"
        );
        // A block no file is named before, a snippet of a longer file, and
        // a file the run does not know are left alone.
        let unnamed = "Here's the corrected code:\n\n```python\nx = 1\n```";
        assert!(fenced_files(unnamed, &paths, current).is_empty());
        let long = "a\n".repeat(40);
        let snippet = "In `test_g.py` change:\n```python\nx = 1\n```";
        assert!(fenced_files(snippet, &paths, |_| Some(long.clone())).is_empty());
        let other = "In `other.py`:\n```python\nx = 1\n```";
        assert!(fenced_files(other, &paths, current).is_empty());
    }

    #[test]
    fn a_broken_call_is_diagnosed() {
        let cut = r#"{"name": "write_file", "arguments": {"path": "a.py", "content": "x = "#;
        let why = diagnose(cut, &KNOWN).unwrap();
        assert!(
            why.starts_with("it looks like a write_file call, but it is not valid JSON (EOF"),
            "{why}"
        );
        let unquoted = r#"{"name": "run_cmd", "arguments": {"cmd": python3 a.py}}"#;
        assert!(
            diagnose(unquoted, &KNOWN)
                .unwrap()
                .contains("a run_cmd call")
        );
        assert_eq!(diagnose("I wrote it. {\"ok\": tru", &KNOWN), None);
        assert_eq!(diagnose("All done!", &KNOWN), None);
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
