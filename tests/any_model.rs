//! Any local model: JSON tool mode (tool calls through structured output),
//! auto mode and its fall-back from "does not support tools", and the OpenAI
//! chat API, all against the fake server, which speaks both APIs.

use pretty_assertions::assert_eq;
use runner::state::{Event, NudgeKind, State};
use serde_json::Value;

use crate::support::Test;
use crate::support::fake_ollama::{Script, load_script};

const GOAL: &str = "Write a hello world script";

/// Runs the hello script (changed by `change`) with `args`; checks it
/// reached the goal with the right file and a log that replays to the state.
fn hello(change: impl FnOnce(&mut Script), args: &[&str]) -> (Test, State, String) {
    let mut script = load_script("hello");
    change(&mut script);
    let test = Test::new()
        .serving(script)
        .args([GOAL])
        .args(args.iter().copied());
    let run = test.run();
    run.assert_code(0);
    assert_eq!(test.read("hello.py"), "print(\"Hello, World!\")\n");
    let state = test.assert_replay_matches();
    assert!(state.tree.is_achieved());
    (test, state, run.stderr)
}

fn same(_: &mut Script) {}

fn without_tools(script: &mut Script) {
    script.capabilities = vec!["completion".into()];
}

/// The chat requests that carried `tools`.
fn native_requests(test: &Test) -> usize {
    test.server()
        .requests()
        .iter()
        .filter(|r| r["tools"].as_array().is_some_and(|t| !t.is_empty()))
        .count()
}

/// Every round request went in JSON mode: no tools, the reply schema, the
/// tools in the system prompt, no tool role, past calls as JSON text.
fn assert_json_mode(test: &Test) {
    let rounds = test.server().round_requests();
    assert!(rounds.len() >= 3, "{} rounds", rounds.len());
    for request in &rounds {
        assert!(request.get("tools").is_none(), "{request}");
        let format = crate::support::fake_ollama::requested_format(request).expect("a schema");
        let names: Vec<&str> = format["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|choice| choice["properties"]["name"]["const"].as_str())
            .collect();
        assert_eq!(
            names,
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
        let messages = request["messages"].as_array().unwrap();
        assert!(
            messages[0]["content"]
                .as_str()
                .unwrap()
                .contains("Answer with exactly one JSON object and nothing else.")
        );
        assert!(messages.iter().all(|m| {
            m["role"] != "tool" && m["tool_calls"].as_array().is_none_or(|c| c.is_empty())
        }));
    }
    let second = rounds[1]["messages"].to_string();
    assert!(
        second.contains(r#"{\"name\":\"write_file\",\"arguments\":{\"path\":\"hello.py\""#),
        "the model's call is shown as the JSON it wrote: {second}"
    );
    assert!(second.contains("Result of write_file:"), "{second}");
}

fn replies(test: &Test) -> Vec<(Vec<String>, bool, Option<String>)> {
    test.records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ModelReplied {
                calls,
                from_text,
                done_reason,
                ..
            } => Some((
                calls.into_iter().map(|c| c.name).collect(),
                from_text,
                done_reason,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn json_mode_on_ollama_sends_no_tools_and_reaches_the_goal() {
    let (test, _, stderr) = hello(without_tools, &["--tool-mode", "json"]);
    assert_json_mode(&test);
    assert_eq!(native_requests(&test), 0);
    assert!(
        !stderr.contains("does not"),
        "no notice when asked for: {stderr}"
    );
    let names: Vec<Vec<String>> = replies(&test)
        .into_iter()
        .map(|(calls, from_text, _)| {
            assert!(!from_text, "the calls come from the structured reply");
            calls
        })
        .collect();
    assert_eq!(
        names,
        [
            vec!["write_file"],
            vec!["run_cmd"],
            vec!["mark_subtask_complete"]
        ]
    );
}

#[test]
fn auto_asks_for_json_when_the_model_lists_no_tools() {
    let (test, _, stderr) = hello(without_tools, &[]);
    assert_json_mode(&test);
    assert_eq!(native_requests(&test), 0, "no request was refused");
    assert_eq!(
        stderr.matches("does not list tool support").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn auto_falls_back_to_json_after_does_not_support_tools() {
    // Ollama before 0.6.4 did not list capabilities: native is tried first.
    let (test, state, stderr) = hello(
        |script| {
            without_tools(script);
            script.hide_capabilities = true;
        },
        &[],
    );
    assert_eq!(
        native_requests(&test),
        1,
        "one refused call, then JSON mode"
    );
    assert_eq!(
        stderr.matches("does not support tools").count(),
        1,
        "{stderr}"
    );
    assert_eq!(
        state.model_calls, 6,
        "plan, three rounds, the assessment, reflection: the refusal is no call"
    );
}

#[test]
fn native_mode_keeps_native_and_says_what_to_do() {
    let test = Test::new()
        .serving({
            let mut script = load_script("hello");
            without_tools(&mut script);
            script
        })
        .args([GOAL, "--tool-mode", "native"]);
    let run = test.run();
    run.assert_code(3);
    assert!(
        run.stderr.contains("does not support tools"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--tool-mode json"), "{}", run.stderr);
    assert_eq!(native_requests(&test), 1);
    test.assert_replay_matches();
}

#[test]
fn auto_on_a_model_with_tools_goes_native() {
    let (test, _, stderr) = hello(same, &[]);
    assert!(native_requests(&test) >= 3);
    assert!(
        test.server()
            .round_requests()
            .iter()
            .all(|r| r.get("format").is_none())
    );
    assert!(!stderr.contains("JSON"), "{stderr}");
}

/// Round requests of the OpenAI API, and the ids of tool results.
fn assert_openai_rounds(test: &Test) {
    let rounds = test.server().round_requests();
    assert!(rounds.len() >= 3);
    for request in &rounds {
        assert_eq!(request["stream"], Value::Bool(true));
        assert_eq!(request["max_tokens"], serde_json::json!(4096));
        assert!(
            request.get("options").is_none(),
            "no Ollama options: {request}"
        );
    }
    let second = &rounds[1]["messages"];
    let call = second
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "assistant")
        .expect("the model's call");
    let result = second
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .expect("its result");
    assert_eq!(result["tool_call_id"], call["tool_calls"][0]["id"]);
    assert!(call["tool_calls"][0]["function"]["arguments"].is_string());
}

#[test]
fn openai_native_reaches_the_goal_with_or_without_v1_in_the_host() {
    for suffix in ["", "/v1"] {
        let mut script = load_script("hello");
        script.bytes_per_token = 2;
        let test = Test::new().serving(script).args([GOAL, "--api", "openai"]);
        let host = format!("{}{suffix}", test.server().url());
        let run = test.run_with(&["--host", &host]);
        run.assert_code(0);
        let state = test.assert_replay_matches();
        assert!(state.tree.is_achieved());
        assert_openai_rounds(&test);
        assert!(
            test.server()
                .round_requests()
                .iter()
                .all(|r| r["tool_choice"] == "auto")
        );
        assert!(state.usage.prompt_tokens > 1000 && state.usage.completion_tokens > 0);
        assert!(
            test.server()
                .requests()
                .iter()
                .all(|r| r.get("messages").is_none()
                    || r.get("response_format").is_some()
                    || r.get("tools").is_some()),
            "every chat went to /v1/chat/completions"
        );
    }
}

#[test]
fn openai_json_mode_uses_response_format() {
    let (test, _, _) = hello(without_tools, &["--api", "openai", "--tool-mode", "json"]);
    assert_json_mode(&test);
    for request in test.server().round_requests() {
        assert_eq!(request["response_format"]["type"], "json_schema");
        assert!(request.get("tool_choice").is_none());
    }
}

#[test]
fn openai_auto_falls_back_after_does_not_support_tools() {
    let (test, _, stderr) = hello(without_tools, &["--api", "openai"]);
    assert_eq!(native_requests(&test), 1);
    assert_eq!(
        stderr.matches("does not support tools").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn llama_server_props_tell_auto_mode_and_the_context() {
    let (test, state, stderr) = hello(
        |script| {
            script.props = Some(serde_json::json!({
                "chat_template_caps": { "supports_tool_calls": false, "supports_tools": false },
                "default_generation_settings": { "n_ctx": 4096 },
            }));
        },
        &["--api", "openai"],
    );
    assert_eq!(native_requests(&test), 0, "JSON mode from the start");
    assert_json_mode(&test);
    let started = test.records().into_iter().find_map(|r| match r.event {
        Event::RunStarted { num_ctx, .. } => Some(num_ctx),
        _ => None,
    });
    assert_eq!(started, Some(4096));
    // The plan, three rounds, the completion check's assessment, reflection.
    assert_eq!(state.model_calls, 6);
    // llama-server said how much of each prompt came from its cache: the
    // run sums it, and the summary and status say it.
    assert!(state.usage.prompt_cache_known > 0);
    assert!(state.usage.prompt_cached > 0);
    assert!(state.usage.prompt_cached < state.usage.prompt_cache_known);
    let share = state.usage.cache_note();
    assert!(stderr.contains(&share), "{share} in {stderr}");
    let status = test.run_alone(&["status"]);
    assert!(status.stdout.contains(&share), "{}", status.stdout);
}

#[test]
fn ollama_does_not_say_what_it_took_from_its_cache() {
    let (_, state, stderr) = hello(same, &[]);
    assert_eq!(state.usage.cache_share(), None);
    assert!(!stderr.contains("prompt cache"), "{stderr}");
}

#[test]
fn a_reply_cut_at_the_cap_is_reported_the_same_by_both_apis() {
    for api in ["ollama", "openai"] {
        let (test, _, _) = hello(
            |script| script.rules[0].reply.done_reason = Some("length".into()),
            &["--api", api],
        );
        let reasons: Vec<Option<String>> = replies(&test).into_iter().map(|(_, _, r)| r).collect();
        let want = |r: &str| Some(r.to_string());
        let tail = if api == "ollama" {
            "stop"
        } else {
            "tool_calls"
        };
        assert_eq!(reasons, [want("length"), want(tail), want(tail)], "{api}");
    }
}

#[test]
fn an_unparsed_tool_call_on_llama_server_gets_a_correction_not_a_retry() {
    let test = Test::new()
        .played("hello", "unparsed")
        .args([GOAL, "--api", "openai"]);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(state.retries, 0, "not retried blindly");
    let events: Vec<Event> = test.records().into_iter().map(|r| r.event).collect();
    let failed = events.iter().position(|e| {
        matches!(e, Event::ModelFailed { error, .. } if error.contains("could not parse the model's tool call"))
    });
    let corrected = events.iter().position(|e| {
        matches!(
            e,
            Event::Nudged {
                kind: NudgeKind::Correction,
                ..
            }
        )
    });
    assert!(failed.is_some() && corrected > failed, "{events:?}");
}

#[test]
fn a_flaky_openai_server_is_retried() {
    let test = Test::new()
        .played("hello", "flaky")
        .args([GOAL, "--api", "openai"]);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();
    assert!(state.tree.is_achieved());
    assert!(state.retries >= 2, "{}", state.retries);
}

/// Every file under `dir`, as bytes.
fn every_file(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect()
}

fn assert_nowhere(test: &Test, key: &str, outputs: &[&str]) {
    for (path, bytes) in every_file(&test.workspace) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(key), "the key is in {}", path.display());
    }
    for output in outputs {
        assert!(!output.contains(key), "the key was printed: {output}");
    }
}

#[test]
fn the_api_key_is_sent_and_never_written_or_printed() {
    const KEY: &str = "sk-runner-test-4f1c9e";
    let serving = || {
        let mut script = load_script("hello");
        script.api_key = Some(KEY.into());
        script
    };
    // From a variable named on the command line, with every log on.
    let test = Test::new()
        .serving(serving())
        .env("MY_SERVER_KEY", KEY)
        .env("RUNNER_LOG", "trace")
        .args([
            GOAL,
            "--api",
            "openai",
            "--api-key",
            "env:MY_SERVER_KEY",
            "-v",
            "--json",
        ]);
    let run = test.run();
    run.assert_code(0);
    assert!(test.context().join("agent.log").exists());
    assert_nowhere(&test, KEY, &[&run.stdout, &run.stderr]);

    // The key itself, and RUNNER_API_KEY.
    let test = Test::new()
        .serving(serving())
        .args([GOAL, "--api", "openai", "--api-key", KEY]);
    let run = test.run();
    run.assert_code(0);
    assert_nowhere(&test, KEY, &[&run.stdout, &run.stderr]);
    let test = Test::new()
        .serving(serving())
        .env("RUNNER_API_KEY", KEY)
        .args([GOAL, "--api", "openai"]);
    test.run().assert_code(0);

    // A wrong key: refused, said so, and the wrong key not echoed.
    let wrong = "sk-wrong-key-77aa";
    let test = Test::new()
        .serving(serving())
        .env("RUNNER_API_KEY", wrong)
        .env("RUNNER_LOG", "trace")
        .args([GOAL, "--api", "openai"]);
    let run = test.run();
    run.assert_code(3);
    assert!(run.stderr.contains("--api-key"), "{}", run.stderr);
    assert_nowhere(&test, wrong, &[&run.stdout, &run.stderr]);
}

#[test]
fn openai_replies_are_streamed_unless_the_server_refuses() {
    let streamed = |test: &Test| -> Vec<bool> {
        test.server()
            .requests()
            .iter()
            .map(|r| r["stream"].as_bool().unwrap_or(false))
            .collect()
    };
    let (test, _, _) = hello(same, &["--api", "openai"]);
    let asked = streamed(&test);
    assert!(asked.len() >= 3 && asked.iter().all(|s| *s), "{asked:?}");
    // Refused once, the client asks for whole replies from then on, and
    // the run goes on as if nothing happened.
    let (test, _, _) = hello(|s| s.refuses_streaming = true, &["--api", "openai"]);
    let asked = streamed(&test);
    assert_eq!(asked[..2], [true, false], "{asked:?}");
    assert!(asked[2..].iter().all(|s| !s), "{asked:?}");
}

#[test]
fn a_reply_that_repeats_itself_is_stopped_by_both_apis() {
    for api in ["ollama", "openai"] {
        let test = Test::new().script("repeating").args([
            "Write an add function with pytest tests",
            "--max-rounds",
            "12",
            "--api",
            api,
        ]);
        test.run().assert_code(0);
        let stopped = replies(&test)
            .into_iter()
            .filter(|(_, _, reason)| reason.as_deref() == Some("repetition"))
            .count();
        assert_eq!(stopped, 2, "{api}: both of the script's loops");
        assert!(
            test.read("test_calc.py").contains("def test_add():"),
            "{api}"
        );
    }
}
