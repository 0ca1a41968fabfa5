//! Runs on a workspace that already holds a project (issue 19): files are
//! never replaced unseen, edits and searches work on them, refusals end.

use runner::state::Event;
use serde_json::Value;

use crate::support::Test;
use crate::support::project::HELLO;

/// A folder that already holds hello_world.py, and a model that only ever
/// claims the subtask is done: before, 72 refused claims, 48 nudges and every
/// round spent. The same refusal again is a blocked loop, so the subtask is
/// given up as stuck and the run ends, not achieved, with a clear reason.
#[test]
fn repeated_refused_claims_end_within_the_nudge_budget() {
    let test = Test::new()
        .project(&[("hello_world.py", HELLO)])
        .script("refused_claims")
        .args(["Write a hello world script"]);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let records = test.records();
    let claims = records
        .iter()
        .filter(|r| {
            matches!(&r.event, Event::CallRejected { tool, .. } | Event::ActionBlocked { tool, .. }
                if tool == "mark_subtask_complete")
        })
        .count();
    assert!(claims < 24, "{claims} refused claims");
    // Refused once per subtask; the repeats are blocked (the calls left
    // in a reply after its subtask ended are not the model's loop).
    let counted = records
        .iter()
        .filter(|r| {
            matches!(
                &r.event,
                Event::CallRejected {
                    signature: Some(_),
                    ..
                }
            )
        })
        .count();
    assert!(
        counted <= 2,
        "one refusal per subtask, then blocks: {counted}"
    );
    assert!(state.loop_nudges <= 5, "{}", state.loop_nudges);
    assert!(state.rounds < 24, "rounds {}", state.rounds);
    let stuck = records.iter().any(|r| {
        matches!(&r.event, Event::SubtaskEnded { success: false, reason, .. }
            if reason.contains("stuck in a loop"))
    });
    assert!(stuck, "{}", run.stderr);
    let loops: Value =
        serde_json::from_str(&std::fs::read_to_string(test.context().join("loops.json")).unwrap())
            .unwrap();
    assert_eq!(loops[0]["tool"], "mark_subtask_complete");
    assert_eq!(test.read("hello_world.py"), HELLO, "nothing was written");
}
