//! The views through the real binary: `status`, `history`, `loops`,
//! `reset --list`, `completions`; `doctor` and the undo (`rollback`, `diff`)
//! in the modules below.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::Test;

mod doctor;
mod undo;

/// A safety net for the waits below, never an assertion on speed: a wait
/// that ends later than this has hung.
const HUNG: Duration = Duration::from_secs(120);

/// Stable text for a snapshot: no temp path, no time, no token counts (they
/// follow the prompt, which other changes reword).
fn redact(text: &str, test: &Test) -> String {
    let text = text.replace(&test.workspace.display().to_string(), "[WORKSPACE]");
    text.lines()
        .map(|line| redact_tokens(&redact_times(line)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `2026-11-22 10:00:00` → `[TIME]`.
fn redact_times(line: &str) -> String {
    let shape = "dddd-dd-dd dd:dd:dd";
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let fits = chars.len() - i >= shape.len()
            && shape.chars().zip(&chars[i..]).all(|(s, c)| match s {
                'd' => c.is_ascii_digit(),
                s => s == *c,
            });
        if fits {
            out.push_str("[TIME]");
            i += shape.len();
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `123 prompt / 45 completion` and `123+45 tokens` → `[N]`.
fn redact_tokens(line: &str) -> String {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let words: Vec<&str> = line.split(' ').collect();
    words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            let next = words.get(i + 1).copied().unwrap_or("");
            if digits(word) && (next == "prompt" || next.starts_with("completion")) {
                "[N]".to_string()
            } else if next == "tokens"
                && word
                    .split_once('+')
                    .is_some_and(|(a, b)| digits(a) && digits(b))
            {
                "[N]+[N]".to_string()
            } else {
                word.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub const RPS_GOAL: &str = "Create a rock-paper-scissors game with pytest tests";

#[test]
fn status_and_history_of_a_stopped_run() {
    let test = Test::new().script("rps_pytest");
    test.run_with(&[RPS_GOAL, "--max-rounds", "3"])
        .assert_code(1);
    let status = test.run_with(&["status"]);
    status.assert_code(0);
    assert!(!status.stdout.contains('\x1b'), "no colour off a terminal");
    insta::assert_snapshot!("status_of_a_stopped_run", redact(&status.stdout, &test));
    let history = test.run_with(&["history"]);
    history.assert_code(0);
    assert!(!history.stdout.contains('\x1b'));
    insta::assert_snapshot!("history_of_a_stopped_run", redact(&history.stdout, &test));

    let records = test.records();
    assert_eq!(history.stdout.lines().count(), records.len());
    let last = test.run_with(&["history", "-n", "2", "--json"]);
    last.assert_code(0);
    let lines: Vec<Value> = last
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["seq"], records.len());
    assert_eq!(lines[1]["event"], "run_ended");
    let json = test.run_with(&["status", "--json"]);
    let state: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(state["goal"], RPS_GOAL);
}

#[test]
fn status_reads_a_crashed_run_and_a_locked_one() {
    let test = Test::new()
        .script("rps_pytest")
        .env("RUNNER_FAILPOINT", "append:6");
    let crashed = test.run_with(&[RPS_GOAL]);
    assert_ne!(crashed.code, Some(0), "the failpoint aborts the run");
    // A torn last line, as a crash in the middle of a write leaves it.
    let history = test.context().join("history.jsonl");
    let mut bytes = std::fs::read(&history).unwrap();
    bytes.extend_from_slice(b"{\"seq\":6,\"ts\":\"2026");
    std::fs::write(&history, &bytes).unwrap();

    let status = test.run_with(&["status"]);
    status.assert_code(0);
    assert!(
        status
            .stdout
            .contains("stopped without a word (a crash or a kill)"),
        "{}",
        status.stdout
    );
    let resume = format!("Resume with: runner -C {} resume", test.workspace.display());
    assert!(status.stdout.contains(&resume), "{}", status.stdout);
    assert_eq!(
        std::fs::read(&history).unwrap(),
        bytes,
        "status changes nothing"
    );

    // Another runner holds the workspace: status reads it, rollback waits.
    let lock_path = test.context().join("lock");
    let lock = std::fs::File::options()
        .read(true)
        .write(true)
        .open(&lock_path)
        .unwrap();
    lock.try_lock().unwrap();
    std::fs::write(&lock_path, format!("{}\n", std::process::id())).unwrap();
    let status = test.run_with(&["status"]);
    status.assert_code(0);
    let running = format!("Status: running (pid {})", std::process::id());
    assert!(status.stdout.contains(&running), "{}", status.stdout);
    assert!(!status.stdout.contains("Resume with"), "{}", status.stdout);
    let rollback = test.run_with(&["rollback", "--to", "0"]);
    rollback.assert_code(4);
    assert!(
        rollback.stderr.contains("in use by another runner"),
        "{}",
        rollback.stderr
    );
    drop(lock);
}

#[test]
fn loops_archives_and_completions() {
    let test = Test::new().script("looping");
    test.run_with(&["Check the tools"]).assert_code(0);
    let loops = test.run_with(&["loops"]);
    loops.assert_code(0);
    let row = loops
        .stdout
        .lines()
        .find(|l| l.contains("repeat"))
        .unwrap_or_else(|| panic!("{}", loops.stdout));
    assert!(
        row.contains("run_cmd") && row.contains(r#"{"cmd":"python3 --version"}"#),
        "{row}"
    );

    test.run_with(&["reset"]).assert_code(0);
    let list = test.run_with(&["reset", "--list"]);
    list.assert_code(0);
    let archived: Vec<&str> = list
        .stdout
        .lines()
        .filter(|l| l.contains("records"))
        .collect();
    assert_eq!(archived.len(), 1, "{}", list.stdout);
    assert!(
        archived[0].contains("achieved") && archived[0].contains("\"Check the tools\""),
        "{}",
        archived[0]
    );
    let status = test.run_with(&["status"]);
    assert!(status.stdout.starts_with("No run in"), "{}", status.stdout);

    for shell in ["bash", "zsh", "fish"] {
        let script = test.run_with(&["completions", shell]);
        script.assert_code(0);
        assert!(script.stdout.contains("rollback"), "{shell}");
    }
    test.run_with(&["completions", "tcsh"]).assert_code(2);
}

/// Waits until `ready` holds; panics when it takes longer than [`HUNG`].
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < HUNG, "hung waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn history_follow_tails_a_running_run_until_it_ends() {
    let test = Test::new().script("waiting").file(
        "wait.py",
        "import os, time\nwhile not os.path.exists('go'):\n    time.sleep(0.02)\n",
    );
    let mut runner = test
        .command(&["Wait for the signal"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let history = test.context().join("history.jsonl");
    wait_until("the command to start", || {
        std::fs::read_to_string(&history).is_ok_and(|log| log.contains("run_cmd python3 wait.py"))
    });
    let mut follow = test
        .command(&["history", "--follow"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel();
    let stdout = follow.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen: Vec<String> = Vec::new();
    let next = |seen: &mut Vec<String>| match received.recv_timeout(HUNG) {
        Ok(line) => {
            seen.push(line);
            true
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => false,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("hung following:\n{}", seen.join("\n")),
    };
    while !seen.iter().any(|l| l.contains("run_cmd python3 wait.py")) {
        assert!(next(&mut seen), "follow ended early:\n{}", seen.join("\n"));
    }
    std::fs::write(test.workspace.join("go"), "").unwrap();
    assert!(runner.wait().unwrap().success());
    while next(&mut seen) {}
    assert!(follow.wait().unwrap().success(), "follow ends with the run");

    let seqs: Vec<u64> = seen
        .iter()
        .map(|line| line.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    let all: Vec<u64> = test.records().iter().map(|r| r.seq).collect();
    assert_eq!(seqs, all, "every record once, in order");
    assert!(
        seen.last().unwrap().contains("run_ended       achieved"),
        "{}",
        seen.join("\n")
    );
    assert!(
        seen.iter()
            .any(|l| l.contains("action_finished") && l.contains("ok: rc=0"))
    );
}
