//! From parsed arguments to an exit code: resolve the settings, open the
//! store, decide between a fresh run, a resume and an archive, run the agent,
//! and report.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::agent::Agent;
use crate::cli::{Cli, Command};
use crate::host;
use crate::model::ollama::OllamaClient;
use crate::model::openai::OpenAiClient;
use crate::model::tool_mode::ToolModel;
use crate::model::{Api, ClientConfig, Model, ModelError, RetryPolicy};
use crate::settings::{Output, Settings};
use crate::state::{Outcome, State};
use crate::stop::{self, Stop};
use crate::store::{self, Failpoint, OpenOptions, RealDisk, Store, StoreError};
use crate::tools::{ToolConfig, Toolbox};
use crate::ui::Terminal;
use crate::views::{self, history::HistoryOptions, rollback::Point};

/// The exit codes of DESIGN.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    Achieved = 0,
    Stopped = 1,
    Usage = 2,
    Model = 3,
    Store = 4,
    Interrupted = 130,
}

impl From<Outcome> for Exit {
    fn from(outcome: Outcome) -> Exit {
        match outcome {
            Outcome::Achieved => Exit::Achieved,
            Outcome::NotAchieved | Outcome::Stopped => Exit::Stopped,
            Outcome::Interrupted => Exit::Interrupted,
            Outcome::ModelUnusable => Exit::Model,
        }
    }
}

/// A failure before or around the run, with its exit code.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl AppError {
    fn exit(&self) -> Exit {
        match self {
            AppError::Usage(_) => Exit::Usage,
            AppError::Store(_) => Exit::Store,
        }
    }
}

pub async fn run(cli: Cli) -> Exit {
    let output = Output {
        quiet: cli.common.quiet,
        verbose: cli.common.verbose,
        json: cli.run.json,
    };
    let terminal = Terminal::new(output);
    match dispatch(cli, terminal).await {
        Ok(exit) => exit,
        Err(error) => {
            Terminal::new(output).notice(&error.to_string());
            error.exit()
        }
    }
}

async fn dispatch(cli: Cli, terminal: Terminal) -> Result<Exit, AppError> {
    if let Some(Command::Completions { shell }) = &cli.command {
        views::completions::print(*shell);
        return Ok(Exit::Achieved);
    }
    let workspace = workspace(cli.common.dir.as_deref())?;
    match &cli.command {
        Some(Command::Status { json }) => views::status(&workspace, *json),
        Some(Command::Reset { list: true }) => views::archives::list(&workspace),
        Some(Command::Reset { list: false }) => {
            match store::archive_workspace(&workspace)? {
                Some(to) => terminal.notice(&format!("archived the run to {}", to.display())),
                None => terminal.notice("there is no run here to archive"),
            }
            Ok(Exit::Achieved)
        }
        Some(Command::History {
            lines,
            json,
            follow,
        }) => {
            let options = HistoryOptions {
                last: *lines,
                json: *json,
                follow: *follow,
            };
            views::history::history(&workspace, options).await
        }
        Some(Command::Loops { json }) => views::loops::loops(&workspace, *json),
        Some(Command::Doctor) => {
            let settings = settings(&cli, workspace)?;
            Ok(views::doctor::doctor(&settings).await)
        }
        Some(Command::Rollback { to, last, dry_run }) => {
            let point = match (to, last) {
                (Some(seq), _) => Point::To(*seq),
                (None, Some(n)) => Point::Last(usize::try_from(*n).unwrap_or(usize::MAX)),
                (None, None) => return Err(AppError::Usage("give --to SEQ or --last N".into())),
            };
            views::rollback::rollback(&workspace, point, *dry_run)
        }
        Some(Command::Diff { paths }) => views::diff::diff(&workspace, paths),
        Some(Command::Completions { .. }) => Ok(Exit::Achieved),
        Some(Command::Resume) => {
            let settings = settings(&cli, workspace)?;
            run_goal(settings, None, terminal).await
        }
        None => {
            let Some(goal) = cli.goal.clone().filter(|g| !g.trim().is_empty()) else {
                return Err(AppError::Usage(
                    "give a goal, e.g. `runner \"Write a hello world script\"`, or `runner resume` \
                     (see `runner --help`)"
                        .into(),
                ));
            };
            let settings = settings(&cli, workspace)?;
            run_goal(settings, Some(goal), terminal).await
        }
    }
}

fn workspace(dir: Option<&Path>) -> Result<PathBuf, AppError> {
    let dir = dir.unwrap_or(Path::new("."));
    dir.canonicalize()
        .ok()
        .filter(|path| path.is_dir())
        .ok_or_else(|| {
            AppError::Usage(format!(
                "the workspace {} is not a folder: create it or pass another with -C",
                dir.display()
            ))
        })
}

fn settings(cli: &Cli, workspace: PathBuf) -> Result<Settings, AppError> {
    let run = &cli.run;
    let host = host::parse(&cli.common.host).map_err(|e| AppError::Usage(e.to_string()))?;
    if run.history_keep > crate::state::KEPT_EXCHANGES {
        return Err(AppError::Usage(format!(
            "--history-keep {} is more than the {} exchanges the state keeps; give at most {}",
            run.history_keep,
            crate::state::KEPT_EXCHANGES,
            crate::state::KEPT_EXCHANGES
        )));
    }
    if !(0.0..=2.0).contains(&run.temperature) {
        return Err(AppError::Usage(
            "--temperature must be between 0 and 2".into(),
        ));
    }
    if run.num_ctx < 2048 {
        return Err(AppError::Usage(
            "--num-ctx must be at least 2048 tokens: the tools and the context block alone need about 1500".into(),
        ));
    }
    if run.max_rounds == 0 || run.model_timeout == 0 {
        return Err(AppError::Usage(
            "--max-rounds and --model-timeout must be at least 1".into(),
        ));
    }
    let mut tools = ToolConfig {
        sandbox: !run.no_sandbox,
        allow_net: run.allow_net,
        allow_inline_python: run.allow_inline_python,
        ..ToolConfig::default()
    };
    for path in &run.allow_read {
        let found = std::fs::canonicalize(path).map_err(|e| {
            AppError::Usage(format!(
                "--allow-read {}: {e}; give a folder or file that exists",
                path.display()
            ))
        })?;
        tools.allow_read.push(found);
    }
    for program in &run.allow {
        if program.contains('/') || program.trim().is_empty() {
            return Err(AppError::Usage(format!(
                "--allow takes a program name such as `node`, not {program:?}"
            )));
        }
        if !tools.allowed.contains(program) {
            tools.allowed.push(program.clone());
        }
    }
    Ok(Settings {
        workspace,
        model: cli.common.model.clone(),
        host,
        max_rounds: run.max_rounds,
        max_cycles: run.max_cycles,
        history_keep: run.history_keep,
        temperature: run.temperature,
        num_ctx: run.num_ctx,
        num_predict: run.num_predict,
        model_timeout: Duration::from_secs(run.model_timeout),
        retry: RetryPolicy {
            retries: run.retries,
            base: Duration::from_millis(run.retry_delay_ms),
        },
        max_nudges: run.max_nudges,
        max_loop_nudges: run.loop_nudges,
        loop_message: run
            .loop_message
            .clone()
            .unwrap_or_else(|| crate::settings::DEFAULT_LOOP_MESSAGE.into()),
        reflection: !run.no_reflection,
        tools,
        output: Output {
            quiet: cli.common.quiet,
            verbose: cli.common.verbose,
            json: run.json,
        },
        salvage: run.salvage,
        tool_mode: run.tool_mode,
        api: run.api,
        api_key: run.api_key.clone(),
    })
}

/// What to do with the run found in the workspace.
enum Plan {
    Run(String),
    Done(Exit),
}

fn decide(store: &mut Store, goal: Option<String>, terminal: &Terminal) -> Result<Plan, AppError> {
    let state = store.state();
    let Some(goal) = goal else {
        if state.goal.is_empty() {
            return Err(AppError::Usage(
                "there is no run to resume here: start one with `runner \"GOAL\"`".into(),
            ));
        }
        return Ok(finished(state, terminal).unwrap_or_else(|| Plan::Run(state.goal.clone())));
    };
    if state.goal.is_empty() {
        return Ok(Plan::Run(goal));
    }
    if state.goal == goal {
        return Ok(finished(state, terminal).unwrap_or(Plan::Run(goal)));
    }
    let old = state.goal.clone();
    if let Some(to) = store.archive()? {
        terminal.notice(&format!(
            "this workspace held another goal ({old:?}); its files are archived in {}",
            to.display()
        ));
    }
    Ok(Plan::Run(goal))
}

/// A run whose every subtask has ended has nothing to resume, once its
/// last invocation recorded how it ended; one stopped (or killed) before
/// that is resumed, to end it.
fn finished(state: &State, terminal: &Terminal) -> Option<Plan> {
    let ending = state.ended.as_ref()?;
    if !state.tree.is_finished() {
        return None;
    }
    // Achieved is what the completion check found, not that every subtask
    // was marked complete.
    if ending.outcome == Outcome::Achieved {
        terminal.notice(&format!(
            "the goal {:?} is already achieved here",
            state.goal
        ));
        return Some(Plan::Done(Exit::Achieved));
    }
    if ending.outcome != Outcome::NotAchieved {
        // Stopped or interrupted while checking: a resume checks again.
        return None;
    }
    terminal.notice(&format!(
        "the goal {:?} ended without being achieved ({}); run `runner reset` to start it over",
        state.goal, ending.reason
    ));
    Some(Plan::Done(Exit::Stopped))
}

async fn run_goal(
    settings: Settings,
    goal: Option<String>,
    mut terminal: Terminal,
) -> Result<Exit, AppError> {
    let started = Instant::now();
    // From the start: a Ctrl-C while the store opens stops at the first
    // safe point instead of killing the process.
    let stop = watch_signals();
    let failpoint = std::env::var("RUNNER_FAILPOINT")
        .ok()
        .and_then(|s| Failpoint::parse(&s));
    let mut store = Store::open(
        &settings.workspace,
        Box::new(RealDisk::new(failpoint)),
        OpenOptions {
            salvage: settings.salvage,
        },
    )?;
    for warning in store.take_warnings() {
        terminal.notice(&warning);
    }
    let goal = match decide(&mut store, goal, &terminal)? {
        Plan::Done(exit) => return Ok(exit),
        Plan::Run(goal) => goal,
    };
    let _log = crate::logging::init(&store.paths().dir, settings.output.verbose);
    let model = client(&settings).map_err(|e| AppError::Usage(e.to_string()))?;
    // Orphans of commands come back to the runner, which kills and reaps them.
    crate::tools::become_subreaper();
    if let Some(notice) = crate::tools::sandbox_notice(&settings.tools, &settings.workspace) {
        terminal.notice(&notice);
    }
    let tools = Toolbox::new(&settings.workspace, settings.tools.clone());
    let ending = Agent::new(&settings, &mut store, &model, &tools, &mut terminal, stop)
        .run(&goal)
        .await?;
    store.close()?;
    terminal.summary(&ending, store.state(), store.stats(), started.elapsed());
    if ending.outcome == Outcome::Interrupted {
        terminal.notice(&format!(
            "to go on: {}",
            resume_command(&settings.workspace)
        ));
    }
    Ok(Exit::from(ending.outcome))
}

/// The command that resumes the run in `workspace`, from where the user is.
fn resume_command(workspace: &Path) -> String {
    let here = std::env::current_dir().and_then(|dir| dir.canonicalize());
    if here.is_ok_and(|dir| dir == workspace) {
        return "runner resume".into();
    }
    format!(
        "runner -C {} resume",
        shell_words::quote(&workspace.to_string_lossy())
    )
}

/// The client of `--api`, asking for tool calls as `--tool-mode` says.
fn client(settings: &Settings) -> Result<ToolModel, ModelError> {
    let config = ClientConfig {
        base_url: settings.host.clone(),
        model: settings.model.clone(),
        retry: settings.retry.clone(),
        timeout: settings.model_timeout,
    };
    let client: Box<dyn Model> = match settings.api {
        Api::Ollama => Box::new(OllamaClient::new(config)?),
        Api::OpenAi => Box::new(OpenAiClient::new(config, settings.api_key.clone())?),
    };
    Ok(ToolModel::new(client, settings.tool_mode, &settings.model))
}

/// Ctrl-C or SIGTERM: stop at the next safe point; a second one exits at once
/// (the log is consistent either way: every record is one write).
fn watch_signals() -> Stop {
    let (sender, stop) = stop::channel();
    tokio::spawn(async move {
        wait_for_signal().await;
        eprintln!("runner: stopping at the next safe point; press Ctrl-C again to quit at once");
        sender.request();
        wait_for_signal().await;
        eprintln!("runner: quitting now; `runner resume` goes on from the log");
        std::process::exit(Exit::Interrupted as i32);
    });
    stop
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
