//! `runner doctor`: can the main job run here? One line a check (the server,
//! the model, its tools and context, the workspace, python3 and pytest, the
//! sandbox), ok / warn / fail with what to do. Exit 0 only when nothing
//! failed; otherwise the exit code of the first failure.

mod model;

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::{Paint, running_pid};
use crate::error::Exit;
use crate::settings::Settings;
use crate::store::CONTEXT_DIR;

use model::model_checks;

/// The longest `python3 --version` or `python3 -m pytest --version` may
/// take (a cold start of pytest on a slow disk takes a few seconds).
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Ok,
    Warn,
    Fail,
    /// Not checked, because a check it needs failed.
    Skip,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub level: Level,
    pub name: &'static str,
    pub text: String,
    /// The exit code when it fails.
    pub exit: Exit,
}

fn check(level: Level, name: &'static str, text: impl Into<String>, exit: Exit) -> Check {
    Check {
        level,
        name,
        text: text.into(),
        exit,
    }
}

pub async fn doctor(settings: &Settings, json: bool) -> Exit {
    let paint = Paint::stdout();
    let mut checks = model_checks(settings).await;
    checks.push(workspace_check(&settings.workspace));
    checks.extend(python_checks().await);
    checks.push(node_check().await);
    checks.push(sandbox_check(settings));
    let failed = checks.iter().find(|c| c.level == Level::Fail);
    if json {
        crate::outln!("{}", as_json(&checks, failed.is_none()));
        return failed.map_or(Exit::Achieved, |f| f.exit);
    }
    for check in &checks {
        crate::outln!("{}", render(check, &paint));
    }
    match failed {
        Some(failed) => {
            crate::outln!("Not ready: fix what failed above, then run `runner doctor` again.");
            failed.exit
        }
        None => {
            crate::outln!("Ready: the runner can work here.");
            Exit::Achieved
        }
    }
}

/// The checks as one JSON object: `{"ready": bool, "checks": [{"name",
/// "level", "text"}]}`, for scripts.
pub fn as_json(checks: &[Check], ready: bool) -> String {
    let checks: Vec<serde_json::Value> = checks
        .iter()
        .map(|c| {
            let level = match c.level {
                Level::Ok => "ok",
                Level::Warn => "warn",
                Level::Fail => "fail",
                Level::Skip => "skip",
            };
            serde_json::json!({"name": c.name, "level": level, "text": c.text})
        })
        .collect();
    serde_json::json!({"ready": ready, "checks": checks}).to_string()
}

pub fn render(check: &Check, paint: &Paint) -> String {
    let level = match check.level {
        Level::Ok => paint.ok.apply_to("ok  "),
        Level::Warn => paint.warn.apply_to("warn"),
        Level::Fail => paint.bad.apply_to("fail"),
        Level::Skip => paint.dim.apply_to("skip"),
    };
    format!("{level}  {:<9}  {}", check.name, check.text)
}

/// Writes and removes a file where the runner keeps its state (or in the
/// workspace, before the first run); warns when a runner works here now.
fn workspace_check(workspace: &Path) -> Check {
    let context = workspace.join(CONTEXT_DIR);
    let dir = if context.is_dir() {
        context
    } else {
        workspace.to_path_buf()
    };
    let probe = dir.join(format!(".runner-doctor-{}.tmp", std::process::id()));
    let written = fs_err::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut file| file.write_all(b"ok"));
    let _ = fs_err::remove_file(&probe);
    let shown = workspace.display();
    match (written, running_pid(workspace)) {
        (Err(error), _) => check(
            Level::Fail,
            "workspace",
            format!(
                "cannot write in {}: {error}; fix its permissions or pick another folder with -C",
                dir.display()
            ),
            Exit::Store,
        ),
        (Ok(()), Some(pid)) => check(
            Level::Warn,
            "workspace",
            format!(
                "{shown} is writable, but a runner works in it now (pid {pid}); another run \
                 here waits until it ends"
            ),
            Exit::Store,
        ),
        (Ok(()), None) => check(
            Level::Ok,
            "workspace",
            format!("{shown} is writable"),
            Exit::Store,
        ),
    }
}

/// python3 (the commands the model runs) and pytest (its tests).
async fn python_checks() -> Vec<Check> {
    let Some(python) = probe("python3", &["--version"]).await else {
        return vec![
            check(
                Level::Fail,
                "python3",
                "python3 is not on PATH: install Python 3 (the model's commands and tests run it)",
                Exit::Usage,
            ),
            check(
                Level::Skip,
                "pytest",
                "not checked: no python3",
                Exit::Usage,
            ),
        ];
    };
    let pytest = match probe("python3", &["-m", "pytest", "--version"]).await {
        Some(version) => check(Level::Ok, "pytest", version, Exit::Usage),
        None => check(
            Level::Warn,
            "pytest",
            "pytest is not installed for python3: `python3 -m pip install pytest` (goals with \
             tests need it)",
            Exit::Usage,
        ),
    };
    vec![check(Level::Ok, "python3", python, Exit::Usage), pytest]
}

/// node: allowed to the model's commands, and JavaScript checked, when installed.
async fn node_check() -> Check {
    match probe("node", &["--version"]).await {
        Some(version) => check(
            Level::Ok,
            "node",
            format!("{version}: allowed in commands; JavaScript is checked with `node --test`"),
            Exit::Usage,
        ),
        None => check(
            Level::Skip,
            "node",
            "not installed: JavaScript goals need it (e.g. `apt-get install nodejs`)",
            Exit::Usage,
        ),
    }
}

/// The first line a program prints when it succeeds; `None` when it cannot
/// start, fails, or takes too long.
async fn probe(program: &str, args: &[&str]) -> Option<String> {
    let run = tokio::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(PROBE_TIMEOUT, run).await.ok()?.ok()?;
    if !output.status.success() {
        return None;
    }
    let text = [output.stdout, output.stderr].concat();
    String::from_utf8_lossy(&text)
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(str::to_string)
}

/// The same check a run makes before it confines commands.
fn sandbox_check(settings: &Settings) -> Check {
    if !settings.tools.sandbox {
        return check(
            Level::Warn,
            "sandbox",
            "off (--no-sandbox): commands run unconfined: they can read your files and reach the network",
            Exit::Usage,
        );
    }
    match crate::tools::sandbox_notice(&settings.tools, &settings.workspace) {
        None => check(
            Level::Ok,
            "sandbox",
            crate::tools::sandbox_summary(&settings.tools, &settings.workspace),
            Exit::Usage,
        ),
        Some(notice) => check(
            Level::Warn,
            "sandbox",
            notice.trim_start_matches("sandbox: "),
            Exit::Usage,
        ),
    }
}
