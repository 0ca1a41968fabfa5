//! The store: `.agent_context/` on disk. It appends events to the log, applies
//! them to the state, writes the checkpoint, and holds the workspace lock.
//!
//! Durability: a record announcing a side effect is synced before the side
//! effect happens ([`Durability::Sync`]); other records ride on the next
//! sync. `state.json` is replaced after every action and made durable every
//! [`CHECKPOINT_SYNC_EVERY`] checkpoints and on close, always after the log,
//! so a durable checkpoint is never ahead of the durable log; a load checks
//! that anyway and rebuilds from the log when it is.

pub mod blobs;
pub mod checkpoint;
pub mod disk;
mod lock;
pub mod log;

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::memory::Memory;
use crate::state::{Event, Record, State};
use checkpoint::LogMark;
pub use disk::{Disk, Failpoint, RealDisk};
pub use lock::Lock;

/// The folder of the runner's own files inside a workspace.
pub const CONTEXT_DIR: &str = ".agent_context";
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

/// Paths of the files in `.agent_context/`.
#[derive(Debug, Clone)]
pub struct Paths {
    pub dir: PathBuf,
}

impl Paths {
    pub fn new(workspace: &Path) -> Paths {
        Paths {
            dir: workspace.join(CONTEXT_DIR),
        }
    }
    pub fn history(&self) -> PathBuf {
        self.dir.join("history.jsonl")
    }
    pub fn state(&self) -> PathBuf {
        self.dir.join("state.json")
    }
    pub fn state_tmp(&self) -> PathBuf {
        self.dir.join("state.json.tmp")
    }
    pub fn ledger(&self) -> PathBuf {
        self.dir.join("ledger.log")
    }
    pub fn loops(&self) -> PathBuf {
        self.dir.join("loops.json")
    }
    pub fn memory(&self) -> PathBuf {
        self.dir.join("memory.json")
    }
    pub fn lock(&self) -> PathBuf {
        self.dir.join("lock")
    }
    pub fn archive(&self) -> PathBuf {
        self.dir.join("archive")
    }
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
    checkpoints_since_sync: u32,
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
    /// temp files, cuts a torn last record, and loads the state.
    pub fn open(
        workspace: &Path,
        mut disk: Box<dyn Disk>,
        options: OpenOptions,
    ) -> Result<Store, StoreError> {
        let paths = Paths::new(workspace);
        fs_err::create_dir_all(&paths.dir).map_err(io_error(&paths.dir))?;
        let lock = Lock::acquire(&paths.lock())?;
        disk.remove(&paths.state_tmp())
            .map_err(io_error(&paths.state_tmp()))?;
        let loaded = load(&paths, disk.as_mut(), Mode::Repair(options))?;
        Ok(Store {
            paths,
            disk,
            state: loaded.state,
            mark: loaded.mark,
            unsynced: false,
            checkpoints_since_sync: 0,
            stats: Stats::default(),
            warnings: loaded.warnings,
            _lock: Some(lock),
        })
    }

    /// Reads the state without the lock and without changing any file, as
    /// `runner status` does while a run goes on. A torn last record is
    /// ignored (it may be a write in progress). `None` when there is no run.
    pub fn read(workspace: &Path) -> Result<Option<(State, Vec<String>)>, StoreError> {
        let paths = Paths::new(workspace);
        if !paths.history().exists() && !paths.state().exists() {
            return Ok(None);
        }
        let loaded = load(&paths, &mut RealDisk::default(), Mode::ReadOnly)?;
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
        let record = Record {
            seq: self.state.last_seq + 1,
            ts: now(),
            event,
        };
        let (line, crc) = log::encode(&record)?;
        let path = self.paths.history();
        self.disk.append(&path, &line).map_err(io_error(&path))?;
        self.stats.appends += 1;
        self.unsynced = true;
        if durability == Durability::Sync {
            self.sync_log()?;
        }
        self.mark = LogMark {
            start: self.mark.end,
            end: self.mark.end + line.len() as u64,
            crc,
        };
        self.state.apply(&record);
        Ok(record)
    }

    fn sync_log(&mut self) -> Result<(), StoreError> {
        if self.unsynced {
            let path = self.paths.history();
            self.disk.sync(&path).map_err(io_error(&path))?;
            self.stats.syncs += 1;
            self.unsynced = false;
        }
        Ok(())
    }

    /// Replaces `state.json` with the current state; durable every few calls.
    pub fn checkpoint(&mut self) -> Result<(), StoreError> {
        self.checkpoints_since_sync += 1;
        let durable = self.checkpoints_since_sync >= CHECKPOINT_SYNC_EVERY;
        self.write_checkpoint(durable)
    }

    /// Syncs the log and writes a durable checkpoint: call before exiting.
    pub fn close(&mut self) -> Result<(), StoreError> {
        self.sync_log()?;
        self.write_checkpoint(true)
    }

    fn write_checkpoint(&mut self, durable: bool) -> Result<(), StoreError> {
        let bytes = checkpoint::encode(&self.state, self.mark)?;
        let (tmp, path) = (self.paths.state_tmp(), self.paths.state());
        if durable {
            // The checkpoint must never be durable ahead of the log.
            self.sync_log()?;
        }
        self.disk.write(&tmp, &bytes).map_err(io_error(&tmp))?;
        if durable {
            self.disk.sync(&tmp).map_err(io_error(&tmp))?;
            self.stats.syncs += 1;
        }
        self.disk.rename(&tmp, &path).map_err(io_error(&path))?;
        if durable {
            self.disk
                .sync_dir(&self.paths.dir)
                .map_err(io_error(&self.paths.dir))?;
            self.stats.syncs += 1;
            self.checkpoints_since_sync = 0;
        }
        self.stats.checkpoints += 1;
        Ok(())
    }

    /// Appends a line to `ledger.log`, the short human trace (not synced: it
    /// is a view, the log is the truth).
    pub fn ledger(&mut self, kind: &str, text: &str) -> Result<(), StoreError> {
        let line = format!("{} {kind:<7} {}\n", now(), text.replace('\n', " "));
        let path = self.paths.ledger();
        self.disk
            .append(&path, line.as_bytes())
            .map_err(io_error(&path))
    }

    /// Adds a detection to `loops.json` (a JSON array, replaced atomically).
    pub fn record_loop(&mut self, entry: serde_json::Value) -> Result<(), StoreError> {
        let path = self.paths.loops();
        let mut entries: Vec<serde_json::Value> = self
            .disk
            .read(&path)
            .map_err(io_error(&path))?
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        entries.push(entry);
        let tmp = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(&entries)?;
        self.disk.write(&tmp, &bytes).map_err(io_error(&tmp))?;
        self.disk.rename(&tmp, &path).map_err(io_error(&path))
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
        self.disk.write(&tmp, &bytes).map_err(io_error(&tmp))?;
        self.disk.rename(&tmp, &path).map_err(io_error(&path))
    }

    /// Moves the files of the current run into `archive/<time>/` and starts
    /// from an empty state. Nothing is deleted. Returns the archive folder.
    pub fn archive(&mut self) -> Result<Option<PathBuf>, StoreError> {
        self.sync_log()?;
        let target = archive_dir(&self.paths);
        let moved = archive_files(&self.paths, self.disk.as_mut(), &target)?;
        self.state = State::default();
        self.mark = LogMark::default();
        self.unsynced = false;
        Ok(moved.then_some(target))
    }
}

/// A fresh folder name under `archive/`: the time, made unique.
fn archive_dir(paths: &Paths) -> PathBuf {
    let stamp = now().replace(':', "-");
    let mut target = paths.archive().join(&stamp);
    let mut n = 1;
    while target.exists() {
        n += 1;
        target = paths.archive().join(format!("{stamp}-{n}"));
    }
    target
}

/// Moves everything in `.agent_context/` but the archive and the lock;
/// `memory.json` is copied, since the lessons carry over to the next goal.
fn archive_files(paths: &Paths, disk: &mut dyn Disk, target: &Path) -> Result<bool, StoreError> {
    let entries = match fs_err::read_dir(&paths.dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_error(&paths.dir)(e)),
    };
    let mut moved = false;
    for entry in entries {
        let entry = entry.map_err(io_error(&paths.dir))?;
        let name = entry.file_name();
        if name == "archive" || name == "lock" {
            continue;
        }
        fs_err::create_dir_all(target).map_err(io_error(target))?;
        if name == "memory.json" {
            let to = target.join(&name);
            fs_err::copy(entry.path(), &to).map_err(io_error(&to))?;
            continue;
        }
        let to = target.join(&name);
        disk.rename(&entry.path(), &to).map_err(io_error(&to))?;
        moved = true;
    }
    if moved {
        disk.sync_dir(&paths.dir).map_err(io_error(&paths.dir))?;
    }
    Ok(moved)
}

/// Archives a workspace's context without opening its store (for `reset`).
pub fn archive_workspace(workspace: &Path) -> Result<Option<PathBuf>, StoreError> {
    let paths = Paths::new(workspace);
    if !paths.dir.exists() {
        return Ok(None);
    }
    let _lock = Lock::acquire(&paths.lock())?;
    let target = archive_dir(&paths);
    Ok(archive_files(&paths, &mut RealDisk::default(), &target)?.then_some(target))
}

/// The current time as RFC 3339 with milliseconds, UTC.
pub fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

enum Mode {
    Repair(OpenOptions),
    ReadOnly,
}

struct Loaded {
    state: State,
    mark: LogMark,
    warnings: Vec<String>,
}

/// Checkpoint + replay of the records after it; the whole log when the
/// checkpoint is missing, damaged, or does not match the log.
fn load(paths: &Paths, disk: &mut dyn Disk, mode: Mode) -> Result<Loaded, StoreError> {
    let mut warnings = Vec::new();
    let history = paths.history();
    let checkpoint = match disk
        .read(&paths.state())
        .map_err(io_error(&paths.state()))?
    {
        None => None,
        Some(bytes) => match checkpoint::decode(&bytes) {
            Ok(found) => Some(found),
            Err(why) => {
                warnings.push(format!(
                    "state.json cannot be trusted ({why}); rebuilt it from history.jsonl"
                ));
                None
            }
        },
    };
    // Trust the checkpoint only if the log holds its last record, unchanged.
    let start = checkpoint.as_ref().and_then(|(state, mark)| {
        if state.last_seq == 0 {
            return Some((state.clone(), *mark));
        }
        let bytes = disk.read_from(&history, mark.start).ok()?;
        let (found, _) = log::scan(&bytes);
        let first = found.first()?;
        (first.record.seq == state.last_seq
            && first.crc == mark.crc
            && mark.start + first.end == mark.end)
            .then(|| (state.clone(), *mark))
    });
    if checkpoint.is_some() && start.is_none() {
        warnings.push(
            "state.json is ahead of or does not match history.jsonl; rebuilt it from the log"
                .to_string(),
        );
    }
    let (mut state, mut mark) = start.unwrap_or_default();
    let tail = disk
        .read_from(&history, mark.end)
        .map_err(io_error(&history))?;
    let (found, bad) = log::scan(&tail);
    for item in &found {
        if item.record.seq != state.last_seq + 1 {
            let line = state.last_seq + 1;
            return Err(StoreError::Corrupt {
                path: history,
                line,
                reason: format!("expected seq {line}, found {}", item.record.seq),
            });
        }
        state.apply(&item.record);
        mark = LogMark {
            start: mark.end + item.start,
            end: mark.end + item.end,
            crc: item.crc,
        };
    }
    if let Some(bad) = bad {
        let line = state.last_seq + 1;
        let cut_at = mark.end;
        match mode {
            Mode::ReadOnly => {
                if bad.followed {
                    return Err(StoreError::Corrupt {
                        path: history,
                        line,
                        reason: bad.error.to_string(),
                    });
                }
            }
            Mode::Repair(options) => {
                if bad.followed && !options.salvage {
                    return Err(StoreError::Corrupt {
                        path: history,
                        line,
                        reason: bad.error.to_string(),
                    });
                }
                if bad.followed {
                    let aside = paths.dir.join(format!(
                        "history.jsonl.salvaged-{}",
                        now().replace(':', "-")
                    ));
                    let rest = disk
                        .read_from(&history, cut_at)
                        .map_err(io_error(&history))?;
                    disk.write(&aside, &rest).map_err(io_error(&aside))?;
                    disk.sync(&aside).map_err(io_error(&aside))?;
                    warnings.push(format!(
                        "history.jsonl was damaged at line {line} ({}); kept the {} records before it and moved the rest to {}",
                        bad.error,
                        state.last_seq,
                        aside.display()
                    ));
                } else {
                    warnings.push(format!(
                        "history.jsonl ended in a torn record at line {line} ({}), as a crash mid-write leaves; cut it off",
                        bad.error
                    ));
                }
                disk.truncate(&history, cut_at)
                    .map_err(io_error(&history))?;
            }
        }
    }
    Ok(Loaded {
        state,
        mark,
        warnings,
    })
}

#[cfg(test)]
mod tests;
