//! `runner diff`: what the run changed, as a unified diff of each file the
//! runner wrote, from its content before the run (a blob, or nothing for a
//! file the runner created) to the file as it is now.

use std::path::Path;

use similar::TextDiff;

use super::timeline::Timeline;
use super::{Paint, read_records};
use crate::error::{AppError, Exit};
use crate::store::Paths;
use crate::store::blobs::{self, sha256_hex};
use crate::tools::workspace as files;

/// Lines of context around a change, as `diff -u` and git show.
const CONTEXT_LINES: usize = 3;

/// Prints the diff of the files the runner wrote (of `only`, when given).
pub fn diff(workspace: &Path, only: &[String]) -> Result<Exit, AppError> {
    let store_paths = Paths::new(workspace);
    if let Some(outside) = only.iter().find(|path| !inside(workspace, path)) {
        return Err(AppError::Usage(format!(
            "{outside} is outside the workspace {}: `runner diff` shows the files the run \
             wrote there; give paths relative to it",
            workspace.display()
        )));
    }
    let (records, warning) = read_records(&store_paths.history())?;
    if let Some(warning) = warning {
        crate::paint::warning(&warning);
    }
    if records.is_empty() {
        crate::outln!("No run in {}: nothing to compare.", workspace.display());
        return Ok(Exit::Achieved);
    }
    let wanted = |path: &str| {
        only.is_empty()
            || only
                .iter()
                .any(|o| o.trim_start_matches("./").trim_end_matches('/') == path)
    };
    let paint = Paint::stdout();
    let mut shown = 0;
    for (path, history) in Timeline::new(&records).files {
        if !wanted(&path) {
            continue;
        }
        let now = files::read(workspace, &path).ok().flatten();
        if history.first.as_deref() == now.as_deref().map(sha256_hex).as_deref() {
            continue;
        }
        let before = match &history.first {
            None => None,
            Some(sha256) => match blobs::read(&store_paths, sha256) {
                Ok(Some(bytes)) => Some(bytes),
                _ => {
                    crate::outln!("{path}: changed, but its content before the run was not kept");
                    shown += 1;
                    continue;
                }
            },
        };
        crate::out!(
            "{}",
            render_diff(&path, before.as_deref(), now.as_deref(), &paint)
        );
        shown += 1;
    }
    if shown == 0 {
        crate::outln!("The run changed no files (or they are back as they were).");
    }
    Ok(Exit::Achieved)
}

/// Whether `path` (relative to the workspace, or absolute) names a place in it.
fn inside(workspace: &Path, path: &str) -> bool {
    let path = Path::new(path);
    if path.is_absolute() {
        return path.starts_with(workspace);
    }
    let mut depth: i32 = 0;
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => depth -= 1,
            std::path::Component::Normal(_) => depth += 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// A unified diff of one file; `None` is a file that does not exist.
pub fn render_diff(
    path: &str,
    before: Option<&[u8]>,
    after: Option<&[u8]>,
    paint: &Paint,
) -> String {
    let old_name = before.map_or("/dev/null".to_string(), |_| format!("a/{path}"));
    let new_name = after.map_or("/dev/null".to_string(), |_| format!("b/{path}"));
    let text = |bytes: Option<&[u8]>| -> Option<String> {
        match bytes {
            None => Some(String::new()),
            Some(bytes) if bytes.contains(&0) => None,
            Some(bytes) => String::from_utf8(bytes.to_vec()).ok(),
        }
    };
    let (Some(old), Some(new)) = (text(before), text(after)) else {
        return format!(
            "{}\nBinary file {path} changed ({} → {} bytes)\n",
            paint.bold.apply_to(format!("diff {old_name} {new_name}")),
            before.map_or(0, <[u8]>::len),
            after.map_or(0, <[u8]>::len),
        );
    };
    let diff = TextDiff::from_lines(&old, &new);
    let unified = diff
        .unified_diff()
        .context_radius(CONTEXT_LINES)
        .header(&old_name, &new_name)
        .to_string();
    let mut out = String::new();
    for line in unified.split_inclusive('\n') {
        let styled = if line.starts_with("---") || line.starts_with("+++") {
            paint.bold.apply_to(line)
        } else if line.starts_with('+') {
            paint.ok.apply_to(line)
        } else if line.starts_with('-') {
            paint.bad.apply_to(line)
        } else if line.starts_with("@@") {
            paint.dim.apply_to(line)
        } else {
            console::Style::new().apply_to(line)
        };
        out.push_str(&styled.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_a_creation_and_a_binary_file() {
        let plain = Paint::new(false);
        let changed = render_diff(
            "a.py",
            Some(b"x = 1\ny = 2\n"),
            Some(b"x = 1\ny = 3\n"),
            &plain,
        );
        assert_eq!(
            changed,
            "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"
        );
        let created = render_diff("new.py", None, Some(b"print(1)\n"), &plain);
        assert_eq!(
            created,
            "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+print(1)\n"
        );
        let binary = render_diff("b.bin", Some(b"\0\x01"), Some(b"\0"), &plain);
        assert_eq!(
            binary,
            "diff a/b.bin b/b.bin\nBinary file b.bin changed (2 → 1 bytes)\n"
        );
    }
}
