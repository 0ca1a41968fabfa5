//! The benchmark harness: every figure of BENCHMARKS.md, each the median and
//! spread of repeated runs, as ratios measured side by side (these machines
//! are shared and noisy; absolute times are context only).
//!
//! `cargo bench --bench runner` (add `-- --quick` for 3 repeats and no
//! 10,000-action sizes; `-- workspace growth` for only those figures).

mod store;
mod support;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use runner::agent::{Agent, Silent};
use runner::model::Model;
use runner::model::ollama::OllamaClient;
use runner::model::{ClientConfig, RetryPolicy};
use runner::settings::Settings;
use runner::state::State;
use runner::stop::Stop;
use runner::store::{Disk, OpenOptions, RealDisk, Stats, Store};
use runner::tools::Toolbox;
use runner::workspace::Map;
use support::{NoSync, Op, Recording, Scripted, Server};

/// Files the scripted model writes in turn: a project's worth.
const FILES: usize = 20;

fn main() {
    if let Ok(child) = std::env::var("RUNNER_BENCH_CHILD") {
        child_mode(&child);
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    // Names of figures to run (overhead, growth, prompt, workspace, map, memory,
    // http, store); none: all of them.
    let only: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| only.is_empty() || only.contains(&name);
    let repeats = if quick { 3 } else { 9 };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    machine();
    println!("repeats: {repeats}\n");
    println!("| figure | median | spread (min–max) | goal |");
    println!("|---|---|---|---|");
    if wanted("overhead") {
        overhead(&runtime, repeats);
    }
    if wanted("growth") {
        let sizes: &[u32] = if quick {
            &[100, 1000]
        } else {
            &[100, 1000, 10_000]
        };
        growth(&runtime, repeats, sizes);
    }
    if wanted("prompt") {
        prompt_size(&runtime);
    }
    if wanted("workspace") {
        workspace_size(&runtime, repeats);
    }
    if wanted("map") {
        map_size(repeats);
    }
    if wanted("memory") {
        memory(quick);
    }
    if wanted("http") {
        over_http(&runtime, repeats);
    }
    if wanted("store") {
        println!();
        store::tables();
    }
}

/// What the figures were measured on.
fn machine() {
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let load = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "machine: {cpu}, {cores} cores, Linux {}, load {}",
        kernel.trim(),
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    println!("disk: the folder of {}", env!("CARGO_TARGET_TMPDIR"));
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir")
}

/// Median, min and max.
fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let median = values[values.len() / 2];
    (median, values[0], values[values.len() - 1])
}

fn row(figure: &str, values: Vec<f64>, unit: &str, goal: &str) -> f64 {
    let (median, min, max) = spread(values);
    println!("| {figure} | {median:.3}{unit} | {min:.3}–{max:.3}{unit} | {goal} |");
    let _ = std::io::stdout().flush();
    median
}

/// Runs the agent in-process for `rounds` rounds (one action each).
fn run(
    runtime: &tokio::runtime::Runtime,
    workspace: &Path,
    model: &dyn Model,
    rounds: u32,
    disk: Box<dyn Disk>,
) -> (Duration, Stats, State) {
    let mut settings = Settings::new(workspace.to_path_buf());
    settings.model = "bench".into();
    settings.max_rounds = rounds;
    settings.reflection = false;
    let started = Instant::now();
    let mut store = Store::open(workspace, disk, OpenOptions::default()).expect("store");
    let tools = Toolbox::new(workspace, settings.tools.clone());
    runtime
        .block_on(
            Agent::new(
                &settings,
                &mut store,
                model,
                &tools,
                &mut Silent,
                Stop::never(),
            )
            .run("bench"),
        )
        .expect("run");
    store.close().expect("close");
    (started.elapsed(), store.stats(), store.state().clone())
}

/// Per-action overhead: the runner against a zero-latency model, next to a
/// bare loop doing the same appends, fsyncs and atomic replaces (the
/// workspace writes included) on the same disk.
fn overhead(runtime: &tokio::runtime::Runtime, repeats: usize) {
    const ACTIONS: u32 = 200;
    let (mut ratios, mut syncs, mut runner_ms, mut bare_ms) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        let dir = tempdir();
        let ops = Arc::new(Mutex::new(Vec::new()));
        let disk = Recording {
            inner: RealDisk::default(),
            root: dir.path().to_path_buf(),
            ops: ops.clone(),
        };
        let model = Scripted::new(FILES);
        let (took, stats, _) = run(runtime, dir.path(), &model, ACTIONS, Box::new(disk));
        let ops = ops.lock().expect("ops").clone();
        let bare = bare_loop(&ops, &model, ACTIONS as usize);
        ratios.push(took.as_secs_f64() / bare.as_secs_f64());
        syncs.push(stats.syncs as f64 / ACTIONS as f64);
        runner_ms.push(took.as_secs_f64() * 1000.0 / ACTIONS as f64);
        bare_ms.push(bare.as_secs_f64() * 1000.0 / ACTIONS as f64);
    }
    row("runner time per action (context)", runner_ms, " ms", "");
    row("bare loop time per action (context)", bare_ms, " ms", "");
    row(
        "per-action overhead, runner / bare loop",
        ratios,
        "×",
        "≤ 1.5",
    );
    row(
        "fsyncs per action (minimum: 1 per write, 0 per read = 0.75)",
        syncs,
        "",
        "≤ 2",
    );
}

/// The same disk operations as `ops`, plus the workspace writes and reads of
/// the scripted actions, with nothing else.
fn bare_loop(ops: &[Op], model: &Scripted, actions: usize) -> Duration {
    let dir = tempdir();
    let root = dir.path();
    fs::create_dir_all(root.join(".agent_context/blobs")).expect("dirs");
    let started = Instant::now();
    let mut open: std::collections::HashMap<PathBuf, fs::File> = std::collections::HashMap::new();
    let bytes = vec![b'x'; 1 << 20];
    let mut replayed = 0;
    for n in 0..actions {
        // The action itself, as the tool does it.
        let file = root.join(format!("f{}.txt", n % model.files));
        if n % 4 == 3 {
            let _ = fs::read(root.join(format!("f{}.txt", (n - 1) % model.files)));
        } else {
            let tmp = root.join(format!(".f{}.tmp", n % model.files));
            fs::write(&tmp, &bytes[..model.content]).expect("write");
            fs::rename(&tmp, &file).expect("rename");
        }
        // Its share of the store's operations.
        let share = ops.len() * (n + 1) / actions;
        for op in &ops[replayed..share] {
            match op {
                Op::Append(path, len) => {
                    let file = open.entry(path.clone()).or_insert_with(|| {
                        fs::OpenOptions::new()
                            .create(true)
                            .append(true)
                            .open(root.join(path))
                            .expect("open")
                    });
                    file.write_all(&bytes[..*len]).expect("append");
                }
                Op::Sync(path) => match open.get(path) {
                    Some(file) => file.sync_data().expect("sync"),
                    None => fs::File::open(root.join(path))
                        .and_then(|f| f.sync_data())
                        .expect("sync"),
                },
                Op::Write(path, len) => {
                    open.remove(path);
                    fs::write(root.join(path), &bytes[..*len]).expect("write");
                }
                Op::Rename(from, to) => {
                    open.remove(from);
                    fs::rename(root.join(from), root.join(to)).expect("rename");
                }
                Op::SyncDir(path) => fs::File::open(root.join(path))
                    .and_then(|d| d.sync_all())
                    .expect("sync dir"),
            }
        }
        replayed = share;
    }
    started.elapsed()
}

/// Copies a workspace (to resume the same log several times).
fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).expect("dir");
        } else if entry.file_name() != "lock" {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Cost per action and resume time with 100, 1,000 and 10,000 actions in
/// the log.
fn growth(runtime: &tokio::runtime::Runtime, repeats: usize, sizes: &[u32]) {
    const MORE: u32 = 100;
    let mut per_action = Vec::new();
    let mut resume = Vec::new();
    for &size in sizes {
        let built = tempdir();
        run(
            runtime,
            built.path(),
            &Scripted::new(FILES),
            size,
            Box::new(RealDisk::default()),
        );
        let (mut costs, mut synced, mut opens) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..repeats {
            let dir = tempdir();
            copy_dir(built.path(), dir.path());
            let started = Instant::now();
            let store = Store::open(
                dir.path(),
                Box::new(RealDisk::default()),
                OpenOptions::default(),
            );
            drop(store.expect("open"));
            opens.push(started.elapsed().as_secs_f64() * 1000.0);
            let scripted = Scripted::new(FILES);
            let (took, _, state) = run(
                runtime,
                dir.path(),
                &scripted,
                MORE,
                Box::new(NoSync::default()),
            );
            assert_eq!(state.rounds, size + MORE);
            costs.push(took.as_secs_f64() * 1000.0 / MORE as f64);
            let scripted = Scripted::new(FILES);
            let (took, _, _) = run(
                runtime,
                dir.path(),
                &scripted,
                MORE,
                Box::new(RealDisk::default()),
            );
            synced.push(took.as_secs_f64() * 1000.0 / MORE as f64);
        }
        let label = format!("cost per action with fsyncs, {size} actions in the log (context)");
        row(&label, synced, " ms", "");
        let label = format!("cost per action without fsyncs, {size} actions in the log");
        per_action.push(row(&label, costs, " ms", ""));
        resume.push(row(
            &format!("resume (open + load), {size} actions in the log"),
            opens,
            " ms",
            "≤ 20 ms",
        ));
    }
    let (first, last) = (0, sizes.len() - 1);
    println!(
        "| cost per action without fsyncs, {} / {} actions | {:.3}× | | ≤ 1.2 |",
        sizes[last],
        sizes[first],
        per_action[last] / per_action[first]
    );
    println!(
        "| resume, {} / {} actions | {:.3}× | | ≤ 1.2 |",
        sizes[last],
        sizes[first],
        resume[last] / resume[first]
    );
}

/// Bytes sent to the model at round 20 and round 200 of a long run.
fn prompt_size(runtime: &tokio::runtime::Runtime) {
    let dir = tempdir();
    let model = Scripted::new(FILES);
    run(
        runtime,
        dir.path(),
        &model,
        210,
        Box::new(RealDisk::default()),
    );
    let sizes = model.prompt_bytes.lock().expect("sizes").clone();
    let at = |round: usize| {
        sizes
            .iter()
            .find(|(r, _)| *r == round)
            .map_or(0.0, |(_, b)| *b as f64)
    };
    let (at20, at200) = (at(20), at(200));
    println!("| prompt bytes at round 20 (context) | {at20} | | |");
    println!("| prompt bytes at round 200 (context) | {at200} | | |");
    println!(
        "| prompt size, round 200 / round 20 | {:.3}× | | within 10% |",
        at200 / at20
    );
}

/// A round on a workspace of 100,000 files next to one on an empty one
/// (without fsyncs: their latency is the same in both and only adds noise).
fn workspace_size(runtime: &tokio::runtime::Runtime, repeats: usize) {
    const ACTIONS: u32 = 300;
    let (big, empty) = (tempdir(), tempdir());
    for d in 0..100 {
        let folder = big.path().join(format!("d{d}"));
        fs::create_dir_all(&folder).expect("dir");
        for f in 0..1000 {
            fs::write(folder.join(format!("{f}.py")), b"x = 1\n").expect("file");
        }
    }
    // Let the writeback of 100,000 new files finish before measuring.
    // SAFETY: sync(2) takes no arguments and cannot fail.
    unsafe { libc::sync() };
    // Each run starts from the same point: no context, none of the files
    // the scripted model writes (an overwrite keeps a blob, a creation not).
    let fresh = |workspace: &Path| {
        let _ = fs::remove_dir_all(workspace.join(".agent_context"));
        for n in 0..FILES {
            let _ = fs::remove_file(workspace.join(format!("f{n}.txt")));
        }
    };
    let time = |workspace: &Path| {
        fresh(workspace);
        let (took, _, _) = run(
            runtime,
            workspace,
            &Scripted::new(FILES),
            ACTIONS,
            Box::new(NoSync::default()),
        );
        took.as_secs_f64()
    };
    let mut ratios = Vec::new();
    for i in 0..repeats {
        // Alternate which goes first, so neither gets the warmer cache.
        let (large, small) = if i % 2 == 0 {
            let large = time(big.path());
            (large, time(empty.path()))
        } else {
            let small = time(empty.path());
            (time(big.path()), small)
        };
        ratios.push(large / small);
    }
    row(
        "a round, 100,000-file workspace / empty one",
        ratios,
        "×",
        "≤ 1.2",
    );
}

/// The workspace map of a 10,000-file project (100 folders of 100 modules
/// and a test each): the time to walk and render it, and its bytes, which
/// the budget holds at ~1,500 tokens whatever the size. No language is
/// asked (their toolchains' time is theirs): this is the walk, the ranking
/// and the rendering.
fn map_size(repeats: usize) {
    let dir = tempdir();
    for d in 0..100 {
        let folder = dir.path().join(format!("pkg{d}"));
        fs::create_dir_all(&folder).expect("dir");
        for f in 0..99 {
            fs::write(
                folder.join(format!("module_{f}.py")),
                b"def f(x):\n    return x\n",
            )
            .expect("file");
        }
        fs::write(folder.join("test_pkg.py"), b"def test_f():\n    pass\n").expect("file");
    }
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..repeats {
        let started = Instant::now();
        let map = Map::build(dir.path(), &[], "change f in pkg7/module_3.py");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        bytes = map.text().len();
    }
    row(
        "workspace map of 10,000 files: time",
        times,
        " ms",
        "(context)",
    );
    row(
        "workspace map of 10,000 files: bytes",
        vec![bytes as f64],
        " B",
        "≤ 6,000 (~1,500 tokens)",
    );
}

/// Peak RSS, measured in child processes so each starts clean.
fn memory(quick: bool) {
    let child = |mode: &str| -> f64 {
        let out = std::process::Command::new(std::env::current_exe().expect("exe"))
            .env("RUNNER_BENCH_CHILD", mode)
            .output()
            .expect("child");
        let text = String::from_utf8_lossy(&out.stdout);
        text.trim().parse::<f64>().unwrap_or_else(|_| {
            panic!(
                "child {mode}: {text} {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
    };
    let base = child("run:100");
    let long = if quick {
        child("run:1000")
    } else {
        child("run:10000")
    };
    let loud = child("loud");
    let actions = if quick { "1,000" } else { "10,000" };
    println!("| peak RSS, 100-action run (context) | {base:.1} MB | | |");
    println!(
        "| peak RSS, {actions}-action run | {long:.1} MB | | flat: {:.2}× the 100-action run |",
        long / base
    );
    println!(
        "| peak RSS added by a command printing 300 MB | {:.1} MB | | < 64 MB |",
        loud - base
    );
}

fn child_mode(mode: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempdir();
    match mode.split_once(':') {
        // A run in a given workspace, for profiling (callgrind, strace).
        Some(("in", workspace)) => {
            let workspace = Path::new(workspace);
            run(
                &runtime,
                workspace,
                &Scripted::new(FILES),
                50,
                Box::new(NoSync::default()),
            );
        }
        Some(("run", n)) => {
            run(
                &runtime,
                dir.path(),
                &Scripted::new(FILES),
                n.parse().expect("count"),
                Box::new(RealDisk::default()),
            );
        }
        _ => {
            let mut model = Scripted::new(FILES);
            model.loud = true;
            run(
                &runtime,
                dir.path(),
                &model,
                2,
                Box::new(RealDisk::default()),
            );
        }
    }
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0);
    println!("{}", kb / 1024.0);
}

/// The same run over HTTP against a server on 127.0.0.1 speaking Ollama's
/// format: the client's own cost per call.
fn over_http(runtime: &tokio::runtime::Runtime, repeats: usize) {
    const ACTIONS: u32 = 100;
    let mut costs = Vec::new();
    for _ in 0..repeats {
        let dir = tempdir();
        let (local, _, _) = run(
            runtime,
            dir.path(),
            &Scripted::new(FILES),
            ACTIONS,
            Box::new(RealDisk::default()),
        );
        let scripted = Arc::new(Scripted::new(FILES));
        let server = Server::start(scripted);
        let client = OllamaClient::new(ClientConfig {
            base_url: server.url.clone(),
            model: "bench".into(),
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(60),
        })
        .expect("client");
        let dir = tempdir();
        let (remote, _, state) = run(
            runtime,
            dir.path(),
            &client,
            ACTIONS,
            Box::new(RealDisk::default()),
        );
        costs
            .push((remote.as_secs_f64() - local.as_secs_f64()) * 1000.0 / state.model_calls as f64);
    }
    row(
        "HTTP client cost per model call (fake Ollama on 127.0.0.1)",
        costs,
        " ms",
        "",
    );
}
