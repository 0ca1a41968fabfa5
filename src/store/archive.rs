//! Archiving: the files of a run move to `archive/<time>/` when a new goal
//! or `runner reset` replaces it. Nothing is deleted.

use std::io;
use std::path::{Path, PathBuf};

use super::{Disk, Lock, Paths, RealDisk, StoreError, io_error, now};

/// A fresh folder name under `archive/`: the time, made unique.
pub(super) fn archive_dir(paths: &Paths) -> PathBuf {
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
pub(super) fn archive_files(
    paths: &Paths,
    disk: &mut dyn Disk,
    target: &Path,
) -> Result<bool, StoreError> {
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
        let to = target.join(&name);
        if name == "memory.json" {
            fs_err::copy(entry.path(), &to).map_err(io_error(&to))?;
            continue;
        }
        disk.rename(&entry.path(), &to).map_err(io_error(&to))?;
        moved = true;
    }
    if moved {
        // The moved entries are durable in their new folder before they
        // are gone from the old one.
        for dir in [target, &paths.archive(), &paths.dir] {
            disk.sync_dir(dir).map_err(io_error(dir))?;
        }
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
