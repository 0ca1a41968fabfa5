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
    /// The file from `offset` to its end (empty past the end).
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
    fn truncate(&mut self, path: &Path, len: u64) -> io::Result<()>;
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

    fn failpoint(&mut self, name: &str) {
        if let Some(fp) = &mut self.failpoint
            && fp.point == name
        {
            fp.hits += 1;
            if fp.hits == fp.at {
                std::process::abort();
            }
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
        self.failpoint("append");
        self.handle(path)?.write_all(bytes)?;
        self.failpoint("appended");
        Ok(())
    }

    fn sync(&mut self, path: &Path) -> io::Result<()> {
        self.failpoint("sync");
        match self.open.get_mut(path) {
            Some(file) => file.sync_data()?,
            None => fs_err::File::open(path)?.sync_data()?,
        }
        self.failpoint("synced");
        Ok(())
    }

    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.failpoint("write");
        self.open.remove(path);
        let mut file = fs_err::File::create(path)?;
        file.write_all(bytes)?;
        // The caller may sync it next; keep it open for that.
        drop(file);
        self.failpoint("written");
        Ok(())
    }

    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        self.failpoint("rename");
        self.open.remove(from);
        self.open.remove(to);
        fs_err::rename(from, to)?;
        self.failpoint("renamed");
        Ok(())
    }

    fn sync_dir(&mut self, path: &Path) -> io::Result<()> {
        self.failpoint("sync_dir");
        fs_err::File::open(path)?.sync_all()?;
        self.failpoint("synced_dir");
        Ok(())
    }

    fn truncate(&mut self, path: &Path, len: u64) -> io::Result<()> {
        self.open.remove(path);
        let file = fs_err::OpenOptions::new().write(true).open(path)?;
        file.set_len(len)?;
        file.sync_all()
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
/// `rename`, `renamed`, `sync_dir`, `synced_dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failpoint {
    point: String,
    at: u64,
    hits: u64,
}

impl Failpoint {
    /// Parses `NAME:N`; `None` for anything else.
    pub fn parse(spec: &str) -> Option<Failpoint> {
        let (point, at) = spec.split_once(':')?;
        Some(Failpoint {
            point: point.to_string(),
            at: at.parse().ok()?,
            hits: 0,
        })
    }
}
