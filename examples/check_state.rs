//! The evaluation script's check of one finished run (scripts/eval-real-model):
//! the state the runner left in `state.json` must equal the replay of
//! `history.jsonl` from nothing up to the state's `last_seq`, with every
//! line intact; `behind` says how many events came after it (0 for a run
//! that exited; more for one killed between checkpoints). Prints the verdict
//! and the run's figures as one JSON object; exits 1 when the state is not
//! valid.
//!
//!     cargo run --release --example check_state -- WORKSPACE

use std::process::ExitCode;

use runner::state::{Event, Record, State};
use runner::store::{checkpoint, log};
use serde_json::json;

fn main() -> ExitCode {
    let Some(workspace) = std::env::args().nth(1) else {
        eprintln!("usage: check_state WORKSPACE");
        return ExitCode::from(2);
    };
    let context = std::path::Path::new(&workspace).join(".agent_context");
    let mut problems = Vec::new();
    let records: Vec<Record> = match std::fs::read(context.join("history.jsonl")) {
        Ok(bytes) => {
            let (found, bad) = log::scan(&bytes);
            if let Some(bad) = bad {
                problems.push(format!("history.jsonl has a bad line: {bad:?}"));
            }
            found.into_iter().map(|f| f.record).collect()
        }
        Err(e) => {
            problems.push(format!("history.jsonl: {e}"));
            Vec::new()
        }
    };
    if records
        .iter()
        .enumerate()
        .any(|(i, r)| r.seq != i as u64 + 1)
    {
        problems.push("the seqs of history.jsonl are not 1, 2, 3, ...".into());
    }
    let replayed = State::replay(&records);
    let live = match std::fs::read(context.join("state.json")) {
        Ok(bytes) => match checkpoint::decode(&bytes) {
            Ok((state, _)) => Some(state),
            Err(e) => {
                problems.push(format!("state.json: {e}"));
                None
            }
        },
        Err(e) => {
            problems.push(format!("state.json: {e}"));
            None
        }
    };
    // A run killed between two checkpoints leaves state.json behind the
    // log (the log is the truth; a load replays what comes after the
    // checkpoint's last_seq): it must equal the replay up to its last_seq,
    // and never be ahead of the log.
    let mut behind = 0;
    if let Some(live) = &live {
        let last = records.len() as u64;
        if live.last_seq > last {
            problems.push(format!(
                "state.json is ahead of history.jsonl (last_seq {} of {last})",
                live.last_seq
            ));
        } else {
            behind = last - live.last_seq;
            let upto = State::replay(&records[..live.last_seq as usize]);
            if *live != upto {
                problems.push("state.json differs from the replay of history.jsonl".into());
            }
        }
    }
    let count = |f: &dyn Fn(&Event) -> bool| records.iter().filter(|r| f(&r.event)).count();
    let state = live.unwrap_or(replayed);
    let report = json!({
        "valid": problems.is_empty(),
        "behind": behind,
        "problems": problems,
        "outcome": state.ended.as_ref().map(|e| e.outcome),
        "reason": state.ended.as_ref().map(|e| e.reason.clone()),
        "model_calls": state.model_calls,
        "rounds": state.run_rounds,
        "max_rounds": state.max_rounds,
        "rounds_started": count(&|e| matches!(e, Event::RoundStarted { .. })),
        "subtasks": state.tree.tasks.iter().flat_map(|t| &t.subtasks).map(|s| json!({
            "description": s.description, "status": s.status, "reason": s.reason,
        })).collect::<Vec<_>>(),
        "files": state.files.keys().collect::<Vec<_>>(),
        "actions": count(&|e| matches!(e, Event::ActionFinished { .. })),
        "blocked": count(&|e| matches!(e, Event::ActionBlocked { .. })),
        "rejected": count(&|e| matches!(e, Event::CallRejected { .. })),
        "nudges": count(&|e| matches!(e, Event::Nudged { .. })),
        "calls_from_text": count(&|e| matches!(e, Event::ModelReplied { from_text: true, .. })),
        "prompt_tokens": state.usage.prompt_tokens,
        "prompt_cached": state.usage.prompt_cached,
        "prompt_cache_known": state.usage.prompt_cache_known,
        "completion_tokens": state.usage.completion_tokens,
        "retries": state.retries,
    });
    println!("{report}");
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
