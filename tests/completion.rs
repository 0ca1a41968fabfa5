//! "Goal achieved" is checked, never claimed: when every subtask has ended,
//! the checks run again on the files as they are, the model assesses the
//! goal requirement by requirement, and what is missing becomes a new
//! cycle of work.

use runner::state::{Event, Outcome, SubtaskKind};

use crate::support::Test;

const CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef average(numbers):\n    return sum(numbers) / (len(numbers) + 1)\n";
const TEST_CALC: &str = "from calc import add, average\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n";

/// Runs `test`, which must end not achieved (exit 1) with a requirement
/// about tests unmet because no test ran and passed.
fn tests_held_unmet(test: &Test) -> (crate::support::Run, runner::state::State) {
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let tests = state
        .requirements
        .iter()
        .find(|r| r.about_tests)
        .expect("a requirement about tests");
    assert!(!tests.met, "{tests:?}");
    assert_eq!(tests.evidence, "the last check ran no test that passed");
    (run, state)
}

/// A rule of a script: when the last tool result has `last_tool`, the
/// subtask is marked done (`success`) for `reason`.
fn ends_when(last_tool: &str, success: bool, reason: &str) -> serde_json::Value {
    serde_json::json!({"name": reason, "last_tool": last_tool,
        "reply": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": success, "reason": reason}}]}})
}

/// The contexts of the requests that asked `text` of the model.
fn asked_of(test: &Test, text: &str) -> Vec<String> {
    test.server()
        .requests()
        .iter()
        .map(crate::support::context)
        .filter(|context| context.contains(text))
        .collect()
}

/// What the run said of each call it refused as `kind`.
fn refusals(test: &Test, kind: runner::state::RefusalKind) -> Vec<String> {
    test.records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CallRejected {
                kind: refused,
                error,
                ..
            } if refused == kind => Some(error),
            _ => None,
        })
        .collect()
}

/// A goal that adds tests to an untested `inventory.py`, with `cycles`.
fn add_tests(script: crate::support::fake_ollama::Script, cycles: &str) -> Test {
    add_tests_of(
        script,
        "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def add(self, name, count=1):\n        self.items[name] = self.items.get(name, 0) + count\n",
        cycles,
    )
}

/// [`add_tests`] of an `inventory.py` of `inventory`.
fn add_tests_of(
    script: crate::support::fake_ollama::Script,
    inventory: &str,
    cycles: &str,
) -> Test {
    Test::new()
        .serving(script)
        .file("inventory.py", inventory)
        .args([
            "Add pytest tests for the Inventory class in inventory.py",
            "--max-cycles",
            cycles,
        ])
}

/// A rule of a script: while the active subtask has `subtask`, the reply
/// is the call of `tool` with `arguments`.
fn on_subtask(subtask: &str, tool: &str, arguments: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"name": subtask, "subtask": subtask,
        "reply": {"tool_calls": [{"name": tool, "arguments": arguments}]}})
}

/// A reply that writes `content` to `path`.
fn write_reply(path: &str, content: &str) -> serde_json::Value {
    serde_json::json!({"tool_calls": [{"name": "write_file",
        "arguments": {"path": path, "content": content}}]})
}

fn cycles(test: &Test) -> Vec<String> {
    tasks(test, true)
        .into_iter()
        .map(|t| t.description)
        .collect()
}

/// The word-count goal of the suite with `script`, and no cycle.
fn word_count(script: serde_json::Value) -> Test {
    let script: crate::support::fake_ollama::Script =
        serde_json::from_value(script).expect("script");
    Test::new().serving(script).args([
        "Write a script word_count.py that prints the number of words in the file given as its argument",
        "--max-cycles",
        "0",
    ])
}

/// The add-function goal of the suite over a `textutil.py` of `textutil`,
/// with `script` and no cycle.
fn add_function(script: crate::support::fake_ollama::Script, textutil: &str) -> Test {
    add_function_cycles(script, textutil, "0")
}

/// [`add_function`] with `cycles`.
fn add_function_cycles(
    script: crate::support::fake_ollama::Script,
    textutil: &str,
    cycles: &str,
) -> Test {
    Test::new()
        .serving(script)
        .file("textutil.py", textutil)
        .args([
            "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has",
            "--max-cycles",
            cycles,
        ])
}

/// The add-function task's `textutil.py` before the run, and with a
/// right `count_vowels`.
const TEXTUTIL: &str = "def reverse(text):\n    return text[::-1]\n";

fn with_count_vowels() -> String {
    format!(
        "{TEXTUTIL}\n\ndef count_vowels(text):\n    return sum(c in 'aeiou' for c in text.lower())\n"
    )
}

/// An add-function script: textutil.py is written with a right
/// `count_vowels`, a test subtask (a cycle's) writes `test_file`, the plan
/// is checked by `check`, and the assessment finds the function met with
/// `evidence`.
fn count_vowels_script(
    check: &str,
    test_file: &str,
    evidence: &str,
) -> crate::support::fake_ollama::Script {
    add_count_vowels(
        check,
        serde_json::json!([
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            on_subtask(
                "test_textutil.py",
                "write_file",
                serde_json::json!({"path": "test_textutil.py", "content": test_file})
            ),
            on_subtask(
                "textutil.py",
                "write_file",
                serde_json::json!({"path": "textutil.py", "content": with_count_vowels()})
            )
        ]),
        evidence,
    )
}

/// An add-function script: the plan changes textutil.py and is checked
/// by `check`, the model acts by `rules` (else runs the check), and the
/// assessment finds the function met with `evidence`.
fn add_count_vowels(
    check: &str,
    rules: serde_json::Value,
    evidence: &str,
) -> crate::support::fake_ollama::Script {
    serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
            "check": check},
        "rules": rules,
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "count_vowels(text) returns how many vowels the text has",
             "met": true, "evidence": evidence,
             "about_tests": false, "about_output": false, "command": "", "expects": ""}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": check}}]}
    }))
    .expect("script")
}

/// The tasks the run planned (`cycles` false) or its cycles took on.
/// The paths the subtasks of `plan` write, in order.
fn planned_writes(plan: &[runner::state::TaskPlan]) -> Vec<&str> {
    plan.iter()
        .flat_map(|t| &t.kinds)
        .filter_map(|kind| match kind {
            SubtaskKind::Write { path } => Some(path.as_str()),
            _ => None,
        })
        .collect()
}

fn tasks(test: &Test, cycles: bool) -> Vec<runner::state::TaskPlan> {
    test.records()
        .into_iter()
        .flat_map(|r| match r.event {
            Event::CycleStarted { task, .. } if cycles => vec![task],
            Event::Planned { tasks, .. } if !cycles => tasks,
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn a_model_that_claims_done_while_the_tests_fail_gets_a_new_cycle_not_goal_achieved() {
    let test = Test::new()
        .script("claims_done")
        .file("calc.py", CALC)
        .file("test_calc.py", TEST_CALC)
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    let state = test.assert_replay_matches();
    // The claims ended the plan's subtasks, the project's tests ran and
    // failed, and what failed became a cycle; there the model fixed it.
    // The project's tests ran before the plan too, and failed.
    let records = test.records();
    let planned = records
        .iter()
        .position(|r| matches!(r.event, Event::Planned { .. }))
        .expect("planned");
    let before = records[..planned].iter().find_map(|r| match &r.event {
        Event::Checked { checks } => Some(checks.clone()),
        _ => None,
    });
    assert_eq!(before.expect("run before the plan")[0].exit_code, Some(1));
    assert_eq!(state.tests_before, Some(false));
    // The assessment is told how those tests went before the run, so it
    // does not take what the goal says was wrong then for a requirement.
    let assessments: Vec<String> = test
        .server()
        .requests()
        .iter()
        .map(|r| r["messages"].to_string())
        .filter(|m| m.contains("List every requirement of the GOAL"))
        .collect();
    assert!(!assessments.is_empty());
    assert!(
        assessments
            .iter()
            .all(|m| m.contains("(Before the run the same command failed (exit code 1;")),
        "{assessments:?}"
    );
    let first_check = records[planned..]
        .iter()
        .find_map(|r| match &r.event {
            Event::Checked { checks } => Some(checks.clone()),
            _ => None,
        })
        .expect("a completion check");
    assert_eq!(first_check.len(), 1, "{first_check:?}");
    assert_eq!(first_check[0].command, "python3 -m pytest -q");
    assert_ne!(first_check[0].exit_code, Some(0));
    assert_eq!(
        cycles(&test),
        vec![
            "Cycle 1: what is still missing: what the goal asks for; the tests the goal speaks \
             of are there, run and pass; `python3 -m pytest -q` passes"
                .to_string()
        ]
    );
    run.assert_code(0);
    assert_eq!(
        state.checks[0].tests.map(|t| (t.passed, t.failed)),
        Some((2, 0))
    );
    assert!(test.read("calc.py").contains("def add"), "add was kept");
}

/// The calc-fix goal over `calc` and `tests`, with `cycles`: the plan
/// changes calc.py and is checked by `python3 calc.py`, the model acts by
/// `rules` (else runs the tests), and the assessment finds each of
/// `unmet` (a requirement, its evidence) unmet.
fn calc_fix(
    calc: &str,
    tests: &str,
    rules: serde_json::Value,
    unmet: &[(&str, &str)],
    cycles: &str,
) -> Test {
    let requirements: Vec<serde_json::Value> = unmet
        .iter()
        .map(|(requirement, evidence)| {
            serde_json::json!({"requirement": requirement, "met": false, "evidence": evidence,
                "about_tests": true, "about_output": false, "command": "", "expects": ""})
        })
        .collect();
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "calc.py", "purpose": "fix average"}],
            "check": "python3 calc.py"},
        "rules": rules,
        "assessments": [{"has": [], "answer": {"requirements": requirements}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    Test::new()
        .serving(script)
        .file("calc.py", calc)
        .file("test_calc.py", tests)
        .args([
            "The tests in test_calc.py fail. Fix the bug in calc.py so that they pass",
            "--max-cycles",
            cycles,
        ])
}

/// t60's calc-fix: the assessor called the project's own tests unmet
/// beside a check where they all passed, on the evidence that `python3
/// calc.py` printed nothing; the cycle that followed made calc.py print
/// that sentence. Tests it names that the check ran and passed meet it.
#[test]
fn a_requirement_naming_tests_that_passed_is_met_whatever_the_assessor_read() {
    let fixed = CALC.replace("(len(numbers) + 1)", "len(numbers)");
    let misread = "The program printed nothing when it was run with `python3 calc.py`.";
    let rules = serde_json::json!([
        ends_when("exit code 0", true, "it runs"),
        ends_when("Wrote ", true, "written"),
        on_subtask(
            "calc.py",
            "write_file",
            serde_json::json!({"path": "calc.py", "content": fixed})
        )
    ]);
    let unmet = [
        ("The test `test_add()` should pass.", misread),
        ("The test `test_average()` should pass.", misread),
    ];
    let test = calc_fix(CALC, TEST_CALC, rules, &unmet, "1");
    let run = test.run();
    let state = test.assert_replay_matches();
    run.assert_code(0);
    assert!(cycles(&test).is_empty(), "{:?}", cycles(&test));
    let add = naming(&state.requirements, "test_add");
    assert!(add.met, "{add:?}");
    assert_eq!(
        add.evidence,
        "`python3 -m pytest -q` ran `test_add` and every test passed (2 passed)"
    );
    assert_eq!(test.read("calc.py"), fixed);
    // With a test that still fails, as the model said.
    let failing = TEST_CALC.replace("== 5", "== 6");
    let rules = serde_json::json!([ends_when("exit code", true, "it runs")]);
    let test = calc_fix(&fixed, &failing, rules, &unmet[..1], "0");
    test.run().assert_code(1);
    let state = test.assert_replay_matches();
    assert!(!naming(&state.requirements, "test_add").met);
}

#[test]
fn claims_alone_never_end_in_goal_achieved() {
    // No cycle left: the claims and the failing tests end the run, exit 1,
    // with what is missing.
    let test = Test::new()
        .script("claims_done")
        .file("calc.py", CALC)
        .file("test_calc.py", TEST_CALC)
        .args(["Fix the bug in calc.py", "--max-cycles", "0"]);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let ended = state.ended.expect("ended");
    assert_eq!(ended.outcome, Outcome::NotAchieved, "{}", run.stderr);
    assert!(
        ended.reason.contains("`python3 -m pytest -q` failed"),
        "{}",
        ended.reason
    );
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    assert_eq!(test.read("calc.py"), CALC, "nothing was changed");
}

#[test]
fn a_forgotten_requirement_becomes_a_cycle_that_adds_it() {
    let test = Test::new()
        .script("forgets_requirement")
        .args(["Create a mathx package with add and mul and pytest tests"]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(cycles(&test).len(), 1);
    assert!(cycles(&test)[0].contains("mul in the mathx package"));
    assert!(
        state.requirements.iter().all(|r| r.met),
        "{:?}",
        state.requirements
    );
    assert_eq!(state.requirements.len(), 3);
    let package = test.read("mathx/__init__.py");
    assert!(package.contains("def add") && package.contains("def mul"));
    // The assessment was shown the files and the check's output.
    let assessed = test
        .server()
        .requests()
        .into_iter()
        .filter(|r| r["format"]["properties"].get("requirements").is_some())
        .collect::<Vec<_>>();
    assert_eq!(assessed.len(), 2);
    let shown = assessed[0]["messages"].to_string();
    assert!(shown.contains("--- mathx/__init__.py ---"), "{shown}");
    assert!(shown.contains("1 passed"), "{shown}");
}

#[test]
fn a_requirement_about_tests_is_not_met_by_a_claim_when_no_test_ran() {
    // The model says its tests pass, but there are none: the check it
    // planned runs the program. The requirement is held unmet.
    let test = Test::new().script("tests_claimed").args([
        "Write fizzbuzz.py with a function fizzbuzz(n); add pytest tests for it",
        "--max-cycles",
        "0",
    ]);
    let (run, state) = tests_held_unmet(&test);
    assert!(state.requirements.iter().any(|r| r.met && !r.about_tests));
    let ended = state.ended.expect("ended");
    assert!(
        ended.reason.contains("pytest tests for fizzbuzz"),
        "{}",
        ended.reason
    );
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
}

const GREET: &str = "import sys\n\n\ndef main():\n    name = sys.argv[1] if len(sys.argv) > 1 else \"world\"\n    print(f\"Hello, {name}!\")\n\n\nif __name__ == \"__main__\":\n    main()\n";

use runner::state::verdict::Requirement;

/// The requirement whose words hold `words`.
fn naming(requirements: &[Requirement], words: &str) -> Requirement {
    requirements
        .iter()
        .find(|r| r.requirement.contains(words))
        .cloned()
        .unwrap_or_else(|| panic!("no requirement names {words:?}: {requirements:?}"))
}

/// The requirements of each assessment, in order.
fn assessments(test: &Test) -> Vec<Vec<runner::state::verdict::Requirement>> {
    test.records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::Assessed { requirements, .. } => Some(requirements),
            _ => None,
        })
        .collect()
}

#[test]
fn an_output_the_model_claims_is_met_only_when_its_command_prints_it() {
    // The model reads a --shout flag it never acts on as done, and the
    // plan's check runs the program without the flag. The command the
    // assessment gives is run: it prints the greeting unchanged, so the
    // claim is not taken and a cycle makes the flag work.
    let test = Test::new()
        .script("output_claimed")
        .file("greet.py", GREET)
        .args([SHOUT_GOAL]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let assessed = assessments(&test);
    assert_eq!(assessed.len(), 2, "{assessed:?}");
    let shout = |requirements: &[Requirement]| naming(requirements, "--shout");
    let first = shout(&assessed[0]);
    assert!(!first.met, "{first:?}");
    assert_eq!(
        first.evidence,
        "`python3 greet.py --shout Ann` printed \"Hello, Ann!\", which does not hold \"HELLO, ANN!\""
    );
    assert!(
        assessed[0]
            .iter()
            .any(|r| r.met && !r.requirement.contains("--shout"))
    );
    assert_eq!(cycles(&test).len(), 1);
    assert!(cycles(&test)[0].contains("--shout"), "{:?}", cycles(&test));
    let last = shout(&state.requirements);
    assert!(last.met, "{last:?}");
    assert_eq!(
        last.evidence,
        "`python3 greet.py --shout Ann` printed \"HELLO, ANN!\""
    );
    assert!(test.read("greet.py").contains(".upper()"));
}

#[test]
fn an_output_that_is_not_printed_ends_not_achieved_when_no_cycle_is_left() {
    let test = Test::new()
        .script("output_claimed")
        .file("greet.py", GREET)
        .args([SHOUT_GOAL, "--max-cycles", "0"]);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.ended.as_ref().map(|e| e.outcome),
        Some(Outcome::NotAchieved)
    );
    let reason = state.ended.expect("ended").reason;
    assert!(reason.contains("does not hold \"HELLO, ANN!\""), "{reason}");
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    assert!(!test.read("greet.py").contains(".upper()"));
}

/// A program that welcomes the first of its names twice: its output holds
/// the lines the assessment expects after the doubled one, and is not
/// taken for them (t70's welcome-many ended "Goal achieved" on it).
#[test]
fn lines_expected_are_not_held_by_an_output_that_prints_one_of_them_again() {
    let guard =
        "import sys\n\nif len(sys.argv) < 2:\n    sys.exit(\"usage: welcome.py NAME...\")\n";
    let one = format!("{guard}print(f\"Welcome, {{sys.argv[1]}}!\")\n");
    let doubled = format!("{one}for name in sys.argv[1:]:\n    print(f\"Welcome, {{name}}!\")\n");
    let script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Welcome every name", "subtasks": [
            "Change welcome.py so that it welcomes every name it is given",
            "Run `python3 welcome.py Ann Bob`"]}]},
        "assessments": [{"answer": {"requirements": [
            {"requirement": "welcome.py welcomes every name given, each on its own line",
             "met": true, "evidence": "a loop over sys.argv", "about_tests": false,
             "about_output": true, "command": "python3 welcome.py a b c",
             "expects": "Welcome, a!\nWelcome, b!\nWelcome, c!"}]}}],
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            {"name": "loop", "subtask": "every name", "reply": write_reply("welcome.py", &doubled)}],
        "otherwise": {"tool_calls": [{"name": "run_cmd",
            "arguments": {"cmd": "python3 welcome.py Ann Bob"}}]}
    }))
    .expect("script");
    let goal = "Change welcome.py so that it welcomes every name given on the command line";
    let test =
        Test::new()
            .serving(script)
            .file("welcome.py", &one)
            .args([goal, "--max-cycles", "0"]);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(test.read("welcome.py"), doubled);
    let first = naming(&assessments(&test)[0], "every name");
    assert!(!first.met, "{first:?}");
    assert!(
        first
            .evidence
            .contains("printed \"Welcome, a!\" 2 times, where the lines expected have it once"),
        "{}",
        first.evidence
    );
    assert_eq!(
        state.ended.as_ref().map(|e| e.outcome),
        Some(Outcome::NotAchieved)
    );
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
}

/// greet.py as a model changed it for a --shout flag: it shouts with the
/// flag, and greets with "Hi" without it.
const HI: &str = "import sys\n\n\ndef main():\n    args = sys.argv[1:]\n    names = [a for a in args if a != \"--shout\"]\n    name = names[0] if names else \"world\"\n    greeting = f\"Hi, {name}!\"\n    print(greeting.upper() if \"--shout\" in args else greeting)\n\n\nif __name__ == \"__main__\":\n    main()\n";

/// The goal of the scripted greet.py runs below.
const SHOUT_GOAL: &str = "Add a --shout flag to greet.py that prints the greeting in upper case";

/// greet.py as the workspace, and `script` as the model.
fn greet_project(script: crate::support::fake_ollama::Script) -> Test {
    Test::new().serving(script).file("greet.py", GREET)
}

/// A plan that changes greet.py for a --shout flag (the model writes
/// [`HI`]) and runs it, an assessment that finds the flag working, and
/// `rule` first among the model's rules.
fn shouting(rule: serde_json::Value) -> crate::support::fake_ollama::Script {
    shouting_by(vec![
        ends_when("exit code 0", true, "it runs"),
        ends_when("Wrote ", true, "written"),
        rule,
    ])
}

/// [`shouting`] with the model's `rules`, before the one that writes
/// [`HI`].
fn shouting_by(mut rules: Vec<serde_json::Value>) -> crate::support::fake_ollama::Script {
    rules.push(serde_json::json!(
        {"name": "flag", "subtask": "--shout flag", "reply": write_reply("greet.py", HI)}
    ));
    serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add the flag", "subtasks": [
            "Change greet.py: add a --shout flag that prints the greeting in upper case",
            "Run `python3 greet.py`"]}]},
        "assessments": [{"answer": {"requirements": [
            {"requirement": "--shout prints the greeting in upper case", "met": true,
             "evidence": "greeting.upper()", "about_tests": false, "about_output": true,
             "command": "python3 greet.py --shout Ann", "expects": "ANN!"}]}}],
        "rules": rules,
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py"}}]}
    }))
    .expect("script")
}

/// A change the goal asks of an option leaves what the program prints
/// without it as it was: greet.py ran before the plan, and the model's
/// version, which shouts with `--shout`, also greets with "Hi" without it.
/// The assessment finds the option working; the run of the program as the
/// plan checks it is held to what it printed before, and a cycle brings
/// that back.
#[test]
fn what_a_program_printed_before_an_option_was_asked_of_it_is_kept() {
    let hello = HI.replace("Hi, ", "Hello, ");
    let script = shouting(serde_json::json!(
        {"name": "back", "subtask": "printed before this run", "reply": write_reply("greet.py", &hello)}
    ));
    let test = greet_project(script).args([SHOUT_GOAL]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let before: Vec<_> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::RanBefore { runs } => Some(runs),
            _ => None,
        })
        .collect();
    assert_eq!(before.len(), 1, "recorded once, before the plan");
    assert_eq!(before[0][0].command, "python3 greet.py");
    assert!(
        before[0][0].output.ends_with("Hello, world!"),
        "{:?}",
        before[0]
    );
    let kept = |requirements: &[Requirement]| naming(requirements, "printed before this run");
    let first = kept(&assessments(&test)[0]);
    assert!(!first.met, "{first:?}");
    assert!(
        first
            .evidence
            .starts_with("it printed \"Hi, world!\"; before this run it printed \"Hello, world!\""),
        "{}",
        first.evidence
    );
    assert_eq!(cycles(&test).len(), 1);
    assert!(kept(&state.requirements).met, "{:?}", state.requirements);
    assert_eq!(test.read("greet.py"), hello);
}

/// The write that changes what a program printed before the plan is told
/// so in its own result, with what the program prints with the goal's
/// option: the model puts the greeting back in the same subtask, and no
/// cycle is needed (c2's cli-flag learnt it twelve rounds later, from the
/// last check).
#[test]
fn a_write_is_told_at_once_what_the_programs_it_is_held_to_print_now() {
    let hello = HI.replace("Hi, ", "Hello, ");
    let script = shouting_by(vec![
        serde_json::json!({"name": "back", "last_tool": "before this run it printed",
            "reply": write_reply("greet.py", &hello)}),
        ends_when("Wrote ", true, "written"),
        ends_when("exit code 0", true, "it runs"),
    ]);
    let test = greet_project(script).args([SHOUT_GOAL]);
    let run = test.run();
    run.assert_code(0);
    test.assert_replay_matches();
    let written = write_results(&test);
    assert_eq!(written.len(), 2, "{written:#?}");
    assert!(
        written[0].contains(
            "After this change, `python3 greet.py` printed \"Hi, world!\"; before this run it \
             printed \"Hello, world!\""
        ),
        "{}",
        written[0]
    );
    assert!(
        written[0].contains("After this change, `python3 greet.py --shout` printed \"HI, WORLD!\""),
        "{}",
        written[0]
    );
    assert!(
        !written[1].contains("before this run it printed"),
        "{}",
        written[1]
    );
    assert!(cycles(&test).is_empty(), "{:?}", cycles(&test));
    assert_eq!(test.read("greet.py"), hello);
}

/// A goal that speaks of a default may change what the program prints
/// without its option: nothing runs before the plan, and the "Hi" the
/// model wrote stands.
#[test]
fn a_goal_that_speaks_of_a_default_may_change_the_output_without_the_option() {
    let script = shouting(
        serde_json::json!({"name": "none", "subtask": "no such subtask",
        "reply": {"content": "never"}}),
    );
    let test = Test::new()
        .serving(script)
        .file("greet.py", GREET)
        .args(["Add a --shout flag to greet.py, and greet with Hi by default"]);
    test.run().assert_code(0);
    assert!(
        !test
            .records()
            .iter()
            .any(|r| matches!(r.event, Event::RanBefore { .. }))
    );
    assert_eq!(test.read("greet.py"), HI);
}

const ECHO: &str = "import sys\n\n\ndef main(argv):\n    print(\" \".join(argv[1:]))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
const REVERSING: &str = "import sys\n\n\ndef main(argv):\n    words = [a for a in argv[1:] if a != \"--reverse\"]\n    if \"--reverse\" in argv[1:]:\n        words.reverse()\n    print(\" \".join(words))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";

/// The goal of the echo.py tests.
const REVERSE_GOAL: &str = "Extend echo.py with a --reverse option; when it is given the words are printed in reverse order";

/// A run of [`REVERSE_GOAL`] on [`ECHO`], `args` after it: the plan adds
/// the option by writing `written`, then runs `ran`, which the model runs
/// whenever no rule answers; the goal's words read as `three two one`;
/// the assessment answers `requirement`; `first` are rules before the rest.
fn echo_reverse(
    ran: &str,
    requirement: serde_json::Value,
    first: Vec<serde_json::Value>,
    written: &str,
    args: &[&str],
) -> (Test, crate::support::Run) {
    let mut rules = first;
    rules.extend([
        ends_when("exit code 0", true, "it runs"),
        ends_when("Wrote ", true, "written"),
        serde_json::json!({"name": "option", "subtask": "--reverse option",
            "reply": write_reply("echo.py", written)}),
    ]);
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add the option", "subtasks": [
            "Change echo.py: add a --reverse option that prints the words in reverse order",
            format!("Run `{ran}`")]}]},
        "prints": {"prints": ["three two one"]},
        "assessments": [{"answer": {"requirements": [requirement]}}],
        "rules": rules,
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": ran}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("echo.py", ECHO)
        .args([REVERSE_GOAL].into_iter().chain(args.iter().copied()));
    let run = test.run();
    (test, run)
}

/// The assessment's requirement that `--reverse` reverses `a b`.
fn reverses_a_b() -> serde_json::Value {
    serde_json::json!({"requirement": "--reverse prints the words in reverse order", "met": true,
        "evidence": "words.reverse()", "about_tests": false, "about_output": true,
        "command": "python3 echo.py --reverse a b", "expects": "b a"})
}

/// A goal whose option takes a value (`--times N`) holds the program to
/// what the goal's words say a run with a value prints (`--times 2`), as
/// a flag's: t1's repeat-times was run with a bare `--times` after each
/// write, which fails any program that reads the value, and held to
/// nothing but the assessment. A program that takes the option and still
/// prints once is not achieved, whatever the assessment says.
#[test]
fn an_option_that_takes_a_value_is_held_to_a_run_with_one() {
    let repeat = "import sys\n\n\ndef main(argv):\n    message = \" \".join(argv[1:]) or \"hi\"\n    print(message)\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    let right = "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--times\", type=int, default=1)\n    parser.add_argument(\"rest\", nargs=\"*\")\n    args = parser.parse_args()\n    for _ in range(args.times):\n        print(\" \".join(args.rest) or \"hi\")\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let once = right.replace(
        "for _ in range(args.times):\n        print",
        "if args.times:\n        print",
    );
    let run = |written: &str| {
        let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"description": "Add the option", "subtasks": [
                "Change repeat.py: add a --times N option that prints the message N times",
                "Run `python3 repeat.py`"]}]},
            "prints": {"prints": ["hi\nhi", "one\none"]},
            "assessments": [{"answer": {"requirements": [
                {"requirement": "--times N prints the message N times", "met": true,
                 "evidence": "range(args.times)", "about_tests": false, "about_output": true,
                 "command": "python3 repeat.py --times 3 hey", "expects": "hey"}]}}],
            "rules": [
                ends_when("exit code 0", true, "it runs"),
                ends_when("Wrote ", true, "written"),
                {"name": "option", "subtask": "--times N option", "reply": write_reply("repeat.py", written)}
            ],
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 repeat.py"}}]}
        }))
        .expect("script");
        let test = Test::new().serving(script).file("repeat.py", repeat).args([
            "Let repeat.py accept a --times N option that prints the message N times, one per line",
            "--max-cycles",
            "0",
        ]);
        let run = test.run();
        (test, run)
    };
    let (test, done) = run(right);
    let state = test.assert_replay_matches();
    let stated = state.outputs.clone().expect("asked");
    assert_eq!(stated[0].command, "python3 repeat.py --times 2");
    done.assert_code(0);
    let (test, wrong) = run(&once);
    wrong.assert_code(1);
    assert!(!wrong.stderr.contains("Goal achieved"), "{}", wrong.stderr);
    let state = test.assert_replay_matches();
    let unmet: Vec<_> = state.requirements.iter().filter(|r| !r.met).collect();
    assert!(
        unmet.iter().any(|r| r.requirement.contains("--times 2")),
        "{:?}",
        state.requirements
    );
}

/// A program that prints nothing without arguments (t1's echo.py) shows
/// nothing an option could change: before the plan it is run again with
/// words, and what the option must make it print is asked, and held, of
/// that command. Run bare, `--reverse` "changed nothing" of an empty
/// output, and each write that reversed the words was refused.
#[test]
fn a_program_that_prints_nothing_bare_is_shown_with_words_before_an_option_is_asked_of_it() {
    let (test, run) = echo_reverse(
        "python3 echo.py",
        reverses_a_b(),
        Vec::new(),
        REVERSING,
        &[],
    );
    let records = test.records();
    let before = records.iter().find_map(|r| match &r.event {
        Event::RanBefore { runs } => Some(runs.clone()),
        _ => None,
    });
    let before = before.expect("echo.py ran before the plan");
    assert_eq!(before[0].command, "python3 echo.py one two three");
    assert!(before[0].output.ends_with("one two three"), "{before:?}");
    let stated = records.iter().find_map(|r| match &r.event {
        Event::OutputsStated { outputs, .. } => Some(outputs.clone()),
        _ => None,
    });
    let stated = stated.expect("what --reverse prints was asked");
    assert_eq!(stated[0].command, "python3 echo.py one two three --reverse");
    assert_eq!(stated[0].was, "one two three");
    run.assert_code(0);
    assert!(
        refusals(&test, runner::state::RefusalKind::OptionIgnored).is_empty(),
        "{:?}",
        refusals(&test, runner::state::RefusalKind::OptionIgnored)
    );
    assert_eq!(test.read("echo.py"), REVERSING);
}

/// A change after which the program prints otherwise than it must (v1's
/// echo-reverse reversed the words with and without `--reverse`, round
/// after round) is refused, then asked of in a question of its own: what
/// each run must print (the goal's, agreed before the plan, and the run
/// kept from before it), what it prints now, and the program whole; the
/// answer's block is the program written, when it is code (v2's answered
/// with a sentence in the block, which was written and refused). The
/// change broke a run made before the plan, so the program shown is the
/// one from before the run (t45's greet-shout model, shown its own answer,
/// gave it back four times of four).
#[test]
fn a_program_that_prints_otherwise_than_it_must_is_asked_of_on_its_own() {
    let always = ECHO.replace(
        "print(\" \".join(argv[1:]))",
        "print(\" \".join(reversed(argv[1:])))",
    );
    let answer = format!("Wrong: it always reverses.\n```python\n{REVERSING}```\n");
    let (test, run) = echo_reverse(
        "python3 echo.py one two three --reverse",
        reverses_a_b(),
        vec![
            serde_json::json!({"name": "asked on its own, again", "has": ["echo.py must work so"],
                "min_temperature": 0.3, "reply": {"content": answer}}),
            serde_json::json!({"name": "asked on its own: a sentence in the block",
                "has": ["echo.py must work so"],
                "reply": {"content": "Wrong: it always reverses.\n```python\nThe corrected \
                    echo.py checks for `--reverse`.\n```\n"}}),
        ],
        &always,
        &[],
    );
    let asked = asked_of(&test, "echo.py must work so");
    assert_eq!(
        asked.len(),
        2,
        "asked again: a sentence is no program; {}",
        run.stderr
    );
    assert!(
        asked[0].contains(
            "echo.py must work so (each command, then what it must print):\n```\n$ python3 \
             echo.py one two three --reverse\nthree two one\n$ python3 echo.py one two \
             three\none two three\n```\nAfter the changes of this run, it prints:\n```\n$ \
             python3 echo.py one two three --reverse\n--reverse three two one\n$ python3 echo.py \
             one two three\nthree two one\n```"
        ),
        "{}",
        asked[0]
    );
    // The run made before the plan that the change broke: the program as
    // it was then is the one shown, not the change.
    assert!(
        asked[0].contains(&format!(
            "Before this run, echo.py was as below, and `python3 echo.py one two three` printed \
             what it must:\n```python\n{}\n```",
            ECHO.trim_end()
        )),
        "{}",
        asked[0]
    );
    assert!(!asked[0].contains("reversed(argv"), "{}", asked[0]);
    assert!(
        asked[0].contains(
            "```\n\nWith argparse, `parser.add_argument('--reverse', action='store_true')` makes \
             `args.reverse` True when --reverse is given, and `parser.add_argument('rest', \
             nargs='*')` gives the other arguments as the list `args.rest`.\n\nChange that \
             echo.py so that each command prints what it must, and keep what it did."
        ),
        "how the option is read: {}",
        asked[0]
    );
    assert_eq!(
        refusals(&test, runner::state::RefusalKind::KeptBroken).len(),
        1,
        "{}",
        run.stderr
    );
    assert_eq!(test.read("echo.py"), REVERSING);
    run.assert_code(0);
}

/// An answer whose program prints otherwise than it must is run before it
/// is written, in a copy of the workspace, and not written: the question
/// is asked again at once, warmer, and the answer that prints what it
/// must is the one written. t42's greet-shout wrote its wrong answer, the
/// next question showed it back, and the model gave it back unchanged six
/// times; asked anew, the model's answers to the same question differ.
#[test]
fn an_answer_whose_program_prints_otherwise_is_run_first_and_not_written() {
    let always = ECHO.replace(
        "print(\" \".join(argv[1:]))",
        "print(\" \".join(reversed(argv[1:])))",
    );
    let (test, run) = echo_reverse(
        "python3 echo.py one two three --reverse",
        reverses_a_b(),
        vec![
            serde_json::json!({"name": "asked again, warmer", "has": ["echo.py must work so"],
                "min_temperature": 0.3,
                "reply": {"content": format!("Right now.\n```python\n{REVERSING}```\n")}}),
            serde_json::json!({"name": "asked: the reversal undone", "has": ["echo.py must work so"],
                "reply": {"content": format!("It always reverses.\n```python\n{ECHO}```\n")}}),
        ],
        &always,
        &[],
    );
    let requests = test.server().requests();
    let asked: Vec<usize> = requests
        .iter()
        .enumerate()
        .filter(|(_, request)| crate::support::context(request).contains("echo.py must work so"))
        .map(|(at, _)| at)
        .collect();
    assert_eq!(asked.len(), 2, "{}", run.stderr);
    assert_eq!(
        asked[1],
        asked[0] + 1,
        "asked again at once: {}",
        run.stderr
    );
    assert_eq!(
        crate::support::context(&requests[asked[1]]),
        crate::support::context(&requests[asked[0]]),
        "the same question"
    );
    let records = test.records();
    let tried: Vec<_> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::AnswersTried { path, tried, .. } => Some((path.clone(), tried.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(tried.len(), 1, "{tried:?}");
    let (path, answers) = &tried[0];
    assert_eq!(path, "echo.py");
    assert_eq!((answers[0].passed, answers[0].runs), (1, 2), "{answers:?}");
    assert!(
        answers[0].wrong.as_deref().is_some_and(|wrong| wrong
            .starts_with("$ python3 echo.py one two three --reverse\none two three --reverse")),
        "{answers:?}"
    );
    let undone = runner::tools::sha256_hex(ECHO.as_bytes());
    let writes: Vec<String> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::ActionStarted {
                write: Some(write), ..
            } if write.path == "echo.py" => Some(write.after.clone()),
            _ => None,
        })
        .collect();
    assert!(
        !writes.contains(&undone),
        "the wrong answer was written: {writes:?}"
    );
    assert_eq!(test.read("echo.py"), REVERSING);
    test.assert_replay_matches();
    run.assert_code(0);
}

/// An answer written because none of those tried printed what it must
/// (the best of them) is not the program the next question shows: the
/// one from before the run is. t50's cli-flag model, shown its own
/// written answer, gave it back with the same fault six times in two
/// questions.
#[test]
fn after_a_wrong_answer_is_written_the_next_question_shows_the_program_from_before_the_run() {
    // Reads --reverse and prints the words as they are: the runs made
    // before the plan still print what they did.
    let ignoring = ECHO.replace(
        "print(\" \".join(argv[1:]))",
        "print(\" \".join(a for a in argv[1:] if a != \"--reverse\"))",
    );
    let answered = ignoring.replace("def main", "# the words\ndef main");
    let (test, run) = echo_reverse(
        "python3 echo.py one two three --reverse",
        reverses_a_b(),
        vec![
            serde_json::json!({"name": "shown the program from before the run",
                "has": ["echo.py must work so", "Before this run, echo.py was as below:"],
                "reply": {"content": format!("It never reverses.\n```python\n{REVERSING}```\n")}}),
            serde_json::json!({"name": "shown the program as it is", "has": ["echo.py must work so"],
                "reply": {"content": format!("Fine.\n```python\n{answered}```\n")}}),
        ],
        &ignoring,
        &[],
    );
    let asked = asked_of(&test, "echo.py must work so");
    assert!(asked.len() >= 2, "{}", run.stderr);
    assert!(
        !asked[0].contains("Before this run") && asked[0].contains("a != \"--reverse\""),
        "the first shows the program as it is: {}",
        asked[0]
    );
    let last = asked.last().expect("asked");
    assert!(
        last.contains(&format!(
            "Before this run, echo.py was as below:\n```python\n{}\n```",
            ECHO.trim_end()
        )) && !last.contains("# the words"),
        "{last}"
    );
    let tried = test
        .records()
        .into_iter()
        .filter(|r| matches!(r.event, Event::AnswersTried { .. }))
        .count();
    assert!(
        tried >= 1,
        "the wrong answer was tried first: {}",
        run.stderr
    );
    assert_eq!(test.read("echo.py"), REVERSING);
    run.assert_code(0);
}

/// An answer is tried as the review would write it: mended (an import
/// the file had put back), it prints what it must, and it is written with
/// no question asked again. t46's greet-shout answers lacked the `import
/// sys` their last line used.
#[test]
fn an_answer_is_tried_as_the_review_would_write_it() {
    let always = ECHO.replace(
        "print(\" \".join(argv[1:]))",
        "print(\" \".join(reversed(argv[1:])))",
    );
    let unimported = REVERSING.replace("import sys\n\n\n", "");
    let (test, run) = echo_reverse(
        "python3 echo.py one two three --reverse",
        reverses_a_b(),
        vec![serde_json::json!({"name": "asked: the import left out",
            "has": ["echo.py must work so"],
            "reply": {"content": format!("It always reverses.\n```python\n{unimported}```\n")}})],
        &always,
        &[],
    );
    let asked = asked_of(&test, "echo.py must work so");
    assert_eq!(asked.len(), 1, "{}", run.stderr);
    let tried = test
        .records()
        .into_iter()
        .filter(|r| matches!(r.event, Event::AnswersTried { .. }))
        .count();
    assert_eq!(tried, 0, "{}", run.stderr);
    let written = test.read("echo.py");
    assert!(
        written.contains("import sys") && written.contains("words.reverse()"),
        "{written}"
    );
    run.assert_code(0);
}

const COUNT: &str = "import sys\n\n\ndef words(text):\n    return text.split()\n\n\ndef main(argv):\n    text = \" \".join(argv[1:]) if len(argv) > 1 else \"one two three\"\n    print(len(words(text)))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
const COUNTING: &str = "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--chars\", action=\"store_true\")\n    parser.add_argument(\"rest\", nargs=\"*\")\n    args = parser.parse_args()\n    text = \" \".join(args.rest) if args.rest else \"one two three\"\n    print(len(text) if args.chars else len(text.split()))\n\n\nif __name__ == \"__main__\":\n    main()\n";
const CHARS_GOAL: &str = "Give count.py a --chars flag: with it, the script prints the number of characters of its text instead of the number of words";

/// A change that reads the goal's flag as one more word of the program's
/// arguments (x3's cli-chars added a `chars` function nothing called, and
/// `python3 count.py --chars` printed `1`, the one word `--chars`): it
/// prints what the command with `chars` in its place prints, which its
/// write's result says with the edit that leaves the options out. Copied,
/// the flag changes nothing yet, and the claim is refused; with nothing
/// agreed of what it must print (the answers `121`, `13`, `5`) and no edit
/// to copy, the question of its own says the goal and what the run
/// showed, and the program is asked of whole.
#[test]
fn a_flag_read_as_a_word_is_told_and_the_program_asked_of_with_the_goal() {
    let unused = COUNT.replace(
        "\n\nif __name__",
        "\n\ndef chars(text):\n    return len(text)\n\n\nif __name__",
    );
    let old = "    text = \" \".join(argv[1:]) if len(argv) > 1 else \"one two three\"";
    let new = "    positional = [arg for arg in argv if not arg.startswith('-')]\n    text = \" \".join(positional[1:]) if len(positional) > 1 else \"one two three\"";
    let answer = format!("It reads --chars as text.\n```python\n{COUNTING}```\n");
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add the flag", "subtasks": [
            "Change count.py: add a --chars flag that prints the number of characters",
            "Run `python3 count.py`"]}]},
        "prints": {"prints": ["121"]},
        "outputs": {"outputs": ["13"]},
        "texts": {"texts": ["5"]},
        "assessments": [{"answer": {"requirements": [
            {"requirement": "--chars prints the number of characters", "met": true,
             "evidence": "len(text)", "about_tests": false, "about_output": true,
             "command": "python3 count.py --chars", "expects": "13"}]}}],
        "rules": [
            {"name": "asked on its own", "has": ["count.py must do what this goal asks"],
             "reply": {"content": answer}},
            {"name": "copies the edit", "last_tool": "leaves the options out of them",
             "reply": {"tool_calls": [{"name": "edit_file",
                "arguments": {"path": "count.py", "old": old, "new": new}}]}},
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            ends_when("Edited ", true, "edited"),
            {"name": "flag", "subtask": "--chars flag", "reply": write_reply("count.py", &unused)},
        ],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 count.py"}}]}
    }))
    .expect("script");
    let test =
        Test::new()
            .serving(script)
            .file("count.py", COUNT)
            .args([CHARS_GOAL, "--max-cycles", "0"]);
    let run = test.run();
    let results = write_results(&test);
    assert!(
        results[0].contains(
            "After this change, `python3 count.py --chars` printed \"1\", what `python3 \
             count.py chars` prints: count.py reads --chars as a word of its arguments, not as \
             an option. count.py reads its arguments by position at line 9, --chars among them"
        ),
        "{results:?}"
    );
    let ignored = refusals(&test, runner::state::RefusalKind::OptionIgnored);
    assert_eq!(ignored.len(), 1, "{ignored:?}\n{}", run.stderr);
    let told = "`python3 count.py --chars` printed \"3\", what `python3 count.py` prints without \
                --chars: --chars changes nothing yet";
    assert!(ignored[0].contains(told), "{}", ignored[0]);
    let asked = asked_of(&test, "count.py must do what this goal asks");
    assert_eq!(asked.len(), 1, "{}", run.stderr);
    assert!(
        asked[0].contains(&format!(
            "count.py must do what this goal asks: {CHARS_GOAL}.\n\n{told}. These must print \
             what they print now:\n```\n$ python3 count.py\n3\n$ python3 count.py one\n1\n```\n\n\
             count.py:\n```python\n"
        )),
        "{}",
        asked[0]
    );
    assert!(
        asked[0].contains("With argparse, `parser.add_argument('--chars', action='store_true')`"),
        "{}",
        asked[0]
    );
    assert_eq!(test.read("count.py"), COUNTING);
    run.assert_code(0);
}

/// A requirement whose command leaves out the goal's option is shown by
/// the stated run of that command with it: w2's echo-reverse assessment
/// gave "... --reverse option ..." `python3 echo.py one two three`,
/// expecting `three two one`; the stated run with `--reverse` printed
/// that, and a cycle that could change nothing ran to the round cap.
#[test]
fn a_requirement_shown_without_its_option_is_shown_by_the_stated_run_with_it() {
    let (test, run) = echo_reverse(
        "python3 echo.py one two three --reverse",
        serde_json::json!({"requirement": "Extend echo.py with a --reverse option", "met": true,
            "evidence": "words.reverse()", "about_tests": false, "about_output": true,
            "command": "python3 echo.py one two three", "expects": "three two one"}),
        Vec::new(),
        REVERSING,
        &["--max-cycles", "0"],
    );
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let option = naming(
        &state.requirements,
        "Extend echo.py with a --reverse option",
    );
    assert!(option.met, "{option:?}");
    assert!(
        option
            .evidence
            .starts_with("shown by `python3 echo.py one two three --reverse`"),
        "{option:?}"
    );
}

/// A cli-flag assessment by a 1.5B model: the goal's `--shout` restated as
/// a function's argument, met from the code, and no requirement naming the
/// option. The option the goal names is added as an unmet requirement, so
/// with no cycle left the run ends not achieved, saying so.
#[test]
fn an_option_of_the_goal_no_requirement_names_is_not_taken_as_met() {
    let mut script = crate::support::fake_ollama::load_script("output_claimed");
    script.assessments = serde_json::from_value(serde_json::json!([{
        "answer": {"requirements": [
            {"requirement": "greet.py greets the name it is given", "met": true,
             "evidence": "print(f\"Hello, {name}!\")", "about_tests": false,
             "about_output": true, "command": "python3 greet.py Ann", "expects": "Hello, Ann!"},
            {"requirement": "the greeting function shouts when its shout argument is true",
             "met": true, "evidence": "shout = \"--shout\" in args", "about_tests": false,
             "about_output": false, "command": "", "expects": ""}
        ]}
    }]))
    .expect("assessments");
    let test = greet_project(script).args([SHOUT_GOAL, "--max-cycles", "0"]);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let added = state
        .requirements
        .iter()
        .find(|r| r.requirement.contains("--shout"))
        .expect("a requirement for the goal's option");
    assert!(!added.met, "{added:?}");
    let reason = state.ended.expect("ended").reason;
    assert!(reason.contains("--shout"), "{reason}");
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
}

/// An add-function run at 0afdc15 ended "Goal achieved" on an assessment
/// that read `count_vowels` into a textutil.py without it. A name the goal
/// gives in call form that no source file defines is an unmet requirement,
/// whatever the assessment says.
#[test]
fn a_function_the_goal_names_and_no_file_defines_is_not_taken_as_met() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add count_vowels",
            "subtasks": ["Change textutil.py: add count_vowels(text)"]}]},
        "rules": [
            ends_when("Edited textutil.py", true, "edited textutil.py")
        ],
        "otherwise": {"tool_calls": [{"name": "edit_file", "arguments": {"path": "textutil.py",
            "old": "def reverse(text):", "new": "def reverse(text):\n    # backwards"}}]}
    }))
    .expect("script");
    let test = add_function(script, "def reverse(text):\n    return text[::-1]\n");
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let named = state
        .requirements
        .iter()
        .find(|r| r.requirement.starts_with("count_vowels"))
        .expect("the goal's function as a requirement");
    assert!(!named.met, "{named:?}");
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
}

/// A goal that asks for tests, a plan that makes the module the file to
/// change and `python3 inventory.py` the check, a model that adds a
/// docstring and an assessment that lists the class's methods, met from
/// the code, and no requirement about tests (an add-tests run at b9361f3
/// ended "Goal achieved" so, with no test written). A goal that speaks of
/// tests has a requirement about tests, met only by tests that ran and
/// passed: not achieved. And its plan writes the tests in a file of their
/// own, checked by pytest.
#[test]
fn a_goal_that_asks_for_tests_is_not_met_without_them() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "inventory.py", "purpose": "Add pytest tests for the Inventory class"}],
            "check": "python3 inventory.py"},
        "rules": [
            on_subtask("Run `python3 inventory.py`", "run_cmd", serde_json::json!({"cmd": "python3 inventory.py"})),
            ends_when("Edited inventory.py", true, "edited inventory.py"),
            ends_when("exit code 0", true, "it runs")
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "Inventory has add, remove and count", "met": true,
             "evidence": "def add(self, name, count=1):", "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "edit_file", "arguments": {"path": "inventory.py",
            "old": "class Inventory:", "new": "class Inventory:\n    \"\"\"Items in stock.\"\"\""}}]}
    }))
    .expect("script");
    let test = add_tests(script, "0");
    let run = test.run();
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    // The plan's change of inventory.py was made the write of its tests,
    // checked by pytest.
    let plan = tasks(&test, false);
    assert_eq!(
        plan[0].kinds[0],
        SubtaskKind::Write {
            path: "test_inventory.py".into()
        }
    );
    assert!(
        plan[0].kinds.contains(&SubtaskKind::Check {
            cmd: "python3 -m pytest -q".into()
        }),
        "{plan:?}"
    );
}

/// A plan that writes the tests in `test_inventory.py` and also keeps
/// "Change inventory.py: Add pytest tests" (seen in a real add-tests run),
/// and a model that does what each subtask says: the module the goal
/// asks nothing of but tests is not planned for a change, so it stays as
/// it was, and the tests are written and pass. So is a change that would
/// add only what nobody asked for (y1's add-tests, `--api openai`:
/// "Change inventory.py: Add a class `Inventory` with a method
/// `add_item`").
#[test]
fn a_plan_that_writes_tests_apart_does_not_also_change_the_code_for_them() {
    for change in [
        "Add pytest tests for the Inventory class",
        "Add a class `Inventory` with a method `add_item` that adds an item",
    ] {
        planned_with_tests_apart(change);
    }
}

fn planned_with_tests_apart(change: &str) {
    let inventory = "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def add(self, name, count=1):\n        self.items[name] = self.items.get(name, 0) + count\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [
            {"path": "inventory.py", "purpose": change},
            {"path": "test_inventory.py", "purpose": "pytest tests for the Inventory class"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            ends_when("Edited inventory.py", true, "edited"),
            on_subtask("Change inventory.py", "edit_file", serde_json::json!({"path": "inventory.py",
                "old": "class Inventory:", "new": "class Inventory:\n    \"\"\"Items in stock.\"\"\""})),
            on_subtask("Write test_inventory.py", "write_file", serde_json::json!({"path": "test_inventory.py",
                "content": "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.items == {\"pen\": 2}\n"})),
            on_subtask("python3 -m pytest -q", "run_cmd", serde_json::json!({"cmd": "python3 -m pytest -q"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for Inventory", "met": true,
             "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = add_tests(script, "0");
    let run = test.run();
    run.assert_code(0);
    let plan = tasks(&test, false);
    assert_eq!(
        planned_writes(&plan),
        ["test_inventory.py"],
        "{change}: {plan:?}"
    );
    assert_eq!(
        test.read("inventory.py"),
        inventory,
        "the module is as it was"
    );
    assert!(test.read("test_inventory.py").contains("def test_add"));
}

/// A goal that repairs code its project's failing tests (in `tests/`, with
/// pytest told in pyproject.toml to look there) test is a fix, though it
/// speaks of tests: a planned change of the code in words about the tests
/// stays a change of the code, and no second test file is planned beside
/// it. t1's wordfreq-fix plan became "Write test_wordfreq.py", and the
/// model wrote the project's tests again.
#[test]
fn a_fix_whose_failing_tests_sit_in_a_folder_changes_the_code() {
    let buggy = "def double(n):\n    return n + n + 1\n";
    let fixed = "def double(n):\n    return n + n\n";
    let tests = "from calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n";
    let pyproject = "[tool.pytest.ini_options]\npythonpath = [\".\"]\ntestpaths = [\"tests\"]\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "calc.py",
            "purpose": "Change the `double` tests to pass by replacing the assert statements"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Edited calc.py", true, "fixed"),
            on_subtask("calc.py", "edit_file", serde_json::json!({"path": "calc.py",
                "old": "return n + n + 1", "new": "return n + n"})),
            on_subtask("test_calc.py", "write_file", serde_json::json!({"path": "test_calc.py",
                "content": tests}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "the project's tests pass", "met": true,
             "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("calc.py", buggy)
        .file("tests/test_calc.py", tests)
        .file("pyproject.toml", pyproject)
        .args([
            "Some tests under tests/ are red. Repair calc.py so the test suite is green again",
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    let plan = tasks(&test, false);
    assert_eq!(planned_writes(&plan), ["calc.py"], "{plan:?}");
    assert!(
        !test.workspace.join("test_calc.py").exists(),
        "{}",
        run.stderr
    );
    assert_eq!(test.read("calc.py"), fixed);
    assert_eq!(test.read("tests/test_calc.py"), tests);
    run.assert_code(0);
}

/// Tests asked of a class are met only when they call each of its
/// methods: y1's add-tests (`--api openai`) ended "Goal achieved" on one
/// test of `add` and `count`, `remove` never called. Without a cycle it
/// is not achieved; with one, the cycle adds a test of `remove` to the
/// test file, and then it is. One test function that calls every method
/// is not tests of each.
#[test]
fn tests_asked_of_a_class_call_each_of_its_methods() {
    let inventory = "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def add(self, name, count=1):\n        self.items[name] = self.items.get(name, 0) + count\n\n    def remove(self, name):\n        del self.items[name]\n\n    def count(self, name):\n        return self.items.get(name, 0)\n";
    let some = "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.count(\"pen\") == 2\n";
    let all = format!(
        "{some}\n\ndef test_remove():\n    inventory = Inventory()\n    inventory.add(\"pen\")\n    inventory.remove(\"pen\")\n    assert inventory.count(\"pen\") == 0\n"
    );
    let script = |first: &str| -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "test_inventory.py", "purpose": "pytest tests for the Inventory class"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            on_subtask("Inventory.remove", "write_file", serde_json::json!({"path": "test_inventory.py", "content": all})),
            on_subtask("Write test_inventory.py", "write_file", serde_json::json!({"path": "test_inventory.py", "content": first}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for the Inventory class", "met": true,
             "evidence": "test_add passes", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script")
    };
    let run_with = |first: &str, cycles: &str| {
        let test = Test::new()
            .serving(script(first))
            .file("inventory.py", inventory)
            .args([
                "Add pytest tests for the Inventory class in inventory.py",
                "--max-cycles",
                cycles,
            ]);
        let run = test.run();
        (test, run)
    };
    let (test, run) = run_with(some, "0");
    run.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.requirements[0].evidence, "no test calls Inventory.remove of inventory.py",
        "{}",
        run.stderr
    );
    let (test, run) = run_with(some, "1");
    run.assert_code(0);
    assert_eq!(test.read("test_inventory.py"), all);
    assert_eq!(test.read("inventory.py"), inventory);
    // Each method called, all by one test function: not tests of each.
    let one = "from inventory import Inventory\n\n\ndef test_inventory():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    inventory.remove(\"pen\")\n    assert inventory.count(\"pen\") == 0\n";
    let (test, run) = run_with(one, "0");
    run.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.requirements[0].evidence,
        "one test function tests all of inventory.py: give each of its 3 functions a test of \
         its own",
        "{}",
        run.stderr
    );
    // With the first line of a test of each, for the cycle to split it by.
    assert_eq!(
        state.requirements[0].requirement,
        "each function of inventory.py has a test of its own that passes (`def test_add():`, \
         `def test_remove():`, `def test_count():`)"
    );
}

/// Tests asked of a class are met only when they would fail on it broken:
/// stack-tests (z1c, z2, z3) ended "Goal achieved" three times on tests
/// that pushed one item, which pass with a `push` that puts items at the
/// bottom. Without a cycle it is not achieved, and says which change no
/// test caught; with one, the cycle asks the test file for a test of two
/// items, and then it is. The project's files are never changed by it.
#[test]
fn tests_that_pass_on_a_broken_function_do_not_meet_a_goal_of_tests() {
    let stack = "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, item):\n        self.items.append(item)\n\n    def pop(self):\n        return self.items.pop()\n\n    def size(self):\n        return len(self.items)\n";
    let weak = "from stack import Stack\n\n\ndef test_push():\n    stack = Stack()\n    stack.push(1)\n    assert stack.size() == 1\n\n\ndef test_pop():\n    stack = Stack()\n    stack.push(1)\n    stack.pop()\n    assert stack.size() == 0\n";
    let strong = format!(
        "{weak}\n\ndef test_pop_returns_the_last_pushed():\n    stack = Stack()\n    stack.push(1)\n    stack.push(2)\n    assert stack.pop() == 2\n"
    );
    let script = serde_json::from_value::<crate::support::fake_ollama::Script>(serde_json::json!({
        "plan": {"tasks": [{"path": "test_stack.py", "purpose": "pytest tests for the Stack class"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            on_subtask("which comes out first", "write_file", serde_json::json!({"path": "test_stack.py", "content": strong})),
            on_subtask("Write test_stack.py", "write_file", serde_json::json!({"path": "test_stack.py", "content": weak}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for the Stack class", "met": true,
             "evidence": "2 tests pass", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let run_with = |cycles: &str| {
        let test = Test::new()
            .serving(script.clone())
            .file("stack.py", stack)
            .args([
                "Write tests with pytest for the Stack class of stack.py",
                "--max-cycles",
                cycles,
            ]);
        let run = test.run();
        (test, run)
    };
    let (test, run) = run_with("0");
    run.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.requirements[0].evidence,
        "the tests still pass when `self.items.append(item)` in Stack.push is \
         `self.items.insert(0, item)`: add a new test function that puts in two items or more \
         and asserts which comes out first; the tests still pass when Stack.pop returns None: \
         add a new test function that asserts what Stack.pop returns",
        "{}",
        run.stderr
    );
    assert!(!state.requirements[0].met);
    assert_eq!(state.requirements[0].file.as_deref(), Some("test_stack.py"));
    assert_eq!(test.read("stack.py"), stack);
    assert_eq!(test.read("test_stack.py"), weak);
    let (test, run) = run_with("1");
    run.assert_code(0);
    assert_eq!(test.read("test_stack.py"), strong);
    assert_eq!(test.read("stack.py"), stack);
    let state = test.assert_replay_matches();
    assert!(
        state.requirements.iter().all(|r| r.met),
        "{:?}",
        state.requirements
    );
}

/// An edit that quotes a line the file has more than once and gives it
/// again with a whole new test after it is the new test, put in by its
/// definition: z6's stack-tests quoted `stack.push(1)`, in four tests, to
/// add one, and sent it again until the loop guard stopped it.
#[test]
fn a_new_test_after_a_line_the_file_has_twice_is_put_in() {
    let stack = "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, item):\n        self.items.append(item)\n\n    def pop(self):\n        return self.items.pop()\n";
    let weak = "from stack import Stack\n\n\ndef test_push():\n    stack = Stack()\n    stack.push(1)\n    assert stack.items == [1]\n\n\ndef test_pop():\n    stack = Stack()\n    stack.push(1)\n    assert stack.pop() == 1\n";
    let order = "def test_order():\n    stack = Stack()\n    stack.push(1)\n    stack.push(2)\n    assert stack.pop() == 2\n";
    let script = serde_json::from_value::<crate::support::fake_ollama::Script>(serde_json::json!({
        "plan": {"tasks": [{"path": "test_stack.py", "purpose": "a test of the order of the Stack"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Edited ", true, "edited"),
            on_subtask("test_stack.py", "edit_file", serde_json::json!({"path": "test_stack.py",
                "old": "    stack.push(1)", "new": format!("    stack.push(1)\n\n\n{order}")}))
        ],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("stack.py", stack)
        .file("test_stack.py", weak)
        .args([
            "Add a test of the order of Stack to test_stack.py",
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    let now = test.read("test_stack.py");
    assert_eq!(now, format!("{weak}\n\n{order}"), "{}", run.stderr);
    let failed = test.results(|outcome| !outcome.ok);
    assert!(failed.is_empty(), "{failed:?}");
    test.assert_replay_matches();
}

/// Code a goal asks tests of stays as it is. Asked to cover `Account` in
/// bank.py with tests, z3's plan kept "Change bank.py: Define the Account
/// class with methods for deposit, withdraw, and balance" beside the
/// tests, and the model's rewrite lost `self.balance -= amount`. The
/// planned change of bank.py is dropped, and a write of it that changes
/// `withdraw` is refused with why and where the tests go: the tests are
/// written, they pass, and bank.py is as it was. A class with a stub
/// (`raise NotImplementedError`) is there to be filled in, and a goal that
/// names a command-line option asks a change too: there the change is
/// planned and written. Tests planned in a folder are its tests too.
#[test]
fn code_a_goal_asks_tests_of_stays_as_it_is() {
    let bank = "class Account:\n    def __init__(self, balance=0):\n        self.balance = balance\n\n    def deposit(self, amount):\n        self.balance += amount\n\n    def withdraw(self, amount):\n        self.balance -= amount\n";
    let broken = bank.replace("self.balance -= amount", "pass");
    let tests = "from bank import Account\n\n\ndef test_deposit():\n    account = Account(100)\n    account.deposit(50)\n    assert account.balance == 150\n\n\ndef test_withdraw():\n    account = Account(100)\n    account.withdraw(30)\n    assert account.balance == 70\n";
    let script = |test_file: &str| -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [
                {"path": "bank.py",
                 "purpose": "Define the Account class with methods for deposit, withdraw, and balance"},
                {"path": test_file, "purpose": "pytest unit tests for the Account class"}],
                "check": "python3 -m pytest -q"},
            "rules": [
                ends_when("exit code 0", true, "it passes"),
                {"name": "told", "last_tool": "not written: the goal asks for tests of bank.py",
                 "reply": write_reply(test_file, tests)},
                ends_when("Wrote ", true, "written"),
                on_subtask("bank.py", "write_file", serde_json::json!({"path": "bank.py", "content": broken}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "pytest unit tests for the Account class", "met": true,
                 "evidence": "2 tests pass", "about_tests": true}]}}],
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
        }))
        .expect("script")
    };
    let goal = "Cover the Account class in bank.py with pytest unit tests";
    let run_in = |test_file: &str, code: &str, goal: &str| {
        let test = Test::new()
            .serving(script(test_file))
            .file("bank.py", code)
            .args([goal, "--max-cycles", "0"]);
        let run = test.run();
        (test, run)
    };
    let run_on = |code: &str, goal: &str| run_in("test_bank.py", code, goal);
    let changes_bank = |test: &Test| {
        tasks(test, false)
            .iter()
            .flat_map(|task| &task.kinds)
            .any(|kind| matches!(kind, SubtaskKind::Write { path } if path == "bank.py"))
    };
    let stub = bank.replace("self.balance -= amount", "raise NotImplementedError");
    let (test, _) = run_on(&stub, goal);
    assert!(changes_bank(&test));
    let refused = refusals(&test, runner::state::RefusalKind::CodeUnderTestKept);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(test.read("bank.py"), broken);
    // A goal that names an option asks a change of the program too.
    let (test, _) = run_on(bank, &format!("{goal}, and give bank.py a --verbose flag"));
    assert!(changes_bank(&test));
    let refused = refusals(&test, runner::state::RefusalKind::CodeUnderTestKept);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(test.read("bank.py"), broken);
    let (test, run) = run_on(bank, goal);
    run.assert_code(0);
    assert!(!changes_bank(&test), "{:?}", tasks(&test, false));
    let refused = refusals(&test, runner::state::RefusalKind::CodeUnderTestKept);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].contains("changes `Account.withdraw` of bank.py")
            && refused[0].contains("Write the tests in test_bank.py"),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("bank.py"), bank);
    assert_eq!(test.read("test_bank.py"), tests);
    test.assert_replay_matches();
    // Tests planned in a folder are the tests of bank.py as well: t3's
    // slug-tests kept "Change slug.py" beside tests/test_slug.py.
    let (test, run) = run_in("tests/test_bank.py", bank, goal);
    run.assert_code(0);
    assert!(!changes_bank(&test), "{:?}", tasks(&test, false));
    assert_eq!(test.read("bank.py"), bank);
    assert_eq!(test.read("tests/test_bank.py"), tests);
}

/// A whole file a goal asks tests of keeps its lines as they were: t61's
/// timeparse-tests rewrote the docstring of the function it was to test,
/// which changed no definition's shape. What is added beside them is
/// taken.
#[test]
fn a_line_of_code_under_test_rewritten_is_refused_too() {
    let commented = SLUG.replace(
        "if len(text) <= width:",
        "if len(text) <= width:  # short enough",
    );
    let tests = "from slug import truncate\n\n\ndef test_short():\n    assert truncate('ab', 5) == 'ab'\n\n\ndef test_long():\n    assert truncate('Hello, World!', 10) == 'Hello, ...'\n";
    let told = serde_json::json!({"name": "told",
        "last_tool": "not written: the goal asks for tests of slug.py",
        "reply": write_reply("test_slug.py", tests)});
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "test_slug.py", "purpose": "pytest tests for slug.py"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            told,
            ends_when("Wrote ", true, "written"),
            on_subtask("Write test_slug.py", "write_file",
                serde_json::json!({"path": "slug.py", "content": commented}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for slug.py", "met": true,
             "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).file("slug.py", SLUG).args([
        "slug.py has no tests yet; write some with pytest",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    let refused = refusals(&test, runner::state::RefusalKind::CodeUnderTestKept);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].contains("changes line 2 (`if len(text) <= width:`) of slug.py"),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("slug.py"), SLUG);
    assert_eq!(test.read("test_slug.py"), tests);
    run.assert_code(0);
}

/// slug.py's `truncate`, whose tests the goal asks for.
const SLUG: &str = "def truncate(text, width):\n    if len(text) <= width:\n        return text\n    return text[: width - 3] + \"...\"\n";

/// A goal of tests of [`SLUG`] with `--max-cycles 0`: the plan writes
/// test_slug.py as `wrong`, then runs pytest until it passes; `told` is
/// what the model does when told of its failure.
fn slug_tests(told: serde_json::Value, wrong: &str) -> Test {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "test_slug.py", "purpose": "pytest tests for slug.py"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            told,
            ends_when("Wrote ", true, "written"),
            on_subtask("Write test_slug.py", "write_file", serde_json::json!({"path": "test_slug.py", "content": wrong}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for slug.py", "met": true,
             "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    Test::new().serving(script).file("slug.py", SLUG).args([
        "slug.py has no tests yet; write some with pytest",
        "--max-cycles",
        "0",
    ])
}

/// slug.py with two functions, for [`tests_of_a_subtask`].
const SLUG_TWO: &str = "import re\n\n\ndef slugify(text):\n    return \"-\".join(re.findall(r\"[a-z0-9]+\", text.lower()))\n\n\ndef truncate(text, width):\n    if len(text) <= width:\n        return text\n    return text[: width - 3] + \"...\"\n";

/// A goal of tests of [`SLUG_TWO`] with `--max-cycles 0`, planned as
/// `plan`; each test file is written as `written` gives it, and a refusal
/// that says "no test in" gets `told` written to test_slug.py.
fn tests_of_a_subtask(plan: serde_json::Value, written: &[(&str, &str)], told: &str) -> Test {
    let mut rules = vec![
        ends_when("exit code 0", true, "it passes"),
        serde_json::json!({"name": "told", "last_tool": "not accepted yet: no test in",
            "reply": write_reply("test_slug.py", told)}),
        ends_when("Wrote ", true, "written"),
    ];
    for (path, content) in written {
        rules.push(on_subtask(
            &format!("Write {path}"),
            "write_file",
            serde_json::json!({"path": path, "content": content}),
        ));
    }
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": plan, "check": "python3 -m pytest -q"},
        "rules": rules,
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for slug.py", "met": true,
             "evidence": "they pass", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    Test::new().serving(script).file("slug.py", SLUG_TWO).args([
        "slug.py has no tests yet. Write some for its functions using pytest",
        "--max-cycles",
        "0",
    ])
}

/// A test file's subtask marked done while a function its words name is
/// called by no test is refused once, with the first line of a test of
/// its own for it: t7's, t10's and t12's slug-tests plans asked for tests
/// of slugify and truncate, the model wrote tests of slugify alone, and
/// the cycle after it merged truncate into slugify's assert. Told, the
/// model adds the test, and the run is achieved with no cycle. A plan that
/// gives truncate a test file of its own later is not refused at the
/// first.
#[test]
fn a_test_file_that_leaves_a_function_it_was_for_untested_is_not_done_at_the_first_claim() {
    let slugify = "from slug import slugify\n\n\ndef test_slugify():\n    assert slugify('Hello, World!') == 'hello-world'\n";
    let both = "from slug import slugify, truncate\n\n\ndef test_slugify():\n    assert slugify('Hello, World!') == 'hello-world'\n\n\ndef test_truncate():\n    assert truncate('abcdef', 5) == 'ab...'\n";
    let test = tests_of_a_subtask(
        serde_json::json!([{"path": "test_slug.py", "purpose": "tests for slugify and truncate"}]),
        &[("test_slug.py", slugify)],
        both,
    );
    let run = test.run();
    assert_eq!(
        refusals(&test, runner::state::RefusalKind::Untested),
        [
            "not accepted yet: no test in test_slug.py calls truncate of slug.py. Add to \
             test_slug.py a test of its own for each, below the tests there, calling it and \
             asserting what it returns: `def test_truncate():`. Then mark the subtask \
             complete; if they must not be tested here, mark it complete again."
        ],
        "{}",
        run.stderr
    );
    assert_eq!(test.read("test_slug.py"), both);
    assert_eq!(test.read("slug.py"), SLUG_TWO);
    run.assert_code(0);
    test.assert_replay_matches();
    // truncate's tests planned in a file of their own after it: the first
    // claim stands, and so does the second.
    let alone = "from slug import truncate\n\n\ndef test_truncate():\n    assert truncate('abcdef', 5) == 'ab...'\n";
    let test = tests_of_a_subtask(
        serde_json::json!([
            {"path": "test_slug.py", "purpose": "tests for slugify"},
            {"path": "test_truncate.py", "purpose": "tests for truncate"}]),
        &[("test_slug.py", slugify), ("test_truncate.py", alone)],
        both,
    );
    let run = test.run();
    assert!(
        refusals(&test, runner::state::RefusalKind::Untested).is_empty(),
        "{}",
        run.stderr
    );
    assert_eq!(test.read("test_slug.py"), slugify);
    run.assert_code(0);
}

/// Tests of code that stays as it is are told, when they fail, what the
/// code returns where they expect otherwise: the code is what they are of.
/// t4's slug-tests asserted `truncate('Hello, World!', 10) == 'hello...'`
/// and sent the same expectation back twice past pytest's diff. The
/// model, told, corrects the assert, and the tests pass on slug.py as it
/// was; a run of tests that fails for another reason says nothing of it.
#[test]
fn failing_tests_of_kept_code_are_told_what_it_returns() {
    // Nine right asserts come first: the wrong one is not among the first
    // calls (t5's was the twelfth).
    let right_ones: String = (1..=9)
        .map(|width| format!("    assert truncate('a', {width}) == 'a'\n"))
        .collect();
    let wrong = format!(
        "from slug import truncate\n\n\ndef test_truncate():\n{right_ones}    assert truncate('Hello, World!', 10) == 'hello...' and truncate('ab', 5) == 'ab'\n"
    );
    let wrong = wrong.as_str();
    let right = wrong.replace("'hello...'", "'Hello, ...'");
    let told =
        "`truncate('Hello, World!', 10)` returns 'Hello, ...', where a test expects 'hello...'";
    let told_rule = serde_json::json!({"name": "told", "last_tool": told, "reply": write_reply("test_slug.py", &right)});
    let test = slug_tests(told_rule, wrong);
    let run = test.run();
    let results = test.results(|outcome| outcome.command.is_some());
    assert!(
        results
            .iter()
            .any(|r| r.contains(told) && r.contains("slug.py stays as it is")),
        "{results:#?}"
    );
    // `truncate('ab', 5)` returns what the test expects: not told.
    assert!(
        !results.iter().any(|r| r.contains("`truncate('ab', 5)`")),
        "{results:#?}"
    );
    assert_eq!(test.read("test_slug.py"), right);
    assert_eq!(test.read("slug.py"), SLUG);
    run.assert_code(0);
}

/// A change of a file the project had, given up after a write that left
/// the file as it was, is refused once: nothing of it was tried. t97's
/// add-hex wrote colors.py back unchanged and gave "Add hex_to_rgb" up at
/// its second round; the model, told, writes the change.
#[test]
fn giving_up_a_change_after_writing_the_file_back_unchanged_is_refused_once() {
    const COLORS: &str = "def rgb_to_hex(r, g, b):\n    return f\"#{r:02x}{g:02x}{b:02x}\"\n";
    let with_hex = format!(
        "{COLORS}\n\ndef hex_to_rgb(code):\n    return tuple(int(code[i:i + 2], 16) for i in (1, 3, 5))\n"
    );
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "colors.py", "purpose": "add hex_to_rgb(code), the opposite of rgb_to_hex"}],
            "check": "python3 colors.py"},
        "rules": [
            {"name": "told", "last_tool": "do not give up yet", "reply": write_reply("colors.py", &with_hex)},
            ends_when("already had this content", false, "nothing to change"),
            ends_when("Wrote ", true, "written"),
            on_subtask("Change colors.py", "write_file", serde_json::json!({"path": "colors.py", "content": COLORS}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "hex_to_rgb('#ff8000') returns (255, 128, 0)", "met": true,
             "evidence": "colors.py defines it"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 colors.py"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).file("colors.py", COLORS).args([
        "colors.py turns RGB values into hex codes. Add hex_to_rgb(code) that does the opposite",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    let refused = refusals(&test, runner::state::RefusalKind::GaveUpTooSoon);
    assert_eq!(refused.len(), 1, "{refused:?}\n{}", run.stderr);
    assert!(
        refused[0].starts_with(
            "not accepted: do not give up yet: nothing this subtask asks was tried: colors.py is as it was"
        ),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("colors.py"), with_hex, "{}", run.stderr);
    // After a refused write the change was tried: not refused so (a
    // command ran first, so the subtask acted and the refusal of a give-up
    // after nothing but a refused write does not apply either).
    let renaming = serde_json::json!({"path": "colors.py",
        "old": "def rgb_to_hex(r, g, b):", "new": "def hex_to_rgb(code):"});
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "colors.py", "purpose": "add hex_to_rgb(code), the opposite of rgb_to_hex"}],
            "check": "python3 colors.py"},
        "rules": [
            ends_when("not written: this change removes", false, "cannot add it"),
            {"name": "edit after a run", "last_tool": "exit code 0",
             "reply": {"tool_calls": [{"name": "edit_file", "arguments": renaming}]}},
            on_subtask("Change colors.py", "run_cmd", serde_json::json!({"cmd": "python3 colors.py"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": []}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 colors.py"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).file("colors.py", COLORS).args([
        "colors.py turns RGB values into hex codes. Add hex_to_rgb(code) that does the opposite",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    let refused = refusals(&test, runner::state::RefusalKind::GaveUpTooSoon);
    assert!(
        !refused
            .iter()
            .any(|r| r.contains("nothing this subtask asks was tried")),
        "{refused:?}\n{}",
        run.stderr
    );
    assert_eq!(test.read("colors.py"), COLORS);
}

/// Every assert of code that stays as it is that expects otherwise is
/// corrected by the one write the model sends after a failed run, not one
/// a run: unittest stops each test at its first failing assert, and t96's
/// validate-tests, nine wrong `assertFalse`s in two tests, was told and
/// fixed one of them every two rounds until it was stopped. The runner
/// tells what each asserted call returns; the model's edit of the first
/// failing line is mended to correct the others as well.
#[test]
fn one_edit_corrects_every_assert_of_kept_code_the_runner_told() {
    const VALIDATE: &str = "def is_valid(name):\n    return name.isalpha()\n";
    let wrong = "import unittest\nimport validate\n\n\nclass TestValidate(unittest.TestCase):\n    def test_valid(self):\n        self.assertTrue(validate.is_valid('abc'))\n        self.assertTrue(validate.is_valid('a1'))\n        self.assertTrue(validate.is_valid('a_b'))\n\n    def test_invalid(self):\n        self.assertFalse(validate.is_valid('xyz'))\n        self.assertFalse(validate.is_valid(''))\n";
    let right = wrong
        .replace(
            "assertTrue(validate.is_valid('a1'))",
            "assertFalse(validate.is_valid('a1'))",
        )
        .replace(
            "assertTrue(validate.is_valid('a_b'))",
            "assertFalse(validate.is_valid('a_b'))",
        )
        .replace(
            "assertFalse(validate.is_valid('xyz'))",
            "assertTrue(validate.is_valid('xyz'))",
        );
    let edit = serde_json::json!({"tool_calls": [{"name": "edit_file", "arguments": {
        "path": "test_validate.py",
        "old": "self.assertTrue(validate.is_valid('a1'))",
        "new": "self.assertFalse(validate.is_valid('a1'))"}}]});
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "test_validate.py", "purpose": "unittest tests for validate.py"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            {"name": "told", "last_tool": "where a test expects", "reply": edit},
            ends_when("Wrote ", true, "written"),
            on_subtask("Write test_validate.py", "write_file",
                serde_json::json!({"path": "test_validate.py", "content": wrong}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "unittest tests for validate.py", "met": true,
             "evidence": "they pass", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("validate.py", VALIDATE)
        .args([
            "validate.py has no tests yet; write some with unittest",
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    let results = test.results(|outcome| outcome.command.is_some());
    // Told of all three, the two that never ran among them.
    for call in ["is_valid('a1')", "is_valid('a_b')", "is_valid('xyz')"] {
        assert!(
            results
                .iter()
                .any(|r| r.contains(&format!("- `{call}` returns "))),
            "{call}: {results:#?}"
        );
    }
    assert_eq!(test.read("test_validate.py"), right, "{}", run.stderr);
    assert_eq!(test.read("validate.py"), VALIDATE);
    run.assert_code(0);
}

/// A failing assert of a test of code the plan keeps as it is gets the
/// edit that makes it expect what the code returns, ready to send: told
/// "if the code is right, the test is wrong" and to write the whole test
/// file again, t6's slug-tests wrote the same wrong expectation back
/// eleven times. The value the code gave has `...` in it, which is not a
/// value cut short.
#[test]
fn a_failing_test_of_kept_code_is_given_the_edit_that_corrects_it() {
    let wrong = "from slug import truncate\n\n\ndef test_truncate():\n    assert truncate('Hello, World!', 10) == 'Hello, World!'\n";
    let old = "assert truncate('Hello, World!', 10) == 'Hello, World!'";
    let new = "assert truncate('Hello, World!', 10) == 'Hello, ...'";
    let edit_rule = serde_json::json!({"name": "the edit given",
        "has": ["so the test is what is wrong"], "last_tool": "exit code 1",
        "reply": {"tool_calls": [{"name": "edit_file",
            "arguments": {"path": "test_slug.py", "old": old, "new": new}}]}});
    let test = slug_tests(edit_rule, wrong);
    let run = test.run();
    let asked: Vec<String> = test
        .server()
        .requests()
        .iter()
        .map(crate::support::context)
        .filter(|context| context.contains("so the test is what is wrong"))
        .collect();
    let edit = serde_json::json!({"path": "test_slug.py", "old": old, "new": new});
    assert!(
        asked.iter().any(|context| context.contains(&format!(
            "Answer with exactly {{\"name\": \"edit_file\", \"arguments\": {{\"path\": \
             \"test_slug.py\", \"old\": {}, \"new\": {}}}}}",
            edit["old"], edit["new"]
        ))),
        "{asked:#?}"
    );
    assert_eq!(test.read("test_slug.py"), wrong.replace(old, new));
    assert_eq!(test.read("slug.py"), SLUG);
    run.assert_code(0);
}

/// A test of code that stays as it is, sent back with the assert that
/// failed unchanged, is written to expect what the code returned: t63's
/// timeparse-tests sent the same wrong assert back, told which line and
/// how to write it, until its rounds ran out.
#[test]
fn a_failed_assert_of_kept_code_sent_back_expects_what_the_code_did() {
    let wrong = "from slug import truncate\n\n\ndef test_truncate():\n    assert truncate('ab', 5) == 'ab'\n    assert truncate('Hello, World!', 10) == 'Hello, World!'\n";
    let same_back = serde_json::json!({"name": "sent back", "last_tool": "exit code 1",
        "reply": write_reply("test_slug.py", wrong)});
    let test = slug_tests(same_back, wrong);
    let run = test.run();
    let right = wrong.replace("== 'Hello, World!'", "== 'Hello, ...'");
    assert_eq!(test.read("test_slug.py"), right, "{}", run.stderr);
    assert_eq!(test.read("slug.py"), SLUG);
    // The model is shown the file as it is written.
    let results = test.results(|outcome| outcome.write.is_some());
    assert!(
        results
            .last()
            .is_some_and(|r| r.contains(&format!("CONTENT OF test_slug.py now:\n```\n{right}"))),
        "{results:#?}"
    );
    run.assert_code(0);
}

/// A program the goal gives an argument that never reads its command line
/// is not done, whatever its run printed: t4's countdown called
/// `countdown(5)` in its own code, its check ran it bare, the assessment's
/// `python3 countdown.py 5` printed 5 to 1, and the run said "Goal
/// achieved". The same program reading `sys.argv[1]` is (with a default,
/// for the bare check).
#[test]
fn a_program_given_an_argument_that_never_reads_it_is_not_done() {
    let fixed = "def countdown(n):\n    for i in range(n, 0, -1):\n        print(i)\n\n\nif __name__ == '__main__':\n    countdown(5)\n";
    let reading = fixed
        .replace(
            "countdown(5)",
            "countdown(int(sys.argv[1]) if len(sys.argv) > 1 else 5)",
        )
        .replace("def countdown", "import sys\n\n\ndef countdown");
    let script = |program: &str, shown: &str| -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "countdown.py", "purpose": "counts down from a number"}],
                "check": "python3 countdown.py"},
            "rules": [
                ends_when("exit code 0", true, "it passes"),
                ends_when("Wrote ", true, "written"),
                on_subtask("Write countdown.py", "write_file", serde_json::json!({"path": "countdown.py", "content": program}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "it prints the numbers from the given one down to 1", "met": true,
                 "evidence": "5 4 3 2 1", "about_tests": false, "about_output": true,
                 "command": shown, "expects": "5\n4\n3\n2\n1"}]}}],
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 countdown.py"}}]}
        }))
        .expect("script")
    };
    let goal = "Write countdown.py: given a number as its argument, it prints the numbers from \
                there down to 1, one per line";
    let run_with = |goal: &str, program: &str, shown: &str| {
        let test = Test::new()
            .serving(script(program, shown))
            .args([goal, "--max-cycles", "0"]);
        let run = test.run();
        (test, run)
    };
    let unread = |run: &crate::support::Run| {
        run.assert_code(1);
        assert!(
            run.stderr
                .contains("countdown.py reads the arguments it is run with"),
            "{}",
            run.stderr
        );
    };
    let (test, run) = run_with(goal, fixed, "python3 countdown.py 5");
    unread(&run);
    assert_eq!(test.read("countdown.py"), fixed);
    let (_, run) = run_with(goal, &reading, "python3 countdown.py 5");
    run.assert_code(0);
    // The same, in words that name no argument, shown by a bare run (t26's
    // times-table, "the number it is given", said "Goal achieved" of the
    // squares its own loop chose).
    let handed = "Write countdown.py, which prints the numbers from the number it is given down \
                  to 1, one per line";
    let (_, run) = run_with(handed, fixed, "python3 countdown.py");
    unread(&run);
}

/// A run with no arguments shows nothing of what a program does with the
/// arguments the goal gives it: t65's welcome-many printed `argv[0]`, its
/// requirement was met by `python3 welcome.py` printing "Welcome,
/// welcome.py!", and the run said "Goal achieved". Shown by a run with
/// names, the right program is done, though its bare check printed
/// nothing (t67's right welcome.py was held to print something every time
/// it runs by that check, three assessments in a row).
#[test]
fn a_bare_run_does_not_show_what_a_program_does_with_its_arguments() {
    let welcome = "import sys\n\n\ndef main(argv):\n    print(f\"Welcome, {argv[1]}!\")\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    let own_name = welcome.replace("argv[1]", "argv[0]");
    let every = welcome.replace(
        "    print(f\"Welcome, {argv[1]}!\")",
        "    for name in argv[1:]:\n        print(f\"Welcome, {name}!\")",
    );
    let script = |program: &str,
                  shown: &str,
                  expects: &str|
     -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "welcome.py", "purpose": "welcomes every name given"}],
                "check": "python3 welcome.py"},
            "rules": [
                ends_when("exit code 0", true, "it passes"),
                ends_when("Wrote ", true, "written"),
                on_subtask("welcome.py", "write_file", serde_json::json!({"path": "welcome.py", "content": program}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "it welcomes every name given on the command line, each on its own line",
                 "met": true, "evidence": "it does", "about_tests": false, "about_output": true,
                 "command": shown, "expects": expects}]}}],
            // What the program prints every time it runs, read from the
            // goal's words: the welcome of a name (t67's).
            "goal_text": {"always_prints": "Welcome, <name>!",
                "shown_text": "The program should now welcome every name given on the command line, each on its own line.",
                "every_time": "print('Welcome, ' + ' '.join(sys.argv))"},
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 welcome.py"}}]}
        }))
        .expect("script")
    };
    let goal = "welcome.py welcomes one person. Change it so that it welcomes every name given \
                on the command line, each on its own line";
    let run_with = |program: &str, shown: &str, expects: &str| {
        let test = Test::new()
            .serving(script(program, shown, expects))
            .file("welcome.py", welcome)
            .args([goal, "--max-cycles", "0"]);
        let run = test.run();
        (test, run)
    };
    let (test, run) = run_with(&own_name, "python3 welcome.py", "Welcome, welcome.py!");
    run.assert_code(1);
    assert!(
        run.stderr
            .contains("`python3 welcome.py` gives welcome.py no arguments"),
        "{}",
        run.stderr
    );
    assert_eq!(test.read("welcome.py"), own_name);
    let (_, run) = run_with(
        &every,
        "python3 welcome.py Ann Bob",
        "Welcome, Ann!\nWelcome, Bob!",
    );
    run.assert_code(0);
}

/// A cycle's write that breaks what the last assessment found met is told
/// so in its result, with the run that showed it: t5's countdown met the
/// goal, and a cycle for a requirement the goal does not give ("handle a
/// floating-point argument", now set aside: see the scenario after this)
/// made it print each number twice.
#[test]
fn a_write_that_breaks_a_requirement_found_met_is_told_so() {
    let right = "import sys\n\n\ndef countdown(n):\n    for i in range(n, 0, -1):\n        print(i)\n\n\nif __name__ == '__main__':\n    countdown(int(sys.argv[1]))\n";
    let twice = right.replace("        print(i)\n", "        print(i)\n        print(i)\n");
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "countdown.py", "purpose": "counts down from a number"}],
            "check": "python3 countdown.py 3"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            ends_when("Edited ", true, "edited"),
            on_subtask("Make this true", "write_file", serde_json::json!({"path": "countdown.py", "content": twice})),
            on_subtask("Write countdown.py", "write_file", serde_json::json!({"path": "countdown.py", "content": right}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints the numbers from the given one down to 1", "met": true,
             "evidence": "3 2 1", "about_tests": false, "about_output": true,
             "command": "python3 countdown.py 3", "expects": "3\n2\n1"},
            {"requirement": "it says \"Liftoff!\" after the last number", "met": false,
             "evidence": "not printed", "about_tests": false, "about_output": false,
             "command": "", "expects": ""}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 countdown.py 3"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write countdown.py: given a number as its argument, it prints the numbers from there \
         down to 1, one per line",
        "--max-cycles",
        "1",
    ]);
    let run = test.run();
    let writes = test.results(|outcome| outcome.write.is_some());
    assert!(
        writes.iter().any(|r| r.contains(
            "the last assessment found \"it prints the numbers from the given one down to 1\" \
             met by it printing \"3\\n2\\n1\""
        )),
        "{writes:#?}"
    );
    // The write that made it right was not told so: nothing was met yet.
    assert!(
        !writes[0].contains("the last assessment found"),
        "{writes:#?}"
    );
    run.assert_code(1);
}

/// A requirement about a case the goal's words do not name (t5's countdown:
/// "handle the case where the argument is a floating-point number", unmet
/// by the assessment's own run of `python3 countdown.py 3.14`) is no
/// requirement: the program that met the goal is done, with no cycle, and
/// the assessment shows why the case was set aside. The same answer for a
/// goal that names a case (an error for what is not a number) keeps it,
/// and the run is not done.
#[test]
fn a_case_the_goal_does_not_name_is_not_required() {
    let right = "import sys\n\n\ndef countdown(n):\n    for i in range(n, 0, -1):\n        print(i)\n\n\nif __name__ == '__main__':\n    countdown(int(sys.argv[1]))\n";
    let run_with = |goal: &str| {
        let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "countdown.py", "purpose": "counts down from a number"}],
                "check": "python3 countdown.py 3"},
            "rules": [
                ends_when("exit code 0", true, "it passes"),
                ends_when("Wrote ", true, "written"),
                on_subtask("Write countdown.py", "write_file", serde_json::json!({"path": "countdown.py", "content": right}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "it prints the numbers from the given one down to 1", "met": true,
                 "evidence": "3 2 1", "about_tests": false, "about_output": true,
                 "command": "python3 countdown.py 3", "expects": "3\n2\n1"},
                {"requirement": "The program should handle the case where the argument is a \
                    floating-point number.", "met": false,
                 "evidence": "`python3 countdown.py 3.14` failed", "about_tests": false,
                 "about_output": true, "command": "python3 countdown.py 3.14", "expects": "3"}]}}],
            "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": false, "reason": "cannot"}}]}
        }))
        .expect("script");
        let test = Test::new()
            .serving(script)
            .args([goal, "--max-cycles", "1"]);
        let run = test.run();
        (test, run)
    };
    let (test, run) = run_with(
        "Write countdown.py: given a number as its argument, it prints the numbers from there \
         down to 1, one per line",
    );
    run.assert_code(0);
    assert!(cycles(&test).is_empty(), "{:?}", cycles(&test));
    let last = assessments(&test).pop().expect("assessed");
    let float = naming(&last, "floating-point");
    assert!(float.met, "{float:?}");
    assert!(
        float.evidence.contains("the goal's words name no case"),
        "{float:?}"
    );
    assert_eq!(test.read("countdown.py"), right);
    let (_, run) = run_with(
        "Write countdown.py: given a number as its argument, it prints the numbers from there \
         down to 1, one per line, or an error when it is not a whole number",
    );
    run.assert_code(1);
}

/// An assessment answer that cannot be used is asked for again, warmer:
/// at the same temperature, o3's add-function gave the same answer, cut
/// off in the same string, both times, and a right run ended "not
/// achieved". The second answer is used.
#[test]
fn an_unusable_assessment_is_asked_again_warmer() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "prints hello"}],
            "check": "python3 greet.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            on_subtask("greet.py", "write_file",
                serde_json::json!({"path": "greet.py", "content": "print('hello')\n"}))
        ],
        "assessments": [
            {"has": ["cannot be used"], "answer": {"requirements": [
                {"requirement": "greet.py prints hello", "met": true,
                 "evidence": "it printed hello", "about_tests": false, "about_output": true,
                 "command": "python3 greet.py", "expects": "hello"}]}},
            {"has": [], "answer": "{\"requirements\": [{\"requirement\": \"greet.py pri"}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py"}}]}
    }))
    .expect("script");
    let test =
        Test::new()
            .serving(script)
            .args(["Write greet.py that prints hello", "--max-cycles", "0"]);
    let run = test.run();
    run.assert_code(0);
    let temperatures: Vec<f64> = test
        .server()
        .requests()
        .iter()
        .filter(|r| r["format"]["properties"].get("requirements").is_some())
        .filter_map(|r| r["options"]["temperature"].as_f64())
        .collect();
    assert_eq!(temperatures.len(), 2, "{}", run.stderr);
    assert!(temperatures[1] > temperatures[0], "{temperatures:?}");
}

/// Tests in a folder of their own (`tests/test_inventory.py`) are the file
/// a cycle about them changes: o1's add-tests wrote there, its cycle
/// ("give each of its 3 functions a test of its own") named no file, the
/// model wrote the file as it was and marked the subtask done, and the run
/// ended not achieved. Now the cycle changes that file, and a claim after
/// a write that changed nothing is refused.
#[test]
fn tests_in_a_folder_are_the_file_their_cycle_changes() {
    let inventory = "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def add(self, name, count=1):\n        self.items[name] = self.items.get(name, 0) + count\n\n    def remove(self, name):\n        del self.items[name]\n\n    def count(self, name):\n        return self.items.get(name, 0)\n";
    let one = "from inventory import Inventory\n\n\ndef test_inventory():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    inventory.remove(\"pen\")\n    assert inventory.count(\"pen\") == 0\n";
    let split = "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.count(\"pen\") == 2\n\n\ndef test_remove():\n    inventory = Inventory()\n    inventory.add(\"pen\")\n    inventory.remove(\"pen\")\n    assert inventory.count(\"pen\") == 0\n";
    let path = "tests/test_inventory.py";
    let write = |content: &str| serde_json::json!({"path": path, "content": content});
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": path, "purpose": "pytest tests for the Inventory class"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            {"name": "told", "last_tool": "not accepted: the check of the work found",
             "reply": {"tool_calls": [{"name": "write_file", "arguments": write(split)}]}},
            ends_when("nothing changed", true, "written"),
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            on_subtask(&format!("Change {path}"), "write_file", write(one)),
            on_subtask(&format!("Write {path}"), "write_file", write(one))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for the Inventory class", "met": true,
             "evidence": "the tests pass", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = add_tests_of(script, inventory, "1");
    let run = test.run();
    let cycle = &tasks(&test, true)[0];
    assert_eq!(
        cycle.kinds[0],
        SubtaskKind::Write { path: path.into() },
        "{cycle:?}"
    );
    let refused = refusals(&test, runner::state::RefusalKind::NothingChanged).len();
    assert_eq!(refused, 1, "{}", run.stderr);
    assert_eq!(test.read(path), split);
    assert_eq!(test.read("inventory.py"), inventory);
    run.assert_code(0);
    test.assert_replay_matches();
}

/// The tests a goal asks for go in a file of their own: a model that put
/// them in the module (here, a docstring in inventory.py) gets a cycle
/// that writes `test_inventory.py` and runs pytest, and there the tests
/// are written and pass (a fizzbuzz run's cycle, told to "add pytest
/// tests" and checked by `python3 fizzbuzz.py`, wrote fizzbuzz.py twice
/// and never a test).
#[test]
fn missing_tests_get_a_cycle_that_writes_their_file_and_runs_them() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "inventory.py", "purpose": "Add pytest tests for the Inventory class"}],
            "check": "python3 inventory.py"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("exit code 5", false, "no tests ran"),
            ends_when("Wrote ", true, "written"),
            ends_when("Edited inventory.py", true, "edited"),
            on_subtask("Write test_inventory.py: Make this true", "write_file", serde_json::json!({"path": "test_inventory.py",
                "content": "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.items == {\"pen\": 2}\n"})),
            on_subtask("Write test_inventory.py", "edit_file", serde_json::json!({"path": "inventory.py",
                "old": "class Inventory:", "new": "class Inventory:\n    \"\"\"Items in stock.\"\"\""})),
            on_subtask("python3 -m pytest -q", "run_cmd", serde_json::json!({"cmd": "python3 -m pytest -q"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "Inventory has add", "met": true,
             "evidence": "def add(self, name, count=1):", "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 inventory.py"}}]}
    }))
    .expect("script");
    let test = add_tests(script, "1");
    let run = test.run();
    run.assert_code(0);
    let cycle = tasks(&test, true);
    assert_eq!(cycle.len(), 1, "{}", run.stderr);
    let cycle_task = &cycle[0];
    assert_eq!(
        cycle_task.kinds[0],
        SubtaskKind::Write {
            path: "test_inventory.py".into()
        },
        "{cycle_task:?}"
    );
    assert!(test.read("test_inventory.py").contains("def test_add"));
    let state = test.assert_replay_matches();
    let tests = state
        .requirements
        .iter()
        .find(|r| r.about_tests)
        .expect("a requirement about tests");
    assert!(tests.met, "{tests:?}");
}

/// A run of "Create a mathx package with add and mul functions and pytest
/// tests" with no cycle, planned as `tasks`: `first` rules, then those that
/// run the check, end a subtask after a write or a passing run and write
/// `mathx/add.py` and `mathx/mul.py`, then `last`; an assessment that finds
/// it all met, and anything else marked done.
fn mathx_run(
    tasks: serde_json::Value,
    first: Vec<serde_json::Value>,
    last: Vec<serde_json::Value>,
) -> Test {
    let common = [
        on_subtask(
            "Run `python3 -m pytest -q`",
            "run_cmd",
            serde_json::json!({"cmd": "python3 -m pytest -q"}),
        ),
        ends_when("Wrote ", true, "written"),
        ends_when("exit code 0", true, "passed"),
        on_subtask(
            "Write mathx/add.py",
            "write_file",
            serde_json::json!({"path": "mathx/add.py",
            "content": "def add(a, b):\n    return a + b\n"}),
        ),
        on_subtask(
            "Write mathx/mul.py",
            "write_file",
            serde_json::json!({"path": "mathx/mul.py",
            "content": "def mul(a, b):\n    return a * b\n"}),
        ),
    ];
    let rules: Vec<serde_json::Value> = first.into_iter().chain(common).chain(last).collect();
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": tasks, "check": "python3 -m pytest -q"},
        "rules": rules,
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "mathx/add.py and mathx/mul.py exist", "met": true, "evidence": "they do", "about_tests": false},
            {"requirement": "the tests pass", "met": true, "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": true, "reason": "done"}}]}
    }))
    .expect("script");
    Test::new().serving(script).args([
        "Create a mathx package with add and mul functions and pytest tests",
        "--max-cycles",
        "0",
    ])
}

/// A "mathx package with add and mul functions" written as `mathx/add.py`
/// and `mathx/mul.py` with no `__init__.py`, tests that import
/// `mathx.mul` and pass, and an assessment that finds it all met (a
/// package run at bb52142 ended "Goal achieved" so, while `from mathx
/// import add` gave the module): a package the goal names must give its
/// modules' functions, so the run is not achieved.
#[test]
fn a_package_whose_functions_are_modules_is_not_taken_as_met() {
    let test = mathx_run(
        serde_json::json!([
            {"path": "mathx/add.py", "purpose": "add"},
            {"path": "mathx/mul.py", "purpose": "mul"},
            {"path": "mathx/test_mul.py", "purpose": "tests"}]),
        vec![],
        vec![on_subtask(
            "Write mathx/test_mul.py",
            "write_file",
            serde_json::json!({"path": "mathx/test_mul.py",
            "content": "from mathx.mul import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"}),
        )],
    );
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let exported = state
        .requirements
        .iter()
        .find(|r| r.requirement.starts_with("mathx/__init__.py imports add"))
        .expect("the package's add as a requirement");
    assert!(!exported.met, "{exported:?}");
    assert_eq!(exported.file.as_deref(), Some("mathx/__init__.py"));
    assert!(
        test.read("mathx/add.py").contains("def add"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
}

/// A package's `__init__.py` marked written while it does not import its
/// modules' functions is refused once, with the lines that do: n1's
/// package wrote it empty, as its plan said, and `from mathx import add`
/// gave the module. Told the lines, the model writes them, and the run
/// is achieved.
#[test]
fn an_init_that_does_not_give_the_packages_functions_is_not_done_at_the_first_claim() {
    let bound = "from .add import add\nfrom .mul import mul\n";
    let test = mathx_run(
        serde_json::json!([
            {"path": "mathx/add.py", "purpose": "add"},
            {"path": "mathx/mul.py", "purpose": "mul"},
            {"path": "mathx/__init__.py", "purpose": "an empty file that marks the package"},
            {"path": "test_mathx.py", "purpose": "tests"}]),
        vec![
            serde_json::json!({"name": "told", "last_tool": "not accepted yet: mathx/__init__.py",
             "reply": write_reply("mathx/__init__.py", bound)}),
        ],
        vec![
            on_subtask(
                "Write mathx/__init__.py",
                "write_file",
                serde_json::json!({"path": "mathx/__init__.py",
                "content": ""}),
            ),
            on_subtask(
                "Write test_mathx.py",
                "write_file",
                serde_json::json!({"path": "test_mathx.py",
                "content": "from mathx import add, mul\n\n\ndef test_both():\n    assert add(2, 3) == 5\n    assert mul(2, 3) == 6\n"}),
            ),
        ],
    );
    let run = test.run();
    let refused = refusals(&test, runner::state::RefusalKind::Unexported);
    assert_eq!(
        refused,
        [
            "not accepted yet: mathx/__init__.py does not import add from mathx/add.py, so `from \
          mathx import add` gives the module, not add. Put these lines in mathx/__init__.py:\n\
          from .add import add\nfrom .mul import mul\nthen mark the subtask complete. If \
          mathx/__init__.py must not import them, mark the subtask complete again."
        ],
        "{}",
        run.stderr
    );
    assert_eq!(test.read("mathx/__init__.py"), bound);
    run.assert_code(0);
    test.assert_replay_matches();
}

/// An edit of the file the active subtask writes, while the file is not
/// there, becomes its write: n1's fizzbuzz edited the start of a test file
/// it was told to begin with into the whole right file, was told "no such
/// file" and never wrote it. In a folder not made yet too: o1's add-tests
/// edited `tests/test_inventory.py` before `tests/` was there.
#[test]
fn an_edit_of_the_file_a_subtask_writes_before_it_exists_writes_it() {
    let tests = "from add import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    for path in ["test_add.py", "tests/test_add.py"] {
        edit_before_it_exists(path, tests);
    }
    // Such a write is reviewed as any other: t1's slug-tests made its test
    // file one assert so, which pytest ran at import and found no test in.
    edit_before_it_exists("tests/test_add.py", "assert add(2, 3) == 5");
}

/// The run of an edit of `path`, while it is not there, whose new text is
/// `new`: written as the tests of `add`.
fn edit_before_it_exists(path: &str, new: &str) {
    let tests = "from add import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [
            {"path": "add.py", "purpose": "add"},
            {"path": path, "purpose": "tests"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            on_subtask("Run `python3 -m pytest -q`", "run_cmd", serde_json::json!({"cmd": "python3 -m pytest -q"})),
            ends_when("Wrote ", true, "written"),
            on_subtask(&format!("Write {path}"), "edit_file", serde_json::json!({"path": path,
                "old": "from add import add\n\n\ndef test_add():\n    assert add(ARGUMENTS) == EXPECTED",
                "new": new})),
            on_subtask("Write add.py", "write_file", serde_json::json!({"path": "add.py",
                "content": "def add(a, b):\n    return a + b\n"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "add returns the sum", "met": true, "evidence": "def add(a, b)", "about_tests": false},
            {"requirement": "the tests pass", "met": true, "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": true, "reason": "done"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write add.py with a function add(a, b) and pytest tests",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    assert_eq!(test.read(path), tests, "{path}: {}", run.stderr);
    let tools: Vec<String> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ActionStarted { tool, summary, .. } if summary.contains(path) => Some(tool),
            _ => None,
        })
        .collect();
    assert_eq!(tools, ["write_file"], "{path}: {}", run.stderr);
    run.assert_code(0);
    test.assert_replay_matches();
}

/// A completion written as a sentence that begins with the call's words
/// and says `success` is the call: n1's word-count wrote "Mark subtask
/// complete with success=false and the reason ..." four rounds in a row,
/// and the run stopped for want of a call.
#[test]
fn a_completion_written_as_a_sentence_is_the_call() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "add.py", "purpose": "add"}], "check": "python3 add.py"},
        "rules": [
            on_subtask("Run `python3 add.py`", "run_cmd", serde_json::json!({"cmd": "python3 add.py"})),
            {"name": "said", "last_tool": "Wrote ", "reply": {"content":
                "Mark subtask complete with success=true and the reason \"wrote add.py\""}},
            on_subtask("Write add.py", "write_file", serde_json::json!({"path": "add.py",
                "content": "def add(a, b):\n    return a + b\n\n\nprint(add(2, 3))\n"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "add.py prints 5", "met": true, "evidence": "5", "about_tests": false}]}}],
        "otherwise": {"content": "nothing"}
    }))
    .expect("script");
    let test =
        Test::new()
            .serving(script)
            .args(["Write add.py that prints 2 + 3", "--max-cycles", "0"]);
    let run = test.run();
    let ended: Vec<(Option<usize>, String)> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::SubtaskEnded { call, reason, .. } => Some((call, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        ended.first(),
        Some(&(Some(0), "wrote add.py".to_string())),
        "{}",
        run.stderr
    );
    assert_eq!(ended.len(), 2, "{}", run.stderr);
    test.assert_replay_matches();
}

/// A requirement the assessment shows with the program given inline
/// (`python3 -c`, which the model's own commands may not give) is run all
/// the same and judged by what it printed: x1's package run (`--api
/// openai`) had `from .add import *` in `mathx/__init__.py` and 8 tests
/// passing, and "the mathx package should have an add function" stayed
/// unmet for 20 rounds, its command refused as the model's.
#[test]
fn a_requirement_shown_by_an_inline_program_is_run_to_see_the_work() {
    let script = |command: &str| -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [
                {"path": "mathx/add.py", "purpose": "add"},
                {"path": "mathx/__init__.py", "purpose": "the package"},
                {"path": "test_mathx.py", "purpose": "tests"}],
                "check": "python3 -m pytest -q"},
            "rules": [
                on_subtask("Run `python3 -m pytest -q`", "run_cmd", serde_json::json!({"cmd": "python3 -m pytest -q"})),
                ends_when("Wrote ", true, "written"),
                ends_when("exit code 0", true, "passed"),
                on_subtask("Write mathx/add.py", "write_file", serde_json::json!({"path": "mathx/add.py",
                    "content": "def add(a, b):\n    return a + b\n"})),
                on_subtask("Write mathx/__init__.py", "write_file", serde_json::json!({"path": "mathx/__init__.py",
                    "content": "from .add import *\n"})),
                on_subtask("Write test_mathx.py", "write_file", serde_json::json!({"path": "test_mathx.py",
                    "content": "from mathx import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "The mathx package should have an add function.", "met": true,
                 "evidence": "mathx/__init__.py imports it", "about_tests": false, "about_output": false,
                 "command": command, "expects": "3"},
                {"requirement": "the tests pass", "met": true, "evidence": "1 passed", "about_tests": true}]}}],
            "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "done"}}]}
        }))
        .expect("script")
    };
    let test = |command: &str| {
        Test::new().serving(script(command)).args([
            "Create a mathx package with an add function and pytest tests",
            "--max-cycles",
            "0",
        ])
    };
    let shown = |state: &runner::state::State| {
        state
            .requirements
            .iter()
            .find(|r| {
                r.requirement
                    .starts_with("The mathx package should have an add")
            })
            .cloned()
            .expect("the requirement")
    };
    let right = test("python3 -c 'from mathx import add; print(add(1, 2))'");
    let run = right.run();
    run.assert_code(0);
    let requirement = shown(&right.assert_replay_matches());
    assert!(requirement.met, "{requirement:?}");

    // It ran: a program that fails holds the requirement unmet.
    let wrong = test("python3 -c 'from mathx import mul; print(mul(1, 3))'");
    wrong.run().assert_code(1);
    let requirement = shown(&wrong.assert_replay_matches());
    assert!(
        !requirement.met && requirement.evidence.ends_with("failed (exit code 1)"),
        "{requirement:?}"
    );
}

/// A requirement the assessment shows by running a test file by its path
/// is held to the tests, like one shown by the test runner: t11's textkit
/// assessment expected pytest's "2 passed in 0.03s" from `python3
/// textkit/test_textkit.py`, which prints nothing, and a cycle was to make
/// the test file print it.
#[test]
fn a_requirement_shown_by_running_a_test_file_is_held_to_the_tests() {
    let on_subtask = |subtask: &str, tool: &str, arguments: serde_json::Value| {
        serde_json::json!({"subtask": subtask, "reply": {"tool_calls": [{"name": tool,
            "arguments": arguments}]}})
    };
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [
            {"path": "mathx.py", "purpose": "add"},
            {"path": "test_mathx.py", "purpose": "tests"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            on_subtask("Run `python3 -m pytest -q`", "run_cmd",
                serde_json::json!({"cmd": "python3 -m pytest -q"})),
            {"last_tool": "Wrote ", "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "written"}}]}},
            on_subtask("Write mathx.py", "write_file", serde_json::json!({"path": "mathx.py",
                "content": "def add(a, b):\n    return a + b\n"})),
            on_subtask("Write test_mathx.py", "write_file", serde_json::json!({"path":
                "test_mathx.py", "content":
                "from mathx import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "The test file runs the add function", "met": true,
             "evidence": "it ran", "about_tests": false, "about_output": true,
             "command": "python3 test_mathx.py", "expects": "1 passed in 0.01s"}]}}],
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": true, "reason": "done"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write mathx.py with add(a, b) and pytest tests for it",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    let state = test.assert_replay_matches();
    let requirement = &state.requirements[0];
    assert!(
        requirement.about_tests && requirement.shown_by.is_none() && requirement.met,
        "{requirement:?}\n{}",
        run.stderr
    );
    run.assert_code(0);
}

/// A cycle's change of a file, marked done with nothing changed, is
/// refused once: what it asks for was found missing in the files as they
/// are (a cli-flag run's cycle, "Make this true: ... an optional --shout
/// flag", ran `python3 greet.py --shout`, saw "Hello, --shout!" and called
/// it done, twice). The cycle names the file: the goal's `greet.py`.
#[test]
fn a_change_of_a_project_file_that_changes_nothing_is_not_taken_as_done() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "take an optional --shout flag"}],
            "check": "python3 greet.py"},
        "rules": [
            ends_when("Edited greet.py", true, "edited"),
            {"name": "told", "last_tool": "no file has changed since this subtask began",
             "reply": {"tool_calls": [{"name": "edit_file", "arguments": {"path": "greet.py",
                "old": "print(\"Hello\")", "new": "print(\"HELLO\" if \"--shout\" in sys.argv else \"Hello\")"}}]}},
            ends_when("exit code 0", true, "it runs"),
            on_subtask("Make this true", "run_cmd", serde_json::json!({"cmd": "python3 greet.py --shout"}))
        ],
        "assessments": [
            {"has": ["in sys.argv"], "answer": {"requirements": [
                {"requirement": "--shout prints the greeting in capitals", "met": true,
                 "evidence": "\"--shout\" in sys.argv", "about_tests": false,
                 "about_output": true, "command": "python3 greet.py --shout", "expects": "HELLO"}]}},
            {"has": [], "answer": {"requirements": [
                {"requirement": "--shout prints the greeting in capitals", "met": false,
                 "evidence": "greet.py reads no option", "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("greet.py", "import sys\n\nprint(\"Hello\")\n")
        .args([
            "Change the script so that it takes an optional --shout flag that prints the greeting in capitals: greet.py",
            "--max-cycles",
            "1",
        ]);
    let run = test.run();
    run.assert_code(0);
    // The plan's change of greet.py, claimed done after a run of the file
    // as it was, was refused once; the edit came in it, and no cycle was
    // needed.
    let plan = tasks(&test, false);
    assert_eq!(
        plan[0].kinds[0],
        SubtaskKind::Write {
            path: "greet.py".into()
        },
        "{plan:?}"
    );
    assert!(tasks(&test, true).is_empty(), "{}", run.stderr);
    let refused = refusals(&test, runner::state::RefusalKind::NothingChanged).len();
    assert_eq!(refused, 1, "{}", run.stderr);
    assert!(test.read("greet.py").contains("HELLO"));
}

/// Under a check subtask, the tests the run wrote keep their asserts: a
/// fizzbuzz run whose tests failed on a `fizzbuzz` that printed instead of
/// returning made them one `assert fizzbuzz(1) == None`, and pytest
/// passed. Refused, the model changes the code.
#[test]
fn a_check_is_made_to_pass_by_the_code_not_by_weakening_the_runs_tests() {
    let printing = "def fizzbuzz(n):\n    print('Fizz' if n % 3 == 0 else str(n))\n";
    let returning = "def fizzbuzz(n):\n    return 'Fizz' if n % 3 == 0 else str(n)\n";
    let tests = "from fizzbuzz import fizzbuzz\n\n\ndef test_fizz():\n    assert fizzbuzz(3) == 'Fizz'\n    assert fizzbuzz(1) == '1'\n";
    let weakened =
        "from fizzbuzz import fizzbuzz\n\n\ndef test_fizz():\n    assert fizzbuzz(1) == None\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [
            {"path": "fizzbuzz.py", "purpose": "fizzbuzz(n)"},
            {"path": "test_fizzbuzz.py", "purpose": "its tests"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            {"name": "refused", "last_tool": "not written", "reply": write_reply("fizzbuzz.py", returning)},
            {"name": "weaken", "last_tool": "exit code 1", "reply": write_reply("test_fizzbuzz.py", weakened)},
            {"name": "code", "subtask": "Write fizzbuzz.py", "reply": write_reply("fizzbuzz.py", printing)},
            {"name": "tests", "subtask": "Write test_fizzbuzz.py", "reply": write_reply("test_fizzbuzz.py", tests)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "fizzbuzz returns Fizz for multiples of 3", "met": true,
             "evidence": "test_fizz passed", "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write fizzbuzz.py with a function fizzbuzz(n) and pytest tests for it",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    run.assert_code(0);
    assert_eq!(test.read("test_fizzbuzz.py"), tests, "{}", run.stderr);
    assert_eq!(test.read("fizzbuzz.py"), returning);
    // Its one changed assert put in, the other kept (see
    // `a_correction_that_drops_most_asserts_is_put_in_alone`), the write
    // asserts that a function giving no value gives none, and the
    // language's review refuses it.
    let refused: Vec<String> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CallRejected { error, .. } => Some(error),
            _ => None,
        })
        .collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0]
            .contains("asserts `fizzbuzz(1) == None`, but fizzbuzz in fizzbuzz.py gives no value"),
        "{refused:?}"
    );
}

/// A mul.py run whose model writes `tests`, then, on each failed run of
/// them, `again` over them; its code is right.
fn mul_tests_written_again(tests: &str, again: &str) -> (Test, crate::support::Run) {
    let code = "def mul(a, b):\n    return a * b\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [
            {"path": "mul.py", "purpose": "mul(a, b)"},
            {"path": "test_mul.py", "purpose": "its tests"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Wrote ", true, "written"),
            {"name": "again", "last_tool": "exit code 1", "reply": write_reply("test_mul.py", again)},
            {"name": "code", "subtask": "Write mul.py", "reply": write_reply("mul.py", code)},
            {"name": "tests", "subtask": "Write test_mul.py", "reply": write_reply("test_mul.py", tests)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "mul multiplies", "met": true,
             "evidence": "test_mul passed", "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write mul.py with a function mul(a, b) and pytest tests for it",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    test.assert_replay_matches();
    (test, run)
}

/// The tests the run wrote may lose a wrong assert while most of them
/// stay: a package run's `assert mul() == 0` failed on a call with no
/// arguments, and the write that dropped it was refused until the model
/// gave up.
#[test]
fn a_wrong_assert_of_the_runs_tests_may_go_while_most_stay() {
    let tests = "from mul import mul\n\n\ndef test_mul():\n    assert mul() == 0\n    assert mul(1, 2) == 2\n";
    let fixed = "from mul import mul\n\n\ndef test_mul():\n    assert mul(1, 2) == 2\n";
    let (test, run) = mul_tests_written_again(tests, fixed);
    run.assert_code(0);
    assert_eq!(test.read("test_mul.py"), fixed, "{}", run.stderr);
}

/// A write of the run's own tests that corrects a failing assert and
/// leaves out most of the others is that correction alone, the others
/// kept: t34's rps corrected one assert of nine, dropped five, and sent
/// that write again, refused, until the round cap.
#[test]
fn a_correction_that_drops_most_asserts_is_put_in_alone() {
    let tests = "from mul import mul\n\n\ndef test_mul():\n    assert mul(1, 2) == 2\n    \
                 assert mul(2, 3) == 5\n    assert mul(2, 2) == 4\n    assert mul(0, 5) == 0\n    \
                 print('All tests passed!')\n";
    // The test function given again, not its asserts alone: a line of its
    // own beside them.
    let cut = "from mul import mul\n\n\ndef test_mul():\n    assert mul(1, 2) == 2\n    \
               assert mul(2, 3) == 6\n    print('All tests passed!')\n";
    let (test, run) = mul_tests_written_again(tests, cut);
    run.assert_code(0);
    assert_eq!(
        test.read("test_mul.py"),
        tests.replace("== 5", "== 6"),
        "{}",
        run.stderr
    );
}

/// A word-count plan whose check is `check`, a model that writes a
/// counter of the words of its argument and `content` into `input`, the
/// sample it runs on as `ran`, and an assessment that finds it met.
fn counts_a_sample(check: &str, input: &str, content: &str, ran: &str) -> Test {
    let counter = "import sys\n\nwith open(sys.argv[1]) as f:\n    print(len(f.read().split()))\n";
    let words = content.split_whitespace().count().to_string();
    word_count(serde_json::json!({
        "plan": {"tasks": [{"path": "word_count.py", "purpose": "count the words of a file"}],
            "check": check},
        "rules": [
            ends_when("exit code 0", true, "it counts"),
            ends_when("Wrote ", true, "written"),
            {"name": "code", "subtask": "Write word_count.py", "reply": write_reply("word_count.py", counter)},
            {"name": "input", "subtask": format!("Write {input}"), "reply": write_reply(input, content)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints the number of words of the file", "met": true,
             "evidence": words, "about_tests": false, "about_output": true, "command": ran,
             "expects": words}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": ran}}]}
    }))
}

/// A program that counts the words of a file named in its own code, whose
/// check runs it bare and whose assessment shows it met by a run with a
/// file of the workspace as its argument, is not achieved: y2's word-count
/// (`count_words('example.txt')`) ended "Goal achieved", exit 0, for a
/// script that ignores the file it is given.
#[test]
fn a_requirement_shown_by_a_file_the_program_never_reads_is_not_met() {
    let fixed = "def count_words(filename):\n    with open(filename) as file:\n        return len(file.read().split())\n\n\nif __name__ == '__main__':\n    print(count_words('example.txt'))\n";
    let test = word_count(serde_json::json!({
        "plan": {"tasks": [{"path": "word_count.py", "purpose": "count the words of a file"},
                           {"path": "example.txt", "purpose": "a sample"}],
            "check": "python3 word_count.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            {"name": "code", "subtask": "Write word_count.py", "reply": write_reply("word_count.py", fixed)},
            {"name": "sample", "subtask": "Write example.txt", "reply": write_reply("example.txt", "one two three\n")}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints the number of words in the file given as its argument",
             "met": true, "evidence": "3", "about_tests": false, "about_output": true,
             "command": "python3 word_count.py example.txt", "expects": "3"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 word_count.py"}}]}
    }));
    let run = test.run();
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let added = naming(
        &state.requirements,
        "word_count.py reads the arguments it is run with",
    );
    assert!(!added.met, "{added:?}");
    assert!(
        added
            .evidence
            .starts_with("`python3 word_count.py example.txt` passes arguments to word_count.py"),
        "{added:?}"
    );
}

/// A check that reads an input file nothing holds gets the write of a
/// sample of it first: a word-count run planned `python3 word_count.py
/// test_file.txt` with no test_file.txt, and its check ended in a
/// FileNotFoundError it never got past.
#[test]
fn an_input_the_check_reads_is_written_before_it_runs() {
    let check = "python3 word_count.py test_file.txt";
    let test = counts_a_sample(check, "test_file.txt", "one two three\n", check);
    let run = test.run();
    let plan = tasks(&test, false);
    assert_eq!(
        plan[0].kinds[1],
        SubtaskKind::Write {
            path: "test_file.txt".into()
        },
        "{plan:?}"
    );
    assert_eq!(test.read("test_file.txt"), "one two three\n");
    assert!(
        run.stderr
            .contains("`python3 word_count.py test_file.txt` passed"),
        "{}",
        run.stderr
    );
}

/// A cycle's run of the program on an input file nobody wrote, whose
/// output must hold what the assessment said, gets the write of that input
/// first, as a plan's check does: p2's word-count cycle was to make
/// `python3 word_count.py input.txt` print 5, with no input.txt anywhere.
#[test]
fn an_input_a_cycle_runs_the_program_on_is_written_first() {
    let counter = "import sys\n\nwith open(sys.argv[1]) as f:\n    print(len(f.read().split()))\n";
    let shown = "python3 word_count.py input.txt";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "word_count.py", "purpose": "count the words of a file"}],
            "check": "python3 word_count.py sample.txt"},
        "rules": [
            ends_when("exit code 0", true, "it counts"),
            ends_when("Wrote ", true, "written"),
            {"name": "code", "subtask": "Write word_count.py", "reply": write_reply("word_count.py", counter)},
            {"name": "sample", "subtask": "Write sample.txt", "reply": write_reply("sample.txt", "one two\n")},
            {"name": "input", "subtask": "Write input.txt", "reply": write_reply("input.txt", "a b c d e\n")},
            on_subtask("Run `python3 word_count.py sample.txt`", "run_cmd",
                serde_json::json!({"cmd": "python3 word_count.py sample.txt"})),
            on_subtask("Change word_count.py", "mark_subtask_complete",
                serde_json::json!({"success": false, "reason": "it is right: input.txt is missing"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints the number of words of the file", "met": true,
             "evidence": "5", "about_tests": false, "about_output": true, "command": shown,
             "expects": "5"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": shown}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write a script word_count.py that prints the number of words in the file given as its argument",
        "--max-cycles",
        "1",
    ]);
    let run = test.run();
    run.assert_code(0);
    let cycle = &tasks(&test, true)[0];
    assert_eq!(
        cycle.kinds[1..3],
        [
            SubtaskKind::Write {
                path: "input.txt".into()
            },
            SubtaskKind::Show {
                cmd: shown.into(),
                expects: "5".into()
            }
        ],
        "{cycle:?}"
    );
    assert_eq!(test.read("input.txt"), "a b c d e\n");
    test.assert_replay_matches();
}

/// A check that names its input as a placeholder (`<path-to-file>`) runs
/// the program on a sample input the plan writes first, not on the
/// program's own source: a word-count run whose check ran `python3
/// word_count.py word_count.py` got a program that printed the count of
/// its own file, written into it.
#[test]
fn a_placeholder_of_a_file_in_a_check_is_a_sample_the_plan_writes() {
    let ran = "python3 word_count.py sample.txt";
    let test = counts_a_sample(
        "python3 word_count.py <path-to-file>",
        "sample.txt",
        "one two three four\n",
        ran,
    );
    let run = test.run();
    run.assert_code(0);
    let plan = tasks(&test, false);
    assert_eq!(
        plan[0].kinds[1..],
        [
            SubtaskKind::Write {
                path: "sample.txt".into()
            },
            SubtaskKind::Check { cmd: ran.into() }
        ],
        "{plan:?}"
    );
    let state = test.assert_replay_matches();
    let last = state.checks.last().expect("the last check");
    assert_eq!(last.command, ran);
    assert!(last.output.ends_with("--- stdout ---\n4"), "{last:?}");
}

/// A word-count run of `program`, checked by `check`, whose assessment
/// lists only `requirement` (not about output), met: it must end exit 1
/// with a requirement about output unmet, and the stderr of the run.
fn not_met_without_output(program: &str, check: &str, requirement: &str) -> String {
    let test = word_count(serde_json::json!({
        "plan": {"tasks": [{"path": "word_count.py", "purpose": "count the words of a file"}],
            "check": check},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            {"name": "code", "subtask": "Write word_count.py", "reply": write_reply("word_count.py", program)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": requirement, "met": true, "evidence": "from the code",
             "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": check}}]}
    }));
    let run = test.run();
    run.assert_code(1);
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    let state = test.assert_replay_matches();
    assert!(
        state.requirements.iter().any(|r| r.about_output && !r.met),
        "{:?}",
        state.requirements
    );
    run.stderr
}

/// A goal that asks for what a program prints is met only through a
/// requirement about output: not by a program that prints nothing (a
/// word-count run wrote `count_words` and nothing that called it, its
/// check exited 0 in silence, the assessment found the function's parts
/// met from the code, and the run said "Goal achieved"), nor by a check
/// that printed something (a word-count run at 4514d37 counted the words
/// of its argument's name, its check printed 1, the assessment listed only
/// "it reads its arguments", and the run said "Goal achieved").
#[test]
fn a_goal_that_asks_what_a_program_prints_needs_a_requirement_about_output() {
    let silent =
        "def count_words(path):\n    with open(path) as f:\n        return len(f.read().split())\n";
    let stderr = not_met_without_output(
        silent,
        "python3 word_count.py",
        "count_words returns the number of words",
    );
    assert!(
        stderr.contains("no requirement about output was shown by running the program"),
        "{stderr}"
    );
    let wrong = "import sys\n\nprint(len(sys.argv[1].split()))\n";
    not_met_without_output(
        wrong,
        "python3 word_count.py word_count.py",
        "word_count.py reads the arguments it is run with",
    );
}

/// A check that passes a file to a program that never reads its arguments
/// shows nothing: a word-count run's script counted the words of a file
/// named in its own code, `python3 word_count.py word_count.py` printed 20,
/// and the run said "Goal achieved".
#[test]
fn a_program_that_never_reads_its_argument_does_not_pass_for_one_that_does() {
    let fixed = "def count_words(path):\n    with open(path) as f:\n        return len(f.read().split())\n\n\nif __name__ == '__main__':\n    print(count_words('word_count.py'))\n";
    let test = word_count(serde_json::json!({
        "plan": {"tasks": [{"path": "word_count.py", "purpose": "count the words of a file"}],
            "check": "python3 word_count.py word_count.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            {"name": "code", "subtask": "Write word_count.py", "reply": write_reply("word_count.py", fixed)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "word_count.py can be run", "met": true,
             "evidence": "it printed 20", "about_tests": false}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 word_count.py word_count.py"}}]}
    }));
    let run = test.run();
    run.assert_code(1);
    assert!(
        run.stderr
            .contains("word_count.py reads the arguments it is run with"),
        "{}",
        run.stderr
    );
}

/// A subtask that writes a file, marked done while the file is not there
/// (an rps run's game module was refused as Python could not read it, the
/// model ran pytest and marked the module's subtask done): refused once,
/// the model writes the file, and the goal is achieved with the file.
#[test]
fn a_subtask_that_writes_a_file_is_not_done_without_it() {
    let greet = "print('hello')\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "prints hello"}],
            "check": "python3 greet.py"},
        "rules": [
            {"name": "told", "last_tool": "greet.py is not there", "reply": write_reply("greet.py", greet)},
            ends_when("Wrote ", true, "written"),
            ends_when("exit code", true, "ran it"),
            on_subtask("Write greet.py", "run_cmd", serde_json::json!({"cmd": "python3 --version"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "greet.py prints hello", "met": true, "evidence": "hello",
             "about_tests": false, "about_output": true, "command": "python3 greet.py",
             "expects": "hello"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .args(["Write greet.py that prints hello"]);
    let run = test.run();
    run.assert_code(0);
    let refused = refusals(&test, runner::state::RefusalKind::FileMissing);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(refused[0].starts_with("not accepted: this subtask writes greet.py"));
    assert_eq!(test.read("greet.py"), greet);
    test.assert_replay_matches();
}

/// The backup goal of a scripted model that writes a copier of its
/// argument, with one requirement the assessment calls met, shown by
/// `command`.
fn backup(requirement: &str, evidence: &str, command: &str, expects: &str) -> Test {
    let copier = "import shutil\nimport sys\n\nif len(sys.argv) > 1:\n    shutil.copy(sys.argv[1], 'backup.txt')\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "backup.py", "purpose": "copy the file it is given to backup.txt"}],
            "check": "python3 backup.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            {"name": "code", "subtask": "Write backup.py", "reply": write_reply("backup.py", copier)},
            {"name": "sample", "subtask": "Write sample.txt", "reply": write_reply("sample.txt", "notes\n")}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": requirement, "met": true, "evidence": evidence, "about_tests": false,
             "command": command, "expects": expects}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 backup.py"}}]}
    }))
    .expect("script");
    Test::new().serving(script).args([
        "Write a script backup.py that copies the file given as its argument to backup.txt",
        "--max-cycles",
        "0",
    ])
}

/// A requirement the assessment says is met, shown by a command that
/// fails when the runner runs it, is not met, about output or not: a
/// word-count assessment called "it runs with a file argument" met by
/// `python3 word_count.py input.txt` with no input.txt there. Here the
/// goal says nothing of output, so only that run can tell.
#[test]
fn a_requirement_shown_by_a_command_that_fails_is_not_met() {
    let test = backup(
        "backup.py copies the file given as its argument to backup.txt",
        "shutil.copy(sys.argv[1], 'backup.txt')",
        "python3 backup.py notes.txt",
        "backup.txt is written",
    );
    let run = test.run();
    run.assert_code(1);
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    let state = test.assert_replay_matches();
    let copies = &state.requirements[0];
    assert!(!copies.met, "{copies:?}");
    assert_eq!(
        copies.evidence,
        "`python3 backup.py notes.txt` failed (exit code 1); notes.txt is no file of the \
         workspace: write it (a sample it reads) before running it"
    );
}

/// A requirement not about output, met by the model's word and shown by a
/// command of a program the model may not run (`ls -l`), is not held
/// unmet: that command would show nothing of the work (a word-count
/// assessment gave `ls -l word_count.py` for "word_count.py is a Python
/// file", and its refusal held the run unmet for two cycles).
#[test]
fn a_requirement_shown_by_a_program_the_model_may_not_run_keeps_its_claim() {
    let test = backup(
        "backup.py is a Python file",
        "backup.py is there",
        "ls -l backup.py",
        "backup.py",
    );
    let run = test.run();
    let state = test.assert_replay_matches();
    let file = &state.requirements[0];
    assert!(file.met, "{file:?}");
    assert_eq!(file.evidence, "backup.py is there");
    run.assert_code(0);
}

/// Tests the run writes of a project's code it leaves as it was say what
/// that code does: one that fails is the test's error, and the model may
/// correct it. An add-tests run's test expected `remove` of a missing
/// item to pass where the class raises; its fix of the test was refused
/// ("change the code they test", code the goal did not ask to touch) and
/// the model gave up.
#[test]
fn a_failing_test_of_code_the_goal_keeps_may_be_corrected() {
    let wrong = "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.items == {\"pen\": 2}\n\n\ndef test_add_again():\n    inventory = Inventory()\n    inventory.add(\"pen\")\n    assert inventory.items == {\"pen\": 2}\n";
    let right = "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.items == {\"pen\": 2}\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "test_inventory.py", "purpose": "pytest tests for the Inventory class"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            {"name": "fix", "last_tool": "exit code 1", "reply": write_reply("test_inventory.py", right)},
            ends_when("Wrote ", true, "written"),
            on_subtask("Write test_inventory.py", "write_file", serde_json::json!({"path": "test_inventory.py", "content": wrong}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for Inventory", "met": true,
             "evidence": "1 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = add_tests(script, "0");
    let before = test.read("inventory.py");
    let run = test.run();
    run.assert_code(0);
    assert_eq!(test.read("test_inventory.py"), right);
    assert_eq!(test.read("inventory.py"), before, "the module is as it was");
}

/// A rewrite of the run's test file meant to fix the test that failed
/// keeps those that passed: z1b's add-tests had three tests, one failed,
/// and its fix was one new test; the two that passed were lost and the
/// assessment found no test of `add` left.
#[test]
fn a_rewrite_of_a_test_file_keeps_the_tests_that_passed() {
    let first = "from inventory import Inventory\n\n\ndef test_add():\n    inventory = Inventory()\n    inventory.add(\"pen\", 2)\n    assert inventory.items == {\"pen\": 2}\n\n\ndef test_add_again():\n    inventory = Inventory()\n    inventory.add(\"pen\")\n    assert inventory.items == {\"pen\": 2}\n";
    let fix = "from inventory import Inventory\n\n\ndef test_add_one():\n    inventory = Inventory()\n    inventory.add(\"pen\")\n    assert inventory.items == {\"pen\": 1}\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "test_inventory.py", "purpose": "pytest tests for the Inventory class"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            {"name": "fix", "last_tool": "exit code 1", "reply": write_reply("test_inventory.py", fix)},
            ends_when("Wrote ", true, "written"),
            on_subtask("Write test_inventory.py", "write_file", serde_json::json!({"path": "test_inventory.py", "content": first}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "pytest tests for Inventory", "met": true,
             "evidence": "2 passed", "about_tests": true}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = add_tests(script, "0");
    let run = test.run();
    run.assert_code(0);
    let tests = test.read("test_inventory.py");
    assert!(
        tests.contains("def test_add():") && tests.contains("def test_add_one():"),
        "the test that passed is put back beside the new one:\n{tests}"
    );
    assert!(
        !tests.contains("def test_add_again():"),
        "the one that failed stays out:\n{tests}"
    );
    let ran = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::Checked { checks } => Some(checks),
            _ => None,
        })
        .flatten()
        .last()
        .expect("the check ran");
    assert_eq!(
        ran.tests.map(|t| (t.passed, t.failed)),
        Some((2, 0)),
        "{ran:?}"
    );
}

/// A planned change of a program there before the run is told, for each
/// command-line option the goal names, where the program reads its
/// arguments (x1's cli-flag, `--api openai`: "Add a --shout flag to the
/// greeting function" gave `greeting` a `shout` nothing passed, and
/// `main`, which reads the command line, never changed).
#[test]
fn a_planned_change_is_told_where_the_program_reads_the_goals_option() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "add a --shout flag to the greeting"}],
            "check": "python3 greet.py"},
        "rules": [],
        "otherwise": {"tool_calls": [{"name": "mark_subtask_complete",
            "arguments": {"success": true, "reason": "done"}}]}
    }))
    .expect("script");
    let planned = |goal: &str| {
        let test = Test::new()
            .serving(script.clone())
            .file("greet.py", GREET)
            .args([goal, "--max-cycles", "0"]);
        test.run();
        tasks(&test, false)
            .into_iter()
            .flat_map(|t| t.subtasks)
            .collect::<Vec<_>>()
    };
    let subtasks = planned("Change greet.py so that it takes an optional --shout flag");
    assert!(
        subtasks[0].contains(
            ". --shout is a command-line option: greet.py reads its arguments at line 5 `name = \
             sys.argv[1] if len(sys.argv) > 1 else \"world\"`: --shout is one of them there."
        ),
        "{subtasks:?}"
    );
    // A goal that names no option: nothing said.
    let subtasks = planned("Change greet.py so that it greets in capitals");
    assert!(!subtasks[0].contains("command-line option"), "{subtasks:?}");
}

/// A change that gives a function a parameter no call of it in the file
/// gives is not done at the first claim: two cli-flag runs of
/// Qwen2.5-Coder 1.5B gave `greeting` a `shout=False` that `main` never
/// passed and marked the change done. Told which call does not give it, the
/// model wires it; a model that means it for other callers claims again and
/// that claim stands.
#[test]
fn a_change_whose_new_parameter_no_call_gives_is_not_done_at_the_first_claim() {
    let start = GREET_ARGV;
    let unwired = start.replace(
        "def greeting(name):\n    return f\"Hello, {name}!\"",
        "def greeting(name, shout=False):\n    text = f\"Hello, {name}!\"\n    return text.upper() if shout else text",
    );
    let wired = unwired.replace(
        "    print(greeting(name))",
        "    print(greeting(name, \"--shout\" in argv))",
    );
    let run_with = |told: serde_json::Value, existing: bool| {
        let start = existing.then_some(start);
        flag_change(start, &unwired, told, runner::state::RefusalKind::Unwired)
    };
    let (test, run, refused) = run_with(write_reply("greet.py", &wired), true);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].contains(
            "no call in greet.py gives `shout` to `greeting` (`greeting(name)`, line 11)"
        ),
        "{refused:?}"
    );
    // The goal's --shout is the parameter: the call to make is said.
    assert!(
        refused[0].contains(
            "`shout` is the goal's --shout, and `'--shout' in sys.argv[1:]` is True when it is \
             given: make the call `greeting(name, shout='--shout' in sys.argv[1:])` (edit_file: \
             {\"name\": \"edit_file\", \"arguments\": {\"path\": \"greet.py\", \"old\": \"    \
             print(greeting(name))\", \"new\": \"    print(greeting(name, shout='--shout' in \
             sys.argv[1:]))\"}})"
        ),
        "{refused:?}"
    );
    // Wired, the program took --shout for the name, and the model claimed
    // again without the edit that leaves the options out: the runner made
    // it (see `a_change_whose_program_takes_the_option_for_an_argument_...`).
    let left_out = wired.replace(
        "    name = argv[1] if len(argv) > 1 else \"world\"",
        "    positional = [arg for arg in argv if not arg.startswith('-')]\n    name = positional[1] if len(positional) > 1 else \"world\"",
    );
    assert_ne!(left_out, wired);
    assert_eq!(test.read("greet.py"), left_out);
    test.assert_replay_matches();
    // Claimed again as it is: accepted, and the run goes on to its check.
    let again = serde_json::json!({"tool_calls": [{"name": "mark_subtask_complete",
        "arguments": {"success": true, "reason": "callers elsewhere pass it"}}]});
    let (test, run, refused) = run_with(again.clone(), true);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    // Its run still printed --shout back: the edit that leaves the options
    // out was made at the claim after that refusal.
    assert_eq!(
        test.read("greet.py"),
        unwired.replace(
            "    name = argv[1] if len(argv) > 1 else \"world\"",
            "    positional = [arg for arg in argv if not arg.startswith('-')]\n    name = positional[1] if len(positional) > 1 else \"world\"",
        )
    );
    let ended: Vec<bool> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::SubtaskEnded { success, .. } => Some(success),
            _ => None,
        })
        .collect();
    assert_eq!(ended, [true, true], "{}", run.stderr);
    // A file the run wrote is its design: not held so.
    let (test, run, refused) = run_with(again, false);
    assert_eq!(refused.len(), 0, "{}", run.stderr);
    assert_eq!(test.read("greet.py"), unwired);
}

/// A requirement about output found unmet is run in its cycle until its
/// output holds what it must: a cycle whose only check was the plan's
/// `python3 greet.py Ann` took a change that still ignored `--shout` as
/// done (a cli-flag run of Qwen2.5-Coder 1.5B, two cycles in a row). Here
/// the cycle's change still ignores the flag; the run of the command that
/// shows it prints "Hello, Ann!", the model is told so, and fixes it
/// within the one cycle it has.
#[test]
fn a_requirement_about_output_is_run_in_its_cycle_until_the_output_holds_it() {
    let ignores = "import sys\n\n\ndef main():\n    args = sys.argv[1:]\n    shout = \"--shout\" in args\n    names = [a for a in args if a != \"--shout\"]\n    print(f\"Hello, {names[0] if names else 'world'}!\")\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let still_ignores = format!("{ignores}# the flag\n");
    let shouts = "import sys\n\n\ndef main():\n    args = sys.argv[1:]\n    shout = \"--shout\" in args\n    names = [a for a in args if a != \"--shout\"]\n    greeting = f\"Hello, {names[0] if names else 'world'}!\"\n    print(greeting.upper() if shout else greeting)\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add the flag", "subtasks": [
            "Change greet.py: add a --shout flag that prints the greeting in upper case",
            "Run `python3 greet.py Ann`"]}]},
        "assessments": [{"has": ["--- greet.py ---"], "answer": {"requirements": [
            {"requirement": "--shout prints the greeting in upper case", "met": true,
             "evidence": "shout = \"--shout\" in args", "about_tests": false, "about_output": true,
             "command": "python3 greet.py --shout Ann", "expects": "HELLO, ANN!"}]}}],
        "rules": [
            {"name": "the cycle's change, still ignoring the flag", "subtask": "Make this true: --shout",
             "lacks": ["# the flag"], "reply": write_reply("greet.py", &still_ignores)},
            {"name": "the plan's change", "subtask": "Change greet.py", "lacks": ["shout = "],
             "reply": write_reply("greet.py", ignores)},
            {"name": "told what the run printed", "subtask": "make its output hold",
             "last_tool": "Hello, Ann!", "reply": write_reply("greet.py", shouts)},
            {"name": "the plan's check", "subtask": "Run `python3 greet.py Ann`", "lacks": ["exit code 0"],
             "reply": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py Ann"}}]}},
            {"name": "anything else is done", "reply": {"tool_calls": [{"name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "done"}}]}}
        ]
    }))
    .expect("script");
    let test = greet_project(script).args([SHOUT_GOAL, "--max-cycles", "1"]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let cycle = tasks(&test, true);
    assert_eq!(cycle.len(), 1, "{cycle:?}");
    assert!(
        cycle[0].kinds.contains(&SubtaskKind::Show {
            cmd: "python3 greet.py --shout Ann".into(),
            expects: "HELLO, ANN!".into()
        }),
        "{cycle:?}"
    );
    // The show's command ran and printed the greeting unchanged before the
    // fix, and the subtask went on until it printed it in capitals: the
    // run after the fix's write showed that, and ended it.
    let shown: Vec<String> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ActionFinished { outcome, .. }
                if outcome.command.as_deref() == Some("python3 greet.py --shout Ann") =>
            {
                Some(outcome.result)
            }
            _ => None,
        })
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].ends_with("Hello, Ann!"), "{shown:?}");
    let ended = test
        .records()
        .into_iter()
        .find_map(|r| match r.event {
            Event::SubtaskEnded {
                call: None, reason, ..
            } => Some(reason),
            _ => None,
        })
        .expect("ended by the run after the write");
    assert!(
        ended.contains("`python3 greet.py --shout Ann` printed \"HELLO, ANN!\", which holds"),
        "{ended}"
    );
    assert!(
        state.requirements.iter().all(|r| r.met),
        "{:?}",
        state.requirements
    );
    assert!(test.read("greet.py").contains(".upper()"));
}

/// The word-count goal with a plan whose check is the bare `python3
/// word_count.py`: the model writes `program`, follows `told` (rules of
/// what it is told), writes sample.txt when told to and runs the program
/// on it; the assessment wants "3" of that run.
fn counts_a_sample_it_is_given(program: &str, told: Vec<serde_json::Value>) -> Test {
    counts_a_sample_it_is_given_for(WORD_COUNT, program, told)
}

/// The word-count goal of the suite.
const WORD_COUNT: &str = "Write a script word_count.py that prints the number of words in the file given as its argument";

/// [`counts_a_sample_it_is_given`] for `goal`.
fn counts_a_sample_it_is_given_for(
    goal: &str,
    program: &str,
    told: Vec<serde_json::Value>,
) -> Test {
    let given = "python3 word_count.py sample.txt";
    let mut rules = vec![
        serde_json::json!({"name": "the sample is there", "last_tool": "to sample.txt",
            "reply": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": given}}]}}),
        serde_json::json!({"name": "told to write a sample",
            "has": ["sample.txt is not there yet: write it first"],
            "reply": write_reply("sample.txt", "one two three\n")}),
    ];
    rules.extend(told);
    rules.extend([
        ends_when("to word_count.py", true, "written"),
        ends_when("exit code 0", true, "it counts"),
        serde_json::json!({"name": "code", "subtask": "Write word_count.py",
            "reply": write_reply("word_count.py", program)}),
    ]);
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "word_count.py", "purpose": "count the words of a file"}],
            "check": "python3 word_count.py"},
        "rules": rules,
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints the number of words of the file given as its argument",
             "met": true, "evidence": "3", "about_tests": false, "about_output": true,
             "command": given, "expects": "3"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 word_count.py"}}]}
    }))
    .expect("script");
    Test::new()
        .serving(script)
        .args([goal, "--max-cycles", "0"])
}

/// A check that runs the program with no argument, where the goal gives it
/// a file (a word-count plan's `python3 word_count.py`): the program
/// stops where it reads its argument, which is not a fault of the code, so
/// no fix is asked for; the check becomes its run on a sample the subtask
/// writes first, and the checks of the work run that. o3's model, told to
/// fix the file, wrote the same right program again until the loop guard
/// failed the subtask; this one does the same when told to fix it.
#[test]
fn a_check_with_no_argument_of_a_program_that_opens_files_runs_it_on_a_sample() {
    let counter = "import sys\n\nwith open(sys.argv[1]) as f:\n    print(len(f.read().split()))\n";
    let given = "python3 word_count.py sample.txt";
    // A goal that gives its program an argument and names no file: the
    // plan's check is the bare run (one that names a file is checked on a
    // sample from the plan on).
    let test = counts_a_sample_it_is_given_for(
        "Write a script word_count.py that prints how many words the document whose name it \
         is given as its argument holds",
        counter,
        vec![
            serde_json::json!({"name": "told to fix the file", "has": ["Fix it"],
            "reply": write_reply("word_count.py", counter)}),
        ],
    );
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let given_at: Vec<(usize, usize, String, Option<String>)> = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::CheckGiven {
                task,
                subtask,
                cmd,
                input,
            } => Some((task, subtask, cmd, input)),
            _ => None,
        })
        .collect();
    assert_eq!(
        given_at,
        vec![(0, 1, given.to_string(), Some("sample.txt".to_string()))],
        "{}",
        run.stderr
    );
    assert_eq!(
        state.tree.tasks[0].subtasks[1].kind,
        SubtaskKind::Check { cmd: given.into() }
    );
    assert_eq!(test.read("sample.txt"), "one two three\n");
    let checked: Vec<&str> = state.checks.iter().map(|c| c.command.as_str()).collect();
    assert_eq!(
        checked,
        [given],
        "the checks of the work run the given command"
    );
}

/// A program that asks for its file at the keyboard (n1's and o1's
/// word-count: `input('Enter the file path: ')`), checked on a sample the
/// plan writes first: a command gets no keyboard input, so the next step
/// gives the edit that reads its argument instead, ready to copy. The
/// model rewrites the file as it was when told to fix it, as those runs'
/// did.
#[test]
fn a_program_that_asks_at_the_keyboard_is_given_the_edit_that_reads_its_argument() {
    let asks = "def count_words(file_path):\n    with open(file_path, 'r') as file:\n        return len(file.read().split())\n\n\nif __name__ == '__main__':\n    file_path = input('Enter the file path: ')\n    print(count_words(file_path))\n";
    let given = "python3 word_count.py sample.txt";
    let test = counts_a_sample_it_is_given(
        asks,
        vec![
            serde_json::json!({"name": "given the edit", "has": ["asks for keyboard input on line 7"],
                "last_tool": "EOFError",
                "reply": {"tool_calls": [{"name": "edit_file", "arguments": {"path": "word_count.py",
                    "old": "    file_path = input('Enter the file path: ')",
                    "new": "    file_path = sys.argv[1]"}}]}}),
            serde_json::json!({"name": "told to fix the file", "last_tool": "EOFError",
                "reply": write_reply("word_count.py", asks)}),
        ],
    );
    let run = test.run();
    run.assert_code(0);
    let program = test.read("word_count.py");
    assert!(
        program.starts_with("import sys\n") && program.contains("file_path = sys.argv[1]"),
        "{program}"
    );
    // The goal gives its program a file: the plan checks it on a sample
    // it writes first.
    let state = test.assert_replay_matches();
    let kinds: Vec<&SubtaskKind> = state.tree.tasks[0]
        .subtasks
        .iter()
        .map(|subtask| &subtask.kind)
        .collect();
    assert_eq!(
        kinds[1..],
        [
            &SubtaskKind::Write {
                path: "sample.txt".into()
            },
            &SubtaskKind::Check { cmd: given.into() }
        ]
    );
}

/// A check that runs the program with no argument, whose program takes one
/// that is no file: told to run it with the arguments the goal gives it
/// (not to fix it), the model does; that run, once it passes, becomes the
/// check, which the subtask and the checks of the work then run.
#[test]
fn a_check_with_no_argument_becomes_the_run_with_the_arguments_that_passed() {
    let double = "import sys\n\nprint(int(sys.argv[1]) * 2)\n";
    let given = "python3 double.py 21";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "double.py", "purpose": "print twice its argument"}],
            "check": "python3 double.py"},
        "rules": [
            {"name": "told to fix the file", "has": ["Fix it"],
             "reply": write_reply("double.py", double)},
            {"name": "told to give the arguments", "last_tool": "IndexError",
             "has": ["Run it with the arguments the goal gives it"],
             "reply": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": given}}]}},
            ends_when("to double.py", true, "written"),
            ends_when("exit code 0", true, "it doubles"),
            {"name": "code", "subtask": "Write double.py", "reply": write_reply("double.py", double)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints twice the number given as its argument",
             "met": true, "evidence": "42", "about_tests": false, "about_output": true,
             "command": given, "expects": "42"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 double.py"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write a script double.py that prints twice the number given as its argument",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.tree.tasks[0].subtasks[1].kind,
        SubtaskKind::Check { cmd: given.into() },
        "{}",
        run.stderr
    );
    let checked: Vec<&str> = state.checks.iter().map(|c| c.command.as_str()).collect();
    assert_eq!(
        checked,
        [given],
        "the checks of the work run the given command"
    );
}

/// A goal whose program reads its standard input: the plan's check of it
/// reads a sample the plan writes first, after `<` (a command gets no
/// keyboard), the program's write is told where its input comes from, and
/// the checks of the work run it so. The program's output of that input is
/// what shows the requirement met.
#[test]
fn a_program_that_reads_its_standard_input_is_checked_on_a_sample_file() {
    let up = "print(input().upper())\n";
    let given = "python3 up.py < input.txt";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "up.py", "purpose": "prints the line in capitals"}],
            "check": "python3 up.py"},
        "rules": [
            {"name": "the sample", "subtask": "Write input.txt",
             "reply": write_reply("input.txt", "hello there\n")},
            {"name": "code", "subtask": "Write up.py", "has": ["from its standard input"],
             "reply": write_reply("up.py", up)},
            ends_when("Wrote ", true, "written"),
            ends_when("exit code 0", true, "it prints the line in capitals"),
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints the line it reads in capitals", "met": true,
             "evidence": "HELLO THERE", "about_tests": false, "about_output": true,
             "command": given, "expects": "HELLO THERE"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": given}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Write up.py, a program that reads one line from standard input and prints it in capitals",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let kinds: Vec<&SubtaskKind> = state.tree.tasks[0]
        .subtasks
        .iter()
        .map(|s| &s.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            &SubtaskKind::Write {
                path: "up.py".into()
            },
            &SubtaskKind::Write {
                path: "input.txt".into()
            },
            &SubtaskKind::Check { cmd: given.into() },
        ],
        "{}",
        run.stderr
    );
    assert_eq!(test.read("up.py"), up);
    let checked: Vec<&str> = state.checks.iter().map(|c| c.command.as_str()).collect();
    assert_eq!(
        checked,
        [given],
        "the checks of the work run it on the sample"
    );
    assert!(
        state.checks[0].output.contains("HELLO THERE"),
        "{:?}",
        state.checks[0]
    );
}

/// The hello world goal of a model whose program is only a definition
/// at first, and `after_refusal` when told it would run nothing.
fn hello_defined(after_refusal: &str) -> Test {
    let defines = "def hello():\n    print(\"Hello, World!\")\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "hello.py", "purpose": "prints Hello, World!"}],
            "check": "python3 hello.py"},
        "rules": [
            {"name": "told it runs nothing", "last_tool": "would run nothing",
             "reply": write_reply("hello.py", after_refusal)},
            ends_when("Wrote ", true, "written"),
            ends_when("exit code 0", true, "it runs"),
            {"name": "only a definition", "subtask": "hello.py: prints", "reply": write_reply("hello.py", defines)}
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "it prints Hello, World!", "met": true, "evidence": "print",
             "about_tests": false, "about_output": true, "command": "python3 hello.py",
             "expects": "Hello, World!"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 hello.py"}}]}
    }))
    .expect("script");
    Test::new()
        .serving(script)
        .args(["Write a hello world script", "--max-cycles", "0"])
}

/// How many calls were refused as running nothing.
fn refused_as_running_nothing(test: &Test) -> usize {
    test.records()
        .into_iter()
        .filter(|r| {
            matches!(&r.event, Event::CallRejected { kind, .. }
                if *kind == runner::state::RefusalKind::RunsNothing)
        })
        .count()
}

/// A program the plan's check runs, written with only definitions while no
/// test checks them, is refused once: its check would pass in silence (a
/// word-count program defined `count_words` and called nothing, and the
/// issue's hello world held a function and no print). Told how to make it
/// run, the model ends it with the call; sent again as it was, it is
/// written, and the output the goal asks for is still judged.
#[test]
fn a_checked_program_that_would_run_nothing_is_refused_once() {
    let runs = "def hello():\n    print(\"Hello, World!\")\n\n\nif __name__ == \"__main__\":\n    hello()\n";
    let test = hello_defined(runs);
    let run = test.run();
    run.assert_code(0);
    test.assert_replay_matches();
    assert_eq!(refused_as_running_nothing(&test), 1, "{}", run.stderr);
    assert_eq!(test.read("hello.py"), runs);
    let defines = "def hello():\n    print(\"Hello, World!\")\n";
    let again = hello_defined(defines);
    let run = again.run();
    run.assert_code(1);
    assert_eq!(refused_as_running_nothing(&again), 1, "{}", run.stderr);
    assert_eq!(again.read("hello.py"), defines);
    // A module of the project that ran nothing before the run (a library
    // the goal adds to) is not refused: its bare run showed nothing then
    // either.
    let library = hello_defined(defines).project(&[("hello.py", "def hello():\n    pass\n")]);
    let run = library.run();
    run.assert_code(1);
    assert_eq!(refused_as_running_nothing(&library), 0, "{}", run.stderr);
    assert_eq!(library.read("hello.py"), defines, "{}", run.stderr);
}

/// A requirement about output shown by running a library of the project
/// (calc.py only defines), for a goal that asks for no output, is held to
/// the tests: a calc-fix assessment showed "add returns the sum" by
/// `python3 calc.py 3 4` expecting "7" while the tests passed, and the
/// model, asked in a cycle to make that true, put `print('7')` after a
/// `return`. Here the tests pass after the fix: achieved, with no cycle,
/// and calc.py prints nothing.
#[test]
fn a_requirement_shown_by_running_a_library_is_held_to_the_tests() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "calc.py", "purpose": "fix the bug in average"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it passes"),
            ends_when("Edited calc.py", true, "fixed"),
            on_subtask("calc.py", "edit_file", serde_json::json!({"path": "calc.py",
                "old": "(len(numbers) + 1)", "new": "len(numbers)"}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "add returns the sum of two numbers", "met": true,
             "evidence": "it prints 7", "about_tests": false, "about_output": true,
             "command": "python3 calc.py 3 4", "expects": "7"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file("calc.py", CALC)
        .file("test_calc.py", TEST_CALC)
        .args(["The tests in test_calc.py fail. Fix the bug in calc.py so that they pass"]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let sum = &state.requirements[0];
    assert!(
        sum.met && sum.about_tests && sum.shown_by.is_none(),
        "{sum:?}"
    );
    assert!(cycles(&test).is_empty(), "{:?}", cycles(&test));
    assert_eq!(
        test.read("calc.py"),
        CALC.replace("(len(numbers) + 1)", "len(numbers)")
    );
}

/// A requirement the model calls met by its reading of a library, "shown"
/// by running that library (which prints nothing whatever it returns), is
/// no evidence: an add-function run wrote `count_vowels` as a copy of
/// `reverse`, the assessment called it met by `python3 textutil.py`, and
/// the run ended "Goal achieved". Held to the tests, none of which ran, it
/// ends not achieved.
#[test]
fn a_library_run_is_no_evidence_of_what_its_functions_return() {
    let textutil = "def reverse(text):\n    return text[::-1]\n";
    // (A copy of `reverse` is refused now: wrong otherwise.)
    let wrong = format!("{textutil}\n\ndef count_vowels(text):\n    return len(text)\n");
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
            "check": "python3 textutil.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            on_subtask("textutil.py", "write_file", serde_json::json!({"path": "textutil.py", "content": wrong}))
        ],
        "assessments": [{"has": [], "answer": {"requirements": [
            {"requirement": "count_vowels(text) returns how many vowels the text has", "met": true,
             "evidence": "count_vowels is defined in textutil.py", "about_tests": false,
             "about_output": false, "command": "python3 textutil.py",
             "expects": "The output is the number of vowels"}]}}],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
    }))
    .expect("script");
    let test = add_function(script, textutil);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let vowels = &state.requirements[0];
    assert!(!vowels.met && vowels.about_tests, "{vowels:?}");
}

/// A function the goal names in call form, added right and called met by
/// the assessment's reading, is not achieved until something ran it: with
/// no cycle the run ends not achieved, with one the cycle writes a test
/// that calls it, the tests pass, and the goal is achieved.
#[test]
fn a_named_function_only_read_is_run_by_a_test_before_goal_achieved() {
    let textutil = TEXTUTIL;
    let test_file = "from textutil import count_vowels\n\n\ndef test_count_vowels():\n    assert count_vowels('Banana') == 3\n";
    let script = |test_file: &str| {
        count_vowels_script(
            "python3 textutil.py",
            test_file,
            "def count_vowels(text) counts the vowels",
        )
    };
    let unexercised = |state: &runner::state::State| {
        state
            .requirements
            .iter()
            .find(|r| r.requirement == "a test calls count_vowels and passes")
            .cloned()
    };
    let test = add_function(script(test_file), textutil);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let held = unexercised(&state).expect("the requirement that it ran");
    assert!(!held.met && held.about_tests, "{held:?}");
    assert!(held.evidence.contains("never run"), "{held:?}");
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);

    let with_cycles = |test_file: &str| add_function_cycles(script(test_file), textutil, "1");
    // A test file that defines count_vowels itself would test its own
    // copy: the copy is left out and imported from textutil.py, whose
    // count_vowels the test then runs.
    let own = format!(
        "{}\n\n\ndef count_vowels(text):\n    return 3\n",
        test_file.replacen("from textutil import count_vowels\n", "", 1)
    );
    let test = with_cycles(&own);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();
    assert!(unexercised(&state).is_none(), "{:?}", state.requirements);
    let written = test.read("test_textutil.py");
    assert!(
        written.starts_with("from textutil import count_vowels\n")
            && !written.contains("def count_vowels"),
        "{written}"
    );

    let test = with_cycles(test_file);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let cycle = &tasks(&test, true)[0];
    assert!(
        cycle.subtasks[0].starts_with("Write test_textutil.py"),
        "{:?}",
        cycle.subtasks
    );
    assert_eq!(test.read("test_textutil.py"), test_file);
    assert!(
        state.requirements.iter().all(|r| r.met),
        "{:?}",
        state.requirements
    );
    assert!(unexercised(&state).is_none(), "{:?}", state.requirements);
}

/// A library of the project that the model's own check runs with
/// arguments, for a goal that asks for no output, showed nothing by that
/// run; it is not a program that must read them. n2's add-function checked
/// `python3 textutil.py count_vowels 'hello world'`, and a right
/// `count_vowels` went into a cycle to make textutil.py read `sys.argv`.
/// Here the tests that call it pass: the goal is achieved.
#[test]
fn a_library_checked_with_arguments_is_not_made_to_read_them() {
    let test_file = "from textutil import count_vowels\n\n\ndef test_count_vowels():\n    assert count_vowels('Banana') == 3\n";
    let check = "python3 textutil.py count_vowels 'hello world'";
    let script = count_vowels_script(check, test_file, "a test calls it and passes");
    // One cycle: the first ends with count_vowels never run, the cycle
    // writes the test that runs it.
    let test = add_function_cycles(script, TEXTUTIL, "1");
    let run = test.run();
    let state = test.assert_replay_matches();
    assert!(
        !state
            .requirements
            .iter()
            .any(|r| r.requirement.contains("reads the arguments")),
        "{:?}",
        state.requirements
    );
    assert!(
        state
            .checks
            .iter()
            .any(|c| c.command == check && c.passed()),
        "{:?}",
        state.checks
    );
    run.assert_code(0);
    assert_eq!(test.read("textutil.py"), with_count_vowels());
}

/// The fizzbuzz goal, a right fizzbuzz.py and a test file of one call.
const FIZZBUZZ: &str = "Write fizzbuzz.py with a function fizzbuzz(n) that returns 'Fizz' for multiples \
                        of 3, 'Buzz' for multiples of 5, 'FizzBuzz' for multiples of both and the number \
                        as a string otherwise; add pytest tests for it";
const FIZZBUZZ_RIGHT: &str = "def fizzbuzz(n):\n    if n % 15 == 0:\n        return 'FizzBuzz'\n    if n % 3 \
                              == 0:\n        return 'Fizz'\n    if n % 5 == 0:\n        return 'Buzz'\n    \
                              return str(n)\n";
const FIZZBUZZ_TEST: &str =
    "from fizzbuzz import fizzbuzz\n\n\ndef test_one():\n    assert fizzbuzz(1) == '1'\n";

/// An assessor of [`FIZZBUZZ`] that reads the code as right.
fn reads_fizzbuzz_right() -> serde_json::Value {
    serde_json::json!([{"has": [], "answer": {"requirements": [
        {"requirement": "fizzbuzz(n) returns Fizz, Buzz, FizzBuzz or the number",
         "met": true, "evidence": "def fizzbuzz(n)", "about_tests": false,
         "about_output": false, "command": "", "expects": ""},
        {"requirement": "pytest tests for fizzbuzz pass", "met": true,
         "evidence": "1 passed", "about_tests": true, "about_output": false,
         "command": "", "expects": ""}]}}])
}

#[test]
fn a_function_that_returns_otherwise_than_the_goals_examples_is_not_goal_achieved() {
    // A fizzbuzz run ended "Goal achieved": `fizzbuzz(n)` returned its
    // first number, and the model's one test asserted a value it gives.
    // (Its loop that returned on the first pass is refused now: see
    // `lang::python::tests`; this one gives the first number all the same.)
    let wrong = "def fizzbuzz(n):\n    numbers = [str(i) for i in range(1, n + 1)]\n    return numbers[0]\n";
    let script = |returns: Option<serde_json::Value>| -> crate::support::fake_ollama::Script {
        let mut script = serde_json::json!({
            "plan": {"tasks": [{"path": "fizzbuzz.py", "purpose": "fizzbuzz(n)"},
                               {"path": "test_fizzbuzz.py", "purpose": "its tests"}],
                "check": "python3 -m pytest -q"},
            "rules": [
                ends_when("exit code 0", true, "it runs"),
                ends_when("Wrote ", true, "written"),
                on_subtask("Change fizzbuzz.py", "write_file",
                    serde_json::json!({"path": "fizzbuzz.py", "content": FIZZBUZZ_RIGHT})),
                on_subtask("test_fizzbuzz.py", "write_file",
                    serde_json::json!({"path": "test_fizzbuzz.py", "content": FIZZBUZZ_TEST})),
                on_subtask("fizzbuzz.py", "write_file",
                    serde_json::json!({"path": "fizzbuzz.py", "content": wrong}))
            ],
            // An assessor that reads the code as right.
            "assessments": reads_fizzbuzz_right(),
            "examples": {"examples": [
                "assert fizzbuzz(3) == 'Fizz'",
                "assert fizzbuzz(15) == 'FizzBuzz'",
                "assert fizzbuzz(7) == '7'"]},
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
        });
        if let Some(returns) = returns {
            script["returns"] = returns;
        }
        serde_json::from_value(script).expect("script")
    };
    let test = |returns, cycles: &str| {
        Test::new()
            .serving(script(returns))
            .args([FIZZBUZZ, "--max-cycles", cycles])
    };
    let held = |state: &runner::state::State| {
        state
            .requirements
            .iter()
            .find(|r| r.requirement == "fizzbuzz returns what the goal says it returns")
            .cloned()
    };

    let wrong_run = test(None, "0");
    let run = wrong_run.run();
    run.assert_code(1);
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    let state = wrong_run.assert_replay_matches();
    let requirement = held(&state).expect("the goal's examples were tried");
    assert!(!requirement.met, "{requirement:?}");
    assert!(
        requirement
            .evidence
            .contains("fizzbuzz(3) returned '1', the goal says 'Fizz'"),
        "{requirement:?}"
    );
    assert_eq!(requirement.file.as_deref(), Some("fizzbuzz.py"));
    // Asked once, each call answered twice.
    let stated: Vec<_> = wrong_run
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ExamplesStated { examples, .. } => Some(examples),
            _ => None,
        })
        .collect();
    assert_eq!(stated.len(), 1, "{stated:?}");
    assert_eq!(stated[0][0].returns, ["'Fizz'", "'Fizz'"]);

    // A second answer that disagrees on each call: no example counts, and
    // the assessment alone decides, as before.
    let disagreeing = serde_json::json!({"returns": [
        "assert fizzbuzz(3) == 'Buzz'", "assert fizzbuzz(15) == 'Fizz'", "assert fizzbuzz(7) == '8'"]});
    let unsure = test(Some(disagreeing), "0");
    unsure.run().assert_code(0);
    assert_eq!(held(&unsure.assert_replay_matches()), None);

    // A cycle told which calls gave what fixes the function.
    let fixed = test(None, "1");
    let run = fixed.run();
    run.assert_code(0);
    let state = fixed.assert_replay_matches();
    let cycle = &tasks(&fixed, true)[0];
    assert!(
        cycle.subtasks[0].starts_with("Change fizzbuzz.py")
            && cycle.subtasks[0].contains("fizzbuzz(3) returned '1', the goal says 'Fizz'"),
        "{:?}",
        cycle.subtasks
    );
    assert_eq!(fixed.read("fizzbuzz.py"), FIZZBUZZ_RIGHT);
    assert!(held(&state).is_none(), "{:?}", state.requirements);
}

/// A script of [`FIZZBUZZ`] whose model follows `rules` (after ending
/// each subtask once its write or run went through), with an assessor that
/// reads the code as right and two examples of the goal's.
fn fizzbuzz_script(rules: serde_json::Value) -> crate::support::fake_ollama::Script {
    let mut all = vec![
        ends_when("exit code 0", true, "it runs"),
        ends_when("Wrote ", true, "written"),
    ];
    all.extend(rules.as_array().cloned().unwrap_or_default());
    serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "fizzbuzz.py", "purpose": "fizzbuzz(n)"},
                           {"path": "test_fizzbuzz.py", "purpose": "its tests"}],
            "check": "python3 -m pytest -q"},
        "rules": all,
        "assessments": reads_fizzbuzz_right(),
        "examples": {"examples": [
            "assert fizzbuzz(3) == 'Fizz'",
            "assert fizzbuzz(15) == 'FizzBuzz'"]},
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script")
}

/// A test of a call the goal's words give the value of, that expects
/// another value, is refused, and says what the goal says: t26's
/// add-duration, in the cycle that was to make `format_duration(3725)`
/// give '1:02:05' as the goal says, wrote a test that it gives '01:02:05',
/// then fixed its tests to the code round after round.
#[test]
fn a_test_that_expects_otherwise_than_the_goals_words_is_refused() {
    let wrong = "def fizzbuzz(n):\n    return str(n)\n";
    // The cycle's first answer: a test of what the wrong code gives.
    let believed = format!("{FIZZBUZZ_TEST}\n\ndef test_three():\n    assert fizzbuzz(3) == '3'\n");
    let refused = "asserts that `fizzbuzz(3)` returns '3', and the goal says it returns 'Fizz'";
    let script = fizzbuzz_script(serde_json::json!([
        {"name": "told", "subtask": "Change fizzbuzz.py", "has": [refused],
         "reply": write_reply("fizzbuzz.py", FIZZBUZZ_RIGHT)},
        {"name": "believed", "subtask": "Change fizzbuzz.py",
         "reply": write_reply("test_fizzbuzz.py", &believed)},
        on_subtask("test_fizzbuzz.py", "write_file",
            serde_json::json!({"path": "test_fizzbuzz.py", "content": FIZZBUZZ_TEST})),
        on_subtask("fizzbuzz.py", "write_file",
            serde_json::json!({"path": "fizzbuzz.py", "content": wrong}))
    ]));
    let test = Test::new()
        .serving(script)
        .args([FIZZBUZZ, "--max-cycles", "1"]);
    let run = test.run();
    test.assert_replay_matches();
    let said = refusals(&test, runner::state::RefusalKind::AgainstGoal);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains(refused)
            && said[0].contains("write that assert as `assert fizzbuzz(3) == 'Fizz'`"),
        "{said:?}"
    );
    run.assert_code(0);
    assert_eq!(test.read("test_fizzbuzz.py"), FIZZBUZZ_TEST);
    assert_eq!(test.read("fizzbuzz.py"), FIZZBUZZ_RIGHT);
}

/// The goal's examples are asked before the plan is recorded: its writes
/// are told them, and a first test that expects otherwise is refused
/// before any assessment.
#[test]
fn the_goals_examples_are_told_to_the_plan_and_hold_the_first_tests() {
    let believed = format!("{FIZZBUZZ_TEST}\n\ndef test_three():\n    assert fizzbuzz(3) == '3'\n");
    let refused = "asserts that `fizzbuzz(3)` returns '3', and the goal says it returns 'Fizz'";
    let script = fizzbuzz_script(serde_json::json!([
        {"name": "believed", "subtask": "test_fizzbuzz.py", "lacks": [refused],
         "reply": write_reply("test_fizzbuzz.py", &believed)},
        on_subtask("test_fizzbuzz.py", "write_file",
            serde_json::json!({"path": "test_fizzbuzz.py", "content": FIZZBUZZ_TEST})),
        on_subtask("fizzbuzz.py", "write_file",
            serde_json::json!({"path": "fizzbuzz.py", "content": FIZZBUZZ_RIGHT}))
    ]));
    let test = Test::new()
        .serving(script)
        .args([FIZZBUZZ, "--max-cycles", "0"]);
    let run = test.run();
    test.assert_replay_matches();
    let plan = &tasks(&test, false)[0];
    assert!(
        plan.subtasks[0].starts_with("Write fizzbuzz.py")
            && plan.subtasks[0].ends_with(
                ". The goal says `fizzbuzz(3)` returns 'Fizz'; `fizzbuzz(15)` returns 'FizzBuzz'"
            ),
        "{:?}",
        plan.subtasks
    );
    let events: Vec<Event> = test.records().into_iter().map(|r| r.event).collect();
    let at = |found: fn(&Event) -> bool| events.iter().position(found);
    let refusal = at(
        |e| matches!(e, Event::CallRejected { error, .. } if error.contains("the goal says it returns")),
    );
    let assessed = at(|e| matches!(e, Event::Assessed { .. }));
    assert!(
        refusal.is_some() && assessed.is_some() && refusal < assessed,
        "{refusal:?} {assessed:?}"
    );
    run.assert_code(0);
    assert_eq!(test.read("test_fizzbuzz.py"), FIZZBUZZ_TEST);
}

/// A function that returns otherwise than the goal's words say, while
/// the subtask writes its module, is asked of in a question of its own:
/// the goal's call, what it returned, the function and the lines the call
/// ran, no tools. t30's add-duration model, in the cycle that was to make
/// `format_duration(3725)` return '1:02:05', sent its function back
/// unchanged round after round. Fixed by the answer, the run needs no
/// cycle.
#[test]
fn a_function_the_goals_words_show_wrong_is_asked_of_on_its_own() {
    let wrong = "def fizzbuzz(n):\n    return str(n)\n";
    let asked = "What in fizzbuzz gives '3' instead of 'Fizz'?";
    let script = fizzbuzz_script(serde_json::json!([
        {"name": "the question of its own", "has": [asked],
         "reply": {"content": format!(
             "It never checks the multiples.\n```python\n{FIZZBUZZ_RIGHT}```\n")}},
        on_subtask("test_fizzbuzz.py", "write_file",
            serde_json::json!({"path": "test_fizzbuzz.py", "content": FIZZBUZZ_TEST})),
        on_subtask("fizzbuzz.py", "write_file",
            serde_json::json!({"path": "fizzbuzz.py", "content": wrong}))
    ]));
    let test = Test::new()
        .serving(script)
        .args([FIZZBUZZ, "--max-cycles", "0"]);
    let run = test.run();
    test.assert_replay_matches();
    let questions: Vec<serde_json::Value> = test
        .server()
        .requests()
        .into_iter()
        .filter(|request| crate::support::context(request).contains(asked))
        .collect();
    assert_eq!(questions.len(), 1, "asked once: its answer fixed it");
    let question = crate::support::context(&questions[0]);
    assert!(
        question.contains(
            "The goal says `fizzbuzz(3)` returns 'Fizz', and it returned '3': the function is \
             wrong.\n\nThe function fizzbuzz, in fizzbuzz.py:\n```python\ndef fizzbuzz(n):\n    \
             return str(n)\n```"
        ) && question.contains("went through these lines of fizzbuzz.py"),
        "{question}"
    );
    assert!(
        questions[0]["tools"].as_array().is_none_or(Vec::is_empty),
        "no tools: {}",
        questions[0]["tools"]
    );
    run.assert_code(0);
    assert_eq!(test.read("fizzbuzz.py"), FIZZBUZZ_RIGHT);
    assert_eq!(test.read("test_fizzbuzz.py"), FIZZBUZZ_TEST);
}

/// A run of [`FIZZBUZZ`], with no cycle, whose model writes `fizzbuzz` as
/// `wrong` and the tests as [`FIZZBUZZ_TEST`], `rules` first.
fn fizzbuzz_written(mut rules: Vec<serde_json::Value>, wrong: &str) -> (Test, crate::support::Run) {
    rules.push(on_subtask(
        "test_fizzbuzz.py",
        "write_file",
        serde_json::json!({"path": "test_fizzbuzz.py", "content": FIZZBUZZ_TEST}),
    ));
    rules.push(on_subtask(
        "fizzbuzz.py",
        "write_file",
        serde_json::json!({"path": "fizzbuzz.py", "content": wrong}),
    ));
    let test = Test::new()
        .serving(fizzbuzz_script(serde_json::Value::Array(rules)))
        .args([FIZZBUZZ, "--max-cycles", "0"]);
    let run = test.run();
    (test, run)
}

/// The fix of a function is called with the goal's calls before it is
/// written: an answer that returns otherwise for one of them is not
/// written, and the question is asked again, warmer. t32's and t33's
/// add-duration answers kept `{hours:02d}` and were written, and the
/// next question showed the model its own wrong answer.
#[test]
fn a_functions_fix_is_called_with_the_goals_calls_before_it_is_written() {
    let wrong = "def fizzbuzz(n):\n    return str(n)\n";
    let half = "def fizzbuzz(n):\n    if n % 3 == 0:\n        return 'Fizz'\n    return str(n)\n";
    let asked = "What in fizzbuzz gives '3' instead of 'Fizz'?";
    let (test, run) = fizzbuzz_written(
        vec![
            serde_json::json!({"name": "asked again, warmer", "has": [asked],
                "min_temperature": 0.3, "reply": {"content":
                    format!("It never checks 5.\n```python\n{FIZZBUZZ_RIGHT}```\n")}}),
            serde_json::json!({"name": "asked", "has": [asked],
                "reply": {"content": format!("It never checks 3.\n```python\n{half}```\n")}}),
        ],
        wrong,
    );
    test.assert_replay_matches();
    let asked_at: Vec<usize> = test
        .server()
        .requests()
        .iter()
        .enumerate()
        .filter(|(_, request)| crate::support::context(request).contains(asked))
        .map(|(at, _)| at)
        .collect();
    assert_eq!(asked_at.len(), 2, "{}", run.stderr);
    assert_eq!(asked_at[1], asked_at[0] + 1, "asked again at once");
    let records = test.records();
    let tried: Vec<_> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::AnswersTried { path, tried, .. } => Some((path.clone(), tried.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(tried.len(), 1, "{tried:?}");
    assert_eq!(tried[0].0, "fizzbuzz.py");
    let answer = &tried[0].1[0];
    assert_eq!((answer.passed, answer.runs), (0, 1), "{answer:?}");
    assert_eq!(
        answer.wrong.as_deref(),
        Some("fizzbuzz(15) gave 'Fizz', wanted 'FizzBuzz'")
    );
    let half_hash = runner::tools::sha256_hex(half.as_bytes());
    assert!(
        !records.iter().any(|r| matches!(&r.event,
            Event::ActionStarted { write: Some(write), .. } if write.after == half_hash)),
        "the wrong answer was written"
    );
    run.assert_code(0);
    assert_eq!(test.read("fizzbuzz.py"), FIZZBUZZ_RIGHT);
}

/// A write that removes a function the goal's words say what it returns
/// is refused while no other file defines it: t32's add-duration model,
/// its fix failing, wrote timeutil.py again without `format_duration`.
#[test]
fn a_write_that_drops_a_function_of_the_goals_examples_is_refused() {
    let refused = "this change removes `fizzbuzz` from fizzbuzz.py, and the goal says \
                   `fizzbuzz(3)` returns 'Fizz': fizzbuzz must stay";
    let script = fizzbuzz_script(serde_json::json!([
        {"name": "drops it", "subtask": "test_fizzbuzz.py", "lacks": [refused],
         "reply": write_reply("fizzbuzz.py", "def other():\n    return 1\n")},
        on_subtask("test_fizzbuzz.py", "write_file",
            serde_json::json!({"path": "test_fizzbuzz.py", "content": FIZZBUZZ_TEST})),
        on_subtask("fizzbuzz.py", "write_file",
            serde_json::json!({"path": "fizzbuzz.py", "content": FIZZBUZZ_RIGHT}))
    ]));
    let test = Test::new()
        .serving(script)
        .args([FIZZBUZZ, "--max-cycles", "0"]);
    let run = test.run();
    test.assert_replay_matches();
    let said = refusals(&test, runner::state::RefusalKind::DefinitionsKept);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains(refused), "{said:?}");
    run.assert_code(0);
    assert_eq!(test.read("fizzbuzz.py"), FIZZBUZZ_RIGHT);
}

/// The rules of a model that writes textutil.py as `added` and ends each
/// subtask once its call worked.
/// An assessment's answer of the add-function goal's one requirement.
fn count_vowels_answer(met: bool, evidence: &str) -> serde_json::Value {
    serde_json::json!({"requirements": [
        {"requirement": "count_vowels(text) returns how many vowels the text has",
         "met": met, "evidence": evidence,
         "about_tests": false, "about_output": false, "command": "", "expects": ""}]})
}

/// The evidence of [`count_vowels_answer`] read off the code.
const COUNTS_THEM: &str = "def count_vowels(text) counts the vowels";

fn writes_textutil(added: &str) -> serde_json::Value {
    serde_json::json!([
        ends_when("exit code 0", true, "it runs"),
        ends_when("Wrote ", true, "written"),
        on_subtask(
            "textutil.py",
            "write_file",
            serde_json::json!({"path": "textutil.py", "content": added})
        )
    ])
}

/// An example of an empty string is tried with blanks too: a function
/// that returns for '' and raises an error no function means to raise for
/// '   ' is held wrong. t98's add-average-word returned 0 for '' and
/// raised ZeroDivisionError for a text of blanks, which has no words
/// either, and the run ended "Goal achieved".
#[test]
fn a_function_right_on_an_empty_string_and_failing_on_blanks_is_held_wrong() {
    let textutil = "def reverse(text):\n    return text[::-1]\n";
    let script = |body: &str| -> crate::support::fake_ollama::Script {
        let added = format!("{textutil}\n\ndef count_vowels(text):\n{body}");
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
                "check": "python3 textutil.py"},
            "rules": writes_textutil(&added),
            "assessments": [{"has": [], "answer": count_vowels_answer(true, COUNTS_THEM)}],
            "examples": {"examples": [
                "assert count_vowels('hello') == 2",
                "assert count_vowels('') == 0",
                "assert count_vowels('AEIOUaeiou') == 10"]},
            "returns": {"returns": ["2", "0", "10"]},
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
        }))
        .expect("script")
    };
    let held = "count_vowels returns what the goal says it returns";
    let crashing = "    if not text:\n        return 0\n    first = text.strip()[0]\n    return sum(c in 'aeiouAEIOU' for c in text)\n";
    let test = add_function(script(crashing), textutil);
    let run = test.run();
    run.assert_code(1);
    let state = test.assert_replay_matches();
    let wrong = state
        .requirements
        .iter()
        .find(|r| r.requirement == held)
        .unwrap_or_else(|| panic!("{:?}", state.requirements));
    assert!(!wrong.met);
    assert!(
        wrong
            .evidence
            .starts_with("count_vowels('   ') raised IndexError"),
        "{}",
        wrong.evidence
    );
    // The same function without the stray index: met.
    let right = "    return sum(c in 'aeiouAEIOU' for c in text)\n";
    add_function(script(right), textutil).run().assert_code(0);
}

#[test]
fn examples_the_model_answers_unsurely_do_not_hold_a_right_function_wrong() {
    // x1's add-function (`--api openai`): asked twice, the model agreed on
    // 2 of its 6 calls, both times saying `count_vowels('python')` is 2;
    // the right function was held wrong until the rounds ran out.
    let textutil = "def reverse(text):\n    return text[::-1]\n";
    let added = format!(
        "{textutil}\n\ndef count_vowels(text):\n    return sum(c in 'aeiouAEIOU' for c in text)\n"
    );
    let script_choosing = |second: [&str; 6],
                           chooses: &[&str]|
     -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
                "check": "python3 textutil.py"},
            "rules": writes_textutil(&added),
            "assessments": [{"has": [], "answer": count_vowels_answer(true, COUNTS_THEM)}],
            "examples": {"examples": [
                "assert count_vowels('hello') == 2",
                "assert count_vowels('world') == 1",
                "assert count_vowels('python') == 2",
                "assert count_vowels('') == 0",
                "assert count_vowels('AEIOUaeiou') == 10",
                "assert count_vowels('bcdfghjklmnpqrstvwxyz') == 0"]},
            "returns": {"returns": second},
            "chooses": chooses,
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
        }))
        .expect("script")
    };
    let script = |second: [&str; 6]| script_choosing(second, &[]);
    let requirement = |state: &runner::state::State, text: &str| {
        state
            .requirements
            .iter()
            .find(|r| r.requirement == text)
            .cloned()
    };
    let held = "count_vowels returns what the goal says it returns";
    let ran = "a test calls count_vowels and passes";

    // x1's second answers: 'python' and '' agreed, the rest did not.
    let unsure = add_function(script(["1", "2", "2", "0", "5", "6"]), textutil);
    let run = unsure.run();
    run.assert_code(0);
    let state = unsure.assert_replay_matches();
    assert_eq!(requirement(&state, held), None, "{:?}", state.requirements);
    // Right on the agreed call it returns: it ran, and ran right.
    assert_eq!(requirement(&state, ran), None, "{:?}", state.requirements);

    // Sure answers (5 of 6 agreed), both wrong on 'python': no value is
    // the goal's word (it gives none), so the one the function returns
    // otherwise leaves them all out. The function is not held wrong; it
    // is not shown run either, so a test that calls it must pass (n1's
    // add-function was held wrong on `count_vowels('Python') == 2`).
    let sure = add_function(script(["2", "1", "2", "0", "10", "6"]), textutil);
    let run = sure.run();
    run.assert_code(1);
    let state = sure.assert_replay_matches();
    assert_eq!(requirement(&state, held), None, "{:?}", state.requirements);
    let unrun = requirement(&state, ran).expect("nothing ran it");
    assert!(!unrun.met, "{unrun:?}");

    // The same answers where the function returns each: it ran, and ran
    // right, with no test.
    let agreeing = add_function(script(["2", "1", "1", "0", "10", "6"]), textutil);
    agreeing.run().assert_code(0);

    // t66's second answers (`--api openai`): half agreed, 'python' among
    // them, and the model stood by its 2 when asked which the call
    // returns. The right function was held wrong, and the model made it
    // count one vowel too many. Half is too unsure to hold it to.
    let half = add_function(
        script_choosing(["2", "3", "2", "0", "5", "6"], &["2"]),
        textutil,
    );
    let run = half.run();
    run.assert_code(0);
    let state = half.assert_replay_matches();
    assert_eq!(requirement(&state, held), None, "{:?}", state.requirements);
}

/// A model that adds a `count_vowels` counting lower-case vowels only
/// ('AEIOUaeiou' gives 5), checks with `check`, states `examples`; `more`
/// adds to the script.
fn lower_vowels_script(
    check: &str,
    examples: &[&str],
    more: serde_json::Value,
) -> crate::support::fake_ollama::Script {
    let added = format!(
        "{TEXTUTIL}\n\ndef count_vowels(text):\n    return sum(c in 'aeiou' for c in text)\n"
    );
    let mut script = serde_json::json!({
        "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
            "check": check},
        "rules": writes_textutil(&added),
        "assessments": [{"has": [], "answer": count_vowels_answer(true, COUNTS_THEM)}],
        "examples": {"examples": examples},
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": check}}]}
    });
    for (key, value) in more.as_object().into_iter().flatten() {
        script[key] = value.clone();
    }
    serde_json::from_value(script).expect("script")
}

/// t37's mathkit: a wrong function whose passing tests assert only what
/// it gets right ended "Goal achieved", the model's own example that it
/// failed left out as the model's working out. Asked which of the two
/// values the call returns, each put first once, a model that chooses its
/// own both times holds the function wrong; one that picks whatever comes
/// first leaves the example out, as before.
#[test]
fn a_function_wrong_on_an_example_the_model_stands_by_is_not_goal_achieved() {
    let tests = "from textutil import count_vowels\n\n\ndef test_lower():\n    assert count_vowels('hello') == 2\n";
    let script = |chooses: &[&str]| {
        lower_vowels_script(
            "python3 -m pytest -q",
            &[
                "assert count_vowels('hello') == 2",
                "assert count_vowels('world') == 1",
                "assert count_vowels('AEIOUaeiou') == 10",
                "assert count_vowels('') == 0",
            ],
            serde_json::json!({"chooses": chooses}),
        )
    };
    let held = "count_vowels returns what the goal says it returns";
    let stands = add_function(script(&["10"]), TEXTUTIL).file("test_textutil.py", tests);
    let run = stands.run();
    run.assert_code(1);
    let state = stands.assert_replay_matches();
    let unmet = naming(&state.requirements, held);
    assert!(
        !unmet.met && unmet.evidence.contains("'AEIOUaeiou'"),
        "{unmet:?}"
    );
    assert_eq!(state.settled.len(), 1, "{:?}", state.settled);
    assert!(state.settled[0].held, "{:?}", state.settled);

    let first = add_function(script(&[]), TEXTUTIL).file("test_textutil.py", tests);
    first.run().assert_code(0);
    let state = first.assert_replay_matches();
    assert!(!state.settled[0].held, "{:?}", state.settled);
}

/// t80's wordplay: the model said twice that a call returns what its own
/// wrong reading of the goal gives, and wrote the function so; its tests
/// and the assessment agreed, and the run ended "Goal achieved". Asked
/// for the function alone, from the goal's words, it writes it right:
/// where two such writings agree on a call, the function is held to
/// their value, as to the goal's own word; where the first two disagree,
/// a third decides; where none agree, the model's answers stand.
#[test]
fn a_function_held_to_what_two_writings_of_it_agree_on() {
    let right =
        "def count_vowels(text):\n    return sum(1 for c in text.lower() if c in 'aeiou')\n";
    let lower = "def count_vowels(text):\n    return len([c for c in text if c in 'aeiou'])\n";
    // The model says 'AEIOUaeiou' gives 5, as the function does.
    let script = |writes: &[&str]| {
        lower_vowels_script(
            "python3 textutil.py",
            &[
                "assert count_vowels('hello') == 2",
                "assert count_vowels('AEIOUaeiou') == 5",
            ],
            serde_json::json!({"writes": writes}),
        )
    };
    let held = "count_vowels returns what the goal says it returns";

    let agreeing = add_function(script(&[right, right]), TEXTUTIL);
    let run = agreeing.run();
    run.assert_code(1);
    let state = agreeing.assert_replay_matches();
    let examples = state.examples.clone().unwrap_or_default();
    let written: Vec<(&str, &str)> = examples
        .iter()
        .filter(|e| e.written)
        .map(|e| (e.call.as_str(), e.returns[0].as_str()))
        .collect();
    assert_eq!(
        written,
        [
            ("count_vowels('hello')", "2"),
            ("count_vowels('AEIOUaeiou')", "10")
        ],
        "{examples:?}"
    );
    let unmet = naming(&state.requirements, held);
    assert!(
        !unmet.met
            && unmet
                .evidence
                .contains("count_vowels('AEIOUaeiou') returned 5"),
        "{unmet:?}"
    );
    // Its history says what the writings agreed on, for `cat`.
    let history = agreeing.read(".agent_context/history.jsonl");
    assert!(history.contains("\"written\":true"), "{history}");

    // Writings asked of the model's server.
    let writings = |test: &Test| {
        let requests = test.server().requests();
        let writing = |r: &&serde_json::Value| {
            r["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.contains("Write the one function asked for"))
        };
        requests.iter().filter(writing).count()
    };
    assert_eq!(writings(&agreeing), 2, "two that agree are enough");

    // The first two disagree on a call: a third writing decides it.
    let decided = add_function(script(&[right, lower, right]), TEXTUTIL);
    decided.run().assert_code(1);
    let state = decided.assert_replay_matches();
    let examples = state.examples.clone().unwrap_or_default();
    let written: Vec<bool> = examples.iter().map(|e| e.written).collect();
    assert_eq!(written, [true, true], "{examples:?}");
    assert_eq!(writings(&decided), 3);

    // Writings that disagree on a call hold nothing there: the model's
    // answer stands, and the function returns it.
    let split = add_function(script(&[right, lower]), TEXTUTIL);
    split.run().assert_code(0);
    let state = split.assert_replay_matches();
    let examples = state.examples.clone().unwrap_or_default();
    let written: Vec<bool> = examples.iter().map(|e| e.written).collect();
    assert_eq!(written, [true, false], "{examples:?}");

    // No writing (a model that answers with no code): as before.
    let none = add_function(script(&[]), TEXTUTIL);
    none.run().assert_code(0);
}

/// p1's add-function (`--api openai`): the assessment called a right
/// `count_vowels` met, shown by running textutil.py, a library that prints
/// nothing; held to tests the goal never asked for, the run spent a cycle
/// writing them. Right on each of the goal's examples, it is met; wrong on
/// one, it is not.
#[test]
fn a_library_function_right_on_the_goal_s_examples_is_met_without_tests() {
    let script = |added: String| -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
                "check": "python3 textutil.py"},
            "rules": writes_textutil(&added),
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has",
                 "met": true, "evidence": "def count_vowels(text) is defined",
                 "about_tests": true, "about_output": false,
                 "command": "python3 textutil.py", "expects": ""}]}}],
            "examples": {"examples": [
                "assert count_vowels('hello') == 2",
                "assert count_vowels('sky') == 0"]},
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
        }))
        .expect("script")
    };
    let right = add_function(script(with_count_vowels()), TEXTUTIL);
    let run = right.run();
    run.assert_code(0);
    let state = right.assert_replay_matches();
    assert!(
        state.requirements.iter().all(|r| r.met),
        "{:?}",
        state.requirements
    );
    assert!(
        state.requirements[0]
            .evidence
            .starts_with("called on the goal's examples: count_vowels('hello') returned 2"),
        "{:?}",
        state.requirements
    );
    assert!(!right.workspace.join("test_textutil.py").exists());
    // Counting every letter: wrong on 'hello', still held to tests.
    let counts_letters = format!("{TEXTUTIL}\n\ndef count_vowels(text):\n    return len(text)\n");
    let wrong = add_function(script(counts_letters), TEXTUTIL);
    wrong.run().assert_code(1);
    let state = wrong.assert_replay_matches();
    assert!(
        !state.requirements[0].met && state.requirements[0].about_tests,
        "{:?}",
        state.requirements
    );
}

/// t56's add-oldest: asked from the goal alone, the model called
/// `oldest(['Alice', 'Bob', 'Charlie'])` where people.py's people are
/// records, and a right `oldest` that raised TypeError on it was held
/// wrong for the rest of the run. The examples question shows the file
/// the goal names as it was before the run, and a call that raised on
/// arguments the goal's words do not give is left out; one on the goal's
/// own arguments still holds the function wrong.
#[test]
fn a_call_that_raises_on_arguments_the_model_made_up_does_not_hold_a_function_wrong() {
    let script = |added: String, examples: &[&str]| -> crate::support::fake_ollama::Script {
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
                "check": "python3 textutil.py"},
            "rules": writes_textutil(&added),
            "assessments": [{"has": [], "answer": count_vowels_answer(true, COUNTS_THEM)}],
            "examples": {"examples": examples},
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
        }))
        .expect("script")
    };
    let held = "count_vowels returns what the goal says it returns";
    let ran = |added: String, example: &str, code: i32| {
        let test = add_function(
            script(added, &["assert count_vowels('hello') == 2", example]),
            TEXTUTIL,
        );
        test.run().assert_code(code);
        let state = test.assert_replay_matches();
        (test, state)
    };
    // 42 is no word of the goal: `count_vowels(42)` raises TypeError.
    let (made_up, state) = ran(with_count_vowels(), "assert count_vowels(42) == 0", 0);
    assert!(
        state
            .requirements
            .iter()
            .all(|r| r.met && r.requirement != held),
        "{:?}",
        state.requirements
    );
    // The question showed textutil.py as it was before the run.
    let asked = asked_of(
        &made_up,
        "write Python asserts of what `count_vowels` must return",
    );
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains(&format!(
            "textutil.py, as it was before this run:\n```\n{}",
            TEXTUTIL.trim_end()
        )),
        "{}",
        asked[0]
    );
    // 'vowels' is the goal's word: a function that raises on it is held
    // wrong.
    let knows_hello =
        format!("{TEXTUTIL}\n\ndef count_vowels(text):\n    return {{'hello': 2}}[text]\n");
    let (_, state) = ran(knows_hello, "assert count_vowels('vowels') == 2", 1);
    let unmet = state.requirements.iter().find(|r| r.requirement == held);
    assert!(
        unmet.is_some_and(|r| !r.met
            && r.evidence
                .contains("count_vowels('vowels') raised KeyError")),
        "{:?}",
        state.requirements
    );
}

/// t57's add-oldest: three assessments in a row called a right function
/// unmet on "The output of `python3 people.py` is `None`.", for a check
/// that exited 0 printing nothing. Told what the check printed, the model
/// answers again.
#[test]
fn an_assessment_that_quotes_an_output_a_check_never_printed_is_asked_again() {
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
            "check": "python3 textutil.py"},
        "rules": writes_textutil(&with_count_vowels()),
        "assessments": [
            {"has": ["but that check printed nothing (exit code 0)"],
             "answer": count_vowels_answer(true, COUNTS_THEM)},
            {"has": [], "answer": count_vowels_answer(false, "The output of `python3 textutil.py` is `None`.")}
        ],
        "examples": {"examples": ["assert count_vowels('hello') == 2"]},
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
    }))
    .expect("script");
    let test = add_function(script, TEXTUTIL);
    test.run().assert_code(0);
    let state = test.assert_replay_matches();
    assert!(
        state.requirements.iter().all(|r| r.met),
        "{:?}",
        state.requirements
    );
}

#[test]
fn a_plan_check_that_only_wanted_arguments_counts_when_something_else_ran_the_code() {
    // u2 (`--api openai`): a right fizzbuzz and tests that passed ended
    // "not achieved" for the plan's `python3 fizzbuzz.py`, whose
    // `__main__` counted up to `sys.argv[1]`.
    let program = "import sys\n\n\ndef fizzbuzz(n):\n    if n % 15 == 0:\n        return 'FizzBuzz'\n    \
                   if n % 3 == 0:\n        return 'Fizz'\n    if n % 5 == 0:\n        return 'Buzz'\n    \
                   return str(n)\n\n\nif __name__ == '__main__':\n    for i in range(1, int(sys.argv[1]) + 1):\n        \
                   print(fizzbuzz(i))\n";
    let test_file =
        "from fizzbuzz import fizzbuzz\n\n\ndef test_three():\n    assert fizzbuzz(3) == 'Fizz'\n";
    let script = |tasks: serde_json::Value, examples: serde_json::Value| {
        serde_json::from_value::<crate::support::fake_ollama::Script>(serde_json::json!({
            "plan": {"tasks": tasks, "check": "python3 fizzbuzz.py"},
            "rules": [
                ends_when("exit code 0", true, "it runs"),
                ends_when("Wrote ", true, "written"),
                ends_when("IndexError", false, "it needs a number"),
                on_subtask("Run `python3 fizzbuzz.py`", "run_cmd",
                    serde_json::json!({"cmd": "python3 fizzbuzz.py"})),
                on_subtask("Write test_fizzbuzz.py", "write_file",
                    serde_json::json!({"path": "test_fizzbuzz.py", "content": test_file})),
                on_subtask("Write fizzbuzz.py", "write_file",
                    serde_json::json!({"path": "fizzbuzz.py", "content": program}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "fizzbuzz.py plays FizzBuzz", "met": true,
                 "evidence": "def fizzbuzz(n)", "about_tests": false,
                 "about_output": false, "command": "", "expects": ""}]}}],
            "examples": examples,
            "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 -m pytest -q"}}]}
        }))
        .expect("script")
    };
    let bare = |test: &Test| {
        test.records()
            .into_iter()
            .filter_map(|r| match r.event {
                Event::Checked { checks } => Some(checks),
                _ => None,
            })
            .flatten()
            .find(|check| check.command == "python3 fizzbuzz.py")
            .expect("the plan's check ran at the end")
    };

    // Its tests passed and the goal's examples held: the bare run says
    // nothing against the work.
    let tested = Test::new()
        .serving(script(
            // u2's plan: its tests are split into a subtask of their own.
            serde_json::json!([{"path": "fizzbuzz.py",
                                "purpose": "Write the fizzbuzz function and its tests"}]),
            serde_json::json!({"examples": ["assert fizzbuzz(15) == 'FizzBuzz'"]}),
        ))
        .args([
            "Write fizzbuzz.py with a function fizzbuzz(n) that returns 'Fizz' for multiples of \
             3, 'Buzz' for multiples of 5, 'FizzBuzz' for both, else the number as a string; \
             add pytest tests for it",
            "--max-cycles",
            "0",
        ]);
    let run = tested.run();
    run.assert_code(0);
    let check = bare(&tested);
    assert!(
        check.wants_arguments && check.exit_code == Some(1),
        "{check:?}"
    );
    // What the user is told says how it ended: neither "failed" nor "passed".
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains(
            "check `python3 fizzbuzz.py` stopped for the arguments it reads (exit code 1"
        ) && !said.contains("`python3 fizzbuzz.py` failed"),
        "{said}"
    );
    let reason = tested
        .records()
        .into_iter()
        .find_map(|r| match r.event {
            Event::RunEnded { reason, .. } => Some(reason),
            _ => None,
        })
        .expect("the run ended");
    assert!(
        reason.contains("`python3 fizzbuzz.py` stopped for the arguments it reads")
            && !reason.contains("`python3 fizzbuzz.py` passed"),
        "{reason}"
    );
    tested.assert_replay_matches();
    // Said so, not as a failure.
    let status = tested.run_alone(&["status"]).stdout;
    assert!(
        status.contains("`python3 fizzbuzz.py` stopped for the arguments it reads"),
        "{status}"
    );
    let history = tested.run_alone(&["history"]).stdout;
    assert!(
        history.contains("exit code 1 (it wanted its arguments: not counted)"),
        "{history}"
    );

    // Nothing else ran its code (no test, no function the goal calls): the
    // run is unmet, about the program.
    let untested = Test::new()
        .serving(script(
            serde_json::json!([{"path": "fizzbuzz.py", "purpose": "the game"}]),
            serde_json::json!({"examples": []}),
        ))
        .args(["Write fizzbuzz.py, the FizzBuzz game", "--max-cycles", "0"]);
    let run = untested.run();
    run.assert_code(1);
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    assert!(bare(&untested).wants_arguments);
    let state = untested.assert_replay_matches();
    let unmet = state
        .requirements
        .iter()
        .find(|r| r.requirement == "`python3 fizzbuzz.py` runs")
        .expect("the run is a requirement");
    assert!(!unmet.met, "{unmet:?}");
    assert_eq!(unmet.file.as_deref(), Some("fizzbuzz.py"));
}

/// Definitions alone written over a program are put in beside what it
/// runs: x5's cli-flag (Ollama API) wrote `greeting` and `main`, twice,
/// over greet.py without its `__main__` block; refused for running
/// nothing, it put that block inside `greeting`.
#[test]
fn definitions_alone_over_a_program_keep_what_it_runs() {
    let start = GREET_ARGV;
    let main = "def main(argv):\n    name = argv[1] if len(argv) > 1 else 'world'\n    print(greeting(name, '--shout' in argv))\n";
    let defs = format!(
        "import sys\n\n\ndef greeting(name, shout=False):\n    if shout:\n        return f'HELLO, {{name}}!'\n    else:\n        return f'Hello, {{name}}!'\n\n\n{main}\n\n{main}"
    );
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "add a --shout flag"}],
            "check": "python3 greet.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            on_subtask("greet.py", "write_file", serde_json::json!({"path": "greet.py", "content": defs}))
        ],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py"}}]}
    }))
    .expect("script");
    let test = Test::new().serving(script).file("greet.py", start).args([
        "Change greet.py so that it takes an optional --shout flag",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    test.assert_replay_matches();
    assert_eq!(test.refusals(), Vec::<String>::new(), "{}", run.stderr);
    let now = test.read("greet.py");
    assert!(
        now.ends_with(&format!(
            "{main}\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n"
        )),
        "{now}"
    );
    assert!(now.contains("def greeting(name, shout=False):"), "{now}");
    assert_eq!(now.matches("def main").count(), 1, "{now}");
}

/// A write the language mends (a string closed with the other quote) and
/// that then is definitions alone over the project's file is put in beside
/// what the file holds, and reviewed so: x3's add-function (Ollama API)
/// gave `count_vowels` with `reverse`'s body in place of `reverse`, and a
/// `'!"`; mended, the write was refused six times for dropping `reverse`,
/// never told that its `count_vowels` was a copy of it.
#[test]
fn a_mended_write_of_definitions_alone_is_put_in_beside_the_files_own() {
    let textutil = "def reverse(text):\n    \"\"\"The text backwards.\"\"\"\n    return text[::-1]\n\n\ndef shout(text):\n    \"\"\"The text in capitals with an exclamation mark.\"\"\"\n    return text.upper() + \"!\"\n";
    let renamed = "def count_vowels(text):\n    \"\"\"The text backwards.\"\"\"\n    return text[::-1]\n\n\n\ndef shout(text):\n    \"\"\"The text in capitals with an exclamation mark.\"\"\"\n    return text.upper() + '!\"\n\n\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "textutil.py", "purpose": "add count_vowels"}],
            "check": "python3 textutil.py"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            on_subtask("textutil.py", "write_file", serde_json::json!({"path": "textutil.py", "content": renamed}))
        ],
        "otherwise": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 textutil.py"}}]}
    }))
    .expect("script");
    let test = add_function(script, textutil);
    test.run();
    test.assert_replay_matches();
    let refused = test.refusals();
    assert!(
        refused.first().is_some_and(|e| e.contains(
            "`count_vowels` (line 11 of textutil.py) would do exactly \
                                        what `reverse` (line 1) does"
        )),
        "{refused:?}"
    );
    assert_eq!(test.read("textutil.py"), textutil, "nothing written");
}

/// A change that wires the goal's option and still reads the program's
/// arguments by position is not done at the first claim: e1's cli-flag
/// runs of Qwen2.5-Coder 1.5B gave `greeting` its `shout` and `main` the
/// call, kept `name = argv[1]`, and `greet.py --shout Ann` printed
/// `HELLO, --SHOUT!`. The run after the write shows the option printed
/// back, and the refusal writes out the edit that leaves options out of the
/// arguments; a model that copies it is done. Refused once a subtask: a
/// model that means it claims again and that claim stands.
#[test]
fn a_change_whose_program_takes_the_option_for_an_argument_is_not_done_at_the_first_claim() {
    let start = GREET_ARGV;
    let taking = start
        .replace(
            "def greeting(name):\n    return f\"Hello, {name}!\"",
            "def greeting(name, shout=False):\n    text = f\"Hello, {name}!\"\n    return text.upper() if shout else text",
        )
        .replace(
            "    print(greeting(name))",
            "    print(greeting(name, shout=\"--shout\" in argv))",
        );
    let old = "    name = argv[1] if len(argv) > 1 else \"world\"";
    let new = "    positional = [arg for arg in argv if not arg.startswith('-')]\n    name = positional[1] if len(positional) > 1 else \"world\"";
    let run_with = |told: serde_json::Value| {
        flag_change(
            Some(start),
            &taking,
            told,
            runner::state::RefusalKind::OptionTaken,
        )
    };
    let copied = serde_json::json!({"tool_calls": [{"name": "edit_file",
        "arguments": {"path": "greet.py", "old": old, "new": new}}]});
    let (test, run, refused) = run_with(copied);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].starts_with(
            "not accepted yet: after your last change, `python3 greet.py --shout` printed \
             \"HELLO, --SHOUT!\": it printed --shout back"
        ),
        "{refused:?}"
    );
    let call = serde_json::json!({"name": "edit_file",
        "arguments": {"path": "greet.py", "old": old, "new": new}});
    let written_out = format!(
        "greet.py reads its arguments by position at line 10, --shout among them: make this call, \
         which leaves the options out of them: {{\"name\": \"edit_file\", \"arguments\": \
         {{\"path\": \"greet.py\", \"old\": {}, \"new\": {}}}}}",
        call["arguments"]["old"], call["arguments"]["new"]
    );
    assert!(refused[0].contains(&written_out), "{refused:?}");
    // The write's own result said it first.
    let results = write_results(&test);
    assert!(results[0].contains(&written_out), "{results:?}");
    assert_eq!(test.read("greet.py"), taking.replace(old, new));
    assert_eq!(shouts(&test), "HELLO, ANN!");
    test.assert_replay_matches();
    // Claimed again as it is: the runner makes the edit it gave in place
    // of the claim (t18's sumargs-avg claimed again at once and never made
    // it), says so, and the next claim stands.
    let again = serde_json::json!({"tool_calls": [{"name": "mark_subtask_complete",
        "arguments": {"success": true, "reason": "it must print it"}}]});
    let (test, run, refused) = run_with(again);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].ends_with("Marked complete again without it, the edit is made for you."),
        "{refused:?}"
    );
    assert_eq!(test.read("greet.py"), taking.replace(old, new));
    let made = test
        .records()
        .into_iter()
        .filter_map(|r| match r.event {
            Event::ActionFinished { outcome, .. }
                if outcome
                    .result
                    .starts_with("Not accepted yet: the edit you were given") =>
            {
                Some(outcome.result)
            }
            _ => None,
        })
        .collect::<Vec<_>>();
    assert_eq!(made.len(), 1, "{}", run.stderr);
    assert!(
        made[0].contains("made it for you. Edited greet.py: replaced 1 line(s) with 2 line(s)"),
        "{made:?}"
    );
    test.assert_replay_matches();
    let ended = test
        .records()
        .into_iter()
        .filter(|r| matches!(r.event, Event::SubtaskEnded { success: true, .. }))
        .count();
    assert_eq!(ended, 2, "{}", run.stderr);
}

/// A change whose argument parser is given the whole command line (t37's
/// join-sep: `parser.parse_args(argv)` of `main(sys.argv)`) reads the
/// program's own path as its first argument: `python3 greet.py`, which
/// greeted the world before the run, greets `greet.py`. The refusal of the
/// claim writes out the edit that gives the parser the arguments after the
/// path, and a model that claims again as it is gets it made.
#[test]
fn a_parser_given_the_programs_own_path_is_given_the_edit_that_leaves_it_out() {
    let change = "import argparse\nimport sys\n\n\ndef greeting(name, shout=False):\n    text = f\"Hello, {name}!\"\n    return text.upper() if shout else text\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument('name', nargs='?', default='world')\n    parser.add_argument('--shout', action='store_true')\n    args = parser.parse_args(argv)\n    print(greeting(args.name, shout=args.shout))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    let (old, new) = (
        "    args = parser.parse_args(argv)",
        "    args = parser.parse_args(argv[1:])",
    );
    let (test, run, refused) =
        claimed_again(GREET_ARGV, change, runner::state::RefusalKind::KeptBroken);
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    let call = format!(
        "{{\"name\": \"edit_file\", \"arguments\": {{\"path\": \"greet.py\", \"old\": {old:?}, \
         \"new\": {new:?}}}}}"
    );
    assert!(
        refused[0].contains("printed \"Hello, greet.py!\"")
            && refused[0].contains(&format!(
                "greet.py gives its argument parser the whole command line at line 14, its own \
                 path first, and the parser reads that path as an argument: make this call, \
                 which gives it the arguments after the path: {call}"
            ))
            && refused[0].ends_with("Marked complete again without it, the edit is made for you."),
        "{refused:?}"
    );
    // The write's own result said it first.
    let results = write_results(&test);
    assert!(
        results[0].contains(&format!(
            "which gives it the arguments after the path: {call}"
        )),
        "{results:?}"
    );
    assert_eq!(test.read("greet.py"), change.replace(old, new));
    assert_eq!(shouts(&test), "HELLO, ANN!");
    test.assert_replay_matches();
}

/// What the workspace's greet.py prints for `--shout Ann`.
fn shouts(test: &Test) -> String {
    let shouted = std::process::Command::new("python3")
        .arg(test.workspace.join("greet.py"))
        .args(["--shout", "Ann"])
        .output()
        .expect("python3");
    String::from_utf8_lossy(&shouted.stdout).trim().to_string()
}

/// greet.py with a `greeting` function and a `main` that reads its
/// argument by position.
const GREET_ARGV: &str = "import sys\n\n\ndef greeting(name):\n    return f\"Hello, {name}!\"\n\n\ndef main(argv):\n    name = argv[1] if len(argv) > 1 else \"world\"\n    print(greeting(name))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";

/// A run of "Change greet.py so that it takes an optional --shout flag"
/// over `start` (none: an empty folder) whose model writes `change`, runs
/// `python3 greet.py Ann`, answers a refusal with `told` and marks
/// anything else done; and the refusals of `kind` it met.
fn flag_change(
    start: Option<&str>,
    change: &str,
    told: serde_json::Value,
    kind: runner::state::RefusalKind,
) -> (Test, crate::support::Run, Vec<String>) {
    // Asked on its own what makes greet.py print otherwise (see
    // `a_program_that_prints_otherwise_than_it_must_is_asked_of_on_its_own`),
    // the model answers as it does when told: the file it writes as the
    // answer's block.
    let answer = match told["tool_calls"][0]["arguments"]["content"].as_str() {
        Some(content) => serde_json::json!({"content": format!(
            "Wrong: it fails.\n```python\n{content}```\n")}),
        None => told.clone(),
    };
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add the flag", "subtasks": [
            "Change greet.py: add a --shout flag that prints the greeting in capitals",
            "Run `python3 greet.py Ann`"]}]},
        "rules": [
            {"name": "asked on its own", "has": ["greet.py must work so"], "reply": answer},
            {"name": "asked on its own, the goal", "has": ["greet.py must do what this goal asks"],
             "reply": answer},
            {"name": "told why not", "last_tool": "not accepted yet", "reply": told},
            {"name": "the change", "subtask": "Change greet.py", "lacks": ["shout=False"],
             "reply": write_reply("greet.py", change)},
            {"name": "the check", "subtask": "Run `python3 greet.py Ann`",
             "lacks": ["exit code 0"], "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 greet.py Ann"}}]}},
            {"name": "anything else is done", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "done"}}]}}
        ]
    }))
    .expect("script");
    let mut test = Test::new().serving(script);
    if let Some(start) = start {
        test = test.file("greet.py", start);
    }
    let test = test.args([
        "Change greet.py so that it takes an optional --shout flag",
        "--max-cycles",
        "0",
    ]);
    let run = test.run();
    let refused = refusals(&test, kind);
    (test, run, refused)
}

/// greet.py as a project has it before a cli-flag goal: it greets the world.
const GREET_WORLD: &str = "import sys\n\n\ndef greeting(name):\n    return f\"Hello, {name}!\"\n\n\ndef main():\n    print(greeting(\"world\"))\n\n\nif __name__ == \"__main__\":\n    main()\n";

/// [`flag_change`] whose model, refused, marks the subtask complete again
/// (it means the change as it is).
fn claimed_again(
    start: &str,
    change: &str,
    kind: runner::state::RefusalKind,
) -> (Test, crate::support::Run, Vec<String>) {
    let again = serde_json::json!({"tool_calls": [{"name": "mark_subtask_complete",
        "arguments": {"success": true, "reason": "it is meant so"}}]});
    flag_change(Some(start), change, again, kind)
}

/// The results of the run's `write_file` calls that wrote.
fn write_results(test: &Test) -> Vec<String> {
    test.results(|outcome| outcome.result.starts_with("Wrote "))
}

/// A change after which the program run with the goal's option prints what
/// it prints without it is not done at the first claim: f1's cli-flag
/// marked its change done with `greet.py --shout` printing `Hello, world!`,
/// as `greet.py` did. Told so, the model makes the option do something;
/// one that means it claims again and that claim stands.
#[test]
fn a_change_after_which_the_option_changes_nothing_is_not_done_at_the_first_claim() {
    let start = GREET_WORLD;
    let ignoring = start
        .replace("def greeting(name):", "def greeting(name, shout=False):")
        .replace(
            "greeting(\"world\")",
            "greeting(\"world\", shout=\"--shout\" in sys.argv)",
        );
    let shouting = ignoring.replace(
        "    return f\"Hello, {name}!\"",
        "    text = f\"Hello, {name}!\"\n    return text.upper() if shout else text",
    );
    let (test, run, refused) = flag_change(
        Some(start),
        &ignoring,
        write_reply("greet.py", &shouting),
        runner::state::RefusalKind::OptionIgnored,
    );
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert_eq!(
        refused[0],
        "not accepted yet: after your last change, `python3 greet.py --shout` printed \"Hello, \
         world!\", what `python3 greet.py` prints without --shout: --shout changes nothing yet. \
         Make greet.py do what the goal asks when it is run with --shout, then mark the subtask \
         complete. If it must print the same, mark the subtask complete again."
    );
    assert!(
        write_results(&test)[0].contains(
            "After this change, `python3 greet.py --shout` printed \"Hello, world!\", what \
             `python3 greet.py` prints without --shout: --shout changes nothing yet"
        ),
        "{:?}",
        write_results(&test)
    );
    assert_eq!(test.read("greet.py"), shouting);
    test.assert_replay_matches();
    let (test, run, refused) =
        claimed_again(start, &ignoring, runner::state::RefusalKind::OptionIgnored);
    assert_eq!(refused.len(), 2, "{}", run.stderr);
    assert_eq!(test.read("greet.py"), ignoring);
}

/// A change after which a program that ran before the plan fails is not
/// done at the first claim: l3's cli-flag marked its change done with
/// `greet.py` raising NameError, and only the check after it found that.
/// Told so, the model fixes it; one that means it claims again and that
/// claim stands.
#[test]
fn a_change_after_which_a_program_that_ran_fails_is_not_done_at_the_first_claim() {
    let start = GREET_WORLD;
    let shouting = start
        .replace(
            "def greeting(name):\n    return f\"Hello, {name}!\"",
            "def greeting(name, shout=False):\n    text = f\"Hello, {name}!\"\n    return text.upper() if shout else text",
        )
        .replace(
            "greeting(\"world\")",
            "greeting(\"world\", shout=\"--shout\" in sys.argv)",
        );
    // Without arguments, `sys.argv[1]` raises IndexError.
    let broken = shouting.replace("\"--shout\" in sys.argv", "sys.argv[1] == \"--shout\"");
    let (test, run, refused) = flag_change(
        Some(start),
        &broken,
        write_reply("greet.py", &shouting),
        runner::state::RefusalKind::KeptBroken,
    );
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].starts_with(
            "not accepted yet: after your last change, `python3 greet.py` fails (exit code 1)"
        ) && refused[0].contains("IndexError")
            && refused[0].ends_with(
                "before this run it printed \"Hello, world!\", and the goal does not ask to \
                 change that: make it print that again. Fix greet.py, then mark the subtask \
                 complete. If the goal asks that it no longer print that, mark the subtask \
                 complete again."
            ),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("greet.py"), shouting);
    test.assert_replay_matches();
    let (test, run, refused) =
        claimed_again(start, &broken, runner::state::RefusalKind::KeptBroken);
    // Once a subtask: the change's and the check's.
    assert_eq!(refused.len(), 2, "{}", run.stderr);
    assert_eq!(test.read("greet.py"), broken);
    // Passing, but printing otherwise: o2's cli-flag dropped "Hello, ",
    // and its claim stood.
    let reworded = shouting.replace("text = f\"Hello, {name}!\"", "text = f\"{name}!\"");
    let (test, run, refused) = flag_change(
        Some(start),
        &reworded,
        write_reply("greet.py", &shouting),
        runner::state::RefusalKind::KeptBroken,
    );
    assert_eq!(refused.len(), 1, "{}", run.stderr);
    assert!(
        refused[0].starts_with(
            "not accepted yet: after your last change, `python3 greet.py` printed \"world!\"; \
             before this run it printed \"Hello, world!\""
        ),
        "{}",
        refused[0]
    );
    // The line that printed it is gone, its text with it (t41's
    // greet-shout made both branches shout, four times): it is quoted.
    assert!(
        refused[0].contains(
            "Before this run, that came from line 5 of greet.py, `return f\"Hello, {name}!\"`, \
             which greet.py no longer has: put that line back where the program runs as it did \
             then. Fix greet.py, then mark"
        ),
        "{}",
        refused[0]
    );
    assert_eq!(test.read("greet.py"), shouting);
}

/// A plan that changes greet.py for a --shout flag, then runs `python3
/// greet.py`; `rules` first among the model's, which runs that check and
/// marks anything else done.
fn adds_the_flag(rules: Vec<serde_json::Value>) -> crate::support::fake_ollama::Script {
    let mut all = rules;
    all.push(
        serde_json::json!({"name": "the check", "subtask": "Run `python3",
        "lacks": ["exit code 0"], "reply": {"tool_calls": [{"name": "run_cmd",
            "arguments": {"cmd": "python3 greet.py"}}]}}),
    );
    all.push(
        serde_json::json!({"name": "anything else is done", "reply": {"tool_calls": [{
        "name": "mark_subtask_complete", "arguments": {"success": true, "reason": "done"}}]}}),
    );
    serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Add the flag", "subtasks": [
            "Change greet.py: add a --shout flag that prints the greeting in capitals",
            "Run `python3 greet.py`"]}]},
        "rules": all
    }))
    .expect("script")
}

/// What the goal's option must make a program print is asked of the model
/// from the goal's words and what the program printed before the run,
/// twice, and held against the run: g1's cli-flag assessment was shown
/// `greet.py --shout` printing `HELLO, world!`, called it "the greeting in
/// capitals", and the run ended "Goal achieved". Here the assessment says
/// every requirement is met; the two answers agree on `HELLO, WORLD!`, the
/// run prints `HELLO, world!`: a cycle, whose change makes it so. With no
/// cycle left, not achieved; an answer that is the output before the run
/// is no answer; answers that disagree bring a third, and when the three
/// disagree the output must be one of them.
#[test]
fn an_option_is_held_to_what_the_goal_says_it_prints_not_to_what_the_model_read() {
    let half = "import sys\n\n\ndef greeting(name, shout=False):\n    if shout:\n        return f\"HELLO, {name}!\"\n    return f\"Hello, {name}!\"\n\n\ndef main(argv):\n    positional = [arg for arg in argv if not arg.startswith('-')]\n    name = positional[1] if len(positional) > 1 else \"world\"\n    print(greeting(name, shout=\"--shout\" in argv))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    let whole = half.replace(
        "return f\"HELLO, {name}!\"",
        "return f\"Hello, {name}!\".upper()",
    );
    let run = |answers: serde_json::Value, cycles: &str| {
        let mut script = adds_the_flag(vec![
            serde_json::json!({"name": "the cycle's change", "subtask": "as the goal's words say",
                "lacks": ["upper()"], "reply": write_reply("greet.py", &whole)}),
            serde_json::json!({"name": "the change", "subtask": "Change greet.py",
                "lacks": ["shout=False"], "reply": write_reply("greet.py", half)}),
        ]);
        script.prints = answers["prints"].clone();
        script.outputs = answers.get("outputs").cloned();
        script.texts = answers.get("texts").cloned();
        script.with_option = answers.get("with_option").cloned();
        let test = Test::new()
            .serving(script)
            .file("greet.py", GREET_WORLD)
            .args([
                "Change greet.py so that it takes an optional --shout flag that prints the \
                 greeting in capitals",
                "--max-cycles",
                cycles,
            ]);
        let run = test.run();
        (test, run)
    };
    let agreeing = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]}});
    let (test, done) = run(agreeing.clone(), "1");
    done.assert_code(0);
    let state = test.assert_replay_matches();
    let stated = state.outputs.clone().expect("asked");
    assert_eq!(stated.len(), 1);
    assert_eq!(stated[0].command, "python3 greet.py --shout");
    assert_eq!(stated[0].agreed(), Some("HELLO, WORLD!"));
    // Asked before the plan, which holds the change to it from its first
    // write on.
    let events = test.events();
    let asked = events.iter().position(|e| e == "outputs_stated");
    assert!(
        asked < events.iter().position(|e| e == "planned"),
        "{events:?}"
    );
    let show = SubtaskKind::Show {
        cmd: "python3 greet.py --shout".into(),
        expects: "HELLO, WORLD!".into(),
    };
    assert!(
        state.tree.tasks[0].subtasks.iter().any(|s| s.kind == show),
        "{:?}",
        state.tree.tasks[0]
    );
    let told = test
        .records()
        .into_iter()
        .find_map(|record| match record.event {
            Event::ActionFinished { outcome, .. }
                if outcome.result.contains("After this change") =>
            {
                Some(outcome.result)
            }
            _ => None,
        })
        .expect("a write's result");
    assert!(
        told.contains(
            "`python3 greet.py --shout` printed \"HELLO, world!\", which does not hold \"HELLO, \
             WORLD!\" yet: it printed world where WORLD must be"
        ),
        "{told}"
    );
    let held = |requirements: &[Requirement]| naming(requirements, "as the goal's words say");
    let first = held(&assessments(&test)[0]);
    assert!(!first.met, "{first:?}");
    assert_eq!(first.evidence, "it printed \"HELLO, world!\"");
    assert!(held(&state.requirements).met, "{:?}", state.requirements);
    assert_eq!(test.read("greet.py"), whole);
    // No cycle left: not achieved, and said so.
    let (test, ended) = run(agreeing, "0");
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    assert_eq!(test.read("greet.py"), half);
    // An answer that says what the program printed before, without the
    // option, is no answer (i1's cli-flag ended "Goal achieved" when it
    // was taken for a disagreement), and the other alone is no agreement
    // (r2's cli-chars was held to a lone `216` for a text of 13
    // characters): a third is asked, and holds the output when it agrees.
    let misread = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]},
        "outputs": {"outputs": ["Hello, world!"]}, "texts": {"texts": ["HELLO WORLD"]}});
    let (test, ended) = run(misread, "0");
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(state.outputs.clone().expect("asked")[0].prints.len(), 3);
    assert!(!held(&state.requirements).met, "{:?}", state.requirements);
    // That answer is asked again right after it, told what it gave, and
    // the answer given then takes its place: t46's cli-flag was answered
    // `Hello, world!` twice and its one reading, `HELLO, WORLD!`, was left
    // with nothing agreed.
    let again = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]},
        "outputs": {"outputs": ["Hello, world!"]},
        "with_option": {"with_option": ["HELLO, WORLD!"]}});
    let (test, ended) = run(again, "0");
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    let stated = &state.outputs.clone().expect("asked")[0];
    assert_eq!(stated.prints, ["HELLO, WORLD!", "HELLO, WORLD!"]);
    assert_eq!(stated.agreed(), Some("HELLO, WORLD!"));
    let recorded = test
        .records()
        .into_iter()
        .find_map(|record| match record.event {
            Event::OutputsStated {
                asked_again, calls, ..
            } => Some((asked_again, calls)),
            _ => None,
        });
    assert_eq!(
        recorded,
        Some((vec!["python3 greet.py --shout".to_string()], 3))
    );
    let requests = test.server().requests();
    let followed: Vec<&serde_json::Value> = requests
        .iter()
        .filter(|r| r["messages"].to_string().contains("Your answer for"))
        .collect();
    assert_eq!(followed.len(), 1, "{followed:?}");
    let messages = followed[0]["messages"].as_array().expect("messages");
    let said = |at: usize| {
        messages[at]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        said(1).contains("Once it is made, what exact text"),
        "{}",
        said(1)
    );
    assert_eq!(messages[2]["role"], "assistant");
    assert!(said(2).contains("Hello, world!"), "{}", said(2));
    assert!(
        said(3).starts_with(
            "Your answer for `python3 greet.py --shout`, \"Hello, world!\", is what `python3 \
             greet.py` printed before this run, without `--shout`."
        ),
        "{}",
        said(3)
    );
    // The third dropped too: one reading, no text the plan aims at, and
    // the output must say it.
    let alone = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]},
        "outputs": {"outputs": ["Hello, world!"]}, "texts": {"texts": ["Hello, world!"]}});
    let (test, ended) = run(alone, "0");
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(state.outputs.clone().expect("asked")[0].agreed(), None);
    assert!(
        !state.tree.tasks[0]
            .subtasks
            .iter()
            .any(|s| matches!(s.kind, SubtaskKind::Show { .. })),
        "{:?}",
        state.tree.tasks[0]
    );
    let lone = naming(&state.requirements, "prints what the goal's words say");
    assert!(!lone.met, "{lone:?}");
    // Two answers that disagree: a third is asked, and two of the three
    // agreeing hold the output.
    let unsure = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]},
        "outputs": {"outputs": ["HELLO, world!"]}, "texts": {"texts": ["HELLO  WORLD"]}});
    let (test, ended) = run(unsure, "0");
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    let stated = &state.outputs.clone().expect("asked")[0];
    assert_eq!(stated.prints.len(), 3, "{stated:?}");
    assert_eq!(stated.agreed(), Some("HELLO, WORLD!"));
    assert!(!held(&state.requirements).met, "{:?}", state.requirements);
    // Three that disagree: the output must be one of them. h2's cli-chars
    // answers were `13` and `4`, and its assessment, shown the output,
    // would read any as right.
    let read =
        |requirements: &[Requirement]| naming(requirements, "prints what the goal's words say");
    let apart = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]},
        "outputs": {"outputs": ["HELLO, Earth!"]}, "texts": {"texts": ["Hi, WORLD"]}});
    let (test, ended) = run(apart, "0");
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    let state = test.assert_replay_matches();
    assert_eq!(state.outputs.clone().expect("asked")[0].agreed(), None);
    let unread = read(&state.requirements);
    assert!(!unread.met, "{unread:?}");
    assert!(unread.evidence.contains("no reading"), "{unread:?}");
    assert!(
        !state
            .requirements
            .iter()
            .any(|r| r.requirement.contains("as the goal's words say")),
        "{:?}",
        state.requirements
    );
    // One of the three foresaw what it prints (made apart from the code
    // and the output): met.
    let foreseen = serde_json::json!({"prints": {"prints": ["HELLO, WORLD!"]},
        "outputs": {"outputs": ["HELLO, world!"]}, "texts": {"texts": ["Hi, WORLD"]}});
    let (test, _) = run(foreseen, "0");
    let state = test.assert_replay_matches();
    assert!(read(&state.requirements).met, "{:?}", state.requirements);
}

/// A goal that quotes no run of its program but gives it arguments is
/// asked which runs its words give as examples, and each is held as a
/// quoted one is (see the test below). t74's binary ("for example 10 gives
/// 1010") printed `01010` and ended "Goal achieved". An answer that gives
/// the whole command line gives the same run; a goal that calls a
/// function is not asked.
#[test]
fn a_run_the_goal_gives_as_an_example_is_held_to_what_it_prints() {
    let padded = "import sys\n\nprint(\"0\" + format(int(sys.argv[1]), \"o\"))\n";
    let run = |arguments: serde_json::Value, goal: &str| {
        let mut script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"description": "Write octal.py", "subtasks": [
                    "Write octal.py: print the octal form of its argument",
                    "Run `python3 octal.py 9`"]}]},
                "rules": [
                    {"name": "the write", "subtask": "Write octal.py", "lacks": ["format(int"],
                     "reply": write_reply("octal.py", padded)},
                    {"name": "the check", "subtask": "Run `python3 octal.py 9`",
                     "lacks": ["exit code 0"], "reply": {"tool_calls": [{"name": "run_cmd",
                        "arguments": {"cmd": "python3 octal.py 9"}}]}},
                    {"name": "anything else is done", "reply": {"tool_calls": [{
                        "name": "mark_subtask_complete",
                        "arguments": {"success": true, "reason": "done"}}]}}
                ]
            }))
            .expect("script");
        script.arguments = arguments;
        script.prints = serde_json::json!({"prints": ["10"]});
        let test = Test::new()
            .serving(script)
            .args([goal, "--max-cycles", "0"]);
        let run = test.run();
        (test, run)
    };
    let goal = "Write octal.py: it prints the octal form of the whole number given as its \
                argument; for instance 8 gives 10";
    for given in ["8", "python octal.py 8"] {
        let (test, ended) = run(serde_json::json!({"arguments": [given]}), goal);
        ended.assert_code(1);
        assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
        let state = test.assert_replay_matches();
        let stated = state.outputs.clone().expect("asked");
        assert_eq!(stated.len(), 1, "{stated:?}");
        assert_eq!(stated[0].command, "python3 octal.py 8");
        assert!(stated[0].quoted && stated[0].was.is_empty(), "{stated:?}");
        assert_eq!(stated[0].agreed(), Some("10"));
        let held = naming(&state.requirements, "as the goal's words say");
        assert!(!held.met, "{held:?}");
        assert_eq!(held.evidence, "it printed \"010\"");
        assert!(asked_examples(&test));
    }
    // No example given: nothing asked of what a run prints.
    let (test, _) = run(serde_json::json!({"arguments": []}), goal);
    assert_eq!(test.assert_replay_matches().outputs, None);
    // A goal that calls a function speaks of the function's arguments.
    let (test, _) = run(
        serde_json::json!({"arguments": ["8"]}),
        "Write octal.py with octal(n), which returns the octal form of its argument; for \
         instance octal(8) returns '10'",
    );
    assert!(!asked_examples(&test));
}

/// A run the goal gives as an example that the answers say the goal
/// leaves as it was (what it printed before the run, said again when
/// asked again) is held to that. t77's welcome-many printed its first
/// three arguments whatever it was given; the check passed three names,
/// and the run ended "Goal achieved" with `welcome.py John` failing.
#[test]
fn an_example_run_the_goal_leaves_as_it_was_is_held_to_what_it_printed() {
    let one = "import sys\n\nprint(f\"Hello, {sys.argv[1]}!\")\n";
    let three = "import sys\n\nfor i in (1, 2, 3):\n    print(f\"Hello, {sys.argv[i]}!\")\n";
    let every = "import sys\n\nfor name in sys.argv[1:]:\n    print(f\"Hello, {name}!\")\n";
    let run = |cycles: &str| {
        let script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"description": "Greet everyone", "subtasks": [
                    "Change hello.py: greet each name",
                    "Run `python3 hello.py Ann Bob Cy`"]}]},
                "rules": [
                    {"name": "the cycle's change", "subtask": "Make this true",
                     "lacks": ["argv[1:]"], "reply": write_reply("hello.py", every)},
                    {"name": "the changed run", "subtask": "something else than",
                     "lacks": ["$ python3 hello.py Ann Bob\nexit code"],
                     "reply": {"tool_calls": [{"name": "run_cmd",
                        "arguments": {"cmd": "python3 hello.py Ann Bob"}}]}},
                    {"name": "the change", "subtask": "Change hello.py: greet each name",
                     "lacks": ["(1, 2, 3)"], "reply": write_reply("hello.py", three)},
                    {"name": "the stated run", "subtask": "Run `python3 hello.py Ann` and make",
                     "lacks": ["$ python3 hello.py Ann\nexit code"], "reply": {"tool_calls": [{
                        "name": "run_cmd", "arguments": {"cmd": "python3 hello.py Ann"}}]}},
                    {"name": "the check", "subtask": "Run `python3 hello.py Ann Bob Cy`",
                     "lacks": ["exit code 0"], "reply": {"tool_calls": [{"name": "run_cmd",
                        "arguments": {"cmd": "python3 hello.py Ann Bob Cy"}}]}},
                    {"name": "anything else is done", "reply": {"tool_calls": [{
                        "name": "mark_subtask_complete",
                        "arguments": {"success": true, "reason": "done"}}]}}
                ],
                "arguments": {"arguments": ["Ann"]},
                "prints": {"prints": ["Hello, Ann!"]},
                "changed": {"changed": ["Ann Bob"]}
            }))
            .expect("script");
        let test = Test::new().serving(script).file("hello.py", one).args([
            "hello.py greets one person. Make it greet every name it is given on the command \
             line, one greeting a line",
            "--max-cycles",
            cycles,
        ]);
        let run = test.run();
        (test, run)
    };
    let (test, ended) = run("0");
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    let state = test.assert_replay_matches();
    let stated = state.outputs.clone().expect("asked");
    assert_eq!(stated.len(), 2, "{stated:?}");
    assert_eq!(stated[0].command, "python3 hello.py Ann");
    assert_eq!(stated[0].was.trim(), "Hello, Ann!");
    assert_eq!(stated[0].held(), Some("Hello, Ann!"));
    let held = naming(&state.requirements, "as the goal's words say");
    assert!(!held.met, "{held:?}");
    // The example shows no change: the run the model names as one the
    // change alters is held to print something else than before.
    assert!(stated[1].changes, "{stated:?}");
    assert_eq!(stated[1].command, "python3 hello.py Ann Bob");
    assert_eq!(stated[1].was.trim(), "Hello, Ann!");
    let changed = naming(&state.requirements, "something else than");
    assert!(!changed.met, "{changed:?}");
    // Asked again once, not after each question.
    let again = test
        .server()
        .requests()
        .iter()
        .filter(|r| r["format"]["properties"].get("with_option").is_some())
        .count();
    assert_eq!(again, 1);
    let (test, done) = run("1");
    done.assert_code(0);
    assert_eq!(test.read("hello.py"), every);
    let state = test.assert_replay_matches();
    assert!(naming(&state.requirements, "as the goal's words say").met);
    assert!(naming(&state.requirements, "something else than").met);
}

/// A program the goal asks to change, left as it was, whose examples print
/// what they printed before: the run the model names as one the change
/// alters still prints the same, and the run does not end "Goal achieved".
/// t78's welcome-many gave `welcome.py John` and `welcome.py Jane` as its
/// examples and ended "Goal achieved" with welcome.py welcoming one name.
#[test]
fn a_change_no_run_shows_is_not_achieved() {
    let one = "import sys\n\nname = sys.argv[1]\nprint(f\"Hello, {name}!\")\n";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Greet everyone", "subtasks": [
            "Change hello.py: greet each name"]}]},
        "rules": [
            {"name": "the change, made as it was", "subtask": "Change hello.py",
             "lacks": ["name = sys.argv[1]"], "reply": write_reply("hello.py", one)},
            {"name": "anything else is done", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete",
                "arguments": {"success": true, "reason": "done"}}]}}
        ],
        "arguments": {"arguments": ["Ann", "Bob"]},
        "prints": {"prints": ["Hello, Ann!", "Hello, Bob!"]},
        "changed": {"changed": ["python3 hello.py Ann Bob"]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .file(
            "hello.py",
            "import sys\n\nprint(f\"Hello, {sys.argv[1]}!\")\n",
        )
        .args([
            "hello.py greets one person. Make it greet every name it is given on the command \
             line, one greeting a line",
            "--max-cycles",
            "0",
        ]);
    let ended = test.run();
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    let state = test.assert_replay_matches();
    let stated = state.outputs.clone().expect("asked");
    let changed: Vec<_> = stated.iter().filter(|o| o.changes).collect();
    assert_eq!(changed.len(), 1, "{stated:?}");
    assert_eq!(changed[0].command, "python3 hello.py Ann Bob");
    let requirement = naming(&state.requirements, "something else than");
    assert!(!requirement.met, "{requirement:?}");
    assert!(
        requirement.evidence.contains("Hello, Ann!"),
        "{requirement:?}"
    );
}

/// Whether the model was asked which runs the goal gives as examples.
fn asked_examples(test: &Test) -> bool {
    test.server()
        .requests()
        .iter()
        .any(|r| r["format"]["properties"].get("arguments").is_some())
}

/// A run of a program of the project that the goal quotes with words
/// after it is asked of as an option's is (see the test above): what it
/// must print, from the goal's words and what it printed before the run,
/// held against it at every assessment. t73's tip-percent quoted `python
/// tip.py 40 20` as printing 8.00; the program ignored its second
/// argument, an assessment read `6.00` off its output, and the run ended
/// "Goal achieved". Here the assessment says every requirement is met.
#[test]
fn a_run_the_goal_quotes_is_held_to_what_the_goal_says_it_prints() {
    let flat = "import sys\n\n\ndef main(argv):\n    amount = float(argv[1])\n    print(f\"{amount * 5 / 100:.2f}\")\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    // The plan's change names the rate and still ignores the argument.
    let named = flat.replace(
        "    print(f\"{amount * 5 / 100:.2f}\")",
        "    rate = 5\n    print(f\"{amount * rate / 100:.2f}\")",
    );
    let rated = named.replace("rate = 5", "rate = float(argv[2]) if len(argv) > 2 else 5");
    let run = |prints: serde_json::Value, cycles: &str| {
        let mut script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"description": "Take the rate", "subtasks": [
                    "Change fee.py: read the rate from its second argument",
                    "Run `python3 fee.py 50`"]}]},
                "rules": [
                    {"name": "the cycle's change", "subtask": "as the goal's words say",
                     "lacks": ["argv[2]"], "reply": write_reply("fee.py", &rated)},
                    {"name": "the stated run", "subtask": "Run `python3 fee.py 100 7` and make",
                     "lacks": ["--- stdout ---\n7.00"], "reply": {"tool_calls": [{
                        "name": "run_cmd", "arguments": {"cmd": "python3 fee.py 100 7"}}]}},
                    {"name": "the shorter run", "subtask": "Run `python3 fee.py 100` and make",
                     "lacks": ["$ python3 fee.py 100\nexit code 0"], "reply": {"tool_calls": [{
                        "name": "run_cmd", "arguments": {"cmd": "python3 fee.py 100"}}]}},
                    {"name": "the change", "subtask": "Change fee.py: read the rate",
                     "lacks": ["rate = 5"], "reply": write_reply("fee.py", &named)},
                    {"name": "the check", "subtask": "Run `python3 fee.py 50`",
                     "lacks": ["exit code 0"], "reply": {"tool_calls": [{"name": "run_cmd",
                        "arguments": {"cmd": "python3 fee.py 50"}}]}},
                    {"name": "anything else is done", "reply": {"tool_calls": [{
                        "name": "mark_subtask_complete",
                        "arguments": {"success": true, "reason": "done"}}]}}
                ]
            }))
            .expect("script");
        script.prints = prints;
        let test = Test::new().serving(script).file("fee.py", flat).args([
            "fee.py prints a 5% fee of the amount given as its argument. Let it take the rate \
             as an optional second argument, so that `python fee.py 100 7` prints 7.00",
            "--max-cycles",
            cycles,
        ]);
        let run = test.run();
        (test, run)
    };
    let both = serde_json::json!({"prints": ["7.00", "5.00"]});
    let (test, ended) = run(both.clone(), "0");
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    assert_eq!(test.read("fee.py"), named);
    let state = test.assert_replay_matches();
    let stated = state.outputs.clone().expect("asked");
    assert_eq!(stated.len(), 2, "{stated:?}");
    assert_eq!(stated[0].command, "python3 fee.py 100 7");
    assert_eq!(stated[0].was.trim(), "5.00");
    assert!(stated[0].quoted);
    assert_eq!(stated[0].agreed(), Some("7.00"));
    // The same run without its last word, which the goal may leave as it
    // was, is asked of too, and its answer held whether it is what it
    // printed before or not (t75's tip-percent made every tip 20%).
    assert_eq!(stated[1].command, "python3 fee.py 100");
    assert!(stated[1].quoted && stated[1].was.is_empty(), "{stated:?}");
    assert_eq!(stated[1].held(), Some("5.00"));
    let held = naming(&state.requirements, "as the goal's words say");
    assert!(!held.met, "{held:?}");
    assert_eq!(held.evidence, "it printed \"5.00\"");
    // The first question showed what the run printed before.
    let requests = test.server().requests();
    let asked = requests
        .iter()
        .map(|r| r["messages"].to_string())
        .find(|m| m.contains("\\\"prints\\\""))
        .expect("the first question");
    assert!(
        asked.contains("Before this run, `python3 fee.py 100 7` printed:\\n5.00"),
        "{asked}"
    );
    assert!(asked.contains("give \\\"\\\" for it"), "{asked}");
    // The plan holds the change to it, and a cycle makes it so.
    let show = SubtaskKind::Show {
        cmd: "python3 fee.py 100 7".into(),
        expects: "7.00".into(),
    };
    assert!(
        state.tree.tasks[0].subtasks.iter().any(|s| s.kind == show),
        "{:?}",
        state.tree.tasks[0]
    );
    let (test, done) = run(both, "1");
    done.assert_code(0);
    assert_eq!(test.read("fee.py"), rated);
    let state = test.assert_replay_matches();
    let kept = naming(&state.requirements, "`python3 fee.py 100` prints \"5.00\"");
    assert!(kept.met, "{kept:?}");
    // A goal whose words do not say what it prints: an empty answer holds
    // nothing to it.
    let (test, ended) = run(serde_json::json!({"prints": ["", ""]}), "0");
    assert!(
        !ended.stderr.contains("as the goal's words say"),
        "{}",
        ended.stderr
    );
    let state = test.assert_replay_matches();
    let stated = state.outputs.expect("asked");
    assert!(stated.iter().all(|o| o.readings().is_empty()), "{stated:?}");
    assert!(
        !state
            .requirements
            .iter()
            .any(|r| r.requirement.contains("as the goal's words say")),
        "{:?}",
        state.requirements
    );
}

/// A program that reads its arguments is run with one before the plan as
/// well as bare, and what the goal's option must make it print is asked
/// and held with it too: t48's cli-flag ended "Goal achieved" with
/// `greet.py --shout Ann` printing `HELLO, WORLD!` (its parser read
/// `['--shout']` alone when the flag was given), held only to the bare
/// `greet.py --shout`.
#[test]
fn an_option_is_held_with_the_programs_arguments_too() {
    let ignoring = "import sys\n\n\ndef greeting(name):\n    return f\"Hello, {name}!\"\n\n\ndef main(argv):\n    if \"--shout\" in argv:\n        print(greeting(\"world\").upper())\n        return\n    name = argv[1] if len(argv) > 1 else \"world\"\n    print(greeting(name))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    let mut script = adds_the_flag(vec![serde_json::json!({"name": "the change",
        "subtask": "Change greet.py", "lacks": ["upper()"],
        "reply": write_reply("greet.py", ignoring)})]);
    script.prints = serde_json::json!({"prints": ["HELLO, WORLD!", "HELLO, ONE!"]});
    let test = Test::new()
        .serving(script)
        .file("greet.py", GREET_ARGV)
        .args([
            "Change greet.py so that it takes an optional --shout flag that prints the greeting \
             in capitals",
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    run.assert_code(1);
    assert!(!run.stderr.contains("Goal achieved"), "{}", run.stderr);
    let state = test.assert_replay_matches();
    let before: Vec<&str> = state
        .ran_before
        .iter()
        .map(|r| r.command.as_str())
        .collect();
    assert_eq!(before, ["python3 greet.py", "python3 greet.py one"]);
    let stated: Vec<(String, Option<&str>)> = (state.outputs.as_deref().unwrap_or_default())
        .iter()
        .map(|o| (o.command.clone(), o.agreed()))
        .collect();
    assert_eq!(
        stated,
        [
            (
                "python3 greet.py --shout".to_string(),
                Some("HELLO, WORLD!")
            ),
            (
                "python3 greet.py one --shout".to_string(),
                Some("HELLO, ONE!")
            )
        ]
    );
    let unmet: Vec<&Requirement> = state.requirements.iter().filter(|r| !r.met).collect();
    assert!(
        unmet
            .iter()
            .any(|r| r.requirement.contains("python3 greet.py one --shout")
                && r.evidence.contains("HELLO, WORLD!")),
        "{:?}",
        state.requirements
    );
    assert_eq!(test.read("greet.py"), ignoring);
}

/// A show subtask is done when its command prints what it must, not when
/// the model says so: the run after a write that makes it so ends it. k1's
/// cli-flag wrote the line that made `python3 greet.py --shout` print
/// `HELLO, WORLD!`, was told it held, and then wrote the same file until
/// the loop guard ended the subtask as failed, its rounds spent.
#[test]
fn a_write_that_makes_the_show_hold_ends_it() {
    let half = "import sys\n\n\ndef greeting(name, shout=False):\n    if shout:\n        return f\"HELLO, {name}!\"\n    return f\"Hello, {name}!\"\n\n\ndef main(argv):\n    positional = [arg for arg in argv if not arg.startswith('-')]\n    name = positional[1] if len(positional) > 1 else \"world\"\n    print(greeting(name, shout=\"--shout\" in argv))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
    let whole = half.replace("{name}!\"\n    return", "{name.upper()}!\"\n    return");
    let mut script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "greet.py", "purpose": "takes an optional --shout flag"}],
                 "check": "python3 greet.py"},
        "rules": [
            {"name": "the change", "subtask": "Change greet.py", "lacks": ["shout=False"],
             "reply": write_reply("greet.py", half)},
            {"name": "the fix", "subtask": "make its output hold", "lacks": ["upper()"],
             "reply": write_reply("greet.py", &whole)},
            {"name": "the same again", "subtask": "make its output hold",
             "reply": write_reply("greet.py", &whole)},
            {"name": "the check", "subtask": "Run `python3 greet.py` and", "lacks": ["exit code 0"],
             "reply": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": "python3 greet.py"}}]}},
            {"name": "anything else is done", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete", "arguments": {"success": true, "reason": "done"}}]}}
        ],
        "assessments": [{"answer": {"requirements": [
            {"requirement": "--shout prints the greeting in capitals", "met": true,
             "evidence": "HELLO, WORLD!", "about_tests": false, "about_output": true,
             "command": "python3 greet.py --shout", "expects": "HELLO, world!"}]}}]
    }))
    .expect("script");
    script.prints = serde_json::json!({"prints": ["HELLO, WORLD!"]});
    let test = Test::new()
        .serving(script)
        .file("greet.py", GREET_WORLD)
        .args([
            "Change greet.py so that it takes an optional --shout flag that prints the greeting in \
         capitals",
            "--max-cycles",
            "0",
        ]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let subtasks = &state.tree.tasks[0].subtasks;
    let show = subtasks
        .iter()
        .position(|s| matches!(s.kind, SubtaskKind::Show { .. }))
        .expect("a show subtask");
    // Right after the write of its program.
    assert!(
        matches!(&subtasks[show - 1].kind, SubtaskKind::Write { path } if path == "greet.py"),
        "{subtasks:?}"
    );
    let ended = test
        .records()
        .into_iter()
        .find_map(|record| match record.event {
            Event::SubtaskEnded {
                call,
                subtask,
                success,
                reason,
                ..
            } if subtask == show => Some((call, success, reason)),
            _ => None,
        })
        .expect("the show ended");
    assert_eq!(ended.0, None, "ended by the runner: {ended:?}");
    assert!(ended.1, "{ended:?}");
    assert!(
        ended
            .2
            .contains("printed \"HELLO, WORLD!\", which holds \"HELLO, WORLD!\" as it must"),
        "{ended:?}"
    );
    // One write in it: the same again was never asked for.
    let writes = test
        .records()
        .iter()
        .filter(|r| matches!(&r.event, Event::ActionStarted { tool, .. } if tool == "write_file"))
        .count();
    assert_eq!(writes, 2, "{}", run.stderr);
    assert_eq!(test.read("greet.py"), whole);
    // The assessment gave its requirement of the stated command another
    // text (`HELLO, world!`): it is held to the stated one, and met (k2's
    // cycle asked the model to make the program print the other).
    let capitals = naming(&state.requirements, "the greeting in capitals");
    assert!(capitals.met, "{capitals:?}");
    assert_eq!(capitals.shown_by.expect("shown").expects, "HELLO, WORLD!");
}

/// A run of the goal "a script line_count.py that prints how many lines the
/// file given as its argument has", planned as one write and the check
/// `python3 line_count.py sample.txt`: the model writes `first` (and
/// `fixed` under a cycle's show subtask), the answers of the questions on
/// samples are `samples`, the assessments `assessments` (none: the
/// default, which copies what the check printed), the workspace holds
/// `files`.
fn line_count_run(
    first: &str,
    fixed: &str,
    samples: serde_json::Value,
    assessments: serde_json::Value,
    files: &[(&str, &str)],
    cycles: &str,
) -> (Test, crate::support::Run) {
    let mut script = line_count_script(first, fixed, assessments);
    script.samples = samples;
    line_count_with(script, files, cycles)
}

/// The script of [`line_count_run`].
fn line_count_script(
    first: &str,
    fixed: &str,
    assessments: serde_json::Value,
) -> crate::support::fake_ollama::Script {
    serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "line_count.py",
                "purpose": "print how many lines the file given as its argument has"}],
                "check": "python3 line_count.py sample.txt"},
            "rules": [
                {"name": "the cycle's change", "subtask": "make its output hold",
                 "lacks": ["splitlines"], "reply": write_reply("line_count.py", fixed)},
                {"name": "the write", "subtask": "Write line_count.py",
                 "lacks": ["Wrote"], "reply": write_reply("line_count.py", first)},
                {"name": "the check", "subtask": "Run `python3", "lacks": ["exit code 0"],
                 "reply": {"tool_calls": [{"name": "run_cmd",
                    "arguments": {"cmd": "python3 line_count.py sample.txt"}}]}},
                {"name": "anything else is done", "reply": {"tool_calls": [{
                    "name": "mark_subtask_complete",
                    "arguments": {"success": true, "reason": "done"}}]}}
            ],
            "assessments": assessments
    }))
    .expect("script")
}

/// [`line_count_run`] of `script`.
fn line_count_with(
    script: crate::support::fake_ollama::Script,
    files: &[(&str, &str)],
    cycles: &str,
) -> (Test, crate::support::Run) {
    let mut test = Test::new().serving(script);
    for (path, content) in files {
        test = test.file(path, content);
    }
    let test = test.args([
        "Write a script line_count.py that prints how many lines the file given as its argument \
         has",
        "--max-cycles",
        cycles,
    ]);
    let run = test.run();
    (test, run)
}

/// What a program prints for a sample it reads is held to what the goal's
/// words give for the sample's content, asked apart from the code and the
/// output, not to what the assessment read off the output: q2's
/// line-count assessment held `python3 line_count.py sample.txt` to the
/// `3.0` it was shown, for a sample of two lines. Here the program counts
/// words; the assessment (a model that reads what it is shown) copies its
/// `3`; the two answers agree on `2`: a cycle runs it until it prints 2,
/// and its change makes it so. With no cycle left, not achieved. A sample
/// that did not change is not asked about again.
#[test]
fn a_program_run_on_a_sample_is_held_to_what_the_goal_gives_for_the_sample() {
    let words = "import sys\n\nprint(len(open(sys.argv[1]).read().split()))\n";
    let lines = "import sys\n\nprint(len(open(sys.argv[1]).read().splitlines()))\n";
    let run = |cycles: &str, answers: serde_json::Value| {
        let sample = [("sample.txt", "one two\nthree\n")];
        line_count_run(
            words,
            lines,
            answers,
            serde_json::json!([]),
            &sample,
            cycles,
        )
    };
    let agreeing = serde_json::json!({"must_print": "2", "output": "The file has 2 lines."});
    let (test, done) = run("1", agreeing.clone());
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(test.read("line_count.py"), lines);
    let first = &assessments(&test)[0];
    let counted = naming(first, "what the goal asks for");
    assert!(!counted.met, "{first:?}");
    assert_eq!(counted.shown_by.as_ref().unwrap().expects, "2");
    assert!(
        counted.evidence.contains("printed \"3\"") && counted.evidence.contains("sample.txt"),
        "{counted:?}"
    );
    assert!(naming(&state.requirements, "what the goal asks for").met);
    // Read once: the second assessment's sample had not changed.
    let events = test.events();
    let read = events.iter().filter(|e| *e == "samples_read").count();
    assert_eq!(read, 1, "{events:?}");
    assert_eq!(state.samples.len(), 1);
    assert_eq!(state.samples[0].prints.len(), 2, "{:?}", state.samples);
    assert_eq!(state.samples[0].samples[0].path, "sample.txt");
    // No cycle left: not achieved, and said so.
    let (test, ended) = run("0", agreeing);
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    assert_eq!(test.read("line_count.py"), words);
    // An answer that says the sample's figures back is no answer: a third
    // question is asked.
    let echoed = serde_json::json!({"must_print": "2 lines, 3 words, 14 characters",
        "output": "2", "shows": "2."});
    let (test, ended) = run("0", echoed);
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(state.samples[0].asked, 3, "{:?}", state.samples);
    assert_eq!(state.samples[0].prints, ["2", "2."]);
    // No reading (a model that answers nothing): the assessment stands, as
    // before, after three questions.
    let (test, done) = run("0", serde_json::json!({}));
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(state.samples[0].asked, 3, "{:?}", state.samples);
}

/// t83's vowels: the model's two readings of a sample agreed on a wrong
/// count, and a right program was held to it. Programs written of their
/// own from the goal's words, run on a copy of the sample, are held over
/// the readings where two print alike: a right program is met though the
/// readings say otherwise, and a wrong one that prints what the readings
/// say is not. Where the writings do not print alike, the readings stand.
#[test]
fn a_program_is_held_to_what_two_programs_written_apart_print_for_the_sample() {
    let words = "import sys\n\nprint(len(open(sys.argv[1]).read().split()))\n";
    let lines = "import sys\n\nprint(len(open(sys.argv[1]).read().splitlines()))\n";
    // A writing that says it in words, and writes a file of its own.
    let said = "import sys\n\nprint('The file has', len(open(sys.argv[1]).read().splitlines()), \
                'lines')\nopen('apart.txt', 'w').write('x')\n";
    let run = |program: &str, readings: &str, programs: &[&str]| {
        let mut script = line_count_script(program, program, serde_json::json!([]));
        script.samples = serde_json::json!({"must_print": readings, "output": readings});
        script.programs = programs.iter().map(|p| p.to_string()).collect();
        line_count_with(script, &[("sample.txt", "one two\nthree\n")], "0")
    };
    // A right program, readings that agree on 3, two writings that print
    // 2 (one in words): met, and held to 2.
    let (test, done) = run(lines, "3", &[lines, said]);
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(
        state.samples[0].written,
        ["2", "The file has 2 lines"],
        "{:?}",
        state.samples
    );
    let counted = naming(&state.requirements, "what the goal asks for");
    assert!(
        counted.met && counted.shown_by.as_ref().unwrap().expects == "2",
        "{counted:?}"
    );
    // The writings ran on a copy: the workspace holds no file of theirs.
    assert!(!test.workspace.join("apart.txt").exists());
    // A wrong program that prints what the readings say: not met.
    let (test, ended) = run(words, "3", &[lines, lines]);
    ended.assert_code(1);
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    let state = test.assert_replay_matches();
    let counted = naming(&state.requirements, "what the goal asks for");
    assert!(
        !counted.met
            && counted.evidence.contains("give \"2\"")
            && counted.evidence.contains("two programs written apart"),
        "{counted:?}"
    );
    // Writings that do not print alike (a third asked, with no code):
    // the readings stand.
    let (test, ended) = run(lines, "3", &[lines, words]);
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert_eq!(state.samples[0].written, ["2", "3"]);
    let asked = test
        .server()
        .requests()
        .iter()
        .filter(|r| {
            r["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.contains("Write the one program asked for"))
        })
        .count();
    assert_eq!(asked, 3);
}

/// t85's biggest: the model rewrote, round after round, a program of its
/// own that printed otherwise than its sample gives, while a program it
/// wrote apart from the goal's words printed what it must. A program the
/// run makes anew whose run prints otherwise than its sample gives is
/// asked of in a question of its own, as one the project had is, and the
/// question shows the program written apart that printed what it must:
/// the answer is written, and the goal is met in the cycle. With no such
/// program (writings that print otherwise), the question shows none.
#[test]
fn a_new_program_that_prints_otherwise_than_its_sample_gives_is_shown_a_right_writing() {
    let words = "import sys\n\nprint(len(open(sys.argv[1]).read().split()))\n";
    let lines = "import sys\n\nprint(len(open(sys.argv[1]).read().splitlines()))\n";
    let run = |programs: &[&str]| {
        let script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"path": "line_count.py",
                    "purpose": "print how many lines the file given as its argument has"}],
                    "check": "python3 line_count.py sample.txt"},
                "rules": [
                    {"name": "asked on its own", "has": ["line_count.py must work so"],
                     "reply": {"content": format!("It counts words.\n```python\n{lines}```\n")}},
                    {"name": "the write", "subtask": "Write line_count.py", "lacks": ["Wrote"],
                     "reply": write_reply("line_count.py", words)},
                    {"name": "the check", "subtask": "Run `python3", "lacks": ["exit code 0"],
                     "reply": {"tool_calls": [{"name": "run_cmd",
                        "arguments": {"cmd": "python3 line_count.py sample.txt"}}]}},
                    {"name": "the cycle's run", "subtask": "make its output hold",
                     "reply": {"tool_calls": [{"name": "run_cmd",
                        "arguments": {"cmd": "python3 line_count.py sample.txt"}}]}},
                    {"name": "anything else is done", "reply": {"tool_calls": [{
                        "name": "mark_subtask_complete",
                        "arguments": {"success": true, "reason": "done"}}]}}
                ],
                "samples": {"must_print": "2", "output": "2"},
                "programs": programs
            }))
            .expect("script");
        line_count_with(script, &[("sample.txt", "one two\nthree\n")], "1")
    };
    let (test, done) = run(&[lines, lines]);
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(test.read("line_count.py"), lines);
    assert_eq!(state.samples[0].programs.len(), 2, "{:?}", state.samples);
    let asked = asked_of(&test, "line_count.py must work so");
    assert!(!asked.is_empty());
    assert!(
        asked[0].contains("written from the GOAL's words alone")
            && asked[0].contains("splitlines()")
            && asked[0].contains("$ python3 line_count.py sample.txt\n2\n"),
        "{}",
        asked[0]
    );
    // Writings that print otherwise, and not alike (the readings stand):
    // none is shown.
    let (test, _) = run(&[words, "print(7)\n"]);
    let asked = asked_of(&test, "line_count.py must work so");
    assert!(!asked.is_empty());
    assert!(
        asked
            .iter()
            .all(|ask| !ask.contains("written from the GOAL's words alone")),
        "{asked:?}"
    );
}

/// t84's rps: the run's own test held that rock beats paper, and the
/// model, told "if the code is right, the test is wrong", could not tell
/// which. A failing assert of a test the run wrote, of a call whose value
/// the goal's words do not give, is settled by asking the model twice
/// which of the two values the call returns, from the goal's words alone
/// (each put first once): chosen the code's value both times, the failure
/// says the test is wrong and how to write its line, and the run ends
/// achieved; chosen the test's value both times, the function is asked of
/// in a question of its own; chosen by place, neither. Asked once for the
/// same failure.
#[test]
fn a_failing_assert_of_the_runs_own_test_is_settled_from_the_goals_words() {
    let game = GAME;
    let run_writing = |chooses: &[&str], writes: &[&str]| {
        let script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"description": "Write the game and its tests", "subtasks": [
                    "Write game.py: a function winner(a, b) that says which move wins",
                    "Write test_game.py: pytest tests of winner",
                    "Run `python3 -m pytest -q`"]}]},
                "rules": game_test_rules("the test is wrong. Write that line", Some(game)),
                "chooses": chooses,
                "writes": writes
            }))
            .expect("script");
        let test = Test::new().serving(script).args([
            "Create a rock-paper-scissors game with pytest tests",
            "--max-cycles",
            "0",
            "--max-rounds",
            "8",
        ]);
        let run = test.run();
        (test, run)
    };
    // No writing of the function gives code: the model is asked to choose.
    let run = |chooses: &[&str]| run_writing(chooses, &[]);
    // The code's value, both times.
    let (test, done) = run(&["'first'"]);
    done.assert_code(0);
    let state = test.assert_replay_matches();
    let own: Vec<_> = state.settled.iter().filter(|s| s.own_test).collect();
    assert_eq!(own.len(), 1, "{:?}", state.settled);
    assert_eq!(own[0].call, "winner(\"paper\", \"rock\")");
    assert!(own[0].got_held && !own[0].held, "{own:?}");
    assert_eq!(test.read("test_game.py"), paper_rock_test("first"));
    let told = asked_of(&test, "the test is wrong. Write that line");
    assert!(!told.is_empty());
    // The test's value, both times: the code is wrong.
    let (test, ended) = run(&["'second'"]);
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert!(
        state.settled.iter().any(|s| s.own_test && s.held),
        "{:?}",
        state.settled
    );
    assert!(!asked_of(&test, "What in winner gives 'first' instead of 'second'?").is_empty());
    assert!(asked_of(&test, "the test is wrong. Write that line").is_empty());
    // By place: neither, and asked once for the same failure.
    let (test, ended) = run(&[]);
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    let own: Vec<_> = state.settled.iter().filter(|s| s.own_test).collect();
    assert!(
        own.len() == 1 && !own[0].held && !own[0].got_held,
        "{own:?}"
    );
    assert!(!asked_of(&test, "If the code is right, the test is wrong").is_empty());

    // Writings of `winner` of their own that return the code's value,
    // the model choosing by place: the writings settle it, and no choice
    // is asked.
    let (test, done) = run_writing(&[], &[game, game]);
    done.assert_code(0);
    let state = test.assert_replay_matches();
    let own: Vec<_> = state.settled.iter().filter(|s| s.own_test).collect();
    assert!(
        own.len() == 1 && own[0].got_held && own[0].written,
        "{own:?}"
    );
    assert_eq!(test.read("test_game.py"), paper_rock_test("first"));
    let writings = asked_of(&test, "Write only the Python function `winner`");
    assert!(
        writings.len() == 2
            && writings[0].contains("called like `winner(\"paper\", \"rock\")`")
            && writings[0].contains("form of 'second' or 'first'"),
        "{writings:?}"
    );
    assert!(asked_of(&test, "what does `winner(").is_empty());
    // Writings that return the test's value: the code is wrong.
    let wrong = game
        .replace("\"first\" if", "\"second\" if")
        .replace("else \"second\"", "else \"first\"");
    assert_ne!(wrong, game);
    let (test, ended) = run_writing(&["'first'"], &[&wrong, &wrong]);
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert!(
        state
            .settled
            .iter()
            .any(|s| s.own_test && s.held && s.written),
        "{:?}",
        state.settled
    );
    // Writings that split, then a third that gives neither: the model
    // is asked to choose.
    let (test, _) = run_writing(&[], &[game, &wrong, "def winner(a, b):\n    return None\n"]);
    let state = test.assert_replay_matches();
    let own: Vec<_> = state.settled.iter().filter(|s| s.own_test).collect();
    assert!(!own.is_empty() && !own[0].written, "{own:?}");
    assert_eq!(
        asked_of(&test, "Write only the Python function `winner`").len(),
        3
    );
    assert!(!asked_of(&test, "what does `winner(").is_empty());

    // Code the project had, that stays as it is while tests of it are
    // written, is right: nothing is asked, whatever the model would
    // choose, and the test is corrected.
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Test the game", "subtasks": [
            "Write test_game.py: pytest tests of winner in game.py",
            "Run `python3 -m pytest -q`"]}]},
        "rules": game_test_rules("so the test is what is wrong", None),
        "chooses": ["'second'"]
    }))
    .expect("script");
    let test = Test::new().serving(script).file("game.py", game).args([
        "Write pytest tests for game.py",
        "--max-cycles",
        "0",
        "--max-rounds",
        "8",
    ]);
    let done = test.run();
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert!(state.settled.is_empty(), "{:?}", state.settled);
    assert_eq!(test.read("game.py"), game);
    assert_eq!(test.read("test_game.py"), paper_rock_test("first"));
}

/// t88's rps: three asserts of one test were wrong, each found by the
/// run after the one before was corrected. The writings of the function
/// that settled the first failing assert settle the next one of the same
/// function, with no writing asked again.
#[test]
fn the_writings_that_settled_a_failing_assert_settle_the_next_of_its_function() {
    let game = GAME;
    let test_of = |one: &str, two: &str| {
        format!(
            "from game import winner\n\n\ndef test_winner():\n    assert winner(\"paper\", \
             \"rock\") == \"{one}\"\n    assert winner(\"rock\", \"scissors\") == \"{two}\"\n"
        )
    };
    let told = "the test is wrong. Write that line";
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"description": "Write the game and its tests", "subtasks": [
            "Write game.py: a function winner(a, b) that says which move wins",
            "Write test_game.py: pytest tests of winner",
            "Run `python3 -m pytest -q`"]}]},
        "rules": [
            {"name": "told of the second", "has": [told, "`winner(\"rock\", \"scissors\")` returned"],
             "reply": write_reply("test_game.py", &test_of("first", "first"))},
            {"name": "told of the first", "has": [told],
             "reply": write_reply("test_game.py", &test_of("first", "second"))},
            {"name": "the code", "subtask": "Write game.py", "lacks": ["Wrote"],
             "reply": write_reply("game.py", game)},
            {"name": "the tests", "subtask": "Write test_game.py", "lacks": ["Wrote"],
             "reply": write_reply("test_game.py", &test_of("second", "second"))},
            {"name": "the check", "subtask": "Run `python3 -m pytest", "lacks": ["1 passed"],
             "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 -m pytest -q"}}]}},
            {"name": "anything else is done", "reply": {"tool_calls": [{
                "name": "mark_subtask_complete", "arguments": {"success": true, "reason": "done"}}]}}
        ],
        "writes": [game, game]
    }))
    .expect("script");
    let test = Test::new().serving(script).args([
        "Create a rock-paper-scissors game with pytest tests",
        "--max-cycles",
        "0",
        "--max-rounds",
        "10",
    ]);
    let done = test.run();
    done.assert_code(0);
    let state = test.assert_replay_matches();
    let own: Vec<_> = state.settled.iter().filter(|s| s.own_test).collect();
    assert!(
        own.len() == 2 && own.iter().all(|s| s.got_held && s.written),
        "{own:?}"
    );
    assert_eq!(own[1].call, "winner(\"rock\", \"scissors\")");
    assert_eq!(test.read("test_game.py"), test_of("first", "first"));
    assert_eq!(
        asked_of(&test, "Write only the Python function `winner`").len(),
        2
    );
}

/// A right `winner(a, b)` of rock-paper-scissors: "first", "second" or
/// "tie".
const GAME: &str = "def winner(a, b):\n    beats = {\"rock\": \"scissors\", \"paper\": \"rock\", \
                    \"scissors\": \"paper\"}\n    if a == b:\n        return \"tie\"\n    return \
                    \"first\" if beats[a] == b else \"second\"\n";

/// A test of `winner("paper", "rock")` that expects `value`.
fn paper_rock_test(value: &str) -> String {
    format!(
        "from game import winner\n\n\ndef test_paper_beats_rock():\n    assert \
         winner(\"paper\", \"rock\") == \"{value}\"\n"
    )
}

/// The rules of a model that writes `game` when asked (none: the project
/// has it), then a test of it that expects 'second' (see
/// [`paper_rock_test`]), written again to expect 'first' when told
/// `told`; it runs pytest, and marks anything else done.
fn game_test_rules(told: &str, game: Option<&str>) -> serde_json::Value {
    let mut rules = vec![
        serde_json::json!({"name": "told the test is wrong", "has": [told],
        "reply": write_reply("test_game.py", &paper_rock_test("first"))}),
    ];
    rules.extend(game.map(|game| {
        serde_json::json!({"name": "the code", "subtask": "Write game.py", "lacks": ["Wrote"],
            "reply": write_reply("game.py", game)})
    }));
    rules.extend([
        serde_json::json!({"name": "the tests", "subtask": "Write test_game.py",
            "lacks": ["Wrote"], "reply": write_reply("test_game.py", &paper_rock_test("second"))}),
        serde_json::json!({"name": "the check", "subtask": "Run `python3 -m pytest",
            "lacks": ["1 passed"], "reply": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 -m pytest -q"}}]}}),
        serde_json::json!({"name": "anything else is done", "reply": {"tool_calls": [{
            "name": "mark_subtask_complete", "arguments": {"success": true, "reason": "done"}}]}}),
    ]);
    serde_json::Value::Array(rules)
}

/// t41's longest: a right program printed the longest line of its sample,
/// the model's readings of the goal disagreed and foresaw none of it, and
/// the run ended not achieved. Asked which of the output and the readings
/// the command must print, the output put first once and last once, a
/// model that picks the output both times makes it met; one that picks
/// by place, or a reading, leaves it unmet.
#[test]
fn a_program_whose_output_the_model_picks_over_readings_that_disagree_is_met() {
    let lines = "import sys\n\nprint(len(open(sys.argv[1]).read().splitlines()))\n";
    let run = |picks: &[&str]| {
        let mut script = line_count_script(lines, lines, serde_json::json!([]));
        // Three readings, none of them 2.
        script.samples =
            serde_json::json!({"must_print": "5", "output": "The file has 7 lines.", "shows": "9"});
        script.picks = picks.iter().map(|p| p.to_string()).collect();
        line_count_with(script, &[("sample.txt", "one two\nthree\n")], "0")
    };
    let (test, done) = run(&["2"]);
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(state.sample_choices.len(), 1, "{:?}", state.sample_choices);
    assert!(state.sample_choices[0].chosen);
    assert_eq!(state.sample_choices[0].printed, "2");
    let met = naming(&state.requirements, "what the goal asks for");
    assert!(
        met.met && met.evidence.contains("chose that output both times"),
        "{met:?}"
    );

    // By place (`a` both times): the output once, a reading once.
    let (test, ended) = run(&[]);
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    assert!(
        !state.sample_choices[0].chosen,
        "{:?}",
        state.sample_choices
    );
    let (_, ended) = run(&["9"]);
    ended.assert_code(1);
}

/// A requirement the assessment held unmet, given only its command (q1's
/// word-count listed five cases of its own, each on a file it had not
/// seen run, unmet two cycles running), is met when that command prints
/// what the goal's words give for its sample; one whose command prints
/// otherwise stays unmet, told what it must print.
#[test]
fn an_unmet_requirement_whose_command_prints_the_reading_of_its_sample_is_met() {
    let lines = "import sys\n\nprint(len(open(sys.argv[1]).read().splitlines()))\n";
    let assessments = serde_json::json!([{"answer": {"requirements": [
        {"requirement": "prints how many lines the file has", "met": true,
         "evidence": "it printed 2", "about_tests": false, "about_output": true,
         "command": "python3 line_count.py sample.txt", "expects": "2"},
        {"requirement": "handles a longer file", "met": false,
         "evidence": "python3 line_count.py other.txt", "about_tests": false,
         "about_output": false, "command": "python3 line_count.py other.txt",
         "expects": ""}]}}]);
    let run = |other: &str| {
        let reading = serde_json::json!({"python3 line_count.py sample.txt": "2",
            "python3 line_count.py other.txt": other});
        let samples = serde_json::json!({"must_print": reading, "output": reading});
        let files = [
            ("sample.txt", "one two\nthree\n"),
            ("other.txt", "a\nb\nc\n"),
        ];
        line_count_run(lines, lines, samples, assessments.clone(), &files, "0")
    };
    let (test, done) = run("3");
    done.assert_code(0);
    let state = test.assert_replay_matches();
    let longer = naming(&state.requirements, "handles a longer file");
    assert!(longer.met, "{longer:?}");
    assert_eq!(
        longer.evidence,
        "`python3 line_count.py other.txt` printed \"3\", what the goal's words give for the \
         content of other.txt (read apart from the code and its output)"
    );
    assert_eq!(state.samples.len(), 2, "{:?}", state.samples);
    // The goal's words read otherwise: unmet, and said what it must print.
    let (test, ended) = run("4");
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    let longer = naming(&state.requirements, "handles a longer file");
    assert!(!longer.met, "{longer:?}");
    assert_eq!(longer.shown_by.as_ref().unwrap().expects, "4");
    assert!(longer.evidence.contains("give \"4\""), "{longer:?}");
}

/// A model's `rules`, then: a subtask that runs a check runs `command`
/// until it exits 0; any other subtask is done.
fn then_checked(command: &str, mut rules: serde_json::Value) -> serde_json::Value {
    let rules_of = rules.as_array_mut().expect("rules");
    rules_of.push(
        serde_json::json!({"name": "the check", "subtask": "Run `", "lacks": ["exit code 0"],
            "reply": {"tool_calls": [{"name": "run_cmd", "arguments": {"cmd": command}}]}}),
    );
    rules_of.push(
        serde_json::json!({"name": "anything else is done", "reply": {"tool_calls": [{
        "name": "mark_subtask_complete", "arguments": {"success": true, "reason": "done"}}]}}),
    );
    rules
}

/// A hello world whose `__main__` calls a function that returns the
/// greeting prints nothing.
const SILENT_HELLO: &str =
    "def hello():\n    return \"Hello, World!\"\n\n\nif __name__ == \"__main__\":\n    hello()\n";

/// A run of "Write a hello world script" whose model writes
/// [`SILENT_HELLO`], checks it with `python3 hello.py` and says it is done;
/// a cycle that runs it to make it print writes one that prints. The
/// model answers `goal_text` to what the goal's program prints.
fn hello_run(goal_text: serde_json::Value, cycles: &str) -> (Test, crate::support::Run) {
    let mut script: crate::support::fake_ollama::Script =
        serde_json::from_value(serde_json::json!({
            "plan": {"tasks": [{"path": "hello.py", "purpose": "a hello world script"}],
                "check": "python3 hello.py"},
            "rules": then_checked("python3 hello.py", serde_json::json!([
                {"name": "the cycle's change", "subtask": "make its output hold",
                 "lacks": ["Wrote"],
                 "reply": write_reply("hello.py", "print(\"Hello, World!\")\n")},
                {"name": "the write", "subtask": "Write hello.py", "lacks": ["Wrote"],
                 "reply": write_reply("hello.py", SILENT_HELLO)},
            ]))
        }))
        .expect("script");
    script.goal_text = goal_text;
    let test =
        Test::new()
            .serving(script)
            .args(["Write a hello world script", "--max-cycles", cycles]);
    let run = test.run();
    (test, run)
}

/// A goal whose words are the text its program prints ("a hello world
/// script", no word of output) holds the program's run to that text, as
/// the model read it from the goal alone, twice: a program that prints
/// nothing is not done, and a cycle makes it print.
#[test]
fn a_program_that_prints_nothing_of_the_text_its_goal_names_is_not_done() {
    let agreed = serde_json::json!({"always_prints": "Hello, World!", "shown_text": "hello world"});
    let (test, ended) = hello_run(agreed.clone(), "0");
    ended.assert_code(1);
    let state = test.assert_replay_matches();
    let text = state.goal_text.as_ref().expect("asked");
    assert_eq!(text.asked, 2, "{text:?}");
    let held = naming(&state.requirements, "as the goal's words give it");
    assert!(!held.met, "{held:?}");
    assert_eq!(
        held.evidence,
        "`python3 hello.py` printed \"\", which does not say \"Hello, World!\""
    );
    assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
    assert_eq!(test.read("hello.py"), SILENT_HELLO);

    let (test, done) = hello_run(agreed, "1");
    done.assert_code(0);
    let state = test.assert_replay_matches();
    assert_eq!(cycles(&test).len(), 1);
    assert!(
        cycles(&test)[0].contains("Hello, World!"),
        "{:?}",
        cycles(&test)
    );
    let held = naming(&state.requirements, "as the goal's words give it");
    assert!(held.met, "{held:?}");
    assert_eq!(
        held.evidence,
        "`python3 hello.py` printed \"Hello, World!\""
    );
    // Asked once a run, not again at the cycle's assessment.
    let asked = test
        .records()
        .into_iter()
        .filter(|r| matches!(r.event, Event::GoalTextRead { .. }))
        .count();
    assert_eq!(asked, 1);
}

/// What the goal's words do not give holds no text: answers that agree on
/// a text that is not words of the goal (a model's own greeting), or that
/// disagree after a third question. That the program prints something,
/// which every answer gives, is held: the silent hello is not done (both
/// ended "Goal achieved" before).
#[test]
fn a_text_that_is_not_the_goals_words_is_not_held() {
    for (answers, asked) in [
        (
            serde_json::json!({"always_prints": "Hi there!", "shown_text": "Hi there"}),
            2,
        ),
        (
            serde_json::json!({"always_prints": "Hello, World!", "shown_text": "Hello!",
                "every_time": "Hi"}),
            3,
        ),
    ] {
        let (test, ended) = hello_run(answers, "0");
        ended.assert_code(1);
        assert!(!ended.stderr.contains("Goal achieved"), "{}", ended.stderr);
        let state = test.assert_replay_matches();
        assert_eq!(state.goal_text.as_ref().map(|t| t.asked), Some(asked));
        assert!(
            !state
                .requirements
                .iter()
                .any(|r| r.requirement.contains("as the goal's words give it")),
            "{:?}",
            state.requirements
        );
        let speaking = naming(&state.requirements, "prints something every time it runs");
        assert!(!speaking.met, "{speaking:?}");
        assert!(
            speaking
                .evidence
                .starts_with("`python3 hello.py` printed nothing"),
            "{speaking:?}"
        );
    }
}

/// A plan holds what the goal asks: a test file the goal does not ask
/// for is left out of the plan, and the check runs the program instead
/// of the tests (an existing-hello run planned tests of a function the
/// script did not define and spent its rounds on them).
#[test]
fn tests_the_goal_does_not_ask_for_are_not_planned() {
    let planned = |goal: &str| {
        let script: crate::support::fake_ollama::Script =
            serde_json::from_value(serde_json::json!({
                "plan": {"tasks": [{"path": "hello.py", "purpose": "a hello world script"},
                    {"path": "test_hello.py", "purpose": "tests of hello.py"}],
                    "check": "python3 -m pytest -q"},
                "rules": then_checked("python3 hello.py", serde_json::json!([
                    {"name": "the tests", "subtask": "Write test_hello.py", "lacks": ["Wrote"],
                     "reply": write_reply("test_hello.py",
                        "from hello import hello\n\n\ndef test_hello():\n    assert hello(1) == 'Hello, 1!'\n")},
                    {"name": "the write", "subtask": "Write hello.py", "lacks": ["Wrote"],
                     "reply": write_reply("hello.py", "print(\"Hello, World!\")\n")},
                ]))
            }))
            .expect("script");
        let test = Test::new()
            .serving(script)
            .args([goal, "--max-cycles", "0"]);
        let run = test.run();
        (test, run)
    };
    let (test, run) = planned("Write a hello world script");
    run.assert_code(0);
    assert_eq!(
        tasks(&test, false)[0].subtasks,
        [
            "Write hello.py: a hello world script. Complete working code, no placeholders",
            "Run `python3 hello.py` and make it succeed (fix the files if it fails)"
        ]
    );
    assert!(!test.root().join("test_hello.py").exists());
    // Asked for tests, the same plan keeps them.
    let (test, _) = planned("Write a hello world script with tests");
    let subtasks = &tasks(&test, false)[0].subtasks;
    assert!(
        subtasks[1].starts_with("Write test_hello.py"),
        "{subtasks:?}"
    );
}

/// With nothing agreed of what the goal's option makes a program print,
/// an assessment's own text for that command which no reading gave does
/// not hold a right program unmet: s2's cli-flag printed `HELLO, WORLD!`
/// (a lone reading, the others what it printed before), the assessment
/// wanted `HELLO, world!`, and its cycle made the program shout without
/// the flag.
#[test]
fn an_assessments_own_text_no_reading_gave_does_not_hold_a_right_program() {
    let right = HI.replace("Hi, ", "Hello, ");
    let mut script = shouting_by(vec![
        ends_when("exit code 0", true, "it runs"),
        ends_when("Wrote ", true, "written"),
        serde_json::json!({"name": "right", "subtask": "--shout flag",
            "reply": write_reply("greet.py", &right)}),
    ]);
    script.prints = serde_json::json!({"prints": ["HELLO, WORLD!", "HELLO, ONE!"]});
    script.outputs = Some(serde_json::json!({"outputs": ["Hello, world!", "Hello, one!"]}));
    script.texts = Some(serde_json::json!({"texts": ["Hello, world!", "Hello, one!"]}));
    script.assessments = serde_json::from_value(serde_json::json!([{"answer": {"requirements": [
        {"requirement": "--shout prints the greeting in capitals", "met": false,
         "evidence": "it should print HELLO, world!", "about_tests": false,
         "about_output": true, "command": "python3 greet.py --shout",
         "expects": "HELLO, world!"}]}}]))
    .expect("assessments");
    let test = greet_project(script).args([SHOUT_GOAL, "--max-cycles", "0"]);
    let run = test.run();
    run.assert_code(0);
    let state = test.assert_replay_matches();
    let own = naming(&state.requirements, "in capitals");
    assert!(own.met, "{own:?}");
    assert!(
        own.evidence
            .starts_with("it printed \"HELLO, WORLD!\"; what it must print is held"),
        "{}",
        own.evidence
    );
    assert_eq!(test.read("greet.py"), right);
}

/// An assessment that calls the tests unmet on the runner's own words for
/// a check with no passing test, while the tests ran and passed, copied
/// the last assessment's evidence (v1's bank-tests: "The last check ran no
/// test that passed" beside `3 passed`, and a cycle wrote the tests again):
/// it is asked again, told what the check shows now.
#[test]
fn an_assessment_that_copies_stale_evidence_is_asked_again() {
    let code = "def add(a, b):\n    return a + b\n";
    let tests = "from mathx import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let requirement = |met: bool, evidence: &str| {
        serde_json::json!({"requirements": [
            {"requirement": "pytest tests of add", "met": met, "evidence": evidence,
             "about_tests": true, "about_output": false, "command": "", "expects": ""}]})
    };
    let script: crate::support::fake_ollama::Script = serde_json::from_value(serde_json::json!({
        "plan": {"tasks": [{"path": "mathx.py", "purpose": "add(a, b)"},
                           {"path": "test_mathx.py", "purpose": "tests of add"}],
            "check": "python3 -m pytest -q"},
        "rules": [
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            on_subtask("test_mathx.py", "write_file",
                serde_json::json!({"path": "test_mathx.py", "content": tests})),
            on_subtask("mathx.py", "write_file",
                serde_json::json!({"path": "mathx.py", "content": code}))
        ],
        "assessments": [
            {"has": ["is not true now"],
             "answer": requirement(true, "test_add passed")},
            {"answer": requirement(false, "The last check ran no test that passed.")}
        ],
        "otherwise": {"tool_calls": [{"name": "run_cmd",
            "arguments": {"cmd": "python3 -m pytest -q"}}]}
    }))
    .expect("script");
    let test = Test::new()
        .serving(script)
        .args(["Write mathx.py with a function add(a, b) and pytest tests for it"]);
    let run = test.run();
    let told = test
        .server()
        .requests()
        .iter()
        .map(|request| request["messages"].to_string())
        .find(|text| text.contains("is not true now"))
        .expect("asked again");
    assert!(
        told.contains(
            "its evidence \\\"The last check ran no test that passed.\\\" is not true now: \
             `python3 -m pytest -q` ran tests and they passed (1 passed)"
        ),
        "{told}"
    );
    assert!(cycles(&test).is_empty(), "{:?}", cycles(&test));
    run.assert_code(0);
}

/// A function the goal calls, written under a longer name, is unmet with
/// the file that defines it and that name said, and its cycle changes that
/// file (t26's textcase wrote `snake_case` for `snake(s)`, and its cycles
/// were sent to the package's `__init__.py`).
#[test]
fn a_function_written_under_a_longer_name_is_renamed_in_its_own_file() {
    let longer = format!(
        "{TEXTUTIL}\n\ndef count_vowels_in(text):\n    return sum(c in 'aeiou' for c in text.lower())\n"
    );
    let script = add_count_vowels(
        "python3 textutil.py",
        serde_json::json!([
            ends_when("exit code 0", true, "it runs"),
            ends_when("Wrote ", true, "written"),
            on_subtask(
                "so that must be its name",
                "write_file",
                serde_json::json!({"path": "textutil.py", "content": with_count_vowels()})
            ),
            on_subtask(
                "Change textutil.py",
                "write_file",
                serde_json::json!({"path": "textutil.py", "content": longer})
            )
        ]),
        "def count_vowels_in(text) counts them",
    );
    let test = add_function_cycles(script, TEXTUTIL, "1");
    let run = test.run();
    let cycle = tasks(&test, true);
    assert_eq!(cycle.len(), 1, "{:?}", cycles(&test));
    assert!(
        cycle[0].subtasks[0].starts_with("Change textutil.py: Make this true:")
            && cycle[0].subtasks[0].contains(
                "no source file of the workspace defines count_vowels; textutil.py defines \
                 count_vowels_in: the goal calls it count_vowels, so that must be its name"
            ),
        "{:?}",
        cycle[0].subtasks
    );
    // The rename went through (the longer name was not put back, nor the
    // write refused as a copy of it), and the name is met since.
    let textutil = test.read("textutil.py");
    assert!(
        textutil.contains("def count_vowels(text)") && !textutil.contains("count_vowels_in"),
        "{textutil}"
    );
    let state = test.assert_replay_matches();
    assert!(
        !state
            .requirements
            .iter()
            .any(|r| r.requirement == "count_vowels is defined as the goal says"),
        "{:?}",
        state.requirements
    );
    // What is left is a run of the function, which this model never makes.
    run.assert_code(1);
}

/// t101's pricing-package: `int(float(text) * 100)` gives 350 for the
/// goal's '3.50' and 114 for '1.15'; its tests asserted what it gave, and
/// the run ended "Goal achieved". The goal's example is called again with
/// other digits, and a function that returns otherwise than writings of
/// it, which return the goal's own value on the goal's own call, agree on
/// is held wrong. A writing wrong on the goal's own call holds nothing.
#[test]
fn a_function_right_on_the_goals_example_and_wrong_a_digit_away_is_not_done() {
    const PRICES: &str = "def dollars(cents):\n    return cents // 100\n";
    let floored = format!("{PRICES}\n\ndef to_cents(text):\n    return int(float(text) * 100)\n");
    let rounded = "def to_cents(text):\n    return round(float(text) * 100)\n";
    let wrong = "def to_cents(text):\n    return int(float(text))\n";
    let script = |code: &str, writes: &[&str], chooses: &[&str]| {
        serde_json::from_value::<crate::support::fake_ollama::Script>(serde_json::json!({
            "plan": {"tasks": [{"path": "prices.py", "purpose": "add to_cents"}],
                "check": "python3 prices.py"},
            "rules": [
                ends_when("exit code 0", true, "it runs"),
                ends_when("Wrote ", true, "written"),
                on_subtask("prices.py", "write_file",
                    serde_json::json!({"path": "prices.py", "content": code}))
            ],
            "assessments": [{"has": [], "answer": {"requirements": [
                {"requirement": "to_cents(text) gives the whole number of cents",
                 "met": true, "evidence": "def to_cents multiplies by 100",
                 "about_tests": false, "about_output": false, "command": "", "expects": ""}]}}],
            "examples": {"examples": [
                "assert to_cents('3.50') == 350", "assert to_cents('0.05') == 5"]},
            "writes": writes,
            "chooses": chooses,
            "otherwise": {"tool_calls": [{"name": "run_cmd",
                "arguments": {"cmd": "python3 prices.py"}}]}
        }))
        .expect("script")
    };
    let test = |code: &str, writes: &[&str], chooses: &[&str]| {
        Test::new()
            .serving(script(code, writes, chooses))
            .file("prices.py", PRICES)
            .args([
                "Add to_cents(text) to prices.py: it turns a price like '3.50' into the whole \
             number of cents, 350",
                "--max-cycles",
                "0",
            ])
    };
    let held = "to_cents returns what the goal says it returns";

    // The model, asked which of 489 and 488 '4.89' gives, says 489.
    let floor = test(&floored, &[rounded, rounded], &["489"]);
    floor.run().assert_code(1);
    let state = floor.assert_replay_matches();
    let examples = state.examples.clone().unwrap_or_default();
    // Twelve prices of the shape of '3.50', each held to what the
    // writings return; the function truncates one of them.
    let changed: Vec<(&str, &str)> = examples
        .iter()
        .filter(|e| e.variant)
        .map(|e| (e.call.as_str(), e.returns[0].as_str()))
        .collect();
    assert_eq!(changed.len(), 12, "{examples:?}");
    assert!(
        changed.contains(&("to_cents('4.89')", "489")),
        "{examples:?}"
    );
    let unmet = naming(&state.requirements, held);
    assert!(
        !unmet.met && unmet.evidence.contains("to_cents('4.89') returned 488"),
        "{unmet:?}"
    );
    // Neither the plan nor a test is held to them as the goal's words.
    assert_eq!(
        state.goal_given(),
        [
            ("to_cents('3.50')".to_string(), "350".to_string()),
            ("to_cents('0.05')".to_string(), "5".to_string())
        ]
    );

    // A model that does not choose the writings' value both times (it
    // chooses by place, or the goal's words do not decide the call) holds
    // the function to nothing there.
    let unchosen = test(&floored, &[rounded, rounded], &[]);
    unchosen.run().assert_code(0);
    let state = unchosen.assert_replay_matches();
    assert!(
        state
            .settled
            .iter()
            .any(|s| s.call == "to_cents('4.89')" && !s.held),
        "{:?}",
        state.settled
    );

    // Writings that do not return the goal's 350 for '3.50' say nothing,
    // of other prices or of '0.05' (they agree on 0 there, and the model's
    // 5 stands): the function is judged as before.
    let unfaithful = test(&floored, &[wrong, wrong, wrong], &["489"]);
    unfaithful.run().assert_code(0);
    let state = unfaithful.assert_replay_matches();
    let examples = state.examples.clone().unwrap_or_default();
    assert!(!examples.iter().any(|e| e.written), "{examples:?}");

    // A right function returns what the writings agree on.
    let right = test(&format!("{PRICES}\n\n{rounded}"), &[rounded, rounded], &[]);
    right.run().assert_code(0);
    let state = right.assert_replay_matches();
    let examples = state.examples.clone().unwrap_or_default();
    assert!(examples.iter().any(|e| e.variant), "{examples:?}");
}
