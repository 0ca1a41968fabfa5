use super::*;
use pretty_assertions::assert_eq;

#[test]
fn a_failed_command_points_at_the_file_to_fix() {
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 -m pytest -q` exit code 1: NameError: name 'f' is not defined".into(),
            file: Some("test_a.py line 2".into()),
        }
    );
    assert!(
        next_step(&s, &[]).contains(
            "The error is at test_a.py line 2. Fix it: answer with write_file and the whole \
             corrected content of test_a.py."
        ),
        "{}",
        next_step(&s, &[])
    );
    let traceback = "\n--- stderr ---\nTraceback (most recent call last):\n  File \"/w/a.py\", line 7, in <module>\n    main()\nValueError: bad move";
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran("python3 a.py", 1, traceback))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 a.py` exit code 1: ValueError: bad move".into(),
            file: Some("a.py line 7".into()),
        }
    );
}

#[test]
fn a_command_that_timed_out_says_so() {
    let mut s = state();
    let end = CommandEnd::TimedOut { secs: 5 };
    let outcome = ActionOutcome {
        ok: false,
        result: format!("$ python3 a.py\n{}", end.describe()),
        command: Some("python3 a.py".into()),
        end: Some(end),
        ..ActionOutcome::default()
    };
    exchange(&mut s, vec![("run_cmd", Did::Ran(outcome))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 a.py` timed out after 5 s; the command was killed".into(),
            // The command line names the file.
            file: Some("a.py".into()),
        }
    );
}

#[test]
fn a_call_that_worked_offers_the_call_that_ends_the_subtask() {
    let mut s = state();
    exchange(
        &mut s,
        vec![("write_file", wrote("a.py", true)), ("note", Did::Note)],
    );
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "wrote a.py".into()
        }
    );
    assert!(next_step(&s, &[]).contains(
        r#"answer with exactly {"name":"mark_subtask_complete","arguments":{"success":true,"reason":"wrote a.py"}}"#
    ));
    let mut s = state();
    exchange(
        &mut s,
        vec![("run_cmd", ran("python3 a.py", 0, "\n--- stdout ---\nhi"))],
    );
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "ran python3 a.py: exit code 0".into()
        }
    );
    let mut s = state();
    let refused = ActionOutcome::refused(
        RefusalKind::CommandNotAllowed,
        "node is not an allowed program".into(),
    );
    exchange(&mut s, vec![("run_cmd", Did::Ran(refused))]);
    assert_eq!(
        last(&s),
        Last::Refused {
            why: "Error: node is not an allowed program".into(),
            kind: Some(RefusalKind::CommandNotAllowed),
        }
    );
}

#[test]
fn focus_decides_from_the_outcome_not_from_the_words_of_the_result() {
    // A result that reads like a write, of a write that did not happen.
    let mut s = state();
    let not_written = ActionOutcome {
        ok: false,
        result: "Wrote 3 bytes to a.py".into(),
        ..ActionOutcome::default()
    };
    exchange(&mut s, vec![("write_file", Did::Ran(not_written))]);
    assert_eq!(
        last(&s),
        Last::Refused {
            why: "Wrote 3 bytes to a.py".into(),
            kind: None,
        }
    );
    assert!(!acted(&s));
    // A command whose output claims success but that exited with 1.
    let mut s = state();
    exchange(
        &mut s,
        vec![("run_cmd", ran("python3 a.py", 1, "\nexit code 0"))],
    );
    assert!(matches!(last(&s), Last::Failed { .. }), "{:?}", last(&s));
    // And a write whose result says nothing of it is still a write.
    let mut s = state();
    let Did::Ran(mut outcome) = wrote("a.py", true) else {
        unreachable!()
    };
    outcome.result = "done".into();
    exchange(&mut s, vec![("write_file", Did::Ran(outcome))]);
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "wrote a.py".into()
        }
    );
}

#[test]
fn an_unchanged_write_after_a_failure_is_still_the_failure() {
    let collect = "\n--- stdout ---\nERRORS\nE     File \"/w/test_a.py\", line 2\nE       assert f() == 'It's'\nE   SyntaxError: unterminated string literal (detected at line 2)\n=== short test summary info ===\nERROR test_a.py\n1 error in 0.27s";
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 2, collect))]);
    exchange(&mut s, vec![("write_file", wrote("test_a.py", false))]);
    let Last::Failed { what, file } = last(&s) else {
        panic!("{:?}", last(&s));
    };
    assert_eq!(
        what,
        "your write changed nothing (test_a.py already had that content), so `python3 -m \
         pytest -q` exit code 2: SyntaxError: unterminated string literal (detected at line 2)"
    );
    assert_eq!(file.as_deref(), Some("test_a.py line 2"));
    let contents = [(
        "test_a.py".to_string(),
        "from a import f\n    assert f() == 'It's'\n".to_string(),
    )];
    assert!(
        next_step(&s, &contents)
            .contains("The error is at test_a.py line 2. Line 2 is: assert f() == 'It's' Fix it"),
        "{}",
        next_step(&s, &contents)
    );
}

/// A fix question asked again after its answer wrote the function back as
/// it was says so (t25's grades-fix gave the same `letter` three times).
#[test]
fn a_write_that_changed_nothing_is_a_function_written_back() {
    let mut s = state();
    assert!(!wrote_back(&s, "a.py"), "no write yet");
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert!(!wrote_back(&s, "a.py"), "a write that changed it");
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    exchange(&mut s, vec![("write_file", wrote("a.py", false))]);
    assert!(wrote_back(&s, "a.py"));
    assert!(!wrote_back(&s, "b.py"), "another module");
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    assert!(
        wrote_back(&s, "a.py"),
        "the last write counts, whatever ran since"
    );
}

#[test]
fn refused_calls_are_not_work_done_and_keep_their_kind() {
    let refused = || {
        (
            "write_file",
            Did::Refused(
                RefusalKind::LanguageRefused,
                "not written: every function in a.py is a placeholder",
            ),
        )
    };
    let mut s = state();
    exchange(&mut s, vec![refused()]);
    assert!(!acted(&s), "only a refused write");
    assert_eq!(
        last(&s),
        Last::Refused {
            why: "not written: every function in a.py is a placeholder".into(),
            kind: Some(RefusalKind::LanguageRefused),
        }
    );
    assert!(!gave_up_before(&s));
    exchange(
        &mut s,
        vec![(
            COMPLETE,
            Did::Refused(
                RefusalKind::GaveUpTooSoon,
                "not accepted: do not give up yet",
            ),
        )],
    );
    assert!(gave_up_before(&s));
    assert_eq!(
        s.calls.back().map(|fact| &fact.came),
        Some(&Came::Refused {
            kind: RefusalKind::GaveUpTooSoon
        })
    );
    exchange(&mut s, vec![refused(), ("write_file", wrote("a.py", true))]);
    assert!(acted(&s));
}

#[test]
fn an_edit_its_tool_refused_is_a_refused_write_with_its_kind() {
    let mut s = state();
    let no_match = ActionOutcome::refused(
        RefusalKind::EditNoMatch,
        "edit_file a.py: `old` is not in the file".into(),
    );
    exchange(&mut s, vec![("edit_file", Did::Ran(no_match))]);
    assert!(!acted(&s));
    let Last::Refused {
        kind: Some(kind), ..
    } = last(&s)
    else {
        panic!("{:?}", last(&s));
    };
    assert_eq!(kind, RefusalKind::EditNoMatch);
    assert!(kind.is_refused_write(), "giving up after it is too soon");
}

#[test]
fn an_edit_sent_again_whose_new_is_there_counts_as_done() {
    // l1's add-function: a cycle's subtask whose function was there; the
    // model sent the edit that had made it, and its claim was refused as
    // "nothing has been done" until the loop guard failed the subtask.
    let mut s = state();
    let again = ActionOutcome::refused(
        RefusalKind::EditMadeBefore,
        "edit_file textutil.py: textutil.py holds this `new` already (from line 11)".into(),
    );
    exchange(&mut s, vec![("edit_file", Did::Ran(again))]);
    assert!(acted(&s));
    assert_eq!(
        last(&s),
        Last::Worked {
            did: "found that textutil.py holds what the edit was to make already: nothing \
                  changed"
                .into()
        }
    );
}

/// A test of the project that passed before the run and fails now is
/// named as broken by the run; one that failed before, or of a test file
/// the run changed, is not.
#[test]
fn a_test_that_passed_before_the_run_and_fails_now_is_named_broken() {
    let summary = "\n=== short test summary info ===\nFAILED test_calc.py::test_add - assert 6 == 5\nFAILED test_calc.py::test_average - assert 3.0 == 4\n2 failed, 1 passed in 0.02s";
    let mut s = state();
    s.tests_before = Some(false);
    s.failing_before = vec!["test_calc.py::test_average".into()];
    in_baseline(&mut s, "test_calc.py");
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, summary))]);
    let Last::Failed { what, .. } = last(&s) else {
        panic!("{:?}", last(&s));
    };
    assert!(
        what.ends_with(
            "; test_calc.py::test_add passed before this run and fails now: a change of this run \
             broke what it tests (put back what it needs and fix only what failed before)"
        ),
        "{what}"
    );
    s.baseline.changed = vec!["test_calc.py".into()];
    let Last::Failed { what, .. } = last(&s) else {
        panic!("{:?}", last(&s));
    };
    assert!(!what.contains("passed before this run"), "{what}");
}

/// A subtask that writes a file the run made has nothing to keep it from
/// being marked done after a command; one that changes a file that was
/// there before the run, or one of a cycle, has, until a write or an edit
/// runs in it.
#[test]
fn a_change_with_nothing_changed_is_known_for_project_files_and_cycles() {
    let mut s = state();
    exchange(&mut s, vec![("run_cmd", ran("python3 a.py", 0, ""))]);
    assert_eq!(unchanged(&s), None, "a.py is the run's own");
    let mut existing = s.clone();
    in_baseline(&mut existing, "a.py");
    assert_eq!(unchanged(&existing), Some("a.py".into()));
    let mut cycle = s.clone();
    cycle.cycles = 1;
    assert_eq!(unchanged(&cycle), Some("a.py".into()));
    let mut same = existing.clone();
    exchange(&mut same, vec![("write_file", wrote("a.py", false))]);
    assert_eq!(
        unchanged(&same),
        Some("a.py".into()),
        "a write of the content it had changes nothing"
    );
    assert_eq!(
        last(&same),
        Last::Worked {
            did: "wrote a.py with the content it had: nothing changed".into()
        }
    );
    let mut same_edit = existing.clone();
    exchange(&mut same_edit, vec![("edit_file", wrote("a.py", false))]);
    assert_eq!(unchanged(&same_edit), Some("a.py".into()));
    assert_eq!(
        last(&same_edit),
        Last::Worked {
            did: "edited a.py with `new` equal to `old`: it holds that text already, nothing \
                  changed"
                .into()
        }
    );
    exchange(&mut existing, vec![("write_file", wrote("a.py", true))]);
    assert_eq!(unchanged(&existing), None, "written since");
}

/// `path` as a file that was there before the run.
fn in_baseline(state: &mut State, path: &str) {
    let file = crate::state::BaselineFile {
        path: path.into(),
        size: 1,
        modified: 0,
        sha256: None,
    };
    state.baseline.files.insert(path.into(), file);
}

#[test]
fn a_failing_test_of_the_project_points_at_the_code_it_calls() {
    // v1's calc-fix run (Ollama API): told that the test may be wrong, a
    // small model wrote calc.py again unchanged until it was blocked.
    let out = "\n--- stdout ---\n.F                   [100%]\n=== FAILURES ===\n___ test_average ___\n\n    def test_average():\n>       assert average([2, 4, 6]) == 4\nE       assert 3.0 == 4\nE        +  where 3.0 = average([2, 4, 6])\n\ntest_calc.py:9: AssertionError\n=== short test summary info ===\nFAILED test_calc.py::test_average - assert 3.0 == 4\n1 failed, 1 passed in 0.05s";
    let contents = [
        (
            "calc.py".to_string(),
            "def add(a, b):\n    return a + b\n\n\ndef average(numbers):\n    return sum(numbers) / (len(numbers) + 1)\n"
                .to_string(),
        ),
        (
            "test_calc.py".to_string(),
            "from calc import add, average\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_average():\n    assert average([2, 4, 6]) == 4\n"
                .to_string(),
        ),
    ];
    let mut s = state();
    let written = FileRecord {
        sha256: String::new(),
        created: true,
        ..FileRecord::default()
    };
    s.files.insert("test_calc.py".into(), written.clone());
    s.files.insert("calc.py".into(), written);
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, out))]);
    // A test of the run's own may be the wrong one.
    let step = next_step(&s, &contents);
    assert!(
        step.contains("If the code is right, the test is wrong"),
        "{step}"
    );
    assert_eq!(
        repair(&s, &contents, |_| None),
        None,
        "the run's own test may be wrong"
    );
    // The project's test, failing before the run, is right.
    s.files.remove("test_calc.py");
    s.baseline.files.insert(
        "test_calc.py".into(),
        crate::state::BaselineFile {
            path: "test_calc.py".into(),
            size: 0,
            modified: 0,
            sha256: None,
        },
    );
    s.failing_before = vec!["test_calc.py::test_average".into()];
    let step = next_step(&s, &contents);
    assert!(
        step.contains(
            "`average([2, 4, 6])` returned 3.0, not 4. The test is the project's own and is \
             right: the bug is in average of calc.py. It is defined so:\n5: def \
             average(numbers):\n6:     return sum(numbers) / (len(numbers) + 1)\n Find what in \
             it gives 3.0 instead of 4, and change that. Fix it: answer with write_file and the \
             whole corrected content of calc.py."
        ),
        "{step}"
    );
    // One that passed before and fails now, in a test file the run has
    // not changed, the run broke (t98's shipping-fix was told to write
    // the project's test file); in one the run changed, the failing test
    // may be one the run added.
    s.failing_before.clear();
    assert_eq!(next_step(&s, &contents), step);
    s.baseline.changed.push("test_calc.py".into());
    assert!(
        !next_step(&s, &contents).contains("The test is the project's own"),
        "{}",
        next_step(&s, &contents)
    );
    s.baseline.changed.clear();
    // Written by the run as it was (t108's shipping-fix), it is still the
    // project's; written otherwise, not.
    s.baseline.files.get_mut("test_calc.py").unwrap().sha256 = Some("abc".into());
    let record = |sha256: &str| FileRecord {
        sha256: sha256.into(),
        ..FileRecord::default()
    };
    s.files.insert("test_calc.py".into(), record("abc"));
    assert_eq!(next_step(&s, &contents), step);
    s.files.insert("test_calc.py".into(), record("def"));
    assert!(
        !next_step(&s, &contents).contains("The test is the project's own"),
        "{}",
        next_step(&s, &contents)
    );
    s.files.remove("test_calc.py");
    s.failing_before = vec!["test_calc.py::test_average".into()];
    // The fix is asked in a question of its own.
    assert_eq!(
        repair(&s, &contents, |_| None),
        Some(Repair {
            module: "calc.py".into(),
            name: "average".into(),
            language: "python",
            shown: Shown::Test {
                test: "test_calc.py".into(),
                line: "assert average([2, 4, 6]) == 4".into(),
                goal: false,
            },
            call: "average([2, 4, 6])".into(),
            actual: "3.0".into(),
            expected: "4".into(),
            definition: "def average(numbers):\n    return sum(numbers) / (len(numbers) + 1)"
                .into(),
            trace: None,
            unchanged: false,
        })
    );
    // Not when the module is not among the files shown.
    assert_eq!(repair(&s, &contents[1..], |_| None), None);
}

#[test]
fn a_failing_test_of_what_the_goal_says_points_at_the_code_it_calls() {
    // t30's add-duration: its test of what the goal says failed, and the
    // model wrote the test to what the code gave.
    let out = |expected: &str, line: &str| {
        format!(
            "\n--- stdout ---\nF                   [100%]\n=== FAILURES ===\n___ test_average ___\n\n    def test_average():\n>       {line}\nE       assert 3.0 == {expected}\nE        +  where 3.0 = average([2, 4, 6])\n\ntest_calc.py:4: AssertionError\n=== short test summary info ===\nFAILED test_calc.py::test_average - assert 3.0 == {expected}\n1 failed in 0.05s"
        )
    };
    let contents = |line: &str| {
        [
            (
                "calc.py".to_string(),
                "def average(numbers):\n    return sum(numbers) / (len(numbers) + 1)\n".to_string(),
            ),
            (
                "test_calc.py".to_string(),
                format!("import calc\n\ndef test_average():\n    {line}\n"),
            ),
        ]
    };
    let mut s = state();
    s.goal = "Give calc.py average(numbers), for example average([2, 4, 6]) gives 4".into();
    let written = FileRecord {
        sha256: String::new(),
        created: true,
        ..FileRecord::default()
    };
    s.files.insert("test_calc.py".into(), written.clone());
    s.files.insert("calc.py".into(), written);
    let line = "assert calc.average([2, 4, 6]) == 4";
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, &out("4", line)))]);
    assert_eq!(
        repair(&s, &contents(line), |_| None),
        None,
        "no examples yet"
    );
    s.examples = Some(vec![crate::lang::examples::Example {
        call: "average([2, 4, 6])".into(),
        returns: vec!["4".into(), "4".into()],
        written: false,
        variant: false,
    }]);
    assert_eq!(
        repair(&s, &contents(line), |_| None),
        Some(Repair {
            module: "calc.py".into(),
            name: "average".into(),
            language: "python",
            shown: Shown::Test {
                test: "test_calc.py".into(),
                line: line.into(),
                goal: true,
            },
            call: "average([2, 4, 6])".into(),
            actual: "3.0".into(),
            expected: "4".into(),
            definition: "def average(numbers):\n    return sum(numbers) / (len(numbers) + 1)"
                .into(),
            trace: None,
            unchanged: false,
        })
    );
    // A test of the run's own that expects another value may be the wrong
    // one.
    let line = "assert calc.average([2, 4, 6]) == 5";
    let mut other = state();
    other.goal = s.goal.clone();
    other.examples = s.examples.clone();
    other.files = s.files.clone();
    exchange(
        &mut other,
        vec![("run_cmd", ran(PYTEST, 1, &out("5", line)))],
    );
    assert_eq!(repair(&other, &contents(line), |_| None), None);
}

#[test]
fn a_failing_test_of_a_function_that_ignores_its_arguments_points_at_the_code() {
    // t31's rps: told "if the code is right, the test is wrong", the model
    // wrote each failing line to what the last random draw gave.
    let out = "\n--- stdout ---\nF                   [100%]\n=== FAILURES ===\n___ test_play ___\n\n    def test_play():\n>       assert play('rock', 'rock') == 'draw'\nE       AssertionError: assert 'player2' == 'draw'\n\ntest_game.py:4: AssertionError\n=== short test summary info ===\nFAILED test_game.py::test_play - AssertionError\n1 failed in 0.05s";
    let game = |body: &str| {
        [
            (
                "game.py".to_string(),
                format!("import random\n\ndef play(player1, player2):\n{body}"),
            ),
            (
                "test_game.py".to_string(),
                "from game import play\n\ndef test_play():\n    assert play('rock', 'rock') == 'draw'\n"
                    .to_string(),
            ),
        ]
    };
    let mut s = state();
    let written = FileRecord {
        sha256: String::new(),
        created: true,
        ..FileRecord::default()
    };
    s.files.insert("test_game.py".into(), written.clone());
    s.files.insert("game.py".into(), written);
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, out))]);
    let random = "    a = random.choice(['rock', 'paper'])\n    return 'draw' if a == 'rock' else 'player2'\n";
    let step = next_step(&s, &game(random));
    assert!(
        step.contains(
            "`play('rock', 'rock')` returned 'player2', not 'draw'. play in game.py never reads \
             its parameters `player1`, `player2`: what it returns does not depend on the \
             arguments a call gives, so no test can hold it. The code is wrong: make play use \
             them. Fix it: answer with write_file and the whole corrected content of game.py."
        ),
        "{step}"
    );
    // One that reads them may be right, and the test wrong.
    let reads = "    return 'draw' if player1 == player2 else 'player2'\n";
    let step = next_step(&s, &game(reads));
    assert!(
        step.contains("If the code is right, the test is wrong") && !step.contains("never reads"),
        "{step}"
    );
}

#[test]
fn the_files_the_plan_keeps_as_they_are_are_read_from_its_subtasks() {
    let mut s = State::default();
    apply(
        &mut s,
        Event::Planned {
            tasks: vec![TaskPlan {
                kinds: vec![
                    SubtaskKind::Write {
                        path: "tests/test_slug.py".into(),
                    },
                    SubtaskKind::Check {
                        cmd: "python3 -m pytest -q".into(),
                    },
                ],
                description: "t".into(),
                subtasks: vec![
                    "Write tests/test_slug.py: tests of slug.py. slug.py stays as it is".into(),
                    "Run `python3 -m pytest -q`".into(),
                ],
            }],
            fallback: None,
            model_calls: 0,
            usage: Default::default(),
            retries: 0,
        },
    );
    assert_eq!(next_step::staying(&s), vec!["slug.py".to_string()]);
    assert!(next_step::staying(&state()).is_empty());
    // Without those words: a goal that speaks of tests keeps each source
    // file the project had that the plan does not write, unless it is a fix.
    let mut s = state();
    s.goal = "Write pytest tests for stack.py".into();
    for path in ["stack.py", "a.py", "notes.txt"] {
        in_baseline(&mut s, path);
    }
    s.files.remove("a.py");
    assert_eq!(next_step::staying(&s), vec!["stack.py".to_string()]);
    s.tests_before = Some(false);
    assert!(next_step::staying(&s).is_empty(), "a fix");
}

#[test]
fn an_error_raised_inside_code_that_stays_points_at_the_test_line_that_called_it() {
    // t22's add-tests: told to fix inventory.py, which the goal keeps, the
    // model tried to write it and was refused until the rounds ran out.
    let out = "\n--- stdout ---\nF                                                                        [100%]\n=================================== FAILURES ===================================\n________________________________ test_inventory ________________________________\n\n    def test_inventory():\n        inventory = Inventory()\n        assert inventory.count('apple') == 0\n>       assert inventory.remove('apple') == None\n               ^^^^^^^^^^^^^^^^^^^^^^^^^\n\ntests/test_inventory.py:6: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n\nself = <inventory.Inventory object at 0x7f5836f2d050>, name = 'apple', count = 1\n\n    def remove(self, name, count=1):\n        if self.items.get(name, 0) < count:\n>           raise ValueError(f\"not enough {name}\")\nE           ValueError: not enough apple\n\ninventory.py:12: ValueError\n=========================== short test summary info ============================\nFAILED tests/test_inventory.py::test_inventory - ValueError: not enough apple\n1 failed in 0.04s";
    let mut s = state();
    s.goal = "Add pytest tests for the Inventory class in inventory.py".into();
    in_baseline(&mut s, "inventory.py");
    let written = FileRecord {
        sha256: String::new(),
        created: true,
        ..FileRecord::default()
    };
    s.files.insert("tests/test_inventory.py".into(), written);
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, out))]);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 -m pytest -q` exit code 1: ValueError: not enough apple (raised \
                   inside inventory.py line 12, which stays as it is: that is what it does for \
                   the call at tests/test_inventory.py line 6, so that line of the test is what \
                   is wrong: expect the error there (`with pytest.raises(ValueError):` with the \
                   call in its block, after `import pytest`), or call it as it works)"
                .into(),
            file: Some("tests/test_inventory.py line 6".into()),
        }
    );
    // A fix (the project's tests failed before the run): the code is what
    // is wrong, and the place is where it raised.
    s.tests_before = Some(false);
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 -m pytest -q` exit code 1: ValueError: not enough apple".into(),
            file: Some("inventory.py line 12".into()),
        }
    );
}

#[test]
fn an_error_raised_in_the_code_from_the_projects_test_is_asked_of_the_function() {
    // t104's stock-fix: the project's test's call raised ValueError inside
    // stock.py; no question was asked, and the model rewrote the rest.
    let out = "\n--- stdout ---\n..F.                 [100%]\n=== FAILURES ===\n____ test_remove_everything ____\n\n    def test_remove_everything():\n        stock = {\"pen\": 3}\n>       assert remove_stock(stock, \"pen\", 3) == 0\n               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\ntest_stock.py:6: \n_ _ _ _ _ _ _ _\n\nstock = {'pen': 3}, item = 'pen', qty = 3\n\n    def remove_stock(stock, item, qty):\n        have = stock.get(item, 0)\n        if have <= qty:\n>           raise ValueError(f\"only {have} {item} left\")\nE           ValueError: only 3 pen left\n\nstock.py:3: ValueError\n=== short test summary info ===\nFAILED test_stock.py::test_remove_everything - ValueError: only 3 pen left\n1 failed, 3 passed in 0.02s";
    let code = "def remove_stock(stock, item, qty):\n    have = stock.get(item, 0)\n    if have <= qty:\n        raise ValueError(f\"only {have} {item} left\")\n    stock[item] = have - qty\n    return stock[item]\n";
    let contents = [
        ("stock.py".to_string(), code.to_string()),
        (
            "test_stock.py".to_string(),
            "def test_remove_everything():\n    stock = {\"pen\": 3}\n    assert remove_stock(stock, \"pen\", 3) == 0\n"
                .replace("def test", "from stock import remove_stock\n\n\ndef test"),
        ),
    ];
    let mut s = state();
    in_baseline(&mut s, "stock.py");
    in_baseline(&mut s, "test_stock.py");
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, out))]);
    // A test the run changed may be the wrong one.
    s.baseline.changed.push("test_stock.py".into());
    assert_eq!(repair(&s, &contents, |_| None), None);
    s.baseline.changed.clear();
    s.failing_before = vec!["test_stock.py::test_remove_everything".into()];
    let asked = repair(&s, &contents, |_| None).expect("a repair");
    assert_eq!(
        (
            asked.module.as_str(),
            asked.name.as_str(),
            asked.call.as_str()
        ),
        (
            "stock.py",
            "remove_stock",
            "remove_stock(stock, \"pen\", 3)"
        )
    );
    assert_eq!(
        (asked.actual.as_str(), asked.expected.as_str()),
        ("raised ValueError: only 3 pen left", "0")
    );
    let question = crate::agent::prompt::repair_question(&asked);
    assert!(
        question.ask.contains(
            "`remove_stock(stock, \"pen\", 3)` raised ValueError: only 3 pen left; the test \
             expects 0."
        ) && question
            .ask
            .contains("What in remove_stock raises ValueError: only 3 pen left instead of 0?"),
        "{}",
        question.ask
    );
}
