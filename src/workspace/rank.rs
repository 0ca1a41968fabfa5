//! Which files of a large workspace are worth naming first: the files the
//! goal names, the tests, the source files, then the small top-level ones.

use super::walk::Entry;
use crate::lang::Language;

/// What the ranking knows of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked {
    pub entry: Entry,
    /// The goal (or subtask) names it: its path, its file name, or its stem
    /// as a word.
    pub named: bool,
    pub test: bool,
    /// Index of the language that owns it.
    pub language: Option<usize>,
}

/// The files, best first. Ties go to the shallower, then the smaller, then
/// the path, so the order is a function of the folder and the goal.
pub fn rank(files: Vec<Entry>, languages: &[Box<dyn Language>], goal: &str) -> Vec<Ranked> {
    let goal = goal.to_lowercase();
    let words: Vec<&str> = goal
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut ranked: Vec<Ranked> = files
        .into_iter()
        .map(|entry| {
            let language = languages.iter().position(|l| l.owns(&entry.path));
            Ranked {
                named: names(&goal, &words, &entry.path),
                test: languages.iter().any(|l| l.is_test(&entry.path)),
                language,
                entry,
            }
        })
        .collect();
    ranked.sort_by(|a, b| {
        (
            !a.named,
            !a.test,
            a.language.is_none(),
            depth(&a.entry.path),
            a.entry.size,
        )
            .cmp(&(
                !b.named,
                !b.test,
                b.language.is_none(),
                depth(&b.entry.path),
                b.entry.size,
            ))
            .then_with(|| a.entry.path.cmp(&b.entry.path))
    });
    ranked
}

/// Whether `text` (lower case, and its `words`) names the file at `path`.
pub fn names(text: &str, words: &[&str], path: &str) -> bool {
    let path = path.to_lowercase();
    let file = path.rsplit('/').next().unwrap_or(&path);
    let stem = file.split('.').next().unwrap_or(file);
    // A stem of one or two letters (`a.py`) is named by accident too often.
    text.contains(&path) || text.contains(file) || (stem.len() > 2 && words.contains(&stem))
}

/// The `paths` that `goal` names (see [`names`]), in their order.
pub fn named_by<'a>(goal: &str, paths: impl IntoIterator<Item = &'a String>) -> Vec<&'a String> {
    let goal = goal.to_lowercase();
    let words: Vec<&str> = goal
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    paths
        .into_iter()
        .filter(|path| names(&goal, &words, path))
        .collect()
}

fn depth(path: &str) -> usize {
    path.matches('/').count()
}
