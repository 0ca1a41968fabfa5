//! JSON as small models get it wrong, put right, and why a call that stays
//! broken does not parse.

use serde_json::Value;

/// JSON as small models get it wrong, put right: a Python `"""` string
/// (Qwen2.5-Coder 1.5B writes a file's content so) becomes a JSON string,
/// a `"""` docstring inside a string is escaped, so is a quote inside a
/// string that the JSON does not go on after (see [`ends_string`]),
/// a line break or tab typed inside a string is escaped, and a backslash
/// that starts no JSON escape is read as Python reads it (a backslash, or
/// the quote of `\'`, a backslash of its own before a typed line break), or,
/// right after a `\n` and before a letter, as the line break it lost its
/// `n` from (Qwen2.5-Coder 1.5B writes `main()\n\nif` as `main()\n\if`).
pub fn repair(text: &str) -> String {
    repair_with(text, false)
}

/// [`repair`], and with `close_at_fence` a string still open at a closing
/// fence is closed there.
pub(super) fn repair_with(text: &str, close_at_fence: bool) -> String {
    repair_closing(text, close_at_fence, false)
}

/// [`repair_with`], and with `close_at_end` a string, object or array still
/// open where the text ends (a reply cut at the token cap) is closed there.
pub(super) fn repair_closing(text: &str, close_at_fence: bool, close_at_end: bool) -> String {
    let closers = |open: &mut Vec<char>| -> String {
        open.drain(..)
            .rev()
            .map(|o| if o == '{' { '}' } else { ']' })
            .collect()
    };
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    // Whether the open string is a key of an object.
    let mut key = false;
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
        } else if close_at_fence && !open.is_empty() && rest.starts_with("\n```") {
            // The fence closes the block with an object still open: the
            // model left off its last `}` (l3's add-function, six replies
            // in a row). Nothing of the JSON comes after a fence.
            out.push_str(&closers(&mut open));
        }
        // Python's raw `r"""` as a `"""` (t98's textstats-tests sent
        // `"old": r"""...` five times, each "not valid JSON").
        if !in_string && rest.starts_with(['r', 'R']) && rest[1..].starts_with("\"\"\"") {
            rest = &rest[1..];
        }
        if !in_string && rest.starts_with("\"\"\"") {
            let body = &rest[3..];
            let Some((end, comma)) = triple_end(body) else {
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
            if comma {
                out.push(',');
            }
            rest = &body[end + 3..];
            continue;
        }
        if in_string && rest.starts_with("\"\"\"") {
            // A Python docstring inside a JSON string (Qwen2.5-Coder 1.5B
            // writes `"content": "def f():\n    """Doc."""\n..."`): three
            // quotes never close a JSON string (an empty string would
            // follow it), so they are the file's own, escaped.
            out.push_str("\\\"\\\"\\\"");
            rest = &rest[3..];
            continue;
        }
        if !in_string && rest.starts_with("//") {
            // A comment of the JSON's own (w1's cli-flag wrote `"old":
            // "...", // the line to replace`): not JSON, dropped to the
            // end of its line.
            rest = rest.find('\n').map_or("", |at| &rest[at..]);
            continue;
        }
        rest = &rest[c.len_utf8()..];
        match c {
            '"' if !in_string => {
                in_string = true;
                key = open.last() == Some(&'{') && out.trim_end().ends_with(['{', ',']);
                out.push(c);
            }
            '"' if !ends_string(rest, key, open.last() == Some(&'[')) => {
                // A quote of the content, left unescaped (Qwen2.5-Coder
                // 1.5B wrote `return text.upper() + '!"` into a file's
                // content): the JSON does not go on after it.
                out.push_str("\\\"");
            }
            '"' => {
                in_string = false;
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
                if next.is_control() {
                    // A backslash typed before a line break of the content:
                    // Python's line continuation (t34's rps wrote `or \`
                    // at a line's end, and its write was refused three
                    // times).
                    // The backslash is its own; the break is escaped next.
                    out.push_str("\\\\");
                    continue;
                }
                rest = &rest[next.len_utf8()..];
                if JSON_ESCAPES.contains(next) {
                    out.push(c);
                    out.push(next);
                } else if next == '\'' {
                    // As Python reads `'\''`: the quote alone.
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
/// Whether a quote inside a string, followed by `after`, ends it: the
/// JSON goes on after it as it would after a `key` (a `:`) or after a
/// value (the end, a closing fence, a `]` in an array, a `,` then the next
/// key, or in an array the next item, or a `}` then what may follow an
/// object). A quote the model left unescaped in a file's content is
/// followed by more of the file.
fn ends_string(after: &str, key: bool, in_array: bool) -> bool {
    let after = uncommented(after);
    if key {
        return after.starts_with(':');
    }
    if after.is_empty() || after.starts_with("```") || (in_array && after.starts_with(']')) {
        return true;
    }
    if let Some(next) = after.strip_prefix(',') {
        let next = uncommented(next);
        return in_array || next_key(next);
    }
    after.strip_prefix('}').is_some_and(|next| {
        let next = uncommented(next);
        next.is_empty() || next.starts_with(['}', ']', ',', ')']) || next.starts_with("```")
    })
}

/// `text` from where its JSON goes on: past white space and `//`
/// comments, each to the end of its line.
fn uncommented(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        match text.strip_prefix("//") {
            Some(comment) => text = comment.find('\n').map_or("", |at| &comment[at..]),
            None => return text,
        }
    }
}

/// Whether `text` starts with an object's key: `"name":`.
fn next_key(text: &str) -> bool {
    text.strip_prefix('"')
        .and_then(|rest| rest.split_once('"'))
        .is_some_and(|(name, rest)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                && rest.trim_start().starts_with(':')
        })
}

/// Where a Python `"""` string that starts `body` ends: the first `"""`
/// after which the JSON goes on (a `,`, a `}` or `]`, or the next key, the
/// comma left out: then `true`), so that a docstring inside the file's
/// content does not end it (Qwen2.5-Coder 1.5B wrote `"content": """` then
/// a function with its docstring, then `"""`, nine times in a row). The
/// first `"""` at all when none is so followed.
fn triple_end(body: &str) -> Option<(usize, bool)> {
    let ends: Vec<usize> = body.match_indices("\"\"\"").map(|(at, _)| at).collect();
    for &at in &ends {
        let after = body[at + 3..].trim_start();
        if after.is_empty() || after.starts_with([',', '}', ']']) {
            return Some((at, false));
        }
        if next_key(after) {
            return Some((at, true));
        }
    }
    ends.first().map(|&at| (at, false))
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
