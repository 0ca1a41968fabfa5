//! Path confinement: every path the model gives names something inside the
//! workspace, or it is refused with a message the model can act on.
//!
//! The lexical checks (NUL bytes, absolute paths, the off-limits folders)
//! are here; the resolution itself walks the path one component at a time
//! from a handle on the workspace (`confined`), so a symlink is never
//! followed by the kernel and one swapped in during the call cannot lead
//! out.

use std::ffi::OsString;
use std::path::{Component, Path};

/// Folders the model may never touch: the runner's own state and git's.
pub const OFF_LIMITS: [&str; 2] = [".agent_context", ".git"];

/// Symlinks one path may go through before it is refused as a loop.
pub const MAX_SYMLINKS: usize = 40;

/// Why a path was not resolved.
#[derive(Debug)]
pub enum PathError {
    /// The path is not allowed; the message is for the model.
    Refused(String),
    /// A folder on the way does not exist (and was not to be created).
    MissingFolder,
    /// The disk said no.
    Io(std::io::Error),
}

impl From<std::io::Error> for PathError {
    fn from(error: std::io::Error) -> PathError {
        PathError::Io(error)
    }
}

/// Whether a top-level name is one of [`OFF_LIMITS`]. Case-insensitive:
/// on macOS and Windows `.GIT` is `.git`.
pub fn is_off_limits(name: &std::ffi::OsStr) -> bool {
    OFF_LIMITS
        .iter()
        .any(|off| name.to_string_lossy().eq_ignore_ascii_case(off))
}

/// A step of a path inside the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Name(OsString),
    Up,
}

/// The steps of `given` from the workspace root, checked lexically:
/// no NUL byte, absolute only inside `root` (which must be canonical).
/// Whether a `..` leaves the workspace is decided while walking.
pub fn steps(root: &Path, given: &str) -> Result<Vec<Step>, PathError> {
    if given.contains('\0') {
        return Err(PathError::Refused(
            "the path contains a NUL byte; give a plain path relative to the workspace".into(),
        ));
    }
    let trimmed = given.trim();
    let path = Path::new(trimmed);
    let relative = if path.is_absolute() {
        path.strip_prefix(root).map_err(|_| {
            PathError::Refused(format!(
                "{given} is outside the workspace: use a path relative to the workspace"
            ))
        })?
    } else {
        path
    };
    steps_of(relative).ok_or_else(|| {
        PathError::Refused(format!(
            "{given} is not a path inside the workspace: use a path relative to the workspace"
        ))
    })
}

/// The steps of a relative path; `None` when it has a root or a prefix.
pub fn steps_of(relative: &Path) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => out.push(Step::Up),
            Component::Normal(name) => out.push(Step::Name(name.to_os_string())),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The refusal for a name inside an off-limits folder.
pub fn off_limits(given: &str, name: &std::ffi::OsStr) -> PathError {
    PathError::Refused(format!(
        "{given} is inside {}, which belongs to the runner or to git and is off limits",
        name.to_string_lossy()
    ))
}

/// The refusal for a path whose `..` or symlink leaves the workspace.
pub fn outside(given: &str, through_link: bool) -> PathError {
    PathError::Refused(if through_link {
        format!("{given} goes through a symlink that leads outside the workspace")
    } else {
        format!("{given} leads outside the workspace")
    })
}

/// Where a symlink's target starts: at the workspace root (an absolute
/// target inside it), or at the folder holding the link. `None` when the
/// target is absolute and outside.
pub fn link_steps(root: &Path, target: &Path) -> Option<(bool, Vec<Step>)> {
    if target.is_absolute() {
        let inside = target.strip_prefix(root).ok()?;
        steps_of(inside).map(|steps| (true, steps))
    } else {
        steps_of(target).map(|steps| (false, steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_checks() {
        let root = Path::new("/w/s");
        assert!(matches!(
            steps(root, "a\0b"),
            Err(PathError::Refused(m)) if m.contains("NUL")
        ));
        assert!(matches!(
            steps(root, "/etc/passwd"),
            Err(PathError::Refused(m)) if m.contains("outside")
        ));
        assert_eq!(
            steps(root, "/w/s/a/./b").unwrap(),
            [Step::Name("a".into()), Step::Name("b".into())]
        );
        assert_eq!(
            steps(root, "../x").unwrap(),
            [Step::Up, Step::Name("x".into())]
        );
        assert!(is_off_limits(".GIT".as_ref()));
        assert!(!is_off_limits(".github".as_ref()));
        assert_eq!(link_steps(root, Path::new("/etc")), None);
        assert_eq!(
            link_steps(root, Path::new("/w/s/in")),
            Some((true, vec![Step::Name("in".into())]))
        );
    }
}
