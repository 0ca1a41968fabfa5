//! `.agent_context.example/` holds the files of a real run of the hello-world
//! scenario. This test makes a fresh run and checks that the committed
//! example has the same shape; with RUNNER_REGENERATE_EXAMPLE=1 it replaces
//! the example with the fresh run (`scripts/regenerate-example`).

use std::path::Path;

use runner::state::State;
use runner::store::log;

use crate::support::Test;

/// What a person compares: the event names in order and the final tree.
fn shape(dir: &Path) -> (Vec<String>, State) {
    let bytes = std::fs::read(dir.join("history.jsonl")).expect("history.jsonl");
    let (found, bad) = log::scan(&bytes);
    assert!(bad.is_none(), "{bad:?}");
    let names = found
        .iter()
        .map(|f| f.record.event.name().to_string())
        .collect();
    let state = State::replay(found.iter().map(|f| &f.record));
    (names, state)
}

#[test]
fn the_example_context_is_a_real_hello_world_run() {
    let test = Test::new()
        .script("hello")
        .args(["Write a hello world script"]);
    test.run().assert_code(0);
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join(".agent_context.example");
    if std::env::var_os("RUNNER_REGENERATE_EXAMPLE").is_some() {
        let _ = std::fs::remove_dir_all(&example);
        std::fs::create_dir_all(&example).unwrap();
        for entry in std::fs::read_dir(test.context()).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            // The lock holds the pid of a process long gone: not worth reading.
            if name != "lock" && entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), example.join(&name)).unwrap();
            }
        }
    }
    let (fresh_events, fresh_state) = shape(&test.context());
    let (example_events, example_state) = shape(&example);
    assert_eq!(
        example_events, fresh_events,
        "regenerate with scripts/regenerate-example"
    );
    assert_eq!(example_state.tree, fresh_state.tree);
    let checkpoint = std::fs::read(example.join("state.json")).unwrap();
    let (checkpointed, _) = runner::store::checkpoint::decode(&checkpoint).unwrap();
    assert_eq!(
        checkpointed, example_state,
        "the example's state.json is its log replayed"
    );
    for file in ["ledger.log", "agent.log"] {
        assert!(example.join(file).exists(), "{file} is in the example");
    }
}
