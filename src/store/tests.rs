use std::path::Path;

use pretty_assertions::assert_eq;

use super::*;
use crate::state::{Event, Outcome, State};

fn open(dir: &Path, salvage: bool) -> Result<Store, StoreError> {
    Store::open(dir, Box::new(RealDisk::default()), OpenOptions { salvage })
}

fn ended(n: u32) -> Event {
    Event::RunEnded {
        outcome: Outcome::Stopped,
        reason: format!("reason {n}"),
    }
}

fn started(goal: &str) -> Event {
    Event::RunStarted {
        goal: goal.into(),
        model: "m".into(),
        max_rounds: 3,
        num_ctx: 16384,
        host: None,
        api: None,
        tool_mode: None,
    }
}

/// A store with `n` records after a run_started, closed.
fn filled(dir: &Path, n: u32) -> State {
    let mut store = open(dir, false).unwrap();
    store.append(started("goal"), Durability::Sync).unwrap();
    for i in 0..n {
        store.append(ended(i), Durability::Lazy).unwrap();
        store.checkpoint().unwrap();
    }
    store.close().unwrap();
    store.state().clone()
}

fn history(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join(CONTEXT_DIR).join("history.jsonl")).unwrap()
}

fn set_history(dir: &Path, bytes: &[u8]) {
    std::fs::write(dir.join(CONTEXT_DIR).join("history.jsonl"), bytes).unwrap();
}

#[test]
fn what_is_appended_is_loaded_again() {
    let dir = tempfile::tempdir().unwrap();
    let live = filled(dir.path(), 10);
    assert_eq!(live.last_seq, 11);
    let mut store = open(dir.path(), false).unwrap();
    assert_eq!(store.state(), &live);
    assert!(store.take_warnings().is_empty());
    let text = String::from_utf8(history(dir.path())).unwrap();
    let seqs: Vec<u64> = text
        .lines()
        .map(|l| log::decode(l.as_bytes()).unwrap().0.seq)
        .collect();
    assert_eq!(seqs, (1..=11).collect::<Vec<_>>());
}

#[test]
fn fsyncs_stay_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path(), false).unwrap();
    for i in 0..80 {
        store.append(ended(i), Durability::Sync).unwrap();
        store.append(ended(i), Durability::Lazy).unwrap();
        store.checkpoint().unwrap();
    }
    let syncs = store.stats().syncs;
    // One sync per announced action, plus the folder once for the new log;
    // every 8th checkpoint is durable: the log's lazy tail, the checkpoint
    // file, the folder.
    assert_eq!(syncs, 80 + 1 + 3 * 10);
}

#[test]
fn a_torn_last_record_is_cut_off_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let live = filled(dir.path(), 3);
    let mut bytes = history(dir.path());
    let torn = br#"{"seq":5,"ts":"x","event":"run_en"#;
    bytes.extend_from_slice(torn);
    set_history(dir.path(), &bytes);
    let mut store = open(dir.path(), false).unwrap();
    assert_eq!(store.state(), &live);
    let warnings = store.take_warnings();
    assert!(
        warnings[0].contains("torn record at line 5"),
        "{warnings:?}"
    );
    assert_eq!(history(dir.path()).len(), bytes.len() - torn.len());
    store.append(ended(9), Durability::Sync).unwrap();
    assert_eq!(store.state().last_seq, 5);
}

#[test]
fn damage_followed_by_good_records_is_refused_unless_salvaged() {
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path(), 4);
    std::fs::remove_file(dir.path().join(CONTEXT_DIR).join("state.json")).unwrap();
    let text = String::from_utf8(history(dir.path())).unwrap();
    let damaged = text.replacen("reason 1", "reason X", 1);
    set_history(dir.path(), damaged.as_bytes());
    match open(dir.path(), false) {
        Err(StoreError::Corrupt { line, .. }) => assert_eq!(line, 3),
        Err(other) => panic!("expected corruption, got {other}"),
        Ok(_) => panic!("expected corruption, got a store"),
    }
    assert_eq!(
        history(dir.path()),
        damaged.as_bytes(),
        "a refused load changes nothing"
    );
    let mut store = open(dir.path(), true).unwrap();
    assert_eq!(store.state().last_seq, 2);
    assert!(store.take_warnings()[0].contains("moved the rest"));
    let aside = fs_err::read_dir(dir.path().join(CONTEXT_DIR))
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("history.jsonl.salvaged")
        })
        .unwrap();
    assert_eq!(
        std::fs::read(aside.path()).unwrap().len(),
        damaged.len() - history(dir.path()).len()
    );
}

#[test]
fn a_checkpoint_ahead_of_the_log_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path(), 5);
    let text = String::from_utf8(history(dir.path())).unwrap();
    let kept: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    set_history(dir.path(), kept.as_bytes());
    let mut store = open(dir.path(), false).unwrap();
    assert_eq!(store.state().last_seq, 3);
    let records: Vec<_> = log::scan(kept.as_bytes())
        .0
        .into_iter()
        .map(|f| f.record)
        .collect();
    assert_eq!(store.state(), &State::replay(&records));
    assert!(store.take_warnings()[0].contains("ahead of"));
}

#[test]
fn a_damaged_or_missing_checkpoint_is_rebuilt_from_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let live = filled(dir.path(), 5);
    let path = dir.path().join(CONTEXT_DIR).join("state.json");
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replace("reason 4", "reason 5");
    std::fs::write(&path, edited).unwrap();
    let mut store = open(dir.path(), false).unwrap();
    assert_eq!(store.state(), &live);
    assert!(store.take_warnings()[0].contains("checksum"));
    drop(store);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(open(dir.path(), false).unwrap().state(), &live);
}

#[test]
fn a_stale_temp_file_goes() {
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path(), 1);
    let tmp = dir.path().join(CONTEXT_DIR).join("state.json.tmp");
    std::fs::write(&tmp, b"half").unwrap();
    open(dir.path(), false).unwrap();
    assert!(!tmp.exists());
}

#[test]
fn reading_changes_nothing_and_ignores_a_torn_tail() {
    let dir = tempfile::tempdir().unwrap();
    let live = filled(dir.path(), 2);
    let mut bytes = history(dir.path());
    bytes.extend_from_slice(b"{\"seq\":4");
    set_history(dir.path(), &bytes);
    let (state, _) = Store::read(dir.path()).unwrap().unwrap();
    assert_eq!(state, live);
    assert_eq!(history(dir.path()), bytes, "a read never repairs");
    let _holder = open(dir.path(), false).unwrap();
    let (state, _) = Store::read(dir.path()).unwrap().unwrap();
    assert_eq!(state, live, "a read works while a runner holds the lock");
    assert!(
        Store::read(tempfile::tempdir().unwrap().path())
            .unwrap()
            .is_none()
    );
}

#[test]
fn archiving_moves_the_run_and_keeps_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path(), false).unwrap();
    store.append(started("old goal"), Durability::Sync).unwrap();
    store.append(undone("a.py"), Durability::Lazy).unwrap();
    store.checkpoint().unwrap();
    let to = store.archive().unwrap().unwrap();
    assert!(to.join("history.jsonl").exists());
    assert!(to.join("ledger.log").exists());
    assert_eq!(store.state(), &State::default());
    store.append(started("new goal"), Durability::Sync).unwrap();
    store.close().unwrap();
    let text = String::from_utf8(history(dir.path())).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("new goal"));
    assert!(matches!(
        open(dir.path(), false),
        Err(StoreError::Locked { .. })
    ));
}

fn undone(path: &str) -> Event {
    Event::RolledBack {
        path: path.into(),
        point: 0,
        from: None,
        to: None,
    }
}

fn rejected(error: &str) -> Event {
    Event::CallRejected {
        call: 0,
        tool: "create_file".into(),
        kind: crate::state::RefusalKind::UnknownTool,
        error: error.into(),
        signature: None,
        seen: None,
    }
}

fn sidecars(dir: &Path) -> (String, String, String) {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(".agent_context").join(name)).unwrap_or_default()
    };
    (read("ledger.log"), read("loops.json"), read("memory.json"))
}

#[test]
fn the_files_beside_the_log_are_rebuilt_from_it_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path(), false).unwrap();
    store.append(started("g"), Durability::Sync).unwrap();
    store
        .append(
            rejected("there is no tool named create_file"),
            Durability::Lazy,
        )
        .unwrap();
    store
        .append(
            Event::Noted {
                call: 0,
                text: "use pytest".into(),
            },
            Durability::Lazy,
        )
        .unwrap();
    store.append(undone("a.py"), Durability::Lazy).unwrap();
    store.close().unwrap();
    let whole = sidecars(dir.path());
    assert!(
        whole.0.contains("#4 UNDO    a.py -> record 0"),
        "{}",
        whole.0
    );
    assert!(
        whole.2.contains("there is no tool named create_file"),
        "{}",
        whole.2
    );
    assert!(whole.2.contains("use pytest"), "{}", whole.2);
    drop(store);
    // A kill between the records and their projections: the files lag.
    for name in ["ledger.log", "memory.json"] {
        std::fs::remove_file(dir.path().join(".agent_context").join(name)).unwrap();
    }
    let store = open(dir.path(), false).unwrap();
    assert_eq!(sidecars(dir.path()), whole);
    assert_eq!(store.memory().mistakes[0].count, 1);
    drop(store);
    // Opening again adds nothing twice.
    open(dir.path(), false).unwrap();
    assert_eq!(sidecars(dir.path()), whole);
}

#[test]
fn the_memory_outlives_an_archived_log_without_counting_twice() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path(), false).unwrap();
    store.append(started("old goal"), Durability::Sync).unwrap();
    store
        .append(rejected("no such tool"), Durability::Lazy)
        .unwrap();
    store.archive().unwrap();
    store.append(started("new goal"), Durability::Sync).unwrap();
    store
        .append(rejected("no such tool"), Durability::Lazy)
        .unwrap();
    store.close().unwrap();
    assert_eq!(store.memory().mistakes[0].count, 2);
    drop(store);
    let store = open(dir.path(), false).unwrap();
    assert_eq!(
        store.memory().mistakes[0].count,
        2,
        "nothing replayed twice"
    );
    assert_eq!(store.memory().seq, 2);
}
