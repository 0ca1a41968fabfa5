//! What the model is sent each round: the system prompt, the last exchanges
//! of the conversation, and the context block with the labels of the design.

use super::focus;
use crate::chat::{Message, Role};
use crate::model::{ChatRequest, Options, text_calls};
use crate::settings::Settings;
use crate::state::{State, Status};
use crate::tools::{self, Toolbox};

/// Errors shown under RECENT ERRORS.
const SHOWN_ERRORS: usize = 3;
/// Notes shown under NOTES.
const SHOWN_NOTES: usize = 10;
/// Files named under FILES CREATED; a long run names the latest.
const SHOWN_FILES: usize = 30;
/// A tool result in the prompt is cut to this many bytes (head and tail),
/// halved at each level of context pressure.
const RESULT_MAX: usize = 12 * 1024;
/// Blocked signatures named under BLOCKED ACTIONS.
const SHOWN_BLOCKED: usize = 5;
/// Bytes of file contents in the context block: the few files of a small
/// job whole (a 1.5B model writes modules of 1-3 KB), a large one in part.
const FILES_BUDGET: usize = 8 * 1024;
/// One file's share at most, so that one large file does not hide the rest.
const FILE_MAX: usize = 4 * 1024;
/// Files whose contents are shown at most: as many as a plan has (each one
/// costs a read every round).
const SHOWN_CONTENTS: usize = 6;
/// Less room than this left: the next file is not shown at all.
const FILE_MIN: usize = 256;

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

/// The context block: facts from the state and the probe, one label a line,
/// the contents of the files the run wrote, and what to do now.
pub fn context_block(
    state: &State,
    settings: &Settings,
    lessons: Option<&str>,
    contents: &[(String, String)],
) -> String {
    let mut lines = vec![format!("GOAL: {}", state.goal)];
    let tasks = &state.tree.tasks;
    match state.tree.cursor {
        Some(cursor) => {
            let task = &tasks[cursor.task];
            lines.push(format!(
                "CURRENT TASK: {} (task {}/{})",
                task.description,
                cursor.task + 1,
                tasks.len()
            ));
            lines.push(format!(
                "ACTIVE SUBTASK: {} (subtask {}/{})",
                task.subtasks[cursor.subtask].description,
                cursor.subtask + 1,
                task.subtasks.len()
            ));
        }
        None => {
            lines.push("CURRENT TASK: (none: every subtask has ended)".into());
            lines.push("ACTIVE SUBTASK: (none)".into());
        }
    }
    let files: Vec<String> = state
        .files
        .keys()
        .rev()
        .take(SHOWN_FILES)
        .rev()
        .map(|path| {
            if state.missing.contains(path) {
                format!("{path} (missing now)")
            } else {
                path.clone()
            }
        })
        .collect();
    lines.push(format!("FILES CREATED: {}", or_none(files.join(", "))));
    if let Some(line) = existing_files_line(state) {
        lines.push(line);
    }
    let commands: Vec<String> = state
        .commands
        .iter()
        .map(|run| match run.exit_code {
            Some(code) => format!("{} -> rc={code}", run.command),
            None => format!("{} -> killed", run.command),
        })
        .collect();
    lines.push(format!("RECENT COMMANDS: {}", or_none(commands.join("; "))));
    let errors: Vec<&str> = state
        .errors
        .iter()
        .rev()
        .take(SHOWN_ERRORS)
        .rev()
        .map(String::as_str)
        .collect();
    lines.push(format!("RECENT ERRORS: {}", or_none(errors.join(" | "))));
    let blocked = &state.blocked[state.blocked.len().saturating_sub(SHOWN_BLOCKED)..];
    lines.push(format!("BLOCKED ACTIONS: {}", or_none(blocked.join(" | "))));
    if let Some(flight) = &state.in_flight {
        lines.push(format!(
            "INTERRUPTED ACTION: {} (the runner stopped while it ran)",
            flight.summary
        ));
    }
    if !state.notes.is_empty() {
        let start = state.notes.len().saturating_sub(SHOWN_NOTES);
        lines.push(format!("NOTES: {}", state.notes[start..].join(" | ")));
    }
    if let Some(lessons) = lessons {
        lines.push(format!("LESSONS (from earlier runs here):\n{lessons}"));
    }
    lines.push(format!(
        "ROUNDS LEFT: {}",
        settings.max_rounds.saturating_sub(state.run_rounds)
    ));
    lines.push(format!("PLAN:\n{}", plan_lines(state)));
    for (path, content) in contents {
        lines.push(format!(
            "CONTENT OF {path}:\n```\n{}\n```",
            content.trim_end()
        ));
    }
    lines.push(String::new());
    lines.push(focus::next_step(state, contents));
    lines.join("\n")
}

/// The files the run wrote that exist now, with their text, for the
/// context block: the truth of the workspace, which a model writing tests
/// for a module, or fixing a failing run, needs in front of it. At most
/// `budget` bytes in all (each file cut to its head and tail).
pub fn written_files(state: &State, tools: &Toolbox, budget: usize) -> Vec<(String, String)> {
    let mut shown = Vec::new();
    let mut left = budget;
    for path in state.files.keys().rev().take(SHOWN_CONTENTS) {
        if left < FILE_MIN || state.missing.contains(path) {
            continue;
        }
        let Some(text) = tools.excerpt(path, left.min(FILE_MAX)) else {
            continue;
        };
        left = left.saturating_sub(text.len());
        shown.push((path.clone(), text));
    }
    shown.reverse();
    shown
}

/// The files there before the run that the run changed or deleted, as the
/// last probe found them; `None` when there are none.
fn existing_files_line(state: &State) -> Option<String> {
    let baseline = &state.baseline;
    let mut parts = Vec::new();
    if !baseline.changed.is_empty() {
        parts.push(format!("changed {}", baseline.changed.join(", ")));
    }
    if !baseline.deleted.is_empty() {
        parts.push(format!("deleted {}", baseline.deleted.join(", ")));
    }
    (!parts.is_empty()).then(|| format!("FILES THERE BEFORE THE RUN: {}", parts.join("; ")))
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

fn or_none(text: String) -> String {
    if text.is_empty() {
        "(none)".into()
    } else {
        text
    }
}

/// The tree, one line a subtask, with a mark for its status.
pub fn plan_lines(state: &State) -> String {
    let mut lines = Vec::new();
    for (t, task) in state.tree.tasks.iter().enumerate() {
        for (s, subtask) in task.subtasks.iter().enumerate() {
            let mark = match subtask.status {
                Status::Completed => "[x]",
                Status::Failed => "[!]",
                Status::InProgress => "[>]",
                Status::Pending => "[ ]",
            };
            lines.push(format!(
                "  {mark} {}.{} {}",
                t + 1,
                s + 1,
                subtask.description
            ));
        }
    }
    lines.join("\n")
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

/// The byte budget of file contents in the context block, halved at each
/// level of context pressure.
pub fn files_budget(state: &State) -> usize {
    FILES_BUDGET >> state.pressure
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
