//! A disk in memory for the power-loss tests. It keeps what was synced apart
//! from what was only written: file data is durable after `sync`, a folder
//! entry (a creation, a rename, a removal) only after `sync_dir` of its
//! folder. A power cut keeps the durable part, maybe some of the rest, and
//! maybe a garbage tail, as a real disk may. It can also fail the N-th
//! operation with an errno (ENOSPC, EIO).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::Disk;

#[derive(Debug, Default, Clone)]
struct Inode {
    live: Vec<u8>,
    durable: Vec<u8>,
}

#[derive(Debug, Default)]
struct Fs {
    inodes: Vec<Inode>,
    live: BTreeMap<PathBuf, usize>,
    durable: BTreeMap<PathBuf, usize>,
    /// Changing operations so far.
    ops: u64,
    /// The operation that fails, and with what errno.
    fail: Option<(u64, i32)>,
}

/// A handle on the simulated disk; clones share it, so a test keeps one
/// while the store owns another.
#[derive(Debug, Clone, Default)]
pub struct SimDisk(Arc<Mutex<Fs>>);

impl SimDisk {
    pub fn new() -> SimDisk {
        SimDisk::default()
    }

    fn fs(&self) -> MutexGuard<'_, Fs> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Changing operations so far.
    pub fn ops(&self) -> u64 {
        self.fs().ops
    }

    /// Makes the `n`-th next changing operation fail with `errno` (an
    /// append after writing half of its bytes, as a full disk does).
    pub fn fail_in(&self, n: u64, errno: i32) {
        let mut fs = self.fs();
        fs.fail = Some((fs.ops + n, errno));
    }

    pub fn disarm(&self) {
        self.fs().fail = None;
    }

    /// What a reader sees now.
    pub fn contents(&self, path: &Path) -> Option<Vec<u8>> {
        let fs = self.fs();
        fs.live.get(path).map(|&i| fs.inodes[i].live.clone())
    }

    /// Cuts the power: what was not durable is lost, except what `seed`
    /// decides the disk had written back anyway (file data, and folder
    /// entries, as a journal commit does on its own), and a file with
    /// unsynced writes may end in garbage: zeros, random bytes, or stale
    /// bytes of its own (which may hold whole valid lines).
    pub fn power_cut(&self, seed: u64) {
        let mut rng = fastrand::Rng::with_seed(seed);
        {
            let mut fs = self.fs();
            let Fs { live, durable, .. } = &mut *fs;
            let paths: Vec<PathBuf> = live.keys().chain(durable.keys()).cloned().collect();
            for path in paths {
                if live.get(&path) != durable.get(&path) && rng.bool() {
                    match live.get(&path) {
                        Some(&i) => durable.insert(path, i),
                        None => durable.remove(&path),
                    };
                }
            }
        }
        self.cut(|inode| {
            let mut kept = match rng.u8(0..4) {
                0 => inode.durable.clone(),
                1 => inode.live.clone(),
                _ if inode.live.starts_with(&inode.durable) => {
                    let extra = rng.usize(0..=inode.live.len() - inode.durable.len());
                    inode.live[..inode.durable.len() + extra].to_vec()
                }
                _ => inode.live[..rng.usize(0..=inode.live.len())].to_vec(),
            };
            let stale = if rng.bool() {
                &inode.live
            } else {
                &inode.durable
            };
            match rng.u8(0..4) {
                0 => {}
                1 => kept.extend(std::iter::repeat_n(0u8, rng.usize(1..600))),
                2 => kept.extend((0..rng.usize(1..600)).map(|_| rng.u8(..))),
                _ if !stale.is_empty() => {
                    let from = rng.usize(0..stale.len());
                    let to = rng.usize(from..=stale.len());
                    kept.extend_from_slice(&stale[from..to]);
                }
                _ => {}
            }
            kept
        });
    }

    /// Cuts the power on a disk that wrote back nothing unsynced.
    pub fn lose_unsynced(&self) {
        self.cut(|inode| inode.durable.clone());
    }

    fn cut(&self, mut survivor: impl FnMut(&Inode) -> Vec<u8>) {
        let mut fs = self.fs();
        for inode in &mut fs.inodes {
            if inode.live != inode.durable {
                let kept = survivor(inode);
                inode.live = kept.clone();
                inode.durable = kept;
            }
        }
        fs.live = fs.durable.clone();
        fs.fail = None;
    }
}

impl Fs {
    /// Counts a changing operation; `Err` when it is the one to fail.
    fn op(&mut self) -> io::Result<()> {
        self.ops += 1;
        match self.fail {
            Some((at, errno)) if at == self.ops => {
                self.fail = None;
                Err(io::Error::from_raw_os_error(errno))
            }
            _ => Ok(()),
        }
    }

    fn inode(&mut self, path: &Path) -> io::Result<&mut Inode> {
        let i = *self
            .live
            .get(path)
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        Ok(&mut self.inodes[i])
    }

    fn create(&mut self, path: &Path) -> &mut Inode {
        let i = match self.live.get(path) {
            Some(&i) => i,
            None => {
                self.inodes.push(Inode::default());
                let i = self.inodes.len() - 1;
                self.live.insert(path.to_path_buf(), i);
                i
            }
        };
        &mut self.inodes[i]
    }
}

impl Disk for SimDisk {
    fn read(&mut self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        Ok(self.contents(path))
    }

    fn read_from(&mut self, path: &Path, offset: u64) -> io::Result<Vec<u8>> {
        let bytes = self.contents(path).unwrap_or_default();
        Ok(bytes.get(offset as usize..).unwrap_or_default().to_vec())
    }

    fn append(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut fs = self.fs();
        let failed = fs.op();
        let inode = fs.create(path);
        match failed {
            Ok(()) => inode.live.extend_from_slice(bytes),
            Err(_) => inode.live.extend_from_slice(&bytes[..bytes.len() / 2]),
        }
        failed
    }

    fn sync(&mut self, path: &Path) -> io::Result<()> {
        let mut fs = self.fs();
        fs.op()?;
        let inode = fs.inode(path)?;
        inode.durable = inode.live.clone();
        Ok(())
    }

    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut fs = self.fs();
        fs.op()?;
        fs.create(path).live = bytes.to_vec();
        Ok(())
    }

    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        let mut fs = self.fs();
        fs.op()?;
        let i = fs
            .live
            .remove(from)
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        fs.live.insert(to.to_path_buf(), i);
        Ok(())
    }

    fn sync_dir(&mut self, dir: &Path) -> io::Result<()> {
        let mut fs = self.fs();
        fs.op()?;
        let Fs { live, durable, .. } = &mut *fs;
        durable.retain(|path, _| path.parent() != Some(dir));
        for (path, &i) in live.iter() {
            if path.parent() == Some(dir) {
                durable.insert(path.clone(), i);
            }
        }
        Ok(())
    }

    fn truncate(&mut self, path: &Path, len: u64) -> io::Result<()> {
        let mut fs = self.fs();
        fs.op()?;
        fs.inode(path)?.live.truncate(len as usize);
        Ok(())
    }

    fn remove(&mut self, path: &Path) -> io::Result<()> {
        let mut fs = self.fs();
        fs.op()?;
        fs.live.remove(path);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_synced_data_and_entries_survive_a_cut_that_keeps_nothing_extra() {
        let dir = Path::new("/d");
        let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
        let mut disk = SimDisk::new();
        disk.append(&a, b"one\n").unwrap();
        disk.sync(&a).unwrap();
        disk.sync_dir(dir).unwrap();
        disk.append(&a, b"two\n").unwrap();
        disk.write(&b, b"new").unwrap();
        disk.sync(&b).unwrap();
        disk.rename(&b, &c).unwrap();
        assert_eq!(disk.contents(&c).as_deref(), Some(&b"new"[..]));
        disk.lose_unsynced();
        assert_eq!(disk.contents(&a).as_deref(), Some(&b"one\n"[..]));
        assert_eq!(disk.contents(&c), None, "the rename was never made durable");
    }

    #[test]
    fn an_injected_error_fails_one_operation() {
        let path = Path::new("/d/a");
        let mut disk = SimDisk::new();
        disk.fail_in(2, libc::EIO);
        disk.append(path, b"1234\n").unwrap();
        let error = disk.append(path, b"5678\n").unwrap_err();
        assert_eq!(error.raw_os_error(), Some(libc::EIO));
        assert_eq!(disk.contents(path).as_deref(), Some(&b"1234\n56"[..]));
        disk.sync(path).unwrap();
    }
}
