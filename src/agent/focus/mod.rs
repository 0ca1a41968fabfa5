//! The active subtask's own part of the conversation, and what the model is
//! told to do next from it. A small model does best when it sees only the
//! work of the step it is on, is told in one line what to do now, and is
//! given the exact call to write: it did the work of a subtask and then
//! described it in prose, re-ran a failing command instead of fixing the
//! file, and copied the words of its rules ("what you did") as its answer.
//!
//! Everything here decides from typed facts: the calls' outcomes the state
//! keeps ([`crate::state::CallFact`]) and the tree's subtask kinds. A result's
//! text is only quoted, and a failed command's output read through the
//! language seam.

mod check;
mod last;
mod next_step;
#[cfg(test)]
mod tests;

use crate::chat::Message;
use crate::state::{CallFact, Came, State, SubtaskKind};
pub use check::{
    bare_program, check_command, check_expects, check_passed, check_unknown, given_check, run_call,
    wanted_input,
};
pub use last::{
    Last, acted, answer_written, changed_files, checked_failure, claim_refused, completion_refused,
    edit_made_for_claim, failed_output, gave_up_before, last, refused_in_subtask,
    tests_failed_since, unchanged, unreadable_write, unwired, unwired_still,
    write_refused_in_subtask,
};
pub use next_step::{
    Ending, Repair, Shown, after_work, differ, failing_assert, fix_failure, goal_repair, kept_test,
    next_step, repair, staying, where_option_is_read, wrote_back,
};

pub(super) const COMPLETE: &str = "mark_subtask_complete";

/// The exchanges of the active subtask: those from its first exchange on.
/// What came before belongs to work that is done; a small model shown it
/// does it again.
pub fn current_exchanges(state: &State) -> impl Iterator<Item = &Vec<Message>> {
    state.conversation.iter().skip(subtask_start(state))
}

/// The place in `conversation` of the active subtask's first exchange.
pub(super) fn subtask_start(state: &State) -> usize {
    let start = state
        .subtask_exchange
        .saturating_sub(state.first_exchange());
    usize::try_from(start).map_or(state.conversation.len(), |start| {
        start.min(state.conversation.len())
    })
}

/// What the calls of the active subtask came to, in order.
fn calls(state: &State) -> impl Iterator<Item = &CallFact> {
    let first = state.subtask_exchange.max(state.first_exchange());
    state
        .calls
        .iter()
        .filter(move |fact| fact.exchange >= first)
}

/// The last call of the active subtask was a `note`, kept or blocked: a
/// note after it that says the same is a loop (d1's fizzbuzz noted the
/// runner's advice eight rounds in a row and did nothing).
pub(super) fn noted_last(state: &State) -> bool {
    calls(state)
        .last()
        .is_some_and(|fact| fact.tool == "note" && matches!(fact.came, Came::Noted | Came::Blocked))
}

/// The calls of tools (not `note` nor the completion) in the active subtask.
fn tool_calls(state: &State) -> impl Iterator<Item = &CallFact> {
    calls(state).filter(|fact| fact.tool != "note" && fact.tool != COMPLETE)
}

/// The tool result the model was shown for a call ("" when the state no
/// longer holds it).
fn result_of<'a>(state: &'a State, fact: &CallFact) -> &'a str {
    fact.exchange
        .checked_sub(state.first_exchange())
        .and_then(|at| usize::try_from(at).ok())
        .and_then(|at| state.conversation.get(at))
        .and_then(|exchange| exchange.get(fact.message))
        .map_or("", |message| message.content.as_str())
}

/// The call a fact is of, as the conversation keeps it: the reply that
/// opens its exchange, at the place of its result among the results.
fn call_of<'a>(state: &'a State, fact: &CallFact) -> Option<&'a crate::chat::ToolCall> {
    let at = usize::try_from(fact.exchange.checked_sub(state.first_exchange())?).ok()?;
    let exchange = state.conversation.get(at)?;
    let reply = exchange.first()?;
    let results_before = exchange
        .get(1..fact.message)?
        .iter()
        .filter(|message| message.role == crate::chat::Role::Tool)
        .count();
    reply.tool_calls.get(results_before)
}

/// The files a reply may give as code blocks: those the run wrote, those
/// that were there before it and still are, and the one the active subtask
/// is to write. A small model asked to fix `calc.py` under a subtask that
/// named the test file gave "Here's the corrected `calc.py`:" and the whole
/// file, right, four times, and it was never written.
pub fn known_paths(state: &State) -> Vec<String> {
    let baseline = &state.baseline;
    let mut paths: Vec<String> =
        state
            .files
            .keys()
            .filter(|path| !state.missing.contains(*path))
            .chain(baseline.files.keys().filter(|path| {
                !baseline.deleted.contains(*path) && !state.files.contains_key(*path)
            }))
            .cloned()
            .collect();
    if let Some((_, subtask)) = state.tree.active()
        && let SubtaskKind::Write { path } = &subtask.kind
        && !paths.contains(path)
    {
        paths.push(path.clone());
    }
    paths
}
