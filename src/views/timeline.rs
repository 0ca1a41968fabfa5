//! What the log says about the files the runner wrote: for each, its content
//! (by hash) before the runner's first write and after every change, so that
//! `rollback` knows what a file was at any record and `diff` what it was at
//! first. Pure: records in, answers out.

use std::collections::BTreeMap;

use crate::state::{Event, Record};

/// One file's contents over the log. `None` is "the file did not exist".
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileHistory {
    /// Before the runner first wrote it.
    pub first: Option<String>,
    /// After each record that changed it (a write or a rollback), in order.
    pub changes: Vec<(u64, Option<String>)>,
}

impl FileHistory {
    /// The content after record `point`.
    pub fn at(&self, point: u64) -> Option<&str> {
        match self.changes.iter().rev().find(|(seq, _)| *seq <= point) {
            Some((_, sha256)) => sha256.as_deref(),
            None => self.first.as_deref(),
        }
    }

    /// What the runner (or a rollback) left in it last.
    pub fn last(&self) -> Option<&str> {
        match self.changes.last() {
            Some((_, sha256)) => sha256.as_deref(),
            None => self.first.as_deref(),
        }
    }
}

/// The files of a run and the writes still in effect.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Timeline {
    pub files: BTreeMap<String, FileHistory>,
    /// The records of the writes that changed a file and that no rollback
    /// undid, oldest first: the undo stack of `rollback --last`.
    pub writes: Vec<u64>,
}

impl Timeline {
    pub fn new(records: &[Record]) -> Timeline {
        let mut timeline = Timeline::default();
        for record in records {
            match &record.event {
                Event::ActionFinished { outcome, .. } => {
                    let Some(write) = &outcome.write else {
                        continue;
                    };
                    let file = timeline.file(&write.path, write.before.as_deref());
                    file.changes.push((record.seq, Some(write.after.clone())));
                    if write.changed() {
                        timeline.writes.push(record.seq);
                    }
                }
                Event::RolledBack {
                    path,
                    point,
                    from,
                    to,
                } => {
                    let file = timeline.file(path, from.as_deref());
                    file.changes.push((record.seq, to.clone()));
                    timeline.writes.retain(|seq| seq <= point);
                }
                _ => {}
            }
        }
        timeline
    }

    fn file(&mut self, path: &str, first: Option<&str>) -> &mut FileHistory {
        self.files
            .entry(path.to_string())
            .or_insert_with(|| FileHistory {
                first: first.map(str::to_string),
                changes: Vec::new(),
            })
    }

    /// The record just before the `n`-th last write in effect: rolling back
    /// to it undoes the last `n` writes. 0 (before the run) when there are
    /// fewer. `n` is at least 1 (the command line sees to it).
    pub fn before_last_writes(&self, n: usize) -> u64 {
        self.writes
            .len()
            .checked_sub(n)
            .and_then(|i| self.writes.get(i))
            .map_or(0, |seq| seq.saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{ActionOutcome, FileChange};

    fn write(seq: u64, path: &str, before: Option<&str>, after: &str) -> Record {
        Record {
            seq,
            ts: String::new(),
            event: Event::ActionFinished {
                action: seq - 1,
                outcome: ActionOutcome {
                    ok: true,
                    write: Some(FileChange {
                        path: path.into(),
                        before: before.map(Into::into),
                        after: after.into(),
                        bytes: 1,
                        removed: Vec::new(),
                    }),
                    ..ActionOutcome::default()
                },
            },
        }
    }

    fn rolled_back(seq: u64, path: &str, point: u64, from: &str, to: Option<&str>) -> Record {
        Record {
            seq,
            ts: String::new(),
            event: Event::RolledBack {
                path: path.into(),
                point,
                from: Some(from.into()),
                to: to.map(Into::into),
            },
        }
    }

    #[test]
    fn a_file_is_known_at_every_record() {
        let records = [
            write(2, "a.py", None, "A1"),
            write(4, "b.py", Some("B0"), "B1"),
            write(6, "a.py", Some("A1"), "A2"),
        ];
        let timeline = Timeline::new(&records);
        let a = &timeline.files["a.py"];
        assert_eq!(
            (a.at(0), a.at(1), a.at(2), a.at(5), a.at(6), a.last()),
            (None, None, Some("A1"), Some("A1"), Some("A2"), Some("A2"))
        );
        let b = &timeline.files["b.py"];
        assert_eq!((b.at(3), b.at(4)), (Some("B0"), Some("B1")));
        assert_eq!(timeline.writes, [2, 4, 6]);
        assert_eq!(timeline.before_last_writes(1), 5);
        assert_eq!(timeline.before_last_writes(2), 3);
        assert_eq!(timeline.before_last_writes(3), 1);
        assert_eq!(timeline.before_last_writes(9), 0);
    }

    #[test]
    fn a_rollback_is_a_change_and_pops_the_undo_stack() {
        let records = [
            write(2, "a.py", None, "A1"),
            write(4, "a.py", Some("A1"), "A2"),
            write(6, "b.py", None, "B1"),
            // rollback --last 2: to record 3
            rolled_back(7, "a.py", 3, "A2", Some("A1")),
            rolled_back(8, "b.py", 3, "B1", None),
        ];
        let timeline = Timeline::new(&records);
        assert_eq!(timeline.writes, [2], "the two undone writes left the stack");
        assert_eq!(timeline.before_last_writes(1), 1, "the next undo goes on");
        let (a, b) = (&timeline.files["a.py"], &timeline.files["b.py"]);
        assert_eq!((a.last(), b.last()), (Some("A1"), None));
        // Rolling back to a record before the rollback is a redo.
        assert_eq!((a.at(6), b.at(6)), (Some("A2"), Some("B1")));
    }

    #[test]
    fn a_write_with_the_same_content_is_no_change_to_undo() {
        let records = [write(2, "a.py", Some("A"), "A")];
        let timeline = Timeline::new(&records);
        assert!(timeline.writes.is_empty());
        assert_eq!(timeline.files["a.py"].at(0), Some("A"));
    }
}
