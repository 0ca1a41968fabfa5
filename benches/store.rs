//! What persistence costs: the store's time per action and a resume's time,
//! with 100, 1,000 and 10,000 actions already in the log, and the fsyncs per
//! action against the minimum the guarantees need: the store-only tables of
//! BENCHMARKS.md, printed by `cargo bench --bench runner` after the runner's
//! own figures.
//!
//! An action here is one round as the runner records it: `round_started`,
//! `model_replied` (a `write_file` of about 1 KB, or a `run_cmd`),
//! `action_started` (synced: a side effect follows), `action_finished`
//! (lazy), then the checkpoint.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use runner::chat::{ToolCall, Usage};
use runner::state::{ActionOutcome, Event, FileChange, Record, State, WriteIntent};
use runner::store::checkpoint::{self, LogMark};
use runner::store::{self, Disk, Durability, OpenOptions, RealDisk, Store};
use serde_json::json;

/// Log sizes to measure, in actions.
const SIZES: [usize; 3] = [100, 1_000, 10_000];
/// Actions timed per repetition.
const ACTIONS: usize = 100;
/// Repetitions (a fresh copy of the filled log each).
const REPEATS: usize = 5;
/// Resumes timed per case.
const RESUMES: usize = 7;
/// Actions the checkpoint lags behind the log in the "behind" case.
const BEHIND: usize = 50;
/// Files the actions write, in turn (a project's worth).
const FILES: usize = 20;

pub fn tables() {
    let root = tempfile::tempdir().expect("a temp folder");
    println!("## Persistence cost per action\n");
    println!(
        "| actions in the log | per action (median) | p10 - p90 | fsyncs per action | \
         per action, fsync skipped (median) | state.json |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    let mut resumes = Vec::new();
    for &n in &SIZES {
        let pristine = root.path().join(format!("filled-{n}"));
        fill(&pristine, n);
        let (synced, syncs) = act_timed(root.path(), &pristine, true);
        let (unsynced, _) = act_timed(root.path(), &pristine, false);
        let state_len = std::fs::metadata(pristine.join(store::CONTEXT_DIR).join("state.json"))
            .map_or(0, |m| m.len());
        println!(
            "| {n} | {} | {} - {} | {syncs:.2} (minimum 1) | {} | {} KB |",
            ms(pct(&synced, 50)),
            ms(pct(&synced, 10)),
            ms(pct(&synced, 90)),
            ms(pct(&unsynced, 50)),
            state_len / 1024,
        );
        resumes.push((n, resume_timed(root.path(), &pristine)));
    }
    println!("\n## Resume time (opening the store: lock, load, repair)\n");
    println!(
        "| actions in the log | log size | checkpoint current | checkpoint {BEHIND} actions \
         behind | no checkpoint (full replay) |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for (n, (size, cases)) in resumes {
        let cells: Vec<String> = cases
            .iter()
            .map(|t| {
                format!(
                    "{} ({} - {})",
                    ms(pct(t, 50)),
                    ms(pct(t, 0)),
                    ms(pct(t, 100))
                )
            })
            .collect();
        println!(
            "| {n} | {:.1} MB | {} |",
            size as f64 / 1e6,
            cells.join(" | ")
        );
    }
}

/// The events of action `i`; `started` is the seq its `action_started`
/// will get.
fn round(i: usize, started: u64) -> [(Event, Durability); 4] {
    let path = format!("src/module_{}.py", i % FILES);
    let content = format!("# version {i}\n{}", "x = compute(x)  # line\n".repeat(45));
    let (call, summary, outcome, write) = if i % 3 == 2 {
        let cmd = "python3 -m pytest -q".to_string();
        let outcome = ActionOutcome {
            ok: true,
            result: format!(
                "$ {cmd}\nexit code 0\n--- stdout ---\n{}",
                "...... ok\n".repeat(150)
            ),
            command: Some(cmd.clone()),
            exit_code: Some(0),
            ..ActionOutcome::default()
        };
        let call = ToolCall {
            name: "run_cmd".into(),
            arguments: json!({ "cmd": cmd }),
        };
        (call, format!("run_cmd {cmd}"), outcome, None)
    } else {
        let after = runner::tools::sha256_hex(content.as_bytes());
        let before = Some(format!("{:064x}", i.saturating_sub(FILES)));
        let outcome = ActionOutcome {
            ok: true,
            result: format!("Wrote {} bytes to {path}", content.len()),
            write: Some(FileChange {
                path: path.clone(),
                before: before.clone(),
                after: after.clone(),
                bytes: content.len() as u64,
                removed: Vec::new(),
            }),
            ..ActionOutcome::default()
        };
        let call = ToolCall {
            name: "write_file".into(),
            arguments: json!({ "path": path, "content": content }),
        };
        let write = WriteIntent {
            path: path.clone(),
            before,
            after,
        };
        (call, format!("write_file {path}"), outcome, Some(write))
    };
    let signature = format!("{} {}", call.name, call.arguments);
    [
        (
            Event::RoundStarted {
                round: i as u32 + 1,
                missing: Vec::new(),
            },
            Durability::Lazy,
        ),
        (
            Event::ModelReplied {
                content: "Next step.".into(),
                calls: vec![call.clone()],
                from_text: false,
                usage: Usage {
                    prompt_tokens: 3000,
                    completion_tokens: 300,
                    ..Usage::default()
                },
                retries: 0,
                done_reason: Some("stop".into()),
                question: false,
            },
            Durability::Lazy,
        ),
        (
            Event::ActionStarted {
                call: 0,
                tool: call.name.clone(),
                summary,
                signature,
                write,
            },
            Durability::Sync,
        ),
        (
            Event::ActionFinished {
                action: started,
                outcome,
            },
            Durability::Lazy,
        ),
    ]
}

fn started(goal: &str) -> Event {
    Event::RunStarted {
        goal: goal.into(),
        model: "bench".into(),
        max_rounds: u32::MAX,
        num_ctx: 16384,
        host: None,
        api: None,
        tool_mode: None,
    }
}

/// A workspace whose log holds a run of `n` actions and a current
/// checkpoint, written directly (filling 10,000 actions through fsyncs
/// would take minutes); `behind/` and `missing/` beside it hold the same
/// log with `BEHIND` more actions and no checkpoint for them, and none.
fn fill(workspace: &Path, n: usize) {
    let mut state = State::default();
    let mut log = Vec::new();
    let mut mark = push(started("bench"), &mut state, &mut log);
    for i in 0..n {
        let seq = state.last_seq + 3;
        for (event, _) in round(i, seq) {
            mark = push(event, &mut state, &mut log);
        }
    }
    let current = checkpoint::encode(&state, mark).expect("checkpoint");
    write_context(workspace, &log, Some(&current));
    for i in n..n + BEHIND {
        let seq = state.last_seq + 3;
        for (event, _) in round(i, seq) {
            push(event, &mut state, &mut log);
        }
    }
    write_context(&workspace.join("behind"), &log, Some(&current));
    write_context(&workspace.join("missing"), &log, None);
}

/// Appends `event` to the `log` bytes and applies it; returns where it lies.
fn push(event: Event, state: &mut State, log: &mut Vec<u8>) -> LogMark {
    let record = Record {
        seq: state.last_seq + 1,
        ts: store::now(),
        event,
    };
    let (line, crc) = store::log::encode(&record).expect("encode");
    let mark = LogMark {
        start: log.len() as u64,
        end: (log.len() + line.len()) as u64,
        crc,
    };
    log.extend_from_slice(&line);
    state.apply(&record);
    mark
}

fn write_context(workspace: &Path, log: &[u8], state: Option<&[u8]>) {
    let context = workspace.join(store::CONTEXT_DIR);
    std::fs::create_dir_all(&context).expect("context folder");
    std::fs::write(context.join("history.jsonl"), log).expect("history");
    if let Some(state) = state {
        std::fs::write(context.join("state.json"), state).expect("state");
    }
}

/// A fresh copy of `pristine`'s context in a new folder under `root`.
fn copy(root: &Path, pristine: &Path) -> PathBuf {
    let workspace = tempfile::tempdir_in(root).expect("temp").keep();
    let context = workspace.join(store::CONTEXT_DIR);
    std::fs::create_dir_all(&context).expect("context");
    for name in ["history.jsonl", "state.json"] {
        let from = pristine.join(store::CONTEXT_DIR).join(name);
        if from.exists() {
            std::fs::copy(from, context.join(name)).expect("copy");
        }
    }
    workspace
}

/// The real disk with its syncs skipped: what persistence costs besides
/// waiting for the device.
struct NoSync(RealDisk);

impl Disk for NoSync {
    fn read(&mut self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        self.0.read(path)
    }
    fn read_from(&mut self, path: &Path, offset: u64) -> io::Result<Vec<u8>> {
        self.0.read_from(path, offset)
    }
    fn append(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.0.append(path, bytes)
    }
    fn sync(&mut self, _: &Path) -> io::Result<()> {
        Ok(())
    }
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.0.write(path, bytes)
    }
    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        self.0.rename(from, to)
    }
    fn sync_dir(&mut self, _: &Path) -> io::Result<()> {
        Ok(())
    }
    fn truncate(&mut self, path: &Path, len: u64) -> io::Result<()> {
        self.0.truncate(path, len)
    }
    fn remove(&mut self, path: &Path) -> io::Result<()> {
        self.0.remove(path)
    }
}

/// Times `ACTIONS` actions on copies of `pristine`, `REPEATS` times; returns
/// every action's time and the fsyncs per action.
fn act_timed(root: &Path, pristine: &Path, sync: bool) -> (Vec<Duration>, f64) {
    let mut times = Vec::new();
    let mut syncs = 0;
    for _ in 0..REPEATS {
        let workspace = copy(root, pristine);
        let disk: Box<dyn Disk> = if sync {
            Box::new(RealDisk::default())
        } else {
            Box::new(NoSync(RealDisk::default()))
        };
        let mut store = Store::open(&workspace, disk, OpenOptions::default()).expect("open");
        let before = store.stats().syncs;
        let first = store.state().last_seq as usize;
        for i in 0..ACTIONS {
            let t = Instant::now();
            let seq = store.state().last_seq + 3;
            for (event, durability) in round(first + i, seq) {
                store.append(event, durability).expect("append");
            }
            store.checkpoint().expect("checkpoint");
            times.push(t.elapsed());
        }
        syncs += store.stats().syncs - before;
        drop(store);
        let _ = std::fs::remove_dir_all(&workspace);
    }
    (times, syncs as f64 / (REPEATS * ACTIONS) as f64)
}

/// Times opening the store with a current checkpoint, one `BEHIND` actions
/// behind, and none; returns the log's size and the three sets of times.
fn resume_timed(root: &Path, pristine: &Path) -> (u64, [Vec<Duration>; 3]) {
    let size = std::fs::metadata(pristine.join(store::CONTEXT_DIR).join("history.jsonl"))
        .map_or(0, |m| m.len());
    let cases = [
        pristine.to_path_buf(),
        pristine.join("behind"),
        pristine.join("missing"),
    ];
    let times = cases.map(|case| {
        (0..RESUMES)
            .map(|_| {
                let workspace = copy(root, &case);
                let t = Instant::now();
                let store = Store::open(
                    &workspace,
                    Box::new(RealDisk::default()),
                    OpenOptions::default(),
                )
                .expect("open");
                let took = t.elapsed();
                assert!(store.state().last_seq > 0);
                drop(store);
                let _ = std::fs::remove_dir_all(&workspace);
                took
            })
            .collect()
    });
    (size, times)
}

/// The `p`-th percentile (0 = min, 100 = max).
fn pct(times: &[Duration], p: usize) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[(sorted.len() - 1) * p / 100]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
