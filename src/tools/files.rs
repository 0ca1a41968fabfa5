//! `list_dir`, `read_file` and `write_file`.

use std::io::{Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::paths::{self, OFF_LIMITS};
use crate::state::{ActionOutcome, FileChange};

/// Entries `list_dir` shows; a model rarely needs more and a huge folder
/// would fill the prompt.
const LIST_CAP: usize = 200;

pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::guard::hex(&Sha256::digest(bytes))
}

fn refused(error: String) -> ActionOutcome {
    ActionOutcome {
        ok: false,
        result: format!("Error: {error}"),
        error: Some(error),
        ..ActionOutcome::default()
    }
}

pub fn list_dir(root: &Path, given: &str) -> ActionOutcome {
    let dir = match paths::resolve(root, given) {
        Ok(dir) => dir,
        Err(e) => return refused(e),
    };
    let entries = match fs_err::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) => return refused(format!("cannot list {given}: {}", plain(&e))),
    };
    let mut lines: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| !OFF_LIMITS.iter().any(|off| entry.file_name() == *off))
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            match entry.metadata() {
                Ok(meta) if meta.is_dir() => format!("{name}/"),
                Ok(meta) => format!("{name} ({} bytes)", meta.len()),
                Err(_) => name,
            }
        })
        .collect();
    lines.sort();
    let total = lines.len();
    lines.truncate(LIST_CAP);
    if total > LIST_CAP {
        lines.push(format!("... and {} more", total - LIST_CAP));
    }
    let shown = paths::display(root, &dir);
    let shown = if shown.is_empty() {
        ".".to_string()
    } else {
        shown
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
    let path = match paths::resolve(root, given) {
        Ok(path) => path,
        Err(e) => return refused(e),
    };
    let read = || -> std::io::Result<(Vec<u8>, u64)> {
        let file = fs_err::File::open(&path)?;
        let size = file.metadata()?.len();
        let mut bytes = Vec::new();
        file.take(max_bytes as u64).read_to_end(&mut bytes)?;
        Ok((bytes, size))
    };
    let (bytes, size) = match read() {
        Ok(read) => read,
        Err(e) => return refused(format!("cannot read {given}: {}", plain(&e))),
    };
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return ActionOutcome {
            ok: true,
            result: format!("{given} is a binary file of {size} bytes; it is not shown"),
            ..ActionOutcome::default()
        };
    }
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if size > bytes.len() as u64 {
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
        ..ActionOutcome::default()
    }
}

pub fn write_file(root: &Path, given: &str, content: &str, create_dirs: bool) -> ActionOutcome {
    let path = match paths::resolve(root, given) {
        Ok(path) => path,
        Err(e) => return refused(e),
    };
    let shown = paths::display(root, &path);
    if shown.is_empty() || path.is_dir() {
        return refused(format!("{given} is a folder; give the path of a file"));
    }
    let before = match fs_err::read(&path) {
        Ok(bytes) => Some(sha256_hex(&bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return refused(format!("cannot write {given}: {}", plain(&e))),
    };
    if let Some(parent) = path.parent()
        && !parent.exists()
    {
        if !create_dirs {
            return refused(format!(
                "the folder of {given} does not exist; pass create_dirs=true to create it"
            ));
        }
        if let Err(e) = fs_err::create_dir_all(parent) {
            return refused(format!(
                "cannot create the folder of {given}: {}",
                plain(&e)
            ));
        }
    }
    if let Err(e) = replace(&path, content.as_bytes()) {
        return refused(format!("cannot write {given}: {}", plain(&e)));
    }
    let after = sha256_hex(content.as_bytes());
    let unchanged = before.as_deref() == Some(after.as_str());
    let result = if unchanged {
        format!(
            "{shown} already had this content ({} bytes); nothing changed",
            content.len()
        )
    } else {
        format!("Wrote {} bytes to {shown}", content.len())
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

/// Writes a temp file beside `path` and renames it over `path`, so a reader
/// never sees half a file and a hardlink at `path` is replaced, not written
/// through. Keeps the permissions of the file it replaces.
fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.runner-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs_err::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        file.write_all(bytes)?;
        if let Ok(meta) = fs_err::metadata(path) {
            file.file().set_permissions(meta.permissions())?;
        }
        fs_err::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
    fn a_missing_folder_needs_create_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let refused = write_file(&root, "a/b.py", "x", false);
        assert!(!refused.ok);
        assert!(refused.result.contains("create_dirs"), "{}", refused.result);
        assert!(!root.join("a").exists());
    }
}
