//! The baseline of a run (the files there were when it began) and the
//! probe of it: which of them the run changed or deleted. Cheap: a stat per
//! file, a hash only when the size is the same and the time is not.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::rank;
use super::walk::{self, MAX_WALK};
use crate::digest::hex;
use crate::lang::Language;
use crate::state::{Baseline, BaselineFile, Event};

/// Files the baseline holds at most, the best ranked (as the map ranks
/// them): each is a stat every round and ~150 bytes of every checkpoint.
pub const MAX_BASELINE: usize = 2_000;
/// A file larger than this is not hashed (judged by size and time alone):
/// hashing a data file of gigabytes would hold up the start of the run.
const MAX_HASHED: u64 = 16 * 1024 * 1024;

/// The `baseline_recorded` event of the workspace at `root` as it is now.
pub fn record(root: &Path, languages: &[Box<dyn Language>], goal: &str) -> Event {
    let found = walk::walk(root, MAX_WALK);
    let ranked = rank::rank(found.files, languages, goal);
    let left_out = ranked.len().saturating_sub(MAX_BASELINE);
    let files = ranked
        .into_iter()
        .take(MAX_BASELINE)
        .map(|file| {
            let entry = file.entry;
            let sha256 = (entry.size <= MAX_HASHED)
                .then(|| sha256(&root.join(&entry.path)))
                .flatten();
            BaselineFile {
                path: entry.path,
                size: entry.size,
                modified: entry.modified,
                sha256,
            }
        })
        .collect();
    Event::BaselineRecorded {
        files,
        left_out: left_out as u64,
    }
}

/// The probe of the baseline, with what it hashed kept between rounds.
#[derive(Debug, Default)]
pub struct Watch {
    /// Path to (size, modified, sha256) of its last hash.
    hashed: HashMap<String, (u64, u64, Option<String>)>,
    /// What the run had done when the baseline was last looked at.
    looked: Option<u64>,
}

/// Files of the baseline changed and deleted, in path order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probed {
    pub changed: Vec<String>,
    pub deleted: Vec<String>,
}

impl Watch {
    /// [`Watch::probe`] when the run did something that may have changed a
    /// file since the last look (`done`: a mark of its commands and writes,
    /// see [`done_mark`]), and at the first look; `None` otherwise. A
    /// round that only read costs nothing.
    pub fn probe_after(&mut self, root: &Path, baseline: &Baseline, done: u64) -> Option<Probed> {
        if self.looked == Some(done) {
            return None;
        }
        self.looked = Some(done);
        Some(self.probe(root, baseline))
    }

    /// What became of the files of `baseline` under `root`.
    pub fn probe(&mut self, root: &Path, baseline: &Baseline) -> Probed {
        let mut probed = Probed::default();
        for file in baseline.files.values() {
            let full = root.join(&file.path);
            let Ok(meta) = std::fs::symlink_metadata(&full) else {
                probed.deleted.push(file.path.clone());
                continue;
            };
            let modified = walk::modified(&meta);
            if !meta.is_file() || meta.len() != file.size {
                probed.changed.push(file.path.clone());
                continue;
            }
            if modified == file.modified {
                continue;
            }
            let sha = match self.hashed.get(&file.path) {
                Some((size, time, sha)) if *size == meta.len() && *time == modified => sha.clone(),
                _ => {
                    let sha = (meta.len() <= MAX_HASHED).then(|| sha256(&full)).flatten();
                    self.hashed
                        .insert(file.path.clone(), (meta.len(), modified, sha.clone()));
                    sha
                }
            };
            // Same size, a new time: changed unless the bytes are the same.
            if sha.is_none() || sha != file.sha256 {
                probed.changed.push(file.path.clone());
            }
        }
        probed
    }
}

/// A mark of what a run did that may change files: the recent commands
/// it ran (a command may change any file; the same command again with
/// nothing written in between is a loop the guard blocks, so a new run
/// changes the list) and the hashes of what it wrote.
pub fn done_mark<'s>(
    commands: impl Iterator<Item = &'s str>,
    writes: impl Iterator<Item = &'s str>,
) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for command in commands {
        command.hash(&mut hasher);
    }
    0xff_u8.hash(&mut hasher);
    for sha in writes {
        sha.hash(&mut hasher);
    }
    hasher.finish()
}

/// SHA-256 of a file, read in pieces; `None` when it cannot be read.
fn sha256(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = file.read(&mut buffer).ok()?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Some(hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Record, State};

    fn baseline_of(root: &Path) -> State {
        let mut state = State::default();
        state.apply(&Record {
            seq: 1,
            ts: String::new(),
            event: record(root, &[], "goal"),
        });
        state
    }

    #[test]
    fn the_probe_reports_files_changed_and_deleted_since_the_baseline() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in ["keep.py", "grow.py", "touch.py", "edit.py", "gone.py"] {
            std::fs::write(root.join(name), "abc\n").unwrap();
        }
        let state = baseline_of(root);
        assert_eq!(state.baseline.files.len(), 5);
        let mut watch = Watch::default();
        assert_eq!(watch.probe(root, &state.baseline), Probed::default());

        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::write(root.join("grow.py"), "abcdef\n").unwrap();
        // Same bytes, a new time: not a change.
        let touched = std::fs::File::options()
            .append(true)
            .open(root.join("touch.py"))
            .unwrap();
        touched.set_modified(later).unwrap();
        // Same size, other bytes: a change, found by the hash.
        std::fs::write(root.join("edit.py"), "xyz\n").unwrap();
        std::fs::File::options()
            .append(true)
            .open(root.join("edit.py"))
            .unwrap()
            .set_modified(later)
            .unwrap();
        std::fs::remove_file(root.join("gone.py")).unwrap();
        std::fs::write(root.join("new.py"), "new").unwrap();

        let probed = watch.probe(root, &state.baseline);
        assert_eq!(
            probed,
            Probed {
                changed: vec!["edit.py".into(), "grow.py".into()],
                deleted: vec!["gone.py".into()],
            }
        );
        // Asked again, the answer holds (the hash is kept, not redone).
        assert_eq!(watch.probe(root, &state.baseline), probed);
        assert_eq!(watch.hashed.len(), 2);
        // After nothing that changes files, no look at all.
        let mark = done_mark(["pytest"].into_iter(), ["abc"].into_iter());
        assert_eq!(watch.probe_after(root, &state.baseline, mark), Some(probed));
        assert_eq!(watch.probe_after(root, &state.baseline, mark), None);
        assert!(
            watch
                .probe_after(
                    root,
                    &state.baseline,
                    done_mark(["pytest", "pytest"].into_iter(), ["abc"].into_iter())
                )
                .is_some()
        );
    }
}
