//! `runner.toml` in the workspace: the same options as the command line, for
//! what a project always wants (`model = "qwen3:8b"`, `allow = ["node"]`).
//! The command line wins, then the environment, then the file, then the
//! defaults.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use crate::cli::Cli;

/// The file's name, in the workspace.
pub const FILE: &str = "runner.toml";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    Cli(#[from] clap::Error),
    #[error("{path}: {why}. Fix the file, or move it away to run without it")]
    File { path: PathBuf, why: String },
}

/// Parses the command line, filled in from `runner.toml` where the command
/// line and the environment said nothing.
pub fn parse(args: Vec<OsString>) -> Result<Cli, ConfigError> {
    let matches = Cli::command().try_get_matches_from(&args)?;
    let workspace = matches
        .get_one::<PathBuf>("dir")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("."));
    let path = workspace.join(FILE);
    let Some(extra) = from_file(&path, &matches)? else {
        return Ok(Cli::from_arg_matches(&matches)?);
    };
    let mut args = args;
    args.extend(extra);
    let matches = Cli::command()
        .try_get_matches_from(&args)
        .map_err(|e| ConfigError::File {
            path: path.clone(),
            why: e.kind().to_string(),
        })?;
    Ok(Cli::from_arg_matches(&matches)?)
}

/// The arguments the file adds, `None` when there is no file.
fn from_file(path: &Path, matches: &ArgMatches) -> Result<Option<Vec<OsString>>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
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
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| error(e.message().to_string()))?;
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
