//! Read-only views of a workspace's run, for people: `runner status`.

use std::path::Path;

use crate::app::{AppError, Exit};
use crate::state::{Outcome, State, Status};
use crate::store::Store;

pub fn status(workspace: &Path, json: bool) -> Result<Exit, AppError> {
    let Some((state, warnings)) = Store::read(workspace)? else {
        if json {
            println!("null");
        } else {
            println!(
                "No run in {}. Start one with `runner \"GOAL\"`.",
                workspace.display()
            );
        }
        return Ok(Exit::Achieved);
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&state).unwrap_or_default()
        );
    } else {
        for warning in warnings {
            eprintln!("runner: {warning}");
        }
        print!("{}", render_status(&state, workspace));
    }
    Ok(Exit::Achieved)
}

/// The status as text: goal, tree, cursor, counts, and how to go on.
pub fn render_status(state: &State, workspace: &Path) -> String {
    let mut out = format!("Goal: {}\n", state.goal);
    for (t, task) in state.tree.tasks.iter().enumerate() {
        out.push_str(&format!(
            "{} {}. {}\n",
            mark(task.status),
            t + 1,
            task.description
        ));
        for (s, subtask) in task.subtasks.iter().enumerate() {
            out.push_str(&format!(
                "    {} {}.{} {}",
                mark(subtask.status),
                t + 1,
                s + 1,
                subtask.description
            ));
            if let Some(reason) = &subtask.reason {
                out.push_str(&format!(" ({reason})"));
            }
            out.push('\n');
        }
    }
    if let Some(cursor) = state.tree.cursor {
        out.push_str(&format!(
            "Cursor: subtask {}.{}\n",
            cursor.task + 1,
            cursor.subtask + 1
        ));
    }
    let status = match &state.ended {
        Some(ending) => format!("{:?}: {}", ending.outcome, ending.reason).to_lowercase(),
        None => "running, or stopped without a word (a crash)".to_string(),
    };
    out.push_str(&format!("Status: {status}\n"));
    out.push_str(&format!(
        "Rounds: {} ({} runs) · model calls: {} · tokens: {} prompt / {} completion · retries: {}\n",
        state.rounds,
        state.runs,
        state.model_calls,
        state.usage.prompt_tokens,
        state.usage.completion_tokens,
        state.retries
    ));
    if !state.blocked.is_empty() {
        out.push_str(&format!("Blocked actions: {}\n", state.blocked.join(" | ")));
    }
    if let Some(flight) = &state.in_flight {
        out.push_str(&format!(
            "Interrupted action: {} (reconciled on resume)\n",
            flight.summary
        ));
    }
    let resumable = !state.tree.is_finished()
        && state
            .ended
            .as_ref()
            .is_none_or(|e| e.outcome != Outcome::Achieved);
    if resumable {
        out.push_str(&format!(
            "Resume with: runner -C {} resume\n",
            shell_quote(workspace)
        ));
    }
    out
}

fn mark(status: Status) -> &'static str {
    match status {
        Status::Completed => "[x]",
        Status::Failed => "[!]",
        Status::InProgress => "[>]",
        Status::Pending => "[ ]",
    }
}

fn shell_quote(path: &Path) -> String {
    shell_words::quote(&path.to_string_lossy()).into_owned()
}
