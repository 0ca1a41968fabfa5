//! A newcomer's first hour (issue 16): every hint the runner prints works as
//! printed, bad input is refused with what is true and leaves no trace, and a
//! closed pipe never ends a run.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::support::{Test, search_path};

mod resume;

/// The runner as a person types it in `dir`: no OLLAMA_HOST or OLLAMA_MODEL
/// from the test builder, nothing but PATH and HOME.
fn bare(dir: &Path, home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_runner"));
    command
        .env_clear()
        .env("PATH", search_path())
        .env("HOME", home)
        .env("LANG", "C.UTF-8")
        .current_dir(dir);
    command
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn ran(output: Output) -> Ran {
    Ran {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn run(command: &mut Command) -> Ran {
    ran(command.output().expect("run the runner"))
}

/// Runs a hint exactly as printed (a shell command line starting `runner`).
fn run_hint(hint: &str, dir: &Path, home: &Path) -> Ran {
    let words = shell_words::split(hint).expect("a hint is a shell command line");
    assert_eq!(words[0], "runner", "{hint}");
    run(bare(dir, home).args(&words[1..]))
}

/// The text between the first pair of backticks after `marker`.
fn quoted_after(text: &str, marker: &str) -> String {
    let rest = &text[text
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} in {text}"))..];
    let start = rest.find('`').expect("an opening backtick") + 1;
    let end = start + rest[start..].find('`').expect("a closing backtick");
    rest[start..end].to_string()
}

fn assert_fails(ran: &Ran, code: i32, says: &[&str]) {
    assert_eq!(ran.code, Some(code), "{}", ran.stderr);
    for words in says {
        assert!(
            ran.stderr.contains(words),
            "{words:?} not in:\n{}",
            ran.stderr
        );
    }
    assert!(!ran.stderr.contains("panicked"), "{}", ran.stderr);
}

const GOAL: &str = "Create a rock-paper-scissors game with pytest tests";

/// A stream whose reader is gone: every write to it fails with EPIPE.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer
}

#[test]
fn a_closed_stdout_or_stderr_never_ends_a_run() {
    let test = Test::new().script("hello");
    let status = test
        .command(&["Write a hello world script", "--json"])
        .stdout(closed_pipe())
        .stderr(closed_pipe())
        .status()
        .expect("run the runner");
    assert_eq!(status.code(), Some(0), "the run went on without printing");
    assert_eq!(test.read("hello.py"), "print(\"Hello, World!\")\n");
}

#[test]
fn completions_into_a_closed_pipe_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let output = bare(dir.path(), dir.path())
        .args(["completions", "bash"])
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let ran = ran(output);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stderr, "", "no panic, no backtrace");
}

#[test]
fn an_emptied_log_beside_a_valid_state_is_refused_and_nothing_is_overwritten() {
    let test = Test::new().script("rps_pytest");
    test.run_with(&[GOAL, "--max-rounds", "1"]).assert_code(1);
    let state = std::fs::read(test.context().join("state.json")).unwrap();
    std::fs::write(test.context().join("history.jsonl"), "").unwrap();
    let again = test.run_with(&[GOAL]);
    assert_fails(
        &again.into(),
        4,
        &["the log was emptied or cut", "--salvage", "runner reset"],
    );
    let status = test.run_with(&["status"]);
    assert_fails(&status.into(), 4, &["the log was emptied or cut"]);
    assert_eq!(
        std::fs::read(test.context().join("state.json")).unwrap(),
        state
    );
    assert_eq!(
        std::fs::read(test.context().join("history.jsonl")).unwrap(),
        b""
    );
}

impl From<crate::support::Run> for Ran {
    fn from(run: crate::support::Run) -> Ran {
        Ran {
            code: run.code,
            stdout: run.stdout,
            stderr: run.stderr,
        }
    }
}

#[test]
fn a_goal_followed_by_a_command_word_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(bare(dir.path(), dir.path()).args(["Fix it", "reset"]));
    assert_fails(
        &r,
        2,
        &["error: both a goal", "`runner reset`", "'Fix it reset'"],
    );
    let r = run(bare(dir.path(), dir.path()).args(["show", "status"]));
    assert_fails(&r, 2, &["`runner status`", "'show status'"]);
    assert!(!dir.path().join(".agent_context").exists());
}

#[test]
fn an_unquoted_goal_is_told_to_use_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(bare(dir.path(), dir.path()).args(["write", "a", "hello", "world", "script"]));
    assert_fails(
        &r,
        2,
        &["put it in quotes", "`runner 'write a hello world script'`"],
    );
}

#[test]
fn dash_c_a_file_says_it_is_not_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
    let r = run(bare(dir.path(), dir.path()).args(["-C", "notes.txt", "Do it"]));
    assert_fails(&r, 2, &["-C notes.txt is a file, not a folder"]);
    assert!(!r.stderr.contains("runner.toml"), "{}", r.stderr);
}

#[test]
fn dash_c_a_fresh_folder_for_a_goal_is_created_as_the_help_shows() {
    let test = Test::new().script("hello");
    let r = run(bare(&test.workspace, &test.home)
        .env("OLLAMA_HOST", test.server().url())
        .env("OLLAMA_MODEL", test.server().model())
        .args(["-C", "game", "Write a hello world script"]));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        test.workspace.join("game/hello.py").is_file(),
        "{}",
        r.stderr
    );
}

#[test]
fn dash_c_a_read_only_folder_says_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(locked.join("probe"), "").is_ok() {
        // Root writes anywhere: there is no read-only folder to try.
        eprintln!("skipped: this user can write in a read-only folder");
        return;
    }
    let test = Test::new().script("hello");
    let r = test.run_with(&["-C", locked.to_str().unwrap(), "Write a hello world script"]);
    assert_fails(&r.into(), 4, &["permission denied", "chmod u+w"]);
}

#[test]
fn a_malformed_host_names_its_setting_and_leaves_no_trace() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(bare(dir.path(), dir.path()).args(["--host", "not a url", "Do it"]));
    assert_fails(&r, 2, &["\"not a url\"", "it came from --host"]);
    let r = run(bare(dir.path(), dir.path())
        .env("OLLAMA_HOST", "bad host")
        .arg("Do it"));
    assert_fails(&r, 2, &["it came from OLLAMA_HOST"]);
    std::fs::write(dir.path().join("runner.toml"), "host = \"a b\"\n").unwrap();
    let r = run(bare(dir.path(), dir.path()).arg("Do it"));
    assert_fails(&r, 2, &["it came from `host` in runner.toml"]);
    assert!(
        !dir.path().join(".agent_context").exists(),
        "no phantom run"
    );
}

#[test]
fn diff_of_a_path_outside_the_workspace_says_so() {
    let test = Test::new().script("hello");
    test.run_with(&["Write a hello world script"])
        .assert_code(0);
    for outside in ["../f", "/etc/passwd"] {
        let r = test.run_with(&["diff", outside]);
        assert_fails(
            &r.into(),
            2,
            &[&format!("{outside} is outside the workspace")],
        );
    }
}

#[test]
fn a_broken_runner_toml_gives_its_line_and_does_not_block_status() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("runner.toml"),
        "model = \"m\"\nmax-rounds = [\n",
    )
    .unwrap();
    let r = run(bare(dir.path(), dir.path()).arg("Do it"));
    assert_fails(&r, 2, &["runner.toml: line 2:"]);
    let r = run(bare(dir.path(), dir.path()).arg("status"));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("warning:") && r.stderr.contains("line 2"),
        "{}",
        r.stderr
    );
    std::fs::write(dir.path().join("runner.toml"), "max-rounds = \"forty\"\n").unwrap();
    let r = run(bare(dir.path(), dir.path()).arg("Do it"));
    assert_fails(&r, 2, &["'forty'", "--max-rounds"]);
}

#[test]
fn zero_rounds_or_zero_tokens_name_the_one_option() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(bare(dir.path(), dir.path()).args(["--max-rounds", "0", "Do it"]));
    assert_fails(&r, 2, &["error: --max-rounds must be at least 1"]);
    assert!(!r.stderr.contains("--model-timeout"), "{}", r.stderr);
    let r = run(bare(dir.path(), dir.path()).args(["--num-predict", "0", "Do it"]));
    assert_fails(&r, 2, &["--num-predict must be at least 1"]);
}

#[test]
fn rollback_of_more_writes_than_the_run_made_says_so_and_changes_nothing() {
    let test = Test::new().script("hello");
    test.run_with(&["Write a hello world script"])
        .assert_code(0);
    let r = test.run_with(&["rollback", "--last", "99"]);
    assert_fails(&r.into(), 2, &["the run made 1 write", "--last 1"]);
    assert_eq!(test.read("hello.py"), "print(\"Hello, World!\")\n");
}

#[test]
fn doctor_json_prints_json() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let dir = tempfile::tempdir().unwrap();
    let host = format!("127.0.0.1:{port}");
    let r = run(bare(dir.path(), dir.path()).args(["doctor", "--json", "--host", &host]));
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    let value: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON on stdout");
    assert_eq!(value["ready"], false);
    assert_eq!(value["checks"][0]["level"], "fail");
}

#[test]
fn color_always_colours_and_never_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(bare(dir.path(), dir.path()).args(["--color", "always", "--max-rounds", "0", "x"]));
    assert!(r.stderr.contains("\u{1b}["), "{:?}", r.stderr);
    let r = run(bare(dir.path(), dir.path()).args(["--color", "never", "--max-rounds", "0", "x"]));
    assert_fails(&r, 2, &["error: --max-rounds"]);
    assert!(!r.stderr.contains('\u{1b}'), "{:?}", r.stderr);
}

#[test]
fn verbose_shows_the_calls_and_a_commands_output() {
    let test = Test::new().script("rps_pytest");
    let r = test.run_with(&[GOAL, "-v"]);
    assert!(r.stderr.contains("model calls:"), "{}", r.stderr);
    assert!(!r.stderr.contains("(empty reply)"), "{}", r.stderr);
    let head = r
        .stderr
        .lines()
        .any(|l| l.starts_with("      ") && l.contains("passed"));
    assert!(head, "the head of pytest's output: {}", r.stderr);
}

#[test]
fn a_commands_help_shows_its_own_options_only() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["status", "history", "diff", "rollback", "reset", "loops"] {
        let r = run(bare(dir.path(), dir.path()).args([command, "--help"]));
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert!(
            r.stdout.contains(&format!("runner {command}")),
            "{}",
            r.stdout
        );
        for run_option in ["--max-rounds", "--temperature", "--tool-mode", "--model"] {
            assert!(!r.stdout.contains(run_option), "{command}: {}", r.stdout);
        }
    }
    let r = run(bare(dir.path(), dir.path()).args(["status", "--help"]));
    assert!(r.stdout.contains("--json"), "{}", r.stdout);
    let r = run(bare(dir.path(), dir.path()).args(["resume", "--help"]));
    assert!(
        r.stdout.contains("--max-rounds"),
        "resume runs: {}",
        r.stdout
    );
}
