//! What the model is sent each round: the system prompt, the last exchanges
//! of the conversation, and the context block with the labels of the design.

use crate::chat::Message;
use crate::model::{ChatRequest, Options};
use crate::settings::Settings;
use crate::state::{State, Status};
use crate::tools;

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

pub fn system_prompt(settings: &Settings) -> String {
    format!(
        "You are runner, a coding agent working in a folder on the user's machine (the workspace). \
You act only by calling tools: list_dir, read_file, write_file, run_cmd, mark_subtask_complete, note.\n\
Rules:\n\
- Work on the ACTIVE SUBTASK shown in the latest context, one tool call at a time.\n\
- Paths are relative to the workspace.\n\
- write_file writes the whole file: give the complete content.\n\
- run_cmd runs one program without a shell (no pipes, no &&). Allowed programs: {}.\n\
- After writing code, run it or its tests to check that it works.\n\
- When the ACTIVE SUBTASK is done, call mark_subtask_complete with success=true and what you did. \
If it cannot be done, call it with success=false and why.\n\
- Nobody answers questions: decide yourself and act.",
        settings.tools.allowed.join(", ")
    )
}

/// The context block: facts from the state and the probe, one label a line.
pub fn context_block(state: &State, settings: &Settings, lessons: Option<&str>) -> String {
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
    lines.push(String::new());
    lines.push(
        "Call one tool now for the ACTIVE SUBTASK. When it is done, call mark_subtask_complete."
            .into(),
    );
    lines.join("\n")
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
    let mut messages = vec![Message::system(system_prompt(settings))];
    let keep = (settings.history_keep >> state.pressure)
        .max(1)
        .min(state.conversation.len());
    let result_max = RESULT_MAX >> state.pressure;
    let skip = state.conversation.len() - keep;
    for exchange in state.conversation.iter().skip(skip) {
        messages.extend(exchange.iter().map(|m| shorten(m, result_max)));
    }
    messages.push(Message::user(context_block(state, settings, lessons)));
    ChatRequest {
        messages,
        tools: tools::specs().to_vec(),
        format: None,
        options: Options {
            temperature: settings.temperature,
            num_ctx,
            num_predict: Some(settings.num_predict),
        },
    }
}

/// A message as it is sent again: long tool results cut (long arguments
/// were cut when the state kept the message).
fn shorten(message: &Message, result_max: usize) -> Message {
    let mut message = message.clone();
    if message.role == crate::chat::Role::Tool {
        message.content = crate::state::head_and_tail(&message.content, result_max);
    }
    message
}
