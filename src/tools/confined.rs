//! Files of the workspace reached through directory handles: the path is
//! walked one component at a time with `openat(O_NOFOLLOW)` from a handle on
//! the workspace root, symlinks are read and resolved by us (never by the
//! kernel), and every later operation is relative to the handle of the
//! folder that was reached. A symlink swapped in during the call is met as
//! a symlink, checked again, and refused when it leads out; a folder moved
//! away does not take the handle with it.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::paths::{self, MAX_SYMLINKS, PathError, Step};

/// What a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Other,
}

/// One entry of a folder.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: OsString,
    pub kind: Kind,
    pub len: u64,
}

/// A resolved path: the folder that holds it (open) and its name there,
/// or the folder itself when `name` is `None` (the workspace root, `a/..`).
#[derive(Debug)]
pub struct Target {
    dir: OwnedFd,
    name: Option<OsString>,
    shown: String,
}

fn kind_of(file_type: FileType) -> Kind {
    match file_type {
        FileType::RegularFile => Kind::File,
        FileType::Directory => Kind::Dir,
        FileType::Symlink => Kind::Symlink,
        _ => Kind::Other,
    }
}

fn open_dir(at: &OwnedFd, name: &OsStr) -> rustix::io::Result<OwnedFd> {
    rfs::openat(
        at,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Resolves `given` inside `root` (canonical). With `create_dirs`, missing
/// folders on the way are created.
pub fn resolve(root: &Path, given: &str, create_dirs: bool) -> Result<Target, PathError> {
    let mut queue: VecDeque<Step> = paths::steps(root, given)?.into();
    let root_fd = rfs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(std::io::Error::from)?;
    // The folders from the root down to where the walk is, with their names.
    let mut stack: Vec<(OwnedFd, OsString)> = vec![(root_fd, OsString::new())];
    let mut links = 0usize;
    let mut through_link = false;
    while let Some(step) = queue.pop_front() {
        let name = match step {
            Step::Up => {
                if stack.len() == 1 {
                    return Err(paths::outside(given, through_link));
                }
                stack.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        if stack.len() == 1 && paths::is_off_limits(&name) {
            return Err(paths::off_limits(given, &name));
        }
        let last = queue.is_empty();
        let at = &stack[stack.len() - 1].0;
        let kind = match rfs::statat(at, &name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => kind_of(FileType::from_raw_mode(stat.st_mode)),
            Err(Errno::NOENT) if last => {
                return Ok(target(stack, Some(name)));
            }
            Err(Errno::NOENT) if create_dirs => {
                match rfs::mkdirat(at, &name, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(PathError::Io(e.into())),
                }
                queue.push_front(Step::Name(name));
                continue;
            }
            Err(Errno::NOENT) => return Err(PathError::MissingFolder),
            Err(e) => return Err(PathError::Io(e.into())),
        };
        match kind {
            Kind::Symlink => {
                links += 1;
                if links > MAX_SYMLINKS {
                    return Err(PathError::Refused(format!(
                        "{given} goes through too many symlinks (a loop?)"
                    )));
                }
                through_link = true;
                let target = match rfs::readlinkat(at, &name, Vec::new()) {
                    Ok(target) => target,
                    // No longer a symlink (or gone) since the stat: again.
                    Err(Errno::INVAL | Errno::NOENT) => {
                        queue.push_front(Step::Name(name));
                        continue;
                    }
                    Err(e) => return Err(PathError::Io(e.into())),
                };
                let target = PathBuf::from(OsStr::from_bytes(target.as_bytes()));
                let Some((from_root, steps)) = paths::link_steps(root, &target) else {
                    return Err(paths::outside(given, true));
                };
                if from_root {
                    stack.truncate(1);
                }
                for step in steps.into_iter().rev() {
                    queue.push_front(step);
                }
            }
            _ if last => return Ok(target(stack, Some(name))),
            Kind::Dir => match open_dir(at, &name) {
                Ok(fd) => stack.push((fd, name)),
                // It became a symlink (or something else), or went away,
                // since the stat: look at it again.
                Err(Errno::LOOP | Errno::NOTDIR | Errno::NOENT) => {
                    links += 1;
                    if links > MAX_SYMLINKS {
                        return Err(PathError::Refused(format!(
                            "{given} keeps changing while it is resolved; try again"
                        )));
                    }
                    queue.push_front(Step::Name(name));
                }
                Err(e) => return Err(PathError::Io(e.into())),
            },
            Kind::File | Kind::Other => {
                return Err(PathError::Refused(format!(
                    "{given}: {} is a file, not a folder",
                    name.to_string_lossy()
                )));
            }
        }
    }
    Ok(target(stack, None))
}

fn target(mut stack: Vec<(OwnedFd, OsString)>, name: Option<OsString>) -> Target {
    let mut parts: Vec<String> = stack
        .iter()
        .skip(1)
        .map(|(_, n)| n.to_string_lossy().into_owned())
        .collect();
    if let Some(name) = &name {
        parts.push(name.to_string_lossy().into_owned());
    }
    let dir = stack.swap_remove(stack.len() - 1).0;
    Target {
        dir,
        name,
        shown: parts.join("/"),
    }
}

impl Target {
    /// The path relative to the workspace, with `/` (empty for the root).
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// What the path is now, `None` when it does not exist.
    pub fn kind(&self) -> std::io::Result<Option<Kind>> {
        let Some(name) = &self.name else {
            return Ok(Some(Kind::Dir));
        };
        match rfs::statat(&self.dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some(kind_of(FileType::from_raw_mode(stat.st_mode)))),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Opens the file for reading. Never follows a symlink, never blocks on
    /// a FIFO; anything but a regular file is refused.
    pub fn open_file(&self) -> std::io::Result<std::fs::File> {
        let Some(name) = &self.name else {
            return Err(std::io::Error::from(std::io::ErrorKind::IsADirectory));
        };
        let fd = rfs::openat(
            &self.dir,
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let stat = rfs::fstat(&fd)?;
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile => {}
            FileType::Directory => {
                return Err(std::io::Error::from(std::io::ErrorKind::IsADirectory));
            }
            _ => return Err(std::io::Error::other("not a regular file")),
        }
        rfs::fcntl_setfl(&fd, OFlags::empty())?;
        Ok(std::fs::File::from(fd))
    }

    /// The entries of the folder.
    pub fn list(&self) -> std::io::Result<Vec<Entry>> {
        let dir = match &self.name {
            Some(name) => open_dir(&self.dir, name)?,
            None => rfs::openat(
                &self.dir,
                ".",
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?,
        };
        let mut entries = Vec::new();
        for entry in rfs::Dir::read_from(&dir)? {
            let entry = entry?;
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            let (kind, len) = match rfs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) => (
                    kind_of(FileType::from_raw_mode(stat.st_mode)),
                    stat.st_size as u64,
                ),
                Err(_) => (Kind::Other, 0),
            };
            entries.push(Entry {
                name: name.to_os_string(),
                kind,
                len,
            });
        }
        Ok(entries)
    }

    /// Removes the file (never a folder).
    pub fn remove(&self) -> std::io::Result<()> {
        let Some(name) = &self.name else {
            return Err(std::io::Error::from(std::io::ErrorKind::IsADirectory));
        };
        rfs::unlinkat(&self.dir, name, AtFlags::empty()).map_err(Into::into)
    }

    /// Removes the temp files an interrupted [`Target::replace`] left in the
    /// folder of this name (`.runner-*.tmp`). Call only while holding the
    /// workspace lock: then no replace is in progress.
    pub fn remove_stale_temps(&self) -> std::io::Result<()> {
        let dir = rfs::openat(
            &self.dir,
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        for entry in rfs::Dir::read_from(&dir)? {
            let entry = entry?;
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if is_temp_name(name) {
                let _ = rfs::unlinkat(&self.dir, name, AtFlags::empty());
            }
        }
        Ok(())
    }

    /// Writes a temp file in the same folder and renames it over the name,
    /// so a reader never sees half a file, and a hardlink or a symlink at
    /// the name is replaced, never written through. Keeps the permissions
    /// of the file it replaces.
    pub fn replace(&self, bytes: &[u8]) -> std::io::Result<()> {
        let Some(name) = &self.name else {
            return Err(std::io::Error::from(std::io::ErrorKind::IsADirectory));
        };
        let mode = match rfs::statat(&self.dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile => {
                Some(Mode::from_raw_mode(stat.st_mode & 0o7777))
            }
            _ => None,
        };
        let tmp = format!(
            ".runner-{}-{:08x}.tmp",
            std::process::id(),
            fastrand::u32(..)
        );
        let fd = rfs::openat(
            &self.dir,
            tmp.as_str(),
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o666),
        )?;
        let result = (|| {
            if let Some(mode) = mode {
                rfs::fchmod(&fd, mode)?;
            }
            let mut file = std::fs::File::from(fd);
            file.write_all(bytes)?;
            drop(file);
            rfs::renameat(&self.dir, tmp.as_str(), &self.dir, name)?;
            Ok(())
        })();
        if result.is_err() {
            let _ = rfs::unlinkat(&self.dir, tmp.as_str(), AtFlags::empty());
        }
        result
    }
}

/// The name [`Target::replace`] gives its temp files.
pub fn is_temp_name(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with(".runner-") && name.ends_with(".tmp")
}

#[cfg(test)]
#[path = "confined_tests.rs"]
mod tests;
