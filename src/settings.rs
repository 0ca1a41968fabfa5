//! The settings of one invocation, resolved from the command line and the
//! environment.

use std::path::PathBuf;
use std::time::Duration;

use crate::model::openai::ApiKey;
use crate::model::tool_mode::ToolMode;
use crate::model::{Api, RetryPolicy};
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
