//! A real model, end to end (opt-in: `scripts/real-model-e2e` sets up
//! llama-server with a model and runs this with `--ignored`). The runner
//! works the hello-world goal in JSON tool mode over the OpenAI API with a
//! small round cap. A tiny model's answers are poor, so this asserts only
//! what must hold whatever it says, and reports what it did.
//!
//! RUNNER_E2E_HOST      the server (required), e.g. http://127.0.0.1:8089
//! RUNNER_E2E_MODEL     the model name sent (default: smollm2)
//! RUNNER_E2E_ROUNDS    the round cap (default: 4)
//! RUNNER_E2E_ARGS      more arguments, split on spaces
//! RUNNER_E2E_REPORT    a file to write the figures to, as JSON
//! RUNNER_E2E_KEEP      a folder to copy the workspace to (with .agent_context)

use std::path::Path;
use std::time::{Duration, Instant};

use runner::state::{Event, Outcome};
use serde_json::json;

use crate::support::Test;

/// Far longer than a run of a few rounds takes even on a busy 2-core
/// machine: past this the runner is taken to hang.
const DEADLINE: Duration = Duration::from_secs(60 * 60);

fn var(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// Names of everything under `dir`, relative to it.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.path().strip_prefix(dir).unwrap().display().to_string())
        .collect();
    names.sort();
    names
}

#[test]
#[ignore = "needs a real model server: run scripts/real-model-e2e"]
fn a_real_model_end_to_end() {
    let host =
        std::env::var("RUNNER_E2E_HOST").expect("RUNNER_E2E_HOST: run scripts/real-model-e2e");
    let model = var("RUNNER_E2E_MODEL", "smollm2");
    let rounds: u32 = var("RUNNER_E2E_ROUNDS", "4")
        .parse()
        .expect("RUNNER_E2E_ROUNDS");
    let extra = var("RUNNER_E2E_ARGS", "");
    let test = Test::new()
        .env("OLLAMA_HOST", &host)
        .env("OLLAMA_MODEL", &model)
        .args([
            "Write a hello world script",
            "--api",
            "openai",
            "--tool-mode",
            "json",
        ])
        .args(["--max-rounds", &rounds.to_string()])
        .args(extra.split_whitespace());
    let outside_before = listing(test.root());
    let started = Instant::now();
    let run = test
        .run_within(&[], DEADLINE)
        .unwrap_or_else(|| panic!("the runner did not end within {DEADLINE:?}"));
    let wall = started.elapsed();
    eprintln!("--- stderr ---\n{}", run.stderr);

    // Exit 0 or 1: achieved, or stopped resumably. Never a crash (a signal
    // has no code), a model failure or a broken store.
    assert!(
        matches!(run.code, Some(0 | 1)),
        "exit {:?}\n{}",
        run.code,
        run.stderr
    );
    let state = test.assert_replay_matches();
    let records = test.records();
    let round_events = records
        .iter()
        .filter(|r| matches!(r.event, Event::RoundStarted { .. }))
        .count() as u32;
    assert!(
        state.run_rounds <= rounds && round_events <= rounds,
        "the round cap"
    );
    let outcome = state
        .ended
        .as_ref()
        .map(|e| e.outcome)
        .expect("the run ended");
    assert_eq!(run.code == Some(0), outcome == Outcome::Achieved);

    // Nothing written outside the workspace: the home folder is untouched and
    // beside the workspace nothing appeared.
    let outside_after: Vec<String> = listing(test.root())
        .into_iter()
        .filter(|name| !name.starts_with("work"))
        .collect();
    let outside_before: Vec<String> = outside_before
        .into_iter()
        .filter(|name| !name.starts_with("work"))
        .collect();
    assert_eq!(outside_after, outside_before, "files outside the workspace");
    for path in state.files.keys() {
        let resolved = test.workspace.join(path);
        assert!(
            !path.contains("..") && resolved.starts_with(&test.workspace),
            "{path}"
        );
    }

    let count = |name: &str| records.iter().filter(|r| r.event.name() == name).count();
    let calls_from_json = records
        .iter()
        .filter(|r| matches!(&r.event, Event::ModelReplied { calls, .. } if !calls.is_empty()))
        .count();
    // What the model said, shortened: the report is for a person.
    let said: Vec<String> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::ModelReplied { content, calls, .. } => Some(if calls.is_empty() {
                content.chars().take(100).collect()
            } else {
                calls
                    .iter()
                    .map(|c| {
                        format!("{} {}", c.name, c.arguments)
                            .chars()
                            .take(100)
                            .collect()
                    })
                    .collect::<Vec<String>>()
                    .join("; ")
            }),
            _ => None,
        })
        .collect();
    if let Ok(keep) = std::env::var("RUNNER_E2E_KEEP") {
        let keep = Path::new(&keep);
        let _ = std::fs::remove_dir_all(keep);
        for entry in walkdir::WalkDir::new(&test.workspace)
            .into_iter()
            .filter_map(Result::ok)
        {
            let to = keep.join(entry.path().strip_prefix(&test.workspace).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else if entry.file_type().is_file() {
                std::fs::copy(entry.path(), &to).unwrap();
            }
        }
    }
    let report = json!({
        "model": model,
        "exit": run.code,
        "outcome": outcome,
        "reason": state.ended.as_ref().map(|e| e.reason.clone()),
        "model_calls": state.model_calls,
        "rounds": state.run_rounds,
        "round_cap": rounds,
        "replies_with_a_call": calls_from_json,
        "actions": count("action_finished"),
        "rejected_calls": count("call_rejected"),
        "nudges": count("nudged"),
        "subtasks_ended": count("subtask_ended"),
        "files": state.files.keys().collect::<Vec<_>>(),
        "prompt_tokens": state.usage.prompt_tokens,
        "completion_tokens": state.usage.completion_tokens,
        "retries": state.retries,
        "wall_seconds": (wall.as_secs_f64() * 10.0).round() / 10.0,
        "replies": said,
    });
    println!("REAL-MODEL REPORT {report}");
    if let Ok(path) = std::env::var("RUNNER_E2E_REPORT") {
        std::fs::write(path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    }
}
