//! What must hold in `.agent_context/` after any crash and restart; the
//! crash tests check it after every kill, abort and signal.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use runner::state::{Event, Outcome, Record, State};
use runner::store::{checkpoint, log};

/// The words the runner records for a command whose result a crash lost.
pub const UNKNOWN: &str = "interrupted, outcome unknown";

/// `history.jsonl` as a crash left it.
#[derive(Debug, Default, Clone)]
pub struct Log {
    /// The raw lines of its valid records, newline included.
    pub lines: Vec<Vec<u8>>,
    pub records: Vec<Record>,
    /// It ends in a torn line (a kill mid-write; the next run cuts it).
    pub torn: bool,
}

impl Log {
    /// Reads and checks the log: checksums valid, seqs contiguous from 1,
    /// and a bad line only as the last one, with no valid record after it.
    pub fn read(context: &Path) -> Log {
        let bytes = std::fs::read(context.join("history.jsonl")).unwrap_or_default();
        let (found, bad) = log::scan(&bytes);
        if let Some(bad) = &bad {
            assert!(
                bad.later.is_empty(),
                "a bad line in the middle of the log: {bad:?}"
            );
        }
        let lines = found
            .iter()
            .map(|f| bytes[f.start as usize..f.end as usize].to_vec())
            .collect();
        let records: Vec<Record> = found.into_iter().map(|f| f.record).collect();
        for (i, record) in records.iter().enumerate() {
            assert_eq!(record.seq, i as u64 + 1, "seqs are contiguous from 1");
        }
        Log {
            lines,
            records,
            torn: bad.is_some(),
        }
    }

    pub fn last_seq(&self) -> u64 {
        self.records.last().map_or(0, |r| r.seq)
    }

    /// Records added since `before`.
    pub fn since<'a>(&'a self, before: &Log) -> &'a [Record] {
        &self.records[before.records.len()..]
    }
}

/// Everything a crash must leave intact, given the log before it: every
/// record still there, a checkpoint that is valid and not ahead of the log,
/// and the rules about actions. Returns the log now.
pub fn check_after_crash(context: &Path, before: &Log) -> Log {
    let log = Log::read(context);
    assert!(
        log.lines.len() >= before.lines.len()
            && log.lines[..before.lines.len()] == before.lines[..],
        "records that existed before the crash were lost or changed ({} before, {} now)",
        before.lines.len(),
        log.lines.len()
    );
    check_checkpoint(context, &log);
    check_actions(&log.records, false);
    log
}

/// `state.json` exists once the log has a record, is valid, is not ahead of
/// the log, and holds exactly the replay of the records up to its `last_seq`.
pub fn check_checkpoint(context: &Path, log: &Log) {
    let path = context.join("state.json");
    if log.records.is_empty() && !path.exists() {
        return;
    }
    let bytes = std::fs::read(&path).expect("state.json exists once the log has records");
    let (state, _) = checkpoint::decode(&bytes).expect("state.json is valid");
    assert!(
        state.last_seq <= log.last_seq(),
        "state.json (last_seq {}) is ahead of the log ({})",
        state.last_seq,
        log.last_seq()
    );
    let replayed = State::replay(&log.records[..state.last_seq as usize]);
    assert!(
        replayed == state,
        "state.json is not the replay of the log up to its last_seq {}",
        state.last_seq
    );
}

/// Every action has at most one result (exactly one when `finished`), and
/// only after its `action_started`; each call of a reply is handled once;
/// the model is asked again only when its last reply's calls are all
/// handled; a command whose result a crash lost is never run again but
/// recorded as [`UNKNOWN`].
pub fn check_actions(records: &[Record], finished: bool) {
    let mut state = State::default();
    let mut invocation = 0;
    let mut reply = 0;
    let mut handled = HashSet::new();
    // seq of action_started -> (tool, invocation, results)
    let mut actions: BTreeMap<u64, (String, u32, u32)> = BTreeMap::new();
    for record in records {
        let seq = record.seq;
        let mut handle = |call: usize| {
            assert!(
                handled.insert((reply, call)),
                "seq {seq}: call {call} of the reply at seq {reply} was handled twice"
            );
        };
        match &record.event {
            Event::RunStarted { .. } => invocation += 1,
            Event::RoundStarted { .. } => assert!(
                state.reply.is_none(),
                "seq {seq}: the model was asked again while calls of its reply were pending"
            ),
            Event::ModelReplied { .. } => reply = seq,
            Event::ActionStarted { call, tool, .. } => {
                handle(*call);
                actions.insert(seq, (tool.clone(), invocation, 0));
            }
            Event::ActionBlocked { call, .. }
            | Event::CallRejected { call, .. }
            | Event::Noted { call, .. }
            | Event::SubtaskEnded {
                call: Some(call), ..
            } => handle(*call),
            Event::ActionFinished { action, outcome } => {
                let Some((tool, started_in, results)) = actions.get_mut(action) else {
                    panic!("seq {seq}: a result for {action}, which is no action_started");
                };
                *results += 1;
                assert_eq!(*results, 1, "seq {seq}: action {action} has two results");
                if *started_in != invocation && tool == "run_cmd" {
                    assert!(
                        outcome.result.contains(UNKNOWN) && outcome.exit_code.is_none(),
                        "seq {seq}: an interrupted command must be recorded as {UNKNOWN:?}, \
                         never run again: {}",
                        outcome.result
                    );
                }
            }
            _ => {}
        }
        state.apply(record);
    }
    if finished {
        for (seq, (tool, _, results)) in &actions {
            assert_eq!(*results, 1, "the {tool} started at seq {seq} has no result");
        }
    }
}

/// The end of a run that reached its goal: every action has its one
/// result, the last invocation ended achieved, and no temp file is left in
/// `.agent_context/` or beside a file the runner wrote.
pub fn check_finished(workspace: &Path) {
    let context = workspace.join(".agent_context");
    let log = Log::read(&context);
    assert!(!log.torn, "a finished run leaves no torn record");
    check_checkpoint(&context, &log);
    check_actions(&log.records, true);
    let last = log.records.last().map(|r| &r.event);
    assert!(
        matches!(
            last,
            Some(Event::RunEnded {
                outcome: Outcome::Achieved,
                ..
            })
        ),
        "the last record is {last:?}"
    );
    let temps: Vec<String> = walkdir::WalkDir::new(workspace)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.path().display().to_string())
        .filter(|p| p.ends_with(".tmp"))
        .collect();
    assert!(temps.is_empty(), "temp files left: {temps:?}");
}

/// The workspace's files and their contents, without the runner's folder,
/// Python's caches, and `runs.log` (which counts executions).
pub fn workspace_files(workspace: &Path) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(workspace)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            // pytest makes its cache in a temporary folder it then renames
            // to `.pytest_cache`: a pytest killed with the runner in
            // between leaves that folder (seen once in a kill -9 soak under
            // load), pytest's own debris like the cache itself.
            !matches!(
                name.as_ref(),
                ".agent_context" | "__pycache__" | ".pytest_cache" | "runs.log"
            ) && !name.starts_with("pytest-cache-files-")
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let path = e.path();
            let name = path
                .strip_prefix(workspace)
                .unwrap_or(path)
                .display()
                .to_string();
            let text = std::fs::read_to_string(path).unwrap_or_default();
            (name, text)
        })
        .collect()
}
