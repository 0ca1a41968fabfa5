//! One runner per workspace: an advisory lock on `.agent_context/lock`, held
//! for the whole run, with the holder's pid in the file. The kernel drops it
//! when the process dies, so a killed runner never blocks the next one.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use super::StoreError;

/// How long a lock whose holder is gone may stay held. The lock belongs to
/// the open file, which a child the runner forked shares until its `exec`
/// closes it: a runner killed while starting a command leaves it held for
/// a few milliseconds, by a process that is about to let go.
const LOCK_SETTLE: Duration = Duration::from_secs(2);
/// Pause between two tries meanwhile.
const LOCK_RETRY: Duration = Duration::from_millis(10);

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
        let deadline = Instant::now() + LOCK_SETTLE;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) => {
                    let pid = holder(&mut file);
                    // Our own pid: a child we forked still shares the file
                    // until its exec (tests run stores and commands side by
                    // side in one process); it lets go as a dead holder does.
                    let other = pid.is_some_and(|p| p != std::process::id() && alive(p));
                    if other || Instant::now() >= deadline {
                        return Err(StoreError::Locked { pid });
                    }
                    std::thread::sleep(LOCK_RETRY);
                }
                Err(TryLockError::Error(e)) => return Err(io(e)),
            }
        }
        // Write the pid over the old one, then cut what is left of it, so
        // that a runner refused meanwhile reads a pid, never an empty file.
        let pid = format!("{}\n", std::process::id());
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(pid.as_bytes()).map_err(io)?;
        file.set_len(pid.len() as u64).map_err(io)?;
        Ok(Lock { _file: file })
    }
}

/// The pid the lock file names.
fn holder(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Whether a process with this pid exists.
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only checks that the process exists.
        let found = unsafe { libc::kill(pid, 0) } == 0;
        found || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
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

    #[test]
    fn a_lock_left_by_a_dead_runner_is_waited_for_not_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        // A runner that is gone, whose lock a process about to let go holds.
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        std::fs::write(&path, format!("{dead}\n")).unwrap();
        let held = File::options().read(true).write(true).open(&path).unwrap();
        held.try_lock().unwrap();
        let letting_go = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(held);
        });
        let lock = Lock::acquire(&path);
        letting_go.join().unwrap();
        assert!(lock.is_ok(), "{lock:?}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}\n", std::process::id())
        );
    }
}
