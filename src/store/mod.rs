//! The store: `.agent_context/` on disk. It appends events to the log, applies
//! them to the state, writes the checkpoint, and holds the workspace lock.
//!
//! Durability: a record announcing a side effect is synced before the side
//! effect happens ([`Durability::Sync`]); other records ride on the next
//! sync. `state.json` is replaced after every action and made durable every
//! [`CHECKPOINT_SYNC_EVERY`] checkpoints and on close, always after the log,
//! so a durable checkpoint is never ahead of the durable log; a load checks
//! that anyway and rebuilds from the log when it is.
//!
//! A failed write or fsync ends the run: the store refuses every later
//! operation ([`StoreError::Halted`]) and never retries, since a retried
//! fsync can report success after the kernel dropped the data.

mod archive;
pub mod blobs;
pub mod checkpoint;
pub mod disk;
mod load;
mod lock;
pub mod log;
mod paths;
#[cfg(test)]
mod power_loss;
mod project;
mod sidecar;
#[cfg(test)]
pub mod sim;

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::memory::Memory;
use crate::state::{Event, Record, State};
pub use archive::archive_workspace;
use archive::{archive_dir, archive_files};
use checkpoint::LogMark;
pub use disk::{Disk, Failpoint, RealDisk};
use load::{Checkpoint, Mode};
pub use lock::Lock;
pub use paths::{CONTEXT_DIR, Paths};

/// Checkpoints between two durable ones: an fsync of file and folder costs
/// more than the action it follows, and a lost checkpoint is rebuilt from
/// the log anyway.
pub const CHECKPOINT_SYNC_EVERY: u32 = 8;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "cannot write {path}: {source}. The run stopped at once so that nothing is lost; \
         free some disk space or fix the disk, then run `runner resume`"
    )]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "this workspace is in use by another runner{}: wait for it to finish, or stop it; \
         `runner status` works meanwhile",
        pid.map(|p| format!(" (pid {p})")).unwrap_or_default()
    )]
    Locked { pid: Option<u32> },
    #[error(
        "{path} is damaged at line {line} ({reason}) and valid records follow it. \
         Nothing was changed. Run again with --salvage to keep the records before line {line} \
         (the rest is moved aside, not deleted)"
    )]
    Corrupt {
        path: PathBuf,
        line: u64,
        reason: String,
    },
    #[error(
        "the run stopped after an earlier write error and wrote nothing more; \
         fix the disk, then run `runner resume`"
    )]
    Halted,
    #[error("cannot encode an event: {0}")]
    Encode(#[from] serde_json::Error),
}

/// Whether a record must be on disk before the call returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// A side effect follows: sync now.
    Sync,
    /// Rides on the next sync.
    Lazy,
}

/// How a store is opened.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenOptions {
    /// Keep the valid records before a damaged one and move the rest aside.
    pub salvage: bool,
}

/// Counts of the store's disk operations, for the summary and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub appends: u64,
    pub syncs: u64,
    pub checkpoints: u64,
}

/// The log, the checkpoint and the lock of one workspace.
pub struct Store {
    paths: Paths,
    disk: Box<dyn Disk>,
    state: State,
    /// Where the last record lies.
    mark: LogMark,
    /// The log has records that were not synced.
    unsynced: bool,
    /// The folder's entries (the log's, once created) may not be durable.
    dir_unsynced: bool,
    /// A write or sync failed: nothing more is done.
    halted: bool,
    checkpoints_since_sync: u32,
    /// `memory.json` as the log has made it so far.
    memory: Memory,
    stats: Stats,
    warnings: Vec<String>,
    _lock: Option<Lock>,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Store {
    /// Opens the store of `workspace` for a run: takes the lock, removes stale
    /// temp files, cuts a torn last record, loads the state, and rewrites
    /// `state.json` when it was missing, behind or rebuilt.
    pub fn open(
        workspace: &Path,
        mut disk: Box<dyn Disk>,
        options: OpenOptions,
    ) -> Result<Store, StoreError> {
        let paths = Paths::new(workspace);
        if !paths.dir.exists() {
            fs_err::create_dir_all(&paths.dir).map_err(io_error(&paths.dir))?;
            // The folder must survive a power loss along with the log in it.
            disk.sync_dir(workspace).map_err(io_error(workspace))?;
        }
        let lock = Lock::acquire(&paths.lock())?;
        for tmp in paths.temps() {
            disk.remove(&tmp).map_err(io_error(&tmp))?;
        }
        let loaded = load::load(&paths, disk.as_mut(), Mode::Repair(options))?;
        let mut store = Store {
            paths,
            disk,
            state: loaded.state,
            mark: loaded.mark,
            // The process before may have died before syncing its last
            // records: they are durable only once this one syncs them.
            unsynced: loaded.mark.end > 0,
            // A process killed between syncing a new log and its folder
            // leaves an entry that may not be durable: sync it once.
            dir_unsynced: true,
            halted: false,
            checkpoints_since_sync: 0,
            memory: Memory::default(),
            stats: Stats::default(),
            warnings: loaded.warnings,
            _lock: Some(lock),
        };
        match loaded.checkpoint {
            Checkpoint::Current => {}
            Checkpoint::Behind | Checkpoint::Missing => store.write_checkpoint(false)?,
            // Durable at once: a stale checkpoint left on disk could match a
            // record written later at the same place.
            Checkpoint::Rejected => store.write_checkpoint(true)?,
        }
        store.memory = store.load_memory();
        store.catch_up()?;
        Ok(store)
    }

    /// Reads the state without the lock and without changing any file, as
    /// `runner status` does while a run goes on. A torn last record is
    /// ignored (it may be a write in progress). `None` when there is no run.
    pub fn read(workspace: &Path) -> Result<Option<(State, Vec<String>)>, StoreError> {
        let paths = Paths::new(workspace);
        if !paths.history().exists() && !paths.state().exists() {
            return Ok(None);
        }
        let loaded = load::load(&paths, &mut RealDisk::default(), Mode::ReadOnly)?;
        Ok(Some((loaded.state, loaded.warnings)))
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// What loading found and repaired (a torn record cut off, a checkpoint
    /// rebuilt), for the user to see.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// Appends an event with one write, syncs it when asked, then applies it.
    pub fn append(&mut self, event: Event, durability: Durability) -> Result<Record, StoreError> {
        self.check()?;
        let record = Record {
            seq: self.state.last_seq + 1,
            ts: now(),
            event,
        };
        let (line, crc) = log::encode(&record)?;
        let path = self.paths.history();
        if self.mark.end == 0 {
            // This write may create the log: its folder entry needs a sync.
            self.dir_unsynced = true;
        }
        if let Err(e) = self.disk.append(&path, &line) {
            // A short write must not stay in the log. Best effort: a load
            // cuts a torn tail anyway.
            let _ = self.disk.truncate(&path, self.mark.end);
            return Err(self.halt(&path, e));
        }
        self.stats.appends += 1;
        self.unsynced = true;
        self.mark = LogMark {
            start: self.mark.end,
            end: self.mark.end + line.len() as u64,
            crc,
        };
        if durability == Durability::Sync {
            self.sync_log()?;
        }
        let effects = project::effects(&self.state, &record);
        self.state.apply(&record);
        let log = self.state.log_started.clone();
        self.project(&record, effects, &log, sidecar::Behind::ALL)?;
        Ok(record)
    }

    /// Refuses to go on after a failed write or sync.
    fn check(&self) -> Result<(), StoreError> {
        if self.halted {
            return Err(StoreError::Halted);
        }
        Ok(())
    }

    /// Records that the disk failed; every later operation is refused.
    fn halt(&mut self, path: &Path, source: io::Error) -> StoreError {
        self.halted = true;
        StoreError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// Passes a disk result on, halting the store on an error.
    fn io<T>(&mut self, path: &Path, result: io::Result<T>) -> Result<T, StoreError> {
        result.map_err(|e| self.halt(path, e))
    }

    /// Makes every appended record durable, and the log's folder entry too.
    fn sync_log(&mut self) -> Result<(), StoreError> {
        self.sync_log_data()?;
        if self.dir_unsynced && self.mark.end > 0 {
            self.sync_dir()?;
        }
        Ok(())
    }

    fn sync_log_data(&mut self) -> Result<(), StoreError> {
        if self.unsynced {
            let path = self.paths.history();
            let result = self.disk.sync(&path);
            self.io(&path, result)?;
            self.stats.syncs += 1;
            self.unsynced = false;
        }
        Ok(())
    }

    fn sync_dir(&mut self) -> Result<(), StoreError> {
        let dir = self.paths.dir.clone();
        let result = self.disk.sync_dir(&dir);
        self.io(&dir, result)?;
        self.stats.syncs += 1;
        self.dir_unsynced = false;
        Ok(())
    }

    /// Replaces `state.json` with the current state; durable every few calls.
    pub fn checkpoint(&mut self) -> Result<(), StoreError> {
        self.checkpoints_since_sync += 1;
        let durable = self.checkpoints_since_sync >= CHECKPOINT_SYNC_EVERY;
        self.write_checkpoint(durable)
    }

    /// Syncs the log and writes a durable checkpoint: call before exiting.
    /// The memory is saved too, so the next open finds it up to date.
    pub fn close(&mut self) -> Result<(), StoreError> {
        self.write_checkpoint(true)?;
        if self.memory.seq > 0 {
            self.save_memory()?;
        }
        Ok(())
    }

    /// Temp file and rename; when `durable`: the log synced first (the
    /// checkpoint must never be durable ahead of it), then the file, the
    /// rename, and the folder, which also holds the log's entry.
    fn write_checkpoint(&mut self, durable: bool) -> Result<(), StoreError> {
        self.check()?;
        let bytes = checkpoint::encode(&self.state, self.mark)?;
        let (tmp, path) = (self.paths.state_tmp(), self.paths.state());
        if durable {
            self.sync_log_data()?;
        }
        let result = self.disk.write(&tmp, &bytes);
        self.io(&tmp, result)?;
        if durable {
            let result = self.disk.sync(&tmp);
            self.io(&tmp, result)?;
            self.stats.syncs += 1;
        }
        let result = self.disk.rename(&tmp, &path);
        self.io(&path, result)?;
        if durable {
            self.sync_dir()?;
            self.checkpoints_since_sync = 0;
        }
        self.stats.checkpoints += 1;
        Ok(())
    }

    /// Moves the files of the current run into `archive/<time>/` and starts
    /// from an empty state. Nothing is deleted. Returns the archive folder.
    pub fn archive(&mut self) -> Result<Option<PathBuf>, StoreError> {
        self.check()?;
        self.sync_log()?;
        let target = archive_dir(&self.paths);
        let moved = archive_files(&self.paths, self.disk.as_mut(), &target);
        let moved = match moved {
            Err(e) => {
                self.halted = true;
                return Err(e);
            }
            Ok(moved) => moved,
        };
        self.state = State::default();
        self.mark = LogMark::default();
        self.unsynced = false;
        self.dir_unsynced = true;
        Ok(moved.then_some(target))
    }
}

/// The current time as RFC 3339 with milliseconds, UTC.
pub fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests;
