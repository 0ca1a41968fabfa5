//! The command line.

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;

use crate::model::Api;
use crate::model::openai::ApiKey;
use crate::model::tool_mode::ToolMode;
use crate::paint::ColorChoice;

const EXAMPLES: &str = "\
Examples:
  runner \"Write a hello world script\"          run a goal in this folder
  runner -C game \"Create a rock-paper-scissors game with pytest tests\"
  runner resume                                 go on where the last run stopped
  runner --model qwen3:8b --max-rounds 40 \"...\"
  OLLAMA_HOST=10.0.0.5:11434 runner \"...\"       use Ollama on another machine
  runner doctor                                 can the runner work here? (Ollama, model, python3)
  runner status                                 the tree, the cursor, the counts of the run here
  runner history -n 20 --follow                 the last 20 events, then new ones as they come
  runner diff                                   what the run changed, as a unified diff
  runner rollback --last 1                      undo the runner's last write
  runner rollback --to 0                        undo every write of the run
  runner reset --list                           the runs archived here
  runner completions bash > ~/.local/share/bash-completion/completions/runner
  runner --model gemma3:4b \"...\"                a model without tool calls: JSON tool mode
  runner --api openai --host 127.0.0.1:8080 \"...\"
                                                llama-server, LM Studio, vLLM (OpenAI API)

Exit codes: 0 goal achieved · 1 stopped, resumable · 2 bad usage · 3 model server or
model unusable · 4 workspace locked or state unreadable · 130 interrupted, resumable.
Everything the runner knows is in .agent_context/ (see README.md).";

const ROLLBACK_EXAMPLES: &str = "\
Examples:
  runner rollback --last 1             undo the runner's last write
  runner rollback --to 0 --dry-run     what putting back every file as before the run would do
  runner history | grep write_file     find a record to go back to, then: runner rollback --to SEQ

Only files the runner wrote are touched. A file changed by someone else since the runner
wrote it is left as it is and reported (exit 1). A rollback is undone by rolling back to a
record before it.";

#[derive(Debug, Parser)]
#[command(
    name = "runner",
    version,
    about = "A crash-resilient, local-first coding agent for models served by Ollama",
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// What you want done, in plain words
    pub goal: Option<String>,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub run: RunArgs,
    /// Where the settings that name the model and its server came from.
    #[arg(skip)]
    pub sources: Sources,
    /// What the command line could not honour but went on without
    /// (a broken runner.toml for a command that only reads).
    #[arg(skip)]
    pub warnings: Vec<String>,
}

/// Where a setting came from, for messages that name it and for `resume`,
/// where only a flag overrides what the run recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Default,
    Flag,
    Env(&'static str),
    File,
}

impl Source {
    /// The setting `flag` as the user gave it, in words.
    pub fn describe(self, flag: &str) -> String {
        match self {
            Source::Default => format!("the default {flag}"),
            Source::Flag => flag.to_string(),
            Source::Env(name) => name.to_string(),
            Source::File => format!("`{}` in {}", &flag[2..], crate::config::FILE),
        }
    }
}

/// The sources of the settings `resume` may reuse from the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sources {
    pub model: Source,
    pub host: Source,
    pub api: Source,
    pub tool_mode: Source,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Resume the run in this workspace where it stopped
    Resume,
    /// Show the goal, the task tree, the cursor and the counts of the run here
    Status {
        /// Print the state as JSON
        #[arg(long)]
        json: bool,
    },
    /// Archive .agent_context under .agent_context/archive/ and start clean (nothing is deleted)
    Reset {
        /// List the archived runs instead
        #[arg(long)]
        list: bool,
    },
    /// Show the log of the run here, one line per event
    History {
        /// Only the last N events
        #[arg(short = 'n', value_name = "N")]
        lines: Option<usize>,
        /// Print the events as stored, one JSON object a line
        #[arg(long)]
        json: bool,
        /// Then print new events as a running run appends them, until it ends
        #[arg(short, long)]
        follow: bool,
    },
    /// Show the loops the guard blocked (loops.json) as a table
    Loops {
        /// Print loops.json as it is
        #[arg(long)]
        json: bool,
    },
    /// Check that the runner can work here: Ollama, the model, the workspace, python3, the sandbox
    Doctor {
        /// Print the checks as JSON
        #[arg(long)]
        json: bool,
    },
    /// Put the files the runner wrote back as they were at a record of the log
    #[command(
        group(ArgGroup::new("point").required(true).args(["to", "last"])),
        after_help = ROLLBACK_EXAMPLES
    )]
    Rollback {
        /// Back to just after record SEQ (`runner history` shows them); 0 is before the run
        #[arg(long, value_name = "SEQ")]
        to: Option<u64>,
        /// Undo the runner's last N writes
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        last: Option<u64>,
        /// Show what would be put back, and change nothing
        #[arg(long)]
        dry_run: bool,
    },
    /// Show what the run changed, as a unified diff from before the run to now
    Diff {
        /// Only these files (relative to the workspace)
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Print a completion script for a shell
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

/// Options every command takes.
#[derive(Debug, Args)]
pub struct Common {
    /// The workspace (default: the current folder)
    #[arg(short = 'C', value_name = "DIR", global = true, id = "dir")]
    pub dir: Option<PathBuf>,
    /// The model to use
    #[arg(
        long,
        env = "OLLAMA_MODEL",
        default_value = "gpt-oss:20b",
        global = true
    )]
    pub model: String,
    /// The Ollama server: host:port or a URL, as the ollama CLI takes it
    #[arg(
        long,
        env = "OLLAMA_HOST",
        default_value = "http://127.0.0.1:11434",
        global = true
    )]
    pub host: String,
    /// Print only the summary and errors
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print every round, model reply, tool call and the head of a command's output
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Colour the output: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
}

/// Options of a run (fresh or resumed).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Rounds this invocation may spend (a resume gets a fresh budget)
    #[arg(long, default_value_t = 24, global = true)]
    pub max_rounds: u32,
    /// Times what the completion check found missing becomes a new task
    #[arg(long, default_value_t = 2, global = true)]
    pub max_cycles: u32,
    /// Exchanges of the conversation the model sees each round (at most 8)
    #[arg(long, default_value_t = 5, global = true)]
    pub history_keep: usize,
    /// Sampling temperature
    #[arg(long, default_value_t = 0.2, global = true)]
    pub temperature: f32,
    /// Context window to ask the server for, in tokens
    #[arg(long, default_value_t = 16384, global = true)]
    pub num_ctx: u64,
    /// Cap on the tokens of one reply
    #[arg(long, default_value_t = 4096, global = true)]
    pub num_predict: u32,
    /// Allow run_cmd to start this program too (repeatable)
    #[arg(long = "allow", value_name = "BIN", global = true)]
    pub allow: Vec<String>,
    /// Seconds one model call may take
    #[arg(long, default_value_t = 600, global = true)]
    pub model_timeout: u64,
    /// Retries of a model call that failed transiently
    #[arg(long, default_value_t = 3, global = true)]
    pub retries: u32,
    /// The first pause before a retry, in milliseconds; each next one doubles
    #[arg(long, default_value_t = 1000, global = true)]
    pub retry_delay_ms: u64,
    /// Nudges per subtask when the model answers without a tool call
    #[arg(long, default_value_t = 3, global = true)]
    pub max_nudges: u32,
    /// Loop nudges per invocation: messages telling the model it repeats itself
    #[arg(long, default_value_t = 5, global = true)]
    pub loop_nudges: u32,
    /// The text of a loop nudge
    #[arg(long, value_name = "TEXT", global = true)]
    pub loop_message: Option<String>,
    /// Skip the reflection turn at the end of a run
    #[arg(long, global = true)]
    pub no_reflection: bool,
    /// Print every event as a JSON line on stdout
    #[arg(long, global = true)]
    pub json: bool,
    /// Keep the valid records of a damaged history.jsonl and move the rest aside
    #[arg(long, global = true)]
    pub salvage: bool,
    /// Run commands without the OS sandbox (Landlock): they can then read and write anywhere you
    /// can, and reach the network
    #[arg(long, global = true)]
    pub no_sandbox: bool,
    /// Let commands read this folder or file too (repeatable); they read only the workspace, the
    /// system and the allowed programs' installations otherwise
    #[arg(long = "allow-read", value_name = "PATH", global = true)]
    pub allow_read: Vec<std::path::PathBuf>,
    /// Let commands reach the network (`pip install` needs it); they have none otherwise
    #[arg(long, global = true)]
    pub allow_net: bool,
    /// Let run_cmd run `python -c CODE`
    #[arg(long, global = true)]
    pub allow_inline_python: bool,
    /// How tool calls are asked for: native `tools`, JSON through structured
    /// output (models without tool support), or auto (native when the model
    /// supports tools)
    #[arg(long, value_enum, default_value_t = ToolMode::Auto, global = true)]
    pub tool_mode: ToolMode,
    /// The server's API: Ollama's own, or the OpenAI chat API (llama-server,
    /// LM Studio, vLLM; Ollama under /v1)
    #[arg(long, value_enum, default_value_t = Api::Ollama, global = true)]
    pub api: Api,
    /// A key for an OpenAI-compatible server that wants one: the key, or
    /// env:NAME to read it from the environment variable NAME
    #[arg(
        long,
        env = "RUNNER_API_KEY",
        hide_env_values = true,
        value_name = "KEY|env:NAME",
        value_parser = ApiKey::from_arg,
        global = true
    )]
    pub api_key: Option<ApiKey>,
}

impl ValueEnum for ToolMode {
    fn value_variants<'a>() -> &'a [Self] {
        &[ToolMode::Auto, ToolMode::Native, ToolMode::Json]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            ToolMode::Auto => PossibleValue::new("auto"),
            ToolMode::Native => PossibleValue::new("native"),
            ToolMode::Json => PossibleValue::new("json"),
        })
    }
}

impl ValueEnum for Api {
    fn value_variants<'a>() -> &'a [Self] {
        &[Api::Ollama, Api::OpenAi]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Api::Ollama => PossibleValue::new("ollama"),
            Api::OpenAi => PossibleValue::new("openai"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_goal_and_resume_parse() {
        let cli = Cli::try_parse_from(["runner", "--max-rounds", "3", "write hello"]).unwrap();
        assert_eq!(cli.goal.as_deref(), Some("write hello"));
        assert_eq!(cli.run.max_rounds, 3);
        let cli = Cli::try_parse_from(["runner", "resume", "--max-rounds", "5"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Resume)));
        assert_eq!(cli.run.max_rounds, 5);
    }

    #[test]
    fn the_views_parse_with_their_own_json_flag() {
        let cli = Cli::try_parse_from(["runner", "history", "-n", "5", "--json", "-f"]).unwrap();
        assert!(matches!(
            cli.command,
            Some(Command::History {
                lines: Some(5),
                json: true,
                follow: true
            })
        ));
        let cli = Cli::try_parse_from(["runner", "reset", "--list"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Reset { list: true })));
    }

    #[test]
    fn rollback_takes_exactly_one_point() {
        let cli = Cli::try_parse_from(["runner", "rollback", "--to", "0"]).unwrap();
        assert!(matches!(
            cli.command,
            Some(Command::Rollback {
                to: Some(0),
                last: None,
                dry_run: false
            })
        ));
        assert!(Cli::try_parse_from(["runner", "rollback"]).is_err());
        assert!(Cli::try_parse_from(["runner", "rollback", "--to", "1", "--last", "1"]).is_err());
        assert!(Cli::try_parse_from(["runner", "rollback", "--last", "0"]).is_err());
    }

    #[test]
    fn tool_mode_api_and_key_parse() {
        let cli = Cli::try_parse_from(["runner", "g"]).unwrap();
        assert_eq!(
            (cli.run.tool_mode, cli.run.api),
            (ToolMode::Auto, Api::Ollama)
        );
        let cli = Cli::try_parse_from([
            "runner",
            "--tool-mode",
            "json",
            "--api",
            "openai",
            "--api-key",
            "k",
            "g",
        ])
        .unwrap();
        assert_eq!(
            (cli.run.tool_mode, cli.run.api),
            (ToolMode::Json, Api::OpenAi)
        );
        assert_eq!(cli.run.api_key, Some(ApiKey::from_arg("k").unwrap()));
        assert!(Cli::try_parse_from(["runner", "--tool-mode", "xml", "g"]).is_err());
    }
}
