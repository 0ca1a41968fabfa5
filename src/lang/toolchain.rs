//! Running a language's toolchain (`python3`, `node`) on text: a scrubbed
//! environment (the same allowlist as the model's commands), text on
//! stdin, a time limit, stdout back. A toolchain that is missing, fails or
//! runs over its time is `None`: the language then knows nothing.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one toolchain run may take before it is killed.
pub const LIMIT: Duration = Duration::from_secs(20);

/// What a finished toolchain run said.
pub struct Output {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `program args` in `dir` (a temp folder when `None`) with `input` on
/// stdin; `None` when it cannot start or runs over [`LIMIT`].
pub fn run(program: &str, args: &[&str], dir: Option<&Path>, input: &str) -> Option<Output> {
    let scratch = tempfile::Builder::new()
        .prefix("runner-lang-")
        .tempdir_in(crate::tools::env::temp_root())
        .map_err(|error| tracing::warn!(program, %error, "no scratch folder for the toolchain"))
        .ok()?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir.unwrap_or(scratch.path()))
        .env_clear()
        .envs(crate::tools::env::child_env(Some(scratch.path())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| tracing::debug!(program, %error, "toolchain not started"))
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = reader(child.stdout.take());
    let stderr = reader(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < LIMIT => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                tracing::warn!(program, "the toolchain ran over its time and was stopped");
                return None;
            }
        }
    };
    let _ = writer.join();
    Some(Output {
        success: status.success(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

fn reader(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}
