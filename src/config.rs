//! `runner.toml` in the workspace: the same options as the command line, for
//! what a project always wants (`model = "qwen3:8b"`, `allow = ["node"]`).
//! The command line wins, then the environment, then the file, then the
//! defaults.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches};

use crate::cli::{Cli, Source, Sources};

/// The file's name, in the workspace.
pub const FILE: &str = "runner.toml";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    Cli(#[from] clap::Error),
    #[error("{path}: {why}. Fix the file, or move it away to run without it")]
    File { path: PathBuf, why: String },
    #[error("{0}")]
    Usage(String),
}

/// The commands that only read: a broken `runner.toml` must not keep a
/// person from looking at a run or diagnosing the setup.
const READERS: &[&str] = &[
    "status",
    "history",
    "loops",
    "doctor",
    "diff",
    "completions",
];

/// Parses the command line, filled in from `runner.toml` where the command
/// line and the environment said nothing.
pub fn parse(args: Vec<OsString>) -> Result<Cli, ConfigError> {
    let matches = match Cli::command().try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(e) => return Err(unquoted_goal(&args, &e).unwrap_or(ConfigError::Cli(e))),
    };
    goal_and_command(&matches)?;
    let workspace = matches
        .get_one::<PathBuf>("dir")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("."));
    let path = workspace.join(FILE);
    let reader = matches
        .subcommand_name()
        .is_some_and(|name| READERS.contains(&name));
    let extra = match from_file(&path, &matches) {
        Ok(extra) => extra,
        Err(e) if reader => {
            let mut cli = Cli::from_arg_matches(&matches)?;
            cli.sources = sources(&matches, &[]);
            cli.warnings
                .push(format!("{e}; this command went on without it"));
            return Ok(cli);
        }
        Err(e) => return Err(e),
    };
    let Some(extra) = extra else {
        let mut cli = Cli::from_arg_matches(&matches)?;
        cli.sources = sources(&matches, &[]);
        return Ok(cli);
    };
    let mut all = args;
    all.extend(extra.iter().cloned());
    let matches = Cli::command()
        .try_get_matches_from(&all)
        .map_err(|e| ConfigError::File {
            path: path.clone(),
            why: first_line(&e),
        })?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    cli.sources = sources(&matches, &extra);
    Ok(cli)
}

/// clap's own message, without its `error: ` and its usage lines.
fn first_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let line = text.lines().next().unwrap_or("");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// `runner "Fix it" reset` or `runner show status`: a goal followed by a
/// command word would run the command and drop the goal.
fn goal_and_command(matches: &ArgMatches) -> Result<(), ConfigError> {
    let (Some(goal), Some(command)) =
        (matches.get_one::<String>("goal"), matches.subcommand_name())
    else {
        return Ok(());
    };
    Err(ConfigError::Usage(format!(
        "both a goal ({goal:?}) and the command `{command}` were given: run either \
         `runner {command}`, or the goal alone, in quotes: `runner {}`",
        shell_words::quote(&format!("{goal} {command}"))
    )))
}

/// `runner write a hello world script`: clap sees a goal and an unknown
/// command; the user meant one goal of several words.
fn unquoted_goal(args: &[OsString], e: &clap::Error) -> Option<ConfigError> {
    use clap::error::ErrorKind;
    if !matches!(
        e.kind(),
        ErrorKind::InvalidSubcommand | ErrorKind::UnknownArgument
    ) {
        return None;
    }
    let command = Cli::command();
    let words = words(args);
    if words.len() < 2 || command.find_subcommand(&words[0]).is_some() {
        return None;
    }
    Some(ConfigError::Usage(format!(
        "the goal must be one argument: put it in quotes, e.g. `runner {}`",
        shell_words::quote(&words.join(" "))
    )))
}

/// The words of the command line that are neither options nor their values.
fn words(args: &[OsString]) -> Vec<String> {
    let command = Cli::command();
    let takes_value = |word: &str| {
        command.get_arguments().any(|a| {
            a.get_action().takes_values()
                && (a.get_long().is_some_and(|l| word == format!("--{l}"))
                    || a.get_short().is_some_and(|c| word == format!("-{c}")))
        })
    };
    let mut words = Vec::new();
    let mut skip = false;
    for arg in args.iter().skip(1) {
        let word = arg.to_string_lossy();
        if skip {
            skip = false;
        } else if word.starts_with('-') {
            skip = !word.contains('=') && takes_value(&word);
        } else {
            words.push(word.into_owned());
        }
    }
    words
}

/// The commands whose help shows the options of a run: they use them.
const RUNNERS: &[&str] = &["resume", "doctor"];

/// `runner status --help`: the help of a command that does not run the
/// model, without the ~20 options of a run (they are global only so that
/// `runner -C dir --max-rounds 3 resume` parses in any order).
pub fn command_help(args: &[OsString]) -> Option<String> {
    if !args.iter().any(|a| a == "--help" || a == "-h") {
        return None;
    }
    let words = words(args);
    let name = words.first()?;
    if RUNNERS.contains(&name.as_str()) {
        return None;
    }
    // The command's own options (status has its own --json) stay shown.
    let own: Vec<String> = Cli::command()
        .find_subcommand(name)?
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut command = Cli::command();
    command.build();
    let run_options: Vec<String> = crate::cli::RunArgs::augment_args(clap::Command::new("run"))
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .chain(["model".to_string(), "host".to_string()])
        .collect();
    let mut sub = command.find_subcommand(name)?.clone();
    for id in run_options.iter().filter(|id| !own.contains(id)) {
        sub = sub.mut_arg(id, |a| a.hide(true));
    }
    Some(sub.render_help().to_string())
}

/// Where the model, the host, the API and the tool mode came from; `extra`
/// are the arguments `runner.toml` added.
fn sources(matches: &ArgMatches, extra: &[OsString]) -> Sources {
    let of = |id: &str, long: &str, env: &'static str| {
        let from_file = extra.iter().any(|a| a == format!("--{long}").as_str());
        match matches.value_source(id) {
            _ if from_file => Source::File,
            Some(ValueSource::CommandLine) => Source::Flag,
            Some(ValueSource::EnvVariable) => Source::Env(env),
            _ => Source::Default,
        }
    };
    Sources {
        model: of("model", "model", "OLLAMA_MODEL"),
        host: of("host", "host", "OLLAMA_HOST"),
        api: of("api", "api", ""),
        tool_mode: of("tool_mode", "tool-mode", ""),
    }
}

/// The arguments the file adds, `None` when there is no file.
fn from_file(path: &Path, matches: &ArgMatches) -> Result<Option<Vec<OsString>>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        // No file, or -C names no folder (the app says so).
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(e) => {
            return Err(ConfigError::File {
                path: path.to_path_buf(),
                why: e.to_string(),
            });
        }
    };
    let error = |why: String| ConfigError::File {
        path: path.to_path_buf(),
        why,
    };
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e
            .span()
            .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
        match line {
            Some(line) => error(format!("line {line}: {}", e.message().trim())),
            None => error(e.message().trim().to_string()),
        }
    })?;
    let command = Cli::command();
    let mut extra = Vec::new();
    for (key, value) in table {
        let id = key.replace('-', "_");
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_id().as_str() == id && a.get_long().is_some())
        else {
            let known: Vec<String> = command
                .get_arguments()
                .filter_map(|a| a.get_long().map(str::to_string))
                .filter(|long| !["help", "version"].contains(&long.as_str()))
                .collect();
            return Err(error(format!(
                "unknown option `{key}`; the options are {}",
                known.join(", ")
            )));
        };
        let given = matches!(
            matches.value_source(&id),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        );
        if given {
            continue;
        }
        let flag = format!("--{}", arg.get_long().unwrap_or(&key));
        let values = match value {
            toml::Value::Array(items) => items,
            other => vec![other],
        };
        for value in values {
            match value {
                toml::Value::Boolean(true) if !arg.get_action().takes_values() => {
                    extra.push(flag.clone().into())
                }
                toml::Value::Boolean(false) if !arg.get_action().takes_values() => {}
                toml::Value::String(s) => extra.extend([flag.clone().into(), s.into()]),
                toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => {
                    extra.extend([flag.clone().into(), value.to_string().into()]);
                }
                other => return Err(error(format!("`{key}` cannot be {}", other.type_str()))),
            }
        }
    }
    Ok(Some(extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_in(dir: &Path, toml: &str, args: &[&str]) -> Result<Cli, ConfigError> {
        std::fs::write(dir.join(FILE), toml).unwrap();
        let mut all: Vec<OsString> = vec!["runner".into(), "-C".into(), dir.as_os_str().into()];
        all.extend(args.iter().map(OsString::from));
        parse(all)
    }

    #[test]
    fn the_file_fills_in_what_the_command_line_did_not_say() {
        let dir = tempfile::tempdir().unwrap();
        let toml = "max-rounds = 40\ntemperature = 0.5\nallow = [\"node\", \"npm\"]\nno_reflection = true\nmodel = \"from-file\"\n";
        let cli = parse_in(
            dir.path(),
            toml,
            &["--max-rounds", "7", "--model", "from-cli", "goal"],
        )
        .unwrap();
        assert_eq!(cli.run.max_rounds, 7, "the command line wins");
        assert_eq!(cli.common.model, "from-cli");
        assert_eq!(cli.run.temperature, 0.5);
        assert_eq!(cli.run.allow, ["node", "npm"]);
        assert!(cli.run.no_reflection);
        assert_eq!(cli.goal.as_deref(), Some("goal"));
    }

    #[test]
    fn an_unknown_option_or_a_bad_value_says_where() {
        let dir = tempfile::tempdir().unwrap();
        let err = parse_in(dir.path(), "max_round = 3", &["goal"])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown option `max_round`") && err.contains("max-rounds"),
            "{err}"
        );
        let err = parse_in(dir.path(), "max-rounds = \"many\"", &["goal"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("runner.toml"), "{err}");
        let err = parse_in(dir.path(), "max-rounds = [", &["goal"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("runner.toml"), "{err}");
    }
}
