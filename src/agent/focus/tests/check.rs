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
    exchange(
        &mut s,
        vec![
            ("write_file", wrote("a.py", true)),
            (COMPLETE, Did::Complete),
        ],
    );
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
