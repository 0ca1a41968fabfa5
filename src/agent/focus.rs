//! The active subtask's own part of the conversation, and what the model is
//! told to do next from it. A small model does best when it sees only the
//! work of the step it is on, is told in one line what to do now, and is
//! given the exact call to write: it did the work of a subtask and then
//! described it in prose, re-ran a failing command instead of fixing the
//! file, and copied the words of its rules ("what you did") as its answer.

use crate::chat::{Message, Role};
use crate::lang::Languages;
use crate::model::text_calls;
use crate::state::{State, SubtaskKind};

/// The exchanges of the active subtask: those after the last one in which a
/// subtask was marked ended. What came before belongs to work that is done;
/// a small model shown it does it again.
pub fn current_exchanges(state: &State) -> impl Iterator<Item = &Vec<Message>> {
    state.conversation.iter().skip(subtask_start(state))
}

pub(super) fn subtask_start(state: &State) -> usize {
    state
        .conversation
        .iter()
        .rposition(|exchange| exchange.iter().any(ends_subtask))
        .map_or(0, |i| i + 1)
}

/// The tool result the state gives a `mark_subtask_complete` that ended a
/// subtask ("Subtask marked complete. Next subtask: ...").
fn ends_subtask(message: &Message) -> bool {
    message.role == Role::Tool
        && message.tool_name.as_deref() == Some(COMPLETE)
        && message.content.starts_with("Subtask marked")
}

pub(super) const COMPLETE: &str = "mark_subtask_complete";

/// Whether a tool other than `note` ran in the active subtask: a call that
/// was refused or blocked did nothing.
pub fn acted(state: &State) -> bool {
    tool_results(state).any(|message| !matches!(outcome(state, message), Last::Refused { .. }))
}

/// The results of tools (not `note`) in the active subtask.
fn tool_results(state: &State) -> impl Iterator<Item = &Message> {
    current_exchanges(state).flatten().filter(|m| {
        m.role == Role::Tool
            && m.tool_name
                .as_deref()
                .is_some_and(|t| t != "note" && t != COMPLETE)
    })
}

/// The last result of a tool (not `note`) in the active subtask.
fn last_result(state: &State) -> Option<&Message> {
    tool_results(state).last()
}

/// What the last tool call of the active subtask came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Last {
    /// Nothing has run for this subtask yet.
    Nothing,
    /// It worked: `did` says what, in words that fit a completion reason.
    Worked { did: String },
    /// A command failed: its error line, and the written file its output
    /// points at (with the line), when it names one.
    Failed { what: String, file: Option<String> },
    /// The call was refused or blocked: the first line of why.
    Refused { why: String },
}

/// How the last tool call of the active subtask went, read from its result.
pub fn last(state: &State) -> Last {
    match last_result(state) {
        Some(message) => outcome(state, message),
        None => Last::Nothing,
    }
}

/// Whether a result of `tool` in the active subtask began with `start`.
pub fn answered(state: &State, tool: &str, start: &str) -> bool {
    current_exchanges(state).flatten().any(|m| {
        m.role == Role::Tool && m.tool_name.as_deref() == Some(tool) && m.content.starts_with(start)
    })
}

/// What one tool result of the active subtask came to.
fn outcome(state: &State, message: &Message) -> Last {
    let text = message.content.as_str();
    let first = text.lines().next().unwrap_or("").to_string();
    match message.tool_name.as_deref() {
        Some("run_cmd") if text.starts_with("$ ") => {
            let command = first.trim_start_matches("$ ").to_string();
            let status = text.lines().nth(1).unwrap_or("");
            if status == "exit code 0" {
                return Last::Worked {
                    did: format!("ran {command}: exit code 0"),
                };
            }
            let what = match error_line(text) {
                Some(error) => format!("`{command}` {status}: {error}"),
                None => format!("`{command}` {status}"),
            };
            Last::Failed {
                what,
                file: pointed_at(state, text),
            }
        }
        Some("write_file")
            if text.contains("already had")
                && let Some(failed) = last_failure(state) =>
        {
            let path = text.split(' ').next().unwrap_or("the file");
            match failed {
                Last::Failed { what, file } => Last::Failed {
                    what: format!(
                        "your write changed nothing ({path} already had that content), so {what}"
                    ),
                    file,
                },
                other => other,
            }
        }
        Some("write_file") if text.starts_with("Wrote ") || text.contains("already had") => {
            let path = text
                .rsplit(" to ")
                .next()
                .filter(|_| text.starts_with("Wrote "))
                .or_else(|| text.split(' ').next())
                .unwrap_or("the file");
            Last::Worked {
                did: format!("wrote {path}"),
            }
        }
        Some("edit_file") if text.starts_with("Edited ") => Last::Worked {
            did: first
                .split(':')
                .next()
                .unwrap_or("edited a file")
                .to_lowercase(),
        },
        Some("read_file" | "list_dir" | "search") if !text.starts_with("Error:") => Last::Worked {
            did: format!("looked at {}", first.chars().take(60).collect::<String>()),
        },
        _ => Last::Refused { why: first },
    }
}

/// The last command of the active subtask, when it failed.
fn last_failure(state: &State) -> Option<Last> {
    let message = current_exchanges(state)
        .flatten()
        .filter(|m| m.role == Role::Tool && m.tool_name.as_deref() == Some("run_cmd"))
        .last()?;
    let text = message.content.as_str();
    let mut lines = text.lines();
    let command = lines.next()?.strip_prefix("$ ")?;
    let status = lines.next().filter(|status| *status != "exit code 0")?;
    let what = match error_line(text) {
        Some(error) => format!("`{command}` {status}: {error}"),
        None => format!("`{command}` {status}"),
    };
    Some(Last::Failed {
        what,
        file: pointed_at(state, text),
    })
}

/// The line of a failing program's output that says what went wrong: what
/// a language's reading of its failed check says (pytest's `E   ...`,
/// `node --test`'s error), or the last `...Error: ...` / `error: ...` line.
fn error_line(output: &str) -> Option<String> {
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    let found = Languages::default()
        .all()
        .find_map(|language| language.failures(output).into_iter().next())
        .map(|problem| problem.message)
        .or_else(|| {
            lines
                .iter()
                .rev()
                .find(|line| {
                    let head = line.split(':').next().unwrap_or("");
                    line.contains(':')
                        && (head.ends_with("Error")
                            || head.ends_with("Exception")
                            || head == "error")
                })
                .map(|line| line.to_string())
        })?;
    Some(found.chars().take(200).collect())
}

/// The written file a failing program's output names last (a traceback's
/// innermost frame, pytest's `file.py:12: Error`), with its line number.
fn pointed_at(state: &State, output: &str) -> Option<String> {
    let (_, path) = state
        .files
        .keys()
        .filter_map(|path| {
            text_calls::mentions(output, path, true)
                .last()
                .map(|&at| (at, path))
        })
        .max()?;
    let digits = |text: &str| -> String { text.chars().take_while(char::is_ascii_digit).collect() };
    let line = text_calls::mentions(output, path, true)
        .into_iter()
        .rev()
        .find_map(|at| {
            let after = &output[at + path.len()..];
            after
                .strip_prefix(':')
                .map(digits)
                .or_else(|| after.strip_prefix("\", line ").map(digits))
                .filter(|line| !line.is_empty())
        });
    Some(match line {
        Some(line) => format!("{path} line {line}"),
        None => path.clone(),
    })
}

/// The files a reply may give as code blocks: those the run wrote, and the
/// one the active subtask names ("Write PATH: ...").
pub fn known_paths(state: &State) -> Vec<String> {
    let mut paths: Vec<String> = state
        .files
        .keys()
        .filter(|path| !state.missing.contains(*path))
        .cloned()
        .collect();
    let named = state.tree.active().and_then(|(_, subtask)| {
        let rest = subtask.description.strip_prefix("Write ")?;
        let path = rest.split([':', ' ']).next()?.trim_end_matches('.');
        path.contains('.').then(|| path.to_string())
    });
    if let Some(path) = named
        && !paths.contains(&path)
    {
        paths.push(path);
    }
    paths
}

/// The call that marks the subtask done, ready to copy, its reason filled
/// in from what the last call did.
pub fn complete_call(did: &str) -> String {
    serde_json::json!({ "name": COMPLETE, "arguments": { "success": true, "reason": did } })
        .to_string()
}

/// The last line of the context block: what to do now, with the subtask
/// named again (a small model follows the end of its prompt best).
pub fn next_step(state: &State, contents: &[(String, String)]) -> String {
    let Some((_, subtask)) = state.tree.active() else {
        return "Every subtask has ended.".into();
    };
    let subtask = &subtask.description;
    match last(state) {
        Last::Nothing => match check_command(state) {
            Some(check) => format!(
                "Run the check of the ACTIVE SUBTASK now: answer with exactly {}",
                run_call(&check)
            ),
            None => format!(
                "Call one tool now for the ACTIVE SUBTASK: {subtask}. When it is done, call \
                 mark_subtask_complete."
            ),
        },
        Last::Worked { did } => match after_work(state, &did) {
            Ending::Complete(call) => format!(
                "Your last call worked ({did}). If the ACTIVE SUBTASK ({subtask}) is done now, \
                 answer with exactly {call}. If not, call one tool for it."
            ),
            Ending::CheckAgain(call) => format!(
                "Your last call worked ({did}). Now run the check again: answer with exactly \
                 {call}"
            ),
        },
        Last::Failed { what, file } => format!(
            "Your last command failed: {what}. {} Run the command again only after a file \
             changed.",
            fix(file.as_deref(), &what, contents)
        ),
        Last::Refused { why } => format!(
            "Your last call was not run: {why}. Make a different call for the ACTIVE SUBTASK: \
             {subtask}."
        ),
    }
}

/// What ends the active subtask after a call that worked: marking it
/// complete, or, on a check whose command has not passed since, running
/// the command again.
pub enum Ending {
    Complete(String),
    CheckAgain(String),
}

pub fn after_work(state: &State, did: &str) -> Ending {
    match check_command(state) {
        Some(check) if !check_passed(state, &check) => Ending::CheckAgain(run_call(&check)),
        _ => Ending::Complete(complete_call(did)),
    }
}

/// The command of a check subtask, as the planner set it (a plan of files
/// ends with one): the subtask is done when that command exits with code
/// 0, not when the model says so.
pub fn check_command(state: &State) -> Option<String> {
    match &state.tree.active()?.1.kind {
        SubtaskKind::Check { cmd } => Some(cmd.clone()),
        _ => None,
    }
}

/// Whether the last tool of the active subtask was `check`, run to exit
/// code 0 (with nothing written after it).
pub fn check_passed(state: &State, check: &str) -> bool {
    last_result(state).is_some_and(|message| {
        ran(message, check) && message.content.lines().nth(1) == Some("exit code 0")
    })
}

/// Whether `message` is the result of running `check` (its words, however
/// spaced).
fn ran(message: &Message, check: &str) -> bool {
    message.tool_name.as_deref() == Some("run_cmd")
        && message
            .content
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("$ "))
            .is_some_and(|ran| ran.split_whitespace().eq(check.split_whitespace()))
}

/// Whether `check` has not run in the active subtask since a file was last
/// written there (or at all): its result for the files as they are now is
/// not known.
pub fn check_unknown(state: &State, check: &str) -> bool {
    let results: Vec<&Message> = tool_results(state).collect();
    results
        .into_iter()
        .rev()
        .find_map(|message| {
            let wrote = match message.tool_name.as_deref() {
                Some("write_file") => message.content.starts_with("Wrote "),
                Some("edit_file") => message.content.starts_with("Edited "),
                _ => false,
            };
            (wrote || ran(message, check)).then_some(wrote)
        })
        .unwrap_or(true)
}

/// The call that runs `command`, ready to copy.
pub fn run_call(command: &str) -> String {
    serde_json::json!({ "name": "run_cmd", "arguments": { "cmd": command } }).to_string()
}

/// How to fix a failure (`what` failed): the file to write again, when
/// known, and the line the error is at, quoted from `contents` (the files
/// the run wrote); for an `assert CALL == EXPECTED` that failed, what the
/// call returned and the line that expects it.
pub fn fix(file: Option<&str>, what: &str, contents: &[(String, String)]) -> String {
    let Some(file) = file else {
        if let Some(hint) = Languages::default().all().find_map(|l| l.no_tests(what)) {
            return hint;
        }
        return "Fix the cause: answer with write_file and the whole corrected content of the \
                file that is wrong."
            .into();
    };
    let (path, line) = match file.split_once(" line ") {
        Some((path, line)) => (path, line.parse::<usize>().ok()),
        None => (file, None),
    };
    let source = line.and_then(|n| {
        let (_, content) = contents.iter().find(|(p, _)| p == path)?;
        content.lines().nth(n.checked_sub(1)?)
    });
    let quoted = source
        .map(|text| format!(" Line {} is: {}", line.unwrap_or(0), text.trim()))
        .unwrap_or_default();
    let expected = source
        .and_then(|text| returned_instead(path, text, what))
        .unwrap_or_default();
    format!(
        "The error is at {file}.{quoted}{expected} Fix it: answer with write_file and the whole \
         corrected content of {path}."
    )
}

/// For a test line `assert CALL == EXPECTED` whose failure (pytest's
/// `assert ACTUAL == EXPECTED`, in `what`) shows what CALL returned: both
/// ways to make them agree, the test's line spelled out. A small model told
/// only the line rewrote the file with the same assert three times.
fn returned_instead(path: &str, source: &str, what: &str) -> Option<String> {
    let (call, written) = Languages::default().for_path(path)?.assertion(source)?;
    let (actual, expected) = what.rsplit_once("assert ")?.1.trim().split_once(" == ")?;
    let same = |a: &str, b: &str| {
        let unquoted = |s: &str| {
            s.strip_prefix(['\'', '"'])
                .and_then(|s| s.strip_suffix(['\'', '"']))
                .map(|s| s.replace("\\'", "'"))
                .unwrap_or_else(|| s.to_string())
        };
        unquoted(a) == unquoted(b)
    };
    let written = written.trim();
    if !same(written, expected) || same(actual, expected) || actual.contains("...") {
        return None;
    }
    Some(format!(
        " `{call}` returned {actual}, not {expected}. If the code is right, the test is wrong: \
         write that line as `assert {call} == {actual}`. If the test is right, fix the code."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{FileRecord, TaskPlan, Tree};
    use pretty_assertions::assert_eq;

    fn state(exchanges: Vec<Vec<Message>>) -> State {
        let mut state = State {
            tree: Tree::from_plan(&[TaskPlan {
                kinds: vec![
                    SubtaskKind::Write {
                        path: "a.py".into(),
                    },
                    SubtaskKind::Check {
                        cmd: "python3 -m pytest -q".into(),
                    },
                ],
                description: "t".into(),
                subtasks: vec!["Write a.py".into(), "Run `python3 -m pytest -q`".into()],
            }]),
            ..State::default()
        };
        for path in ["a.py", "test_a.py"] {
            state.files.insert(
                path.into(),
                FileRecord {
                    sha256: String::new(),
                    created: true,
                },
            );
        }
        state.conversation = exchanges.into();
        state
    }

    fn call(name: &str) -> Message {
        Message::assistant(
            "",
            vec![crate::chat::ToolCall {
                name: name.into(),
                arguments: serde_json::json!({}),
            }],
        )
    }

    const PYTEST: &str = "$ python3 -m pytest -q\nexit code 1\n--- stdout ---\nF\n    def test_a():\n>       assert f(1) == 2\nE       NameError: name 'f' is not defined\n\ntest_a.py:2: NameError\n1 failed in 0.02s";

    #[test]
    fn only_the_active_subtasks_exchanges_count() {
        let done = vec![
            call("write_file"),
            Message::tool("write_file", "Wrote 3 bytes to a.py"),
            Message::tool(COMPLETE, "Subtask marked complete. Next subtask: Run"),
        ];
        let s = state(vec![done.clone()]);
        assert_eq!(current_exchanges(&s).count(), 0);
        assert_eq!(last(&s), Last::Nothing);
        assert!(
            next_step(&s, &[]).starts_with("Call one tool now for the ACTIVE SUBTASK: Write a.py.")
        );
        let s = state(vec![
            done,
            vec![call("run_cmd"), Message::tool("run_cmd", PYTEST)],
        ]);
        assert_eq!(current_exchanges(&s).count(), 1);
        assert!(acted(&s));
    }

    #[test]
    fn a_failed_command_points_at_the_file_to_fix() {
        let s = state(vec![vec![
            call("run_cmd"),
            Message::tool("run_cmd", PYTEST),
        ]]);
        assert_eq!(
            last(&s),
            Last::Failed {
                what: "`python3 -m pytest -q` exit code 1: NameError: name 'f' is not defined"
                    .into(),
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
        let traceback = "$ python3 a.py\nexit code 1\n--- stderr ---\nTraceback (most recent call last):\n  File \"/w/a.py\", line 7, in <module>\n    main()\nValueError: bad move";
        let s = state(vec![vec![
            call("run_cmd"),
            Message::tool("run_cmd", traceback),
        ]]);
        assert_eq!(
            last(&s),
            Last::Failed {
                what: "`python3 a.py` exit code 1: ValueError: bad move".into(),
                file: Some("a.py line 7".into()),
            }
        );
    }

    #[test]
    fn a_failed_assert_says_what_the_call_returned() {
        // Qwen2.5-Coder 1.5B's test of its own game, and pytest's words.
        let test = "from g import Game\n\ndef test_play():\n    game = Game()\n    assert game.play('scissors', 'rock') == 'Player 1 wins!'\n";
        let contents = [("test_g.py".to_string(), test.to_string())];
        let what = "`python3 -m pytest -q` exit code 1: AssertionError: assert 'Player 2 wins!' == 'Player 1 wins!'";
        assert_eq!(
            fix(Some("test_g.py line 5"), what, &contents),
            "The error is at test_g.py line 5. Line 5 is: assert game.play('scissors', 'rock') == \
             'Player 1 wins!' `game.play('scissors', 'rock')` returned 'Player 2 wins!', not \
             'Player 1 wins!'. If the code is right, the test is wrong: write that line as \
             `assert game.play('scissors', 'rock') == 'Player 2 wins!'`. If the test is right, \
             fix the code. Fix it: answer with write_file and the whole corrected content of \
             test_g.py."
        );
        // The expected value in other quotes is the same value.
        let double = test.replace("'Player 1 wins!'", "\"Player 1 wins!\"");
        let contents = [("test_g.py".to_string(), double)];
        assert!(
            fix(Some("test_g.py line 5"), what, &contents).contains("returned 'Player 2 wins!'")
        );
        // A failure that is not that assert's gets no such hint.
        let other = "`python3 -m pytest -q` exit code 1: NameError: name 'g' is not defined";
        assert!(!fix(Some("test_g.py line 5"), other, &contents).contains("returned"));
        // pytest that ran no test is told to write one.
        assert!(
            fix(None, "`python3 -m pytest -q` exit code 5", &[])
                .starts_with("pytest found no test")
        );
        assert!(fix(None, "`python3 a.py` exit code 5", &[]).starts_with("Fix the cause"));
        let elsewhere = "`python3 -m pytest -q` exit code 1: AssertionError: assert 3 == 4";
        assert!(!fix(Some("test_g.py line 5"), elsewhere, &contents).contains("returned"));
    }

    #[test]
    fn a_call_that_worked_offers_the_call_that_ends_the_subtask() {
        let s = state(vec![vec![
            call("write_file"),
            Message::tool("write_file", "Wrote 3 bytes to a.py"),
            Message::tool("note", "Noted."),
        ]]);
        assert_eq!(
            last(&s),
            Last::Worked {
                did: "wrote a.py".into()
            }
        );
        assert!(next_step(&s, &[]).contains(
            r#"answer with exactly {"name":"mark_subtask_complete","arguments":{"success":true,"reason":"wrote a.py"}}"#
        ));
        let ran = "$ python3 a.py\nexit code 0\n--- stdout ---\nhi";
        let s = state(vec![vec![call("run_cmd"), Message::tool("run_cmd", ran)]]);
        assert_eq!(
            last(&s),
            Last::Worked {
                did: "ran python3 a.py: exit code 0".into()
            }
        );
        let refused = "Error: node is not an allowed program";
        let s = state(vec![vec![
            call("run_cmd"),
            Message::tool("run_cmd", refused),
        ]]);
        assert_eq!(
            last(&s),
            Last::Refused {
                why: refused.into()
            }
        );
    }

    #[test]
    fn a_check_subtask_ends_when_its_command_passes() {
        let write = vec![
            call("write_file"),
            Message::tool("write_file", "Wrote 3 bytes to a.py"),
        ];
        let pass = "$ python3  -m pytest -q\nexit code 0\n--- stdout ---\n1 passed";
        let mut s = state(vec![
            vec![
                call("write_file"),
                Message::tool("write_file", "Wrote 3 bytes to a.py"),
                Message::tool(COMPLETE, "Subtask marked complete. Next subtask: Run"),
            ],
            write.clone(),
        ]);
        assert_eq!(check_command(&s), None, "the first subtask is no check");
        let mut fresh = s.clone();
        fresh.files.clear();
        assert_eq!(known_paths(&fresh), ["a.py"], "named by the subtask");
        assert_eq!(known_paths(&s), ["a.py", "test_a.py"]);
        s.tree.end_active(true, "wrote a.py");
        assert_eq!(check_command(&s).as_deref(), Some("python3 -m pytest -q"));
        // After a write the check is run again, not the subtask marked done.
        assert!(!check_passed(&s, "python3 -m pytest -q"));
        assert!(next_step(&s, &[]).contains(
            r#"Now run the check again: answer with exactly {"name":"run_cmd","arguments":{"cmd":"python3 -m pytest -q"}}"#
        ));
        s.conversation
            .push_back(vec![call("run_cmd"), Message::tool("run_cmd", PYTEST)]);
        assert!(!check_passed(&s, "python3 -m pytest -q"), "it failed");
        s.conversation
            .push_back(vec![call("run_cmd"), Message::tool("run_cmd", pass)]);
        assert!(check_passed(&s, "python3 -m pytest -q"));
        assert!(next_step(&s, &[]).contains(r#""name":"mark_subtask_complete""#));
        s.conversation.push_back(write);
        assert!(
            !check_passed(&s, "python3 -m pytest -q"),
            "a write came after"
        );
    }

    #[test]
    fn an_unchanged_write_after_a_failure_is_still_the_failure() {
        let collect = "$ python3 -m pytest -q\nexit code 2\n--- stdout ---\nERRORS\nE     File \"/w/test_a.py\", line 2\nE       assert f() == 'It's'\nE   SyntaxError: unterminated string literal (detected at line 2)\n=== short test summary info ===\nERROR test_a.py\n1 error in 0.27s";
        let s = state(vec![
            vec![call("run_cmd"), Message::tool("run_cmd", collect)],
            vec![
                call("write_file"),
                Message::tool(
                    "write_file",
                    "test_a.py already had this content (20 bytes); nothing changed",
                ),
            ],
        ]);
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
            next_step(&s, &contents).contains(
                "The error is at test_a.py line 2. Line 2 is: assert f() == 'It's' Fix it"
            ),
            "{}",
            next_step(&s, &contents)
        );
    }

    #[test]
    fn refused_calls_are_not_work_done() {
        let refused = vec![
            call("write_file"),
            Message::tool(
                "write_file",
                "not written: every function in a.py is a placeholder",
            ),
        ];
        let s = state(vec![refused.clone()]);
        assert!(!acted(&s), "only a refused write");
        let s = state(vec![
            refused,
            vec![
                call("write_file"),
                Message::tool("write_file", "Wrote 3 bytes to a.py"),
            ],
        ]);
        assert!(acted(&s));
    }
}
