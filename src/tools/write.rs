//! `write_file`: replaces a workspace file with the whole content given,
//! records the hashes before and after, and says what the previous content
//! lost (see [`super::removal`]).

use std::io::Read;
use std::path::Path;

use super::confined::{Kind, resolve};
use super::files::{path_refusal, plain, sha256_hex};
use super::removal;
use crate::lang::{Languages, newly_ignored, newly_unpassed};
use crate::state::{ActionOutcome, FileChange, RefusalKind};

/// What begins each note of a write's result: what it left unwired.
pub const NOTE: &str = "; note: ";

/// `content` of a whole-file write over `old` (the file's bytes) with the
/// final line break `old` ends with, when it has none: a model's content
/// often drops it, and t1's temp-fix wrote the project's test file back
/// whole with only that changed, which left the file the goal must keep
/// different from what it was. Editors keep a file's last line break the
/// same way.
pub fn keep_final_newline(content: &mut String, old: &[u8]) {
    if old.ends_with(b"\n") && !content.is_empty() && !content.ends_with('\n') {
        content.push('\n');
    }
}

/// Writes `content` to `given`; `languages` name the definitions a
/// rewrite removed (without them, the result counts lines only).
#[cfg(test)]
pub fn write_file(
    root: &Path,
    given: &str,
    content: &str,
    create_dirs: bool,
    languages: Option<&Languages>,
) -> ActionOutcome {
    write_over(root, given, content, create_dirs, languages, None)
}

/// `write_file` over `prior`, the file's bytes as the caller read them
/// (`Some(None)`: there was no file), so that a write reads the file once;
/// `None`: read them here.
pub fn write_over(
    root: &Path,
    given: &str,
    content: &str,
    create_dirs: bool,
    languages: Option<&Languages>,
    prior: Option<Option<Vec<u8>>>,
) -> ActionOutcome {
    let (mut outcome, note) = write_noted(root, given, content, create_dirs, languages, prior);
    outcome.result.push_str(&note);
    outcome
}

/// [`write_over`], and apart from its result what the write left unwired
/// (`; note: no call in greet.py gives ...`), empty when nothing: a caller
/// that words its own result (an edit's) adds it.
pub fn write_noted(
    root: &Path,
    given: &str,
    content: &str,
    create_dirs: bool,
    languages: Option<&Languages>,
    prior: Option<Option<Vec<u8>>>,
) -> (ActionOutcome, String) {
    let alone = |outcome: ActionOutcome| (outcome, String::new());
    let target = match resolve(root, given, create_dirs) {
        Ok(target) => target,
        Err(e) => return alone(path_refusal(given, e, Some(create_dirs))),
    };
    let shown = target.shown().to_string();
    let cannot = |e: &std::io::Error| {
        alone(ActionOutcome::failed(format!(
            "cannot write {given}: {}",
            plain(e)
        )))
    };
    match target.kind() {
        Ok(Some(Kind::Dir)) => {
            return alone(ActionOutcome::refused(
                RefusalKind::NotAFile,
                format!("{given} is a folder; give the path of a file"),
            ));
        }
        Ok(Some(Kind::Other)) => {
            return alone(ActionOutcome::refused(
                RefusalKind::NotAFile,
                format!(
                    "{given} is not a regular file (a device, socket or FIFO); it is not written"
                ),
            ));
        }
        Ok(_) => {}
        Err(e) => return cannot(&e),
    }
    let old = match prior {
        Some(prior) => prior,
        None => match target.open_file() {
            Ok(mut file) => {
                let mut bytes = Vec::new();
                if let Err(e) = file.read_to_end(&mut bytes) {
                    return cannot(&e);
                }
                Some(bytes)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return cannot(&e),
        },
    };
    let before = old.as_deref().map(sha256_hex);
    if let Err(e) = target.replace(content.as_bytes()) {
        return cannot(&e);
    }
    let after = sha256_hex(content.as_bytes());
    let unchanged = before.as_deref() == Some(after.as_str());
    let removal = old.as_deref().filter(|_| !unchanged).and_then(|old| {
        removal::removal(&shown, &String::from_utf8_lossy(old), content, languages)
    });
    let mut note = String::new();
    let result = if unchanged {
        format!(
            "{shown} already had this content ({} bytes); nothing changed",
            content.len()
        )
    } else {
        let removed = removal
            .as_ref()
            .map(removal::Removal::describe)
            .unwrap_or_default();
        if let Some(languages) = languages {
            let old = old.as_deref().map(String::from_utf8_lossy);
            for unpassed in newly_unpassed(languages, &shown, old.as_deref(), content) {
                note.push_str(&format!("{NOTE}{}", unpassed.describe(&shown)));
            }
            for ignored in newly_ignored(languages, &shown, old.as_deref(), content) {
                note.push_str(&format!("{NOTE}{}", ignored.describe()));
            }
        }
        format!("Wrote {} bytes to {shown}{removed}", content.len())
    };
    let outcome = ActionOutcome {
        ok: true,
        result,
        write: Some(FileChange {
            path: shown,
            before,
            after,
            bytes: content.len() as u64,
            removed: removal.map(|r| r.definitions).unwrap_or_default(),
        }),
        ..ActionOutcome::default()
    };
    (outcome, note)
}

#[cfg(test)]
mod tests {
    use super::super::files::{list_dir, read_file};
    use super::*;

    #[test]
    fn write_then_read_then_list() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let wrote = write_file(&root, "pkg/hello.py", "print('hi')\n", true, None);
        assert!(wrote.ok, "{}", wrote.result);
        let change = wrote.write.unwrap();
        assert_eq!(change.path, "pkg/hello.py");
        assert_eq!(change.before, None);
        assert_eq!(change.after, sha256_hex(b"print('hi')\n"));

        let again = write_file(&root, "pkg/hello.py", "print('hi')\n", true, None);
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

    /// Without languages (a Toolbox built without them), lines only: no
    /// parser runs and nothing is recorded as removed.
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
        let wrote = write_file(&root, "calc.py", "x = 1\n", false, None);
        assert_eq!(
            wrote.result,
            "Wrote 6 bytes to calc.py; it removed 2 line(s) of the previous content (first: \
             \"def add():\")"
        );
        assert_eq!(wrote.write.unwrap().removed, Vec::<String>::new());
        let more = write_file(&root, "calc.py", "x = 1\ny = 2\n", false, None);
        assert_eq!(more.result, "Wrote 12 bytes to calc.py");
    }

    /// With the languages, the def a rewrite drops is named and recorded.
    #[test]
    fn a_rewrite_that_drops_a_def_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("calc.py"), "def add(a, b):\n    return a + b\n").unwrap();
        let languages = Languages::default();
        let wrote = write_file(&root, "calc.py", "x = 1\n", false, Some(&languages));
        assert!(
            wrote
                .result
                .starts_with("Wrote 6 bytes to calc.py; it removed 2 line(s)")
                && wrote.result.contains("; the definition add is gone"),
            "{}",
            wrote.result
        );
        assert_eq!(wrote.write.unwrap().removed, ["add"]);
    }

    /// A parameter the write adds that no call in the file gives is said;
    /// one the file left unpassed before is not said again.
    #[test]
    fn a_parameter_no_call_gives_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let greet = "def greeting(name):\n    return 'Hello, ' + name\n\n\ndef main():\n    print(greeting('Ann'))\n\n\nmain()\n";
        std::fs::write(root.join("greet.py"), greet).unwrap();
        let languages = Languages::default();
        let unwired = greet.replace("(name):", "(name, shout=False):");
        let wrote = write_file(&root, "greet.py", &unwired, false, Some(&languages));
        assert!(
            wrote.result.contains(
                "; note: no call in greet.py gives `shout` to `greeting` (`greeting('Ann')`, \
                 line 6): it always takes its default"
            ),
            "{}",
            wrote.result
        );
        // Unchanged in that respect: nothing said.
        let again = unwired.replace("Hello, ", "Hi, ");
        let wrote = write_file(&root, "greet.py", &again, false, Some(&languages));
        assert!(!wrote.result.contains("note:"), "{}", wrote.result);
        // Passed by keyword: nothing said.
        let wired = again.replace("greeting('Ann')", "greeting('Ann', shout=True)");
        let wrote = write_file(&root, "greet.py", &wired, false, Some(&languages));
        assert!(!wrote.result.contains("note:"), "{}", wrote.result);
        // A new file: said; a function the file never calls: not said.
        let new = "def f(a, b=1):\n    return a\n\n\ndef g(c=2):\n    return c\n\n\nprint(f(1))\n";
        let wrote = write_file(&root, "new.py", new, false, Some(&languages));
        assert!(
            wrote.result.contains("gives `b` to `f`"),
            "{}",
            wrote.result
        );
        assert!(!wrote.result.contains("`g`"), "{}", wrote.result);
    }

    /// A function the write leaves never reading a parameter is said (t34's
    /// rps drew both players' moves at random); one that read none before
    /// is not said again, nor a test file's.
    #[test]
    fn a_parameter_a_function_never_reads_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let languages = Languages::default();
        let random = "import random\n\n\ndef play(player1, player2):\n    a = random.choice('rps')\n    \
                      b = random.choice('rps')\n    return a == b\n";
        let wrote = write_file(&root, "game.py", random, false, Some(&languages));
        assert!(
            wrote.result.ends_with(
                "; note: `play` never reads its parameters `player1`, `player2`: what it returns \
                 cannot depend on them"
            ),
            "{}",
            wrote.result
        );
        let again = random.replace("a == b", "b == a");
        let wrote = write_file(&root, "game.py", &again, false, Some(&languages));
        assert!(!wrote.result.contains("note:"), "{}", wrote.result);
        let half = "def play(player1, player2):\n    return player1\n";
        let wrote = write_file(&root, "game.py", half, false, Some(&languages));
        assert!(!wrote.result.contains("note:"), "{}", wrote.result);
        let dropped = "def play(player1, player2):\n    return 1\n";
        let wrote = write_file(&root, "game.py", dropped, false, Some(&languages));
        assert!(
            wrote.result.ends_with("; note: `play` never reads its parameter `player1`: what it returns cannot depend on it"),
            "{}",
            wrote.result
        );
        let wrote = write_file(&root, "test_game.py", random, false, Some(&languages));
        assert!(!wrote.result.contains("note:"), "{}", wrote.result);
    }

    #[test]
    fn a_missing_folder_needs_create_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let refused = write_file(&root, "a/b.py", "x", false, None);
        assert!(!refused.ok);
        assert!(refused.result.contains("create_dirs"), "{}", refused.result);
        assert!(!root.join("a").exists());
    }

    #[test]
    fn a_write_over_a_file_keeps_its_last_line_break() {
        let kept = |content: &str, old: &str| {
            let mut content = content.to_string();
            keep_final_newline(&mut content, old.as_bytes());
            content
        };
        assert_eq!(kept("a = 1", "a = 2\n"), "a = 1\n");
        assert_eq!(kept("a = 1\n", "a = 2\n"), "a = 1\n");
        assert_eq!(
            kept("a = 1", "a = 2"),
            "a = 1",
            "a file without one gets none"
        );
        assert_eq!(kept("", "a = 2\n"), "", "an emptied file stays empty");
    }
}
