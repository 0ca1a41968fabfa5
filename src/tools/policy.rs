//! What `run_cmd` accepts: one whitelisted program by name, its words split
//! as a shell would (shell-words) but never given to a shell, and none of
//! the options of pytest, ruff and pip that write outside the workspace.
//!
//! These checks catch the model's mistakes and the obvious tricks; python,
//! pytest and pip run arbitrary code, so the OS sandbox is the boundary.

use std::path::Path;

use super::ToolConfig;
use super::confined;
use super::paths::PathError;

/// The tools whose options are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Pytest,
    Ruff,
    Pip,
}

/// Long options that take a path the tool writes to (or a config that can
/// redirect writes), with the short forms that mean the same.
const PYTEST_PATHS: [&str; 11] = [
    "--basetemp",
    "--junitxml",
    "--junit-xml",
    "--rootdir",
    "--log-file",
    "--report-log",
    "--resultlog",
    "--result-log",
    "--html",
    "--json-report-file",
    "--config-file",
];
const RUFF_PATHS: [&str; 3] = ["--output-file", "--config", "--cache-dir"];
const PIP_PATHS: [&str; 10] = [
    "--target",
    "--prefix",
    "--root",
    "--src",
    "--log",
    "--log-file",
    "--cache-dir",
    "--report",
    "--dest",
    "--wheel-dir",
];
/// Keys of `pytest -o KEY=VALUE` that name a place pytest writes to, or
/// that smuggle more options in.
const PYTEST_INI_PATHS: [&str; 2] = ["cache_dir", "log_file"];

/// A command that reads its standard input from a file of the workspace:
/// `CMD < PATH`, the `<` outside quotes and `PATH` one word after it, the
/// last. The command before it and the path; `None` when `cmd` has no such
/// `<` (a `<<`, or more after the path, is shell syntax [`check`] refuses).
/// A program that reads a line of input is checked on a file of it: a
/// command gets no keyboard.
pub fn input_file(cmd: &str) -> Option<(&str, String)> {
    let mut quote: Option<char> = None;
    let mut chars = cmd.char_indices();
    let at = loop {
        let (at, c) = chars.next()?;
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                chars.next();
            }
            (None, '\'' | '"') => quote = Some(c),
            (None, '<') => break at,
            _ => {}
        }
    };
    let rest = &cmd[at + 1..];
    if rest.starts_with('<') || shell_syntax(rest).is_some() {
        return None;
    }
    let [path] = shell_words::split(rest).ok()?.try_into().ok()?;
    Some((cmd[..at].trim_end(), path))
}

/// The words of a command, checked; `Err` is for the model.
pub fn check(cmd: &str, root: &Path, config: &ToolConfig) -> Result<Vec<String>, String> {
    if let Some(syntax) = shell_syntax(cmd) {
        return Err(format!(
            "run_cmd starts one program without a shell, so {syntax} would not do what a shell does. \
             Run one command per call, with plain arguments"
        ));
    }
    let words =
        shell_words::split(cmd).map_err(|e| format!("cannot split {cmd:?} into words: {e}"))?;
    let Some(program) = words.first() else {
        return Err("the command is empty".to_string());
    };
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
    let (tool, args) = match program.as_str() {
        p if p.starts_with("python") => match python_module(&words[1..]) {
            Python::Inline if !config.allow_inline_python => {
                return Err(
                    "python -c is refused: write the code to a file with write_file, then run the file \
                     (the user can allow it with --allow-inline-python)"
                        .to_string(),
                );
            }
            Python::Module(module, from) => {
                (tool_named(&module), words.get(1 + from..).unwrap_or(&[]))
            }
            _ => (None, &[][..]),
        },
        p => (tool_named(p), &words[1..]),
    };
    if let Some(tool) = tool {
        check_options(tool, args, root)?;
    }
    Ok(words)
}

fn tool_named(name: &str) -> Option<Tool> {
    match name {
        "pytest" | "py.test" => Some(Tool::Pytest),
        "ruff" => Some(Tool::Ruff),
        n if n == "pip" || n.starts_with("pip3") => Some(Tool::Pip),
        _ => None,
    }
}

/// The first shell syntax outside quotes (or a substitution inside double
/// quotes), named for the model.
fn shell_syntax(cmd: &str) -> Option<String> {
    #[derive(PartialEq)]
    enum Quote {
        None,
        Single,
        Double,
    }
    let mut quote = Quote::None;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Quote::Single => {
                if c == '\'' {
                    quote = Quote::None;
                }
            }
            Quote::Double => match c {
                '\\' => {
                    chars.next();
                }
                '"' => quote = Quote::None,
                '`' => return Some("`...` (command substitution)".into()),
                '$' if chars.peek().is_some_and(|n| expands(*n)) => {
                    return Some("$ (variables and substitutions are not expanded)".into());
                }
                _ => {}
            },
            Quote::None => match c {
                '\\' => {
                    chars.next();
                }
                '\'' => quote = Quote::Single,
                '"' => quote = Quote::Double,
                ';' | '|' | '&' | '<' | '>' => {
                    let mut op = c.to_string();
                    if chars.peek().is_some_and(|n| matches!(n, '&' | '|' | '>')) {
                        op.extend(chars.next());
                    }
                    return Some(format!("{op:?}"));
                }
                '`' => return Some("`...` (command substitution)".into()),
                '$' if chars.peek().is_some_and(|n| expands(*n)) => {
                    return Some("$ (variables and substitutions are not expanded)".into());
                }
                '\n' | '\r' => return Some("a line break (a second command)".into()),
                _ => {}
            },
        }
    }
    None
}

/// Whether `$` followed by `next` is something a shell would expand.
fn expands(next: char) -> bool {
    next.is_ascii_alphanumeric() || "_{(?$!@*#-".contains(next)
}

enum Python {
    /// `-c CODE`.
    Inline,
    /// `-m MODULE ARGS...`: the module and where its arguments start.
    Module(String, usize),
    /// A script, stdin, or nothing.
    Other,
}

/// What python is asked to run, from its options.
fn python_module(args: &[String]) -> Python {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        if word == "--" || word == "-" || !word.starts_with('-') {
            return Python::Other;
        }
        if word == "--check-hash-based-pycs" {
            i += 2;
            continue;
        }
        if word.starts_with("--") {
            i += 1;
            continue;
        }
        let cluster = &word[1..];
        for (at, letter) in cluster.char_indices() {
            let rest = &cluster[at + 1..];
            match letter {
                'c' => return Python::Inline,
                'm' => {
                    let (module, from) = if rest.is_empty() {
                        (args.get(i + 1).cloned().unwrap_or_default(), i + 2)
                    } else {
                        (rest.to_string(), i + 1)
                    };
                    return Python::Module(module, from);
                }
                'W' | 'X' => {
                    if rest.is_empty() {
                        i += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
        i += 1;
    }
    Python::Other
}

/// Refuses the options of `tool` that write outside the workspace.
fn check_options(tool: Tool, args: &[String], root: &Path) -> Result<(), String> {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        if word == "--" {
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (format!("--{name}"), Some(value.to_string())),
                None => (word.clone(), None),
            };
            let Some(option) = dangerous_long(tool, &name) else {
                continue;
            };
            if option == "--user" {
                return Err(
                    "pip --user installs into your home folder, outside the workspace: refused. \
                     Create a virtual environment in the workspace instead (python3 -m venv .venv)"
                        .into(),
                );
            }
            // `--debug` takes its file only after `=`.
            let value = match inline {
                Some(value) => value,
                None if option == "--debug" => continue,
                None => {
                    i += 1;
                    args.get(i - 1).cloned().unwrap_or_default()
                }
            };
            check_value(tool, option, &value, root)?;
        } else if word.len() > 1 && word.starts_with('-') {
            let cluster = &word[1..];
            for (at, letter) in cluster.char_indices() {
                let Some(takes) = short_option(tool, letter) else {
                    continue;
                };
                let rest = &cluster[at + letter.len_utf8()..];
                let value = if rest.is_empty() {
                    i += 1;
                    args.get(i - 1).cloned().unwrap_or_default()
                } else {
                    rest.to_string()
                };
                if let Some(option) = takes {
                    check_value(tool, option, &value, root)?;
                }
                break;
            }
        }
    }
    Ok(())
}

/// The dangerous long option `name` stands for (optparse, which pip uses,
/// takes unambiguous prefixes).
fn dangerous_long(tool: Tool, name: &str) -> Option<&'static str> {
    let list: &[&'static str] = match tool {
        Tool::Pytest => &PYTEST_PATHS,
        Tool::Ruff => &RUFF_PATHS,
        Tool::Pip => &PIP_PATHS,
    };
    let extra: &[&'static str] = match tool {
        Tool::Pytest => &["--override-ini", "--debug", "--cov-report"],
        Tool::Pip => &["--user"],
        Tool::Ruff => &[],
    };
    let all = || list.iter().chain(extra).copied();
    if let Some(exact) = all().find(|option| *option == name) {
        return Some(exact);
    }
    // `--pre` is pip's own option, not an abbreviation of `--prefix`.
    if tool != Tool::Pip || name == "--pre" || name.len() < 4 {
        return None;
    }
    all().find(|option| option.starts_with(name))
}

/// For a short option of `tool`: `None` when it takes no value,
/// `Some(None)` when it takes a harmless one, `Some(Some(long))` when its
/// value is checked as that long option's.
fn short_option(tool: Tool, letter: char) -> Option<Option<&'static str>> {
    match (tool, letter) {
        (Tool::Pytest, 'c') => Some(Some("--config-file")),
        (Tool::Pytest, 'o') => Some(Some("--override-ini")),
        (Tool::Pytest, 'p') => Some(Some("-p")),
        (Tool::Pytest, 'k' | 'm' | 'r' | 'W' | 'n') => Some(None),
        (Tool::Ruff, 'o') => Some(Some("--output-file")),
        (Tool::Pip, 't') => Some(Some("--target")),
        (Tool::Pip, 'd') => Some(Some("--dest")),
        (Tool::Pip, 'w') => Some(Some("--wheel-dir")),
        (Tool::Pip, 'e' | 'r' | 'c' | 'i' | 'f') => Some(None),
        _ => None,
    }
}

fn check_value(tool: Tool, option: &str, value: &str, root: &Path) -> Result<(), String> {
    let refuse = |why: &str| {
        Err(format!(
            "{option} {value} {why}: refused. Use a path inside the workspace, or leave the option out"
        ))
    };
    match option {
        "-p" if value.starts_with("no:") => Ok(()),
        "-p" => Err(format!(
            "pytest -p {value} loads a plugin from outside the tests: refused. Only `-p no:NAME` \
             (turning a plugin off) is allowed"
        )),
        "--override-ini" => {
            let (key, path) = value.split_once('=').unwrap_or((value, ""));
            let key = key.trim();
            if key == "addopts" {
                return Err("pytest -o addopts=... is refused: give the options directly".into());
            }
            if PYTEST_INI_PATHS.contains(&key) && !inside(root, path) {
                return refuse("writes outside the workspace");
            }
            Ok(())
        }
        "--cov-report" => match value.split_once(':') {
            Some((_, path)) if !inside(root, path) => refuse("writes outside the workspace"),
            _ => Ok(()),
        },
        "--config" if tool == Tool::Ruff && value.contains('=') => {
            if value.contains("cache-dir") || value.contains("cache_dir") {
                return refuse("moves ruff's cache");
            }
            Ok(())
        }
        _ if inside(root, value) => Ok(()),
        _ => refuse("points outside the workspace (or into .git or .agent_context)"),
    }
}

/// Whether a path argument names a place inside the workspace, by the same
/// resolution as the file tools (symlinks included).
fn inside(root: &Path, value: &str) -> bool {
    if value.trim().is_empty() {
        return true;
    }
    match confined::resolve(root, value, false) {
        Ok(_) => true,
        // A folder on the way does not exist yet: nothing on the way can
        // lead out but a `..`, which the walk would have refused first.
        Err(PathError::MissingFolder) => super::paths::steps(root, value).is_ok_and(|steps| {
            let mut depth = 0i64;
            steps.iter().all(|step| {
                depth += if *step == super::paths::Step::Up {
                    -1
                } else {
                    1
                };
                depth >= 0
            })
        }),
        Err(_) => false,
    }
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
