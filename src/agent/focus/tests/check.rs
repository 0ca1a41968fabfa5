use super::*;
use pretty_assertions::assert_eq;

#[test]
fn a_check_subtask_ends_when_its_command_passes() {
    let mut s = state();
    assert_eq!(check_command(&s), None, "the first subtask is no check");
    let mut fresh = s.clone();
    fresh.files.clear();
    assert_eq!(known_paths(&fresh), ["a.py"], "named by the subtask's kind");
    assert_eq!(known_paths(&s), ["a.py", "test_a.py"]);
    // The files there were before the run, unless gone.
    let mut existing = fresh.clone();
    for path in ["calc.py", "gone.py", "a.py"] {
        existing.baseline.files.insert(
            path.into(),
            crate::state::BaselineFile {
                path: path.into(),
                size: 1,
                modified: 0,
                sha256: None,
            },
        );
    }
    existing.baseline.deleted.push("gone.py".into());
    assert_eq!(known_paths(&existing), ["a.py", "calc.py"]);
    wrote_a_and_completed(&mut s);
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert_eq!(check_command(&s).as_deref(), Some(PYTEST));
    // After a write the check is run again, not the subtask marked done.
    assert!(!check_passed(&s, PYTEST));
    assert!(check_unknown(&s, PYTEST));
    assert!(next_step(&s, &[]).contains(
        r#"Now run the check again: answer with exactly {"name":"run_cmd","arguments":{"cmd":"python3 -m pytest -q"}}"#
    ));
    exchange(&mut s, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    assert!(!check_passed(&s, PYTEST), "it failed");
    assert!(!check_unknown(&s, PYTEST));
    exchange(
        &mut s,
        vec![("run_cmd", ran("python3  -m pytest -q", 0, "\n1 passed"))],
    );
    assert!(check_passed(&s, PYTEST));
    assert!(next_step(&s, &[]).contains(r#""name":"mark_subtask_complete""#));
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert!(!check_passed(&s, PYTEST), "a write came after");
    assert!(check_unknown(&s, PYTEST));
}

/// A subtask that shows a requirement is done when its command passes and
/// prints what it must; a run that exits with code 0 and prints something
/// else is a failure, pointed at the program it runs.
#[test]
fn a_show_subtask_ends_when_its_output_holds_what_it_must() {
    const SHOUT: &str = "python3 a.py --shout";
    let mut s = state();
    s.tree.tasks[0].subtasks[1].kind = SubtaskKind::Show {
        cmd: SHOUT.into(),
        expects: "HELLO, WORLD!".into(),
    };
    wrote_a_and_completed(&mut s);
    assert_eq!(check_command(&s).as_deref(), Some(SHOUT));
    assert_eq!(check_expects(&s).as_deref(), Some("HELLO, WORLD!"));
    exchange(
        &mut s,
        vec![(
            "run_cmd",
            ran(SHOUT, 0, "\n--- stdout ---\nHello, --shout!"),
        )],
    );
    assert!(
        !check_passed(&s, SHOUT),
        "exit code 0, but not what it must print"
    );
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 a.py --shout` printed \"Hello, --shout!\", which does not hold \
                   \"HELLO, WORLD!\"; it printed --shout back: the program took the option for \
                   an argument (it must read --shout as an option and print no --shout)"
                .into(),
            file: Some("a.py".into()),
        }
    );
    assert!(next_step(&s, &[]).contains("corrected content of a.py"));
    let mut back = s.clone();
    exchange(
        &mut back,
        vec![(
            "run_cmd",
            ran(SHOUT, 0, "\n--- stdout ---\nHELLO, WORLD! HELLO, --SHOUT!"),
        )],
    );
    assert_eq!(
        last(&back),
        Last::Failed {
            what: "`python3 a.py --shout` printed \"HELLO, WORLD! HELLO, --SHOUT!\"; it printed \
                   --shout back: the program took the option for an argument (it must read \
                   --shout as an option and print no --shout)"
                .into(),
            file: Some("a.py".into()),
        },
        "what it must print is there, and the option too"
    );
    // A parameter of the program no call gives is said with the failure.
    let unwired = [(
        "a.py".to_string(),
        "import sys\n\n\ndef greeting(name, shout=False):\n    return name.upper() if shout else name\n\n\nprint(greeting(sys.argv[-1]))\n".to_string(),
    )];
    let step = next_step(&s, &unwired);
    assert!(
        step.contains(
            "Note: no call in a.py gives `shout` to `greeting` (`greeting(sys.argv[-1])`, line \
             8): it always takes its default. Fix it"
        ),
        "{step}"
    );
    // Where it reads its arguments, and how its language tells an option
    // from the others.
    assert!(
        step.contains(
            "a.py reads its arguments at line 8 `print(greeting(sys.argv[-1]))`: --shout is one \
             of them there. `'--shout' in sys.argv[1:]` is True when --shout is given, and \
             `[arg for arg in sys.argv[1:] if not arg.startswith('-')]` are the other \
             arguments: use them there."
        ),
        "{step}"
    );
    // A program that reads them in a `main(argv)` it gives `sys.argv`
    // (the cli-flag task's greet.py), and one that reads none.
    let greet = "import sys\n\n\ndef main(argv):\n    name = argv[1] if len(argv) > 1 else \"world\"\n    print(name)\n\n\nmain(sys.argv)\n";
    assert_eq!(
        crate::agent::focus::where_option_is_read("greet.py", "--shout", false, greet).as_deref(),
        Some(
            "greet.py reads its arguments at line 4 `def main(argv):`, line 5 `name = argv[1] if \
             len(argv) > 1 else \"world\"`, line 9 `main(sys.argv)`: --shout is one of them \
             there. `'--shout' in sys.argv[1:]` is True when --shout is given, and `[arg for \
             arg in sys.argv[1:] if not arg.startswith('-')]` are the other arguments: use them \
             there."
        )
    );
    assert_eq!(
        crate::agent::focus::where_option_is_read(
            "lib.py",
            "--shout",
            false,
            "def f():\n    return 1\n"
        ),
        None
    );
    // An option with a value is read as one: t1's repeat-times, told how to
    // read a flag, wrote `if '--times' in sys.argv[1:]` and never found N.
    let valued = crate::agent::focus::where_option_is_read("greet.py", "--times", true, greet)
        .unwrap_or_default();
    assert!(
        valued.ends_with(
            "--times is one of them there. With argparse, `parser.add_argument('--times')` \
             makes `args.times` the text given after --times (None when it is absent; \
             `int(args.times)` when it is a number), and `parser.add_argument('rest', \
             nargs='*')` gives the other arguments as the list `args.rest`: use them there."
        ),
        "{valued}"
    );
    let wired = [(
        "a.py".to_string(),
        unwired[0]
            .1
            .replace("[-1])", "[-1], '--shout' in sys.argv)"),
    )];
    assert!(!next_step(&s, &wired).contains("Note:"));
    exchange(
        &mut s,
        vec![(
            "run_cmd",
            ran(SHOUT, 0, "\n--- stdout ---\nHELLO,   WORLD!"),
        )],
    );
    assert!(check_passed(&s, SHOUT));
    assert!(next_step(&s, &[]).contains(r#""name":"mark_subtask_complete""#));
    assert!(!next_step(&s, &wired).contains("reads its arguments"));
    // An expectation that describes the output: any output ends it, none
    // does not.
    let mut described = s.clone();
    described.tree.tasks[0].subtasks[1].kind = SubtaskKind::Show {
        cmd: SHOUT.into(),
        expects: "The output should be the greeting in capital letters for the name".into(),
    };
    assert!(check_passed(&described, SHOUT));
    exchange(&mut described, vec![("run_cmd", ran(SHOUT, 0, ""))]);
    assert!(!check_passed(&described, SHOUT));
    // Another command that passes is no failure of the subtask's.
    exchange(&mut s, vec![("run_cmd", ran("python3 a.py", 0, ""))]);
    assert!(matches!(last(&s), Last::Worked { .. }));
}

/// A plain check that passes an option fails while the program prints
/// the option back, and says how the language reads it.
#[test]
fn a_check_that_passes_an_option_fails_while_it_is_printed_back() {
    const SHOUT: &str = "python3 a.py --shout";
    let mut s = state();
    s.tree.tasks[0].subtasks[1].kind = SubtaskKind::Check { cmd: SHOUT.into() };
    wrote_a_and_completed(&mut s);
    exchange(
        &mut s,
        vec![(
            "run_cmd",
            ran(SHOUT, 0, "\n--- stdout ---\nHello, --shout!"),
        )],
    );
    assert!(!check_passed(&s, SHOUT));
    assert_eq!(
        last(&s),
        Last::Failed {
            what: "`python3 a.py --shout` printed \"Hello, --shout!\"; it printed --shout back: \
                   the program took the option for an argument (it must read --shout as an \
                   option and print no --shout)"
                .into(),
            file: Some("a.py".into()),
        }
    );
    let program = [(
        "a.py".to_string(),
        "import sys\n\nprint('Hello, ' + sys.argv[-1] + '!')\n".to_string(),
    )];
    assert!(
        next_step(&s, &program)
            .contains("`'--shout' in sys.argv[1:]` is True when --shout is given"),
        "{}",
        next_step(&s, &program)
    );
    exchange(
        &mut s,
        vec![("run_cmd", ran(SHOUT, 0, "\n--- stdout ---\nHELLO, WORLD!"))],
    );
    assert!(check_passed(&s, SHOUT));
}

/// A write whose result notes a parameter no call gives says it in the
/// last line, before the call that would mark the subtask done.
#[test]
fn a_write_that_left_a_parameter_unpassed_says_so_last() {
    let mut s = state();
    let Did::Ran(mut outcome) = wrote("a.py", true) else {
        unreachable!()
    };
    let note = "no call in a.py gives `shout` to `greeting` (`greeting(name)`, line 9): it \
                always takes its default";
    // The file as the write left it follows the note, on lines of its own.
    outcome.result.push_str(&format!(
        "{}{note}\nCONTENT OF a.py now:\n```\nprint(1)\n```",
        crate::tools::NOTE
    ));
    exchange(&mut s, vec![("write_file", Did::Ran(outcome))]);
    let step = next_step(&s, &[]);
    assert!(
        step.starts_with(&format!(
            "Your last call worked (wrote a.py), but {note}. If the goal needs it given"
        )) && step.contains(r#""name":"mark_subtask_complete""#)
            && !step.contains("CONTENT OF"),
        "{step}"
    );
    // A call refused after it (an edit made before, sent again) is told
    // what the change left undone, until a change without it.
    let made = || {
        (
            "edit_file",
            Did::Refused(
                RefusalKind::EditNoMatch,
                "edit_file a.py: a.py holds this `new` already (from line 4)",
            ),
        )
    };
    exchange(&mut s, vec![made()]);
    let step = next_step(&s, &[]);
    assert!(
        step.starts_with(&format!(
            "Your last call was not run: edit_file a.py: a.py holds this `new` already (from \
             line 4). Your change before it is made, but {note}. If the goal needs it given, \
             edit that call now"
        )),
        "{step}"
    );
    exchange(&mut s, vec![("write_file", wrote("a.py", true))]);
    assert!(!next_step(&s, &[]).contains("but no call"));
    exchange(&mut s, vec![made()]);
    let step = next_step(&s, &[]);
    assert!(
        step.contains("Make a different call") && !step.contains("no call"),
        "{step}"
    );
}

/// A failed run given a file that is not there says so: the model made
/// the program print that it found no file instead of writing one.
#[test]
fn a_failed_run_names_the_files_it_was_given_that_are_not_there() {
    let mut s = state();
    wrote_a_and_completed(&mut s);
    exchange(
        &mut s,
        vec![(
            "run_cmd",
            ran(
                "python3 a.py test.txt a.py",
                1,
                "\nFileNotFoundError: test.txt",
            ),
        )],
    );
    let Last::Failed { what, .. } = last(&s) else {
        panic!("{:?}", last(&s));
    };
    assert!(
        what.ends_with(
            "; test.txt is no file of the workspace: write it (a sample it reads) before \
             running it"
        ),
        "{what}"
    );
}

/// A check that runs a program with no arguments, failed, becomes the run
/// with the arguments that then passed; a test run, or a run with
/// arguments before the bare one failed, does not.
#[test]
fn a_bare_check_that_failed_becomes_the_run_with_arguments_that_passed() {
    const BARE: &str = "python3 a.py";
    const GIVEN: &str = "python3 a.py sample.txt";
    let mut s = state();
    s.goal = "Write a.py that prints the file given as its argument".into();
    s.tree.tasks[0].subtasks[1].kind = SubtaskKind::Check { cmd: BARE.into() };
    s.tree.tasks[0].subtasks[1].description = format!("Run `{BARE}` and make it succeed");
    wrote_a_and_completed(&mut s);
    let mut early = s.clone();
    exchange(
        &mut early,
        vec![("run_cmd", ran(GIVEN, 0, "\n--- stdout ---\n5"))],
    );
    assert_eq!(given_check(&early), None, "the bare check has not failed");
    exchange(&mut s, vec![("run_cmd", ran(BARE, 1, "\nIndexError"))]);
    assert_eq!(given_check(&s), None);
    let program = [(
        "a.py".to_string(),
        "import sys\nprint(open(sys.argv[1]).read())\n".to_string(),
    )];
    assert!(
        next_step(&s, &program).contains("run `python3 a.py` with them after it"),
        "{}",
        next_step(&s, &program)
    );
    // The nudge after a reply without a call says it too.
    assert!(fix_failure(&s, Some("a.py"), "IndexError", &program).contains("with them after it"));
    let quiet = [("a.py".to_string(), "print(1/0)\n".to_string())];
    assert!(!next_step(&s, &quiet).contains("with them after it"));
    let mut other = s.clone();
    exchange(&mut other, vec![("run_cmd", ran("python3 b.py x", 0, ""))]);
    assert_eq!(given_check(&other), None, "another program");
    exchange(
        &mut s,
        vec![("run_cmd", ran(GIVEN, 0, "\n--- stdout ---\n5"))],
    );
    assert_eq!(given_check(&s).as_deref(), Some(GIVEN));
    // So for a goal whose words hand the program what it works on.
    let mut handed = s.clone();
    handed.goal = "Write a.py, which prints the file it is given".into();
    assert_eq!(given_check(&handed).as_deref(), Some(GIVEN));
    // Not for a goal that gives its program no arguments (r4's hello).
    let mut plain = s.clone();
    plain.goal = "Write a hello world script".into();
    assert_eq!(given_check(&plain), None);
    give(&mut s, GIVEN, None);
    assert_eq!(check_command(&s).as_deref(), Some(GIVEN));
    assert_eq!(
        s.tree.active().unwrap().1.description,
        format!("Run `{GIVEN}` and make it succeed")
    );
    assert!(check_passed(&s, GIVEN));
    assert_eq!(given_check(&s), None, "given once");
    // A test run is never given arguments.
    let mut tests = state();
    wrote_a_and_completed(&mut tests);
    exchange(&mut tests, vec![("run_cmd", ran(PYTEST, 1, PYTEST_OUT))]);
    exchange(
        &mut tests,
        vec![("run_cmd", ran("python3 -m pytest -q -k test_add", 0, ""))],
    );
    assert_eq!(given_check(&tests), None);
}

/// A bare check whose program stopped where it reads its arguments: the
/// code is not at fault, so no fix is asked for. A program that opens
/// files is given a sample to read (the check becomes its run on it, the
/// subtask says to write it first); one that does not is to be run with
/// the arguments the goal gives it.
#[test]
fn a_bare_check_that_stopped_at_its_arguments_is_given_a_sample_not_a_fix() {
    const BARE: &str = "python3 a.py";
    const GIVEN: &str = "python3 a.py sample.txt";
    const STOPPED: &str = "\n--- stderr ---\nTraceback (most recent call last):\n  File \"/w/a.py\", line 2, in <module>\n    print(len(open(sys.argv[1]).read().split()))\n                    ~~~~~~~~^^^\nIndexError: list index out of range";
    const OPENS: &str = "import sys\nprint(len(open(sys.argv[1]).read().split()))\n";
    let text =
        |program: &'static str| move |path: &str| (path == "a.py").then(|| program.to_string());
    let mut s = state();
    s.tree.tasks[0].subtasks[1].kind = SubtaskKind::Check { cmd: BARE.into() };
    s.tree.tasks[0].subtasks[1].description = format!("Run `{BARE}` and make it succeed");
    wrote_a_and_completed(&mut s);
    let mut crashed = s.clone();
    exchange(&mut s, vec![("run_cmd", ran(BARE, 1, STOPPED))]);
    assert_eq!(
        wanted_input(&s, text(OPENS)),
        Some((GIVEN.to_string(), "sample.txt".to_string()))
    );
    // Not a program that opens no file, nor one that failed elsewhere.
    assert_eq!(
        wanted_input(&s, text("import sys\nprint(int(sys.argv[1]) * 2)\n")),
        None
    );
    exchange(
        &mut crashed,
        vec![(
            "run_cmd",
            ran(
                BARE,
                1,
                "\n--- stderr ---\nZeroDivisionError: division by zero",
            ),
        )],
    );
    assert_eq!(wanted_input(&crashed, text(OPENS)), None);
    let program = [("a.py".to_string(), OPENS.to_string())];
    assert!(next_step(&crashed, &program).contains("Fix it"));
    // Stopped at keyboard input (o1's word-count: `input('Enter file
    // path: ')`): no argument helps, the code is to read them.
    let mut keyboard = crashed.clone();
    keyboard.goal = "Write a.py that counts the words of the file given as its argument".into();
    let asks = "file = input('Path: ')\nprint(len(open(file).read().split()))\n";
    exchange(
        &mut keyboard,
        vec![(
            "run_cmd",
            ran(
                BARE,
                1,
                "\n--- stderr ---\nTraceback (most recent call last):\n  File \"/w/a.py\", line 1, in <module>\n    file = input('Path: ')\nEOFError: EOF when reading a line",
            ),
        )],
    );
    assert_eq!(wanted_input(&keyboard, text(asks)), None);
    let asking = [("a.py".to_string(), asks.to_string())];
    let step = next_step(&keyboard, &asking);
    assert!(
        step.contains("a.py asks for keyboard input on line 1, and a command gets none")
            && step.contains(r#""new":"file = sys.argv[1]""#),
        "{step}"
    );
    // One it cannot edit so (it asks twice): fixed as before, told that a
    // command gets no keyboard input.
    let twice = [(
        "a.py".to_string(),
        format!("other = input('Other: ')\n{asks}"),
    )];
    let step = next_step(&keyboard, &twice);
    assert!(
        step.contains("Fix it") && step.contains("gets no keyboard"),
        "{step}"
    );
    // Nor for a goal that gives it no arguments (a game that asks its
    // moves at the keyboard).
    keyboard.goal = "Write a game that asks the player for moves".into();
    let step = next_step(&keyboard, &asking);
    assert!(
        step.contains("Fix it") && !step.contains("sys.argv"),
        "{step}"
    );
    // Before the check is given: run it with the goal's arguments.
    let step = next_step(&s, &program);
    assert!(step.contains("The code is not at fault"), "{step}");
    assert!(
        step.contains("Run it with the arguments the goal gives it"),
        "{step}"
    );
    assert!(!step.contains("Fix it"), "{step}");
    give(&mut s, GIVEN, Some("sample.txt"));
    assert_eq!(check_command(&s).as_deref(), Some(GIVEN));
    assert!(
        s.tree.active().unwrap().1.description.starts_with(&format!(
            "Run `{GIVEN}` and make it succeed. First write sample.txt"
        )),
        "{}",
        s.tree.active().unwrap().1.description
    );
    let step = next_step(&s, &program);
    assert!(
        step.contains("sample.txt is not there yet: write it first"),
        "{step}"
    );
    assert!(!step.contains("Fix it"), "{step}");
    // The same program written again unchanged: still the sample to write.
    let mut again = s.clone();
    exchange(&mut again, vec![("write_file", wrote("a.py", false))]);
    let step = next_step(&again, &program);
    assert!(step.contains("write it first"), "{step}");
    // Written: its run is next, and given once.
    exchange(&mut s, vec![("write_file", wrote("sample.txt", true))]);
    let step = next_step(&s, &program);
    assert!(step.contains(&run_call(GIVEN)), "{step}");
    assert_eq!(wanted_input(&s, text(OPENS)), None);
}

/// The active check subtask is given `cmd` (and `input`), as the runner
/// records it.
fn give(s: &mut State, cmd: &str, input: Option<&str>) {
    let cursor = s.tree.cursor.unwrap();
    apply(
        s,
        Event::CheckGiven {
            task: cursor.task,
            subtask: cursor.subtask,
            cmd: cmd.into(),
            input: input.map(str::to_string),
        },
    );
}
