//! Undo: `rollback` restores the exact bytes of what the runner wrote and
//! touches nothing else; `diff` shows what the run changed.

use std::collections::BTreeMap;
use std::path::Path;

use pretty_assertions::assert_eq;
use runner::store::blobs::sha256_hex;

use super::RPS_GOAL;
use crate::support::Test;

/// Every file of the workspace but the runner's own and `except`, with its
/// bytes.
fn other_files(root: &Path, except: &[&str]) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let path = entry
                .path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (path, entry.path().to_path_buf())
        })
        .filter(|(path, _)| !path.starts_with(".agent_context") && !except.contains(&path.as_str()))
        .map(|(path, full)| (path, std::fs::read(full).unwrap()))
        .collect()
}

const ORIGINAL: &str = "# my own draft\r\nprint('keep me')";

#[test]
fn rollback_restores_the_exact_bytes_and_touches_nothing_else() {
    let test = Test::new()
        .script("rps_pytest")
        .file("rps.py", ORIGINAL)
        .file("notes.txt", "mine\n");
    test.run_with(&[RPS_GOAL]).assert_code(0);
    let first_version = {
        let script = crate::support::fake_ollama::load_script("rps_pytest");
        let rule = script.rules.iter().find(|r| r.name == "game").unwrap();
        rule.reply.tool_calls[0]["arguments"]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let fixed = test.read("rps.py");
    let tests = test.read("test_rps.py");
    assert!(fixed.starts_with("# fixed"));
    let end_of_run = test.records().len().to_string();
    // The old contents were kept before each overwrite.
    for kept in [ORIGINAL, first_version.as_str()] {
        let blob = test
            .context()
            .join("blobs")
            .join(sha256_hex(kept.as_bytes()));
        assert_eq!(std::fs::read(blob).unwrap(), kept.as_bytes());
    }
    let others = other_files(&test.workspace, &["rps.py", "test_rps.py"]);
    assert!(others.contains_key("notes.txt"));

    let diff = test.run_with(&["diff"]);
    diff.assert_code(0);
    for line in [
        "--- a/rps.py",
        "+++ b/rps.py",
        "-print('keep me')",
        "+# fixed: b wins when a does not beat it",
        "--- /dev/null",
        "+++ b/test_rps.py",
        "+def test_draw():",
    ] {
        assert!(
            diff.stdout.lines().any(|l| l == line),
            "{line:?} in\n{}",
            diff.stdout
        );
    }

    let dry = test.run_with(&["rollback", "--to", "0", "--dry-run"]);
    dry.assert_code(0);
    assert!(dry.stdout.contains("restore   rps.py"), "{}", dry.stdout);
    assert!(
        dry.stdout.contains("remove    test_rps.py"),
        "{}",
        dry.stdout
    );
    assert_eq!(test.read("rps.py"), fixed, "a dry run changes nothing");
    assert_eq!(test.records().len().to_string(), end_of_run);

    test.run_with(&["rollback", "--last", "1"]).assert_code(0);
    assert_eq!(test.read("rps.py"), first_version, "the fix is undone");
    assert_eq!(test.read("test_rps.py"), tests);

    let back = test.run_with(&["rollback", "--to", "0"]);
    back.assert_code(0);
    assert!(back.stdout.contains("restored  rps.py"), "{}", back.stdout);
    assert!(
        back.stdout.contains("removed   test_rps.py"),
        "{}",
        back.stdout
    );
    assert_eq!(
        std::fs::read(test.workspace.join("rps.py")).unwrap(),
        ORIGINAL.as_bytes()
    );
    assert!(!test.workspace.join("test_rps.py").exists());
    assert_eq!(
        other_files(&test.workspace, &["rps.py", "test_rps.py"]),
        others,
        "no other file was touched"
    );
    let diff = test.run_with(&["diff"]);
    assert!(diff.stdout.contains("changed no files"), "{}", diff.stdout);

    // A rollback is undone by rolling back to a record before it.
    test.run_with(&["rollback", "--to", &end_of_run])
        .assert_code(0);
    assert_eq!(test.read("rps.py"), fixed);
    assert_eq!(test.read("test_rps.py"), tests);

    // A file changed by someone else since is reported, not overwritten.
    std::fs::write(test.workspace.join("rps.py"), "# edited by hand\n").unwrap();
    let refused = test.run_with(&["rollback", "--to", "0"]);
    refused.assert_code(1);
    assert!(
        refused
            .stdout
            .contains("left      rps.py: changed since the runner wrote it"),
        "{}",
        refused.stdout
    );
    assert_eq!(test.read("rps.py"), "# edited by hand\n");
    assert!(!test.workspace.join("test_rps.py").exists());

    let state = test.assert_replay_matches();
    assert_eq!(
        state.files.keys().collect::<Vec<_>>(),
        ["rps.py"],
        "the runner answers for rps.py still, no longer for test_rps.py"
    );
    let events = test.events();
    assert_eq!(events.iter().filter(|e| *e == "rolled_back").count(), 6);
    let history = test.run_with(&["history", "-n", "1"]);
    assert!(
        history
            .stdout
            .contains("rolled_back     test_rps.py removed"),
        "{}",
        history.stdout
    );
    let ledger = std::fs::read_to_string(test.context().join("ledger.log")).unwrap();
    assert!(ledger.contains("UNDO    rps.py -> record 0"), "{ledger}");
}
