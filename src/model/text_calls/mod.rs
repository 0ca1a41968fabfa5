//! Tool calls written as text. Local models often put the call in the
//! message instead of `tool_calls`: a JSON object (bare, in a ```json fence,
//! several in a row, or in an array), Qwen's `<tool_call>...</tool_call>`,
//! Llama's `<function=NAME>{...}</function>`, or with the doubled braces of a
//! chat template. Small models also write a call as code: a known tool's
//! name, any case, then its arguments as a JSON object in parentheses or
//! after it (`Mark_subtask_complete({"success": true, ...})`, Qwen2.5-Coder
//! 1.5B after a tool result), or as Python keywords
//! (`run_cmd(cmd="python3 a.py")`). This finds them.
//!
//! `extract` tries the places a call may be written (below) and reads each
//! as it is, undoubled, then repaired (`repair.rs`); calls written as code
//! are in `code.rs`, a JSON object read as a call in `object.rs`, files given
//! as code blocks in `fenced.rs`, a command as a code block in `command.rs`,
//! a file repeated until the token cap in `repetition.rs`, a completion
//! written as a sentence in `prose.rs`.

mod code;
mod command;
mod fenced;
mod object;
mod prose;
mod repair;
mod repetition;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::chat::ToolCall;

use code::code_calls;
use object::{collect, json_values};
use repair::{repair_closing, repair_with};

pub use command::{blocks as code_blocks, fenced_command};
pub use fenced::{fenced_files, mentions};
pub use prose::completion_in_prose;
pub use repair::{diagnose, repair};
pub use repetition::{MIN_REPEATED, cut_before, cut_repetition};

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
/// The calls of a reply that ended (not cut by the token cap) with objects
/// or a string still open: Qwen2.5-Coder 1.5B leaves off the last `}` of a
/// call that is otherwise whole. Only for a reply the model ended itself: a
/// reply the cap cut holds a file cut short.
pub fn extract_unclosed(text: &str, known: &[&str]) -> Vec<ToolCall> {
    closed_calls(text, known, true)
}

/// The calls a reply cut by the token cap began, each with what was open
/// at the cut closed: a file's content is cut short. For what the call
/// meant (its tool, its path), never to run.
pub fn begun_calls(text: &str, known: &[&str]) -> Vec<ToolCall> {
    closed_calls(text, known, false)
}

/// The calls of the first candidate of `text` that gives any, with what is
/// open at its end closed (and, with `close_at_fence`, at a closing fence).
pub(super) fn closed_calls(text: &str, known: &[&str], close_at_fence: bool) -> Vec<ToolCall> {
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
