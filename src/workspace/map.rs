//! The map of the workspace the planner and the round are shown: paths and
//! sizes, top-level definitions, which files are tests and how the project
//! runs them, bounded whatever the size of the folder.

use std::collections::BTreeMap;
use std::path::Path;

use super::rank::{self, Ranked};
use super::walk::{self, MAX_WALK};
use crate::lang::{Definition, Language};

/// Bytes of the map at most: ~1,500 tokens, counting ~4 bytes a token (the
/// rule of thumb for English and code with the tokenizers of Llama, Qwen
/// and GPT). A small model's context is 8-32K tokens; the map is a fifth of
/// the smallest at most.
pub const MAP_BUDGET: usize = 6_000;
/// One file's line at most: a module of fifty functions is named, not
/// listed whole.
const LINE_MAX: usize = 240;

/// How the map's line on the project's tests begins (the assessment knows
/// it: a small model copies it for evidence).
pub const TESTS_RUN_WITH: &str = "The project's tests run with:";
/// Source files whose definitions are asked of their language: the best
/// ranked ones; more would not fit the budget anyway.
const DEFINED_FILES: usize = 40;
/// A source file larger than this is named without its definitions (a
/// generated or vendored file; parsing it costs more than it tells).
const DEFINED_SIZE: u64 = 256 * 1024;

/// The map, rendered, and the paths it knows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Map {
    text: String,
    /// Every file the walk found, named in the map or not.
    paths: Vec<String>,
    /// Files left out of the text for the budget.
    left_out: usize,
}

impl Map {
    /// Walks `root` and renders its map, ranking the files `goal` names
    /// first; `languages` give definitions, test-ness and the check.
    pub fn build(root: &Path, languages: &[Box<dyn Language>], goal: &str) -> Map {
        let found = walk::walk(root, MAX_WALK);
        let paths: Vec<String> = found.files.iter().map(|e| e.path.clone()).collect();
        if paths.is_empty() {
            return Map::default();
        }
        let ranked = rank::rank(found.files, languages, goal);
        let definitions = definitions(root, languages, &ranked);
        let checks: Vec<String> = languages
            .iter()
            .filter_map(|l| l.check_command(root, &paths))
            .collect();
        let mut tail = Vec::new();
        if !checks.is_empty() {
            tail.push(format!(
                "{TESTS_RUN_WITH} {}",
                checks
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        // A language with source files and no tests: where they would go.
        for language in languages {
            let tested = paths.iter().any(|p| language.is_test(p));
            let first = ranked.iter().map(|f| &f.entry.path).find_map(|path| {
                let test = language.test_path(path)?;
                Some((path, test))
            });
            if let (false, Some((module, test))) = (tested, first) {
                tail.push(format!(
                    "No tests yet: tests go in a file of their own, named so the test runner \
                     finds them: {test} for {module}"
                ));
            }
        }
        let head = format!(
            "WORKSPACE ({} files already in the folder; path, size, [test], top-level definitions):",
            paths.len()
        );
        let mut used = head.len() + tail.iter().map(|l| l.len() + 1).sum::<usize>();
        // Room for the lines saying what was left out.
        used += 120;
        let mut lines = vec![head];
        let mut shown = 0;
        for file in &ranked {
            let line = line(file, definitions.get(&file.entry.path));
            if used + line.len() + 1 > MAP_BUDGET {
                break;
            }
            used += line.len() + 1;
            lines.push(line);
            shown += 1;
        }
        let left_out = ranked.len() - shown;
        if left_out > 0 {
            lines.push(format!("({left_out} more files not shown)"));
        }
        if found.stopped {
            lines.push(format!(
                "(the walk stopped after {MAX_WALK} entries: there may be more files)"
            ));
        }
        lines.extend(tail);
        Map {
            text: lines.join("\n"),
            paths,
            left_out,
        }
    }

    /// The map as the model reads it; empty for an empty folder.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Files the walk found that the text does not name.
    pub fn left_out(&self) -> usize {
        self.left_out
    }

    /// Whether `text` (a subtask) names a file of the map.
    pub fn names_a_file(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        self.paths
            .iter()
            .any(|path| rank::names(&text, &words, path))
    }
}

/// One file's line: `calc.py (120 B): def add(a, b), def average(xs)`.
fn line(file: &Ranked, definitions: Option<&Vec<Definition>>) -> String {
    let mut line = format!("{} ({})", file.entry.path, size(file.entry.size));
    if file.test {
        line.push_str(" [test]");
    }
    if let Some(definitions) = definitions.filter(|d| !d.is_empty()) {
        let listed: Vec<String> = definitions
            .iter()
            .map(|d| format!("{} {}", d.kind, d.signature))
            .collect();
        line.push_str(": ");
        line.push_str(&listed.join(", "));
    }
    if line.len() > LINE_MAX {
        let mut cut = LINE_MAX - 4;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push_str(" ...");
    }
    line
}

fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// The definitions of the best ranked source files, one toolchain run per
/// language.
fn definitions(
    root: &Path,
    languages: &[Box<dyn Language>],
    ranked: &[Ranked],
) -> BTreeMap<String, Vec<Definition>> {
    let mut by_language: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
    let chosen = ranked
        .iter()
        .filter(|file| file.entry.size <= DEFINED_SIZE)
        .filter_map(|file| Some((file.language?, &file.entry.path)))
        .take(DEFINED_FILES);
    for (language, path) in chosen {
        if let Ok(text) = std::fs::read_to_string(root.join(path)) {
            by_language
                .entry(language)
                .or_default()
                .push((path.clone(), text));
        }
    }
    let mut found = BTreeMap::new();
    for (index, files) in by_language {
        let Some(language) = languages.get(index) else {
            continue;
        };
        let definitions = language.definitions(&files);
        for ((path, _), defined) in files.into_iter().zip(definitions) {
            found.insert(path, defined);
        }
    }
    found
}
