//! Scripted personalities (fixtures/personalities/) on a one-task and a
//! two-task goal: each reaches the goal, and the runner did what it takes
//! (nudges, loop nudges, corrections, retries), which the model was sent.

use pretty_assertions::assert_eq;
use runner::state::{Event, NudgeKind, Outcome, State};
use serde_json::Value;

use crate::support::Test;

const GOALS: [(&str, &str); 2] = [
    ("hello", "Write a hello world script"),
    ("greet", "Write a greeting module and its notes"),
];

/// Runs `personality` on both goals; checks each reached the goal with the
/// files a competent run leaves, and returns the tests for more checks.
fn play(personality: &str) -> Vec<Test> {
    GOALS
        .iter()
        .map(|(script, goal)| {
            let test = Test::new()
                .played(script, personality)
                .args([*goal, "--max-rounds", "20"]);
            let run = test.run();
            run.assert_code(0);
            let state = test.assert_replay_matches();
            assert!(state.tree.is_achieved(), "{personality} on {script}");
            match *script {
                "hello" => assert_eq!(test.read("hello.py"), "print(\"Hello, World!\")\n"),
                _ => {
                    assert!(test.read("greet.py").contains("def greet"));
                    assert!(test.read("NOTES.md").contains("greet"));
                }
            }
            test
        })
        .collect()
}

fn nudges(test: &Test, kind: NudgeKind) -> usize {
    test.records()
        .iter()
        .filter(|r| matches!(&r.event, Event::Nudged { kind: k, .. } if *k == kind))
        .count()
}

/// Whether any request the model got has a message containing `text`.
fn sent(test: &Test, text: &str) -> bool {
    test.server().requests().iter().any(|r| {
        r["messages"].as_array().is_some_and(|m| {
            m.iter()
                .any(|m| m["content"].as_str().is_some_and(|c| c.contains(text)))
        })
    })
}

/// A run of `script` on "Write an add function with pytest tests" that
/// must end achieved, with its state equal to the replay of its log.
fn add_with_tests(script: &str, rounds: &str) -> (Test, State) {
    let test = Test::new().script(script).args([
        "Write an add function with pytest tests",
        "--max-rounds",
        rounds,
    ]);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();
    assert!(state.tree.is_achieved());
    (test, state)
}

/// The calls the runner refused, as (tool, why).
fn rejections(test: &Test) -> Vec<(String, String)> {
    test.records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CallRejected { tool, error, .. } => Some((tool, error)),
            _ => None,
        })
        .collect()
}

/// Every call of the model's replies as the log holds them.
fn replied_calls(test: &Test) -> Vec<runner::chat::ToolCall> {
    test.records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ModelReplied { calls, .. } => Some(calls),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn competent() {
    for test in play("competent") {
        assert_eq!(
            nudges(&test, NudgeKind::Prose) + nudges(&test, NudgeKind::Correction),
            0
        );
        assert_eq!(test.checkpoint().retries, 0);
    }
}

#[test]
fn lazy_is_nudged_into_acting() {
    for test in play("lazy") {
        assert!(nudges(&test, NudgeKind::Prose) >= 2);
        assert!(sent(
            &test,
            "You answered without calling a tool, but the ACTIVE SUBTASK is not done"
        ));
        assert!(sent(&test, "You stopped twice without acting"));
    }
}

#[test]
fn looping_is_blocked_and_told() {
    for test in play("looping") {
        let blocked = test
            .records()
            .iter()
            .filter(|r| matches!(r.event, Event::ActionBlocked { .. }))
            .count();
        assert!(blocked >= 1);
        assert!(nudges(&test, NudgeKind::Loop) >= 1);
        assert!(sent(&test, "You are repeating yourself"));
    }
}

#[test]
fn texty_calls_are_parsed_from_the_message() {
    for test in play("texty") {
        let from_text = test
            .records()
            .iter()
            .filter(|r| {
                matches!(
                    r.event,
                    Event::ModelReplied {
                        from_text: true,
                        ..
                    }
                )
            })
            .count();
        assert!(from_text >= 3, "{from_text} replies with calls in text");
        // No round request carried tool calls from the server: all came as text.
        let requests = test.server().round_requests();
        assert!(
            requests.iter().all(|r| r["messages"]
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["role"] != "assistant"
                    || !m["content"].as_str().unwrap().is_empty()
                    || !m["tool_calls"].is_null()))
        );
    }
}

#[test]
fn malformed_calls_get_corrections_with_the_schemas() {
    for test in play("malformed") {
        let rejected: Vec<String> = test
            .records()
            .iter()
            .filter_map(|r| match &r.event {
                Event::CallRejected { error, .. } => Some(error.clone()),
                _ => None,
            })
            .collect();
        assert!(
            rejected
                .iter()
                .any(|e| e.contains("there is no tool named \"create_file\"")),
            "{rejected:?}"
        );
        assert!(
            rejected.iter().any(|e| e.contains("is missing")),
            "{rejected:?}"
        );
        assert!(nudges(&test, NudgeKind::Correction) >= 2);
        assert!(
            sent(&test, "- write_file: Create or overwrite a file"),
            "the correction lists the tools"
        );
    }
}

#[test]
fn flaky_servers_are_retried() {
    for test in play("flaky") {
        let state = test.checkpoint();
        assert!(state.retries >= 3, "{} retries", state.retries);
    }
}

/// Model calls and rounds to the goal per personality, for BENCHMARKS.md:
/// `cargo test --locked --test all personalities::table -- --ignored --nocapture`
#[test]
#[ignore]
fn table() {
    println!(
        "| personality | goal | model calls | rounds | retries | nudges | blocked | corrections |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for personality in [
        "competent",
        "lazy",
        "looping",
        "texty",
        "malformed",
        "flaky",
    ] {
        for ((script, _), test) in GOALS.iter().zip(play(personality)) {
            let state: State = test.checkpoint();
            let count =
                |f: &dyn Fn(&Event) -> bool| test.records().iter().filter(|r| f(&r.event)).count();
            println!(
                "| {personality} | {script} | {} | {} | {} | {} | {} | {} |",
                state.model_calls,
                state.rounds,
                state.retries,
                count(&|e| matches!(
                    e,
                    Event::Nudged {
                        kind: NudgeKind::Prose,
                        ..
                    }
                )),
                count(&|e| matches!(e, Event::ActionBlocked { .. })),
                count(&|e| matches!(
                    e,
                    Event::Nudged {
                        kind: NudgeKind::Correction,
                        ..
                    }
                )),
            );
        }
    }
}

#[test]
fn spent_nudges_stop_resumably_and_say_why() {
    let test = Test::new().played("hello", "lazy");
    let run = test.run_with(&["Write a hello world script", "--max-nudges", "1"]);
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let ending = state.ended.unwrap();
    assert_eq!(ending.outcome, Outcome::Stopped);
    assert!(
        ending.reason.contains("stopped calling tools"),
        "{}",
        ending.reason
    );
    let status = test.run_with(&["status"]);
    assert!(
        status.stdout.contains("stopped calling tools"),
        "{}",
        status.stdout
    );
    // With more nudges, resume reaches the goal.
    test.run_with(&["resume"]).assert_code(0);
}

#[test]
fn a_model_stuck_in_a_loop_fails_the_subtask_and_the_run_moves_on() {
    // A model that only ever lists the folder: the loop nudges do not help.
    let test = Test::new().played("hello", "looping").args([
        "Write a hello world script",
        "--loop-message",
        "Stop it.",
    ]);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let subtask = &state.tree.tasks[0].subtasks[0];
    assert!(
        subtask
            .reason
            .as_deref()
            .unwrap()
            .starts_with("stuck in a loop"),
        "{subtask:?}"
    );
    assert_eq!(state.ended.unwrap().outcome, Outcome::NotAchieved);
    assert!(nudges(&test, NudgeKind::Loop) <= 5);
    assert!(sent(&test, "Stop it."));
    let blocked = test
        .records()
        .iter()
        .filter(|r| matches!(r.event, Event::ActionBlocked { .. }))
        .count();
    // Six in the plan's subtask, and six in the cycle that asked for it
    // again (with no check to run, a failed subtask is not taken as done);
    // that cycle changed no file, so there is no second one.
    assert_eq!(blocked, 12);
    assert_eq!(state.cycles, 1);
}

#[test]
fn json_mode_prints_every_event_on_stdout() {
    let test = Test::new()
        .script("hello")
        .args(["Write a hello world script", "--json", "-q"]);
    let run = test.run();
    run.assert_code(0);
    let printed: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let records = test.records();
    assert_eq!(printed.len(), records.len());
    for (line, record) in printed.iter().zip(&records) {
        assert_eq!(line, &serde_json::to_value(record).unwrap());
    }
    assert!(
        !run.stderr.contains("✓"),
        "-q keeps the human lines off stderr"
    );
}

#[test]
fn lessons_and_notes_carry_over_to_the_next_goal() {
    let test = Test::new().script("hello");
    test.run_with(&["Write a hello world script"])
        .assert_code(0);
    let memory: Value =
        serde_json::from_str(&std::fs::read_to_string(test.context().join("memory.json")).unwrap())
            .unwrap();
    assert_eq!(
        memory["lessons"][0]["text"],
        "worked: wrote the file, then ran it"
    );
    test.run_with(&["Write a greeting module and its notes", "--max-rounds", "1"]);
    let first = test
        .server()
        .round_requests()
        .into_iter()
        .find(|r| r.to_string().contains("greeting module"))
        .unwrap();
    let context = crate::support::context(&first);
    assert!(
        context
            .contains("LESSONS (from earlier runs here):\n- worked: wrote the file, then ran it"),
        "{context}"
    );
}

#[test]
fn a_full_context_makes_the_next_prompt_smaller() {
    // 1 byte a token: the prompt's bytes count as tokens, so 4096 fills up.
    let test = Test::new().script("pressure").args([
        "Write a greeting module and its notes",
        "--num-ctx",
        "4096",
        "--history-keep",
        "8",
    ]);
    let run = test.run();
    run.assert_code(0);
    let records = test.records();
    let pressure = records
        .iter()
        .position(|r| matches!(r.event, Event::ContextPressure { .. }))
        .expect("pressure recorded");
    assert!(
        run.stderr.contains("sending less history"),
        "{}",
        run.stderr
    );
    // Before the pressure, the model saw up to 8 exchanges; after it, at
    // most 8 >> 1 = 4, though the conversation had grown longer.
    let requests = test.server().round_requests();
    let assistants = |r: &Value| {
        r["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "assistant")
            .count()
    };
    let replies_before = records[..pressure]
        .iter()
        .filter(|r| matches!(r.event, Event::ModelReplied { .. }))
        .count();
    let after: Vec<usize> = requests[replies_before..].iter().map(assistants).collect();
    assert!(
        after.iter().all(|&n| n <= 4),
        "assistant messages per request after the pressure: {after:?}"
    );
    assert!(
        test.checkpoint().conversation.len() > 4,
        "the conversation grew past what was sent"
    );
    assert!(requests.iter().all(|r| r["options"]["num_ctx"] == 4096));
}

#[test]
fn num_ctx_is_capped_at_the_models_context_length() {
    let test = Test::new().script("small_context").args([
        "Write a hello world script",
        "--num-ctx",
        "16384",
    ]);
    let run = test.run();
    run.assert_code(0);
    assert!(
        run.stderr.contains("the model's context is 8192 tokens"),
        "{}",
        run.stderr
    );
    assert!(
        test.server()
            .requests()
            .iter()
            .filter(|r| r.get("options").is_some())
            .all(|r| r["options"]["num_ctx"] == 8192)
    );
    assert!(
        test.records()
            .iter()
            .any(|r| matches!(r.event, Event::RunStarted { num_ctx: 8192, .. }))
    );
}

#[test]
fn a_check_ends_when_its_command_passes_not_when_the_model_says_so() {
    let (test, state) = add_with_tests("premature_check", "20");
    // The plan's `pytest test_calc.py` became a check that collects the tests.
    let subtasks: Vec<&str> = state.tree.tasks[0]
        .subtasks
        .iter()
        .map(|s| s.description.as_str())
        .collect();
    assert_eq!(
        subtasks.last(),
        Some(&"Run `python3 -m pytest -q` and make it succeed (fix the files if it fails)")
    );
    // A test file without a test was not written; the one written has one.
    assert!(sent(
        &test,
        "test_calc.py is a test file but defines no test"
    ));
    // With the start of one that imports what calc.py defines.
    assert!(sent(
        &test,
        "Begin it so:\nfrom calc import add\n\n\ndef test_add():\n    assert add(ARGUMENTS) == \
         EXPECTED"
    ));
    assert!(test.read("test_calc.py").contains("def test_add"));
    // The claim after the failing run, with nothing changed since, was
    // refused.
    let rejected: Vec<String> = rejections(&test)
        .into_iter()
        .map(|(tool, error)| format!("{tool}: {error}"))
        .collect();
    assert_eq!(rejected.len(), 2, "{rejected:?}");
    assert!(rejected[0].starts_with("write_file: not written: test_calc.py"));
    assert!(
        rejected[1].starts_with(
            "mark_subtask_complete: not accepted: this subtask is done when `python3 -m pytest \
             -q` exits with code 0, and it has not since the last change"
        ),
        "{}",
        rejected[1]
    );
    // Told to run the check again after the fix, the model ran it, and
    // its passing ended the subtask: no claim of the model's was needed.
    assert!(sent(
        &test,
        r#"Now run the check again: answer with exactly {"name":"run_cmd","arguments":{"cmd":"python3 -m pytest -q"}}"#
    ));
    let replied: Vec<String> = replied_calls(&test)
        .into_iter()
        .map(|call| call.name)
        .collect();
    assert_eq!(
        replied[replied.len() - 3..],
        ["mark_subtask_complete", "write_file", "run_cmd"]
    );
    let ended: Vec<(Option<usize>, String)> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            runner::state::Event::SubtaskEnded { call, reason, .. } => Some((call, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        ended.last(),
        Some(&(None, "ran `python3 -m pytest -q`: exit code 0".to_string())),
        "{ended:?}"
    );
    // The model's runs, then the completion check's.
    let codes: Vec<_> = state.commands.iter().map(|c| c.exit_code).collect();
    assert_eq!(codes, [Some(1), Some(0), Some(0)]);
    assert!(test.read("calc.py").starts_with("# fixed"));
}

#[test]
fn a_file_repeated_over_and_over_is_stopped_and_written_up_to_the_repetition() {
    let (test, state) = add_with_tests("repeating", "12");
    // The cut reply became the write of the file up to where its block of
    // asserts began to repeat, the apostrophe that ended a string early
    // escaped, and the tests it holds pass.
    assert_eq!(
        test.read("test_calc.py"),
        "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3, 'add\\'s sum'\n    \
         assert add(2, 2) == 4\n    assert add(0, 5) == 5\n    assert add(-1, 1) == 0\n"
    );
    // The streamed reply was stopped once its block of asserts had come
    // three times (eight lines over again), not read to the cap.
    let (cut, content) = test
        .records()
        .into_iter()
        .find_map(|r| match r.event {
            Event::ModelReplied {
                calls,
                done_reason,
                content,
                ..
            } if done_reason.as_deref() == Some(runner::model::runaway::REPEATING) => {
                Some((calls, content))
            }
            _ => None,
        })
        .expect("the stopped reply is in the log");
    assert_eq!(
        content.matches("assert add(0, 5) == 5").count(),
        3,
        "{content}"
    );
    assert_eq!(cut.len(), 1);
    assert_eq!(cut[0].name, "write_file");
    // The first one, whose test took `self` outside a class, was not
    // written: the model was told why in pytest's terms and in its own.
    let rejected: Vec<String> = rejections(&test)
        .into_iter()
        .map(|(_, error)| error)
        .collect();
    assert_eq!(
        rejected,
        [
            "not written: in test_calc.py, `def test_add(self):` is not inside a class, so pytest \
          has no `self` to give it (\"fixture 'self' not found\"): write `def test_add():`. Give \
          the whole file with that changed."
        ]
    );
    // Well formed, the call was refused for what it held: the model was
    // told that alone, not the tools' schemas again.
    assert!(sent(
        &test,
        "Your call was not run: not written: in test_calc.py"
    ));
    assert!(!sent(&test, "Answer with exactly one of these tool calls"));
    // The model's run, then the completion check's.
    let codes: Vec<_> = state.commands.iter().map(|c| c.exit_code).collect();
    assert_eq!(codes, [Some(0), Some(0)]);
}

#[test]
fn a_check_command_given_alone_in_a_code_block_is_run() {
    let test = Test::new().script("command_as_text").args([
        "Write a script that prints Hello",
        "--max-rounds",
        "8",
    ]);
    test.run().assert_code(0);
    test.assert_replay_matches();
    let ran: Vec<String> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ActionStarted { summary, .. } if summary.starts_with("run_cmd") => Some(summary),
            _ => None,
        })
        .collect();
    assert_eq!(ran.len(), 1, "{ran:?}");
    assert!(ran[0].contains("python3 hello.py"), "{ran:?}");
    assert!(!sent(&test, "without calling a tool"));
}

#[test]
fn a_relative_tmpdir_does_not_turn_the_review_of_writes_off() {
    // TMPDIR set for another working directory: the languages' scratch
    // folders go to the default, and the test file that takes its inputs
    // as arguments is still refused (before, every write was accepted).
    let test = Test::new()
        .script("fixing")
        .env("TMPDIR", "no/such/tmp")
        .args([
            "Write an add function with pytest tests",
            "--max-rounds",
            "14",
        ]);
    test.run().assert_code(0);
    let rejected = rejections(&test);
    assert!(
        rejected.first().is_some_and(
            |(tool, why)| tool == "write_file" && why.contains("fixture 'a' not found")
        ),
        "{rejected:?}"
    );
}

#[test]
fn a_model_fixing_its_tests_the_way_small_models_do_gets_them_to_pass() {
    let (test, state) = add_with_tests("fixing", "14");
    let rejected = rejections(&test);
    // Tests taking their inputs as arguments were refused in pytest's
    // words; giving the subtask up after nothing but that refusal was
    // refused in turn, and the next write went through.
    assert_eq!(rejected.len(), 2, "{rejected:?}");
    assert_eq!(rejected[0].0, "write_file");
    assert!(
        rejected[0]
            .1
            .contains("takes a, b but nothing gives them: pytest looks for fixtures of those names and fails (\"fixture 'a' not found\")"),
        "{}",
        rejected[0].1
    );
    assert_eq!(rejected[1].0, "mark_subtask_complete");
    assert!(
        rejected[1]
            .1
            .starts_with("not accepted: do not give up yet: your write was refused, not tried: not written: in test_calc.py"),
        "{}",
        rejected[1].1
    );
    // The failing assert, written again alone as the whole file, replaced
    // its line: the file kept its test, and the log holds the whole file.
    let fixed = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n    assert add(2, 2) == 4\n";
    assert_eq!(test.read("test_calc.py"), fixed);
    let written: Vec<String> = replied_calls(&test)
        .into_iter()
        .filter(|call| call.name == "write_file")
        .filter_map(|call| call.arguments["content"].as_str().map(str::to_string))
        .collect();
    assert_eq!(written.last().map(String::as_str), Some(fixed));
    // The empty reply after the failure was nudged, and never sent back to
    // the model: the requests after it hold the nudge, not the empty turn.
    assert!(sent(&test, "You answered without calling a tool"));
    let empty_turns = test
        .server()
        .round_requests()
        .iter()
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .filter(|m| {
            m["role"] == "assistant"
                && m["content"].as_str().is_some_and(|c| c.trim().is_empty())
                && m["tool_calls"]
                    .as_array()
                    .is_none_or(|calls| calls.is_empty())
        })
        .count();
    assert_eq!(empty_turns, 0);
    // The model's runs, then the completion check's.
    let codes: Vec<_> = state.commands.iter().map(|c| c.exit_code).collect();
    assert_eq!(codes, [Some(1), Some(0), Some(0)]);
}
