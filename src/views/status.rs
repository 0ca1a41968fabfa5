//! `runner status`: the goal, the tree, the cursor, the counts, and how to go
//! on. Read-only: works on a crashed run and beside a running one.

use std::path::Path;

use super::{Paint, outcome_word, running_pid, shell_quote};
use crate::error::{AppError, Exit};
use crate::state::{Outcome, State, Status};
use crate::store::Store;

pub fn status(workspace: &Path, json: bool) -> Result<Exit, AppError> {
    // A run whose log was emptied would show as an empty crashed run.
    super::lost_log::check(workspace, false)?;
    let Some((state, warnings)) = Store::read(workspace)? else {
        if json {
            crate::outln!("null");
        } else {
            crate::outln!(
                "No run in {}. Start one with `runner \"GOAL\"`.",
                workspace.display()
            );
        }
        return Ok(Exit::Achieved);
    };
    for warning in warnings {
        crate::paint::warning(&warning);
    }
    if json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&state).unwrap_or_default()
        );
    } else {
        let running = running_pid(workspace);
        crate::out!(
            "{}",
            render_status(&state, workspace, running, &Paint::stdout())
        );
    }
    Ok(Exit::Achieved)
}

/// The status as text: goal, tree, cursor, counts, and how to go on.
/// `running` is the pid of a runner working on it now.
pub fn render_status(
    state: &State,
    workspace: &Path,
    running: Option<u32>,
    paint: &Paint,
) -> String {
    let mut out = format!("Goal: {}\n", paint.bold.apply_to(&state.goal));
    if !state.model.is_empty() {
        out.push_str(&format!("Model: {}\n", state.model));
    }
    for (t, task) in state.tree.tasks.iter().enumerate() {
        out.push_str(&format!(
            "{} {}. {}\n",
            mark(task.status, paint),
            t + 1,
            task.description
        ));
        for (s, subtask) in task.subtasks.iter().enumerate() {
            out.push_str(&format!(
                "    {} {}.{} {}",
                mark(subtask.status, paint),
                t + 1,
                s + 1,
                subtask.description
            ));
            if let Some(reason) = &subtask.reason {
                out.push_str(&format!(" {}", paint.dim.apply_to(format!("({reason})"))));
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
    let status = match (&state.ended, running) {
        (_, Some(pid)) => format!("running (pid {pid})"),
        (Some(ending), None) => format!("{}: {}", outcome_word(ending.outcome), ending.reason),
        (None, None) => "stopped without a word (a crash or a kill); resume to go on".to_string(),
    };
    out.push_str(&format!("Status: {status}\n"));
    out.push_str(&format!(
        "Rounds: {} ({} {}) · model calls: {} · tokens: {} prompt / {} completion{} · retries: {}\n",
        state.rounds,
        state.runs,
        if state.runs == 1 { "run" } else { "runs" },
        state.model_calls,
        state.usage.prompt_tokens,
        state.usage.completion_tokens,
        state.usage.cache_note(),
        state.retries
    ));
    for check in &state.checks {
        let how = match check.exit_code {
            Some(0) => paint.ok.apply_to("passed".to_string()),
            Some(code) if check.wants_arguments => paint.ok.apply_to(format!(
                "stopped for the arguments it reads (exit code {code}; not counted)"
            )),
            Some(code) => paint.bad.apply_to(format!("failed (exit code {code})")),
            None => paint.bad.apply_to("did not finish".to_string()),
        };
        let tests = check
            .tests
            .map(|t| format!(", {} tests passed, {} failed", t.passed, t.failed))
            .unwrap_or_default();
        out.push_str(&format!("Check: `{}` {how}{tests}\n", check.command));
    }
    if !state.requirements.is_empty() {
        out.push_str("Requirements:\n");
        for requirement in &state.requirements {
            let mark = match requirement.met {
                true => paint.ok.apply_to("✓"),
                false => paint.bad.apply_to("✗"),
            };
            out.push_str(&format!(
                "    {mark} {} {}\n",
                requirement.requirement,
                paint.dim.apply_to(format!("({})", requirement.evidence))
            ));
        }
    }
    if !state.files.is_empty() {
        let files: Vec<&str> = state.files.keys().map(String::as_str).collect();
        out.push_str(&format!("Files written: {}\n", files.join(", ")));
    }
    if !state.missing.is_empty() {
        out.push_str(&format!(
            "Files gone since: {}\n",
            paint.bad.apply_to(state.missing.join(", "))
        ));
    }
    if !state.blocked.is_empty() {
        out.push_str(&format!(
            "Blocked actions: {}\n",
            paint.bad.apply_to(state.blocked.join(" | "))
        ));
    }
    if let Some(flight) = &state.in_flight {
        out.push_str(&format!(
            "Interrupted action: {} {}\n",
            flight.summary,
            paint.dim.apply_to("(reconciled on resume)")
        ));
    }
    let resumable = running.is_none()
        && !state.tree.is_finished()
        && state
            .ended
            .as_ref()
            .is_none_or(|e| e.outcome != Outcome::Achieved);
    if resumable {
        out.push_str(&format!(
            "Resume with: {}\n",
            resume_command(state, workspace)
        ));
    }
    out
}

/// The command that goes on with this run. `resume` reuses the model and
/// server the run recorded; a log from before they were recorded needs the
/// model named (the default model or OLLAMA_MODEL may be another one now).
fn resume_command(state: &State, workspace: &Path) -> String {
    let mut command = format!(
        "runner -C {} resume",
        shell_quote(&workspace.to_string_lossy())
    );
    if state.server.host.is_none() && !state.model.is_empty() {
        command.push_str(&format!(" --model {}", shell_quote(&state.model)));
    }
    command
}

fn mark(status: Status, paint: &Paint) -> String {
    match status {
        Status::Completed => paint.ok.apply_to("[x]").to_string(),
        Status::Failed => paint.bad.apply_to("[!]").to_string(),
        Status::InProgress => paint.bold.apply_to("[>]").to_string(),
        Status::Pending => "[ ]".to_string(),
    }
}
