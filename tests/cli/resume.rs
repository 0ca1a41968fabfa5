//! `runner resume` as the runner prints it goes on with the run's model and
//! server; a flag given to it overrides them, with a notice.

use super::{GOAL, Ran, bare, quoted_after, run, run_hint};
use crate::support::Test;

/// A run stopped by its round budget, started with flags only: the model
/// and server it uses are nowhere in the environment.
fn stopped_run() -> (Test, Ran) {
    let test = Test::new().script("rps_pytest");
    let (url, model) = (test.server().url(), test.server().model().to_string());
    let first = run(bare(&test.workspace, &test.home).args([
        "--host",
        &url,
        "--model",
        &model,
        "--max-rounds",
        "1",
        GOAL,
    ]));
    assert_eq!(first.code, Some(1), "{}", first.stderr);
    (test, first)
}

/// The hint went on with the run: the same server was asked again, and
/// the model was found.
fn assert_went_on(test: &Test, before: usize, hint: &str, ran: &Ran) {
    assert!(!matches!(ran.code, Some(2 | 3)), "{hint}: {}", ran.stderr);
    assert!(!ran.stderr.contains("not found"), "{}", ran.stderr);
    assert!(
        test.server().requests().len() > before,
        "{hint} asked the run's server"
    );
}

#[test]
fn resume_as_printed_after_rounds_spent_goes_on_with_the_runs_model_and_server() {
    let (test, first) = stopped_run();
    let hint = quoted_after(&first.stderr, "rounds spent");
    assert_eq!(hint, "runner resume");
    let before = test.server().requests().len();
    let resumed = run_hint(&hint, &test.workspace, &test.home);
    assert_went_on(&test, before, &hint, &resumed);
}

#[test]
fn the_resume_hint_of_status_works_from_another_folder() {
    let (test, _) = stopped_run();
    let status = run(bare(&test.workspace, &test.home).arg("status"));
    let hint = status
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("Resume with: "))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("a hint in {}", status.stdout));
    assert!(!hint.contains("--model"), "the run recorded it: {hint}");
    let before = test.server().requests().len();
    let resumed = run_hint(&hint, test.root(), &test.home);
    assert_went_on(&test, before, &hint, &resumed);
}

#[test]
fn a_flag_given_to_resume_overrides_the_run_with_a_notice() {
    let test = Test::new().script("rps_pytest");
    let (url, model) = (test.server().url(), test.server().model().to_string());
    let dir = &test.workspace;
    run(bare(dir, &test.home).args(["--host", &url, "--model", &model, "--max-rounds", "1", GOAL]));
    let other = run(bare(dir, &test.home).args(["resume", "--model", "other:1b"]));
    assert!(
        other.stderr.contains(&format!(
            "resuming with --model other:1b; the run started with {model}"
        )),
        "{}",
        other.stderr
    );
    assert_eq!(
        other.code,
        Some(3),
        "the fake server has no other:1b: {}",
        other.stderr
    );
}

#[test]
fn the_run_records_how_it_reached_the_model() {
    let test = Test::new()
        .script("hello")
        .args(["Write a hello world script"]);
    test.run().assert_code(0);
    let server = test.checkpoint().server;
    assert_eq!(
        server.host.as_deref(),
        Some(test.server().url().as_str())
            .map(|u| {
                if u.ends_with('/') {
                    u.to_string()
                } else {
                    format!("{u}/")
                }
            })
            .as_deref()
    );
    assert_eq!(server.api, Some(runner::model::Api::Ollama));
}

#[test]
fn an_environment_that_names_another_model_is_not_followed_but_said() {
    let (test, _) = stopped_run();
    let model = test.server().model().to_string();
    let before = test.server().requests().len();
    let resumed = run(bare(&test.workspace, &test.home)
        .env("OLLAMA_MODEL", "other:1b")
        .arg("resume"));
    assert!(
        resumed.stderr.contains(&format!(
            "resuming with the run's {model}, not other:1b from OLLAMA_MODEL; pass --model other:1b"
        )),
        "{}",
        resumed.stderr
    );
    assert_went_on(&test, before, "runner resume", &resumed);
}
