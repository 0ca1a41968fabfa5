//! The commands that show a workspace's run to people, diagnose the setup,
//! and undo what the runner wrote: `status`, `history`, `loops`, `doctor`,
//! `reset --list`, `rollback`, `diff`, `completions`.
//!
//! All but `rollback` only read: they work on a crashed run and while a
//! runner holds the workspace.

pub mod archives;
pub mod completions;
pub mod diff;
pub mod doctor;
pub mod history;
pub mod loops;
pub mod lost_log;
pub mod rollback;
pub mod status;
pub mod timeline;

use std::path::Path;

use crate::state::{Outcome, Record};
use crate::store::{Paths, StoreError, log};

pub use status::status;

/// The valid records of a log, read without the lock. A torn last line is
/// left out (it may be a write in progress); damage in the middle ends the
/// list there, with a warning.
pub fn read_records(path: &Path) -> Result<(Vec<Record>, Option<String>), StoreError> {
    let bytes = match fs_err::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(source) => {
            return Err(StoreError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let (found, bad) = log::scan(&bytes);
    let records: Vec<Record> = found.into_iter().map(|f| f.record).collect();
    let next = records.last().map_or(1, |r| r.seq + 1);
    let warning = bad.filter(|bad| bad.damages(next)).map(|bad| {
        format!(
            "{} is damaged after record {} ({}); only the records before it are shown",
            path.display(),
            records.last().map_or(0, |r| r.seq),
            bad.error
        )
    });
    Ok((records, warning))
}

/// The pid of a runner holding the workspace now, read from the lock file
/// without taking the lock (so that a runner starting meanwhile is never
/// refused because of a view).
pub fn running_pid(workspace: &Path) -> Option<u32> {
    let text = fs_err::read_to_string(Paths::new(workspace).lock()).ok()?;
    let pid: u32 = text.trim().parse().ok()?;
    (pid != std::process::id() && alive(pid)).then_some(pid)
}

#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing; kill only checks that the process exists.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    false
}

/// An outcome in words.
pub fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Achieved => "achieved",
        Outcome::NotAchieved => "not achieved",
        Outcome::Stopped => "stopped",
        Outcome::Interrupted => "interrupted",
        Outcome::ModelUnusable => "model unusable",
    }
}

pub use crate::paint::Paint;
pub use crate::text::{shell_quote, shorten};
