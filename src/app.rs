//! From parsed arguments to an exit code: resolve the settings, open the
//! store, decide between a fresh run, a resume and an archive, run the agent,
//! and report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::agent::Agent;
use crate::cli::{Cli, Command, Sources};
use crate::model::ollama::OllamaClient;
use crate::model::openai::OpenAiClient;
use crate::model::tool_mode::ToolModel;
use crate::model::{Api, ClientConfig, Model, ModelError};
use crate::settings::{Output, Settings};
use crate::state::{Outcome, State};
use crate::stop::{self, Stop};
use crate::store::{self, Failpoint, OpenOptions, RealDisk, Store, StoreError};
use crate::tools::Toolbox;
use crate::ui::Terminal;
use crate::views::{self, history::HistoryOptions, rollback::Point};

pub use crate::error::{AppError, Exit};

pub async fn run(cli: Cli) -> Exit {
    let output = Output {
        quiet: cli.common.quiet,
        verbose: cli.common.verbose,
        json: cli.run.json,
    };
    crate::paint::choose(cli.common.color);
    for warning in &cli.warnings {
        crate::paint::warning(warning);
    }
    let terminal = Terminal::new(output);
    match dispatch(cli, terminal).await {
        Ok(exit) => exit,
        Err(error) => {
            crate::paint::error(&error.to_string());
            error.exit()
        }
    }
}

async fn dispatch(cli: Cli, terminal: Terminal) -> Result<Exit, AppError> {
    if let Some(Command::Completions { shell }) = &cli.command {
        views::completions::print(*shell);
        return Ok(Exit::Achieved);
    }
    let for_a_goal =
        cli.command.is_none() && cli.goal.as_ref().is_some_and(|g| !g.trim().is_empty());
    let workspace = workspace(cli.common.dir.as_deref(), for_a_goal)?;
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
        Some(Command::Doctor { json }) => {
            let settings = Settings::from_cli(&cli, workspace)?;
            Ok(views::doctor::doctor(&settings, *json).await)
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
            let settings = Settings::from_cli(&cli, workspace)?;
            run_goal(settings, &cli.sources, None, terminal).await
        }
        None => {
            let Some(goal) = cli.goal.clone().filter(|g| !g.trim().is_empty()) else {
                return Err(AppError::Usage(
                    "give a goal, e.g. `runner \"Write a hello world script\"`, or `runner resume` \
                     (see `runner --help`)"
                        .into(),
                ));
            };
            let settings = Settings::from_cli(&cli, workspace)?;
            run_goal(settings, &cli.sources, Some(goal), terminal).await
        }
    }
}

/// The workspace of `-C` (or here), canonical. A goal may name a folder that
/// does not exist yet (`runner -C game "…"`): it is created.
fn workspace(dir: Option<&Path>, for_a_goal: bool) -> Result<PathBuf, AppError> {
    let dir = dir.unwrap_or(Path::new("."));
    if dir.is_file() {
        return Err(AppError::Usage(format!(
            "-C {} is a file, not a folder: give the folder to work in",
            dir.display()
        )));
    }
    if for_a_goal && !dir.exists() {
        fs_err::create_dir_all(dir).map_err(|e| {
            AppError::Usage(format!(
                "cannot create the workspace {}: {}; create it yourself or pass another with -C",
                dir.display(),
                e.kind()
            ))
        })?;
    }
    dir.canonicalize()
        .ok()
        .filter(|path| path.is_dir())
        .ok_or_else(|| {
            AppError::Usage(format!(
                "the workspace {} does not exist: create it or pass another with -C",
                dir.display()
            ))
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
    mut settings: Settings,
    sources: &Sources,
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
    // The client is built once before anything is written: a host it cannot
    // use leaves no trace in the workspace.
    client(&settings)?;
    crate::views::lost_log::check(&settings.workspace, settings.salvage)?;
    let mut store = Store::open(
        &settings.workspace,
        Box::new(RealDisk::new(failpoint)),
        OpenOptions {
            salvage: settings.salvage,
        },
    )
    .map_err(unwritable)?;
    for warning in store.take_warnings() {
        crate::paint::warning(&warning);
    }
    let goal = match decide(&mut store, goal, &terminal)? {
        Plan::Done(exit) => return Ok(exit),
        Plan::Run(goal) => goal,
    };
    if store.state().goal == goal {
        for notice in settings.reuse(store.state(), sources) {
            terminal.notice(&notice);
        }
    }
    let _log = crate::logging::init(&store.paths().dir, settings.output.verbose);
    let model = client(&settings)?;
    // Orphans of commands come back to the runner, which kills and reaps them.
    crate::tools::become_subreaper();
    if let Some(notice) = crate::tools::sandbox_notice(&settings.tools, &settings.workspace) {
        crate::paint::warning(&notice);
    }
    let tools = Toolbox::new(&settings.workspace, settings.tools.clone())
        .with_languages(crate::lang::Languages::default());
    let languages = crate::lang::Languages::default();
    let ending = Agent::new(&settings, &mut store, &model, &tools, &mut terminal, stop)
        .with_languages(languages.boxed())
        .run(&goal)
        .await?;
    store.close()?;
    terminal.summary(&ending, store.state(), store.stats(), started.elapsed());
    if ending.outcome == Outcome::Interrupted {
        terminal.notice(&format!(
            "to go on: {}",
            resume_command(&settings.workspace)
        ));
    } else if ending.outcome != Outcome::Achieved && !store.state().tree.is_finished() {
        // The reason says `runner resume`, which works only from the workspace.
        let command = resume_command(&settings.workspace);
        if command != "runner resume" {
            terminal.notice(&format!("to go on: {command}"));
        }
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

/// A workspace the runner may not write to is a permission to fix, not a
/// disk to free.
fn unwritable(error: StoreError) -> AppError {
    match &error {
        StoreError::Io { path, source }
            if source.kind() == std::io::ErrorKind::PermissionDenied =>
        {
            AppError::State(format!(
                "cannot write {}: permission denied. Run the runner in a folder you can write \
                 to, or give yourself the right (chmod u+w)",
                path.display()
            ))
        }
        _ => AppError::Store(error),
    }
}

/// The client of `--api`, asking for tool calls as `--tool-mode` says.
fn client(settings: &Settings) -> Result<ToolModel, AppError> {
    let model = |e: ModelError| AppError::Model(e.to_string());
    let config = ClientConfig {
        base_url: settings.host.clone(),
        model: settings.model.clone(),
        retry: settings.retry.clone(),
        timeout: settings.model_timeout,
    };
    let client: Box<dyn Model> = match settings.api {
        Api::Ollama => Box::new(OllamaClient::new(config).map_err(model)?),
        Api::OpenAi => {
            Box::new(OpenAiClient::new(config, settings.api_key.clone()).map_err(model)?)
        }
    };
    Ok(ToolModel::new(client, settings.tool_mode, &settings.model))
}

/// Ctrl-C or SIGTERM: stop at the next safe point; a second one exits at once
/// (the log is consistent either way: every record is one write).
fn watch_signals() -> Stop {
    let (sender, stop) = stop::channel();
    tokio::spawn(async move {
        wait_for_signal().await;
        crate::paint::warning(
            "stopping at the next safe point; press Ctrl-C again to quit at once",
        );
        sender.request();
        wait_for_signal().await;
        crate::paint::warning("quitting now; `runner resume` goes on from the log");
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
