//! What the integration tests share: the fake Ollama and a builder that runs
//! the real `runner` binary in a temporary workspace (in the style of just's
//! `Test`).

#![allow(dead_code)]

pub mod fake_ollama;
pub mod fake_openai;
pub mod invariants;
pub mod personality;
pub mod project;
pub mod script;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use runner::state::{Record, State};
use runner::store::log;
use tempfile::TempDir;

pub use fake_ollama::FakeOllama;

/// The context a round request showed the model: its standing block (the
/// first user message, before the conversation) and its round block (the
/// last message), one after the other.
pub fn context(request: &serde_json::Value) -> String {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let text = |m: Option<&serde_json::Value>| {
        m.and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string()
    };
    let standing = messages
        .iter()
        .skip(1)
        .take(1)
        .find(|m| m["role"] == "user");
    format!("{}\n{}", text(standing), text(messages.last()))
}

/// The folder of the real python3 (not a pyenv shim, which needs the real
/// HOME), put first on PATH so the runner's scrubbed children find it.
fn python_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()?;
        let exe = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
        exe.parent().map(Path::to_path_buf)
    })
    .clone()
}

pub fn search_path() -> String {
    let system = std::env::var("PATH").unwrap_or_default();
    match python_dir() {
        Some(dir) => format!("{}:{system}", dir.display()),
        None => system,
    }
}

/// A run of the binary: a workspace, a fake server, arguments.
pub struct Test {
    root: TempDir,
    pub workspace: PathBuf,
    pub home: PathBuf,
    pub server: Option<FakeOllama>,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    pub fn assert_code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code,
            Some(code),
            "exit code\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.stderr,
            self.stdout
        );
        self
    }
}

impl Test {
    pub fn new() -> Test {
        let root = tempfile::tempdir().expect("temp dir");
        let workspace = root.path().join("work");
        let home = root.path().join("home");
        std::fs::create_dir_all(&workspace).expect("workspace");
        std::fs::create_dir_all(&home).expect("home");
        Test {
            workspace: workspace.canonicalize().expect("canonical workspace"),
            home,
            root,
            server: None,
            args: Vec::new(),
            env: Vec::new(),
        }
    }

    /// Serves `fixtures/scripts/NAME.json`.
    pub fn script(mut self, name: &str) -> Test {
        self.server = Some(FakeOllama::from_fixture(name));
        self
    }

    /// Serves `script` as given (a fixture changed by the test).
    pub fn serving(mut self, script: fake_ollama::Script) -> Test {
        self.server = Some(FakeOllama::start(script, Default::default()));
        self
    }

    /// Serves a script played by a personality (`fixtures/personalities/`).
    pub fn played(mut self, script: &str, personality: &str) -> Test {
        self.server = Some(FakeOllama::with_personality(script, personality));
        self
    }

    pub fn file(self, path: &str, content: &str) -> Test {
        let path = self.workspace.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, content).expect("write file");
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> Test {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, name: &str, value: &str) -> Test {
        self.env.push((name.into(), value.into()));
        self
    }

    pub fn server(&self) -> &FakeOllama {
        self.server.as_ref().expect("a script was given")
    }

    /// Runs `runner` with the builder's arguments plus `extra`.
    pub fn run_with(&self, extra: &[&str]) -> Run {
        Run::from(self.command(extra).output().expect("run the runner binary"))
    }

    /// Runs `runner` like [`Test::run_with`], but kills it after `limit`:
    /// `None` when it had not ended by then (a hang).
    pub fn run_within(&self, extra: &[&str], limit: std::time::Duration) -> Option<Run> {
        use std::process::Stdio;
        let mut child = self
            .command(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the runner binary");
        let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
        let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for the runner") {
                break Some(status);
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        let output = Output {
            status: status?,
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
        };
        Some(Run::from(output))
    }

    /// The `runner` command of [`Test::run_with`], to spawn and wait on (or
    /// signal, or kill) yourself.
    /// Runs `runner` with `extra` alone (not the test's goal and flags): a
    /// command after a run, such as `status` or `diff`.
    pub fn run_alone(&self, extra: &[&str]) -> Run {
        let mut command = self.command(&[]);
        let base: Vec<std::ffi::OsString> = command
            .get_args()
            .take(4) // -C WORKSPACE --retry-delay-ms 10
            .map(std::ffi::OsStr::to_os_string)
            .collect();
        let mut alone = std::process::Command::new(command.get_program());
        alone.env_clear();
        for (key, value) in command.get_envs() {
            if let Some(value) = value {
                alone.env(key, value);
            }
        }
        alone.args(base).args(extra);
        command = alone;
        Run::from(command.output().expect("run the runner binary"))
    }

    pub fn command(&self, extra: &[&str]) -> std::process::Command {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_runner"));
        command
            .env_clear()
            .env("PATH", search_path())
            .env("HOME", &self.home)
            .env("LANG", "C.UTF-8")
            .arg("-C")
            .arg(&self.workspace)
            .args(["--retry-delay-ms", "10"]);
        if let Some(server) = &self.server {
            command
                .env("OLLAMA_HOST", server.url())
                .env("OLLAMA_MODEL", server.model());
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        command.args(&self.args).args(extra);
        command
    }

    pub fn run(&self) -> Run {
        self.run_with(&[])
    }

    /// The temporary folder that holds the workspace (`work/`) and the
    /// home folder (`home/`) of the run.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    pub fn context(&self) -> PathBuf {
        self.workspace.join(".agent_context")
    }

    /// Every record of `history.jsonl`, checked: seqs contiguous, checksums valid.
    pub fn records(&self) -> Vec<Record> {
        let bytes = std::fs::read(self.context().join("history.jsonl")).expect("history.jsonl");
        let (found, bad) = log::scan(&bytes);
        assert!(bad.is_none(), "history.jsonl has a bad line: {bad:?}");
        let records: Vec<Record> = found.into_iter().map(|f| f.record).collect();
        for (i, record) in records.iter().enumerate() {
            assert_eq!(record.seq, i as u64 + 1, "seqs are contiguous");
        }
        records
    }

    /// The result of each action the run finished whose outcome `which`
    /// holds for, in order.
    pub fn results(&self, which: impl Fn(&runner::state::ActionOutcome) -> bool) -> Vec<String> {
        self.records()
            .into_iter()
            .filter_map(|r| match r.event {
                runner::state::Event::ActionFinished { outcome, .. } if which(&outcome) => {
                    Some(outcome.result)
                }
                _ => None,
            })
            .collect()
    }

    /// The error of each call the run refused, in order.
    pub fn refusals(&self) -> Vec<String> {
        self.records()
            .into_iter()
            .filter_map(|r| match r.event {
                runner::state::Event::CallRejected { error, .. } => Some(error),
                _ => None,
            })
            .collect()
    }

    /// The state of `state.json` (the live run's last checkpoint).
    pub fn checkpoint(&self) -> State {
        let bytes = std::fs::read(self.context().join("state.json")).expect("state.json");
        runner::store::checkpoint::decode(&bytes)
            .expect("a valid checkpoint")
            .0
    }

    /// Replaying the log from nothing gives exactly the live final state.
    pub fn assert_replay_matches(&self) -> State {
        let live = self.checkpoint();
        let replayed = State::replay(&self.records());
        pretty_assertions::assert_eq!(replayed, live);
        live
    }

    pub fn events(&self) -> Vec<String> {
        self.records()
            .iter()
            .map(|r| r.event.name().to_string())
            .collect()
    }

    pub fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.workspace.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}
