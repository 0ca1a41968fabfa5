//! `search`: a regular expression over the workspace's text files, walked
//! as ripgrep walks them (`.gitignore` respected), every file read through
//! the same confinement as `read_file`. The answer is bounded in lines and
//! bytes and says how much was left out.

use std::path::Path;

use ignore::WalkBuilder;
use regex::RegexBuilder;

use super::confined::resolve;
use super::files;
use super::paths::{self, PathError};
use crate::state::{ActionOutcome, RefusalKind};

/// Matching lines shown at most.
const MAX_LINES: usize = 100;
/// Bytes of answer at most.
const MAX_BYTES: usize = 8 * 1024;
/// A matching line is cut to this many bytes.
const LINE_MAX: usize = 200;
/// Files larger than this are not searched (data, not code).
const FILE_MAX: usize = 1024 * 1024;
/// The compiled pattern's size limit: a pathological pattern is refused.
const REGEX_SIZE: usize = 1024 * 1024;

pub fn search(root: &Path, pattern: &str, given: &str) -> ActionOutcome {
    let regex = match RegexBuilder::new(pattern).size_limit(REGEX_SIZE).build() {
        Ok(regex) => regex,
        Err(e) => {
            return ActionOutcome::refused(
                RefusalKind::BadPattern,
                format!(
                    "search: {pattern:?} is not a valid regular expression ({e}); escape special \
                     characters such as ( [ . * with a backslash, or search for a plainer word"
                ),
            );
        }
    };
    let start = match resolve(root, given, false) {
        Ok(target) => target.shown().to_string(),
        Err(PathError::Refused(message)) => {
            return ActionOutcome::refused(RefusalKind::PathRefused, message);
        }
        Err(_) => {
            return ActionOutcome::refused(
                RefusalKind::NoSuchPath,
                format!("search: {given}: no such file or folder"),
            );
        }
    };
    let walk = WalkBuilder::new(root.join(&start))
        .follow_links(false)
        .hidden(false)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| !paths::is_off_limits(entry.file_name()))
        .build();
    let mut shown = Vec::new();
    let mut bytes = 0;
    let mut left_out = 0;
    let mut files_with_matches = 0;
    for entry in walk.flatten() {
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        let relative = relative.to_string_lossy().replace('\\', "/");
        if relative
            .split('/')
            .any(|part| paths::is_off_limits(part.as_ref()))
        {
            continue;
        }
        // Read through the confinement: a symlink swapped in is not followed.
        let Some(content) = files::contents(root, &relative) else {
            continue;
        };
        if content.len() > FILE_MAX || content[..content.len().min(8192)].contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(&content);
        let mut matched = false;
        for (index, line) in text.lines().enumerate() {
            if !regex.is_match(line) {
                continue;
            }
            matched = true;
            let cut = crate::state::guard::floor_char_boundary(line, LINE_MAX);
            let more = if cut < line.len() { " …" } else { "" };
            let row = format!("{relative}:{}: {}{more}", index + 1, &line[..cut]);
            if shown.len() < MAX_LINES && bytes + row.len() < MAX_BYTES {
                bytes += row.len() + 1;
                shown.push(row);
            } else {
                left_out += 1;
            }
        }
        files_with_matches += usize::from(matched);
    }
    let place = if start.is_empty() {
        "the workspace"
    } else {
        &start
    };
    let result = if shown.is_empty() {
        format!("no line of {place} matches {pattern:?}")
    } else if left_out > 0 {
        format!(
            "{}\n[{left_out} more matching lines left out ({} lines in {files_with_matches} \
             files in all); search a narrower pattern or path]",
            shown.join("\n"),
            shown.len() + left_out
        )
    } else {
        shown.join("\n")
    };
    ActionOutcome {
        ok: true,
        result,
        ..ActionOutcome::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::create_dir_all(root.join("build")).unwrap();
        std::fs::create_dir_all(root.join(".agent_context")).unwrap();
        std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
        std::fs::write(
            root.join("pkg/calc.py"),
            "def add(a, b):\n    return a + b\n",
        )
        .unwrap();
        std::fs::write(
            root.join("main.py"),
            "from pkg.calc import add\nprint(add(1, 2))\n",
        )
        .unwrap();
        std::fs::write(root.join("build/calc.py"), "def add(): pass\n").unwrap();
        std::fs::write(root.join(".agent_context/state.json"), "def add\n").unwrap();
        (dir, root)
    }

    #[test]
    fn matches_are_path_line_text_and_ignored_or_private_files_are_not_searched() {
        let (_dir, root) = workspace();
        let found = search(&root, r"\badd\b", ".");
        assert!(found.ok, "{}", found.result);
        assert_eq!(
            found.result,
            "main.py:1: from pkg.calc import add\nmain.py:2: print(add(1, 2))\n\
             pkg/calc.py:1: def add(a, b):"
        );
        let under = search(&root, "def", "pkg");
        assert_eq!(under.result, "pkg/calc.py:1: def add(a, b):");
        assert!(search(&root, "zzz", ".").result.starts_with("no line of"));
    }

    #[test]
    fn a_bad_pattern_or_a_path_outside_is_refused() {
        let (_dir, root) = workspace();
        let bad = search(&root, "add(", ".");
        assert!(!bad.ok && bad.result.contains("not a valid regular expression"));
        assert!(!search(&root, "x", "../").ok);
        assert!(!search(&root, "x", ".agent_context").ok);
    }

    #[test]
    fn the_answer_is_bounded_and_says_what_was_left_out() {
        let (_dir, root) = workspace();
        let many: String = (0..500).map(|i| format!("hit {i}\n")).collect();
        std::fs::write(root.join("many.txt"), many).unwrap();
        let found = search(&root, "hit", "many.txt");
        assert_eq!(found.result.lines().count(), MAX_LINES + 1);
        assert!(
            found
                .result
                .contains("[400 more matching lines left out (500 lines in 1 files"),
            "{}",
            found.result
        );
    }
}
