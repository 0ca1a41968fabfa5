//! The files there before the run that the active subtask or the goal
//! names, shown whole in the context block before the model writes. A
//! model never shown a file rewrites it from nothing: Qwen2.5-Coder 1.5B,
//! told to fix a bug in an existing `calc.py`, wrote a new `calc.py` and
//! lost the functions the goal did not ask to touch; refused and shown the
//! file, it gave up. Shown before the first write, the file counts as seen.

use super::{Agent, focus};
use crate::state::{Event, SeenFile, State, SubtaskKind};
use crate::store::{Durability, StoreError};
use crate::tools;

/// Files shown at most: what one subtask is about.
const SHOWN: usize = 3;
/// A larger file is not shown whole (the map names it, `read_file` and
/// `search` reach it); a part would not count as seen.
const WHOLE_MAX: usize = 6 * 1024;

/// The files of the baseline the active subtask names (its path first, then
/// the paths in its words), then those the goal names; never one the run
/// wrote (the context block shows those already) or one that is gone.
pub(super) fn named_files(state: &State) -> Vec<String> {
    let Some((_, subtask)) = state.tree.active() else {
        return Vec::new();
    };
    let baseline = &state.baseline;
    let mut named = Vec::new();
    if let SubtaskKind::Write { path } = &subtask.kind {
        named.push(path.clone());
    }
    // The project's own test that failed before the run, where the last
    // command's failure is: what the code must do, and the line the fix is
    // told of (see `focus::fix`). Not shown, t3's temp-fix was told to
    // write the test file again, which keeps its asserts.
    if let focus::Last::Failed {
        file: Some(file), ..
    } = focus::last(state)
        && let Some(path) = focus::kept_test(state, &file)
    {
        named.push(path.to_string());
    }
    for text in [subtask.description.as_str(), state.goal.as_str()] {
        for word in text.split(|c: char| !(c.is_alphanumeric() || "_./-".contains(c))) {
            let word = word.trim_end_matches('.').trim_start_matches("./");
            if word.is_empty() {
                continue;
            }
            if baseline.files.contains_key(word) {
                named.push(word.to_string());
                continue;
            }
            // A file name alone names the one file of the baseline so named.
            let mut same = baseline
                .files
                .keys()
                .filter(|path| path.rsplit('/').next() == Some(word));
            if let (Some(path), None) = (same.next(), same.next()) {
                named.push(path.clone());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    named
        .into_iter()
        .filter(|path| baseline.files.contains_key(path))
        .filter(|path| !state.files.contains_key(path) && !baseline.deleted.contains(path))
        .filter(|path| seen.insert(path.clone()))
        .take(SHOWN)
        .collect()
}

impl Agent<'_> {
    /// The named files of the baseline with their text, within `budget`
    /// bytes, each whole or not at all; those the model had not seen as they
    /// are now are recorded as shown.
    pub(super) fn show_named(
        &mut self,
        budget: usize,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let mut shown = Vec::new();
        let mut new = Vec::new();
        let mut left = budget;
        for path in named_files(self.state()) {
            // A file too large when the run began is not read every round
            // only to be left out.
            let size = self.state().baseline.files.get(&path).map_or(0, |f| f.size);
            if size > WHOLE_MAX as u64 {
                continue;
            }
            let Some(bytes) = self.tools.contents(&path) else {
                continue;
            };
            if bytes.len() > WHOLE_MAX.min(left) {
                continue;
            }
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            left -= text.len();
            let sha256 = tools::sha256_hex(text.as_bytes());
            if self.state().seen.get(&path) != Some(&sha256) {
                new.push(SeenFile {
                    path: path.clone(),
                    sha256,
                });
            }
            shown.push((path, text));
        }
        if !new.is_empty() {
            self.record(Event::FilesShown { files: new }, Durability::Lazy)?;
        }
        Ok(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{BaselineFile, Cursor, Status, Subtask, Task};

    fn state(goal: &str, subtask: &str, kind: SubtaskKind, files: &[&str]) -> State {
        let mut state = State {
            goal: goal.into(),
            ..State::default()
        };
        state.tree.tasks = vec![Task {
            description: "t".into(),
            status: Status::InProgress,
            subtasks: vec![Subtask {
                description: subtask.into(),
                status: Status::InProgress,
                reason: None,
                kind,
            }],
        }];
        state.tree.cursor = Some(Cursor {
            task: 0,
            subtask: 0,
        });
        for path in files {
            state.baseline.files.insert(
                path.to_string(),
                BaselineFile {
                    path: path.to_string(),
                    size: 1,
                    modified: 0,
                    sha256: None,
                },
            );
        }
        state
    }

    #[test]
    fn the_subtask_names_files_by_path_or_by_a_unique_name() {
        let state = state(
            "Make the tests pass",
            "Fix average in src/calc.py so that test_calc.py passes.",
            SubtaskKind::Free,
            &["src/calc.py", "tests/test_calc.py", "README.md"],
        );
        assert_eq!(
            named_files(&state),
            vec!["src/calc.py".to_string(), "tests/test_calc.py".into()]
        );
    }

    #[test]
    fn the_write_path_comes_first_then_the_goal_and_never_a_file_the_run_wrote() {
        let mut state = state(
            "Add mul to ops.py; keep util.py as it is",
            "Add a test",
            SubtaskKind::Write {
                path: "test_ops.py".into(),
            },
            &["ops.py", "util.py", "test_ops.py", "notes.txt"],
        );
        assert_eq!(
            named_files(&state),
            vec!["test_ops.py", "ops.py", "util.py"]
        );
        state.files.insert(
            "ops.py".into(),
            crate::state::FileRecord {
                sha256: "x".into(),
                created: false,
                ..Default::default()
            },
        );
        assert_eq!(named_files(&state), vec!["test_ops.py", "util.py"]);
    }

    #[test]
    fn a_name_two_files_share_names_neither() {
        let state = state(
            "Fix calc.py",
            "Fix it",
            SubtaskKind::Free,
            &["a/calc.py", "b/calc.py"],
        );
        assert!(named_files(&state).is_empty());
    }
}
