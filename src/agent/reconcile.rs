//! An action announced before a crash with no result: decide what became of
//! it instead of running it again blindly.

use crate::state::{ActionOutcome, FileChange, InFlight};
use crate::stop::Stop;
use crate::tools::{Action, Call, Toolbox, workspace};

/// The words the model and a person see for an action whose result was
/// lost; the tests look for them too.
pub const UNKNOWN: &str = "interrupted, outcome unknown";

/// The result to record for an interrupted action:
/// - `list_dir`, `read_file`: run again (they change nothing);
/// - `write_file` and `edit_file`: the file holds the intended content → it was done; the
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
        Action::WriteFile { path, .. } | Action::EditFile { path, .. } => {
            workspace::remove_stale_temps(tools.root(), path);
            let Some(intent) = &flight.write else {
                return unknown(flight, None);
            };
            let now = tools.hash_of(path);
            if now.as_deref() == Some(intent.after.as_str()) {
                let bytes = tools.contents(path).map_or(0, |bytes| bytes.len() as u64);
                ActionOutcome {
                    ok: true,
                    result: format!(
                        "Wrote {bytes} bytes to {path} (the {} finished before the runner stopped)",
                        action.tool()
                    ),
                    write: Some(FileChange {
                        path: intent.path.clone(),
                        before: intent.before.clone(),
                        after: intent.after.clone(),
                        bytes,
                        removed: Vec::new(),
                    }),
                    ..ActionOutcome::default()
                }
            } else if now == intent.before {
                tools.execute(&action, stop).await
            } else {
                let error = format!(
                    "{} {path} was interrupted when the runner stopped, and the file has \
                     changed since; read it before writing it again",
                    action.tool()
                );
                ActionOutcome {
                    interrupted: true,
                    ..ActionOutcome::failed(error)
                }
            }
        }
        Action::RunCmd { cmd, .. } => unknown(flight, Some(cmd.clone())),
        _ => unknown(flight, None),
    }
}

fn unknown(flight: &InFlight, command: Option<String>) -> ActionOutcome {
    let error = format!(
        "{}: {UNKNOWN} (the runner stopped while it ran, and it was not run again). Check its \
         effects (list or read the files) before running it again",
        flight.summary
    );
    ActionOutcome {
        command,
        interrupted: true,
        ..ActionOutcome::failed(error)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::chat::ToolCall;
    use crate::state::WriteIntent;
    use crate::tools::{ToolConfig, sha256_hex};

    fn flight(name: &str, arguments: serde_json::Value, write: Option<WriteIntent>) -> InFlight {
        InFlight {
            action: 7,
            call: ToolCall {
                name: name.into(),
                arguments,
            },
            summary: format!("{name} (summary)"),
            write,
        }
    }

    fn write_flight(before: Option<&str>) -> InFlight {
        flight(
            "write_file",
            json!({"path": "a.py", "content": "new\n"}),
            Some(WriteIntent {
                path: "a.py".into(),
                before: before.map(|b| sha256_hex(b.as_bytes())),
                after: sha256_hex(b"new\n"),
            }),
        )
    }

    async fn reconcile(dir: &std::path::Path, flight: &InFlight) -> ActionOutcome {
        let tools = Toolbox::new(dir, ToolConfig::default());
        outcome(flight, &tools, &Stop::never()).await
    }

    #[tokio::test]
    async fn a_command_is_never_run_again() {
        let dir = tempfile::tempdir().unwrap();
        let flight = flight(
            "run_cmd",
            json!({"cmd": "python3 -c \"open('ran','w')\""}),
            None,
        );
        let outcome = reconcile(dir.path(), &flight).await;
        assert!(!dir.path().join("ran").exists());
        assert!(!outcome.ok && outcome.interrupted);
        assert!(outcome.result.contains(UNKNOWN), "{}", outcome.result);
        assert_eq!(outcome.exit_code, None);
        assert!(outcome.command.is_some(), "shown under RECENT COMMANDS");
    }

    #[tokio::test]
    async fn a_write_that_finished_is_recorded_one_never_begun_is_done_and_a_changed_file_is_a_conflict()
     {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.py");
        std::fs::write(&file, "new\n").unwrap();
        let done = reconcile(dir.path(), &write_flight(Some("old\n"))).await;
        assert!(done.ok && !done.interrupted, "{}", done.result);
        assert!(done.result.contains("finished before"), "{}", done.result);

        std::fs::write(&file, "old\n").unwrap();
        let temp = dir.path().join(".runner-4242-0badf00d.tmp");
        std::fs::write(&temp, "ne").unwrap();
        let redone = reconcile(dir.path(), &write_flight(Some("old\n"))).await;
        assert!(redone.ok, "{}", redone.result);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new\n");
        assert!(!temp.exists(), "the interrupted write's temp file is gone");

        std::fs::write(&file, "someone else's\n").unwrap();
        let conflict = reconcile(dir.path(), &write_flight(Some("old\n"))).await;
        assert!(!conflict.ok && conflict.interrupted);
        assert!(
            conflict.result.contains("changed since"),
            "{}",
            conflict.result
        );
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "someone else's\n",
            "a conflict overwrites nothing"
        );
    }

    #[tokio::test]
    async fn an_interrupted_edit_is_reconciled_by_its_hashes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("calc.py");
        let edit = |before: &str| {
            flight(
                "edit_file",
                json!({"path": "calc.py", "old": "- 1", "new": "+ 0"}),
                Some(WriteIntent {
                    path: "calc.py".into(),
                    before: Some(sha256_hex(before.as_bytes())),
                    after: sha256_hex(b"x = 2 + 0\n"),
                }),
            )
        };
        std::fs::write(&file, "x = 2 - 1\n").unwrap();
        let redone = reconcile(dir.path(), &edit("x = 2 - 1\n")).await;
        assert!(redone.ok, "{}", redone.result);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 2 + 0\n");
        assert!(redone.write.unwrap().changed());

        let done = reconcile(dir.path(), &edit("x = 2 - 1\n")).await;
        assert!(
            done.ok && done.result.contains("finished before"),
            "{}",
            done.result
        );

        std::fs::write(&file, "x = 5 - 1\n").unwrap();
        let conflict = reconcile(dir.path(), &edit("x = 2 - 1\n")).await;
        assert!(!conflict.ok && conflict.result.contains("changed since"));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 5 - 1\n");
    }

    #[tokio::test]
    async fn a_read_is_run_again() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.py"), "print(1)\n").unwrap();
        let flight = flight("read_file", json!({"path": "a.py"}), None);
        let outcome = reconcile(dir.path(), &flight).await;
        assert!(
            outcome.ok && outcome.result.contains("print(1)"),
            "{}",
            outcome.result
        );
    }
}
