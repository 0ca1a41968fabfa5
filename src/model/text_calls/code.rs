//! Calls written as code: a known tool's name then its arguments, as a JSON
//! object or as Python keywords, turned into `{"name":..., "arguments":...}`.

use serde_json::{Map, Value};

use super::object::json_values;

/// A known tool's name (any case) written as code: `NAME({...})`,
/// `NAME(key=value, ...)`, or `NAME` then a JSON object, as
/// `{"name":..., "arguments":...}` lines. Only known names count: prose is
/// full of words before parentheses.
pub(super) fn code_calls(text: &str, known: &[&str]) -> String {
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
