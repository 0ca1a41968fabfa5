//! The processes of a command: started in a group of their own with
//! resource limits, counted while they run, and all of them killed and
//! reaped when the command ends: grandchildren and `setsid` escapees too.
//!
//! On Linux the runner is a child subreaper (`become_subreaper`), so an
//! orphan of a command is re-parented to the runner instead of init; the
//! members of a command are found in /proc by process group, by parent
//! chain from the command, and by that adoption.

use std::sync::Mutex;
use std::time::Duration;

/// Resource limits of a command's processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest file a process may write (SIGXFSZ past it).
    pub file_size: u64,
    /// Processes a command may have at once, beyond those already running
    /// for the user (RLIMIT_NPROC counts per user; root is exempt from it,
    /// so the runner also counts and kills past this number).
    pub processes: u64,
    /// Virtual memory of one process.
    pub address_space: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            // Large enough for any build artefact or test database, small
            // enough that a runaway loop cannot fill a disk.
            file_size: 1 << 30,
            // pytest-xdist on a 32-core machine stays far below this.
            processes: 256,
            // Python, pytest and pip live well under 8 GiB of address space;
            // a runaway allocation stops there instead of swapping the machine.
            address_space: 8 << 30,
        }
    }
}

/// How often a running command's processes are counted.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(50);
/// How long the final sweep may go on killing and reaping.
const SWEEP_LIMIT: Duration = Duration::from_secs(5);

/// Makes the runner the reaper of its descendants' orphans (Linux), so
/// that no `setsid` escapee of a command outlives it unseen. Returns
/// whether it worked.
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with plain integer arguments.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    false
}

#[cfg(target_os = "linux")]
fn is_subreaper() -> bool {
    let mut flag: libc::c_int = 0;
    // SAFETY: PR_GET_CHILD_SUBREAPER writes one int at the pointer given.
    unsafe {
        libc::prctl(
            libc::PR_GET_CHILD_SUBREAPER,
            &mut flag as *mut libc::c_int,
            0,
            0,
            0,
        )
    };
    flag != 0
}

/// The leaders of the commands running in this process. Process-wide on
/// purpose: adoption by the subreaper is process-wide too, and an orphan
/// is only this command's when no other command is running.
static LEADERS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn leaders() -> Vec<i32> {
    LEADERS.lock().map(|l| l.clone()).unwrap_or_default()
}

/// The limits a child sets on itself between fork and exec.
#[derive(Debug, Clone, Copy)]
pub struct ChildLimits {
    file_size: u64,
    processes: u64,
    address_space: u64,
}

impl ChildLimits {
    pub fn new(limits: &Limits) -> ChildLimits {
        ChildLimits {
            file_size: limits.file_size,
            processes: running_threads().saturating_add(limits.processes),
            address_space: limits.address_space,
        }
    }

    /// Sets the limits on the calling process, and (Linux) asks for
    /// SIGKILL when the runner dies.
    ///
    /// # Safety
    /// Only in a freshly forked child: system calls only.
    #[cfg(unix)]
    pub unsafe fn apply(&self) -> std::io::Result<()> {
        // SAFETY: setrlimit and prctl with plain values.
        unsafe {
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            set_limit(libc::RLIMIT_FSIZE, self.file_size)?;
            set_limit(libc::RLIMIT_AS, self.address_space)?;
            set_limit(libc::RLIMIT_NPROC, self.processes)?;
            set_limit(libc::RLIMIT_CORE, 0)?;
        }
        Ok(())
    }
}

/// Lowers a limit to `value` (never raises it past the hard limit).
#[cfg(unix)]
unsafe fn set_limit(resource: LimitResource, value: u64) -> std::io::Result<()> {
    // SAFETY: getrlimit and setrlimit on a local struct.
    unsafe {
        let mut limit = std::mem::zeroed::<libc::rlimit>();
        if libc::getrlimit(resource, &mut limit) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let value = (value as libc::rlim_t).min(limit.rlim_max);
        limit.rlim_cur = value;
        limit.rlim_max = value;
        if libc::setrlimit(resource, &limit) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(all(unix, target_os = "linux", target_env = "gnu"))]
type LimitResource = libc::__rlimit_resource_t;
#[cfg(all(unix, not(all(target_os = "linux", target_env = "gnu"))))]
type LimitResource = libc::c_int;

/// Threads running on the machine now (an upper bound of the user's, which
/// RLIMIT_NPROC counts): from /proc/loadavg on Linux.
fn running_threads() -> u64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().nth(3)?.split('/').nth(1)?.parse().ok())
        .unwrap_or(4096)
}

/// One process of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub pid: i32,
    pub parent: i32,
    pub zombie: bool,
}

/// The processes of one running command.
#[derive(Debug)]
pub struct Group {
    leader: i32,
}

impl Group {
    /// Tracks the command whose first process (and group) is `leader`.
    pub fn new(leader: i32) -> Group {
        if let Ok(mut leaders) = LEADERS.lock() {
            leaders.push(leader);
        }
        Group { leader }
    }

    /// The command's processes now, zombies included (Linux; elsewhere
    /// none are known and the group signal does the work).
    pub fn members(&self) -> Vec<Member> {
        #[cfg(target_os = "linux")]
        {
            members_on_linux(self.leader)
        }
        #[cfg(not(target_os = "linux"))]
        Vec::new()
    }

    /// Processes of the command that are alive (not zombies).
    pub fn alive(&self) -> usize {
        self.members().iter().filter(|m| !m.zombie).count()
    }

    /// Sends `signal` to the group and to every member outside it.
    pub fn signal(&self, signal: i32) {
        #[cfg(unix)]
        {
            // SAFETY: kill(2) with a negative pid signals the command's own
            // group (started with process_group(0)); other pids are members
            // found just now.
            unsafe { libc::kill(-self.leader, signal) };
            for member in self.members() {
                if !member.zombie {
                    // SAFETY: as above.
                    unsafe { libc::kill(member.pid, signal) };
                }
            }
        }
        #[cfg(not(unix))]
        let _ = signal;
    }

    /// Kills whatever is left of the command and reaps the orphans the
    /// runner adopted, until none is left. Returns how many processes were
    /// still alive when it began.
    pub async fn sweep(&self) -> usize {
        let left = self.alive();
        let deadline = tokio::time::Instant::now() + SWEEP_LIMIT;
        loop {
            let members = self.members();
            if members.is_empty() || tokio::time::Instant::now() > deadline {
                break;
            }
            #[cfg(unix)]
            self.signal(libc::SIGKILL);
            self.reap(&members);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        left
    }

    /// Waits for the members that are the runner's own children (adopted
    /// orphans), never for a command's first process, which tokio waits for.
    fn reap(&self, members: &[Member]) {
        #[cfg(unix)]
        {
            // SAFETY: getpid cannot fail.
            let me = unsafe { libc::getpid() };
            let leaders = leaders();
            for member in members {
                if member.parent == me && !leaders.contains(&member.pid) {
                    let mut status = 0;
                    // SAFETY: waitpid on one pid, without blocking.
                    unsafe { libc::waitpid(member.pid, &mut status, libc::WNOHANG) };
                }
            }
        }
        #[cfg(not(unix))]
        let _ = members;
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if let Ok(mut leaders) = LEADERS.lock() {
            leaders.retain(|l| *l != self.leader);
        }
    }
}

#[cfg(target_os = "linux")]
fn members_on_linux(leader: i32) -> Vec<Member> {
    struct Proc {
        pid: i32,
        parent: i32,
        group: i32,
        zombie: bool,
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let procs: Vec<Proc> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // "pid (comm) state ppid pgrp ...": comm may hold anything.
            let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
            let state = fields.next()?;
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some(Proc {
                pid,
                parent,
                group,
                zombie: state == "Z" || state == "X",
            })
        })
        .collect();
    // SAFETY: getpid cannot fail.
    let me = unsafe { libc::getpid() };
    let adopts = is_subreaper();
    let others: Vec<i32> = leaders().into_iter().filter(|l| *l != leader).collect();
    let mut inside: std::collections::HashSet<i32> = procs
        .iter()
        .filter(|p| {
            p.pid == leader
                || p.group == leader
                || (adopts && p.parent == me && !others.contains(&p.pid))
        })
        .map(|p| p.pid)
        .collect();
    loop {
        let before = inside.len();
        for p in &procs {
            if inside.contains(&p.parent) {
                inside.insert(p.pid);
            }
        }
        if inside.len() == before {
            break;
        }
    }
    procs
        .iter()
        .filter(|p| inside.contains(&p.pid) && p.pid != me)
        .map(|p| Member {
            pid: p.pid,
            parent: p.parent,
            zombie: p.zombie,
        })
        .collect()
}
