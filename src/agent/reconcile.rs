//! An action announced before a crash with no result: decide what became of
//! it instead of running it again blindly.

use crate::state::{ActionOutcome, FileChange, InFlight};
use crate::stop::Stop;
use crate::tools::{Action, Call, Toolbox};

/// The result to record for an interrupted action:
/// - `list_dir`, `read_file`: run again (they change nothing);
/// - `write_file`: the file holds the intended content → it was done; the
///   file is as it was before → write it now; anything else → a conflict the
///   model is told about;
/// - `run_cmd`: its outcome is unknown; the model is told, nothing is re-run.
pub async fn outcome(flight: &InFlight, tools: &Toolbox, stop: &Stop) -> ActionOutcome {
    let action = match tools.parse(&flight.call) {
        Ok(Call::Action(action)) => action,
        _ => return unknown(flight, None),
    };
    match &action {
        _ if action.is_read_only() => tools.execute(&action, stop).await,
        Action::WriteFile { path, content, .. } => {
            let Some(intent) = &flight.write else {
                return unknown(flight, None);
            };
            let now = tools.hash_of(path);
            if now.as_deref() == Some(intent.after.as_str()) {
                ActionOutcome {
                    ok: true,
                    result: format!(
                        "Wrote {} bytes to {path} (the write finished before the runner stopped)",
                        content.len()
                    ),
                    write: Some(FileChange {
                        path: intent.path.clone(),
                        before: intent.before.clone(),
                        after: intent.after.clone(),
                        bytes: content.len() as u64,
                    }),
                    ..ActionOutcome::default()
                }
            } else if now == intent.before {
                tools.execute(&action, stop).await
            } else {
                let error = format!(
                    "write_file {path} was interrupted when the runner stopped, and the file has \
                     changed since; read it before writing it again"
                );
                ActionOutcome {
                    ok: false,
                    result: format!("Error: {error}"),
                    error: Some(error),
                    ..ActionOutcome::default()
                }
            }
        }
        Action::RunCmd { cmd, .. } => unknown(flight, Some(cmd.clone())),
        _ => unknown(flight, None),
    }
}

fn unknown(flight: &InFlight, command: Option<String>) -> ActionOutcome {
    let error = format!(
        "{} was interrupted when the runner stopped; its outcome is unknown. Check its effects \
         (list or read the files) before running it again",
        flight.summary
    );
    ActionOutcome {
        ok: false,
        result: format!("Error: {error}"),
        command,
        error: Some(error),
        ..ActionOutcome::default()
    }
}
