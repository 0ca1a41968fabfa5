//! Path confinement: every path the model gives is resolved inside the
//! workspace, component by component, following symlinks only while they
//! stay inside.

use std::path::{Component, Path, PathBuf};

/// Folders the model may never touch: the runner's own state and git's.
pub const OFF_LIMITS: [&str; 2] = [".agent_context", ".git"];

/// Resolves `given` (relative to the workspace, or absolute inside it) to a
/// path inside `root`. `root` must be canonical. `Err` is the message for
/// the model.
pub fn resolve(root: &Path, given: &str) -> Result<PathBuf, String> {
    if given.contains('\0') {
        return Err("the path contains a NUL byte".to_string());
    }
    let given_path = Path::new(given.trim());
    let relative = if given_path.is_absolute() {
        given_path.strip_prefix(root).map_err(|_| {
            format!("{given} is outside the workspace: use a path relative to the workspace")
        })?
    } else {
        given_path
    };
    let mut resolved = root.to_path_buf();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if resolved == root || !resolved.pop() {
                    return Err(format!("{given} leads outside the workspace"));
                }
            }
            Component::Normal(name) => {
                if OFF_LIMITS.iter().any(|off| name == *off) {
                    return Err(format!(
                        "{given} is inside {}, which belongs to the runner or to git and is off limits",
                        name.to_string_lossy()
                    ));
                }
                resolved.push(name);
                if let Ok(meta) = resolved.symlink_metadata()
                    && meta.file_type().is_symlink()
                {
                    let target = resolved
                        .canonicalize()
                        .map_err(|_| format!("{given} goes through a broken symlink"))?;
                    if !target.starts_with(root) {
                        return Err(format!(
                            "{given} goes through a symlink that leads outside the workspace"
                        ));
                    }
                    if target
                        .strip_prefix(root)
                        .ok()
                        .and_then(|rest| rest.components().next())
                        .is_some_and(|first| OFF_LIMITS.iter().any(|off| first.as_os_str() == *off))
                    {
                        return Err(format!("{given} leads into a folder that is off limits"));
                    }
                    resolved = target;
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("{given} is not a path inside the workspace"));
            }
        }
    }
    Ok(resolved)
}

/// The path relative to the workspace, with `/`, for messages and the log.
pub fn display(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        assert_eq!(resolve(&root, "a/b.py").unwrap(), root.join("a/b.py"));
        assert_eq!(resolve(&root, "./a/../b.py").unwrap(), root.join("b.py"));
        let inside = root.join("c.py");
        assert_eq!(resolve(&root, inside.to_str().unwrap()).unwrap(), inside);
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            ".agent_context/state.json",
            ".git/hooks/pre-commit",
            "a\0b",
        ] {
            assert!(resolve(&root, bad).is_err(), "{bad} was let through");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_leading_outside_is_refused_at_any_component() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        std::fs::create_dir(root.join("in")).unwrap();
        std::os::unix::fs::symlink(root.join("in"), root.join("alias")).unwrap();
        assert!(resolve(&root, "out/new.py").is_err());
        assert!(resolve(&root, "out").is_err());
        assert_eq!(resolve(&root, "alias/x.py").unwrap(), root.join("in/x.py"));
    }
}
