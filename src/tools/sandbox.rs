//! The OS sandbox of `run_cmd` children on Linux. Landlock lets them read
//! only the workspace, their temp folder, the system's directories and the
//! installations of the allowed programs (see `readable`), and write only
//! inside the workspace, the temp folder and a few devices; namespaces make
//! `.git` and `.agent_context` read-only and cut the network (see
//! `namespace`), or, where the kernel has no network namespaces, Landlock
//! refuses TCP. Whatever a child starts inherits all of it.
//!
//! Everything is prepared in the runner; the child only makes the system
//! calls between fork and exec, where nothing may allocate.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};

use super::namespace::Namespace;

/// The newest Landlock ABI this code knows; older kernels get what they
/// support of it (best effort), a kernel without Landlock gets nothing.
const TARGET_ABI: ABI = ABI::V9;
/// The first Landlock ABI that confines TCP.
const NET_ABI: i32 = 4;
/// Devices a program may read and write wherever it runs.
const DEVICES: [&str; 7] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/random",
    "/dev/urandom",
    "/dev/pts",
];
/// Shared memory: Python's multiprocessing makes its semaphores there.
const SHARED_MEMORY: &str = "/dev/shm";
/// Capabilities a command started as root loses: with them it could read
/// around Landlock (a raw disk, kernel memory, a file handle), trace the
/// runner or undo its namespaces.
const DROPPED_CAPABILITIES: [libc::c_int; 10] = [
    2,  // CAP_DAC_READ_SEARCH
    12, // CAP_NET_ADMIN
    13, // CAP_NET_RAW
    16, // CAP_SYS_MODULE
    17, // CAP_SYS_RAWIO
    19, // CAP_SYS_PTRACE
    21, // CAP_SYS_ADMIN
    27, // CAP_MKNOD
    38, // CAP_PERFMON
    39, // CAP_BPF
];

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

/// What keeps a command off the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkCut {
    /// `--allow-net`: nothing does.
    Allowed,
    /// A network namespace of its own: no socket leaves it.
    Namespace,
    /// Landlock refuses TCP connects and binds; UDP (DNS) still goes out.
    LandlockTcp,
    /// Nothing the kernel offers.
    Nothing,
}

impl NetworkCut {
    /// How this kernel keeps commands in `root` off the network.
    pub fn of(root: &Path, allow_net: bool) -> NetworkCut {
        if allow_net {
            NetworkCut::Allowed
        } else if Namespace::prepare(root, true).is_some_and(|n| n.works()) {
            NetworkCut::Namespace
        } else if landlock_abi().is_some_and(|abi| abi >= NET_ABI) {
            NetworkCut::LandlockTcp
        } else {
            NetworkCut::Nothing
        }
    }
}

/// What the sandbox does for commands in `root`, in a few words for
/// `doctor`.
pub fn summary(root: &Path, allow_net: bool) -> String {
    let network = match NetworkCut::of(root, allow_net) {
        NetworkCut::Allowed => "the network is allowed (--allow-net)",
        NetworkCut::Namespace => "no network (a network namespace of their own)",
        NetworkCut::LandlockTcp => "no TCP (Landlock); UDP and DNS are not cut",
        NetworkCut::Nothing => "the network is not cut",
    };
    format!(
        "Landlock confines commands: they read only the workspace, the system and the allowed programs' \
         installations, and write only the workspace (.git and .agent_context read-only); {network}"
    )
}

/// A line for the user when commands will not be confined as asked,
/// `None` when they will be.
pub fn notice(root: &Path, allow_net: bool) -> Option<String> {
    let Some(abi) = landlock_abi() else {
        return Some(
            "sandbox: this kernel has no Landlock (Linux 5.13+ with landlock in the `lsm=` boot list), \
             so commands run unconfined: they can read your files and reach the network; only \
             run_cmd's checks stand between them and your files"
                .into(),
        );
    };
    let mut gaps = Vec::new();
    if !Namespace::prepare(root, false).is_some_and(|n| n.works()) {
        gaps.push("user namespaces are unavailable, so .git and .agent_context are not read-only for commands");
    }
    match NetworkCut::of(root, allow_net) {
        NetworkCut::LandlockTcp => gaps.push(
            "network namespaces are unavailable, so only TCP is cut: commands can still send UDP and DNS",
        ),
        NetworkCut::Nothing => gaps.push(
            "this kernel has neither network namespaces nor Landlock TCP rules, so commands can reach the network",
        ),
        NetworkCut::Allowed | NetworkCut::Namespace => {}
    }
    if abi < 2 {
        gaps.push("Landlock is older than ABI 2, so files can be renamed across folders");
    }
    (!gaps.is_empty()).then(|| {
        format!(
            "sandbox: {}; run `runner doctor` for details",
            gaps.join("; ")
        )
    })
}

/// What a command may reach besides its workspace.
#[derive(Debug, Clone, Copy)]
pub struct Reach<'a> {
    /// Its own temp folder, read and written.
    pub tmp: Option<&'a Path>,
    /// Paths it may read (system, installations, `--allow-read`).
    pub reads: &'a [PathBuf],
    /// `--allow-net`.
    pub network: bool,
}

/// What a child does to confine itself, prepared by the runner.
#[derive(Debug)]
pub struct Confinement {
    ruleset: Option<OwnedFd>,
    namespace: Option<Namespace>,
}

impl Confinement {
    /// The confinement of a command in `root`.
    pub fn prepare(root: &Path, reach: Reach) -> Result<Confinement, String> {
        let cut = NetworkCut::of(root, reach.network);
        let namespace = Namespace::prepare(root, cut == NetworkCut::Namespace)
            .filter(Namespace::works)
            .or_else(|| Namespace::prepare(root, false).filter(Namespace::works));
        let tcp_by_landlock =
            cut != NetworkCut::Allowed && !namespace.as_ref().is_some_and(Namespace::cuts_network);
        let ruleset = ruleset(root, reach, tcp_by_landlock).map_err(|e| {
            format!(
                "cannot set up the sandbox (Landlock: {e}); run with --no-sandbox to go without"
            )
        })?;
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
        // SAFETY: geteuid, prctl and landlock_restrict_self take plain
        // integers.
        unsafe {
            if libc::geteuid() == 0 {
                for capability in DROPPED_CAPABILITIES {
                    let dropped = libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0);
                    // EINVAL: a capability this kernel does not know.
                    if dropped < 0
                        && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                }
            }
            if let Some(ruleset) = &self.ruleset {
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

pub(super) fn check(result: libc::c_long) -> std::io::Result<()> {
    if result < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// The Landlock rules: every right beneath the workspace, the temp folder
/// and shared memory (but making devices), read and write on a few
/// devices, read on `reach.reads`; TCP refused when `tcp` is true. `None`
/// when the kernel has no Landlock.
fn ruleset(
    root: &Path,
    reach: Reach,
    tcp: bool,
) -> Result<Option<OwnedFd>, landlock::RulesetError> {
    let all = AccessFs::from_all(TARGET_ABI);
    let read = AccessFs::from_read(TARGET_ABI);
    // A device made in the workspace would read around every rule here.
    let own = all & !(AccessFs::MakeChar | AccessFs::MakeBlock);
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(reach.tmp.map(Path::to_path_buf));
    if Path::new(SHARED_MEMORY).is_dir() {
        dirs.push(SHARED_MEMORY.into());
    }
    let devices: Vec<&str> = DEVICES
        .into_iter()
        .filter(|d| Path::new(d).exists())
        .collect();
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?;
    if tcp {
        ruleset = ruleset.handle_access(AccessNet::from_all(TARGET_ABI))?;
    }
    let created = ruleset
        .scope(Scope::from_all(TARGET_ABI))?
        .create()?
        .add_rules(path_beneath_rules(&dirs, own))?
        .add_rules(path_beneath_rules(&devices, own))?
        .add_rules(path_beneath_rules(reach.reads, read))?;
    Ok(created.into())
}
