//! `list_dir`, `read_file`, and the confined file operations the other
//! tools and the runner's own commands share.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::confined::{Kind, resolve};
use super::paths::{self, PathError};
use crate::state::{ActionOutcome, RefusalKind, SeenFile};

/// Entries `list_dir` shows; a model rarely needs more and a huge folder
/// would fill the prompt.
const LIST_CAP: usize = 200;

pub use crate::digest::sha256_hex;

/// The message for a path that was not resolved.
pub(super) fn path_refusal(
    given: &str,
    error: PathError,
    create_dirs: Option<bool>,
) -> ActionOutcome {
    match path_error(given, error, create_dirs) {
        (Some(kind), message) => ActionOutcome::refused(kind, message),
        (None, message) => ActionOutcome::failed(message),
    }
}

/// A file or folder that could not be opened: a refusal when it does not
/// exist, a failure otherwise.
fn io_refusal(what: &str, given: &str, error: &std::io::Error) -> ActionOutcome {
    let message = format!("{what} {given}: {}", plain(error));
    match error.kind() {
        std::io::ErrorKind::NotFound => ActionOutcome::refused(RefusalKind::NoSuchPath, message),
        _ => ActionOutcome::failed(message),
    }
}

/// What a path that did not resolve is told as: the kind of refusal (none
/// when the system failed) and the message for the model.
fn path_error(
    given: &str,
    error: PathError,
    create_dirs: Option<bool>,
) -> (Option<RefusalKind>, String) {
    match error {
        PathError::Refused(message) => (Some(RefusalKind::PathRefused), message),
        PathError::MissingFolder if create_dirs == Some(false) => (
            Some(RefusalKind::NoSuchPath),
            format!("the folder of {given} does not exist; pass create_dirs=true to create it"),
        ),
        PathError::MissingFolder => (
            Some(RefusalKind::NoSuchPath),
            format!("{given}: no such file or folder"),
        ),
        PathError::Io(e) => (None, format!("{given}: {}", plain(&e))),
    }
}

pub fn list_dir(root: &Path, given: &str) -> ActionOutcome {
    let dir = match resolve(root, given, false) {
        Ok(dir) => dir,
        Err(e) => return path_refusal(given, e, None),
    };
    let entries = match dir.list() {
        Ok(entries) => entries,
        Err(e) => return io_refusal("cannot list", given, &e),
    };
    let mut lines: Vec<String> = entries
        .into_iter()
        .filter(|entry| !paths::is_off_limits(&entry.name))
        .map(|entry| {
            let name = entry.name.to_string_lossy().into_owned();
            match entry.kind {
                Kind::Dir => format!("{name}/"),
                Kind::Symlink => format!("{name} (symlink)"),
                _ => format!("{name} ({} bytes)", entry.len),
            }
        })
        .collect();
    lines.sort();
    let total = lines.len();
    lines.truncate(LIST_CAP);
    if total > LIST_CAP {
        lines.push(format!("... and {} more", total - LIST_CAP));
    }
    let shown = match dir.shown() {
        "" => ".",
        shown => shown,
    };
    let result = if total == 0 {
        format!("{shown} is empty")
    } else {
        format!("{shown}:\n{}", lines.join("\n"))
    };
    ActionOutcome {
        ok: true,
        result,
        ..ActionOutcome::default()
    }
}

pub fn read_file(root: &Path, given: &str, max_bytes: usize) -> ActionOutcome {
    let target = match resolve(root, given, false) {
        Ok(target) => target,
        Err(e) => return path_refusal(given, e, None),
    };
    let read = || -> std::io::Result<(Vec<u8>, u64)> {
        let file = target.open_file()?;
        let size = file.metadata()?.len();
        let mut bytes = Vec::new();
        file.take(max_bytes as u64).read_to_end(&mut bytes)?;
        Ok((bytes, size))
    };
    let (bytes, size) = match read() {
        Ok(read) => read,
        Err(e) => return io_refusal("cannot read", given, &e),
    };
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return ActionOutcome {
            ok: true,
            result: format!("{given} is a binary file of {size} bytes; it is not shown"),
            ..ActionOutcome::default()
        };
    }
    let whole = size == bytes.len() as u64;
    let seen = whole.then(|| {
        Box::new(SeenFile {
            path: target.shown().to_string(),
            sha256: sha256_hex(&bytes),
        })
    });
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if !whole {
        text.push_str(&format!(
            "\n[truncated: showed the first {} of {size} bytes; pass a larger max_bytes to see more]",
            bytes.len()
        ));
    }
    if text.is_empty() {
        text = format!("{given} is empty");
    }
    ActionOutcome {
        ok: true,
        result: text,
        seen,
        ..ActionOutcome::default()
    }
}

/// The path of a workspace file as the tools name it (`./a.py` is
/// `a.py`), `None` when it is refused. One in a folder that is not there
/// yet is named by its words (`tests/./t.py` is `tests/t.py`): o1's
/// add-tests edited `tests/test_inventory.py`, the file its subtask
/// writes, before `tests/` was made, and the edit was not taken as the
/// write.
pub fn shown_path(root: &Path, given: &str) -> Option<String> {
    match resolve(root, given, false) {
        Ok(target) => Some(target.shown().to_string()),
        Err(PathError::MissingFolder) => {
            let names = paths::steps(root, given)
                .ok()?
                .into_iter()
                .map(|step| match step {
                    paths::Step::Name(name) => name.into_string().ok(),
                    paths::Step::Up => None,
                })
                .collect::<Option<Vec<String>>>()?;
            Some(names.join("/"))
        }
        Err(_) => None,
    }
}

/// The bytes of a workspace file now, `None` when it does not exist or
/// cannot be read (used to reconcile an interrupted write).
pub fn contents(root: &Path, given: &str) -> Option<Vec<u8>> {
    let file = resolve(root, given, false).ok()?.open_file().ok()?;
    let mut bytes = Vec::new();
    { file }.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// A workspace file as text in at most about `max` bytes: whole when it
/// fits, else its head and tail around a "[... N bytes cut ...]" line (as
/// `state::head_and_tail` cuts text), read without loading the rest. `None`
/// when it cannot be read or is not UTF-8.
pub fn excerpt(root: &Path, given: &str, max: usize) -> Option<String> {
    let mut file = resolve(root, given, false).ok()?.open_file().ok()?;
    let len = usize::try_from(file.metadata().ok()?.len()).ok()?;
    if len <= max {
        let mut bytes = Vec::with_capacity(len);
        file.read_to_end(&mut bytes).ok()?;
        return String::from_utf8(bytes).ok();
    }
    let half = max / 2;
    let mut head = vec![0; half];
    file.read_exact(&mut head).ok()?;
    let mut tail = vec![0; half];
    file.seek(SeekFrom::Start((len - half) as u64)).ok()?;
    file.read_exact(&mut tail).ok()?;
    // A character cut at either end is left out.
    let head = match std::str::from_utf8(&head) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    let start = tail
        .iter()
        .take(3)
        .take_while(|b| **b & 0xC0 == 0x80)
        .count();
    let tail = std::str::from_utf8(&tail[start..]).ok()?;
    Some(format!(
        "{head}\n[... {} bytes cut ...]\n{tail}",
        len - head.len() - tail.len()
    ))
}

/// Replaces a workspace file with `bytes` (temp file and rename), creating
/// missing folders; `Err` says why not.
pub fn replace(root: &Path, given: &str, bytes: &[u8]) -> Result<(), String> {
    let target = resolve(root, given, true).map_err(|e| path_error(given, e, Some(true)).1)?;
    target.replace(bytes).map_err(|e| e.to_string())
}

/// Removes a workspace file; `Err` says why not.
pub fn remove(root: &Path, given: &str) -> Result<(), String> {
    let target = resolve(root, given, false).map_err(|e| path_error(given, e, None).1)?;
    target.remove().map_err(|e| e.to_string())
}

/// The bytes of a workspace file: `Err` when the path is refused,
/// `Ok(None)` when it does not exist.
pub fn read(root: &Path, given: &str) -> Result<Option<Vec<u8>>, String> {
    let target = resolve(root, given, false).map_err(|e| path_error(given, e, None).1)?;
    match target.kind() {
        Ok(None) => return Ok(None),
        Ok(Some(_)) => {}
        Err(e) => return Err(e.to_string()),
    }
    let mut bytes = Vec::new();
    target
        .open_file()
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    Ok(Some(bytes))
}

/// Removes what an interrupted `write_file` of `given` left beside it.
pub fn remove_stale_temps(root: &Path, given: &str) {
    if let Ok(target) = resolve(root, given, false) {
        let _ = target.remove_stale_temps();
    }
}

/// Whether a workspace path exists.
pub fn exists(root: &Path, given: &str) -> bool {
    resolve(root, given, false)
        .and_then(|t| t.kind().map_err(PathError::Io))
        .is_ok_and(|kind| kind.is_some())
}

/// An I/O error without the path fs-err adds (the model knows the path).
pub(super) fn plain(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => error
            .get_ref()
            .and_then(|inner| inner.source())
            .map(|source| source.to_string())
            .unwrap_or_else(|| error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_cuts_as_head_and_tail_does_without_reading_the_middle() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let text = format!("é{}ü", "x".repeat(10_000));
        std::fs::write(root.join("big.txt"), &text).unwrap();
        for max in [9, 10, 11, 200] {
            assert_eq!(
                excerpt(&root, "big.txt", max).unwrap(),
                crate::state::head_and_tail(&text, max),
                "max {max}"
            );
        }
        assert_eq!(excerpt(&root, "big.txt", 20_000).unwrap(), text);
        std::fs::write(root.join("bin"), [0xff, 0xfe]).unwrap();
        assert_eq!(excerpt(&root, "bin", 100), None);
        assert_eq!(excerpt(&root, "missing", 100), None);
    }

    #[test]
    fn a_path_in_a_folder_not_made_yet_is_named_by_its_words() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        let shown = |given: &str| shown_path(&root, given);
        assert_eq!(shown("./src/a.py").as_deref(), Some("src/a.py"));
        assert_eq!(shown("tests/./t.py").as_deref(), Some("tests/t.py"));
        assert_eq!(
            shown("tests/deeper/t.py").as_deref(),
            Some("tests/deeper/t.py")
        );
        assert_eq!(shown("tests/../../t.py"), None);
        assert_eq!(shown(".git/x"), None);
    }
}
