//! The namespaces a confined command enters: a private mount namespace
//! where `.git` and `.agent_context` are read-only (Landlock cannot take
//! back inside a folder what it grants on the folder), and, unless the
//! network is allowed, a network namespace of its own: no interface but a
//! loopback that is down, so no socket reaches another host or the
//! runner's loopback, TCP, UDP and DNS alike.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

use super::paths::OFF_LIMITS;
use super::sandbox::check;

#[derive(Debug)]
pub struct Namespace {
    /// `uid_map` and `gid_map` lines when a user namespace is needed (the
    /// runner is not root).
    user: Option<(CString, CString)>,
    /// Paths mounted read-only over themselves, with the flags to keep.
    binds: Vec<(CString, libc::c_ulong)>,
    /// Whether the command gets a network namespace of its own.
    network: bool,
}

impl Namespace {
    /// The namespaces of a command in `root`, cut from the network when
    /// `network` is true; `None` when a path cannot be named to the kernel.
    pub fn prepare(root: &Path, network: bool) -> Option<Namespace> {
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
        Some(Namespace {
            user,
            binds,
            network,
        })
    }

    /// Whether the command is cut from the network by its namespace.
    pub fn cuts_network(&self) -> bool {
        self.network
    }

    /// Enters the namespaces, with the binds read-only.
    ///
    /// # Safety
    /// Only in a freshly forked child: it changes the namespaces of the
    /// calling process.
    pub unsafe fn enter(&self) -> std::io::Result<()> {
        // SAFETY: plain system calls on NUL-terminated strings that live as
        // long as `self`.
        unsafe {
            let mut flags = libc::CLONE_NEWNS;
            if self.user.is_some() {
                flags |= libc::CLONE_NEWUSER;
            }
            if self.network {
                flags |= libc::CLONE_NEWNET;
            }
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

    /// Whether a child can enter these namespaces (user or network
    /// namespaces may be off, or denied by AppArmor; a file system may
    /// refuse the remount): tried once per process for each kind, in a
    /// forked child that exits at once.
    pub fn works(&self) -> bool {
        static WORKS: [OnceLock<bool>; 2] = [OnceLock::new(), OnceLock::new()];
        *WORKS[usize::from(self.network)].get_or_init(|| {
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
