//! What the model is sent each round: the system prompt, the last exchanges
//! of the conversation, and the context block with the labels of the design.
//! The context block is in `context.rs`.

mod context;

use super::focus;
use crate::chat::{Message, Role};
use crate::model::{ChatRequest, Options, text_calls};
use crate::settings::Settings;
use crate::state::State;
use crate::tools;

pub use context::{context_block, files_budget, plan_lines, written_files};

/// A tool result in the prompt is cut to this many bytes (head and tail),
/// halved at each level of context pressure.
const RESULT_MAX: usize = 12 * 1024;

pub fn system_prompt(settings: &Settings) -> String {
    format!(
        "You are runner, a coding agent working in a folder on the user's machine (the workspace). \
You act only by calling tools: list_dir, read_file, write_file, edit_file, search, run_cmd, mark_subtask_complete, note.\n\
Each reply is exactly one tool call: {{\"name\": \"TOOL\", \"arguments\": {{...}}}}\n\
Rules:\n\
- Work on the ACTIVE SUBTASK shown in the latest message, one tool call at a time.\n\
- Paths are relative to the workspace.\n\
- write_file writes the whole file: give the complete content.\n\
- run_cmd runs one program without a shell (no pipes, no &&). Allowed programs: {}.\n\
- In a Python program, put what runs it (input, loops, printing) under \
`if __name__ == \"__main__\":`, so that tests can import it.\n\
- After writing code, run it or its tests to check that it works.\n\
- When the ACTIVE SUBTASK is done, call mark_subtask_complete with success=true and what you did. \
If it cannot be done, call it with success=false and why.\n\
- Nobody answers questions: decide yourself and act.",
        settings.tools.allowed.join(", ")
    )
}

/// `request` with the workspace map at the end of its system prompt: it
/// changes only when files do, so it sits before the conversation, in the
/// part of the prompt the server's prefix cache keeps from round to round.
pub fn with_workspace(mut request: ChatRequest, map: &str) -> ChatRequest {
    if map.is_empty() {
        return request;
    }
    if let Some(system) = request
        .messages
        .first_mut()
        .filter(|m| m.role == Role::System)
    {
        system.content.push_str("\n\n");
        system.content.push_str(map);
    }
    request
}

/// The request of a round. Under context pressure it keeps fewer exchanges
/// and shorter tool results, so the prompt stays inside the window however
/// long the run.
pub fn request(
    state: &State,
    settings: &Settings,
    num_ctx: u64,
    lessons: Option<&str>,
) -> ChatRequest {
    request_with_files(state, settings, num_ctx, lessons, &[])
}

/// [`request`] with the contents of written files in the context block
/// (see [`written_files`]). Only the exchanges of the active subtask are
/// sent, at most `--history-keep` of them.
pub fn request_with_files(
    state: &State,
    settings: &Settings,
    num_ctx: u64,
    lessons: Option<&str>,
    files: &[(String, String)],
) -> ChatRequest {
    let mut messages = vec![Message::system(system_prompt(settings))];
    let current: Vec<&Vec<Message>> = focus::current_exchanges(state).collect();
    let keep = (settings.history_keep >> state.pressure).max(1);
    // Numbered from the subtask's start, which stays put when the state has
    // dropped its first exchanges.
    let listed = state.first_exchange() + focus::subtask_start(state) as u64;
    let shown = first_shown(state.subtask_exchange, state.exchanges, keep as u64);
    let skip = shown.saturating_sub(listed) as usize;
    let result_max = RESULT_MAX >> state.pressure;
    for exchange in current.iter().skip(skip) {
        messages.extend(
            exchange
                .iter()
                .filter(|m| !empty_reply(m))
                .map(|m| shorten(m, result_max)),
        );
    }
    messages.push(Message::user(context_block(
        state, settings, lessons, files,
    )));
    ChatRequest {
        messages,
        tools: tools::specs().to_vec(),
        format: None,
        options: Options {
            temperature: retry_temperature(state, settings.temperature),
            num_ctx,
            num_predict: Some(settings.num_predict),
        },
    }
}

/// The number of the first exchange sent, of the active subtask's exchanges
/// `first..end`: all of them while they are at most `keep`; past that, the
/// window moves in steps of half of `keep`, so what is sent before the last
/// exchange (the prefix the server keeps in its cache) stays the same for
/// several rounds instead of changing every round, and never more than
/// `keep` exchanges are sent.
fn first_shown(first: u64, end: u64, keep: u64) -> u64 {
    if end - first <= keep {
        return first;
    }
    let step = keep.div_ceil(2).max(1);
    first + (end - first - keep).div_ceil(step) * step
}

/// Each correction of this round and each nudge of this subtask raises the
/// temperature by this, up to [`MAX_RETRY_TEMPERATURE`]: asked again at the
/// same temperature, a small model writes the same broken reply again.
const RETRY_STEP: f32 = 0.2;
const MAX_RETRY_TEMPERATURE: f32 = 1.0;

/// The temperature of a round's request: `--temperature`, raised when the
/// model is asked again (never lowered below what the user set).
pub fn retry_temperature(state: &State, temperature: f32) -> f32 {
    match state.corrections + state.nudges {
        0 => temperature,
        again => {
            (temperature + RETRY_STEP * again as f32).min(MAX_RETRY_TEMPERATURE.max(temperature))
        }
    }
}

/// A reply with neither text nor a call. It is not sent again: the nudge
/// after it says what was missing, and a small model shown its own empty
/// turns answers empty again (Qwen2.5-Coder 1.5B did three rounds in a row,
/// twice, each turn one token).
fn empty_reply(message: &Message) -> bool {
    message.role == Role::Assistant
        && message.tool_calls.is_empty()
        && message.content.trim().is_empty()
}

/// A message as it is sent again: long tool results cut (long arguments
/// were cut when the state kept the message), and the text of a reply whose
/// calls were found in it left out: the calls are sent as calls, and a
/// model shown both copies both, one more each round.
fn shorten(message: &Message, result_max: usize) -> Message {
    let mut message = message.clone();
    match message.role {
        Role::Tool => {
            message.content = crate::state::head_and_tail(&message.content, result_max);
        }
        Role::Assistant
            if !message.tool_calls.is_empty()
                && !text_calls::extract(&message.content, &tools::names()).is_empty() =>
        {
            message.content.clear();
        }
        _ => {}
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_asked_again_is_asked_warmer() {
        let mut state = State::default();
        assert_eq!(retry_temperature(&state, 0.2), 0.2);
        state.corrections = 1;
        assert!((retry_temperature(&state, 0.2) - 0.4).abs() < 1e-6);
        state.nudges = 2;
        assert!((retry_temperature(&state, 0.2) - 0.8).abs() < 1e-6);
        state.nudges = 9;
        assert_eq!(retry_temperature(&state, 0.2), 1.0);
        // What the user set above the cap stays.
        assert_eq!(retry_temperature(&state, 1.5), 1.5);
    }

    #[test]
    fn the_window_of_exchanges_moves_in_steps_so_the_prefix_is_kept() {
        let mut starts = Vec::new();
        for end in 0..=20u64 {
            let first = first_shown(0, end, 5);
            assert!(end - first <= 5, "at most keep exchanges are sent");
            starts.push(first);
        }
        // All five while they fit, then steps of three.
        assert_eq!(&starts[..6], &[0, 0, 0, 0, 0, 0]);
        assert_eq!(&starts[6..12], &[3, 3, 3, 6, 6, 6]);
        let moves = starts.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(
            moves, 5,
            "the prefix changes once every three rounds, not every round"
        );
        // A new subtask starts its own window.
        assert_eq!(first_shown(17, 19, 5), 17);
    }

    #[test]
    fn a_long_subtask_is_sent_in_a_window_that_keeps_its_start_for_rounds() {
        let settings = Settings::new("/nowhere".into());
        let mut state = State::default();
        let mut prefixes = Vec::new();
        for n in 0..12 {
            // What begin_exchange does: count, keep at most eight.
            state.exchanges += 1;
            state
                .conversation
                .push_back(vec![Message::assistant(format!("reply {n}"), vec![])]);
            while state.conversation.len() > crate::state::KEPT_EXCHANGES {
                state.conversation.pop_front();
            }
            let sent = request(&state, &settings, 8192, None).messages;
            assert!(sent.len() - 2 <= settings.history_keep);
            prefixes.push(sent[1].content.clone());
        }
        let changes = prefixes.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(changes <= 3, "{prefixes:?}");
    }

    #[test]
    fn an_empty_reply_is_not_sent_again_but_the_nudge_after_it_is() {
        let mut state = State {
            exchanges: 2,
            ..State::default()
        };
        state.conversation.push_back(vec![
            Message::assistant("", vec![]),
            Message::user("You answered without calling a tool"),
        ]);
        state.conversation.push_back(vec![
            Message::assistant("I will write it.", vec![]),
            Message::user("Call a tool now"),
        ]);
        let settings = Settings::new("/nowhere".into());
        let sent = request(&state, &settings, 8192, None).messages;
        let roles: Vec<(Role, &str)> = sent[1..sent.len() - 1]
            .iter()
            .map(|m| (m.role, m.content.as_str()))
            .collect();
        assert_eq!(
            roles,
            [
                (Role::User, "You answered without calling a tool"),
                (Role::Assistant, "I will write it."),
                (Role::User, "Call a tool now"),
            ]
        );
    }
}
