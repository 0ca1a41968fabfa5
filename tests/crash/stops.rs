//! Stops: Ctrl-C and SIGTERM, a second Ctrl-C, and the lock of one runner
//! per workspace.

use std::os::unix::process::ExitStatusExt;
use std::process::Child;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use runner::state::{Event, Outcome};

use super::{context_block, spawn, stderr};
use crate::support::Test;
use crate::support::invariants::{self, Log, UNKNOWN};

/// Waits (up to a minute: a failing test, not a timing) until `ready`.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "gave up waiting until {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, signal: i32) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill has no memory effects; the child is ours and not reaped.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

#[test]
fn ctrl_c_or_sigterm_while_the_model_thinks_stops_with_130_and_resume_finishes() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let test = Test::new().script("slow_thinker");
        let mut child = spawn(&test, &["Say hello"], &[]);
        wait_until("the model thinks", || {
            !test.server().round_requests().is_empty()
        });
        signal(&child, sig);
        let status = child.wait().expect("wait");
        let err = stderr(&test);
        assert_eq!(status.code(), Some(130), "signal {sig}: {err}");
        let resume = format!(
            "runner -C {} resume",
            shell_words::quote(&test.workspace.to_string_lossy())
        );
        assert!(
            err.contains(&resume),
            "the resume command is printed: {err}"
        );
        // A consistent log, ended as interrupted, and its checkpoint.
        let state = test.assert_replay_matches();
        assert_eq!(
            state.ended.map(|e| e.outcome),
            Some(Outcome::Interrupted),
            "signal {sig}"
        );
        invariants::check_actions(&test.records(), true);
        // A resume (with another budget: the model thinks fast then).
        test.run_with(&["resume", "--max-rounds", "10"])
            .assert_code(0);
        invariants::check_finished(&test.workspace);
        assert_eq!(test.read("hello.txt"), "hello\n");
    }
}

#[test]
fn a_second_ctrl_c_quits_at_once_and_the_log_stays_consistent() {
    let test = Test::new()
        .script("stubborn_command")
        .args(["--allow", "sh"]);
    let mut child = spawn(&test, &["Wait for it"], &[]);
    // The command ignores SIGTERM: the first Ctrl-C waits for it to die.
    wait_until("the command runs", || {
        test.workspace.join("started").exists()
    });
    signal(&child, libc::SIGINT);
    wait_until("the runner says it is stopping", || {
        stderr(&test).contains("stopping at the next safe point")
    });
    signal(&child, libc::SIGINT);
    let status = child.wait().expect("wait");
    let err = stderr(&test);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("quitting now"), "{err}");
    let log = Log::read(&test.context());
    assert!(!log.torn);
    invariants::check_checkpoint(&test.context(), &log);
    invariants::check_actions(&log.records, false);
    assert!(
        matches!(&log.records.last().map(|r| &r.event), Some(Event::ActionStarted { tool, .. }) if tool == "run_cmd"),
        "it quit without waiting for the command: {:?}",
        log.records.last()
    );
    // Resumed: the command is not run again, the model is told.
    test.run_with(&["resume"]).assert_code(0);
    invariants::check_finished(&test.workspace);
    let requests = test.server().round_requests();
    assert!(context_block(requests.last().expect("a request")).contains(UNKNOWN));
}

#[test]
fn one_runner_per_workspace_and_a_killed_ones_lock_blocks_nothing() {
    let test = Test::new().script("slow_thinker");
    let mut first = spawn(&test, &["Say hello"], &[]);
    wait_until("the first runner asks the model", || {
        !test.server().round_requests().is_empty()
    });
    let second = test.run_with(&["resume"]);
    second.assert_code(4);
    assert!(
        second.stderr.contains(&format!("pid {}", first.id())),
        "the holder is named: {}",
        second.stderr
    );
    test.run_with(&["status"]).assert_code(0);
    first.kill().expect("kill -9");
    assert_eq!(first.wait().expect("wait").signal(), Some(libc::SIGKILL));
    test.run_with(&["resume", "--max-rounds", "10"])
        .assert_code(0);
    invariants::check_finished(&test.workspace);
}

#[test]
fn a_mistake_is_in_memory_json_when_the_run_is_killed_before_its_end() {
    // The model calls a tool that does not exist (a mistake for later
    // runs), then thinks for a minute: the runner is killed meanwhile.
    let test = Test::new().script("mistake_then_slow");
    let mut child = spawn(&test, &["Say hello"], &[]);
    wait_until("the model thinks after its mistake", || {
        test.server().round_requests().len() >= 2
    });
    child.kill().expect("kill -9");
    assert_eq!(child.wait().expect("wait").signal(), Some(libc::SIGKILL));
    let memory = std::fs::read_to_string(test.context().join("memory.json"))
        .expect("memory.json is written with the mistake, not at the end of the run");
    assert!(memory.contains("there is no tool named"), "{memory}");
    // The resume keeps it, once.
    test.run_with(&["resume", "--max-rounds", "10"])
        .assert_code(0);
    let memory: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(test.context().join("memory.json")).expect("memory.json"),
    )
    .expect("json");
    let mistakes = memory["mistakes"].as_array().expect("mistakes");
    assert_eq!(mistakes.len(), 1, "{memory}");
    assert_eq!(mistakes[0]["count"], 1, "{memory}");
    let ledger = std::fs::read_to_string(test.context().join("ledger.log")).expect("ledger");
    assert!(ledger.contains("WRITE   hello.txt"), "{ledger}");
}
