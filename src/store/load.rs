//! Loading: the checkpoint if the log vouches for it, then the records after
//! it; the whole log when the checkpoint is missing, damaged, or does not
//! match. A torn last record is cut off; damage followed by valid records is
//! refused unless salvaging.

use std::path::Path;

use super::checkpoint::{self, LogMark};
use super::log::{self, Found};
use super::{Disk, OpenOptions, Paths, StoreError, io_error, now};
use crate::state::State;

pub enum Mode {
    /// Opening for a run: cut a torn tail, salvage if asked.
    Repair(OpenOptions),
    /// `runner status`: change nothing, ignore a torn tail.
    ReadOnly,
}

/// What became of `state.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checkpoint {
    /// It holds the state as of the log's last record.
    Current,
    /// Trusted, and records after it were replayed.
    Behind,
    Missing,
    /// Damaged, ahead of the log, or not matching it: rebuilt from the log.
    Rejected,
}

pub struct Loaded {
    pub state: State,
    /// Where the last record lies.
    pub mark: LogMark,
    pub checkpoint: Checkpoint,
    pub warnings: Vec<String>,
}

/// Where loading starts: a state, and the log's bytes from `offset` on.
struct Start {
    state: State,
    mark: LogMark,
    offset: u64,
    bytes: Vec<u8>,
    /// The first record of `bytes` is the checkpoint's own last one.
    skip: usize,
}

pub fn load(paths: &Paths, disk: &mut dyn Disk, mode: Mode) -> Result<Loaded, StoreError> {
    let mut warnings = Vec::new();
    let history = paths.history();
    let state_path = paths.state();
    let mut checkpoint = Checkpoint::Missing;
    let decoded = match disk.read(&state_path).map_err(io_error(&state_path))? {
        None => None,
        Some(bytes) => match checkpoint::decode(&bytes) {
            Ok(found) => Some(found),
            Err(why @ checkpoint::Rejection::Older(_)) => {
                checkpoint = Checkpoint::Rejected;
                warnings.push(format!(
                    "state.json: {why}; rebuilt it from history.jsonl (nothing is lost)"
                ));
                None
            }
            Err(why) => {
                checkpoint = Checkpoint::Rejected;
                warnings.push(format!(
                    "state.json cannot be trusted ({why}); rebuilt it from history.jsonl"
                ));
                None
            }
        },
    };
    let start = match decoded {
        Some((state, mark)) => match vouched(disk, &history, state, mark)? {
            Some(start) => {
                checkpoint = Checkpoint::Current;
                start
            }
            None => {
                checkpoint = Checkpoint::Rejected;
                warnings.push(
                    "state.json is ahead of or does not match history.jsonl; rebuilt it from the log"
                        .to_string(),
                );
                whole_log(disk, &history)?
            }
        },
        None => whole_log(disk, &history)?,
    };
    let Start {
        mut state,
        mut mark,
        offset,
        bytes,
        skip,
    } = start;
    let (found, bad) = log::scan(&bytes);
    let mut first_bad = None;
    for (i, item) in found.iter().enumerate().skip(skip) {
        let expected = state.last_seq + 1;
        if item.record.seq != expected {
            // A gap (a seq past the expected one) is damage in itself; an
            // older seq is a stale copy, damage only if records follow it.
            let later = found[i + 1..]
                .iter()
                .map(|f| f.record.seq)
                .chain(bad.iter().flat_map(|b| b.later.iter().copied()));
            first_bad = Some(Damage {
                reason: format!("expected seq {expected}, found {}", item.record.seq),
                followed: std::iter::once(item.record.seq)
                    .chain(later)
                    .any(|seq| seq >= expected),
            });
            break;
        }
        state.apply(&item.record);
        mark = mark_of(offset, item);
        if checkpoint == Checkpoint::Current {
            checkpoint = Checkpoint::Behind;
        }
    }
    let expected = state.last_seq + 1;
    let damage = first_bad.or(bad.map(|b| Damage {
        reason: b.error.to_string(),
        followed: b.damages(expected),
    }));
    if let Some(damage) = damage {
        repair(paths, disk, &mode, &state, mark, damage, &mut warnings)?;
    }
    Ok(Loaded {
        state,
        mark,
        checkpoint,
        warnings,
    })
}

/// The checkpoint as a start, if the log holds its last record unchanged
/// where the checkpoint says; `None` when it does not.
fn vouched(
    disk: &mut dyn Disk,
    history: &Path,
    state: State,
    mark: LogMark,
) -> Result<Option<Start>, StoreError> {
    if state.last_seq == 0 {
        if mark != LogMark::default() {
            return Ok(None);
        }
        return whole_log(disk, history).map(|start| Some(Start { state, ..start }));
    }
    let bytes = disk
        .read_from(history, mark.start)
        .map_err(io_error(history))?;
    let Some(line) = bytes.split_inclusive(|&b| b == b'\n').next() else {
        return Ok(None);
    };
    let same = line.len() as u64 == mark.end - mark.start
        && line.ends_with(b"\n")
        && log::decode(&line[..line.len() - 1])
            .is_ok_and(|(record, crc)| record.seq == state.last_seq && crc == mark.crc);
    Ok(same.then_some(Start {
        state,
        mark,
        offset: mark.start,
        bytes,
        skip: 1,
    }))
}

fn whole_log(disk: &mut dyn Disk, history: &Path) -> Result<Start, StoreError> {
    Ok(Start {
        state: State::default(),
        mark: LogMark::default(),
        offset: 0,
        bytes: disk.read_from(history, 0).map_err(io_error(history))?,
        skip: 0,
    })
}

fn mark_of(offset: u64, item: &Found) -> LogMark {
    LogMark {
        start: offset + item.start,
        end: offset + item.end,
        crc: item.crc,
    }
}

/// The first line after the last good record that cannot be applied.
struct Damage {
    reason: String,
    /// Valid records at or past its place follow it: damage in the middle
    /// of the log, not a torn tail (a crash leaves a torn line, zeros, or
    /// stale bytes of a reused block, never a record that belongs there).
    followed: bool,
}

/// Cuts a torn tail, refuses damage, or salvages it when asked.
fn repair(
    paths: &Paths,
    disk: &mut dyn Disk,
    mode: &Mode,
    state: &State,
    mark: LogMark,
    damage: Damage,
    warnings: &mut Vec<String>,
) -> Result<(), StoreError> {
    let history = paths.history();
    // Seqs start at 1 and are contiguous: record n is line n.
    let line = state.last_seq + 1;
    let corrupt = || StoreError::Corrupt {
        path: history.clone(),
        line,
        reason: damage.reason.clone(),
    };
    let salvage = match mode {
        Mode::ReadOnly if damage.followed => return Err(corrupt()),
        Mode::ReadOnly => return Ok(()),
        Mode::Repair(options) if damage.followed && !options.salvage => return Err(corrupt()),
        Mode::Repair(_) => damage.followed,
    };
    if salvage {
        let aside = paths.dir.join(format!(
            "history.jsonl.salvaged-{}",
            now().replace(':', "-")
        ));
        let rest = disk
            .read_from(&history, mark.end)
            .map_err(io_error(&history))?;
        disk.write(&aside, &rest).map_err(io_error(&aside))?;
        disk.sync(&aside).map_err(io_error(&aside))?;
        // The copy must be durable before the log loses those bytes.
        disk.sync_dir(&paths.dir).map_err(io_error(&paths.dir))?;
        warnings.push(format!(
            "history.jsonl was damaged at line {line} ({}); kept the {} records before it and \
             moved the rest to {}",
            damage.reason,
            state.last_seq,
            aside.display()
        ));
    } else {
        warnings.push(format!(
            "history.jsonl ended in a torn record at line {line} ({}), as a crash mid-write \
             leaves; cut it off",
            damage.reason
        ));
    }
    disk.truncate(&history, mark.end)
        .map_err(io_error(&history))?;
    disk.sync(&history).map_err(io_error(&history))
}
