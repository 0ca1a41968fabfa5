//! The runner core end to end: the real binary against the fake Ollama.

use pretty_assertions::assert_eq;
use runner::state::{Event, Outcome, Status};
use serde_json::Value;

use crate::support::Test;

/// Model calls of the rounds (decomposition excluded).
fn round_calls(test: &Test) -> usize {
    test.server().round_requests().len()
}

#[test]
fn hello_world_reaches_the_goal_in_three_calls() {
    let test = Test::new()
        .script("hello")
        .args(["Write a hello world script"]);
    let run = test.run();
    run.assert_code(0);
    assert_eq!(test.read("hello.py"), "print(\"Hello, World!\")\n");
    assert!(
        round_calls(&test) <= 3,
        "{} model calls after decomposition",
        round_calls(&test)
    );
    assert!(run.stderr.contains("Goal achieved."), "{}", run.stderr);
    assert!(
        run.stderr.contains("1.1 Write hello.py"),
        "the tree is shown: {}",
        run.stderr
    );

    let state = test.assert_replay_matches();
    assert!(state.tree.is_achieved());
    assert_eq!(state.ended.map(|e| e.outcome), Some(Outcome::Achieved));
    assert_eq!(
        state
            .commands
            .back()
            .map(|c| (c.command.as_str(), c.exit_code)),
        Some(("python3 hello.py", Some(0)))
    );

    // Every action is announced before it runs and finished after.
    let events = test.events();
    let starts = events.iter().filter(|e| *e == "action_started").count();
    let ends = events.iter().filter(|e| *e == "action_finished").count();
    assert_eq!((starts, ends), (2, 2));
    assert_eq!(events.first().map(String::as_str), Some("run_started"));
    assert_eq!(events.get(1).map(String::as_str), Some("planned"));
    assert_eq!(events.last().map(String::as_str), Some("run_ended"));

    let ledger = std::fs::read_to_string(test.context().join("ledger.log")).unwrap();
    assert!(ledger.contains("WRITE   hello.py (23 bytes)"), "{ledger}");
    assert!(
        ledger.contains("CMD     python3 hello.py -> rc=0"),
        "{ledger}"
    );
    let log = std::fs::read_to_string(test.context().join("agent.log")).unwrap();
    assert!(
        log.contains("ACTIVE SUBTASK: Write hello.py"),
        "agent.log holds the context block"
    );
}

#[test]
fn the_model_is_sent_the_context_block_tools_and_options() {
    let test = Test::new().script("hello").args([
        "Write a hello world script",
        "--num-ctx",
        "8192",
        "--temperature",
        "0.3",
    ]);
    test.run().assert_code(0);
    let requests = test.server().round_requests();
    let first = &requests[0];
    assert_eq!(first["options"]["num_ctx"], 8192);
    assert_eq!(
        first["options"]["temperature"]
            .as_f64()
            .map(|t| (t * 10.0).round()),
        Some(3.0)
    );
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "list_dir",
            "read_file",
            "write_file",
            "edit_file",
            "search",
            "run_cmd",
            "mark_subtask_complete",
            "note"
        ]
    );
    let messages = first["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    let context = &crate::support::context(first);
    for label in [
        "GOAL: Write a hello world script",
        "CURRENT TASK: Create a hello world script (task 1/1)",
        "ACTIVE SUBTASK: Write hello.py that prints Hello, World! (subtask 1/1)",
        "FILES CREATED: (none)",
        "RECENT COMMANDS: (none)",
        "RECENT ERRORS: (none)",
        "BLOCKED ACTIONS: (none)",
    ] {
        assert!(
            context.lines().any(|l| l == label),
            "{label:?} missing from\n{context}"
        );
    }
    // The second round shows the write and its result, with the tool's name.
    let second = requests[1]["messages"].as_array().unwrap();
    let tool_result = second.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool_result["tool_name"], "write_file");
    assert!(
        second.last().unwrap()["content"]
            .as_str()
            .unwrap()
            .contains("FILES CREATED: hello.py")
    );
    // Decomposition used structured output.
    let plan_request = &test
        .server()
        .requests()
        .into_iter()
        .find(|r| r.get("format").is_some())
        .unwrap();
    assert_eq!(plan_request["format"]["required"][0], "tasks");
}

#[test]
fn a_failing_test_is_fixed_and_passes() {
    let test = Test::new()
        .script("rps_pytest")
        .args(["Create a rock-paper-scissors game with pytest tests"]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let codes: Vec<_> = state
        .commands
        .iter()
        .map(|c| (c.command.clone(), c.exit_code))
        .collect();
    // The model's runs, then the completion check's.
    assert_eq!(
        codes,
        [
            ("python3 -m pytest -q".to_string(), Some(1)),
            ("python3 -m pytest -q".to_string(), Some(0)),
            ("python3 -m pytest -q".to_string(), Some(0))
        ]
    );
    assert!(test.read("rps.py").starts_with("# fixed"));
    assert_eq!(state.tree.tasks.len(), 2);
    assert!(
        state
            .tree
            .tasks
            .iter()
            .all(|t| t.status == Status::Completed)
    );
    // The failure reached the model as a tool result and as a recent error.
    let requests = test.server().round_requests();
    let saw_failure =
        requests.iter().any(|r| {
            r["messages"].as_array().unwrap().iter().any(|m| {
                m["role"] == "tool" && m["content"].as_str().unwrap().contains("exit code 1")
            })
        });
    assert!(saw_failure);
}

#[test]
fn a_looping_model_is_stopped_by_the_guard() {
    let test = Test::new().script("looping").args(["Check the tools"]);
    let run = test.run();
    run.assert_code(0);
    assert!(run.stderr.contains("blocked a loop"), "{}", run.stderr);
    let state = test.assert_replay_matches();
    let records = test.records();
    let ran = records
        .iter()
        .filter(|r| matches!(&r.event, Event::ActionStarted { tool, .. } if tool == "run_cmd"))
        .count();
    let blocked: Vec<_> = records
        .iter()
        .filter(|r| matches!(r.event, Event::ActionBlocked { .. }))
        .collect();
    assert_eq!(ran, 2, "the third identical command is not run");
    assert_eq!(blocked.len(), 1);
    let loops: Value =
        serde_json::from_str(&std::fs::read_to_string(test.context().join("loops.json")).unwrap())
            .unwrap();
    assert_eq!(loops.as_array().unwrap().len(), 1);
    assert_eq!(loops[0]["pattern"], "repeat");
    assert_eq!(loops[0]["tool"], "run_cmd");
    assert_eq!(loops[0]["args"]["cmd"], "python3 --version");
    // The model was told, in the tool result and under BLOCKED ACTIONS.
    let last = test.server().round_requests().pop().unwrap();
    let context = last["messages"].as_array().unwrap().last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        context.contains("BLOCKED ACTIONS: run_cmd python3 --version\n"),
        "{context}"
    );
    assert!(state.tree.is_achieved());
    let ledger = std::fs::read_to_string(test.context().join("ledger.log")).unwrap();
    assert!(ledger.contains("BLOCKED run_cmd"), "{ledger}");
}

/// A note that says again what the last one said, with nothing done in
/// between, is blocked as a repeat (d1's fizzbuzz noted the same advice
/// eight rounds in a row).
#[test]
fn a_note_repeated_with_nothing_done_between_is_blocked() {
    let test = Test::new().script("noting").args(["Write hello.py"]);
    let run = test.run();
    test.assert_replay_matches();
    let records = test.records();
    let noted = records
        .iter()
        .filter(|r| matches!(r.event, Event::Noted { .. }))
        .count();
    let blocked: Vec<_> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::ActionBlocked { tool, .. } => Some(tool.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(noted, 1, "{}", run.stderr);
    assert_eq!(blocked, ["note"]);
    assert_eq!(test.read("hello.py"), "print('hello')\n");
}

#[test]
fn spent_rounds_stop_resumably_and_resume_reaches_the_goal() {
    let test = Test::new().script("rps_pytest");
    let goal = "Create a rock-paper-scissors game with pytest tests";
    let first = test.run_with(&[goal, "--max-rounds", "3"]);
    first.assert_code(1);
    assert!(first.stderr.contains("3 rounds spent"), "{}", first.stderr);
    let stopped = test.assert_replay_matches();
    assert_eq!(stopped.ended.map(|e| e.outcome), Some(Outcome::Stopped));
    assert_eq!(stopped.run_rounds, 3);

    let second = test.run_with(&["resume", "--max-rounds", "3"]);
    second.assert_code(1);
    assert_eq!(
        test.checkpoint().rounds,
        6,
        "a resume continues the count with a fresh budget"
    );

    // The same goal again resumes too, and finishes.
    let third = test.run_with(&[goal]);
    third.assert_code(0);
    let state = test.assert_replay_matches();
    assert!(state.tree.is_achieved());
    assert_eq!(state.runs, 3);
    assert_eq!(
        test.events().iter().filter(|e| *e == "planned").count(),
        1,
        "planned once"
    );

    let again = test.run_with(&[goal]);
    again.assert_code(0);
    assert!(
        again.stderr.contains("already achieved"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_new_goal_archives_the_old_run() {
    let test = Test::new().script("rps_pytest");
    test.run_with(&[
        "Create a rock-paper-scissors game with pytest tests",
        "--max-rounds",
        "1",
    ])
    .assert_code(1);
    let old = test.records().len();
    let run = test.run_with(&["Write a hello world script", "--max-rounds", "1"]);
    assert!(run.stderr.contains("archived"), "{}", run.stderr);
    let archives: Vec<_> = std::fs::read_dir(test.context().join("archive"))
        .unwrap()
        .collect();
    assert_eq!(archives.len(), 1);
    let archived = archives[0].as_ref().unwrap().path();
    let kept = std::fs::read_to_string(archived.join("history.jsonl")).unwrap();
    assert_eq!(kept.lines().count(), old, "the old log is kept whole");
    assert_eq!(test.checkpoint().goal, "Write a hello world script");
}

#[test]
fn a_server_that_is_down_ends_with_exit_3_and_what_to_do() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let test = Test::new()
        .env("OLLAMA_HOST", &format!("127.0.0.1:{port}"))
        .args(["Write a hello world script", "--retries", "2"]);
    let run = test.run();
    run.assert_code(3);
    assert!(
        run.stderr.contains(&format!(
            "cannot reach the model server at http://127.0.0.1:{port}/"
        )),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("ollama serve"), "{}", run.stderr);
    let state = test.assert_replay_matches();
    assert_eq!(state.retries, 2);
    assert_eq!(state.ended.map(|e| e.outcome), Some(Outcome::ModelUnusable));
}

#[test]
fn a_model_that_is_not_pulled_ends_with_exit_3() {
    let test = Test::new()
        .script("hello")
        .env("OLLAMA_MODEL", "qwen9:404b")
        .args(["Write a hello world script"]);
    let run = test.run();
    run.assert_code(3);
    assert!(
        run.stderr.contains("ollama pull qwen9:404b"),
        "{}",
        run.stderr
    );
    assert_eq!(
        test.server().requests().len(),
        1,
        "not found is not retried"
    );
}

#[test]
fn a_500_then_a_200_is_retried_and_finishes() {
    let test = Test::new()
        .script("flaky_500")
        .args(["Write a hello world script"]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.retries, 2,
        "one retry for the plan, one for the write"
    );
    assert!(
        run.stderr.contains("retries 2"),
        "the summary counts retries: {}",
        run.stderr
    );
}

#[test]
fn bad_usage_exits_2() {
    let test = Test::new();
    test.run().assert_code(2);
    let run = test.run_with(&["resume"]);
    run.assert_code(2);
    assert!(run.stderr.contains("no run to resume"), "{}", run.stderr);
    let run = test.run_with(&["goal", "--host", "ftp://x"]);
    run.assert_code(2);
    assert!(run.stderr.contains("OLLAMA_HOST"), "{}", run.stderr);
    test.run_with(&["goal", "--max-rounds", "lots"])
        .assert_code(2);
}

/// A reply cut off at the token cap inside its call (a file longer than
/// the cap, cut mid-line; one that wrote newlines until the cap is
/// written up to them, see `text_calls::cut_repetition`): corrected with
/// what happened and how to
/// write less, without the tools' schemas, which would stay in every later
/// prompt of the subtask; the next reply's call runs.
#[test]
fn a_reply_cut_off_at_the_cap_is_corrected_without_the_schemas() {
    let mut script = crate::support::fake_ollama::load_script("hello");
    let write = script.rules[0].clone();
    let mut again = write.clone();
    again.name = "again, whole".into();
    again.has = vec!["did not run: your reply was cut off".into()];
    let mut broken = write;
    broken.reply.tool_calls.clear();
    broken.reply.content = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"hello.py\", \
         \"content\": \"print(1)\\nprint('The quick brown fox jumps over the lazy dog, and"
        .to_string();
    broken.reply.done_reason = Some("length".into());
    script.rules.splice(0..1, [again, broken]);
    let test = Test::new()
        .serving(script)
        .args(["Write a hello world script"]);
    test.run().assert_code(0);
    let corrections: Vec<String> = test
        .records()
        .iter()
        .filter_map(|r| match &r.event {
            Event::Nudged { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(corrections.len(), 1, "{corrections:#?}");
    assert!(
        corrections[0].starts_with("Your last reply did not run: your reply was cut off"),
        "{}",
        corrections[0]
    );
    assert!(!corrections[0].contains("list_dir"), "{}", corrections[0]);
    // The file is new: it is to be written shorter, not edited.
    assert!(
        corrections[0].contains("hello.py is not there yet, so write_file it shorter"),
        "{}",
        corrections[0]
    );
    assert_eq!(test.read("hello.py"), "print(\"Hello, World!\")\n");
}
