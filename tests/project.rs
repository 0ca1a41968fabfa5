//! Runs on a workspace that already holds a project (issue 19): files are
//! never replaced unseen, edits and searches work on them, refusals end.

use runner::state::{Event, RefusalKind};
use serde_json::Value;

use crate::support::Test;
use crate::support::project::{CALC, HELLO, TEST_CALC};

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
    // At most 18 a subtask (the stuck limit and its nudges); the plan's
    // subtask, then one cycle that asked for it again and changed nothing,
    // so no second cycle.
    assert!(claims <= 36, "{claims} refused claims");
    assert_eq!(state.cycles, 1);
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
        counted <= 4,
        "one refusal per subtask (of the plan and of its cycle), then blocks: {counted}"
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

/// A model that rewrites calc.py without reading it (neither the goal nor
/// the plan names the file, so the context block does not show it):
/// refused once with the file shown (add included), then its whole write
/// keeps add.
#[test]
fn a_blind_rewrite_is_refused_with_the_file_shown_then_done_right() {
    let test = Test::new()
        .calc_project()
        .script("blind_rewrite")
        .args(["Fix the average function"]);
    let run = test.run();
    let records = test.records();
    let refusals: Vec<&String> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::CallRejected {
                error,
                seen: Some(seen),
                ..
            } if seen.path == "calc.py" => Some(error),
            _ => None,
        })
        .collect();
    assert_eq!(refusals.len(), 1, "{}", run.stderr);
    assert!(refusals[0].contains("def add(a, b):"), "{}", refusals[0]);
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(xs) - 1)", "len(xs)"),
        "add is kept"
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.seen.get("calc.py"),
        Some(&runner::tools::sha256_hex(test.read("calc.py").as_bytes()))
    );
}

/// A model's whole-file write over a file of the project that drops its
/// last line break (t1's temp-fix wrote the project's test file back so,
/// and the file the goal must keep was no longer what it was): the file
/// keeps it, and the write, its hashes and a replay agree.
#[test]
fn a_write_over_a_file_keeps_its_last_line_break() {
    let mut script: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/scripts/blind_rewrite.json"))
            .expect("script");
    let fixed = CALC.replace("(len(xs) - 1)", "len(xs)");
    script["rules"][2]["reply"]["tool_calls"][0]["arguments"]["content"] =
        serde_json::json!(fixed.trim_end());
    let script: crate::support::fake_ollama::Script =
        serde_json::from_value(script).expect("script");
    let test = Test::new()
        .calc_project()
        .serving(script)
        .args(["Fix the average function"]);
    let run = test.run();
    assert_eq!(test.read("calc.py"), fixed, "{}", run.stderr);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.seen.get("calc.py"),
        Some(&runner::tools::sha256_hex(fixed.as_bytes()))
    );
}

/// A write of the project's test file without its import, its last line
/// break and a blank line between its tests (t1's temp-fix, but for the
/// blank lines): its language puts the import back, and the
/// mended write, which is the file again but for blank lines, keeps the
/// file as it was, byte for byte.
#[test]
fn a_mended_write_that_is_the_file_again_keeps_it_as_it_was() {
    let stripped = TEST_CALC
        .strip_prefix("from calc import add, average\n")
        .expect("the import")
        .trim_end()
        .replace("\n\n\n", "\n\n");
    let write = serde_json::json!({"tool_calls": [{"name": "write_file",
        "arguments": {"path": "test_calc.py", "content": stripped}}]});
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Fix the average function",
            "subtasks": ["Fix the average function"]}]},
        "rules": [
            {"name": "done", "last_tool": "nothing changed",
             "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "done"}}]}},
            {"name": "shown", "last_tool": "not written: test_calc.py already exists", "reply": write},
        ],
        "otherwise": write
    }))
    .expect("script");
    let test = Test::new().calc_project().serving(script).args([
        "Fix the average function",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "{}", run.stderr);
}

/// A subtask that names a file there before the run: the context block of
/// its first question shows the file whole, recorded as shown, so the
/// model's first whole write of it goes ahead, and keeps add.
#[test]
fn a_file_the_subtask_names_is_shown_before_the_first_write() {
    let test = Test::new()
        .calc_project()
        .script("shown_first")
        .args(["Fix average in calc.py"]);
    let run = test.run();
    run.assert_code(0);
    let first = &test.server().round_requests()[0];
    let context = crate::support::context(first);
    assert!(
        context.contains("CONTENT OF calc.py:") && context.contains("def add(a, b):"),
        "{context}"
    );
    let records = test.records();
    let shown = records
        .iter()
        .position(|r| {
            matches!(&r.event, Event::FilesShown { files }
            if files.iter().any(|f| f.path == "calc.py"
                && f.sha256 == runner::tools::sha256_hex(CALC.as_bytes())))
        })
        .expect("calc.py recorded as shown");
    let replied = records
        .iter()
        .position(|r| matches!(r.event, Event::ModelReplied { .. }))
        .expect("a reply");
    assert!(shown < replied, "shown before the question");
    let refused = records
        .iter()
        .any(|r| matches!(r.event, Event::CallRejected { .. }));
    assert!(!refused, "{}", run.stderr);
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(xs) - 1)", "len(xs)")
    );
    test.assert_replay_matches();
}

/// A plan that writes a file the workspace holds says to change it and
/// keep the rest; a new file is still written.
#[test]
fn a_planned_write_of_an_existing_file_is_a_change() {
    let test = Test::new().calc_project().script("change_plan").args([
        "Fix average in calc.py and add tests",
        "--max-rounds",
        "2",
    ]);
    let run = test.run();
    let subtasks = planned(&test)[0].subtasks.clone();
    assert!(
        subtasks[0].starts_with("Change calc.py: fix average")
            && subtasks[0].contains("keep the rest"),
        "{subtasks:?}\n{}",
        run.stderr
    );
    assert!(
        subtasks[1].starts_with("Write test_more.py"),
        "{subtasks:?}"
    );
}

/// edit_file with zero matches, then two, then one: each refusal shows
/// lines, the one match changes only that passage, and `diff` and
/// `rollback` cover the edit like a write.
#[test]
fn edits_with_zero_two_and_one_matches_then_diff_and_rollback() {
    let test = Test::new()
        .calc_project()
        .script("editing")
        .args(["Fix average in calc.py"]);
    let run = test.run();
    let results: Vec<String> = test
        .records()
        .iter()
        .filter_map(|r| match &r.event {
            Event::ActionFinished { outcome, .. } => Some(outcome.result.clone()),
            _ => None,
        })
        .collect();
    // Three edits, then the project's tests, which the plan did not run
    // and the runner added.
    assert_eq!(results.len(), 4, "{results:#?}\n{}", run.stderr);
    assert!(
        results[3].starts_with("$ python3 -m pytest -q\nexit code 0"),
        "{}",
        results[3]
    );
    assert!(results[0].contains("was not found"), "{}", results[0]);
    assert!(
        results[0].contains("6:     return sum(xs) / (len(xs) - 1)"),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("occurs 2 times (lines 2, 6)"),
        "{}",
        results[1]
    );
    assert!(results[2].starts_with("Edited calc.py"), "{}", results[2]);
    let fixed = CALC.replace("(len(xs) - 1)", "len(xs)");
    assert_eq!(test.read("calc.py"), fixed);
    test.assert_replay_matches();

    let diff = test.run_alone(&["diff"]);
    assert!(
        diff.stdout.contains("-    return sum(xs) / (len(xs) - 1)"),
        "{}",
        diff.stdout
    );
    assert!(
        diff.stdout.contains("+    return sum(xs) / len(xs)"),
        "{}",
        diff.stdout
    );
    test.run_alone(&["rollback", "--to", "0"]).assert_code(0);
    assert_eq!(test.read("calc.py"), CALC, "the edit is undone");
}

/// An edit that would leave calc.py unparsable (a model that quotes a
/// line without its indentation and writes the block around it) is
/// refused before it is written, with the parser's reason; calc.py stays
/// as it was until an edit that parses, and the project's tests pass.
#[test]
fn an_edit_that_breaks_the_file_is_refused_and_the_file_kept() {
    let test = Test::new()
        .calc_project()
        .script("broken_edit")
        .args(["Fix average in calc.py"]);
    let run = test.run();
    let records = test.records();
    let rejected: Vec<&str> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::CallRejected { tool, error, .. } if tool == "edit_file" => Some(error.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(rejected.len(), 1, "{rejected:#?}\n{}", run.stderr);
    assert!(
        rejected[0].starts_with("not edited: with this edit calc.py would be refused")
            && rejected[0].contains("calc.py is unchanged"),
        "{}",
        rejected[0]
    );
    assert!(
        rejected[0].contains("indent"),
        "the parser's reason: {}",
        rejected[0]
    );
    let edits: Vec<&str> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::ActionFinished { outcome, .. } if outcome.result.starts_with("Edited") => {
                Some(outcome.result.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        edits.len(),
        1,
        "only the edit that parses is written: {edits:#?}"
    );
    assert_eq!(
        test.read("calc.py"),
        CALC.replace(
            "    return sum(xs) / (len(xs) - 1)\n",
            "    if not xs:\n        return 0\n    return sum(xs) / len(xs)\n"
        )
    );
    run.assert_code(0);
}

/// A model told to make the project's tests pass that changes the test's
/// expected value to what the bug gives (Qwen2.5-Coder 1.5B did, on a plan
/// that named the test file): refused before it is written, with the
/// assert it would drop; the model fixes calc.py and the tests, unchanged,
/// pass.
#[test]
fn a_change_that_weakens_the_projects_tests_is_refused() {
    let test = Test::new()
        .calc_project()
        .script("weakens_tests")
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    let refused = tests_kept_refusals(&test);
    assert_eq!(refused.len(), 1, "{refused:#?}\n{}", run.stderr);
    assert!(
        refused[0].contains("test_calc.py was there before this run")
            && refused[0].contains("`assert average([1, 2, 3]) == 2`"),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "the tests are kept");
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(xs) - 1)", "len(xs)")
    );
    run.assert_code(0);
}

/// The project's tests written again with nothing changed but spacing
/// (t104's stock-fix: quotes) are refused: the goal's tests are the
/// user's file, and a fix leaves it as it was.
#[test]
fn the_projects_tests_written_again_in_other_spacing_are_refused() {
    let test = Test::new()
        .calc_project()
        .script("respaces_tests")
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    let refused = tests_kept_refusals(&test);
    assert_eq!(refused.len(), 1, "{refused:#?}\n{}", run.stderr);
    assert!(
        refused[0].contains("the same tests again, in other quotes or spacing"),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "the tests are kept");
    run.assert_code(0);
}

/// A fix that adds asserts to the project's tests that failed before the
/// run is refused: they are what the fix is measured by (t35's money-fix
/// added four asserts, one wrong, to the tests it was told to leave
/// alone, and no code could pass them then).
#[test]
fn an_assert_added_to_the_projects_failing_tests_is_refused() {
    let test = Test::new()
        .calc_project()
        .script("adds_to_tests")
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    let refused = tests_kept_refusals(&test);
    assert_eq!(refused.len(), 1, "{refused:#?}\n{}", run.stderr);
    assert!(
        refused[0].contains("its tests failed then")
            && refused[0].contains("`assert average([2, 4]) == 4`"),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "the tests are kept");
    run.assert_code(0);
}

/// A test function of its own, added beside the project's failing tests,
/// is no change of them: a goal may ask for a test of the bug it fixes.
#[test]
fn a_test_added_beside_the_projects_failing_tests_is_written() {
    let test = Test::new()
        .calc_project()
        .script("adds_a_test")
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py and add a test of it"]);
    let run = test.run();
    assert_eq!(
        tests_kept_refusals(&test),
        Vec::<String>::new(),
        "{}",
        run.stderr
    );
    assert!(
        test.read("test_calc.py")
            .ends_with("def test_average_of_two():\n    assert average([2, 4]) == 3\n"),
        "{}",
        test.read("test_calc.py")
    );
    run.assert_code(0);
}

/// What each call of the run refused for the project's tests said.
fn tests_kept_refusals(test: &Test) -> Vec<String> {
    test.records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CallRejected {
                kind: RefusalKind::TestsKept,
                error,
                ..
            } => Some(error),
            _ => None,
        })
        .collect()
}

/// How many calls of the run were refused.
fn rejected_calls(test: &Test) -> usize {
    test.records()
        .iter()
        .filter(|r| matches!(&r.event, Event::CallRejected { .. }))
        .count()
}

const TEXTUTIL: &str = "def reverse(text):\n    \"\"\"The text backwards.\"\"\"\n    return text[::-1]\n\n\ndef shout(text):\n    return text.upper() + \"!\"\n";

/// An edit that quotes a definition's first line as `old` and leaves it
/// out of `new` (Qwen2.5-Coder 1.5B adding `count_vowels`: `reverse` was
/// gone, its body under the new function) is refused naming `reverse`;
/// the edit that gives the line again goes ahead, and both functions work.
#[test]
fn an_edit_that_drops_a_definition_is_refused_naming_it() {
    let test = Test::new()
        .project(&[("textutil.py", TEXTUTIL)])
        .script("edit_drops_def")
        .args([
            "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has",
            // The edit alone: no cycle to write the test it needs.
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    let refused = definitions_kept(&test.records());
    assert_eq!(refused.len(), 1, "{refused:#?}\n{}", run.stderr);
    assert!(
        refused[0].starts_with("not written: this change removes `reverse` of textutil.py"),
        "{}",
        refused[0]
    );
    // With the lines to quote to add code at the end of the file.
    assert!(
        refused[0].ends_with(
            "To add code at the end of textutil.py, give as `old` its last lines:\n```\ndef \
             shout(text):\n    return text.upper() + \"!\"\n```\nand as `new` those same lines \
             followed by the new code."
        ),
        "{}",
        refused[0]
    );
    let now = test.read("textutil.py");
    assert!(
        now.starts_with("def count_vowels(text):")
            && now.contains("def reverse(text):\n    \"\"\"The text backwards"),
        "{now}"
    );
}

/// An edit whose new text is whole definitions, the quoted one and the
/// next given again without their docstrings and the new one after them
/// (Qwen2.5-Coder 1.5B adding `count_vowels` quoted `def reverse(text):`
/// so; spliced there, `reverse`'s old body came after the new `return`, a
/// line that can never run, and refused, the model lost its way): the
/// definitions are put in, `reverse` and `shout` kept as they were, and
/// the edit is logged as the smallest edit that does it.
#[test]
fn an_edit_whose_new_text_is_whole_definitions_is_put_in_by_them() {
    let test = Test::new()
        .project(&[("textutil.py", TEXTUTIL)])
        .script("edit_restates")
        .args([
            "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has",
            // The edit alone: no cycle to write the test it needs.
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    assert_eq!(rejected_calls(&test), 0, "{}", run.stderr);
    let added = "\n\n\ndef count_vowels(text):\n    vowels = 'aeiouAEIOU'\n    count = 0\n    \
                 for char in text:\n        if char in vowels:\n            count += 1\n    return count";
    assert_eq!(
        test.read("textutil.py"),
        format!("{}{added}\n", TEXTUTIL.trim_end())
    );
    let logged = test.records().into_iter().find_map(|r| match r.event {
        Event::ModelReplied { calls, .. }
            if calls.first().is_some_and(|c| c.name == "edit_file") =>
        {
            Some(calls[0].arguments.clone())
        }
        _ => None,
    });
    let logged = logged.expect("the edit is logged");
    assert_eq!(
        logged["old"], "    return text.upper() + \"!\"\n",
        "{logged}"
    );
    assert!(
        logged["new"].as_str().unwrap().ends_with("return count\n"),
        "{logged}"
    );
    test.assert_replay_matches();
}

/// A model that reads calc.py, then rewrites it as a program without `add`
/// (a loop that prints, not only an example of `average`'s use, which would
/// be left out as `average` is put in beside `add`), which the goal does not name: refused before it is written, naming `add` (calc.py
/// was there before the run); the model puts it back and the project's
/// tests pass. calc.py never loses `add`.
#[test]
fn a_rewrite_that_drops_a_function_is_refused_naming_it() {
    dropped_function_refused("Fix average in calc.py");
    // A goal that names it may be asking to keep it (t105's add-wrap:
    // "Keep center as it is", and `center` was written away): one the
    // project's tests call stays.
    dropped_function_refused("Fix average in calc.py and keep add as it is");
}

fn dropped_function_refused(goal: &str) {
    let test = Test::new()
        .calc_project()
        .script("drops_function")
        .args([goal]);
    let run = test.run();
    let records = test.records();
    let refused = definitions_kept(&records);
    assert_eq!(refused.len(), 1, "{refused:#?}\n{}", run.stderr);
    assert!(
        refused[0].starts_with("not written: this change removes `add` of calc.py"),
        "{}",
        refused[0]
    );
    let removed: Vec<Vec<String>> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::ActionFinished { outcome, .. } => Some(outcome.write.as_ref()?.removed.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(removed, [Vec::<String>::new()], "no write removed add");
    run.assert_code(0);
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(xs) - 1)", "len(xs)")
    );
    test.assert_replay_matches();
}

/// A goal that asks for a new function, in a project whose tests all
/// pass: a write that changes a function the project had and the goal
/// does not name is refused, naming it (t108's add-hex wrote hex_to_rgb's
/// body into `rgb_to_hex`); the write that keeps it goes through.
#[test]
fn a_change_of_a_function_the_goal_does_not_ask_for_is_refused() {
    const ADD: &str = "def add(a, b):\n    return a + b\n";
    // Its body changed, or left its docstring alone (t110's add-hex, and
    // "Goal achieved" was said with `is_hex` a stub).
    for script in ["changes_unasked", "stubs_unasked"] {
        unasked_change_refused(ADD, script);
    }
    // A goal that names `add` may change it.
    let test = Test::new()
        .project(&[("calc.py", ADD)])
        .script("changes_unasked")
        .args([
            "Add subtract(a, b) to calc.py, and make add subtract too",
            "--max-rounds",
            "3",
        ]);
    let run = test.run();
    assert!(
        !test.records().iter().any(|r| matches!(
            &r.event,
            Event::CallRejected { kind, .. } if *kind == RefusalKind::DefinitionsKept
        )),
        "{}",
        test.read("calc.py")
    );
    assert!(
        test.read("calc.py")
            .starts_with("def add(a, b):\n    return b - a\n"),
        "{}",
        run.stderr
    );
}

fn unasked_change_refused(add: &str, script: &str) {
    let test = Test::new()
        .project(&[("calc.py", add)])
        .script(script)
        .args([
            "Add subtract(a, b) to calc.py: subtract(5, 3) returns 2",
            "--max-rounds",
            "6",
        ]);
    let run = test.run();
    let refused = definitions_kept(&test.records());
    // Each time the script sends it (the cycle after sends it again).
    assert!(!refused.is_empty(), "{script}: {}", run.stderr);
    assert!(
        refused[0].starts_with(
            "not written: this changes `add` of calc.py, which was there before this run, and \
             the goal does not ask to change it: it asks for `subtract`."
        ),
        "{script}: {}",
        refused[0]
    );
    assert_eq!(
        test.read("calc.py"),
        format!("{add}\n\ndef subtract(a, b):\n    return a - b\n"),
        "{script}"
    );
}

/// The errors of the calls refused for a definition they would drop or
/// change, in order.
fn definitions_kept(records: &[runner::state::Record]) -> Vec<String> {
    records
        .iter()
        .filter_map(|r| match &r.event {
            Event::CallRejected { kind, error, .. } if *kind == RefusalKind::DefinitionsKept => {
                Some(error.clone())
            }
            _ => None,
        })
        .collect()
}

/// A model that gives the fixed file as a code block in its text ("Here's
/// the corrected `calc.py`:") under a subtask that named the test file, and
/// calls only `mark_subtask_complete` (Qwen2.5-Coder 1.5B did, four times,
/// and calc.py was never written): the file the text names is one the
/// project had, so the block is written before the claim, and the
/// project's tests pass.
#[test]
fn a_file_of_the_project_given_as_a_code_block_is_written() {
    let test = Test::new()
        .calc_project()
        .script("fixed_in_prose")
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(xs) - 1)", "len(xs)"),
        "{}",
        run.stderr
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "the tests are kept");
    run.assert_code(0);
}

/// A model that writes the one function it fixes alone over calc.py (a
/// small model's habit, and aider's way of giving a change): nothing but
/// definitions and an import, so they are put in beside what calc.py
/// holds, `average` replaced where it was and `add` kept, not refused and
/// not written over the file.
#[test]
fn a_function_written_alone_over_its_file_is_put_in_beside_the_others() {
    let test = Test::new()
        .calc_project()
        .script("fixes_one_function")
        .args(["Fix average in calc.py"]);
    let run = test.run();
    assert_eq!(rejected_calls(&test), 0, "{}", run.stderr);
    assert_eq!(
        test.read("calc.py"),
        "import math\n\n\ndef add(a, b):\n    return a + b\n\n\ndef average(xs):\n    return math.fsum(xs) / len(xs)\n"
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC);
    run.assert_code(0);
}

/// A plan that makes the failing test file the file to change ("Write
/// test_calc.py: Fix the bug in calc.py", as Qwen2.5-Coder 1.5B planned in
/// each of its calc-fix runs): the project's tests ran before the plan and
/// failed, so the planner was shown where, and the subtask changes
/// calc.py, the code they test, and keeps test_calc.py.
#[test]
fn a_plan_to_change_a_failing_test_file_changes_the_code_it_tests() {
    let test = Test::new()
        .calc_project()
        .script("plans_the_test_file")
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    let asked = test
        .server()
        .requests()
        .iter()
        .map(|r| r.to_string())
        .find(|r| r.contains("GOAL:"))
        .expect("the planner was asked");
    assert!(
        asked.contains("The project's tests FAIL now: `python3 -m pytest -q` exit code 1, 1 failed, 1 passed.\\n  test_calc.py::test_average fails: `assert average([1, 2, 3]) == 2` (average([1, 2, 3]) returned 3.0, the test says 2)"),
        "{asked}"
    );
    assert!(!asked.contains("__pycache__"), "{asked}");
    let tasks = planned(&test);
    assert_eq!(
        tasks[0].kinds[0],
        runner::state::SubtaskKind::Write {
            path: "calc.py".into()
        }
    );
    assert!(
        tasks[0].subtasks[0].starts_with("Change calc.py: Fix the bug"),
        "{:?}",
        tasks[0].subtasks
    );
    // What the failing test calls is named, with what it checks and what
    // the code gave (told only where the bug is, a small model guessed the
    // fix), and what only the passing one calls is kept (a small model
    // planned to fix `add`, and broke it).
    assert!(
        tasks[0].subtasks[0].contains(
            ". The project's tests that fail (`test_average`) call `average` of calc.py: the \
             bug is there; they check `assert average([1, 2, 3]) == 2` (average([1, 2, 3]) \
             returned 3.0, the test says 2); `add`, called only by tests that pass, stays as it is"
        ),
        "{:?}",
        tasks[0].subtasks
    );
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "the tests are kept");
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(xs) - 1)", "len(xs)"),
        "{}",
        run.stderr
    );
    run.assert_code(0);
    // The check's own options (`-m`, `-q`) are not options the goal names:
    // the write's result runs nothing after it.
    let finished = test.results(|outcome| outcome.write.is_some());
    assert!(!finished.is_empty());
    assert!(
        finished
            .iter()
            .all(|result| !result.contains("After this change")),
        "{finished:?}"
    );
}

/// A plan that names a failing test for the code it tests ("Fix the bug
/// in the median_even function in stats.py", of `test_median_even`, as
/// q2's stats-fix planned; the model then quoted a `median_even` that
/// stats.py does not define, round after round) names the code the
/// failing test calls.
#[test]
fn a_plan_that_takes_a_failing_test_for_the_code_names_the_code() {
    let mut script = crate::support::script::load_script("plans_the_test_file");
    script.plan["tasks"][0] = serde_json::json!({"path": "calc.py",
        "purpose": "Fix the bug in the test_average function in calc.py"});
    let test = Test::new()
        .calc_project()
        .serving(script)
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    let tasks = planned(&test);
    assert!(
        tasks[0].subtasks[0].starts_with("Change calc.py: Fix the bug in the average function"),
        "{:?}",
        tasks[0].subtasks
    );
    run.assert_code(0);
}

/// Under a subtask that writes one file, a code block of another file in
/// the reply's text is not written: an add-tests run, under "Write
/// test_inventory.py: ... inventory.py stays as it is", gave inventory.py
/// with docstrings added as a block, and it was written over the
/// project's file. Here the block is left, and the test file the model
/// writes next is what the run adds.
#[test]
fn a_code_block_of_another_file_than_the_subtasks_is_not_written() {
    let inventory = "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def add(self, name, count=1):\n        self.items[name] = self.items.get(name, 0) + count\n";
    let documented = inventory.replace(
        "class Inventory:\n",
        "class Inventory:\n    \"\"\"Items in stock.\"\"\"\n\n",
    );
    let write_tests = serde_json::json!({"tool_calls": [{"name": "write_file", "arguments": {
        "path": "test_inventory.py",
        "content": "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.items == {\"pen\": 2}\n"}}]});
    let done = |reason: &str| {
        serde_json::json!({"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": true, "reason": reason}}]})
    };
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "inventory.py", "purpose": "Add pytest tests for the Inventory class"}],
            "check": "python3 inventory.py"},
        "rules": [
            {"name": "written", "last_tool": "Wrote ", "reply": done("written")},
            {"name": "passed", "last_tool": "exit code 0", "reply": done("it passes")},
            {"name": "tests, told again", "subtask": "Write test_inventory.py",
             "has": ["without calling a tool"], "reply": write_tests},
            {"name": "the module as a block", "subtask": "Write test_inventory.py",
             "reply": {"content": format!("Here's the updated `inventory.py`:\n\n```python\n{documented}```\n")}},
            {"name": "pytest", "subtask": "python3 -m pytest -q",
             "reply": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "tests of Inventory.add", "met": true,
             "evidence": "def test_add", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 inventory.py"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("inventory.py", inventory)
        .args(["Add pytest tests for the Inventory class in inventory.py"]);
    let run = test.run();
    assert_eq!(test.read("inventory.py"), inventory, "{}", run.stderr);
    assert!(test.read("test_inventory.py").contains("def test_add"));
    run.assert_code(0);
}

/// A code block of the reply's prose that would drop a definition of the
/// file it seems meant for is not written over it: q2's line-count, told
/// to write a sample for its program, explained in prose how to, and the
/// example block, named after "that line_count.py reads", replaced the
/// right program.
#[test]
fn a_code_block_that_would_drop_a_definition_is_not_taken_for_the_file() {
    let program = "import sys\n\n\ndef count_lines(path):\n    with open(path) as f:\n        \
                   return len(f.readlines())\n\n\nif __name__ == '__main__':\n    \
                   print(count_lines(sys.argv[1]))\n";
    let prose = "To run it, write a sample that count.py reads. For example:\n```\n\
                 def average(numbers):\n    return sum(numbers) / len(numbers)\n\n\
                 numbers = [1, 2, 3, 4, 5]\nprint(average(numbers))\n```\nThen save it as \
                 sample.txt.";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "count.py", "purpose": "count the lines of a file"}],
            "check": "python3 count.py"},
        "rules": [
            {"name": "written", "last_tool": "Wrote ",
             "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "written"}}]}},
            {"name": "program", "subtask": "Write count.py",
             "reply": {"tool_calls": [{"name": "write_file",
                "arguments": {"path": "count.py", "content": program}}]}},
            {"name": "prose", "has": ["sample.txt"], "lacks": ["You answered without"],
             "reply": {"content": prose}},
            {"name": "bare run", "subtask": "Run `python3 count.py`", "lacks": ["You answered without"],
             "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 count.py"}}]}}
        ],
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": false, "reason": "stuck"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write count.py that prints how many lines the file given as its argument has",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    assert_eq!(test.read("count.py"), program, "{}", run.stderr);
    test.assert_replay_matches();
}

/// An edit whose new text puts `if C: A else: B` on one line, which Python
/// cannot read, is written as the lines it means: a cli-flag run refused
/// such an edit of greet.py six times, and spent its rounds there.
#[test]
fn an_edit_with_if_else_on_one_line_is_written_on_lines_of_its_own() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Fix average in calc.py",
            "subtasks": ["Fix the average function in calc.py"]}]},
        "rules": [
            {"name": "claimed", "subtask": "Run the project's tests",
             "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "the tests pass"}}]}},
            {"name": "done", "last_tool": "Edited calc.py",
             "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "average divides by len(xs)"}}]}}
        ],
        "otherwise": {"tool_calls": [{"name": "edit_file", "arguments": {"path": "calc.py",
            "old": "    return sum(xs) / (len(xs) - 1)",
            "new": "    if not xs: return 0 else: return sum(xs) / len(xs)"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .calc_project()
        .serving(script)
        .args(["Fix average in calc.py"]);
    let run = test.run();
    let records = test.records();
    let rejected = records
        .iter()
        .filter(|r| matches!(&r.event, Event::CallRejected { .. }))
        .count();
    assert_eq!(rejected, 0, "{}", run.stderr);
    assert_eq!(
        test.read("calc.py"),
        CALC.replace(
            "    return sum(xs) / (len(xs) - 1)\n",
            "    if not xs:\n        return 0\n    else:\n        return sum(xs) / len(xs)\n"
        )
    );
    run.assert_code(0);
    test.assert_replay_matches();
}

/// An edit whose `new` ends with the `}}` that closed the call's JSON, of a
/// program that only defines things: mended first, it is then refused as
/// running nothing; not mended, it was written with the braces in (p2's
/// word-count: `return len(words)}}`, a file Python could not read),
/// since a file that does not parse shows no definitions to hold it to.
#[test]
fn an_edit_mended_of_the_json_s_braces_is_held_to_what_a_write_is() {
    let defines = "def shout(text):\n    return text.upper()\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "shout.py", "purpose": "print its argument in capitals"}],
            "check": "python3 shout.py"},
        "rules": [
            {"name": "written", "last_tool": "Wrote ",
             "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "written"}}]}},
            {"name": "defines", "subtask": "Write shout.py",
             "reply": {"tool_calls": [{"name": "write_file",
                "arguments": {"path": "shout.py", "content": defines}}]}},
            {"name": "braces", "subtask": "Run `python3 shout.py`",
             "reply": {"tool_calls": [{"name": "edit_file", "arguments": {"path": "shout.py",
                "old": "    return text.upper()",
                "new": "    return text.upper() + '!'}}"}}]}}
        ],
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": false, "reason": "stuck"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write a script shout.py that prints its argument in capitals",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    assert!(!test.read("shout.py").contains('}'), "{}", run.stderr);
    let refused: Vec<String> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CallRejected {
                tool,
                kind: RefusalKind::RunsNothing,
                ..
            } => Some(tool),
            _ => None,
        })
        .collect();
    assert_eq!(refused, ["write_file", "edit_file"], "{}", run.stderr);
    test.assert_replay_matches();
}

/// A program written with only definitions is told to read the command
/// line only when the goal gives it arguments: r4's hello, told to read
/// "the arguments the goal gives it" of "Write a hello world script",
/// printed `sys.argv[1]`, was checked with an argument of its own, and the
/// run ended "Goal achieved".
#[test]
fn a_program_that_runs_nothing_is_told_to_read_arguments_only_when_the_goal_gives_them() {
    let refusal = |goal: &str| {
        let script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"path": "hello.py", "purpose": "greet"}],
                    "check": "python3 hello.py"},
                "rules": [{"name": "defines", "subtask": "Write hello.py",
                    "reply": {"tool_calls": [{"name": "write_file", "arguments": {
                        "path": "hello.py",
                        "content": "def hello():\n    print('Hello, world!')\n"}}]}}],
                "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
                    "arguments": {"success": false, "reason": "stuck"}}]}
            }))
            .expect("script");
        let test =
            Test::new()
                .serving(script)
                .args([goal, "--max-cycles", "0", "--max-rounds", "3"]);
        let run = test.run();
        test.records()
            .into_iter()
            .find_map(|r| match r.event {
                Event::CallRejected {
                    kind: RefusalKind::RunsNothing,
                    error,
                    ..
                } => Some(error),
                _ => None,
            })
            .unwrap_or_else(|| panic!("refused: {}", run.stderr))
    };
    let plain = refusal("Write a hello world script");
    assert!(
        plain.contains("the call that does what the goal asks."),
        "{plain}"
    );
    assert!(!plain.contains("sys.argv"), "{plain}");
    let given = refusal("Write a script hello.py that greets the name given as its argument");
    assert!(given.contains("from sys.argv"), "{given}");
}

/// A script rule's key (`last_tool`, `subtask`) and the text it matches.
type Matcher<'a> = (&'a str, &'a str);
/// A write's path and content.
type Written<'a> = (&'a str, &'a str);

/// The script of a model under `plan` that marks its subtask done after
/// a write that went in, makes the first write of `writes` whose matcher
/// (a rule's key, `last_tool` or `subtask`, and its text) holds, and gives
/// up when none does.
fn writer(
    plan: serde_json::Value,
    writes: &[(Matcher, Written)],
) -> crate::support::fake_ollama::Script {
    let mut rules = vec![serde_json::json!({"name": "written", "last_tool": "Wrote ",
        "reply": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": true, "reason": "written"}}]}})];
    for (at, ((key, text), (path, content))) in writes.iter().enumerate() {
        rules.push(
            serde_json::json!({"name": format!("write {at}"), *key: text,
            "reply": {"tool_calls": [{"name": "write_file",
                "arguments": {"path": path, "content": content}}]}}),
        );
    }
    serde_json::from_value(serde_json::json!({
        "plan": plan,
        "rules": rules,
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": false, "reason": "stuck"}}]}
    }))
    .expect("script")
}

/// A write of the goal's function that prints what the goal says it
/// returns is refused once (p3's fizzbuzz printed 'Fizz' and its tests then
/// failed on `None` until the rounds ran out); the same function is written
/// as it is when the goal says it prints.
#[test]
fn a_function_the_goal_says_returns_is_refused_once_when_it_returns_nothing() {
    let prints = "import sys\n\ndef shout(text):\n    print(text.upper() + '!')\n\n\
                  if __name__ == '__main__':\n    shout(sys.argv[1])\n";
    let returns = "import sys\n\ndef shout(text):\n    return text.upper() + '!'\n\n\
                   if __name__ == '__main__':\n    print(shout(sys.argv[1]))\n";
    let refused = |goal: &str| {
        let script = writer(
            serde_json::json!({"tasks": [{"path": "shout.py", "purpose": "shout its argument"}],
                "check": "python3 shout.py hi"}),
            &[
                (("last_tool", "returns none"), ("shout.py", returns)),
                (("subtask", "Write shout.py"), ("shout.py", prints)),
            ],
        );
        let test = Test::new()
            .serving(script)
            .args([goal, "--max-cycles", "0"]);
        let run = test.run();
        let kinds: Vec<RefusalKind> = test
            .records()
            .into_iter()
            .filter_map(|r| match r.event {
                Event::CallRejected { kind, .. } => Some(kind),
                _ => None,
            })
            .collect();
        test.assert_replay_matches();
        (kinds, test.read("shout.py"), run.stderr)
    };
    let (kinds, written, stderr) =
        refused("Write shout.py with a function shout(text) that returns the text in capitals");
    assert_eq!(kinds, [RefusalKind::ReturnsNothing], "{stderr}");
    assert_eq!(written, returns, "{stderr}");
    let (kinds, written, stderr) =
        refused("Write shout.py with a function shout(text) that prints the text in capitals");
    assert!(kinds.is_empty(), "{kinds:?} {stderr}");
    assert_eq!(written, prints, "{stderr}");
}

/// Tests of a function the goal says returns, while its module's function
/// returns nothing, are refused once: they fail whatever they assert (q1's
/// fizzbuzz rewrote its tests until the rounds ran out).
#[test]
fn tests_of_a_function_that_returns_nothing_are_refused_once() {
    let prints = "def shout(text):\n    print(text.upper() + '!')\n";
    let tests = "from shout import shout\n\n\ndef test_shout():\n    assert shout('hi') == 'HI!'\n";
    let script = writer(
        serde_json::json!({"tasks": [{"path": "shout.py", "purpose": "shout"},
                                     {"path": "test_shout.py", "purpose": "its tests"}],
            "check": "python3 -m pytest -q"}),
        &[
            (("subtask", "Write test_shout.py"), ("test_shout.py", tests)),
            (("subtask", "Write shout.py"), ("shout.py", prints)),
        ],
    );
    let test = Test::new().serving(script).args([
        "Write shout.py with a function shout(text) that returns the text in capitals, and \
         pytest tests for it",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    let refused: Vec<(bool, RefusalKind)> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CallRejected { kind, error, .. } => {
                Some((error.contains("its tests fail whatever they assert"), kind))
            }
            _ => None,
        })
        .collect();
    let (module, tests_of_it) = (false, true);
    assert_eq!(
        refused,
        [
            (module, RefusalKind::ReturnsNothing),
            (tests_of_it, RefusalKind::ReturnsNothing)
        ],
        "{}",
        run.stderr
    );
    assert_eq!(test.read("test_shout.py"), tests, "{}", run.stderr);
    run.assert_code(1);
    test.assert_replay_matches();
}

/// A rewrite of the project's test file that differs from it only in blank
/// lines and the last line break (b2's calc-fix through the Ollama API):
/// the file is kept byte for byte, and the model is told nothing changed.
#[test]
fn a_rewrite_that_changes_only_blank_lines_keeps_the_file() {
    let reformatted = TEST_CALC.replace("\n\n\n", "\n\n").trim_end().to_string();
    assert_ne!(reformatted, TEST_CALC);
    let fixed = CALC.replace("(len(xs) - 1)", "len(xs)");
    let script = serde_json::json!({
        "plan": {"tasks": [{"description": "Fix average in calc.py",
            "subtasks": ["Fix the average function in calc.py"]}]},
        "rules": [
            {"name": "done", "last_tool": "to calc.py", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "average divides by len(xs)"}}]}},
            {"name": "fix", "has": ["already had this content"], "reply": {"tool_calls": [{
                "name": "write_file", "arguments": {"path": "calc.py", "content": fixed}}]}},
        ],
        "otherwise": {"tool_calls": [{"name": "write_file",
            "arguments": {"path": "test_calc.py", "content": reformatted}}]},
    });
    let test = Test::new()
        .calc_project()
        .serving(serde_json::from_value(script).unwrap())
        .args(["Fix average in calc.py", "--max-rounds", "10"]);
    let run = test.run();
    assert_eq!(test.read("test_calc.py"), TEST_CALC, "{}", run.stderr);
    assert_eq!(test.read("calc.py"), fixed);
}

/// In prose a blank line is a change: a rewrite of README.md that only
/// parts its title from its text is written as it is.
#[test]
fn a_rewrite_of_prose_that_changes_only_blank_lines_is_written() {
    let script = serde_json::json!({
        "plan": {"tasks": [{"description": "Part the title of README.md from its text",
            "subtasks": ["Change README.md: a blank line after the title"]}]},
        "rules": [
            {"name": "done", "last_tool": "README.md", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "parted"}}]}},
        ],
        "otherwise": {"tool_calls": [{"name": "write_file",
            "arguments": {"path": "README.md", "content": "# Calc\n\nAdds numbers.\n"}}]},
    });
    let test = Test::new()
        .file("README.md", "# Calc\nAdds numbers.\n")
        .serving(serde_json::from_value(script).unwrap())
        .args([
            "Put a blank line after the title of README.md",
            "--max-rounds",
            "6",
        ]);
    let run = test.run();
    assert_eq!(
        test.read("README.md"),
        "# Calc\n\nAdds numbers.\n",
        "{}",
        run.stderr
    );
}

/// A conversion whose first function has the sign of its offset wrong: two
/// of the three tests of [`TEST_CONVERT`] fail.
const CONVERT: &str = "def celsius_to_fahrenheit(celsius):\n    return celsius * 9 / 5 - 32\n\n\ndef fahrenheit_to_celsius(fahrenheit):\n    return (fahrenheit - 32) * 5 / 9\n";
const TEST_CONVERT: &str = "from convert import celsius_to_fahrenheit, fahrenheit_to_celsius\n\n\ndef test_freezing():\n    assert celsius_to_fahrenheit(0) == 32\n\n\ndef test_boiling():\n    assert celsius_to_fahrenheit(100) == 212\n\n\ndef test_back():\n    assert fahrenheit_to_celsius(212) == 100\n";

/// Two of the project's tests fail: the fix of the function the first
/// failing test calls is asked in a question of its own, at the subtask
/// that changes its file (again, warmer and with no nudge, when the answer
/// gives no code) and again after a wrong fix: the test's line,
/// what the call gave, the function as it is now, no tools (u3's
/// temp-fix, asked in rounds, wrote the function back unchanged round
/// after round). The failure is read at the first failing test's own line
/// (t3's temp-fix was told it against the second test's line and to write
/// test_convert.py again, which was refused, until the run ended). The
/// function the answer gives alone is put in beside the other, and the
/// test file is kept.
#[test]
fn a_wrong_fix_of_the_projects_failing_tests_is_asked_of_on_its_own() {
    let messages_of = |request: &serde_json::Value| request["messages"].clone();
    let run_pytest = serde_json::json!({"tool_calls": [{"name": "run_cmd",
        "arguments": {"cmd": "python3 -m pytest -q"}}]});
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "convert.py", "purpose": "Fix celsius_to_fahrenheit"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            {"name": "the question of its own, asked again", "has": ["What in \
                celsius_to_fahrenheit gives -32.0 instead of 32?"], "min_temperature": 0.3,
             "reply": {"content": "Wrong: it must subtract 32 first.\n```python\ndef \
                celsius_to_fahrenheit(celsius):\n    return (celsius - 32) * 5 / 9\n```\n"}},
            {"name": "the question of its own, first", "has": ["What in celsius_to_fahrenheit \
                gives -32.0 instead of 32?"],
             "reply": {"content": "The formula is not the right one."}},
            {"name": "the question of its own, again", "has": ["What in celsius_to_fahrenheit \
                gives -17.77777777777778 instead of 32?"],
             "reply": {"content": "It computes the other conversion; it must multiply by 9 / 5 \
                and add 32.\n\n```python\ndef celsius_to_fahrenheit(celsius):\n    return \
                celsius * 9 / 5 + 32\n```\n"}},
            {"name": "the check after the change", "subtask": "`python3 -m pytest -q`",
             "last_tool": "bytes to convert.py", "reply": run_pytest},
            {"name": "the check", "subtask": "`python3 -m pytest -q`", "reply": run_pytest},
            {"name": "the program's run", "subtask": "Run `python3 convert.py`",
             "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 convert.py"}}]}},
            {"name": "done", "last_tool": "Edited convert.py", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "fixed"}}]}},
            {"name": "the change made", "subtask": "Change convert.py",
             "last_tool": "bytes to convert.py", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "changed"}}]}}
        ]
    }))
    .expect("script");
    let test = Test::new()
        .project(&[("convert.py", CONVERT), ("test_convert.py", TEST_CONVERT)])
        .serving(script)
        .args(["Running pytest shows a failing test for convert.py. Correct the code"]);
    let run = test.run();
    let asked: Vec<serde_json::Value> = test
        .server()
        .requests()
        .into_iter()
        .filter(|request| {
            crate::support::context(request).contains("What in celsius_to_fahrenheit")
        })
        .collect();
    assert_eq!(
        asked.len(),
        6,
        "asked at the change, again when its answer gave no code (that answer tried four \
         times, each wrong), then after its wrong fix"
    );
    let tried: Vec<Vec<runner::state::TriedAnswer>> = test
        .records()
        .into_iter()
        .filter_map(|record| match record.event {
            runner::state::Event::AnswersTried { tried, .. } => Some(tried),
            _ => None,
        })
        .collect();
    assert_eq!(tried.len(), 1, "{tried:?}");
    assert_eq!(tried[0].len(), 3, "{tried:?}");
    assert!(
        tried[0].iter().all(|answer| answer.wrong.as_deref()
            == Some("celsius_to_fahrenheit(0) gave -17.77777777777778, wanted 32")),
        "{tried:?}"
    );
    for at in 2..5 {
        assert_eq!(
            messages_of(&asked[at]),
            messages_of(&asked[1]),
            "the same question"
        );
        assert!(
            asked[at]["options"]["temperature"].as_f64()
                > asked[at - 1]["options"]["temperature"].as_f64(),
            "asked again warmer"
        );
    }
    let messages = |request: &serde_json::Value| request["messages"].as_array().cloned().unwrap();
    let (first, again) = (messages(&asked[0]), messages(&asked[1]));
    assert_eq!(first[..], again[..first.len()], "the same question");
    assert_eq!(
        again[first.len()]["content"],
        "The formula is not the right one.",
        "then its answer"
    );
    assert!(
        again[first.len() + 1]["content"]
            .as_str()
            .unwrap()
            .starts_with("Now write all the code of the corrected celsius_to_fahrenheit"),
        "then the question for the code alone: {}",
        again[first.len() + 1]
    );
    assert_eq!(
        messages(&asked[5]).len(),
        first.len(),
        "a new question is asked anew"
    );
    assert!(
        asked[1]["options"]["temperature"].as_f64() > asked[0]["options"]["temperature"].as_f64(),
        "asked again warmer"
    );
    let nudges = test
        .records()
        .iter()
        .filter(|record| matches!(record.event, runner::state::Event::Nudged { .. }))
        .count();
    assert_eq!(nudges, 0, "an answer with no code spends no nudge");
    let answers = test
        .records()
        .iter()
        .filter(|record| {
            matches!(
                record.event,
                runner::state::Event::ModelReplied { question: true, .. }
            )
        })
        .count();
    assert_eq!(answers, 3, "the log says which replies answered a question");
    // The rounds after see the write an answer gave, not its prose: shown
    // it, a small model answers its rounds in prose.
    let rounds: Vec<String> = test
        .server()
        .requests()
        .iter()
        .filter(|request| !crate::support::context(request).contains("What in celsius"))
        .map(|request| request["messages"].to_string())
        .collect();
    assert!(
        rounds
            .iter()
            .any(|messages| messages.contains("celsius * 9 / 5 + 32")),
        "the write is shown: {rounds:#?}"
    );
    for messages in &rounds {
        assert!(!messages.contains("other conversion"), "{messages}");
    }
    assert!(
        crate::support::context(&asked[0]).contains(
            "`celsius_to_fahrenheit(0)` returned -32.0; the test expects 32.\n\nThe function \
             celsius_to_fahrenheit, in convert.py:\n```python\ndef \
             celsius_to_fahrenheit(celsius):\n    return celsius * 9 / 5 - 32\n```"
        ),
        "{}",
        crate::support::context(&asked[0])
    );
    let question = crate::support::context(&asked[5]);
    assert!(
        question.contains(
            "The test in test_convert.py is right, and it fails:\n```python\nassert \
             celsius_to_fahrenheit(0) == 32\n```\n`celsius_to_fahrenheit(0)` returned \
             -17.77777777777778; the test expects 32.\n\nThe function celsius_to_fahrenheit, in \
             convert.py:\n```python\ndef celsius_to_fahrenheit(celsius):\n    return (celsius - \
             32) * 5 / 9\n```\n\nRun as the test runs it, `celsius_to_fahrenheit(0)` went \
             through these lines of convert.py, in order: line 2 `return (celsius - 32) * 5 / \
             9`, and returned -17.77777777777778. It returned at line 2: code put after that \
             line is not reached by `celsius_to_fahrenheit(0)`, so it cannot change what it \
             returns.\n\nWhat in celsius_to_fahrenheit gives \
             -17.77777777777778 instead of 32?"
        ),
        "{question}"
    );
    assert!(
        asked[2]["tools"].as_array().is_none_or(Vec::is_empty),
        "no tools: {}",
        asked[2]["tools"]
    );
    assert_eq!(
        test.read("test_convert.py"),
        TEST_CONVERT,
        "the tests are kept"
    );
    assert_eq!(
        test.read("convert.py"),
        CONVERT.replace("celsius * 9 / 5 - 32", "celsius * 9 / 5 + 32"),
        "{}",
        run.stderr
    );
    run.assert_code(0);
}

/// The right function given alone in a block of the reply's prose is put in
/// beside the file's other definitions (u2's temp-fix did so, and the block
/// was dropped for losing `fahrenheit_to_celsius`).
#[test]
fn a_fix_given_in_prose_is_put_in_beside_the_other_definitions() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "convert.py", "purpose": "Fix celsius_to_fahrenheit"}],
            "check": "python3 convert.py"},
        "rules": [
            {"name": "the program's run", "subtask": "`python3 convert.py`",
             "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 convert.py"}}]}},
            {"name": "done", "last_tool": "bytes to convert.py", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "fixed"}}]}},
            {"name": "the right fix, in prose", "subtask": "Change convert.py",
             "reply": {"content": "The correct formula is `celsius * 9 / 5 + 32`. Here's the \
                corrected code for `convert.py`:\n\n```python\ndef \
                celsius_to_fahrenheit(celsius):\n    return celsius * 9 / 5 + 32\n```\n"}}
        ]
    }))
    .expect("script");
    let test = Test::new()
        .project(&[("convert.py", CONVERT)])
        .serving(script)
        .args(["celsius_to_fahrenheit in convert.py must add 32, not subtract it: fix it"]);
    let run = test.run();
    assert_eq!(
        test.read("convert.py"),
        CONVERT.replace("celsius * 9 / 5 - 32", "celsius * 9 / 5 + 32"),
        "{}",
        run.stderr
    );
    run.assert_code(0);
}

/// A write its language refuses, sent again as it was and blocked as a
/// repeat, is asked of in a question of its own: the content and why it
/// was not written, no tools; the answer's code is written (t10's textkit
/// sent the same unreadable test file six rounds in a row, told the line
/// each time, and the subtask ended stuck). A refusal alone is corrected
/// in rounds, as before.
#[test]
fn an_unreadable_write_sent_again_is_asked_of_on_its_own() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "Print hello"}],
            "check": "python3 greet.py"},
        "rules": [
            {"name": "the question of its own", "has": ["What in it keeps it from being \
                written?"],
             "reply": {"content": "The string is not closed.\n```python\nprint('hello')\n```\n"}},
            {"name": "the program's run", "subtask": "`python3 greet.py`",
             "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 greet.py"}}]}},
            {"name": "done", "last_tool": "bytes to greet.py", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "wrote it"}}]}},
            {"name": "the unreadable write, every time", "subtask": "greet.py",
             "reply": {"tool_calls": [{"name": "write_file",
                "arguments": {"path": "greet.py", "content": "print('hello)\n"}}]}}
        ]
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .args(["Write greet.py, a script that prints hello"]);
    let run = test.run();
    let records = test.records();
    let refused = refused_by_language(&records);
    let blocked = records
        .iter()
        .filter(|r| matches!(&r.event, Event::ActionBlocked { .. }))
        .count();
    assert_eq!((refused, blocked), (1, 1), "{}", run.stderr);
    let asked = asked_why_unreadable(&test);
    assert_eq!(asked.len(), 1, "asked once, after the repeat");
    let question = crate::support::context(&asked[0]);
    assert!(
        question.starts_with(
            "This is greet.py as it was to be written:\n```python\nprint('hello)\n```\n\nIt \
             was not written: Python cannot read greet.py"
        ),
        "{question}"
    );
    assert!(
        asked[0]["tools"].as_array().is_none_or(Vec::is_empty),
        "no tools: {}",
        asked[0]["tools"]
    );
    assert_eq!(test.read("greet.py"), "print('hello')\n", "{}", run.stderr);
    run.assert_code(0);
}

/// An edit the file's language refused, sent again and blocked as a
/// repeat, is asked of as a refused write is: the file as the edit would
/// have left it, and why it was not made (t42's join-sep sent the same
/// edit, which read an `args` nothing set, five times). The answer's
/// program is run before it is written, and it is held to what the
/// program printed before the run.
#[test]
fn a_refused_edit_sent_again_is_asked_of_on_its_own() {
    const ANSWER: &str = "import sys\n\nname = sys.argv[1] if len(sys.argv) > 1 else \"\"\nprint((\"hello \" + name).strip())\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "Greet the name given"}],
            "check": "python3 greet.py Ann"},
        "rules": [
            {"name": "the question of its own", "has": ["What in it keeps it from being \
                written?"],
             "reply": {"content": format!("`name` is not set.\n```python\n{ANSWER}```\n")}},
            {"name": "the program's run", "subtask": "`python3 greet.py",
             "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 greet.py Ann"}}]}},
            {"name": "done", "last_tool": "bytes to greet.py", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "wrote it"}}]}},
            {"name": "the refused edit, every time", "subtask": "greet.py",
             "reply": {"tool_calls": [{"name": "edit_file",
                "arguments": {"path": "greet.py", "old": "print(\"hello\")",
                    "new": "print(\"hello \" + name)"}}]}}
        ]
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("greet.py", "print(\"hello\")\n")
        .args(["Make greet.py greet the name given as its first argument"]);
    let run = test.run();
    let records = test.records();
    let refused = refused_by_language(&records);
    assert_eq!(refused, 1, "{}", run.stderr);
    let asked = asked_why_unreadable(&test);
    assert_eq!(
        asked.len(),
        1,
        "asked once, after the repeat: {}",
        run.stderr
    );
    let question = crate::support::context(&asked[0]);
    assert!(
        question.starts_with(
            "This is greet.py as it was to be written:\n```python\nprint(\"hello \" + name)\n```\n\nIt \
             was not written: with this edit greet.py would be refused: `name` is never set"
        ),
        "{question}"
    );
    assert!(!question.contains("Quote whole lines"), "{question}");
    assert_eq!(test.read("greet.py"), ANSWER, "{}", run.stderr);
}

/// How many calls the file's language refused.
fn refused_by_language(records: &[runner::state::Record]) -> usize {
    records
        .iter()
        .filter(|r| {
            matches!(
                &r.event,
                Event::CallRejected {
                    kind: RefusalKind::LanguageRefused,
                    ..
                }
            )
        })
        .count()
}

/// The requests that asked what keeps a file from being written.
fn asked_why_unreadable(test: &Test) -> Vec<Value> {
    test.server()
        .requests()
        .into_iter()
        .filter(|request| crate::support::context(request).contains("What in it keeps it"))
        .collect()
}

/// A goal about the project's tests names no text its program prints:
/// asked what the program prints every time, w1's calc-fix model answered
/// with the goal's own sentence twice, and held to it, a cycle put a print
/// of the goal into calc.py. The tests show such a goal's program.
#[test]
fn a_goal_about_tests_holds_no_program_to_print_its_words() {
    const GOAL: &str = "The tests in test_calc.py fail. Fix the bug in calc.py so that they pass";
    let fixed = CALC.replace("(len(xs) - 1)", "len(xs)");
    let run = |cmd: &str| serde_json::json!({"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": cmd}}]});
    let done = serde_json::json!({"tool_calls": [{"name": "mark_subtask_complete",
        "arguments": {"success": true, "reason": "done"}}]});
    let mut script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "calc.py", "purpose": "Fix average"}],
            "check": "python3 calc.py"},
        "rules": [
            {"name": "ran", "last_tool": "exit code 0", "reply": done},
            {"name": "written", "last_tool": "Wrote ", "reply": done},
            {"name": "the program", "subtask": "`python3 calc.py`", "reply": run("python3 calc.py")},
            {"name": "the tests", "subtask": "pytest", "reply": run("python3 -m pytest -q")},
        ],
        "otherwise": {"tool_calls": [{"name": "write_file",
            "arguments": {"path": "calc.py", "content": fixed}}]}
    }))
    .expect("script");
    script.goal_text = serde_json::json!({"always_prints": GOAL, "shown_text": GOAL});
    let test = Test::new()
        .calc_project()
        .serving(script)
        .args([GOAL, "--max-cycles", "0"]);
    let run = test.run();
    let asked = test
        .records()
        .into_iter()
        .filter(|r| matches!(r.event, Event::GoalTextRead { .. }))
        .count();
    assert_eq!(asked, 0, "{}", run.stderr);
    assert_eq!(test.read("calc.py"), fixed, "{}", run.stderr);
    run.assert_code(0);
}

/// t56's show-numbers: a plan checked `python3 show.py -n` for a show.py
/// that prints the file its argument names; the check could never pass.
/// Run on a word before the plan, show.py says there is no such file: its
/// check runs it on sample.txt, which the plan writes first.
#[test]
fn a_check_of_a_program_that_opens_its_argument_runs_it_on_a_sample() {
    let show = "import sys\n\n\ndef main(argv):\n    with open(argv[1]) as f:\n        for line in f:\n            print(line.rstrip('\\n'))\n\n\nif __name__ == '__main__':\n    main(sys.argv)\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "show.py", "purpose": "add -n to number the lines"}],
            "check": "python3 show.py -n"},
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": false, "reason": "cannot"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).file("show.py", show).args([
        "show.py prints a file. Add a -n option so that it numbers the lines it prints",
        "--max-rounds",
        "2",
    ]);
    test.run();
    let tasks = planned(&test);
    let kinds: Vec<String> = tasks[0].kinds.iter().map(|k| format!("{k:?}")).collect();
    assert_eq!(
        kinds,
        [
            r#"Write { path: "show.py" }"#,
            r#"Write { path: "sample.txt" }"#,
            r#"Check { cmd: "python3 show.py -n sample.txt" }"#
        ],
        "{:?}",
        tasks[0].subtasks
    );
    assert_eq!(
        tasks[0].subtasks[2],
        "Run `python3 show.py -n sample.txt` and make it succeed (fix the files if it fails)"
    );
    // show.py itself was left as it was by the run on a word.
    assert_eq!(
        std::fs::read_to_string(test.workspace.join("show.py")).unwrap(),
        show
    );
}

/// t85's longest: a goal that gives its new program a file on its
/// command line, planned with a bare check, which passed printing nothing.
/// The check runs the program on sample.txt, which the plan writes first;
/// a goal that gives it no file keeps the bare check.
#[test]
fn a_new_program_the_goal_gives_a_file_is_checked_on_a_sample() {
    let kinds = |goal: &str| -> Vec<String> {
        let script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"path": "longest.py", "purpose": "print the longest line"}],
                    "check": "python3 longest.py"},
                "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
                    "arguments": {"success": false, "reason": "cannot"}}]}
            }))
            .expect("script");
        let test = Test::new()
            .serving(script)
            .args([goal, "--max-rounds", "1"]);
        test.run();
        planned(&test)[0]
            .kinds
            .iter()
            .map(|k| format!("{k:?}"))
            .collect()
    };
    assert_eq!(
        kinds(
            "Write longest.py: given the name of a text file as its argument, it prints the \
             longest line in that file"
        ),
        [
            r#"Write { path: "longest.py" }"#,
            r#"Write { path: "sample.txt" }"#,
            r#"Check { cmd: "python3 longest.py sample.txt" }"#
        ]
    );
    assert_eq!(
        kinds("Write longest.py, which prints the longest of the words it is given as arguments"),
        [
            r#"Write { path: "longest.py" }"#,
            r#"Check { cmd: "python3 longest.py" }"#
        ]
    );
}

/// t61's timeparse-tests: the planner named no file three times. The
/// plan is then made of the project: the tests of the one file the goal
/// names, or the change of it.
#[test]
fn a_plan_the_model_cannot_give_is_made_of_the_file_the_goal_names() {
    let calc = "def add(a, b):\n    return a + b\n";
    let no_plan = || -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [], "check": ""},
            "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": false, "reason": "cannot"}}]}
        }))
        .expect("script")
    };
    let kinds = |goal: &str| {
        let test = Test::new()
            .serving(no_plan())
            .file("calc.py", calc)
            .file("notes.txt", "calc.py adds\n")
            .args([goal, "--max-rounds", "2"]);
        test.run();
        let recorded = test.records().into_iter().find_map(|r| match r.event {
            Event::Planned {
                tasks, fallback, ..
            } => Some((tasks, fallback)),
            _ => None,
        });
        let (tasks, fallback) = recorded.expect("a plan");
        assert!(fallback.is_some_and(|f| f.contains("no valid plan")));
        let kinds: Vec<String> = tasks[0].kinds.iter().map(|k| format!("{k:?}")).collect();
        (kinds, tasks[0].subtasks.clone())
    };
    let (tests, subtasks) = kinds("Cover calc.py with pytest tests");
    assert_eq!(
        tests,
        [
            r#"Write { path: "test_calc.py" }"#,
            r#"Check { cmd: "python3 -m pytest -q" }"#
        ],
        "{subtasks:?}"
    );
    let (change, subtasks) = kinds("Make add in calc.py also take a third number");
    assert_eq!(change[0], r#"Write { path: "calc.py" }"#, "{subtasks:?}");
    assert!(subtasks[0].starts_with("Change calc.py"), "{subtasks:?}");
}

/// The tasks of the run's plan, as recorded.
fn planned(test: &Test) -> Vec<runner::state::TaskPlan> {
    test.records()
        .into_iter()
        .find_map(|r| match r.event {
            Event::Planned { tasks, .. } => Some(tasks),
            _ => None,
        })
        .expect("a plan")
}
