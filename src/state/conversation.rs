//! How much of the conversation the state keeps. The state is rewritten
//! after every action, so what it holds is bounded: a few exchanges, tool
//! results cut to a head and a tail, long arguments cut. The log keeps
//! everything whole.

use crate::chat::ToolCall;

/// Exchanges of the conversation kept in the state, and the most
/// `--history-keep` may show. Small models do best with few (the default is
/// 5), and the state is rewritten after every action: its size is the
/// runner's main cost per action.
pub const KEPT_EXCHANGES: usize = 8;
/// A tool result kept in the conversation is cut to this many bytes (head
/// and tail); the log keeps it whole. Bounds `state.json`, which is
/// rewritten after every action.
pub(super) const KEPT_RESULT: usize = 16 * 1024;
/// A string argument longer than this is cut in the conversation the state
/// keeps: the model wrote it once, the file holds it now, and the state is
/// rewritten after every action. The pending reply keeps the whole call.
pub const KEPT_ARGUMENT: usize = 600;

/// A string argument of a refused call is kept up to this many bytes: the
/// model is to correct what it sent, and shown it cut, a small model sent
/// the cut text back, mark and all (Qwen2.5-Coder 1.5B, twice in a row).
pub const KEPT_REFUSED_ARGUMENT: usize = 6 * 1024;

/// Calls as the conversation keeps them: long string arguments cut.
pub(super) fn shortened(calls: &[ToolCall]) -> Vec<ToolCall> {
    calls.iter().map(|call| cut(call, KEPT_ARGUMENT)).collect()
}

/// `call` with its string arguments cut to `max` bytes.
pub(super) fn cut(call: &ToolCall, max: usize) -> ToolCall {
    let mut call = call.clone();
    if let Some(args) = call.arguments.as_object_mut() {
        for value in args.values_mut() {
            if let Some(text) = value.as_str()
                && text.len() > max
            {
                let cut = crate::state::guard::floor_char_boundary(text, max);
                *value = format!("{}… [{} bytes in all]", &text[..cut], text.len()).into();
            }
        }
    }
    call
}

/// `text` cut to about `max` bytes: its head and its tail, with a line that
/// says how much was left out.
pub fn head_and_tail(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let half = max / 2;
    let head = crate::state::guard::floor_char_boundary(text, half);
    let mut tail = text.len() - half;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}\n[... {} bytes cut ...]\n{}",
        &text[..head],
        tail - head,
        &text[tail..]
    )
}
