use super::*;
use crate::chat::ToolCall;
use crate::state::{
    ActionOutcome, Came, CommandEnd, Event, FileChange, FileRecord, Record, RefusalKind, TaskPlan,
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
            },
        );
    }
    state
}

fn apply(state: &mut State, event: Event) {
    let seq = state.last_seq + 1;
    state.apply(&Record {
        seq,
        ts: String::new(),
        event,
    });
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
        }),
        ..ActionOutcome::default()
    })
}

const PYTEST: &str = "python3 -m pytest -q";
const PYTEST_OUT: &str = "\n--- stdout ---\nF\n    def test_a():\n>       assert f(1) == 2\nE       NameError: name 'f' is not defined\n\ntest_a.py:2: NameError\n1 failed in 0.02s";

#[test]
fn only_the_active_subtasks_exchanges_count() {
    let mut s = state();
    exchange(
        &mut s,
        vec![
            ("write_file", wrote("a.py", true)),
            (COMPLETE, Did::Complete),
        ],
    );
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

#[test]
fn a_failed_command_points_at_the_file_to_fix() {
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 -m pytest -q` exit code 1: NameError: name 'f' is not defined".into(),
            file: Some("test_a.py line 2".into()),
        }
    );
    assert!(
        next_step(&s, &[]).contains(
            "The error is at test_a.py line 2. Fix it: answer with write_file and the whole \
             corrected content of test_a.py."
        ),
        "{}",
        next_step(&s, &[])
    );
    let traceback = "\n--- stderr ---\nTraceback (most recent call last):\n  File \"/w/a.py\", line 7, in <module>\n    main()\nValueError: bad move";
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran("python3 a.py", 1, traceback))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 a.py` exit code 1: ValueError: bad move".into(),
            file: Some("a.py line 7".into()),
        }
    );
}

#[test]
fn a_command_that_timed_out_says_so() {
    let mut s = state();
    let end = CommandEnd::TimedOut { secs: 5 };
    let outcome = ActionOutcome {
        ok: false,
        result: format!("$ python3 a.py\n{}", end.describe()),
        command: Some("python3 a.py".into()),
        end: Some(end),
        ..ActionOutcome::default()
    };
    exchange(&mut s, vec![("run_cmd", Did::Ran(outcome))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 a.py` timed out after 5 s; the command was killed".into(),
            // The command line names the file.
            file: Some("a.py".into()),
        }
    );
}

#[test]
fn a_failed_assert_says_what_the_call_returned() {
    // Qwen2.5-Coder 1.5B's test of its own game, and pytest's words.
    let test = "from g import Game\n\ndef test_play():\n    game = Game()\n    assert game.play('scissors', 'rock') == 'Player 1 wins!'\n";
    let contents = [("test_g.py".to_string(), test.to_string())];
    let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert 'Player 2 wins!' == 'Player 1 wins!'";
    assert_eq!(
        fix(Some("test_g.py line 5"), what, &contents),
        "The error is at test_g.py line 5. Line 5 is: assert game.play('scissors', 'rock') == \
         'Player 1 wins!' `game.play('scissors', 'rock')` returned 'Player 2 wins!', not \
         'Player 1 wins!'. If the code is right, the test is wrong: write that line as \
         `assert game.play('scissors', 'rock') == 'Player 2 wins!'`. If the test is right, \
         fix the code. Fix it: answer with write_file and the whole corrected content of \
         test_g.py."
    );
    // The expected value in other quotes is the same value.
    let double = test.replace("'Player 1 wins!'", "\"Player 1 wins!\"");
    let contents = [("test_g.py".to_string(), double)];
    assert!(fix(Some("test_g.py line 5"), what, &contents).contains("returned 'Player 2 wins!'"));
    // A failure that is not that assert's gets no such hint.
    let other = "`python3 -m pytest -q` exit code 1: NameError: name 'g' is not defined";
    assert!(!fix(Some("test_g.py line 5"), other, &contents).contains("returned"));
    // pytest that ran no test is told to write one.
    assert!(
        fix(None, "`python3 -m pytest -q` exit code 5", &[]).starts_with("pytest found no test")
    );
    assert!(fix(None, "`python3 a.py` exit code 5", &[]).starts_with("Fix the cause"));
    let elsewhere = "`python3 -m pytest -q` exit code 1: AssertionError: assert 3 == 4";
    assert!(!fix(Some("test_g.py line 5"), elsewhere, &contents).contains("returned"));
}

#[test]
fn a_call_that_worked_offers_the_call_that_ends_the_subtask() {
    let mut s = state();
    exchange(
        &mut s,
        vec![("write_file", wrote("a.py", true)), ("note", Did::Note)],
    );
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "wrote a.py".into()
        }
    );
    assert!(next_step(&s, &[]).contains(
        r#"answer with exactly {"name":"mark_subtask_complete","arguments":{"success":true,"reason":"wrote a.py"}}"#
    ));
    let mut s = state();
    exchange(
        &mut s,
        vec![("run_cmd", ran("python3 a.py", 0, "\n--- stdout ---\nhi"))],
    );
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "ran python3 a.py: exit code 0".into()
        }
    );
    let mut s = state();
    let refused = ActionOutcome::refused("node is not an allowed program".into());
    exchange(&mut s, vec![("run_cmd", Did::Ran(refused))]);
    assert_eq!(
        last(&s),
        Last::Refused {
            why: "Error: node is not an allowed program".into(),
            kind: None,
        }
    );
}

#[test]
fn focus_decides_from_the_outcome_not_from_the_words_of_the_result() {
    // A result that reads like a write, of a write that did not happen.
    let mut s = state();
    let not_written = ActionOutcome {
        ok: false,
        result: "Wrote 3 bytes to a.py".into(),
        ..ActionOutcome::default()
    };
    exchange(&mut s, vec![("write_file", Did::Ran(not_written))]);
    assert_eq!(
        last(&s),
        Last::Refused {
            why: "Wrote 3 bytes to a.py".into(),
            kind: None,
        }
    );
    assert!(!acted(&s));
    // A command whose output claims success but that exited with 1.
    let mut s = state();
    exchange(
        &mut s,
        vec![("run_cmd", ran("python3 a.py", 1, "\nexit code 0"))],
    );
    assert!(matches!(last(&s), Last::Failed { .. }), "{:?}", last(&s));
    // And a write whose result says nothing of it is still a write.
    let mut s = state();
    let Did::Ran(mut outcome) = wrote("a.py", true) else {
        unreachable!()
    };
    outcome.result = "done".into();
    exchange(&mut s, vec![("write_file", Did::Ran(outcome))]);
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "wrote a.py".into()
        }
    );
}

#[test]
fn a_check_subtask_ends_when_its_command_passes() {
    let mut s = state();
    assert_eq!(check_command(&s), None, "the first subtask is no check");
    let mut fresh = s.clone();
    fresh.files.clear();
    assert_eq!(known_paths(&fresh), ["a.py"], "named by the subtask's kind");
    assert_eq!(known_paths(&s), ["a.py", "test_a.py"]);
    exchange(
        &mut s,
        vec![
            ("write_file", wrote("a.py", true)),
            (COMPLETE, Did::Complete),
        ],
    );
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert_eq!(check_command(&s).as_deref(), Some(PYTEST));
    // After a write the check is run again, not the subtask marked done.
    assert!(!check_passed(&s, PYTEST));
    assert!(check_unknown(&s, PYTEST));
    assert!(next_step(&s, &[]).contains(
        r#"Now run the check again: answer with exactly {"name":"run_cmd","arguments":{"cmd":"python3 -m pytest -q"}}"#
    ));
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    assert!(!check_passed(&s, PYTEST), "it failed");
    assert!(!check_unknown(&s, PYTEST));
    exchange(
        &mut s,
        vec![("run_cmd", ran("python3  -m pytest -q", 0, "\n1 passed"))],
    );
    assert!(check_passed(&s, PYTEST));
    assert!(next_step(&s, &[]).contains(r#""name":"mark_subtask_complete""#));
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert!(!check_passed(&s, PYTEST), "a write came after");
    assert!(check_unknown(&s, PYTEST));
}

#[test]
fn an_unchanged_write_after_a_failure_is_still_the_failure() {
    let collect = "\n--- stdout ---\nERRORS\nE     File \"/w/test_a.py\", line 2\nE       assert f() == 'It's'\nE   SyntaxError: unterminated string literal (detected at line 2)\n=== short test summary info ===\nERROR test_a.py\n1 error in 0.27s";
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 2, collect))]);
    exchange(&mut s, vec![("write_file", wrote("test_a.py", false))]);
    let Last::Failed { what, file } = last(&s) else {
        panic!("{:?}", last(&s));
    };
    assert_eq!(
        what,
        "your write changed nothing (test_a.py already had that content), so `python3 -m \
         pytest -q` exit code 2: SyntaxError: unterminated string literal (detected at line 2)"
    );
    assert_eq!(file.as_deref(), Some("test_a.py line 2"));
    let contents = [(
        "test_a.py".to_string(),
        "from a import f\n    assert f() == 'It's'\n".to_string(),
    )];
    assert!(
        next_step(&s, &contents)
            .contains("The error is at test_a.py line 2. Line 2 is: assert f() == 'It's' Fix it"),
        "{}",
        next_step(&s, &contents)
    );
}

#[test]
fn refused_calls_are_not_work_done_and_keep_their_kind() {
    let refused = || {
        (
            "write_file",
            Did::Refused(
                RefusalKind::LanguageRefused,
                "not written: every function in a.py is a placeholder",
            ),
        )
    };
    let mut s = state();
    exchange(&mut s, vec![refused()]);
    assert!(!acted(&s), "only a refused write");
    assert_eq!(
        last(&s),
        Last::Refused {
            why: "not written: every function in a.py is a placeholder".into(),
            kind: Some(RefusalKind::LanguageRefused),
        }
    );
    assert!(!gave_up_before(&s));
    exchange(
        &mut s,
        vec![(
            COMPLETE,
            Did::Refused(
                RefusalKind::GaveUpTooSoon,
                "not accepted: do not give up yet",
            ),
        )],
    );
    assert!(gave_up_before(&s));
    assert_eq!(
        s.calls.back().map(|fact| &fact.came),
        Some(&Came::Refused {
            kind: RefusalKind::GaveUpTooSoon
        })
    );
    exchange(&mut s, vec![refused(), ("write_file", wrote("a.py", true))]);
    assert!(acted(&s));
}
