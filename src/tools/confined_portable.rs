//! The same interface as `confined.rs` for systems without `openat`
//! (Windows): the path is walked and checked component by component, then
//! used as a path. A symlink swapped in between the check and the use is not
//! caught here; on Unix the handle-based walk closes that gap.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::paths::{self, MAX_SYMLINKS, PathError, Step};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Other,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub name: OsString,
    pub kind: Kind,
    pub len: u64,
}

#[derive(Debug)]
pub struct Target {
    path: PathBuf,
    is_root: bool,
    shown: String,
}

fn kind_of(meta: &std::fs::Metadata) -> Kind {
    let file_type = meta.file_type();
    if file_type.is_symlink() {
        Kind::Symlink
    } else if file_type.is_dir() {
        Kind::Dir
    } else if file_type.is_file() {
        Kind::File
    } else {
        Kind::Other
    }
}

pub fn resolve(root: &Path, given: &str, create_dirs: bool) -> Result<Target, PathError> {
    let mut queue: VecDeque<Step> = paths::steps(root, given)?.into();
    let mut names: Vec<OsString> = Vec::new();
    let mut links = 0usize;
    let mut through_link = false;
    while let Some(step) = queue.pop_front() {
        let name = match step {
            Step::Up => {
                if names.pop().is_none() {
                    return Err(paths::outside(given, through_link));
                }
                continue;
            }
            Step::Name(name) => name,
        };
        if names.is_empty() && paths::is_off_limits(&name) {
            return Err(paths::off_limits(given, &name));
        }
        let last = queue.is_empty();
        let path: PathBuf = std::iter::once(root.as_os_str())
            .chain(names.iter().map(|n| n.as_os_str()))
            .chain(std::iter::once(name.as_os_str()))
            .collect();
        let meta = match path.symlink_metadata() {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && last => {
                names.push(name);
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && create_dirs => {
                std::fs::create_dir(&path).or_else(|e| {
                    if e.kind() == std::io::ErrorKind::AlreadyExists {
                        Ok(())
                    } else {
                        Err(e)
                    }
                })?;
                queue.push_front(Step::Name(name));
                continue;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(PathError::MissingFolder);
            }
            Err(e) => return Err(PathError::Io(e)),
        };
        match kind_of(&meta) {
            Kind::Symlink => {
                links += 1;
                if links > MAX_SYMLINKS {
                    return Err(PathError::Refused(format!(
                        "{given} goes through too many symlinks (a loop?)"
                    )));
                }
                through_link = true;
                let target = std::fs::read_link(&path)?;
                let Some((from_root, steps)) = paths::link_steps(root, &target) else {
                    return Err(paths::outside(given, true));
                };
                if from_root {
                    names.clear();
                }
                for step in steps.into_iter().rev() {
                    queue.push_front(step);
                }
            }
            _ if last => {
                names.push(name);
                break;
            }
            Kind::Dir => names.push(name),
            Kind::File | Kind::Other => {
                return Err(PathError::Refused(format!(
                    "{given}: {} is a file, not a folder",
                    name.to_string_lossy()
                )));
            }
        }
    }
    let path: PathBuf = std::iter::once(root.as_os_str())
        .chain(names.iter().map(|n| n.as_os_str()))
        .collect();
    Ok(Target {
        path,
        is_root: names.is_empty(),
        shown: names
            .iter()
            .map(|n| n.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
    })
}

impl Target {
    pub fn shown(&self) -> &str {
        &self.shown
    }

    pub fn kind(&self) -> std::io::Result<Option<Kind>> {
        match self.path.symlink_metadata() {
            Ok(meta) => Ok(Some(kind_of(&meta))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub fn open_file(&self) -> std::io::Result<std::fs::File> {
        if self.is_root || self.kind()? != Some(Kind::File) {
            return Err(std::io::Error::other("not a regular file"));
        }
        std::fs::File::open(&self.path)
    }

    pub fn list(&self) -> std::io::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&self.path)? {
            let entry = entry?;
            let (kind, len) = match entry.metadata() {
                Ok(meta) => (kind_of(&meta), meta.len()),
                Err(_) => (Kind::Other, 0),
            };
            entries.push(Entry {
                name: entry.file_name(),
                kind,
                len,
            });
        }
        Ok(entries)
    }

    pub fn remove(&self) -> std::io::Result<()> {
        if self.is_root {
            return Err(std::io::Error::other("not a file"));
        }
        std::fs::remove_file(&self.path)
    }

    pub fn remove_stale_temps(&self) -> std::io::Result<()> {
        let Some(dir) = self.path.parent() else {
            return Ok(());
        };
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(".runner-") && name.ends_with(".tmp") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }

    pub fn replace(&self, bytes: &[u8]) -> std::io::Result<()> {
        let tmp = self.path.with_file_name(format!(
            ".runner-{}-{:08x}.tmp",
            std::process::id(),
            fastrand::u32(..)
        ));
        let result = (|| {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            file.write_all(bytes)?;
            if let Ok(meta) = std::fs::symlink_metadata(&self.path)
                && meta.is_file()
            {
                file.set_permissions(meta.permissions())?;
            }
            drop(file);
            std::fs::rename(&tmp, &self.path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}
