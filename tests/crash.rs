//! Crash-proofing end to end, with the real binary against the fake Ollama:
//! killed (SIGKILL) at random moments, aborted at every failpoint of the
//! store, failing with ENOSPC and EIO, interrupted by signals. After each,
//! the log and the checkpoint hold, and a resume finishes the job with the
//! same files as an uninterrupted run.

use std::collections::BTreeMap;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use runner::state::Event;
use serde_json::Value;

use crate::support::Test;
use crate::support::invariants::{self, Log, UNKNOWN};

mod disk;
mod stops;

/// A scripted job to crash.
#[derive(Clone, Copy)]
struct Scenario {
    script: &'static str,
    goal: &'static str,
    args: &'static [&'static str],
}

/// Writes, commands (`sh`, fast), a reply of four calls, read-only calls.
const JOIN: Scenario = Scenario {
    script: "crash_join",
    goal: "Join two parts and check them",
    args: &["--allow", "sh"],
};

/// The pytest scenario of the core tests: slow commands a kill often hits.
const RPS: Scenario = Scenario {
    script: "rps_pytest",
    goal: "Create a rock-paper-scissors game with pytest tests",
    args: &[],
};

impl Scenario {
    fn test(self) -> Test {
        Test::new()
            .script(self.script)
            .args(self.args.iter().copied())
    }

    /// The files of an uninterrupted run, and how long one takes (the
    /// faster of two: the first pays for a cold start).
    fn baseline(self) -> (BTreeMap<String, String>, Duration) {
        let mut runs = (0..2).map(|_| {
            let test = self.test();
            let started = Instant::now();
            test.run_with(&[self.goal]).assert_code(0);
            let took = started.elapsed();
            invariants::check_finished(&test.workspace);
            (invariants::workspace_files(&test.workspace), took)
        });
        let (files, first) = runs.next().unwrap_or_default();
        let (again, second) = runs.next().unwrap_or_default();
        assert_eq!(files, again, "an uninterrupted run is deterministic");
        (files, first.min(second))
    }
}

/// Spawns the runner with stderr in a file (read it with [`stderr`]) and no
/// core dumps (an abort must stay cheap).
fn spawn(test: &Test, extra: &[&str], env: &[(&str, &str)]) -> Child {
    let mut command: Command = test.command(extra);
    let err = std::fs::File::create(test.home.join("stderr")).expect("stderr file");
    command
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        command.pre_exec(|| {
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            Ok(())
        });
    }
    command.spawn().expect("spawn the runner")
}

fn stderr(test: &Test) -> String {
    std::fs::read_to_string(test.home.join("stderr")).unwrap_or_default()
}

/// The runner's workspace files equal the uninterrupted run's, and it never
/// ran a command it did not announce (each run leaves a line in runs.log).
fn check_outcome(test: &Test, expected: &BTreeMap<String, String>) {
    invariants::check_finished(&test.workspace);
    assert_eq!(&invariants::workspace_files(&test.workspace), expected);
    let announced = Log::read(&test.context())
        .records
        .iter()
        .filter(|r| matches!(&r.event, Event::ActionStarted { tool, .. } if tool == "run_cmd"))
        .count();
    let ran = std::fs::read_to_string(test.workspace.join("runs.log"))
        .unwrap_or_default()
        .lines()
        .count();
    assert!(
        ran <= announced,
        "{ran} command runs for {announced} announced ones"
    );
}

/// The round requests the server got from `from` on.
fn round_requests(test: &Test, from: usize) -> Vec<Value> {
    test.server().round_requests().split_off(from)
}

fn context_block(request: &Value) -> String {
    crate::support::context(request)
}

/// Whether the records hold a command finished as [`UNKNOWN`].
fn reconciled_a_command(records: &[runner::state::Record]) -> bool {
    records.iter().any(|r| {
        matches!(&r.event, Event::ActionFinished { outcome, .. }
            if outcome.command.is_some() && outcome.result.contains(UNKNOWN))
    })
}

/// Tracks that the model is told about a command a crash interrupted: the
/// first round request after its reconciliation carries [`UNKNOWN`] in the
/// context block.
#[derive(Default)]
struct Telling {
    pending: bool,
    told: u32,
    /// Kills that left a torn record (cut by the next run).
    torn: u32,
}

impl Telling {
    /// After an invocation that added `records` and made `requests`.
    fn after(&mut self, records: &[runner::state::Record], requests: &[Value]) {
        self.pending |= reconciled_a_command(records);
        if self.pending && !requests.is_empty() {
            let context = context_block(&requests[0]);
            assert!(
                context.contains(UNKNOWN),
                "the model was not told about the interrupted command:\n{context}"
            );
            self.pending = false;
            self.told += 1;
        }
    }
}

/// Kills a run of `scenario` at random moments of `rng` (at most
/// `max_kills` times), restarting it with `resume` or the same command,
/// checking every invariant after each kill, until the goal is achieved.
/// Returns the kills.
fn soak_once(
    scenario: Scenario,
    expected: &BTreeMap<String, String>,
    window: Duration,
    rng: &mut fastrand::Rng,
    max_kills: u32,
    telling: &mut Telling,
) -> u32 {
    let test = scenario.test();
    let mut kills = 0;
    let mut before = Log::default();
    loop {
        let requests = test.server().round_requests().len();
        let extra = if before.records.is_empty() || rng.bool() {
            scenario.goal
        } else {
            "resume"
        };
        let mut child = spawn(&test, &[extra], &[]);
        if kills < max_kills {
            // Within the first half of a whole run: most kills land, and
            // each restart still gets further than the one before.
            let delay = rng.u64(0..=window.as_micros() as u64 / 2);
            std::thread::sleep(Duration::from_micros(delay));
            let _ = child.kill();
        }
        let status = child.wait().expect("wait for the runner");
        let log = invariants::check_after_crash(&test.context(), &before);
        telling.after(log.since(&before), &round_requests(&test, requests));
        telling.torn += u32::from(log.torn);
        before = log;
        if status.signal() == Some(libc::SIGKILL) {
            kills += 1;
            continue;
        }
        assert_eq!(status.code(), Some(0), "{}", stderr(&test));
        check_outcome(&test, expected);
        return kills;
    }
}

/// The seed of the kill moments: `RUNNER_SOAK_SEED`, or a new one, printed
/// so that a failure can be replayed (the timing still varies).
fn seed() -> u64 {
    let seed = std::env::var("RUNNER_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fastrand::u64(..));
    eprintln!("kill -9 soak: RUNNER_SOAK_SEED={seed}");
    seed
}

/// Kills `scenario` until `kills` SIGKILLs have landed, in as many runs as
/// that takes.
fn soak(scenario: Scenario, kills: u32, max_kills_per_run: u32) {
    let mut rng = fastrand::Rng::with_seed(seed());
    let (expected, took) = scenario.baseline();
    let mut telling = Telling::default();
    let (mut landed, mut runs) = (0, 0);
    while landed < kills {
        landed += soak_once(
            scenario,
            &expected,
            took,
            &mut rng,
            max_kills_per_run,
            &mut telling,
        );
        runs += 1;
    }
    eprintln!(
        "{}: {landed} kills over {runs} runs (an uninterrupted run takes {took:?}); {} left a \
         torn record; the model was told about {} interrupted commands",
        scenario.script, telling.torn, telling.told
    );
}

#[test]
fn kill_9_at_random_moments_loses_nothing_and_resume_finishes() {
    soak(JOIN, 180, 8);
}

#[test]
fn kill_9_during_slow_commands_never_runs_them_again_behind_the_models_back() {
    soak(RPS, 20, 4);
}
