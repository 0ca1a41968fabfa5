//! The files beside the log, for people and for the next run: `ledger.log`,
//! `loops.json`, `memory.json`. They are projections of the log (see
//! [`super::project`]): written right after each record that adds to them,
//! and brought up to date from the log when the store opens, so a crash
//! between a record and its projection loses nothing. None is synced: the
//! log is the truth. A failed write still halts the store, as every write
//! does.

use serde_json::Value;

use super::log;
use super::project::{self, Effect};
use super::{Store, StoreError};
use crate::memory::Memory;
use crate::state::{Record, State};

impl Store {
    /// Writes `effects`, what `record` adds to the files beside the log,
    /// onto the files whose projection is `behind` it; `log` is the time of
    /// the log's first record.
    pub(super) fn project(
        &mut self,
        record: &Record,
        effects: Vec<Effect>,
        log: &str,
        behind: Behind,
    ) -> Result<(), StoreError> {
        let mut memory_changed = false;
        for effect in effects {
            match effect {
                Effect::Ledger { kind, text } if behind.ledger => {
                    let line = project::ledger_line(record, kind, &text);
                    let path = self.paths.ledger();
                    let result = self.disk.append(&path, line.as_bytes());
                    self.io(&path, result)?;
                }
                Effect::Loop(entry) if behind.loops => self.add_loop(entry)?,
                Effect::Mistake { tool, error } if behind.memory => {
                    self.memory.mistake(&tool, &error);
                    memory_changed = true;
                }
                Effect::Lessons { goal, lessons } if behind.memory => {
                    self.memory.learn(&goal, &lessons);
                    memory_changed = true;
                }
                Effect::Note(text) if behind.memory => {
                    self.memory.keep_notes(&[text]);
                    memory_changed = true;
                }
                _ => {}
            }
        }
        if behind.memory {
            self.memory.seq = record.seq;
            self.memory.log = log.to_string();
            if memory_changed {
                self.save_memory()?;
            }
        }
        Ok(())
    }

    /// Adds a detection to `loops.json` (a JSON array, replaced atomically).
    fn add_loop(&mut self, entry: Value) -> Result<(), StoreError> {
        let mut entries = self.read_loops()?;
        entries.push(entry);
        let path = self.paths.loops();
        let tmp = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(&entries)?;
        let result = self.disk.write(&tmp, &bytes);
        self.io(&tmp, result)?;
        let result = self.disk.rename(&tmp, &path);
        self.io(&path, result)
    }

    fn read_loops(&mut self) -> Result<Vec<Value>, StoreError> {
        let path = self.paths.loops();
        let result = self.disk.read(&path);
        Ok(self
            .io(&path, result)?
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default())
    }

    /// `memory.json` as the last run left it; empty when there is none or
    /// it cannot be read (it is advice, never needed to resume).
    pub(super) fn load_memory(&mut self) -> Memory {
        let path = self.paths.memory();
        match self.disk.read(&path) {
            Ok(Some(bytes)) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                tracing::warn!(%e, "memory.json is unreadable; starting without lessons");
                Memory::default()
            }),
            _ => Memory::default(),
        }
    }

    /// What earlier runs here learnt, as it stands (lessons, mistakes,
    /// notes).
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Replaces `memory.json` (temp file and rename).
    pub(super) fn save_memory(&mut self) -> Result<(), StoreError> {
        let path = self.paths.memory();
        let tmp = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(&self.memory)?;
        let result = self.disk.write(&tmp, &bytes);
        self.io(&tmp, result)?;
        let result = self.disk.rename(&tmp, &path);
        self.io(&path, result)
    }

    /// Brings the files beside the log up to its last record: replays the
    /// log (from its start, since a ledger line needs the state before its
    /// record) and projects each record onto the files that are behind it.
    /// Costs one read of the ledger and loops when none is behind, as after
    /// a clean end.
    pub(super) fn catch_up(&mut self) -> Result<(), StoreError> {
        let last = self.state.last_seq;
        let log = self.state.log_started.clone();
        let path = self.paths.ledger();
        let result = self.disk.read(&path);
        let ledger = self.io(&path, result)?.unwrap_or_default();
        // A ledger of an older runner has no seqs: taken as it is.
        let ledger_seq = match project::ledger_seq(&String::from_utf8_lossy(&ledger)) {
            None if !ledger.is_empty() => last,
            seq => seq.unwrap_or(0),
        };
        let loops_seq = project::loops_seq(&self.read_loops()?);
        if self.memory.log != log || log.is_empty() {
            // Memory carried over from an archived run holds nothing of this
            // log yet; a state of an older runner does not say its log.
            self.memory.log.clone_from(&log);
            self.memory.seq = if log.is_empty() { last } else { 0 };
        }
        let memory_seq = self.memory.seq;
        if ledger_seq >= last && loops_seq >= last && memory_seq >= last {
            return Ok(());
        }
        let history = self.paths.history();
        let result = self.disk.read(&history);
        let bytes = self.io(&history, result)?.unwrap_or_default();
        let (found, _) = log::scan(&bytes);
        let mut state = State::default();
        for found in found.iter().filter(|f| f.record.seq <= last) {
            let record = &found.record;
            let behind = Behind {
                ledger: record.seq > ledger_seq,
                loops: record.seq > loops_seq,
                memory: record.seq > memory_seq,
            };
            if behind.ledger || behind.loops || behind.memory {
                let effects = project::effects(&state, record);
                self.project(record, effects, &log, behind)?;
            }
            state.apply(record);
        }
        self.save_memory()
    }
}

/// Which files beside the log a record still has to be projected onto.
#[derive(Debug, Clone, Copy)]
pub(super) struct Behind {
    pub ledger: bool,
    pub loops: bool,
    pub memory: bool,
}

impl Behind {
    pub(super) const ALL: Behind = Behind {
        ledger: true,
        loops: true,
        memory: true,
    };
}
