//! `run_cmd`: one whitelisted program, no shell, in the workspace, with a
//! scrubbed environment, its own process group, a timeout that kills the
//! whole group, and its output drained while only a head and tail are kept.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;

use super::ToolConfig;
use super::output::HeadTail;
use crate::state::ActionOutcome;
use crate::stop::Stop;

/// Programs allowed by default: what a Python project needs to run and test.
pub const DEFAULT_ALLOWED: [&str; 6] = ["python", "python3", "pytest", "ruff", "pip", "pip3"];
/// After SIGTERM, how long the group gets before SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(2);
/// After the program exits, how long to wait for its output pipes to close:
/// a grandchild that outlives it can hold them open forever.
const IO_DRAIN_TIMEOUT: Duration = Duration::from_secs(2);
/// Words a shell would treat as operators. Without a shell they would reach
/// the program as arguments, which is never what the model meant.
const SHELL_OPERATORS: [&str; 9] = ["&&", "||", "|", ";", ">", ">>", "<", "&", "2>&1"];

fn refused(error: String) -> ActionOutcome {
    ActionOutcome {
        ok: false,
        result: format!("Error: {error}"),
        error: Some(error),
        ..ActionOutcome::default()
    }
}

/// The words of a command, checked against the whitelist; `Err` is for the
/// model.
pub fn check(cmd: &str, config: &ToolConfig) -> Result<Vec<String>, String> {
    let words =
        shell_words::split(cmd).map_err(|e| format!("cannot split {cmd:?} into words: {e}"))?;
    let Some(program) = words.first() else {
        return Err("the command is empty".to_string());
    };
    if let Some(op) = words
        .iter()
        .find(|w| SHELL_OPERATORS.contains(&w.as_str()) || w.starts_with("$("))
    {
        return Err(format!(
            "run_cmd starts one program without a shell, so {op:?} would reach {program} as an argument. \
             Run one command per call"
        ));
    }
    if program.contains('/') || program.contains('\\') {
        return Err(format!(
            "run programs by name, not by path: {program:?} is refused. Allowed: {}",
            config.allowed.join(", ")
        ));
    }
    if !config.allowed.iter().any(|allowed| allowed == program) {
        return Err(format!(
            "{program} is not an allowed program. Allowed: {} (the user can allow more with --allow)",
            config.allowed.join(", ")
        ));
    }
    if program.starts_with("python")
        && words.get(1).is_some_and(|w| w == "-c")
        && !config.allow_inline_python
    {
        return Err(
            "python -c is refused: write the code to a file with write_file, then run the file"
                .to_string(),
        );
    }
    Ok(words)
}

/// The child's environment: only what a build needs, never a secret.
pub fn child_env() -> Vec<(String, String)> {
    std::env::vars()
        .filter(|(name, _)| {
            let allowed = matches!(
                name.as_str(),
                "PATH" | "HOME" | "LANG" | "TERM" | "TMPDIR" | "VIRTUAL_ENV" | "SYSTEMROOT"
            ) || name.starts_with("LC_");
            let upper = name.to_ascii_uppercase();
            let secret = ["KEY", "SECRET", "TOKEN", "PASSWORD"]
                .iter()
                .any(|s| upper.contains(s));
            allowed && !secret
        })
        .collect()
}

/// Finds `program` on the `PATH` the child will get.
fn find_on_path(program: &str, env: &[(String, String)]) -> Option<PathBuf> {
    let path = env
        .iter()
        .find(|(name, _)| name == "PATH")
        .map(|(_, v)| v.as_str())?;
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

pub async fn run(
    root: &Path,
    cmd: &str,
    timeout: Duration,
    config: &ToolConfig,
    stop: &Stop,
) -> ActionOutcome {
    let words = match check(cmd, config) {
        Ok(words) => words,
        Err(e) => return refused(e),
    };
    let env = child_env();
    let Some(program) = find_on_path(&words[0], &env) else {
        return refused(format!("{} is not installed or not on PATH", words[0]));
    };
    let mut command = Command::new(&program);
    command
        .args(&words[1..])
        .current_dir(root)
        .env_clear()
        .envs(env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    command.process_group(0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return refused(format!("cannot start {}: {e}", words[0])),
    };
    let group = child.id();
    let stdout = tokio::spawn(drain(child.stdout.take()));
    let stderr = tokio::spawn(drain(child.stderr.take()));
    let ended = tokio::select! {
        status = tokio::time::timeout(timeout, child.wait()) => status.ok(),
        _ = stop.requested() => None,
    };
    let (status, timed_out) = match ended {
        Some(status) => (status.ok(), false),
        None => {
            signal_group(group, Signal::Term);
            let status = match tokio::time::timeout(KILL_GRACE, child.wait()).await {
                Ok(status) => status.ok(),
                Err(_) => {
                    signal_group(group, Signal::Kill);
                    child.wait().await.ok()
                }
            };
            (status, true)
        }
    };
    // Whatever the program left running in its group goes with it.
    signal_group(group, Signal::Kill);
    let stdout = collect(stdout).await;
    let stderr = collect(stderr).await;
    let exit_code = status.and_then(|s| s.code());
    let ok = exit_code == Some(0) && !timed_out;
    let head = if timed_out && stop.is_requested() {
        format!("$ {cmd}\nstopped: the user interrupted the runner; the command was killed")
    } else if timed_out {
        format!(
            "$ {cmd}\ntimed out after {} s; the command was killed",
            timeout.as_secs()
        )
    } else {
        match exit_code {
            Some(code) => format!("$ {cmd}\nexit code {code}"),
            None => format!("$ {cmd}\nkilled by a signal"),
        }
    };
    let limit = config.output_limit;
    let mut result = head.clone();
    for (name, out) in [("stdout", &stdout), ("stderr", &stderr)] {
        if out.total() > 0 {
            let share = if stdout.total() > 0 && stderr.total() > 0 {
                limit / 2
            } else {
                limit
            };
            result.push_str(&format!(
                "\n--- {name} ---\n{}",
                out.render(share).trim_end()
            ));
        }
    }
    let error = (!ok).then(|| {
        let last = super::output::clean(stderr.render(400).trim_end().as_bytes());
        let last = last.lines().last().unwrap_or("").to_string();
        format!(
            "{cmd}: {}{}",
            head.lines().nth(1).unwrap_or(""),
            if last.is_empty() {
                String::new()
            } else {
                format!(": {last}")
            }
        )
    });
    ActionOutcome {
        ok,
        result,
        command: Some(cmd.to_string()),
        exit_code,
        error,
        ..ActionOutcome::default()
    }
}

async fn drain(stream: Option<impl AsyncRead + Unpin>) -> HeadTail {
    let mut out = HeadTail::default();
    let Some(mut stream) = stream else {
        return out;
    };
    let mut buffer = vec![0u8; 16 * 1024];
    while let Ok(n) = stream.read(&mut buffer).await {
        if n == 0 {
            break;
        }
        out.push(&buffer[..n]);
    }
    out
}

async fn collect(task: tokio::task::JoinHandle<HeadTail>) -> HeadTail {
    match tokio::time::timeout(IO_DRAIN_TIMEOUT, task).await {
        Ok(Ok(out)) => out,
        _ => HeadTail::default(),
    }
}

enum Signal {
    Term,
    Kill,
}

fn signal_group(group: Option<u32>, signal: Signal) {
    #[cfg(unix)]
    if let Some(pid) = group.and_then(|g| i32::try_from(g).ok()) {
        let signal = match signal {
            Signal::Term => libc::SIGTERM,
            Signal::Kill => libc::SIGKILL,
        };
        // SAFETY: kill(2) with a negative pid signals a process group; it
        // touches no memory of ours. The group is the child's own (it was
        // started with process_group(0)), so nothing else is hit.
        unsafe {
            libc::kill(-pid, signal);
        }
    }
    #[cfg(not(unix))]
    let _ = (group, signal);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whitelist_and_the_shell_operators() {
        let config = ToolConfig::default();
        assert_eq!(
            check("python3 -m pytest -q", &config).unwrap(),
            ["python3", "-m", "pytest", "-q"]
        );
        assert!(
            check("bash -c id", &config)
                .unwrap_err()
                .contains("not an allowed program")
        );
        assert!(
            check("./python x.py", &config)
                .unwrap_err()
                .contains("by name")
        );
        assert!(
            check("/tmp/x/python x.py", &config)
                .unwrap_err()
                .contains("by name")
        );
        assert!(
            check("pytest && curl x", &config)
                .unwrap_err()
                .contains("without a shell")
        );
        assert!(
            check("python3 -c 'import os'", &config)
                .unwrap_err()
                .contains("python -c")
        );
        assert!(check("python3 'unbalanced", &config).is_err());
        assert!(check("", &config).is_err());
    }
}
