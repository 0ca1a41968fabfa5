//! `list_dir`, `read_file` and `write_file`.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::confined::{Kind, resolve};
use super::paths::{self, PathError};
use crate::state::{ActionOutcome, FileChange, SeenFile};

/// Entries `list_dir` shows; a model rarely needs more and a huge folder
/// would fill the prompt.
const LIST_CAP: usize = 200;

pub use crate::digest::sha256_hex;

/// The message for a path that was not resolved.
fn path_refusal(given: &str, error: PathError, create_dirs: Option<bool>) -> String {
    match error {
        PathError::Refused(message) => message,
        PathError::MissingFolder if create_dirs == Some(false) => {
            format!("the folder of {given} does not exist; pass create_dirs=true to create it")
        }
        PathError::MissingFolder => format!("{given}: no such file or folder"),
        PathError::Io(e) => format!("{given}: {}", plain(&e)),
    }
}

pub fn list_dir(root: &Path, given: &str) -> ActionOutcome {
    let dir = match resolve(root, given, false) {
        Ok(dir) => dir,
        Err(e) => return ActionOutcome::refused(path_refusal(given, e, None)),
    };
    let entries = match dir.list() {
        Ok(entries) => entries,
        Err(e) => return ActionOutcome::refused(format!("cannot list {given}: {}", plain(&e))),
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
        Err(e) => return ActionOutcome::refused(path_refusal(given, e, None)),
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
        Err(e) => return ActionOutcome::refused(format!("cannot read {given}: {}", plain(&e))),
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
/// `a.py`), `None` when it is refused.
pub fn shown_path(root: &Path, given: &str) -> Option<String> {
    resolve(root, given, false)
        .ok()
        .map(|target| target.shown().to_string())
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
    let target = resolve(root, given, true).map_err(|e| path_refusal(given, e, Some(true)))?;
    target.replace(bytes).map_err(|e| e.to_string())
}

/// Removes a workspace file; `Err` says why not.
pub fn remove(root: &Path, given: &str) -> Result<(), String> {
    let target = resolve(root, given, false).map_err(|e| path_refusal(given, e, None))?;
    target.remove().map_err(|e| e.to_string())
}

/// The bytes of a workspace file: `Err` when the path is refused,
/// `Ok(None)` when it does not exist.
pub fn read(root: &Path, given: &str) -> Result<Option<Vec<u8>>, String> {
    let target = resolve(root, given, false).map_err(|e| path_refusal(given, e, None))?;
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

pub fn write_file(root: &Path, given: &str, content: &str, create_dirs: bool) -> ActionOutcome {
    let target = match resolve(root, given, create_dirs) {
        Ok(target) => target,
        Err(e) => return ActionOutcome::refused(path_refusal(given, e, Some(create_dirs))),
    };
    let shown = target.shown().to_string();
    match target.kind() {
        Ok(Some(Kind::Dir)) => {
            return ActionOutcome::refused(format!("{given} is a folder; give the path of a file"));
        }
        Ok(Some(Kind::Other)) => {
            return ActionOutcome::refused(format!(
                "{given} is not a regular file (a device, socket or FIFO); it is not written"
            ));
        }
        Ok(_) => {}
        Err(e) => return ActionOutcome::refused(format!("cannot write {given}: {}", plain(&e))),
    }
    let mut old = None;
    let before = match target.open_file() {
        Ok(mut file) => {
            let mut bytes = Vec::new();
            match file.read_to_end(&mut bytes) {
                Ok(_) => {
                    let hash = sha256_hex(&bytes);
                    old = Some(bytes);
                    Some(hash)
                }
                Err(e) => {
                    return ActionOutcome::refused(format!("cannot write {given}: {}", plain(&e)));
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return ActionOutcome::refused(format!("cannot write {given}: {}", plain(&e))),
    };
    if let Err(e) = target.replace(content.as_bytes()) {
        return ActionOutcome::refused(format!("cannot write {given}: {}", plain(&e)));
    }
    let after = sha256_hex(content.as_bytes());
    let unchanged = before.as_deref() == Some(after.as_str());
    let result = if unchanged {
        format!(
            "{shown} already had this content ({} bytes); nothing changed",
            content.len()
        )
    } else {
        let removed = old
            .as_deref()
            .map(|old| removed(&shown, old, content))
            .unwrap_or_default();
        format!("Wrote {} bytes to {shown}{removed}", content.len())
    };
    ActionOutcome {
        ok: true,
        result,
        write: Some(FileChange {
            path: shown,
            before,
            after,
            bytes: content.len() as u64,
        }),
        ..ActionOutcome::default()
    }
}

/// What a write took out of the previous content, for the model to see
/// what it lost: `; it removed N lines ...`, or nothing when no line went.
fn removed(path: &str, old: &[u8], new: &str) -> String {
    let old = String::from_utf8_lossy(old);
    let diff = similar::TextDiff::from_lines(old.as_ref(), new);
    let gone: Vec<&str> = diff
        .iter_all_changes()
        .filter(|change| change.tag() == similar::ChangeTag::Delete)
        .map(|change| change.value())
        .collect();
    if gone.is_empty() {
        return String::new();
    }
    let definitions = removed_definitions(path, &old, new);
    let named = if definitions.is_empty() {
        String::new()
    } else {
        format!(
            ", and these definitions are gone: {}",
            definitions.join(", ")
        )
    };
    format!(
        "; it removed {} line(s) of the previous content (first: {:?}){named}",
        gone.len(),
        gone[0].trim_end()
    )
}

/// The definitions (functions, classes) of `old` that `new` no longer has.
/// Empty until a `crate::lang::Language` registry exists in this branch:
/// this is where `Language::definitions` of both versions plugs in.
fn removed_definitions(_path: &str, _old: &str, _new: &str) -> Vec<String> {
    Vec::new()
}

/// An I/O error without the path fs-err adds (the model knows the path).
fn plain(error: &std::io::Error) -> String {
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
    fn write_then_read_then_list() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let wrote = write_file(&root, "pkg/hello.py", "print('hi')\n", true);
        assert!(wrote.ok, "{}", wrote.result);
        let change = wrote.write.unwrap();
        assert_eq!(change.path, "pkg/hello.py");
        assert_eq!(change.before, None);
        assert_eq!(change.after, sha256_hex(b"print('hi')\n"));

        let again = write_file(&root, "pkg/hello.py", "print('hi')\n", true);
        assert!(!again.write.unwrap().changed());

        assert_eq!(
            read_file(&root, "pkg/hello.py", 100).result,
            "print('hi')\n"
        );
        assert!(
            read_file(&root, "pkg/hello.py", 5)
                .result
                .contains("[truncated")
        );
        assert_eq!(list_dir(&root, "pkg").result, "pkg:\nhello.py (12 bytes)");
        assert!(!read_file(&root, "nope.py", 10).ok);
    }

    #[test]
    fn a_write_says_what_it_removed_and_a_whole_read_is_seen() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("calc.py"), "def add():\n    pass\nx = 1\n").unwrap();
        let read = read_file(&root, "./calc.py", 1000);
        let seen = read.seen.unwrap();
        assert_eq!(seen.path, "calc.py");
        assert_eq!(seen.sha256, sha256_hex(b"def add():\n    pass\nx = 1\n"));
        assert_eq!(
            read_file(&root, "calc.py", 5).seen,
            None,
            "a cut read is not seen"
        );
        let wrote = write_file(&root, "calc.py", "x = 1\n", false);
        assert!(
            wrote
                .result
                .ends_with("removed 2 line(s) of the previous content (first: \"def add():\")"),
            "{}",
            wrote.result
        );
        let more = write_file(&root, "calc.py", "x = 1\ny = 2\n", false);
        assert_eq!(more.result, "Wrote 12 bytes to calc.py");
    }

    #[test]
    fn a_missing_folder_needs_create_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let refused = write_file(&root, "a/b.py", "x", false);
        assert!(!refused.ok);
        assert!(refused.result.contains("create_dirs"), "{}", refused.result);
        assert!(!root.join("a").exists());
    }
}
