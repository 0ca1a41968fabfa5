//! `run_cmd`: one whitelisted program, no shell, in the workspace, with a
//! rebuilt environment, stdin from /dev/null (or a workspace file after `<`), resource limits, the OS
//! sandbox, its own process group, a timeout that kills every process it
//! made, and its output drained while only a head and tail are kept.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;

use super::ToolConfig;
use super::output::HeadTail;
use super::process::{ChildLimits, Group, WATCH_INTERVAL};
use super::{env, network, policy};
use crate::state::{ActionOutcome, CommandEnd, RefusalKind};
use crate::stop::Stop;

/// Programs allowed by default: what a Python project needs to run and test.
pub const DEFAULT_ALLOWED: [&str; 6] = ["python", "python3", "pytest", "ruff", "pip", "pip3"];
/// Programs allowed by default when they are installed: what a JavaScript
/// project needs (`node --test` checks it).
pub const ALLOWED_WHEN_INSTALLED: [&str; 1] = ["node"];

/// The programs allowed by default on this machine.
pub fn default_allowed() -> Vec<String> {
    DEFAULT_ALLOWED
        .iter()
        .copied()
        .chain(
            ALLOWED_WHEN_INSTALLED
                .into_iter()
                .filter(|p| env::on_path(p)),
        )
        .map(str::to_string)
        .collect()
}
#[cfg(unix)]
const TERM: i32 = libc::SIGTERM;
#[cfg(unix)]
const KILL: i32 = libc::SIGKILL;
#[cfg(not(unix))]
const TERM: i32 = 15;
#[cfg(not(unix))]
const KILL: i32 = 9;
/// After SIGTERM, how long the group gets before SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(2);
/// After the program exits, how long to wait for its output pipes to close:
/// a grandchild that outlives it can hold them open forever.
const IO_DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// Finds `program` on the `PATH` the child will get.
pub(super) fn find_on_path(program: &str, env: &[(String, String)]) -> Option<PathBuf> {
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

/// Why a command ended.
enum Ending {
    Exited(Option<std::process::ExitStatus>),
    TimedOut,
    Stopped,
    TooManyProcesses,
}

/// Where a command runs and what else it may reach.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The workspace, its working directory.
    pub root: &'a Path,
    /// Its own temp folder.
    pub tmp: Option<&'a Path>,
    /// What it may read besides (system, installations, `--allow-read`).
    pub reads: &'a [PathBuf],
}

/// What the program printed, in a `run_cmd` result this module made: its
/// stdout and stderr without the command line, how it ended, or the
/// sections' headings (`""` when it printed nothing).
pub fn printed(result: &str) -> String {
    let Some(at) = result.find(SECTION) else {
        return String::new();
    };
    result[at + 1..]
        .lines()
        .filter(|line| !matches!(*line, "--- stdout ---" | "--- stderr ---"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the program's output begins in a result: the first section.
const SECTION: &str = "\n--- std";

/// The outcome of `given` run as `run_as` said (see
/// [`crate::lang::Language::as_run`]): the command is the one given, so a
/// check run this way is the check's run, and the result says how it ran
/// and why, below its first line.
pub fn ran_as(
    mut outcome: ActionOutcome,
    given: &str,
    run_as: &crate::lang::RunAs,
) -> ActionOutcome {
    if outcome.command.is_none() {
        return outcome;
    }
    let note = format!("(run as `{}`: {})", run_as.command, run_as.why);
    outcome.result = match outcome.result.split_once('\n') {
        Some((first, rest)) => format!("{first}\n{note}\n{rest}"),
        None => format!("{}\n{note}", outcome.result),
    };
    outcome.command = Some(given.to_string());
    outcome
}

pub async fn run(
    place: &Place<'_>,
    cmd: &str,
    timeout: Duration,
    config: &ToolConfig,
    stop: &Stop,
) -> ActionOutcome {
    let (root, tmp) = (place.root, place.tmp);
    let (program_cmd, input) = match policy::input_file(cmd) {
        Some((before, path)) => (before, Some(path)),
        None => (cmd, None),
    };
    let words = match policy::check(program_cmd, root, config) {
        Ok(words) => words,
        Err(e) => return ActionOutcome::refused(RefusalKind::CommandNotAllowed, e),
    };
    if config.sandbox
        && !config.allow_net
        && let Some(why) = network::needs_network(&words)
    {
        return ActionOutcome::refused(RefusalKind::NeedsNetwork, why);
    }
    let env = env::child_env(tmp);
    let Some(program) = find_on_path(&words[0], &env) else {
        return ActionOutcome::refused(
            RefusalKind::NotInstalled,
            format!("{} is not installed or not on PATH", words[0]),
        );
    };
    let stdin = match &input {
        Some(path) => match input_of(root, path) {
            Ok(file) => Stdio::from(file),
            Err((kind, why)) => return ActionOutcome::refused(kind, why),
        },
        None => Stdio::null(),
    };
    let mut command = Command::new(&program);
    command
        .args(&words[1..])
        .current_dir(root)
        .env_clear()
        .envs(env)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Err(e) = confine(&mut command, place, config) {
        return ActionOutcome::failed(e);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) if config.sandbox && e.raw_os_error().is_some_and(|c| c == libc_eperm()) => {
            return ActionOutcome::failed(format!(
                "cannot start {}: {e} while setting up the sandbox (the user can run with --no-sandbox)",
                words[0]
            ));
        }
        Err(e) => return ActionOutcome::failed(format!("cannot start {}: {e}", words[0])),
    };
    let Some(group) = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .map(Group::new)
    else {
        return ActionOutcome::failed(format!("{} ended before it could be watched", words[0]));
    };
    let stdout = tokio::spawn(drain(child.stdout.take()));
    let stderr = tokio::spawn(drain(child.stderr.take()));
    let deadline = tokio::time::sleep(timeout);
    tokio::pin!(deadline);
    let mut watch = tokio::time::interval(WATCH_INTERVAL);
    let max_processes = config.limits.processes as usize;
    let ending = loop {
        tokio::select! {
            status = child.wait() => break Ending::Exited(status.ok()),
            _ = &mut deadline => break Ending::TimedOut,
            _ = stop.requested() => break Ending::Stopped,
            _ = watch.tick() => {
                if group.alive() > max_processes {
                    break Ending::TooManyProcesses;
                }
            }
        }
    };
    let status = match ending {
        Ending::Exited(status) => status,
        Ending::TooManyProcesses => {
            group.signal(KILL);
            child.wait().await.ok()
        }
        Ending::TimedOut | Ending::Stopped => {
            group.signal(TERM);
            match tokio::time::timeout(KILL_GRACE, child.wait()).await {
                Ok(status) => status.ok(),
                Err(_) => {
                    group.signal(KILL);
                    child.wait().await.ok()
                }
            }
        }
    };
    // Whatever the program left running goes with it, escapees included.
    let left = group.sweep().await;
    drop(group);
    let stdout = collect(stdout).await;
    let stderr = collect(stderr).await;
    let exit_code = status.and_then(|s| s.code());
    let ok = exit_code == Some(0) && matches!(ending, Ending::Exited(_));
    let end = match ending {
        Ending::Stopped => CommandEnd::Stopped,
        Ending::TimedOut => CommandEnd::TimedOut {
            secs: timeout.as_secs(),
        },
        Ending::TooManyProcesses => CommandEnd::TooManyProcesses { max: max_processes },
        Ending::Exited(_) => match exit_code {
            Some(code) => CommandEnd::Exited { code },
            None => CommandEnd::Signal {
                signal: status.and_then(signal_of),
            },
        },
    };
    let mut head = format!("$ {cmd}\n{}", end.describe());
    if left > 0 && matches!(ending, Ending::Exited(_)) {
        head.push_str(&format!(
            "\n({left} processes it left running were killed: commands may not leave anything behind)"
        ));
    }
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
        end: Some(end),
        error,
        ..ActionOutcome::default()
    }
}

/// The file of the workspace a command's `< PATH` names, open to read:
/// confined like every path the model gives. `Err` is for the model.
fn input_of(root: &Path, path: &str) -> Result<std::fs::File, (RefusalKind, String)> {
    use super::confined::Kind;
    use super::paths::PathError;
    let missing = || {
        (
            RefusalKind::NoSuchPath,
            format!(
                "{path} is not there: write it first (what the program reads on its standard \
                 input), then run the command again"
            ),
        )
    };
    let target = match super::confined::resolve(root, path, false) {
        Ok(target) => target,
        Err(PathError::Refused(why)) => return Err((RefusalKind::PathRefused, why)),
        Err(PathError::MissingFolder) => return Err(missing()),
        Err(PathError::Io(e)) => return Err((RefusalKind::NoSuchPath, format!("{path}: {e}"))),
    };
    match target.kind() {
        Ok(Some(Kind::File)) => target
            .open_file()
            .map_err(|e| (RefusalKind::NotAFile, format!("cannot read {path}: {e}"))),
        Ok(None) => Err(missing()),
        _ => Err((
            RefusalKind::NotAFile,
            format!("{path} is not a file: `< {path}` needs a file to read"),
        )),
    }
}

fn libc_eperm() -> i32 {
    #[cfg(unix)]
    {
        libc::EPERM
    }
    #[cfg(not(unix))]
    1
}

#[cfg(unix)]
fn signal_of(status: std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal_of(_: std::process::ExitStatus) -> Option<i32> {
    None
}

/// Limits, and the sandbox when it is on, applied by the child to itself
/// before exec; its own process group.
fn confine(command: &mut Command, place: &Place, config: &ToolConfig) -> Result<(), String> {
    #[cfg(unix)]
    {
        let limits = ChildLimits::new(&config.limits);
        #[cfg(target_os = "linux")]
        let sandbox = if config.sandbox && super::sandbox::landlock_abi().is_some() {
            let reach = super::sandbox::Reach {
                tmp: place.tmp,
                reads: place.reads,
                network: config.allow_net,
            };
            Some(super::sandbox::Confinement::prepare(place.root, reach)?)
        } else {
            None
        };
        #[cfg(not(target_os = "linux"))]
        let _ = place;
        command.process_group(0);
        // SAFETY: the closure runs in the forked child before exec and makes
        // only system calls (setrlimit, prctl, unshare, mount, landlock); the
        // confinement was built, allocations included, in the runner.
        unsafe {
            command.pre_exec(move || {
                limits.apply()?;
                #[cfg(target_os = "linux")]
                if let Some(sandbox) = &sandbox {
                    sandbox.enter()?;
                }
                Ok(())
            });
        }
    }
    #[cfg(not(unix))]
    let _ = (command, place, config);
    Ok(())
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

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
