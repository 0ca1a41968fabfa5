//! The runner on an existing project: the planner and the round are shown
//! the workspace map, and the probe reports the files there before the run
//! that the run changed.

use std::path::Path;
use std::time::Duration;

use runner::agent::{Agent, Silent};
use runner::lang::{Definition, Language, Problem, Review, Workspace};
use runner::model::ollama::OllamaClient;
use runner::model::{ClientConfig, RetryPolicy};
use runner::settings::Settings;
use runner::state::{BaselineFile, Event};
use runner::stop::Stop;
use runner::store::{OpenOptions, RealDisk, Store};
use runner::tools::Toolbox;
use serde_json::Value;

use crate::support::{FakeOllama, Test};

const CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef average(numbers):\n    return sum(numbers) / (len(numbers) + 1)\n";
const TEST_CALC: &str = "from calc import add, average\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n";

/// The planner's request: the one whose format asks for tasks.
fn planner_prompt(server: &FakeOllama) -> String {
    let planned: Vec<Value> = server
        .requests()
        .into_iter()
        .filter(|r| r["format"]["properties"].get("tasks").is_some())
        .collect();
    assert_eq!(planned.len(), 1, "one plan request");
    planned[0]["messages"].to_string()
}

fn sha256(text: &str) -> String {
    runner::digest::sha256_hex(text.as_bytes())
}

#[test]
fn an_existing_project_is_mapped_for_the_plan_and_its_changed_files_are_probed() {
    let test = Test::new()
        .script("existing_project")
        .file("calc.py", CALC)
        .file("test_calc.py", TEST_CALC)
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();

    let planner = planner_prompt(test.server());
    assert!(planner.contains("calc.py (101 B)"), "{planner}");
    assert!(planner.contains("test_calc.py (128 B)"), "{planner}");
    assert!(planner.contains("A task may change a file that is already there"));

    let baseline: Vec<BaselineFile> = state.baseline.files.values().cloned().collect();
    let recorded: Vec<(String, u64, Option<String>)> = baseline
        .into_iter()
        .map(|f| (f.path, f.size, f.sha256))
        .collect();
    assert_eq!(
        recorded,
        [
            ("calc.py".to_string(), 101, Some(sha256(CALC))),
            ("test_calc.py".to_string(), 128, Some(sha256(TEST_CALC))),
        ]
    );
    let probed: Vec<Event> = test
        .records()
        .into_iter()
        .map(|r| r.event)
        .filter(|e| matches!(e, Event::BaselineProbed { .. }))
        .collect();
    assert_eq!(
        probed,
        [Event::BaselineProbed {
            changed: vec!["calc.py".into()],
            deleted: vec![],
        }]
    );
    // The round of a subtask naming a file of the map has the map in its
    // standing block, before the conversation; the system prompt is the
    // same in every round.
    let rounds = test.server().round_requests();
    let standing = &rounds[0]["messages"][1];
    assert_eq!(standing["role"], "user");
    let standing = standing["content"].as_str().unwrap();
    assert!(standing.contains("WORKSPACE (2 files"), "{standing}");
    let system = |r: &Value| r["messages"][0]["content"].clone();
    assert!(rounds.iter().all(|r| system(r) == system(&rounds[0])));
    let told = rounds.iter().any(|r| {
        r.to_string()
            .contains("FILES THERE BEFORE THE RUN: changed calc.py")
    });
    assert!(told, "no round was told calc.py changed");
    assert!(test.read("calc.py").contains("def add(a, b)"));
}

/// A language as the seam gives one: Python files, `test_` files are
/// tests, definitions by name (what the double knows; a real language asks
/// its parser).
struct Named;

impl Language for Named {
    fn run_command(&self, path: &str) -> String {
        format!("python3 {path}")
    }
    fn runs_tests(&self, command: &str) -> bool {
        command.contains("pytest")
    }
    fn test_file_hint(&self, _program: &str) -> String {
        String::new()
    }
    fn name(&self) -> &'static str {
        "named"
    }
    fn owns(&self, path: &str) -> bool {
        path.ends_with(".py")
    }
    fn is_test(&self, path: &str) -> bool {
        path.starts_with("test_")
    }
    fn check_command(&self, _: &Path, _: &[String]) -> Option<String> {
        Some("python3 -m pytest -q".into())
    }
    fn definitions(&self, files: &[(String, String)]) -> Vec<Vec<Definition>> {
        let defined = |text: &str| -> Vec<Definition> {
            text.lines()
                .filter_map(|l| l.strip_prefix("def "))
                .filter_map(|l| l.split_once('('))
                .map(|(name, _)| Definition {
                    kind: "def".into(),
                    name: name.into(),
                    signature: format!("{name}(...)"),
                    line: 0,
                })
                .collect()
        };
        files.iter().map(|(_, text)| defined(text)).collect()
    }
    fn review(&self, _: &str, _: &str, _: &dyn Workspace) -> Review {
        Review::Accept
    }
    fn failures(&self, _: &str) -> Vec<Problem> {
        Vec::new()
    }
}

#[test]
fn the_planner_is_sent_the_definitions_tests_and_check_the_languages_give() {
    let server = FakeOllama::from_fixture("existing_project");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("calc.py"), CALC).unwrap();
    std::fs::write(root.join("test_calc.py"), TEST_CALC).unwrap();
    let mut settings = Settings::new(root.clone());
    settings.model = server.model().into();
    settings.max_rounds = 0;
    settings.reflection = false;
    let client = OllamaClient::new(ClientConfig {
        base_url: format!("{}/", server.url()),
        model: server.model().into(),
        retry: RetryPolicy::default(),
        timeout: Duration::from_secs(60),
    })
    .unwrap();
    let mut store =
        Store::open(&root, Box::new(RealDisk::default()), OpenOptions::default()).unwrap();
    let tools = Toolbox::new(&root, settings.tools.clone());
    let languages: Vec<Box<dyn Language>> = vec![Box::new(Named)];
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime
        .block_on(
            Agent::new(
                &settings,
                &mut store,
                &client,
                &tools,
                &mut Silent,
                Stop::never(),
            )
            .with_languages(&languages)
            .run("Fix the bug in calc.py so that the tests in test_calc.py pass"),
        )
        .unwrap();
    let planner = planner_prompt(&server);
    assert!(
        planner.contains("calc.py (101 B): def add(...), def average(...)"),
        "{planner}"
    );
    assert!(
        planner.contains("test_calc.py (128 B) [test]: def test_add(...), def test_average(...)"),
        "{planner}"
    );
    assert!(planner.contains("The project's tests run with: `python3 -m pytest -q`"));
}
