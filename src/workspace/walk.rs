//! The bounded walk of the workspace: ripgrep's walker (`ignore`), so that
//! `.gitignore` is respected, never `.agent_context` or `.git`.

use std::path::Path;
use std::time::UNIX_EPOCH;

use ignore::WalkBuilder;

/// Entries (files and folders) the walk visits at most. A project of
/// 10,000 files is walked whole; a folder of millions (a dependency cache
/// no `.gitignore` names) stops here, in well under a second, and the map
/// says so.
pub const MAX_WALK: usize = 20_000;

/// Folders never walked: the runner's own state and git's.
/// Never walked: the runner's own folder, git's, and what toolchains
/// generate (Python's bytecode, npm's packages), which a project's
/// `.gitignore` usually leaves out and the map never needs; running the
/// project's tests before the plan makes `__pycache__`.
const SKIPPED: [&str; 4] = [".agent_context", ".git", "__pycache__", "node_modules"];

/// A file of the workspace as a stat sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the workspace, `/` between folders.
    pub path: String,
    pub size: u64,
    /// Modification time, nanoseconds since the epoch (0 when unknown).
    pub modified: u64,
}

/// The files found, in path order, and whether the walk stopped early.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walk {
    pub files: Vec<Entry>,
    /// The walk stopped after `limit` entries: there may be more files.
    pub stopped: bool,
}

/// Walks `root`, visiting at most `limit` entries. Hidden files and what
/// `.gitignore` (and `.ignore`, `.git/info/exclude`) leave out are skipped;
/// the user's global git configuration is not read, so the map is a
/// function of the folder alone.
pub fn walk(root: &Path, limit: usize) -> Walk {
    let walker = WalkBuilder::new(root)
        .require_git(false)
        .git_global(false)
        .parents(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            !(entry.depth() > 0 && SKIPPED.contains(&name.as_ref()))
        })
        .build();
    let mut found = Walk::default();
    for (visited, entry) in walker.enumerate() {
        if visited >= limit {
            found.stopped = true;
            break;
        }
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        found.files.push(Entry {
            path: relative_path(relative),
            size: meta.len(),
            modified: modified(&meta),
        });
    }
    found
}

/// The path with `/` between its parts, whatever the platform.
fn relative_path(path: &Path) -> String {
    path.components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Nanoseconds since the epoch, 0 when the platform does not say.
pub fn modified(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
        .and_then(|since| u64::try_from(since.as_nanos()).ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(walk: &Walk) -> Vec<&str> {
        walk.files.iter().map(|e| e.path.as_str()).collect()
    }

    #[test]
    fn gitignore_is_respected_and_the_runner_state_never_walked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for path in [
            "calc.py",
            "build/out.bin",
            "pkg/mod.py",
            ".agent_context/state.json",
            ".git/HEAD",
            "notes.log",
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "build/\n*.log\n").unwrap();
        let found = walk(root, MAX_WALK);
        assert_eq!(paths(&found), ["calc.py", "pkg/mod.py"]);
        assert!(!found.stopped);
        assert_eq!(found.files[0].size, 1);
    }

    #[test]
    fn the_walk_stops_after_its_limit_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..50 {
            std::fs::write(dir.path().join(format!("f{i:02}.txt")), "x").unwrap();
        }
        let found = walk(dir.path(), 10);
        assert!(found.stopped);
        // The root itself is the first entry visited.
        assert_eq!(found.files.len(), 9);
        assert!(!walk(dir.path(), 100).stopped);
    }
}
