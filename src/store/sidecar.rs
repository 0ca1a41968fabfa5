//! The files beside the log, for people and for the next run: `ledger.log`,
//! `loops.json`, `memory.json`. Each is a view or advice that the log could
//! rebuild or do without, so none is synced; a failed write still halts the
//! store, as every write does.

use super::{Store, StoreError, now};
use crate::memory::Memory;

impl Store {
    /// Appends a line to `ledger.log`, the short human trace (not synced: it
    /// is a view, the log is the truth).
    pub fn ledger(&mut self, kind: &str, text: &str) -> Result<(), StoreError> {
        self.check()?;
        let line = format!("{} {kind:<7} {}\n", now(), text.replace('\n', " "));
        let path = self.paths.ledger();
        let result = self.disk.append(&path, line.as_bytes());
        self.io(&path, result)
    }

    /// Adds a detection to `loops.json` (a JSON array, replaced atomically).
    pub fn record_loop(&mut self, entry: serde_json::Value) -> Result<(), StoreError> {
        self.check()?;
        let path = self.paths.loops();
        let result = self.disk.read(&path);
        let mut entries: Vec<serde_json::Value> = self
            .io(&path, result)?
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        entries.push(entry);
        let tmp = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(&entries)?;
        let result = self.disk.write(&tmp, &bytes);
        self.io(&tmp, result)?;
        let result = self.disk.rename(&tmp, &path);
        self.io(&path, result)
    }

    /// Lessons of earlier runs; empty when there are none or the file cannot
    /// be read (it is advice, never needed to resume).
    pub fn load_memory(&mut self) -> Memory {
        let path = self.paths.memory();
        match self.disk.read(&path) {
            Ok(Some(bytes)) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                tracing::warn!(%e, "memory.json is unreadable; starting without lessons");
                Memory::default()
            }),
            _ => Memory::default(),
        }
    }

    /// Replaces `memory.json` (temp file and rename; not synced: it is
    /// advice, and the log holds the reflections and failures anyway).
    pub fn save_memory(&mut self, memory: &Memory) -> Result<(), StoreError> {
        let path = self.paths.memory();
        let tmp = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(memory)?;
        let result = self.disk.write(&tmp, &bytes);
        self.io(&tmp, result)?;
        let result = self.disk.rename(&tmp, &path);
        self.io(&path, result)
    }
}
