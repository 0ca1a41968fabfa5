//! Decomposition: the goal into concrete subtasks, with structured output,
//! checked, sent back with the error at most twice, and the goal itself as
//! the single task when that fails.
//!
//! The plan is asked for in the shape a small model fills well: the files to
//! write, each with what it must hold, and one command that checks the work.
//! Each file becomes a subtask "Write PATH: ...", the check a last subtask
//! "Run `CMD` ...": every subtask is one tool step by construction. Asked
//! for steps in prose, a 1.5B model plans "Open a text editor" and "Save the
//! file"; asked for files, it names them. What small models get wrong in
//! such a plan is put right here (see [`files::files_plan`]). The original
//! shape, `{"tasks": [{"description", "subtasks"}]}` or a bare array of
//! tasks, is accepted too.
//!
//! Here the plan is asked for; `parse.rs` reads and checks the answer,
//! `files.rs` turns the files shape into subtasks.

mod existing;
mod files;
mod parse;
mod stdin;
mod unasked;

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::prompt;
use crate::chat::{Message, Usage};
use crate::model::{ChatRequest, Failure, Model, Options};
use crate::settings::Settings;
use crate::state::{Event, TaskPlan};

pub use existing::{
    Points, Stated, arguments_of_checks, arguments_of_given, files_of_checks, inputs_of_checks,
    on_workspace, planned_writes, project_check, show_subtask, tests_of_their_own, to_called,
    to_code_under_test, to_examples, to_failing_code, to_options, to_stated,
};
pub use files::Shape;
pub use parse::{parse, parse_for};
pub use stdin::to_standard_input;
pub use unasked::without_unasked_tests;

/// Corrections sent back before falling back to the goal as the only task.
const CORRECTIONS: usize = 2;

/// What the planner is told, before the goal: the user message of a call in
/// a round's prefix, whose system prompt says to act by calling tools.
const PLANNER: &str = "No tool call now: first plan the work of the coding agent, which writes \
files and runs commands (python3, pytest, pip) in a folder.\n\
Each task writes one file. List the tasks in the order to do them: for each, the file's path and \
what it must hold (the functions it defines, their arguments and what they return; no code).\n\
Then give the one command that checks the work: it runs what the goal asks for (a program with \
the arguments or option the goal names, or the tests), so that its output shows it works.\n\
File names are short, lowercase, with underscores (e.g. word_count.py). Only the files the goal \
asks for: test files only when it asks for tests. Answer with JSON only.";

/// How the answer is asked for, in the user message.
const SHAPE: &str = "{\"tasks\": [{\"path\": \"...\", \"purpose\": \"...\"}], \"check\": \"...\"}";

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tasks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "path": { "type": "string" },
                        "purpose": { "type": "string" }
                    },
                    "required": ["path", "purpose"]
                }
            },
            "check": { "type": "string" }
        },
        "required": ["tasks", "check"]
    })
}

/// What the planner is told of the folder after its instructions (the map
/// is in the head, before them): the project's tests as they are now, and
/// what a plan may do with what is there. Empty for an empty folder.
pub fn workspace_section(files_there: bool, tests_now: &str) -> String {
    if !files_there {
        return String::new();
    }
    let tests_now = tests_now.trim();
    let tests_now = match tests_now.is_empty() {
        true => String::new(),
        false => format!("{tests_now}\n"),
    };
    format!(
        "{tests_now}A task may change a file that is already there: give its path, and in its \
         purpose what to change and what to keep as it is. When the project has tests, the check \
         is the project's own tests.\n\n"
    )
}

/// Asks for a plan; returns the `planned` event. Only a failure of the
/// model itself (unreachable, not pulled) is an error. It is asked in a
/// round's prefix (see [`prompt::answer_request`]), its user message
/// starting with `head`, as every call of the run does (the goal, the
/// lessons, the workspace map: see [`prompt::head`]); what a planner is
/// told comes after it, then `workspace` (see [`workspace_section`]).
/// When no plan comes, `goal` is the single task.
pub async fn plan(
    model: &dyn Model,
    settings: &Settings,
    goal: &str,
    head: &str,
    workspace: &str,
    options: Options,
    existing: &BTreeSet<String>,
) -> Result<Event, Failure> {
    let shape = Shape { goal, existing };
    let first = prompt::answer_request(
        settings,
        format!("{head}\n\n{PLANNER}\n\n{workspace}Answer as {SHAPE}"),
        schema(),
        options,
    );
    let mut messages = first.messages.clone();
    let (mut calls, mut usage, mut retries) = (0, Usage::default(), 0);
    let mut last_error = String::new();
    for _ in 0..=CORRECTIONS {
        let request = ChatRequest {
            messages: messages.clone(),
            ..first.clone()
        };
        let reply = model.chat(&request).await.map_err(|mut failure| {
            failure.retries += retries;
            failure
        })?;
        calls += 1;
        usage += reply.usage;
        retries += reply.retries;
        match parse_for(&reply.content, &shape) {
            Ok(tasks) => {
                return Ok(Event::Planned {
                    tasks,
                    fallback: None,
                    model_calls: calls,
                    usage,
                    retries,
                });
            }
            Err(error) => {
                // agent.log keeps what the planner said: the event keeps
                // only the last error.
                let said: String = reply.content.chars().take(2000).collect();
                tracing::warn!(%error, reply = %said, "a plan that cannot be used");
                messages.push(Message::assistant(reply.content, Vec::new()));
                messages.push(Message::user(format!(
                    "That plan cannot be used: {error}. Answer again with JSON only, shaped as \
                     {SHAPE}."
                )));
                last_error = error;
            }
        }
    }
    Ok(Event::Planned {
        tasks: vec![TaskPlan {
            kinds: Vec::new(),
            description: goal.to_string(),
            subtasks: vec![goal.to_string()],
        }],
        fallback: Some(format!(
            "no valid plan after {} tries ({last_error}); the goal is the single task",
            CORRECTIONS + 1
        )),
        model_calls: calls,
        usage,
        retries,
    })
}
