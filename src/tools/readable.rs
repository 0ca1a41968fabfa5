//! What a confined command may read besides its workspace and temp
//! folder: the system's directories, `/etc` without its secrets, and the
//! installation of each allowed program (for Python, what the interpreter
//! itself says it uses, asked once per run). Never `$HOME` itself, never a
//! folder that holds the workspace.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::command::find_on_path;

/// The system's directories, readable whole. `/dev` is not: its devices
/// are listed one by one by the sandbox (a disk device would read every
/// file); `/proc` is, since Landlock keeps a command from the processes
/// outside its sandbox (their `environ`, `mem`, `root`).
const SYSTEM: [&str; 8] = [
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/opt",
];
const PROC: &str = "/proc";
const ETC: &str = "/etc";
/// Entries of `/etc` that hold secrets (password hashes, host keys,
/// private TLS keys, who may become root): every other entry is readable.
const ETC_SECRETS: [&str; 8] = [
    "shadow",
    "shadow-",
    "gshadow",
    "gshadow-",
    "sudoers",
    "sudoers.d",
    "ssh",
    "ssl/private",
];
/// How long an interpreter may take to say where it lives: a cold start of
/// Python on a slow disk is well under a second.
const QUERY_TIMEOUT: Duration = Duration::from_secs(10);
/// What Python is asked: its prefixes, its site-packages (the user's too)
/// and the folders on its path (`.pth` files and editable installs add some).
const PYTHON_QUERY: &str = "import sys, site\n\
paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]\n\
try:\n    paths += site.getsitepackages()\nexcept Exception:\n    pass\n\
try:\n    paths.append(site.getusersitepackages())\nexcept Exception:\n    pass\n\
paths += [p for p in sys.path if p]\n\
print('\\n'.join(paths))\n";

/// The system's readable paths: its directories and the entries of `/etc`
/// that are not secrets.
pub fn system() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = SYSTEM
        .iter()
        .chain([&PROC])
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
    let secrets: Vec<PathBuf> = ETC_SECRETS.iter().map(|s| Path::new(ETC).join(s)).collect();
    beneath_except(Path::new(ETC), &secrets, &mut paths);
    paths
}

/// The entries of `dir` that hold none of `secrets`, descending into those
/// that hold one.
fn beneath_except(dir: &Path, secrets: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if secrets.contains(&path) {
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && secrets.iter().any(|s| s.starts_with(&path)) {
            beneath_except(&path, secrets, out);
        } else {
            out.push(path);
        }
    }
}

/// The installations of the allowed programs found on the child's `PATH`:
/// the folder above each one's `bin` (as found, and with symlinks
/// resolved), the same for the interpreter of a script, and what each
/// Python interpreter says it reads.
pub async fn installations(
    programs: &[String],
    env: &[(String, String)],
    workspace: &Path,
) -> Vec<PathBuf> {
    let home = env
        .iter()
        .find(|(name, _)| name == "HOME")
        .map(|(_, v)| PathBuf::from(v));
    let mut found = Vec::new();
    let mut pythons = Vec::new();
    for program in programs {
        let Some(path) = find_on_path(program, env) else {
            continue;
        };
        let mut binaries = vec![path.clone()];
        if let Some(interpreter) = interpreter_of(&path, env) {
            binaries.push(interpreter);
        }
        for binary in binaries {
            let name = binary.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with("python") && !pythons.contains(&binary) {
                pythons.push(binary.clone());
            }
            found.extend(install_roots(&binary));
        }
    }
    for python in pythons {
        found.extend(ask_python(&python, env).await);
    }
    let mut kept: Vec<PathBuf> = Vec::new();
    for path in found {
        if allowed(&path, home.as_deref(), workspace) && !kept.contains(&path) {
            kept.push(path);
        }
    }
    kept
}

/// Whether an installation path may be granted: absolute, existing, and
/// neither `/`, nor `$HOME`, nor a folder that holds `$HOME` or the
/// workspace (a program in `~/bin` gives `~/bin`, not `~`).
fn allowed(path: &Path, home: Option<&Path>, workspace: &Path) -> bool {
    path.is_absolute()
        && path.exists()
        && !workspace.starts_with(path)
        && !home.is_some_and(|home| home.starts_with(path))
}

/// The folder above `bin` (or the folder itself when it is not a `bin`),
/// for the path as found and for its target.
fn install_roots(binary: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut candidates = vec![binary.to_path_buf()];
    if let Ok(real) = binary.canonicalize() {
        candidates.push(real);
    }
    for candidate in candidates {
        let Some(dir) = candidate.parent() else {
            continue;
        };
        let is_bin = dir
            .file_name()
            .is_some_and(|n| n == "bin" || n == "sbin" || n == "shims");
        // A `bin` right under `$HOME` stays itself: `allowed` refuses `~`.
        roots.push(dir.to_path_buf());
        if is_bin && let Some(parent) = dir.parent() {
            roots.push(parent.to_path_buf());
        }
    }
    roots
}

/// The interpreter named by a script's `#!` line (`#!/usr/bin/env python3`
/// gives the `python3` on `PATH`).
fn interpreter_of(script: &Path, env: &[(String, String)]) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(script).ok()?.read(&mut head).ok()?;
    let line = std::str::from_utf8(head.get(..n)?)
        .ok()?
        .strip_prefix("#!")?
        .lines()
        .next()?;
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if first.ends_with("/env") {
        let name = words.find(|w| !w.starts_with('-'))?;
        find_on_path(name, env)
    } else {
        Some(PathBuf::from(first))
    }
}

/// What a Python interpreter reads, asked of it with the child's
/// environment; nothing when it fails or takes too long.
async fn ask_python(python: &Path, env: &[(String, String)]) -> Vec<PathBuf> {
    let run = tokio::process::Command::new(python)
        .args(["-c", PYTHON_QUERY])
        .current_dir("/")
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let Ok(Ok(output)) = tokio::time::timeout(QUERY_TIMEOUT, run).await else {
        return Vec::new();
    };
    if !output.status.success() {
        return Vec::new();
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(PathBuf::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etc_is_readable_but_not_its_secrets() {
        let dir = tempfile::tempdir().unwrap();
        let etc = dir.path();
        for name in ["hosts", "shadow", "ssl/certs/ca.pem", "ssl/private/key.pem"] {
            let path = etc.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let secrets = [etc.join("shadow"), etc.join("ssl/private")];
        let mut out = Vec::new();
        beneath_except(etc, &secrets, &mut out);
        out.sort();
        assert_eq!(out, [etc.join("hosts"), etc.join("ssl/certs")]);
    }

    #[test]
    fn an_installation_is_never_home_or_above_the_workspace() {
        let home = tempfile::tempdir().unwrap();
        let ws = home.path().join("project");
        let pyenv = home.path().join(".pyenv");
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(&pyenv).unwrap();
        assert!(allowed(&pyenv, Some(home.path()), &ws));
        assert!(!allowed(home.path(), Some(home.path()), &ws));
        assert!(!allowed(Path::new("/"), Some(home.path()), &ws));
        assert!(!allowed(&ws, None, &ws));
        assert!(!allowed(Path::new("relative"), None, &ws));
    }

    #[test]
    fn the_root_of_a_program_is_above_its_bin() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("venv/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("pytest"), "#!/x/python3\n").unwrap();
        let roots = install_roots(&bin.join("pytest"));
        assert!(roots.contains(&dir.path().join("venv")), "{roots:?}");
        assert_eq!(
            interpreter_of(&bin.join("pytest"), &[]),
            Some(PathBuf::from("/x/python3"))
        );
    }
}
