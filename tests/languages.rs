//! Languages other than Python, through the seam: a scripted model writes a
//! JavaScript module and its tests, and the plan's check is `node --test`.

use crate::support::Test;

#[test]
fn a_javascript_module_and_its_tests_pass_node_test() {
    let test = Test::new().script("javascript").args([
        "Write an add function in JavaScript with tests",
        "--max-rounds",
        "12",
    ]);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();
    assert!(state.tree.is_achieved());
    // The plan's `npm test` became the run of the planned tests.
    let subtasks: Vec<&str> = state.tree.tasks[0]
        .subtasks
        .iter()
        .map(|s| s.description.as_str())
        .collect();
    assert_eq!(
        subtasks.last(),
        Some(&"Run `node --test` and make it succeed (fix the files if it fails)")
    );
    assert!(subtasks[1].contains("require('./add.js')"), "{subtasks:?}");
    // The test file node could not compile was refused in node's words,
    // and never written.
    let refused = test.refusals();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].starts_with("not written: node cannot read add.test.js"),
        "{}",
        refused[0]
    );
    assert!(
        test.read("add.test.js")
            .contains("assert.strictEqual(add(1, 2), 3)")
    );
    let codes: Vec<_> = state
        .commands
        .iter()
        .map(|c| (c.command.as_str(), c.exit_code))
        .collect();
    // The model's run of the check, then the completion check's.
    assert_eq!(codes, [("node --test", Some(0)), ("node --test", Some(0))]);
    assert_eq!(state.checks[0].tests.map(|t| t.failed), Some(0));
}
