//! One runner per workspace: an advisory lock on `.agent_context/lock`, held
//! for the whole run. The kernel drops it when the process dies, so a killed
//! runner never blocks the next one.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::StoreError;

/// The held lock; released on drop (or by the kernel on death).
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

impl Lock {
    pub fn acquire(path: &Path) -> Result<Lock, StoreError> {
        let io = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Never truncate on open: the holder's pid is in the file.
        let mut file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(StoreError::Locked {
                    pid: text.trim().parse().ok(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(Lock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_the_first_ones_pid() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let first = Lock::acquire(&path).unwrap();
        match Lock::acquire(&path) {
            Err(StoreError::Locked { pid }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected Locked, got {other:?}"),
        }
        drop(first);
        Lock::acquire(&path).unwrap();
    }
}
