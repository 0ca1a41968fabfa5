//! The environment of a command: rebuilt from an allowlist, never a secret.

/// Variables a build needs, passed on when the runner has them.
const ALLOWED: [&str; 7] = [
    "PATH",
    "HOME",
    "LANG",
    "TERM",
    "TMPDIR",
    "VIRTUAL_ENV",
    "SYSTEMROOT",
];
/// A variable whose name holds one of these is never passed on, even when
/// allowed (`LC_API_TOKEN`).
const SECRET_WORDS: [&str; 5] = ["KEY", "SECRET", "TOKEN", "PASSWORD", "CREDENTIAL"];

/// Whether a variable of the runner's environment reaches its commands.
/// `LD_PRELOAD`, `PYTHONPATH`, `PYTHONSTARTUP`, `PYTEST_ADDOPTS` and the
/// like are not on the list, so they never do.
pub fn passes(name: &str) -> bool {
    let allowed = ALLOWED.contains(&name) || name.starts_with("LC_");
    let upper = name.to_ascii_uppercase();
    allowed && !SECRET_WORDS.iter().any(|s| upper.contains(s))
}

/// The child's environment from the runner's, with `TMPDIR` pointing at
/// the command's own temp folder when there is one, and Python told to
/// write no bytecode: a cached `.pyc` is trusted when its source has the
/// same size and modification second, and the runner rewrites a file
/// within a second, to the same size as often as not (a fixed
/// `return` for a `print` of as many bytes ran the old code), and a
/// command leaves no `__pycache__` in the user's project.
pub fn child_env(tmp: Option<&std::path::Path>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(name, _)| passes(name) && !(tmp.is_some() && name == "TMPDIR"))
        .collect();
    if let Some(tmp) = tmp {
        env.push(("TMPDIR".into(), tmp.to_string_lossy().into_owned()));
    }
    env.push(("PYTHONDONTWRITEBYTECODE".into(), "1".into()));
    env
}

/// Whether `program` is a file in a folder of the runner's `PATH`.
/// Where the runner makes its temp folders (the commands' TMPDIR, the
/// languages' scratch folders): the system's, from TMPDIR, when that is an
/// absolute path to a folder; else the platform's default. A relative or
/// missing TMPDIR (one set for another working directory) would make every
/// temp folder fail, and with them the languages' review of each write.
pub fn temp_root() -> std::path::PathBuf {
    static ROOT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let given = std::env::temp_dir();
        let root = usable_temp(given.clone());
        if root != given {
            tracing::warn!(
                tmpdir = %given.display(),
                instead = %root.display(),
                "TMPDIR is not an absolute path to a folder"
            );
        }
        root
    })
    .clone()
}

/// `given` when it is an absolute path to a folder, else the default.
fn usable_temp(given: std::path::PathBuf) -> std::path::PathBuf {
    if (given.is_absolute() && given.is_dir()) || cfg!(not(unix)) {
        return given;
    }
    std::path::PathBuf::from("/tmp")
}

pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_relative_or_missing_temp_folder_gives_way_to_the_default() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(usable_temp(dir.path().into()), dir.path());
        let default = std::path::PathBuf::from("/tmp");
        assert_eq!(usable_temp("target/eval/tmp".into()), default);
        assert_eq!(usable_temp(dir.path().join("gone")), default);
    }

    #[test]
    fn commands_write_no_bytecode() {
        let env = child_env(None);
        assert!(env.contains(&("PYTHONDONTWRITEBYTECODE".into(), "1".into())));
    }

    #[test]
    fn only_the_allowlist_passes_and_never_a_secret() {
        for name in [
            "PATH",
            "HOME",
            "LANG",
            "LC_ALL",
            "TERM",
            "TMPDIR",
            "VIRTUAL_ENV",
        ] {
            assert!(passes(name), "{name}");
        }
        for name in [
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "LD_PRELOAD",
            "LD_LIBRARY_PATH",
            "PYTHONSTARTUP",
            "PYTHONPATH",
            "PYTEST_ADDOPTS",
            "LC_API_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "path",
        ] {
            assert!(!passes(name), "{name}");
        }
    }
}
