//! `.agent_context/blobs/`: earlier contents of the files the runner
//! changed, each named by its SHA-256, so that `runner rollback` can put a
//! file back byte for byte and `runner diff` can show what changed.
//!
//! Content-addressed: a content kept twice is stored once, and a blob is
//! checked against its name when read, so a damaged one is never restored.

use std::io;
use std::path::{Path, PathBuf};

use super::{Paths, Store, StoreError, io_error};

pub use crate::digest::sha256_hex;

impl Paths {
    pub fn blobs(&self) -> PathBuf {
        self.dir.join("blobs")
    }

    pub fn blob(&self, sha256: &str) -> PathBuf {
        self.blobs().join(sha256)
    }
}

impl Store {
    /// Keeps `bytes` (the content of a file about to be overwritten or
    /// removed) and returns their hash. Written by temp file and rename but
    /// not synced: the guarantees' budget is about two fsyncs an action and
    /// the log's own sync takes one. A process crash loses nothing (the page
    /// cache survives it); a power loss can at worst lose a blob, which
    /// rollback then reports instead of restoring.
    pub fn keep_blob(&mut self, bytes: &[u8]) -> Result<String, StoreError> {
        let sha256 = sha256_hex(bytes);
        let path = self.paths.blob(&sha256);
        // A blob that matches its name is this content; a torn or damaged
        // one is written again.
        if read_checked(&path, &sha256).is_ok_and(|found| found.is_some()) {
            return Ok(sha256);
        }
        let dir = self.paths.blobs();
        fs_err::create_dir_all(&dir).map_err(io_error(&dir))?;
        let tmp = dir.join(format!("{sha256}.tmp"));
        self.disk.write(&tmp, bytes).map_err(io_error(&tmp))?;
        self.disk.rename(&tmp, &path).map_err(io_error(&path))?;
        Ok(sha256)
    }
}

/// The content whose hash is `sha256`, from the blobs of `paths`; `None`
/// when it was not kept or the blob does not match its name.
pub fn read(paths: &Paths, sha256: &str) -> io::Result<Option<Vec<u8>>> {
    read_checked(&paths.blob(sha256), sha256)
}

fn read_checked(path: &Path, sha256: &str) -> io::Result<Option<Vec<u8>>> {
    match fs_err::read(path) {
        Ok(bytes) => Ok((sha256_hex(&bytes) == sha256).then_some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{OpenOptions, RealDisk};

    fn store(workspace: &Path) -> Store {
        Store::open(
            workspace,
            Box::new(RealDisk::default()),
            OpenOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_kept_content_comes_back_byte_for_byte_and_is_stored_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store(dir.path());
        let content = b"print('old')\n\x00\xff not utf-8\n";
        let sha = store.keep_blob(content).unwrap();
        assert_eq!(sha, sha256_hex(content));
        assert_eq!(
            read(store.paths(), &sha).unwrap().as_deref(),
            Some(&content[..])
        );
        use std::os::unix::fs::MetadataExt;
        let inode = |store: &Store| std::fs::metadata(store.paths().blob(&sha)).unwrap().ino();
        let before = inode(&store);
        assert_eq!(store.keep_blob(content).unwrap(), sha);
        assert_eq!(inode(&store), before, "a known blob is not written again");
        let entries = fs_err::read_dir(store.paths().blobs()).unwrap().count();
        assert_eq!(entries, 1, "no temp file is left behind");
    }

    #[test]
    fn a_damaged_or_missing_blob_is_not_returned() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = store(dir.path());
        let sha = store.keep_blob(b"abc").unwrap();
        std::fs::write(store.paths().blob(&sha), b"abd").unwrap();
        assert_eq!(read(store.paths(), &sha).unwrap(), None);
        assert_eq!(
            read(store.paths(), &sha256_hex(b"never kept")).unwrap(),
            None
        );
        // Keeping it again repairs it.
        store.keep_blob(b"abc").unwrap();
        assert_eq!(
            read(store.paths(), &sha).unwrap().as_deref(),
            Some(&b"abc"[..])
        );
    }
}
