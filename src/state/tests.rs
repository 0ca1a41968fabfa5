use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn record(seq: u64, event: Event) -> Record {
    Record {
        seq,
        ts: String::new(),
        event,
    }
}

fn call(name: &str, arguments: serde_json::Value) -> ToolCall {
    ToolCall {
        name: name.into(),
        arguments,
    }
}

fn planned() -> Event {
    Event::Planned {
        tasks: vec![TaskPlan {
            kinds: Vec::new(),
            description: "hello".into(),
            subtasks: vec!["write hello.py".into(), "run it".into()],
        }],
        fallback: None,
        model_calls: 1,
        usage: Usage {
            prompt_tokens: 10,
            completion_tokens: 5,
            ..Usage::default()
        },
        retries: 1,
    }
}

fn write_outcome(path: &str, before: Option<&str>, after: &str) -> ActionOutcome {
    ActionOutcome {
        ok: true,
        result: format!("Wrote to {path}"),
        write: Some(FileChange {
            path: path.into(),
            before: before.map(str::to_string),
            after: after.into(),
            bytes: 3,
            removed: Vec::new(),
        }),
        ..ActionOutcome::default()
    }
}

/// A run: plan, a reply with a write and a completion, then the next subtask.
fn events() -> Vec<Event> {
    vec![
        Event::RunStarted {
            goal: "Write hello".into(),
            model: "m".into(),
            max_rounds: 24,
            num_ctx: 16384,
            host: None,
            api: None,
            tool_mode: None,
        },
        planned(),
        Event::RoundStarted {
            round: 1,
            missing: vec![],
        },
        Event::ModelReplied {
            content: String::new(),
            calls: vec![
                call("write_file", json!({"path": "hello.py", "content": "x"})),
                call(
                    "mark_subtask_complete",
                    json!({"success": true, "reason": "written"}),
                ),
            ],
            from_text: false,
            question: false,
            usage: Usage {
                prompt_tokens: 100,
                completion_tokens: 20,
                ..Usage::default()
            },
            retries: 0,
            done_reason: Some("stop".into()),
        },
        Event::ActionStarted {
            call: 0,
            tool: "write_file".into(),
            summary: "write_file hello.py (1 bytes)".into(),
            signature: "write_file {..}".into(),
            write: None,
        },
        Event::ActionFinished {
            action: 5,
            outcome: write_outcome("hello.py", None, "h1"),
        },
        Event::SubtaskEnded {
            call: Some(1),
            task: 0,
            subtask: 0,
            success: true,
            reason: "written".into(),
        },
    ]
}

fn replay(events: Vec<Event>) -> State {
    let records: Vec<Record> = events
        .into_iter()
        .enumerate()
        .map(|(i, e)| record(i as u64 + 1, e))
        .collect();
    State::replay(&records)
}

#[test]
fn a_reply_is_worked_off_and_the_cursor_moves() {
    let state = replay(events());
    assert_eq!(state.last_seq, 7);
    assert_eq!(state.goal, "Write hello");
    assert_eq!(
        state.tree.cursor,
        Some(Cursor {
            task: 0,
            subtask: 1
        })
    );
    assert_eq!(state.tree.tasks[0].subtasks[0].status, Status::Completed);
    assert_eq!(state.model_calls, 2);
    assert_eq!(
        state.usage,
        Usage {
            prompt_tokens: 110,
            completion_tokens: 25,
            ..Usage::default()
        }
    );
    assert_eq!(state.retries, 1);
    assert_eq!(state.reply, None);
    assert_eq!(state.in_flight, None);
    assert_eq!(
        state.files.get("hello.py"),
        Some(&FileRecord {
            sha256: "h1".into(),
            created: true,
            changed_at: 1,
        })
    );
    let exchange = state.conversation.back().unwrap();
    let roles: Vec<_> = exchange.iter().map(|m| m.role).collect();
    use crate::chat::Role;
    assert_eq!(roles, [Role::Assistant, Role::Tool, Role::Tool]);
    assert_eq!(exchange[1].tool_name.as_deref(), Some("write_file"));
    assert!(exchange[2].content.contains("Next subtask: run it"));
}

#[test]
fn an_action_without_its_result_is_in_flight() {
    let mut events = events();
    events.truncate(5);
    let state = replay(events);
    let flight = state.in_flight.clone().unwrap();
    assert_eq!(flight.action, 5);
    assert_eq!(flight.call.name, "write_file");
    assert_eq!(
        state.next_call().map(|(i, c)| (i, c.name.clone())),
        Some((1, "mark_subtask_complete".into()))
    );
}

#[test]
fn a_changing_write_clears_the_loop_window_and_a_same_content_write_does_not() {
    let mut events = events();
    events.truncate(4);
    let started = |call| Event::ActionStarted {
        call,
        tool: "run_cmd".into(),
        summary: "run_cmd pytest".into(),
        signature: "run_cmd pytest".into(),
        write: None,
    };
    events.push(started(0));
    events.push(Event::ActionFinished {
        action: 5,
        outcome: write_outcome("hello.py", Some("h0"), "h0"),
    });
    let state = replay(events.clone());
    assert_eq!(
        state.recent.len(),
        1,
        "a write that changed nothing keeps the window"
    );
    events.push(started(1));
    events.push(Event::ActionFinished {
        action: 7,
        outcome: write_outcome("hello.py", Some("h0"), "h1"),
    });
    let state = replay(events);
    assert!(state.recent.is_empty());
    assert!(
        !state.files["hello.py"].created,
        "the file existed before the runner wrote it"
    );
}

#[test]
fn an_interrupted_action_leaves_the_loop_window() {
    let mut events = events();
    events.truncate(4);
    events.push(Event::ActionStarted {
        call: 0,
        tool: "run_cmd".into(),
        summary: "run_cmd pytest".into(),
        signature: "run_cmd pytest".into(),
        write: None,
    });
    let state = replay(events.clone());
    assert_eq!(state.recent.len(), 1);
    events.push(Event::ActionFinished {
        action: 5,
        outcome: ActionOutcome {
            interrupted: true,
            ..ActionOutcome::default()
        },
    });
    let state = replay(events);
    assert!(
        state.recent.is_empty(),
        "a command the runner lost track of counts as no attempt"
    );
}

#[test]
fn blocks_nudges_and_endings_are_counted_and_reset() {
    let mut events = events();
    events.truncate(3);
    events.push(Event::ModelReplied {
        content: String::new(),
        calls: vec![call("run_cmd", json!({"cmd": "pytest"}))],
        from_text: true,
        question: false,
        usage: Usage::default(),
        retries: 2,
        done_reason: None,
    });
    events.push(Event::ActionBlocked {
        call: 0,
        tool: "run_cmd".into(),
        signature: "run_cmd pytest".into(),
        pattern: LoopPattern::Repeat,
        message: "Blocked".into(),
    });
    events.push(Event::Nudged {
        kind: NudgeKind::Prose,
        level: 1,
        message: "act".into(),
    });
    events.push(Event::RunEnded {
        outcome: Outcome::Stopped,
        reason: "rounds spent".into(),
    });
    let state = replay(events.clone());
    assert_eq!(state.blocked, vec!["run_cmd pytest".to_string()]);
    assert_eq!(state.blocked_in_a_row, 1);
    assert_eq!(state.nudges, 1);
    assert_eq!(state.retries, 3);
    assert_eq!(
        state.errors.back().map(String::as_str),
        Some("blocked a loop: run_cmd pytest")
    );
    assert_eq!(
        state.ended.as_ref().map(|e| e.outcome),
        Some(Outcome::Stopped)
    );

    events.push(Event::RunStarted {
        goal: "Write hello".into(),
        model: "m".into(),
        max_rounds: 5,
        num_ctx: 16384,
        host: None,
        api: None,
        tool_mode: None,
    });
    events.push(Event::SubtaskEnded {
        call: None,
        task: 0,
        subtask: 0,
        success: false,
        reason: "stuck in a loop".into(),
    });
    let state = replay(events);
    assert_eq!(state.ended, None);
    assert_eq!(state.runs, 2);
    assert_eq!(state.run_rounds, 0);
    assert_eq!(state.rounds, 1);
    assert_eq!(state.max_rounds, 5);
    assert_eq!(state.nudges, 0);
    assert!(state.blocked.is_empty());
    assert_eq!(state.tree.tasks[0].subtasks[0].status, Status::Failed);
}

#[test]
fn the_conversation_is_bounded() {
    let mut events = events();
    events.truncate(2);
    for _ in 0..(KEPT_EXCHANGES + 10) {
        events.push(Event::ModelReplied {
            content: "thinking".into(),
            calls: vec![],
            from_text: false,
            question: false,
            usage: Usage::default(),
            retries: 0,
            done_reason: None,
        });
    }
    let state = replay(events);
    assert_eq!(state.conversation.len(), KEPT_EXCHANGES);
    assert_eq!(state.model_calls as usize, 1 + KEPT_EXCHANGES + 10);
}

/// A reply stopped as it repeated itself is kept up to where the
/// repetition began; the log keeps it as it came.
#[test]
fn a_reply_that_repeated_itself_is_kept_without_its_loop() {
    let said = "Here:\n".to_string() + &"assert add(1, 2) == 3\n".repeat(12);
    let replied = |done_reason: &str| Event::ModelReplied {
        content: said.clone(),
        calls: vec![],
        from_text: false,
        question: false,
        usage: Usage::default(),
        retries: 0,
        done_reason: Some(done_reason.into()),
    };
    let mut events = events();
    events.truncate(2);
    events.push(replied("repetition"));
    let state = replay(events.clone());
    let kept = &state.conversation.back().unwrap()[0].content;
    assert_eq!(kept, "Here:\nassert add(1, 2) == 3\n");
    // A reply that ended as the model meant it is kept as it is.
    events.push(replied("stop"));
    let state = replay(events);
    assert_eq!(state.conversation.back().unwrap()[0].content, said);
}

/// A long write is kept cut in the conversation; refused, it is kept as
/// the model sent it (the model is to correct it), within its own bound.
#[test]
fn a_refused_call_is_kept_whole_in_the_conversation() {
    let long = "x".repeat(KEPT_ARGUMENT * 2);
    let huge = "y".repeat(KEPT_REFUSED_ARGUMENT * 2);
    let write = |content: &str| call("write_file", json!({"path": "a.py", "content": content}));
    let mut events = events();
    events.truncate(2);
    events.push(Event::ModelReplied {
        content: String::new(),
        calls: vec![write(&long), write(&long), write(&huge)],
        from_text: false,
        question: false,
        usage: Usage::default(),
        retries: 0,
        done_reason: None,
    });
    for index in [1, 2] {
        events.push(Event::CallRejected {
            call: index,
            tool: "write_file".into(),
            kind: RefusalKind::LanguageRefused,
            error: "not written".into(),
            signature: None,
            seen: None,
        });
    }
    let state = replay(events);
    let kept = &state.conversation.back().unwrap()[0].tool_calls;
    let content = |i: usize| kept[i].arguments["content"].as_str().unwrap().to_string();
    assert!(content(0).ends_with(&format!("… [{} bytes in all]", long.len())));
    assert_eq!(content(1), long, "refused: whole");
    assert!(content(2).starts_with(&"y".repeat(KEPT_REFUSED_ARGUMENT)));
    assert!(content(2).ends_with(&format!("… [{} bytes in all]", huge.len())));
}

#[test]
fn every_event_survives_serialization() {
    let mut all = events();
    all.push(Event::Nudged {
        kind: NudgeKind::Correction,
        level: 2,
        message: "m".into(),
    });
    all.push(Event::ContextPressure {
        prompt_tokens: 15000,
        num_ctx: 16384,
    });
    all.push(Event::Reflected {
        lessons: vec!["worked: tests".into()],
        usage: Usage::default(),
        retries: 0,
    });
    all.push(Event::ModelFailed {
        error: "e".into(),
        retries: 3,
    });
    all.push(Event::CallRejected {
        call: 0,
        tool: "x".into(),
        kind: RefusalKind::LanguageRefused,
        error: "e".into(),
        signature: Some("x {\"refused\":\"e\"}".into()),
        seen: Some(Box::new(SeenFile {
            path: "a.py".into(),
            sha256: "ab".into(),
        })),
    });
    all.push(Event::Noted {
        call: 0,
        text: "t".into(),
    });
    for (i, event) in all.into_iter().enumerate() {
        let record = record(i as u64 + 1, event);
        let text = serde_json::to_string(&record).unwrap();
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record, "{text}");
        assert!(text.contains(&format!("\"event\":\"{}\"", record.event.name())));
    }
}

#[test]
fn a_rollback_moves_the_files_the_runner_answers_for() {
    let mut events = events();
    let finished = |path: &str, before: Option<&str>, after: &str| Event::ActionFinished {
        action: 0,
        outcome: write_outcome(path, before, after),
    };
    events.push(finished("a.py", Some("a0"), "a1"));
    events.push(finished("b.py", None, "b1"));
    let rolled_back = |path: &str, from: &str, to: Option<&str>| Event::RolledBack {
        path: path.into(),
        point: 0,
        from: Some(from.into()),
        to: to.map(str::to_string),
    };
    events.push(rolled_back("a.py", "a1", Some("a0")));
    events.push(rolled_back("b.py", "b1", None));
    let state = replay(events.clone());
    assert_eq!(state.files["a.py"].sha256, "a0");
    assert!(!state.files["a.py"].created);
    assert!(!state.files.contains_key("b.py"), "b.py was removed");
    assert!(state.recent.is_empty() && state.blocked.is_empty());
    events.push(Event::RolledBack {
        path: "b.py".into(),
        point: 9,
        from: None,
        to: Some("b1".into()),
    });
    let state = replay(events);
    assert!(
        state.files["b.py"].created,
        "a file brought back after its removal is one the runner created"
    );
}

/// The project's tests run before the plan: whether they passed, and which
/// failed, by their runner's names; a check after the plan changes neither.
#[test]
fn the_tests_that_failed_before_the_plan_are_kept() {
    let check = |output: &str, code| crate::state::verdict::CheckRun {
        command: "python3 -m pytest -q".into(),
        exit_code: Some(code),
        output: output.into(),
        tests: None,
        wants_arguments: false,
    };
    let mut events = events();
    events.truncate(1);
    events.push(Event::Checked {
        checks: vec![check(
            "FAILED test_calc.py::test_average - assert 3.0 == 4\n1 failed, 2 passed in 0.01s",
            1,
        )],
    });
    events.push(planned());
    events.push(Event::Checked {
        checks: vec![check(
            "FAILED test_calc.py::test_add - x\n1 failed in 0.01s",
            1,
        )],
    });
    let state = replay(events);
    assert_eq!(state.tests_before, Some(false));
    assert_eq!(state.failing_before, ["test_calc.py::test_average"]);
}

/// A failing assert of the run's own test, settled: the value the model
/// chose both times is the goal's word on the call, and one it did not
/// choose both times is nothing; a settlement of the goal's examples adds
/// nothing of its own.
#[test]
fn a_settled_failing_assert_of_the_runs_own_test_is_the_goals_word() {
    let settled = |own_test, held, got_held| verdict::Settled {
        call: "winner('paper', 'rock')".into(),
        wanted: "'second'".into(),
        got: "'first'".into(),
        held,
        own_test,
        got_held,
        written: false,
    };
    let given = |settled: verdict::Settled| {
        let mut state = State::default();
        state.apply_next(Event::ExampleSettled {
            settled,
            usage: Usage::default(),
            retries: 0,
        });
        state.goal_given()
    };
    let call = "winner('paper', 'rock')".to_string();
    assert_eq!(
        given(settled(true, false, true)),
        [(call.clone(), "'first'".to_string())]
    );
    assert_eq!(
        given(settled(true, true, false)),
        [(call, "'second'".to_string())]
    );
    assert!(given(settled(true, false, false)).is_empty());
    assert!(given(settled(false, true, false)).is_empty());
}
