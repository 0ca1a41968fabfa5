//! The file operations the store makes, behind a small trait, so that a test
//! can stand in a disk that loses what was not synced (a power loss) or that
//! fails with ENOSPC or EIO.

use std::collections::HashMap;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What the store needs from a file system.
pub trait Disk: Send {
    /// The whole file, `None` when it does not exist.
    fn read(&mut self, path: &Path) -> io::Result<Option<Vec<u8>>>;
    /// The file from `offset` to its end (empty past the end or when the
    /// file does not exist).
    fn read_from(&mut self, path: &Path, offset: u64) -> io::Result<Vec<u8>>;
    /// Appends `bytes` with one write, creating the file if needed.
    fn append(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// Makes the file's data durable (`fdatasync`).
    fn sync(&mut self, path: &Path) -> io::Result<()>;
    /// Creates or truncates the file and writes `bytes`.
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()>;
    /// Makes the entries of a folder (renames, creations) durable.
    fn sync_dir(&mut self, path: &Path) -> io::Result<()>;
    /// Cuts the file to `len` bytes (not synced: call [`Disk::sync`]).
    fn truncate(&mut self, path: &Path, len: u64) -> io::Result<()>;
    /// Removes the file; a missing file is not an error.
    fn remove(&mut self, path: &Path) -> io::Result<()>;
}

/// The real file system. Keeps the files it appends to open, so that an
/// append is one `write` and a sync needs no `open`.
#[derive(Default)]
pub struct RealDisk {
    open: HashMap<PathBuf, fs_err::File>,
    failpoint: Option<Failpoint>,
}

impl RealDisk {
    pub fn new(failpoint: Option<Failpoint>) -> RealDisk {
        RealDisk {
            open: HashMap::new(),
            failpoint,
        }
    }

    /// Counts a pass through `point`; aborts the process or returns the
    /// error to inject when the failpoint says so.
    fn failpoint(&mut self, point: &str) -> io::Result<()> {
        match &mut self.failpoint {
            Some(fp) => fp.pass(point),
            None => Ok(()),
        }
    }

    fn handle(&mut self, path: &Path) -> io::Result<&mut fs_err::File> {
        if !self.open.contains_key(path) {
            let file = fs_err::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            self.open.insert(path.to_path_buf(), file);
        }
        self.open
            .get_mut(path)
            .ok_or_else(|| io::Error::other("file handle vanished"))
    }
}

impl Disk for RealDisk {
    fn read(&mut self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        match fs_err::read(path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn read_from(&mut self, path: &Path, offset: u64) -> io::Result<Vec<u8>> {
        let mut file = match fs_err::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        file.seek(SeekFrom::Start(offset))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    fn append(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        if let Err(e) = self.failpoint("append") {
            // What a full disk does: a short write, then the error.
            self.handle(path)?.write_all(&bytes[..bytes.len() / 2])?;
            return Err(e);
        }
        self.handle(path)?.write_all(bytes)?;
        self.failpoint("appended")
    }

    fn sync(&mut self, path: &Path) -> io::Result<()> {
        self.failpoint("sync")?;
        match self.open.get_mut(path) {
            Some(file) => file.sync_data()?,
            None => fs_err::File::open(path)?.sync_data()?,
        }
        self.failpoint("synced")
    }

    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.failpoint("write")?;
        self.open.remove(path);
        let mut file = fs_err::File::create(path)?;
        file.write_all(bytes)?;
        drop(file);
        self.failpoint("written")
    }

    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        self.failpoint("rename")?;
        self.open.remove(from);
        self.open.remove(to);
        fs_err::rename(from, to)?;
        self.failpoint("renamed")
    }

    fn sync_dir(&mut self, path: &Path) -> io::Result<()> {
        self.failpoint("sync_dir")?;
        fs_err::File::open(path)?.sync_all()?;
        self.failpoint("synced_dir")
    }

    fn truncate(&mut self, path: &Path, len: u64) -> io::Result<()> {
        self.open.remove(path);
        let file = fs_err::OpenOptions::new().write(true).open(path)?;
        file.set_len(len)
    }

    fn remove(&mut self, path: &Path) -> io::Result<()> {
        self.open.remove(path);
        match fs_err::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Crash testing: `RUNNER_FAILPOINT=NAME:N` makes the store abort the
/// process (no destructors run, as in a crash) the N-th time it reaches the
/// point `NAME`: `append`, `appended`, `sync`, `synced`, `write`, `written`,
/// `rename`, `renamed`, `sync_dir`, `synced_dir`. `NAME:N:enospc` and
/// `NAME:N:eio` make the operation fail with that error instead (at
/// `append`, after a short write, as a full disk does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failpoint {
    point: String,
    at: u64,
    hits: u64,
    effect: Effect,
}

/// What a failpoint does when it is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Abort,
    /// `errno` to return.
    Fail(i32),
}

impl Failpoint {
    /// Parses `NAME:N` or `NAME:N:enospc|eio`; `None` for anything else.
    pub fn parse(spec: &str) -> Option<Failpoint> {
        let mut parts = spec.split(':');
        let point = parts.next()?.to_string();
        let at = parts.next()?.parse().ok()?;
        let effect = match parts.next() {
            None | Some("abort") => Effect::Abort,
            Some("enospc") => Effect::Fail(libc::ENOSPC),
            Some("eio") => Effect::Fail(libc::EIO),
            Some(_) => return None,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Failpoint {
            point,
            at,
            hits: 0,
            effect,
        })
    }

    /// Counts a pass through `point`; on the N-th one, aborts or returns
    /// the error.
    fn pass(&mut self, point: &str) -> io::Result<()> {
        if self.point != point {
            return Ok(());
        }
        self.hits += 1;
        if self.hits != self.at {
            return Ok(());
        }
        match self.effect {
            Effect::Abort => std::process::abort(),
            Effect::Fail(errno) => Err(io::Error::from_raw_os_error(errno)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failpoint_specs_parse() {
        let fp = Failpoint::parse("sync:3:eio").unwrap();
        assert_eq!(
            (fp.point.as_str(), fp.at, fp.effect),
            ("sync", 3, Effect::Fail(libc::EIO))
        );
        assert_eq!(Failpoint::parse("append:1").unwrap().effect, Effect::Abort);
        for bad in ["append", "append:x", "append:1:boom", "append:1:eio:2"] {
            assert_eq!(Failpoint::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_injected_enospc_on_append_leaves_a_short_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let mut disk = RealDisk::new(Failpoint::parse("append:2:enospc"));
        disk.append(&path, b"first\n").unwrap();
        let error = disk.append(&path, b"second\n").unwrap_err();
        assert_eq!(error.raw_os_error(), Some(libc::ENOSPC));
        assert_eq!(std::fs::read(&path).unwrap(), b"first\nsec");
        disk.append(&path, b"third\n").unwrap();
    }
}
