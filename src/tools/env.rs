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
/// the command's own temp folder when there is one.
pub fn child_env(tmp: Option<&std::path::Path>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(name, _)| passes(name) && !(tmp.is_some() && name == "TMPDIR"))
        .collect();
    if let Some(tmp) = tmp {
        env.push(("TMPDIR".into(), tmp.to_string_lossy().into_owned()));
    }
    env
}

/// Whether `program` is a file in a folder of the runner's `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
