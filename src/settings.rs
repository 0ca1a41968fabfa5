//! The settings of one invocation, resolved from the command line and the
//! environment.

use std::path::PathBuf;
use std::time::Duration;

use clap::ValueEnum;

use crate::cli::{Cli, Source, Sources};
use crate::error::AppError;
use crate::host;
use crate::model::openai::ApiKey;
use crate::model::tool_mode::ToolMode;
use crate::model::{Api, RetryPolicy};
use crate::state::{KEPT_EXCHANGES, State};
use crate::tools::ToolConfig;

/// What the model is told when the loop guard blocks its action.
pub const DEFAULT_LOOP_MESSAGE: &str = "You are repeating yourself: that action was already tried \
with nothing changed in between, so it was blocked. Read the error or the file you need, change \
your approach, or call mark_subtask_complete (success=false with the reason if you are stuck).";

#[derive(Debug, Clone)]
pub struct Settings {
    /// The workspace, canonical.
    pub workspace: PathBuf,
    pub model: String,
    /// The server's base URL, ending in `/`.
    pub host: String,
    pub max_rounds: u32,
    /// Cycles of work on what the completion check found missing.
    pub max_cycles: u32,
    /// Exchanges of the conversation shown to the model.
    pub history_keep: usize,
    pub temperature: f32,
    pub num_ctx: u64,
    /// Cap on the tokens of one reply.
    pub num_predict: u32,
    pub model_timeout: Duration,
    pub retry: RetryPolicy,
    /// Nudges per subtask before the run stops.
    pub max_nudges: u32,
    /// Loop nudges per invocation, and their text.
    pub max_loop_nudges: u32,
    pub loop_message: String,
    /// Ask the model to reflect when the run ends.
    pub reflection: bool,
    pub tools: ToolConfig,
    pub output: Output,
    /// Keep the valid part of a damaged log.
    pub salvage: bool,
    /// Native tool calls, JSON through structured output, or auto.
    pub tool_mode: ToolMode,
    pub api: Api,
    /// For an OpenAI-compatible server that wants one; never printed.
    pub api_key: Option<ApiKey>,
}

/// What the user sees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Output {
    pub quiet: bool,
    pub verbose: bool,
    /// Every event as NDJSON on stdout.
    pub json: bool,
}

impl Settings {
    /// Settings for tests and benchmarks: defaults of the CLI.
    pub fn new(workspace: PathBuf) -> Settings {
        Settings {
            workspace,
            model: "gpt-oss:20b".into(),
            host: "http://127.0.0.1:11434/".into(),
            max_rounds: 24,
            max_cycles: 2,
            history_keep: 5,
            temperature: 0.2,
            num_ctx: 16384,
            num_predict: 4096,
            model_timeout: Duration::from_secs(600),
            retry: RetryPolicy::default(),
            max_nudges: 3,
            max_loop_nudges: 5,
            loop_message: DEFAULT_LOOP_MESSAGE.into(),
            reflection: true,
            tools: ToolConfig::default(),
            output: Output::default(),
            salvage: false,
            tool_mode: ToolMode::Auto,
            api: Api::Ollama,
            api_key: None,
        }
    }
}

impl Settings {
    /// The settings of the command line, checked before anything is
    /// written: bad input leaves no `.agent_context` behind.
    pub fn from_cli(cli: &Cli, workspace: PathBuf) -> Result<Settings, AppError> {
        let run = &cli.run;
        let host = host::parse(&cli.common.host).map_err(|e| {
            AppError::Usage(format!(
                "{e}; it came from {}",
                cli.sources.host.describe("--host")
            ))
        })?;
        let usage = |text: String| Err(AppError::Usage(text));
        if run.history_keep > KEPT_EXCHANGES {
            return usage(format!(
                "--history-keep {} is more than the {KEPT_EXCHANGES} exchanges the state keeps; \
                 give at most {KEPT_EXCHANGES}",
                run.history_keep
            ));
        }
        if !(0.0..=2.0).contains(&run.temperature) {
            return usage("--temperature must be between 0 and 2".into());
        }
        if run.num_ctx < 2048 {
            return usage(
                "--num-ctx must be at least 2048 tokens: the tools and the context block alone \
                 need about 1500"
                    .into(),
            );
        }
        for (value, flag, why) in [
            (u64::from(run.max_rounds), "--max-rounds", "rounds to spend"),
            (
                run.model_timeout,
                "--model-timeout",
                "seconds for a model call",
            ),
            (
                u64::from(run.num_predict),
                "--num-predict",
                "tokens for a reply",
            ),
        ] {
            if value == 0 {
                return usage(format!(
                    "{flag} must be at least 1 ({why}); leave it out for the default"
                ));
            }
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
                return usage(format!(
                    "--allow takes a program name such as `node`, not {program:?}"
                ));
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
                .unwrap_or_else(|| DEFAULT_LOOP_MESSAGE.into()),
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

    /// Resuming a run: the model, server, API and tool mode it recorded,
    /// unless a flag says otherwise (then a notice says so). An environment
    /// variable or `runner.toml` does not override the run: the same shell
    /// that started it would otherwise resume it elsewhere.
    pub fn reuse(&mut self, run: &State, sources: &Sources) -> Vec<String> {
        let mut notices = Vec::new();
        let mut one = |flag: &str, given: Source, mine: &mut String, theirs: Option<String>| {
            let Some(theirs) = theirs.filter(|t| !t.is_empty() && t != mine) else {
                return;
            };
            match given {
                Source::Flag => notices.push(format!(
                    "resuming with {flag} {mine}; the run started with {theirs}"
                )),
                Source::Env(_) | Source::File => {
                    notices.push(format!(
                        "resuming with the run's {theirs}, not {mine} from {}; pass {flag} {mine} \
                         to change it",
                        given.describe(flag)
                    ));
                    *mine = theirs;
                }
                Source::Default => *mine = theirs,
            }
        };
        one(
            "--model",
            sources.model,
            &mut self.model,
            Some(run.model.clone()),
        );
        one(
            "--host",
            sources.host,
            &mut self.host,
            run.server.host.clone(),
        );
        let mut api = name(self.api);
        one("--api", sources.api, &mut api, run.server.api.map(name));
        self.api = run
            .server
            .api
            .filter(|a| name(*a) == api)
            .unwrap_or(self.api);
        let mut mode = name(self.tool_mode);
        one(
            "--tool-mode",
            sources.tool_mode,
            &mut mode,
            run.server.tool_mode.map(name),
        );
        self.tool_mode = run
            .server
            .tool_mode
            .filter(|m| name(*m) == mode)
            .unwrap_or(self.tool_mode);
        notices
    }
}

/// A value of the command line as the user types it.
fn name<T: ValueEnum>(value: T) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}
