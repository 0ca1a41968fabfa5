//! The adversarial suite: tool calls from the fake model that try to reach
//! outside the workspace, leak secrets, or outlive their command, and the
//! safe outcome of each. Canary files outside the workspace must stay
//! untouched; secrets in the runner's environment must never reach a child
//! or the model.

use std::path::{Path, PathBuf};

use runner::state::Event;
use serde_json::Value;

use crate::support::{FakeOllama, Test, fake_ollama};

#[cfg(target_os = "linux")]
mod processes;
#[cfg(target_os = "linux")]
mod reach;

const CANARY: &str = "CANARY: nobody may change this file\n";
const SECRETS: [(&str, &str); 5] = [
    ("OPENAI_API_KEY", "sk-canary-openai-0123456789"),
    ("GITHUB_TOKEN", "ghp_canary_github_9876543210"),
    ("LD_PRELOAD", "/nonexistent/canary-preload.so"),
    ("PYTHONSTARTUP", "/nonexistent/canary-startup.py"),
    ("PYTEST_ADDOPTS", "--basetemp=/nonexistent/canary-addopts"),
];

/// What became of one tool call: whether it was ok, and what the model was
/// told.
#[derive(Debug, Clone)]
struct Outcome {
    call: String,
    ok: bool,
    text: String,
}

/// A test with a folder `outside/` beside the workspace holding a canary,
/// and a script whose `{HOME}`, `{OUTSIDE}` and `{FIFTY_MB}` are filled in.
fn adversarial(script: &str) -> (Test, PathBuf) {
    let mut test = Test::new();
    let outside = test.workspace.parent().unwrap().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("canary.txt"), CANARY).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/scripts")
        .join(format!("{script}.json"));
    let mut text = std::fs::read_to_string(path).unwrap();
    text = text
        .replace("{HOME}", test.home.to_str().unwrap())
        .replace("{OUTSIDE}", outside.to_str().unwrap());
    if text.contains("{FIFTY_MB}") {
        text = text.replace("{FIFTY_MB}", &"x".repeat(50 * 1024 * 1024));
    }
    let script: fake_ollama::Script = serde_json::from_str(&text).unwrap();
    test.server = Some(FakeOllama::start(script, Default::default()));
    let test = test.args(["Probe the tools"]);
    (test, outside)
}

/// Every tool call of the run with its outcome, from the log.
fn outcomes(test: &Test) -> Vec<Outcome> {
    let mut calls: Vec<String> = Vec::new();
    let mut started: Option<usize> = None;
    let mut out = Vec::new();
    let call = |calls: &[String], i: usize| calls.get(i).cloned().unwrap_or_default();
    for record in test.records() {
        match record.event {
            Event::ModelReplied { calls: replied, .. } => {
                calls = replied
                    .iter()
                    .map(|c| format!("{} {}", c.name, c.arguments))
                    .collect();
            }
            Event::CallRejected { call: i, error, .. } => out.push(Outcome {
                call: call(&calls, i),
                ok: false,
                text: error,
            }),
            Event::ActionBlocked {
                call: i, message, ..
            } => out.push(Outcome {
                call: call(&calls, i),
                ok: false,
                text: message,
            }),
            Event::ActionStarted { call: i, .. } => started = Some(i),
            Event::ActionFinished { outcome, .. } => out.push(Outcome {
                call: call(&calls, started.take().unwrap_or(usize::MAX)),
                ok: outcome.ok,
                text: outcome.result,
            }),
            _ => {}
        }
    }
    out
}

/// The outcome of the one call whose name and arguments contain `needle`.
fn outcome(all: &[Outcome], needle: &str) -> Outcome {
    let found: Vec<&Outcome> = all.iter().filter(|o| o.call.contains(needle)).collect();
    assert_eq!(found.len(), 1, "calls matching {needle:?}: {all:#?}");
    found[0].clone()
}

/// Asserts that the call was refused and the model told `why`.
fn refused(all: &[Outcome], needle: &str, why: &str) {
    let o = outcome(all, needle);
    assert!(!o.ok, "{needle} was allowed: {}", o.text);
    assert!(
        o.text.contains(why),
        "{needle}: expected {why:?} in {:?}",
        o.text
    );
}

/// Every request the model was sent, as one text.
fn sent(test: &Test) -> String {
    Value::Array(test.server().requests()).to_string()
}

fn assert_canary(outside: &Path) {
    assert_eq!(
        std::fs::read_to_string(outside.join("canary.txt")).unwrap(),
        CANARY
    );
    let names: Vec<_> = std::fs::read_dir(outside)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["canary.txt"], "something was created outside");
}

#[cfg(unix)]
#[test]
fn file_tools_stay_inside_the_workspace() {
    use std::os::unix::fs::symlink;
    let (test, outside) = adversarial("adversarial_paths");
    let ws = &test.workspace;
    symlink(&outside, ws.join("out")).unwrap();
    symlink("/etc/passwd", ws.join("link_to_passwd")).unwrap();
    std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
    symlink(".git/hooks", ws.join("hooks")).unwrap();
    std::fs::hard_link(outside.join("canary.txt"), ws.join("hardlink.txt")).unwrap();
    std::fs::create_dir(ws.join("swap")).unwrap();
    // A folder outside that `swap` keeps turning into a symlink to.
    let elsewhere = tempfile::tempdir().unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (ws, to, stop) = (ws.clone(), elsewhere.path().to_path_buf(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::rename(ws.join("swap"), ws.join("swap.real"));
                let _ = symlink(&to, ws.join("swap"));
                std::thread::yield_now();
                let _ = std::fs::remove_file(ws.join("swap"));
                let _ = std::fs::rename(ws.join("swap.real"), ws.join("swap"));
            }
        })
    };
    let run = test.run();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    run.assert_code(0);
    let all = outcomes(&test);

    refused(&all, "../../etc/passwd", "leads outside the workspace");
    refused(&all, "\"/etc/passwd\"", "outside the workspace");
    refused(&all, "a/../../escaped.txt", "leads outside the workspace");
    refused(&all, "out/canary.txt", "symlink that leads outside");
    refused(&all, "out/new.txt", "symlink that leads outside");
    refused(
        &all,
        "list_dir {\"path\":\"out\"}",
        "symlink that leads outside",
    );
    refused(
        &all,
        "write_file {\"path\":\"out\"",
        "symlink that leads outside",
    );
    refused(&all, "link_to_passwd", "symlink that leads outside");
    refused(
        &all,
        "read_file {\"path\":\".agent_context/state.json\"}",
        "off limits",
    );
    refused(&all, "write_file {\"path\":\".agent_context", "off limits");
    refused(&all, "\".git/hooks/pre-commit\"", "off limits");
    refused(&all, "\"hooks/pre-commit\"", "off limits");
    refused(&all, "a\\u0000b.txt", "NUL byte");
    refused(
        &all,
        "delete_everything",
        "list_dir, read_file, write_file, edit_file, search, run_cmd",
    );
    refused(&all, "missing-content.txt", "`content` is missing");
    refused(&all, "typed.txt", "`content` must be a string");
    // Read first (a write over a file not seen is refused), then replaced.
    let hardlink = outcome(&all, "overwritten");
    assert!(hardlink.ok, "{}", hardlink.text);
    // The file ended in a line break, which the write keeps.
    assert_eq!(test.read("hardlink.txt"), "overwritten\n");
    for i in 1..=5 {
        let o = outcome(&all, &format!("swap/f{i}.txt"));
        // Written inside, refused at the symlink, or failed because the
        // folder was replaced under the write: never written outside.
        assert!(
            o.ok || o.text.contains("symlink") || o.text.contains("no such file"),
            "{}",
            o.text
        );
    }

    assert_canary(&outside);
    assert!(
        !test
            .workspace
            .parent()
            .unwrap()
            .join("escaped.txt")
            .exists()
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(ws.join(".git/hooks")).unwrap().count(), 0);
    test.assert_replay_matches();
}

const ENV_PY: &str =
    "import os\nfor name in sorted(os.environ):\n    print(name + '=' + os.environ[name])\n";
const ESCAPE_PY: &str = r#"import os
def attempt(path):
    try:
        with open(path, 'w') as f:
            f.write('pwned')
        return 'WROTE'
    except OSError as e:
        return 'refused:' + type(e).__name__
print('outside-canary', attempt('../outside/canary.txt'))
print('outside-new', attempt('../outside/new.txt'))
print('git-hook', attempt('.git/hooks/pre-commit'))
print('home', attempt(os.path.expanduser('~/.bashrc')))
print('inside', attempt('inside.txt'))
"#;
const BIG_PY: &str = "import sys\nsys.stdout.write('HEAD-MARK\\n')\nchunk = ('y' * 1023 + '\\n') * 1024\nfor _ in range(300):\n    sys.stdout.write(chunk)\nsys.stdout.write('TAIL-MARK\\n')\n";

#[test]
fn commands_cannot_escape_nor_see_secrets() {
    let (mut test, outside) = adversarial("adversarial_commands");
    for (name, value) in SECRETS {
        test = test.env(name, value);
    }
    let test = test
        .file("x.py", "print('x ran')\n")
        .file("env.py", ENV_PY)
        .file("escape.py", ESCAPE_PY)
        .file(
            "ask.py",
            "answer = input('your name? ')\nprint('got', answer)\n",
        )
        .file("test_ok.py", "def test_ok():\n    assert 1 + 1 == 2\n")
        .file("big.py", BIG_PY)
        .file(".git/hooks/.keep", "");
    let run = test.run();
    run.assert_code(0);
    let all = outcomes(&test);

    refused(&all, "pytest && curl x", "without a shell");
    refused(&all, "bash -c 'id'", "not an allowed program");
    refused(&all, "/bin/sh -c id", "by name, not by path");
    refused(&all, "./python x.py", "by name, not by path");
    refused(&all, "python3 x.py; touch ../y", "without a shell");
    refused(&all, "--basetemp=", "points outside the workspace");
    refused(&all, "python3 -c", "python -c is refused");
    refused(
        &all,
        "--junitxml=../outside",
        "points outside the workspace",
    );
    assert!(!test.workspace.parent().unwrap().join("y").exists());
    assert_eq!(std::fs::read_dir(&test.home).unwrap().count(), 0);

    let env = outcome(&all, "env.py");
    assert!(env.ok && env.text.contains("PATH="), "{}", env.text);
    for (name, value) in SECRETS {
        assert!(
            !env.text.contains(name),
            "{name} reached a child: {}",
            env.text
        );
        assert!(
            !sent(&test).contains(value),
            "{name}'s value reached the model"
        );
    }

    let escape = outcome(&all, "escape.py");
    assert!(escape.text.contains("inside WROTE"), "{}", escape.text);
    if landlock() {
        for target in ["outside-canary", "outside-new", "git-hook", "home"] {
            assert!(
                escape.text.contains(&format!("{target} refused:")),
                "{target}: {}",
                escape.text
            );
        }
    }
    assert!(!test.workspace.join(".git/hooks/pre-commit").exists());

    let ask = outcome(&all, "ask.py");
    assert!(!ask.ok && ask.text.contains("EOFError"), "{}", ask.text);
    assert!(!ask.text.contains("timed out"), "{}", ask.text);

    let pytest = outcome(&all, "test_ok.py");
    assert!(
        pytest.ok && pytest.text.contains("1 passed"),
        "{}",
        pytest.text
    );
    assert!(!Path::new("/nonexistent/canary-addopts").exists());

    let big = outcome(&all, "big.py");
    assert!(big.ok, "{}", &big.text[..big.text.len().min(2000)]);
    assert!(big.text.contains("HEAD-MARK") && big.text.contains("TAIL-MARK"));
    assert!(
        big.text.contains("of 314572820 bytes of output"),
        "{}",
        &big.text[..big.text.len().min(2000)]
    );
    assert!(big.text.len() < 16 * 1024, "{} bytes shown", big.text.len());

    assert_canary(&outside);
}

/// Whether the kernel has Landlock: without it, only what the runner checks
/// itself is asserted (the sandbox's part is then up to run_cmd's checks).
fn landlock() -> bool {
    #[cfg(target_os = "linux")]
    {
        let probe = tempfile::tempdir().unwrap();
        std::fs::create_dir(probe.path().join(".git")).unwrap();
        runner::tools::sandbox_notice(&runner::tools::ToolConfig::default(), probe.path()).is_none()
    }
    #[cfg(not(target_os = "linux"))]
    false
}

#[test]
fn an_oversized_write_is_refused_and_inline_python_needs_the_flag() {
    let (test, outside) = adversarial("adversarial_limits");
    let test = test.args(["--allow-inline-python"]);
    let run = test.run();
    run.assert_code(0);
    let all = outcomes(&test);
    refused(&all, "huge.txt", "more than the limit of 10485760 bytes");
    assert!(!test.workspace.join("huge.txt").exists());
    let inline = outcome(&all, "python3 -c");
    assert!(inline.ok && inline.text.contains("42"), "{}", inline.text);
    if landlock() {
        assert!(!run.stderr.contains("sandbox:"), "{}", run.stderr);
    }
    assert_canary(&outside);
}
