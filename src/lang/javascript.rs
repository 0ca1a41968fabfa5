//! JavaScript, known through node: `js/facts.js` (embedded) compiles each
//! file with node's `vm`, as node would load it, and lists its top-level
//! declarations; `node --test` checks a workspace. Without `node`,
//! JavaScript knows nothing and accepts.

use std::path::Path;

use serde::Deserialize;

use super::{Definition, Language, Problem, Refusal, Review, Workspace, toolchain};

/// The script, run as `node -e`: one start for all the files asked about.
const SCRIPT: &str = include_str!("js/facts.js");

pub struct JavaScript;

#[derive(Debug, Default, Deserialize)]
struct Facts {
    error: Option<SyntaxError>,
    defs: Vec<Definition>,
}

#[derive(Debug, Deserialize)]
struct SyntaxError {
    /// 0 when node does not say.
    line: u32,
    message: String,
}

/// Asks node about `files` (path and text); `None` when node is missing
/// or fails.
fn ask(files: &[(&str, &str)]) -> Option<Vec<Facts>> {
    let files: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, text)| serde_json::json!({ "path": path, "text": text }))
        .collect();
    let request = serde_json::json!({ "files": files }).to_string();
    let args = ["--experimental-vm-modules", "--no-warnings", "-e", SCRIPT];
    let output = toolchain::run("node", &args, None, &request)?;
    if !output.success {
        tracing::warn!(stderr = %output.stderr, "node could not read the files; judging nothing");
        return None;
    }
    serde_json::from_str(&output.stdout)
        .map_err(|error| tracing::warn!(%error, "node's facts did not read"))
        .ok()
}

impl Language for JavaScript {
    fn name(&self) -> &'static str {
        "javascript"
    }

    fn owns(&self, path: &str) -> bool {
        [".js", ".mjs", ".cjs"]
            .iter()
            .any(|ext| path.ends_with(ext))
    }

    fn no_value(&self, shown: &str) -> bool {
        shown.trim() == "undefined"
    }

    fn arguments_at(&self) -> Option<&'static str> {
        Some("process.argv")
    }

    fn first_argument(&self) -> Option<&'static str> {
        Some("`process.argv[2]`")
    }

    /// Its strings in `'`, `"` or backquotes, cut at a template's
    /// `${...}` (its `$` too: `Hello, ${name}!` prints `Hello, ` and `!`).
    fn literal_pieces(&self, line: &str) -> Vec<String> {
        let mut pieces = super::quoted_pieces(line, &['"', '\'']);
        pieces.extend(
            super::quoted_pieces(line, &['`'])
                .into_iter()
                .map(|piece| match piece.strip_suffix('$') {
                    Some(before) => before.to_string(),
                    None => piece,
                })
                .filter(|piece| !piece.is_empty()),
        );
        pieces
    }

    fn reading_option(&self, option: &str) -> Option<String> {
        Some(format!(
            "`process.argv.slice(2).includes('{option}')` is true when {option} is given, and \
             `process.argv.slice(2).filter((arg) => !arg.startsWith('-'))` are the other \
             arguments"
        ))
    }

    fn reads_input(&self, text: &str) -> bool {
        const READERS: [&str; 7] = [
            "argv",
            "parseArgs",
            "yargs",
            "commander",
            "minimist",
            "stdin",
            "readline",
        ];
        READERS.iter().any(|reader| text.contains(reader))
    }

    fn reads_stdin(&self, text: &str) -> bool {
        ["stdin", "readline", "readFileSync(0"]
            .iter()
            .any(|reader| text.contains(reader))
    }

    fn defines(&self, text: &str, name: &str) -> bool {
        text.lines().any(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("export ").unwrap_or(line);
            let line = line.strip_prefix("default ").unwrap_or(line);
            let line = line.strip_prefix("async ").unwrap_or(line);
            [
                "function ",
                "function* ",
                "class ",
                "const ",
                "let ",
                "var ",
            ]
            .iter()
            .filter_map(|keyword| line.strip_prefix(keyword))
            .any(|rest| {
                rest.strip_prefix(name).is_some_and(|after| {
                    !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
        })
    }

    fn asserts(&self, line: &str) -> bool {
        let line = line.trim_start();
        line.starts_with("assert") || line.contains("expect(")
    }

    /// node:test's `test(name, fn)`, named by what it tests.
    fn test_head(&self, name: &str) -> Option<String> {
        (!name.is_empty()).then(|| format!("test('{name}', () => {{"))
    }

    fn test_path(&self, module: &str) -> Option<String> {
        if !self.owns(module) || self.is_test(module) {
            return None;
        }
        let (stem, extension) = module.rsplit_once('.')?;
        Some(format!("{stem}.test.{extension}"))
    }

    fn subjects(&self, test: &str) -> Vec<String> {
        if !self.is_test(test) {
            return Vec::new();
        }
        let (dir, name) = test.rsplit_once('/').unwrap_or(("", test));
        let Some((stem, extension)) = name.rsplit_once('.') else {
            return Vec::new();
        };
        let stem = [".test", "-test", "_test"]
            .iter()
            .find_map(|s| stem.strip_suffix(s))
            .or_else(|| stem.strip_prefix("test-"))
            .unwrap_or(stem);
        let module = format!("{stem}.{extension}");
        super::places_of_module(dir, &module)
    }

    /// What `node --test` runs by default: `*.test.js`, `*-test.js`,
    /// `*_test.js`, `test-*.js`, and any file under a `test` folder.
    fn is_test(&self, path: &str) -> bool {
        if !self.owns(path) {
            return false;
        }
        let name = path.rsplit('/').next().unwrap_or(path);
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        path.split('/').rev().skip(1).any(|dir| dir == "test")
            || stem == "test"
            || stem.starts_with("test-")
            || [".test", "-test", "_test"]
                .iter()
                .any(|s| stem.ends_with(s))
    }

    fn check_command(&self, _root: &Path, files: &[String]) -> Option<String> {
        files
            .iter()
            .any(|f| self.is_test(f))
            .then(|| "node --test".to_string())
    }

    fn definitions(&self, files: &[(String, String)]) -> Vec<Vec<Definition>> {
        self.parsed_definitions(files)
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect()
    }

    fn parsed_definitions(&self, files: &[(String, String)]) -> Vec<Option<Vec<Definition>>> {
        let batch: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut all: Vec<Option<Vec<Definition>>> = ask(&batch)
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.error.is_none().then_some(f.defs))
            .collect();
        all.resize(files.len(), None);
        all
    }

    /// A file node cannot compile is refused with node's own words.
    fn review(&self, path: &str, content: &str, _workspace: &dyn Workspace) -> Review {
        if !self.owns(path) {
            return Review::Accept;
        }
        let Some(error) = ask(&[(path, content)])
            .and_then(|facts| facts.into_iter().next())
            .and_then(|facts| facts.error)
        else {
            return Review::Accept;
        };
        let place = match error.line {
            0 => String::new(),
            n => format!(
                " at line {n} (`{}`)",
                content.lines().nth(n as usize - 1).unwrap_or("").trim()
            ),
        };
        Review::Refuse(Refusal {
            reason: format!(
                "node cannot read {path}{place}: SyntaxError: {}. Give the whole file with that \
                 fixed.",
                error.message
            ),
            instead: None,
        })
    }

    fn run_command(&self, path: &str) -> String {
        format!("node {path}")
    }

    fn runs_tests(&self, command: &str) -> bool {
        command.split_whitespace().any(|word| word == "--test") || command.starts_with("npm test")
    }

    fn test_file_hint(&self, program: &str) -> String {
        format!(
            ". It requires ./{program} (`const {{ ... }} = require('./{program}')`) and has 3 to \
             5 short tests (`test('...', () => ...)` from node:test), each calling it and \
             asserting what it returns with node:assert"
        )
    }

    /// `node --test`'s failures: the `not ok` test, the error under it and
    /// the `location: 'file:line:col'` it gives.
    fn failures(&self, output: &str) -> Vec<Problem> {
        let mut problems = Vec::new();
        let lines: Vec<&str> = output.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            let Some(name) = line.trim().strip_prefix("not ok ") else {
                continue;
            };
            let block: Vec<&str> = lines[at + 1..]
                .iter()
                .map(|l| l.trim())
                .take_while(|l| !l.starts_with("ok ") && !l.starts_with("not ok "))
                .collect();
            let mut message = name.trim().to_string();
            let mut place = None;
            for (i, l) in block.iter().enumerate() {
                if let Some(error) = l.strip_prefix("error: ") {
                    let error = error.trim_matches(['\'', '"', '|', '-', ' ']);
                    // A block scalar (`error: |-`): the text is on the next lines.
                    let text = match error.is_empty() {
                        true => block[i + 1..].iter().find(|l| !l.is_empty()).copied(),
                        false => Some(error),
                    };
                    message = text.unwrap_or(&message).to_string();
                }
                if let Some(location) = l.strip_prefix("location: ") {
                    place = location_of(location.trim_matches('\''));
                }
            }
            let (path, line) = place.unwrap_or_default();
            problems.push(Problem {
                path,
                line,
                message,
                caller: None,
            });
        }
        problems
    }
}

/// `/w/a.test.js:3:5` as the file's name and its line.
fn location_of(location: &str) -> Option<(String, Option<u32>)> {
    let mut parts = location.rsplitn(3, ':');
    let _column = parts.next()?;
    let line = parts.next()?.parse().ok();
    let path = parts.next()?;
    Some((path.rsplit('/').next().unwrap_or(path).to_string(), line))
}

#[cfg(test)]
mod tests;
