//! `runner rollback`: puts the files the runner wrote back as they were at a
//! record of the log, byte for byte from the blobs. A file the runner
//! created after that record is removed; no other file is touched; a file
//! someone else changed since the runner last wrote it is left alone and
//! reported. Every file put back is a `rolled_back` event, and what it
//! replaced is kept as a blob, so a rollback can be rolled back too.

use std::path::Path;

use super::timeline::{FileHistory, Timeline};
use super::{Paint, read_records};
use crate::error::{AppError, Exit};
use crate::state::{ActionOutcome, Event, FileChange};
use crate::store::blobs::{self, sha256_hex};
use crate::store::{Durability, OpenOptions, Paths, RealDisk, Store, StoreError};
use crate::tools::workspace as files;

/// Where to roll back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Just after this record (0: before the run).
    To(u64),
    /// Just before the last `n` writes still in effect.
    Last(usize),
}

/// What to do with one file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Restore {
        to: String,
    },
    Remove,
    /// Someone else changed it since the runner last wrote it.
    Changed,
    /// Its content at the point was not kept.
    NotKept,
    /// Cannot be done: the log names a path outside the workspace (edited by
    /// hand), or the file cannot be written.
    Refused(String),
}

struct Planned {
    path: String,
    /// Its hash now, `None` when it does not exist.
    now: Option<String>,
    step: Step,
}

pub fn rollback(workspace: &Path, point: Point, dry_run: bool) -> Result<Exit, AppError> {
    let paths = Paths::new(workspace);
    if !paths.history().exists() {
        crate::outln!("No run in {}: nothing to roll back.", workspace.display());
        return Ok(Exit::Achieved);
    }
    // The lock: a running runner must not see its files change under it.
    let mut store = Store::open(
        workspace,
        Box::new(RealDisk::default()),
        OpenOptions::default(),
    )?;
    for warning in store.take_warnings() {
        crate::paint::warning(&warning);
    }
    if !dry_run {
        settle(&mut store, workspace)?;
    }
    let (records, _) = read_records(&paths.history())?;
    let timeline = Timeline::new(&records);
    let last_seq = store.state().last_seq;
    let point = match point {
        Point::To(seq) if seq > last_seq => {
            return Err(AppError::Usage(format!(
                "the log ends at record {last_seq}: give --to between 0 and {last_seq} \
                 (`runner history` shows the records)"
            )));
        }
        Point::To(seq) => seq,
        Point::Last(0) => return Err(AppError::Usage("--last takes 1 or more".into())),
        Point::Last(n) if n > timeline.writes.len() => {
            let made = timeline.writes.len();
            return Err(AppError::Usage(format!(
                "the run made {made} write{}, fewer than --last {n} asks to undo; nothing was \
                 changed. Give --last {made} (or --to 0) to undo every write of the run",
                if made == 1 { "" } else { "s" }
            )));
        }
        Point::Last(n) => timeline.before_last_writes(n),
    };
    let planned: Vec<Planned> = timeline
        .files
        .iter()
        .filter_map(|(path, history)| plan(workspace, &paths, path, history, point))
        .collect();
    let paint = Paint::stdout();
    let (mut done, mut left) = (0, 0);
    for item in planned {
        let step = match (&item.step, dry_run) {
            (Step::Restore { .. } | Step::Remove, false) => {
                apply(&mut store, workspace, &item, point)?
            }
            _ => item.step.clone(),
        };
        let (verb, text) = describe(&step, &item.path, point, dry_run);
        match step {
            Step::Restore { .. } | Step::Remove => {
                done += 1;
                crate::outln!("{} {text}", paint.ok.apply_to(format!("{verb:<9}")));
            }
            _ => {
                left += 1;
                crate::outln!("{} {text}", paint.bad.apply_to(format!("{verb:<9}")));
            }
        }
    }
    store.close()?;
    let would = if dry_run { "would be " } else { "" };
    match done {
        0 if left == 0 => crate::outln!(
            "Nothing to roll back: the files the runner wrote are as they were at record {point}."
        ),
        0 => {}
        _ => crate::outln!("{} {would}rolled back to record {point}.", files(done)),
    }
    if left > 0 {
        crate::outln!(
            "{} {would}left as they are: copy your changes aside or undo them, then roll back \
             again.",
            files(left)
        );
        return Ok(Exit::Stopped);
    }
    Ok(Exit::Achieved)
}

fn files(n: usize) -> String {
    if n == 1 {
        "1 file".to_string()
    } else {
        format!("{n} files")
    }
}

/// What to do with `path` to make it what it was at `point`; `None` when it
/// already is.
fn plan(
    workspace: &Path,
    paths: &Paths,
    path: &str,
    history: &FileHistory,
    point: u64,
) -> Option<Planned> {
    let target = history.at(point);
    let now = match files::read(workspace, path) {
        Ok(bytes) => bytes.as_deref().map(sha256_hex),
        Err(why) => {
            return Some(Planned {
                path: path.to_string(),
                now: None,
                step: Step::Refused(why),
            });
        }
    };
    if now.as_deref() == target {
        return None;
    }
    let step = if now.as_deref() != history.last() {
        Step::Changed
    } else {
        match target {
            None => Step::Remove,
            Some(sha256) => match blobs::read(paths, sha256) {
                Ok(Some(_)) => Step::Restore {
                    to: sha256.to_string(),
                },
                _ => Step::NotKept,
            },
        }
    };
    Some(Planned {
        path: path.to_string(),
        now,
        step,
    })
}

/// Puts one file back; checks again that it is what the plan saw, keeps
/// what it replaces, and logs it. Returns what was done.
fn apply(
    store: &mut Store,
    workspace: &Path,
    item: &Planned,
    point: u64,
) -> Result<Step, StoreError> {
    let current = files::read(workspace, &item.path).ok().flatten();
    if current.as_deref().map(sha256_hex) != item.now {
        return Ok(Step::Changed);
    }
    if let Some(bytes) = &current {
        store.keep_blob(bytes)?;
    }
    let to = match &item.step {
        Step::Restore { to } => {
            let Some(bytes) = blobs::read(store.paths(), to).ok().flatten() else {
                return Ok(Step::NotKept);
            };
            if let Err(error) = files::replace(workspace, &item.path, &bytes) {
                return Ok(Step::Refused(format!("cannot write it: {error}")));
            }
            Some(to.clone())
        }
        _ => {
            if let Err(error) = files::remove(workspace, &item.path) {
                return Ok(Step::Refused(format!("cannot remove it: {error}")));
            }
            None
        }
    };
    store.append(
        Event::RolledBack {
            path: item.path.clone(),
            point,
            from: item.now.clone(),
            to,
        },
        Durability::Lazy,
    )?;
    Ok(item.step.clone())
}

fn describe(step: &Step, path: &str, point: u64, dry_run: bool) -> (&'static str, String) {
    match (step, dry_run) {
        (Step::Restore { .. }, false) => ("restored", format!("{path} (as at record {point})")),
        (Step::Restore { .. }, true) => ("restore", format!("{path} (as at record {point})")),
        (Step::Remove, false) => (
            "removed",
            format!("{path} (it did not exist at record {point})"),
        ),
        (Step::Remove, true) => (
            "remove",
            format!("{path} (it did not exist at record {point})"),
        ),
        (Step::Changed, _) => (
            "left",
            format!("{path}: changed since the runner wrote it, so it is not overwritten"),
        ),
        (Step::NotKept, _) => (
            "left",
            format!("{path}: its content at record {point} was not kept"),
        ),
        (Step::Refused(why), _) => ("left", format!("{path}: {why}")),
    }
}

/// Closes an action a crash interrupted before files are put back, so that
/// a resumed run does not redo a write that was rolled back: a write that
/// had finished is recorded as done, anything else as not run again.
fn settle(store: &mut Store, workspace: &Path) -> Result<(), StoreError> {
    let Some(flight) = store.state().in_flight.clone() else {
        return Ok(());
    };
    let finished = flight.write.as_ref().and_then(|intent| {
        let bytes = files::read(workspace, &intent.path).ok()??;
        (sha256_hex(&bytes) == intent.after).then(|| FileChange {
            path: intent.path.clone(),
            before: intent.before.clone(),
            after: intent.after.clone(),
            bytes: bytes.len() as u64,
            removed: Vec::new(),
        })
    });
    let outcome = match finished {
        Some(write) => ActionOutcome {
            ok: true,
            result: format!(
                "Wrote {} bytes to {} (the write finished before the runner stopped)",
                write.bytes, write.path
            ),
            write: Some(write),
            ..ActionOutcome::default()
        },
        None => {
            let error = format!(
                "{} was interrupted when the runner stopped and was not run again, because \
                 the files were rolled back; check its effects before running it again",
                flight.summary
            );
            ActionOutcome::failed(error)
        }
    };
    store.append(
        Event::ActionFinished {
            action: flight.action,
            outcome,
        },
        Durability::Lazy,
    )?;
    Ok(())
}
