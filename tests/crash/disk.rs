//! The store's failure paths through the real binary: an abort at every
//! failpoint, ENOSPC and EIO, a damaged log and checkpoint.

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;

use pretty_assertions::assert_eq;

use super::{JOIN, check_outcome, seed, spawn, stderr};
use crate::support::Test;
use crate::support::invariants::{self, Log};

/// Every failpoint of the store, before and after each operation.
const POINTS: [&str; 10] = [
    "append",
    "appended",
    "sync",
    "synced",
    "write",
    "written",
    "rename",
    "renamed",
    "sync_dir",
    "synced_dir",
];

/// Runs the job with `RUNNER_FAILPOINT=spec`; returns how it ended and the
/// test, to resume.
fn run_failing(spec: &str) -> (std::process::ExitStatus, Test) {
    let test = JOIN.test();
    let status = spawn(&test, &[JOIN.goal], &[("RUNNER_FAILPOINT", spec)])
        .wait()
        .expect("wait for the runner");
    (status, test)
}

/// Resumes with the same command, which must finish the job as an
/// uninterrupted run does.
fn resume_and_compare(test: &Test, expected: &BTreeMap<String, String>) {
    let status = spawn(test, &[JOIN.goal], &[]).wait().expect("wait");
    assert_eq!(status.code(), Some(0), "{}", stderr(test));
    check_outcome(test, expected);
}

#[test]
fn an_abort_at_any_failpoint_is_resumed_to_the_same_files() {
    let mut rng = fastrand::Rng::with_seed(seed());
    let (expected, _) = JOIN.baseline();
    let mut aborts = 0;
    for point in POINTS {
        // Passes 1, 2, 3, then steps that grow: early, middle and late
        // passes of every point, different ones each seed.
        let mut n = 1;
        loop {
            let (status, test) = run_failing(&format!("{point}:{n}"));
            if status.code() == Some(0) {
                assert!(n > 1, "the run never reached {point}");
                break;
            }
            assert_eq!(
                status.signal(),
                Some(libc::SIGABRT),
                "{point}:{n}: {}",
                stderr(&test)
            );
            aborts += 1;
            invariants::check_after_crash(&test.context(), &Log::default());
            resume_and_compare(&test, &expected);
            n += if n < 3 { 1 } else { 1 + rng.u32(0..=n) };
        }
    }
    eprintln!("{aborts} aborts at failpoints, each resumed");
}

#[test]
fn enospc_and_eio_end_the_run_with_exit_4_and_nothing_torn() {
    let mut rng = fastrand::Rng::with_seed(seed());
    let (expected, _) = JOIN.baseline();
    for (point, passes) in [("append", 60), ("sync", 17), ("write", 29), ("sync_dir", 6)] {
        for (errno, message) in [
            ("enospc", "No space left on device"),
            ("eio", "Input/output error"),
        ] {
            let spec = format!("{point}:{}:{errno}", rng.u32(1..=passes));
            let (status, test) = run_failing(&spec);
            let err = stderr(&test);
            assert_eq!(status.code(), Some(4), "{spec}: {err}");
            assert!(err.contains(message), "{spec}: {err}");
            assert!(err.contains("runner resume"), "{spec}: {err}");
            let log = invariants::check_after_crash(&test.context(), &Log::default());
            assert!(!log.torn, "{spec}: a torn record is left");
            resume_and_compare(&test, &expected);
        }
    }
}

#[test]
fn damage_in_the_log_is_refused_with_exit_4_unless_salvaged_and_a_bad_checkpoint_is_rebuilt() {
    let test = Test::new().script("hello");
    let goal = "Write a hello world script";
    test.run_with(&[goal, "--max-rounds", "1"]).assert_code(1);
    let path = test.context().join("history.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 4, "{text}");
    let damaged: String = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let line = if i == 2 {
                line.replacen("round", "rounD", 1)
            } else {
                line.to_string()
            };
            format!("{line}\n")
        })
        .collect();
    std::fs::write(&path, &damaged).unwrap();
    // A current checkpoint covers line 3: only a full replay reads it.
    std::fs::remove_file(test.context().join("state.json")).unwrap();

    let refused = test.run_with(&["resume"]);
    refused.assert_code(4);
    assert!(refused.stderr.contains("line 3"), "{}", refused.stderr);
    assert!(refused.stderr.contains("--salvage"), "{}", refused.stderr);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        damaged,
        "nothing changed"
    );

    let salvaged = test.run_with(&["resume", "--salvage"]);
    salvaged.assert_code(0);
    assert!(
        salvaged.stderr.contains("moved the rest"),
        "{}",
        salvaged.stderr
    );
    invariants::check_finished(&test.workspace);
    let aside: Vec<_> = std::fs::read_dir(test.context())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("history.jsonl.salvaged-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert!(
        std::fs::read_to_string(aside[0].path())
            .unwrap()
            .starts_with(&format!("{}\n", lines[2].replacen("round", "rounD", 1))),
        "the damaged line and what followed it are kept aside"
    );

    // A damaged checkpoint: rebuilt from the log, with a warning.
    let state = test.context().join("state.json");
    std::fs::write(&state, "{\"version\": 1, \"trunc").unwrap();
    test.run_with(&["status"]).assert_code(0);
    let again = test.run_with(&[goal]);
    again.assert_code(0);
    assert!(again.stderr.contains("rebuilt it from"), "{}", again.stderr);
    test.assert_replay_matches();
}
