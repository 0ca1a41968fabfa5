//! The focus, tested through the state as `apply` builds it.

mod check;
mod last;

use super::*;
use crate::chat::ToolCall;
use crate::state::{
    ActionOutcome, Came, CommandEnd, Event, FileChange, FileRecord, RefusalKind, TaskPlan,
};
use pretty_assertions::assert_eq;

/// What one call of a test's exchange came to.
enum Did {
    Ran(ActionOutcome),
    Refused(RefusalKind, &'static str),
    Note,
    Complete,
}

fn state() -> State {
    let mut state = State::default();
    apply(
        &mut state,
        Event::Planned {
            tasks: vec![TaskPlan {
                kinds: vec![
                    SubtaskKind::Write {
                        path: "a.py".into(),
                    },
                    SubtaskKind::Check {
                        cmd: "python3 -m pytest -q".into(),
                    },
                ],
                description: "t".into(),
                subtasks: vec!["Write a.py".into(), "Run `python3 -m pytest -q`".into()],
            }],
            fallback: None,
            model_calls: 0,
            usage: Default::default(),
            retries: 0,
        },
    );
    for path in ["a.py", "test_a.py"] {
        state.files.insert(
            path.into(),
            FileRecord {
                sha256: String::new(),
                created: true,
                ..FileRecord::default()
            },
        );
    }
    state
}

fn apply(state: &mut State, event: Event) {
    state.apply_next(event);
}

/// A reply with these calls, each recorded as it came to.
fn exchange(state: &mut State, calls: Vec<(&str, Did)>) {
    apply(
        state,
        Event::ModelReplied {
            content: String::new(),
            calls: calls
                .iter()
                .map(|(tool, _)| ToolCall {
                    name: tool.to_string(),
                    arguments: serde_json::json!({}),
                })
                .collect(),
            from_text: false,
            usage: Default::default(),
            retries: 0,
            done_reason: None,
            question: false,
        },
    );
    for (call, (tool, did)) in calls.into_iter().enumerate() {
        let event = match did {
            Did::Ran(outcome) => {
                apply(
                    state,
                    Event::ActionStarted {
                        call,
                        tool: tool.into(),
                        summary: tool.into(),
                        signature: format!("{tool} {}", state.last_seq),
                        write: None,
                    },
                );
                Event::ActionFinished {
                    action: state.last_seq,
                    outcome,
                }
            }
            Did::Refused(kind, error) => Event::CallRejected {
                call,
                tool: tool.into(),
                kind,
                error: error.into(),
                signature: None,
                seen: None,
            },
            Did::Note => Event::Noted {
                call,
                text: "n".into(),
            },
            Did::Complete => {
                let cursor = state.tree.cursor.unwrap();
                Event::SubtaskEnded {
                    call: Some(call),
                    task: cursor.task,
                    subtask: cursor.subtask,
                    success: true,
                    reason: "done".into(),
                }
            }
        };
        apply(state, event);
    }
}

/// `cmd` ran to `code`; `output` is what followed its status line.
fn ran(cmd: &str, code: i32, output: &str) -> Did {
    let end = CommandEnd::Exited { code };
    Did::Ran(ActionOutcome {
        ok: code == 0,
        result: format!("$ {cmd}\n{}{output}", end.describe()),
        command: Some(cmd.into()),
        exit_code: Some(code),
        end: Some(end),
        ..ActionOutcome::default()
    })
}

/// The write subtask ended: a.py written, then marked complete; the
/// check subtask is active.
fn wrote_a_and_completed(state: &mut State) {
    exchange(
        state,
        vec![
            ("write_file", wrote("a.py", true)),
            (COMPLETE, Did::Complete),
        ],
    );
}

/// A write of `path` that changed it, or found that content there.
fn wrote(path: &str, changed: bool) -> Did {
    let result = match changed {
        true => format!("Wrote 3 bytes to {path}"),
        false => format!("{path} already had this content (3 bytes); nothing changed"),
    };
    Did::Ran(ActionOutcome {
        ok: true,
        result,
        write: Some(FileChange {
            path: path.into(),
            before: (!changed).then(|| "h".into()),
            after: "h".into(),
            bytes: 3,
            removed: Vec::new(),
        }),
        ..ActionOutcome::default()
    })
}

const PYTEST: &str = "python3 -m pytest -q";
const PYTEST_OUT: &str = "\n--- stdout ---\nF\n    def test_a():\n>       assert f(1) == 2\nE       NameError: name 'f' is not defined\n\ntest_a.py:2: NameError\n1 failed in 0.02s";

#[test]
fn only_the_active_subtasks_exchanges_count() {
    let mut s = state();
    wrote_a_and_completed(&mut s);
    assert_eq!(current_exchanges(&s).count(), 0);
    assert_eq!(last(&s), Last::Nothing);
    assert!(!acted(&s));
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    assert_eq!(current_exchanges(&s).count(), 1);
    assert!(acted(&s));
}

#[test]
fn a_subtask_the_runner_ended_starts_the_next_one_afresh() {
    let mut s = state();
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert!(acted(&s));
    apply(
        &mut s,
        Event::SubtaskEnded {
            call: None,
            task: 0,
            subtask: 0,
            success: false,
            reason: "stuck".into(),
        },
    );
    assert!(!acted(&s), "the write was for the subtask that ended");
    assert_eq!(last(&s), Last::Nothing);
    assert!(s.calls.is_empty());
}
