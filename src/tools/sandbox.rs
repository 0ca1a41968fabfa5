//! The OS sandbox of `run_cmd` children on Linux, as codex-rs confines its
//! commands: Landlock lets them write only inside the workspace, their own
//! temp folder and a few devices; `.git` and `.agent_context` are mounted
//! read-only over themselves in a private mount namespace (Landlock cannot
//! take back inside a folder what it grants on the folder), and Landlock
//! then forbids any further mount. Reading and executing stay allowed.
//!
//! Everything is prepared in the runner; the child only makes the system
//! calls between fork and exec, where nothing may allocate.

use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

use landlock::{
    ABI, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr,
    Scope, path_beneath_rules,
};

use super::paths::OFF_LIMITS;

/// The newest Landlock ABI this code knows; older kernels get what they
/// support of it (best effort), a kernel without Landlock gets nothing.
const TARGET_ABI: ABI = ABI::V9;
/// Devices a program may write to wherever it runs.
const DEVICES: [&str; 6] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/random",
    "/dev/urandom",
];
/// Shared memory: Python's multiprocessing makes its semaphores there.
const SHARED_MEMORY: &str = "/dev/shm";

/// The Landlock ABI of the running kernel, `None` when it has none.
pub fn landlock_abi() -> Option<i32> {
    // SAFETY: landlock_create_ruleset(NULL, 0, VERSION) only returns a number.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    (abi > 0).then_some(abi as i32)
}

/// A line for the user when commands will not be confined, `None` when
/// they will be.
pub fn notice(root: &Path) -> Option<String> {
    match landlock_abi() {
        None => Some(
            "sandbox: this kernel has no Landlock (Linux 5.13+ with landlock in the `lsm=` boot list), \
             so commands run unconfined; only run_cmd's checks stand between them and your files"
                .into(),
        ),
        Some(_) if !Namespace::prepare(root).is_some_and(|n| n.works()) => Some(
            "sandbox: Landlock is on, but user namespaces are unavailable, so .git and \
             .agent_context are not read-only for commands"
                .into(),
        ),
        Some(_) => None,
    }
}

/// What a child does to confine itself, prepared by the runner.
#[derive(Debug)]
pub struct Confinement {
    ruleset: Option<OwnedFd>,
    namespace: Option<Namespace>,
}

#[derive(Debug)]
struct Namespace {
    /// `uid_map` and `gid_map` lines when a user namespace is needed (the
    /// runner is not root).
    user: Option<(CString, CString)>,
    /// Paths mounted read-only over themselves, with the flags to keep.
    binds: Vec<(CString, libc::c_ulong)>,
}

impl Confinement {
    /// The confinement of a command in `root`, writing also in `tmp`.
    pub fn prepare(root: &Path, tmp: Option<&Path>) -> Result<Confinement, String> {
        let ruleset = ruleset(root, tmp).map_err(|e| {
            format!(
                "cannot set up the sandbox (Landlock: {e}); run with --no-sandbox to go without"
            )
        })?;
        let namespace = Namespace::prepare(root).filter(Namespace::works);
        Ok(Confinement { ruleset, namespace })
    }

    /// Confines the calling process. Runs in the child between fork and
    /// exec: system calls only, no allocation.
    ///
    /// # Safety
    /// Only to be called in a freshly forked child.
    pub unsafe fn enter(&self) -> std::io::Result<()> {
        if let Some(namespace) = &self.namespace {
            // SAFETY: the caller is a forked child; see Namespace::enter.
            unsafe { namespace.enter()? };
        }
        if let Some(ruleset) = &self.ruleset {
            // SAFETY: prctl and landlock_restrict_self take plain integers.
            unsafe {
                check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) as libc::c_long)?;
                check(libc::syscall(
                    libc::SYS_landlock_restrict_self,
                    ruleset.as_raw_fd(),
                    0u32,
                ))?;
            }
        }
        Ok(())
    }
}

fn check(result: libc::c_long) -> std::io::Result<()> {
    if result < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// The Landlock rules: write rights beneath the workspace, the temp folder
/// and shared memory, file write rights on the devices. `None` when the
/// kernel has no Landlock.
fn ruleset(root: &Path, tmp: Option<&Path>) -> Result<Option<OwnedFd>, landlock::RulesetError> {
    let write = AccessFs::from_write(TARGET_ABI);
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(tmp.map(Path::to_path_buf));
    if Path::new(SHARED_MEMORY).is_dir() {
        dirs.push(SHARED_MEMORY.into());
    }
    let devices: Vec<&str> = DEVICES
        .into_iter()
        .filter(|d| Path::new(d).exists())
        .collect();
    let created = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(write)?
        .scope(Scope::from_all(TARGET_ABI))?
        .create()?
        .add_rules(path_beneath_rules(&dirs, write))?
        .add_rules(path_beneath_rules(&devices, write))?;
    Ok(created.into())
}

impl Namespace {
    fn prepare(root: &Path) -> Option<Namespace> {
        let cstring = |text: String| CString::new(text).ok();
        // SAFETY: geteuid and getegid cannot fail.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let user = if uid == 0 {
            None
        } else {
            Some((
                cstring(format!("{uid} {uid} 1\n"))?,
                cstring(format!("{gid} {gid} 1\n"))?,
            ))
        };
        let mut binds = Vec::new();
        for name in OFF_LIMITS {
            let path = root.join(name);
            if path
                .symlink_metadata()
                .is_ok_and(|m| !m.file_type().is_symlink())
            {
                let flags = rustix::fs::statvfs(&path).ok()?.f_flag;
                let keep = flags.bits()
                    & (libc::MS_NOSUID
                        | libc::MS_NODEV
                        | libc::MS_NOEXEC
                        | libc::MS_NOATIME
                        | libc::MS_NODIRATIME
                        | libc::MS_RELATIME);
                binds.push((CString::new(path.as_os_str().as_bytes()).ok()?, keep));
            }
        }
        Some(Namespace { user, binds })
    }

    /// A private mount namespace with the binds read-only.
    ///
    /// # Safety
    /// Only in a freshly forked child: it changes the namespaces of the
    /// calling process.
    unsafe fn enter(&self) -> std::io::Result<()> {
        // SAFETY: plain system calls on NUL-terminated strings that live as
        // long as `self`.
        unsafe {
            let flags = if self.user.is_some() {
                libc::CLONE_NEWUSER | libc::CLONE_NEWNS
            } else {
                libc::CLONE_NEWNS
            };
            check(libc::unshare(flags) as libc::c_long)?;
            if let Some((uid_map, gid_map)) = &self.user {
                write_proc(c"/proc/self/setgroups", c"deny")?;
                write_proc(c"/proc/self/uid_map", uid_map)?;
                write_proc(c"/proc/self/gid_map", gid_map)?;
            }
            // Nothing done here may reach the runner's mount namespace.
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_SLAVE,
                std::ptr::null(),
            ) as libc::c_long)?;
            for (path, keep) in &self.binds {
                check(libc::mount(
                    path.as_ptr(),
                    path.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ) as libc::c_long)?;
                check(libc::mount(
                    std::ptr::null(),
                    path.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | keep,
                    std::ptr::null(),
                ) as libc::c_long)?;
            }
        }
        Ok(())
    }
}

/// Writes `text` to a file of /proc, with system calls only.
///
/// # Safety
/// Both are valid NUL-terminated strings.
unsafe fn write_proc(path: &std::ffi::CStr, text: &std::ffi::CStr) -> std::io::Result<()> {
    // SAFETY: see above.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd as libc::c_long)?;
        let bytes = text.to_bytes();
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        check(written as libc::c_long)
    }
}

impl Namespace {
    /// Whether a child can set up these binds (user namespaces may be off,
    /// or denied by AppArmor; a file system may refuse the remount): tried
    /// once per process, in a forked child that exits at once.
    fn works(&self) -> bool {
        static WORKS: OnceLock<bool> = OnceLock::new();
        *WORKS.get_or_init(|| {
            // SAFETY: the child makes only the system calls of
            // Namespace::enter and exits; the parent waits for it.
            unsafe {
                let pid = libc::fork();
                if pid == 0 {
                    let code = if self.enter().is_ok() { 0 } else { 1 };
                    libc::_exit(code);
                }
                if pid < 0 {
                    return false;
                }
                let mut status = 0;
                while libc::waitpid(pid, &mut status, 0) < 0 {
                    if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                        return false;
                    }
                }
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
            }
        })
    }
}
