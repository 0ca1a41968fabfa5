//! The context of a round, one label a line, in two blocks laid out for the
//! server's prefix cache: the standing block (goal, plan, notes, the
//! contents of the files shown), sent before the conversation, and the
//! round block (the active subtask, the facts of the probe, what to do
//! now), sent last.

use crate::agent::focus;
use crate::settings::Settings;
use crate::state::{Came, State, Status};
use crate::tools::Toolbox;

/// Files shown whole in the context: (path, text).
pub type ShownFiles = Vec<(String, String)>;
/// Errors shown under RECENT ERRORS.
const SHOWN_ERRORS: usize = 3;
/// Characters of an error's first line shown under RECENT ERRORS: the
/// whole error was the result or the correction the model was sent when
/// it came; repeated whole in every round block after it (an edit's
/// nearest lines, a refusal's advice: up to 1,000 characters each), it
/// was read again every round (b1's cli-flag: 2,100 characters a round
/// block).
const SHOWN_ERROR_MAX: usize = 200;
/// Notes shown under NOTES.
const SHOWN_NOTES: usize = 10;
/// Files named under FILES CREATED; a long run names the latest.
const SHOWN_FILES: usize = 30;
/// Blocked signatures named under BLOCKED ACTIONS.
const SHOWN_BLOCKED: usize = 5;
/// Bytes of file contents in the context block: the few files of a small
/// job whole (a 1.5B model writes modules of 1-3 KB), a large one in part.
const FILES_BUDGET: usize = 8 * 1024;
/// One file's share at most, so that one large file does not hide the rest.
pub(super) const FILE_MAX: usize = 4 * 1024;
/// Files whose contents are shown at most: as many as a plan has (each one
/// costs a read every round).
const SHOWN_CONTENTS: usize = 6;
/// Less room than this left: the next file is not shown at all.
const FILE_MIN: usize = 256;

/// What every call of a run begins its user message with, the same from
/// the plan to the reflection: the goal, the lessons of earlier runs, and
/// the workspace map of the plan (see [`crate::workspace::PlanMap`]). The
/// server's prefix cache keeps it after the system prompt and the tool
/// schemas from one call to the next, whichever call it is.
pub fn head(goal: &str, lessons: Option<&str>, map: Option<&str>) -> String {
    let mut lines = vec![format!("GOAL: {goal}")];
    if let Some(lessons) = lessons {
        lines.push(format!("LESSONS (from earlier runs here):\n{lessons}"));
    }
    lines.extend(map.filter(|map| !map.is_empty()).map(str::to_string));
    lines.join("\n")
}

/// The part of the context that changes only when a subtask starts, a file
/// changes or a note is kept, in that order from what changes least: the
/// [`head`], the plan (its subtasks unmarked), the contents of the files
/// shown, the notes, then the current task and the plan's progress (each
/// subtask's number and mark), which change only when a subtask starts. It is sent before the conversation,
/// so the server's prefix cache keeps it from round to round and from one
/// subtask to the next (see [`super::request_with_files`]). The files
/// come in the order given (the order of their last change: a file the
/// last subtask changed comes last), so an unchanged set renders the same
/// bytes; the files the active subtask changes are in the round block
/// instead ([`part_by_change`]).
pub fn standing_block(state: &State, head: &str, contents: &[(String, String)]) -> String {
    let mut lines = vec![head.to_string()];
    lines.push(format!("PLAN:\n{}", plan_lines(state, false)));
    lines.extend(contents.iter().map(content_lines));
    if !state.notes.is_empty() {
        let start = state.notes.len().saturating_sub(SHOWN_NOTES);
        lines.push(format!("NOTES: {}", state.notes[start..].join(" | ")));
    }
    match state.tree.cursor {
        Some(cursor) => {
            let tasks = &state.tree.tasks;
            lines.push(format!(
                "CURRENT TASK: {} (task {}/{})",
                tasks[cursor.task].description,
                cursor.task + 1,
                tasks.len()
            ));
            lines.push(format!("PLAN PROGRESS: {}", progress(state)));
        }
        None => lines.push("CURRENT TASK: (none: every subtask has ended)".into()),
    }
    lines.join("\n")
}

fn content_lines((path, content): &(String, String)) -> String {
    format!("CONTENT OF {path}:\n```\n{}\n```", content.trim_end())
}

/// A file as a write or an edit left it, shown after the write's result
/// (see [`super::shown_after_write`]).
pub(super) fn content_now(path: &str, content: &str) -> String {
    format!("CONTENT OF {path} now:\n```\n{}\n```", content.trim_end())
}

/// `contents` parted in the files the active subtask has not changed,
/// shown in the standing block, and those it changed, shown in the round
/// block: a file being worked on changes from round to round, and in the
/// standing block each change would send the whole conversation after it
/// to be read again; one the subtask has not touched stays where the cache
/// keeps it. Only a write that changed the file counts (the facts of the
/// subtask's calls say which), so the parts stay put while nothing changes.
pub fn part_by_change(state: &State, contents: &[(String, String)]) -> (ShownFiles, ShownFiles) {
    let first = state.subtask_exchange.max(state.first_exchange());
    let changed: Vec<&str> = state
        .calls
        .iter()
        .filter(|fact| fact.exchange >= first)
        .filter_map(|fact| match &fact.came {
            Came::Ran { outcome } => outcome.write.as_ref().filter(|w| w.changed()),
            _ => None,
        })
        .map(|write| write.path.as_str())
        .collect();
    contents
        .iter()
        .cloned()
        .partition(|(path, _)| !changed.contains(&path.as_str()))
}

/// The part of the context that may change every round, sent last: the
/// contents of the files the active subtask changed (`changing`), the
/// active subtask, the facts of the probe (files, commands, errors, blocked
/// actions), the rounds left, and what to do now (which may quote any of
/// `contents`, all the files shown).
pub fn round_block(
    state: &State,
    settings: &Settings,
    changing: &[(String, String)],
    contents: &[(String, String)],
) -> String {
    let mut lines: Vec<String> = changing.iter().map(content_lines).collect();
    match state.tree.cursor {
        Some(cursor) => {
            let task = &state.tree.tasks[cursor.task];
            lines.push(format!(
                "ACTIVE SUBTASK: {} (subtask {}/{})",
                task.subtasks[cursor.subtask].description,
                cursor.subtask + 1,
                task.subtasks.len()
            ));
        }
        None => lines.push("ACTIVE SUBTASK: (none)".into()),
    }
    let files: Vec<String> = state
        .files
        .keys()
        .rev()
        .take(SHOWN_FILES)
        .rev()
        .map(|path| {
            if state.missing.contains(path) {
                format!("{path} (missing now)")
            } else {
                path.clone()
            }
        })
        .collect();
    lines.push(format!("FILES CREATED: {}", or_none(files.join(", "))));
    if let Some(line) = existing_files_line(state) {
        lines.push(line);
    }
    let commands: Vec<String> = state
        .commands
        .iter()
        .map(|run| match run.exit_code {
            Some(code) => format!("{} -> rc={code}", run.command),
            None => format!("{} -> killed", run.command),
        })
        .collect();
    lines.push(format!(
        "RECENT COMMANDS: {}",
        or_none(in_a_row(&commands).join("; "))
    ));
    let errors: Vec<String> = state
        .errors
        .iter()
        .rev()
        .take(SHOWN_ERRORS)
        .rev()
        .map(|error| shown_error(error))
        .collect();
    lines.push(format!(
        "RECENT ERRORS: {}",
        or_none(in_a_row(&errors).join(" | "))
    ));
    let blocked = &state.blocked[state.blocked.len().saturating_sub(SHOWN_BLOCKED)..];
    let blocked: Vec<String> = blocked
        .iter()
        .map(|s| crate::state::guard::shown(s))
        .collect();
    lines.push(format!("BLOCKED ACTIONS: {}", or_none(blocked.join(" | "))));
    if let Some(flight) = &state.in_flight {
        lines.push(format!(
            "INTERRUPTED ACTION: {} (the runner stopped while it ran)",
            flight.summary
        ));
    }
    lines.push(format!(
        "ROUNDS LEFT: {}",
        settings.max_rounds.saturating_sub(state.run_rounds)
    ));
    lines.push(String::new());
    lines.push(focus::next_step(state, contents));
    lines.join("\n")
}

/// The files the run wrote that exist now, with their text, for the
/// context block: the truth of the workspace, which a model writing tests
/// for a module, or fixing a failing run, needs in front of it. At most
/// `budget` bytes in all (each file cut to its head and tail).
pub fn written_files(state: &State, tools: &Toolbox, budget: usize) -> Vec<(String, String)> {
    let mut shown = Vec::new();
    let mut left = budget;
    for path in state.files.keys().rev().take(SHOWN_CONTENTS) {
        if left < FILE_MIN || state.missing.contains(path) {
            continue;
        }
        let Some(text) = tools.excerpt(path, left.min(FILE_MAX)) else {
            continue;
        };
        left = left.saturating_sub(text.len());
        shown.push((path.clone(), text));
    }
    shown.reverse();
    shown
}

/// The files there before the run that the run changed or deleted, as the
/// last probe found them; `None` when there are none.
fn existing_files_line(state: &State) -> Option<String> {
    let baseline = &state.baseline;
    let mut parts = Vec::new();
    if !baseline.changed.is_empty() {
        parts.push(format!("changed {}", baseline.changed.join(", ")));
    }
    if !baseline.deleted.is_empty() {
        parts.push(format!("deleted {}", baseline.deleted.join(", ")));
    }
    (!parts.is_empty()).then(|| format!("FILES THERE BEFORE THE RUN: {}", parts.join("; ")))
}

/// `items` with a run of the same one named once, with how many times:
/// a fix loop's `python3 -m pytest -q -> rc=1` five times over was about
/// 60 tokens of every round block, read again every round, and said no
/// more than once with its count.
fn in_a_row(items: &[String]) -> Vec<String> {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for item in items {
        match runs.last_mut() {
            Some((last, count)) if *last == item.as_str() => *count += 1,
            _ => runs.push((item, 1)),
        }
    }
    runs.into_iter()
        .map(|(item, count)| match count {
            1 => item.to_string(),
            _ => format!("{item} ({count} times in a row)"),
        })
        .collect()
}

/// An error's first line, cut to [`SHOWN_ERROR_MAX`] characters; when the
/// cut falls inside code it quotes in backticks, before that code. t12's
/// slug-tests was shown a refusal cut in the middle of the line it quoted,
/// `assert slugify(...) == ('hello-world' and truncate("Hello, World!", 10) …`,
/// and gave that as the `old` of its edits three times; no file holds it.
fn shown_error(error: &str) -> String {
    let shown = crate::text::shorten(error, SHOWN_ERROR_MAX);
    if !shown.ends_with('…') || shown.matches('`').count().is_multiple_of(2) {
        return shown;
    }
    let open = shown.rfind('`').unwrap_or(shown.len());
    format!("{}…", shown[..open].trim_end_matches([' ', '(', ':']))
}

fn or_none(text: String) -> String {
    if text.is_empty() {
        "(none)".into()
    } else {
        text
    }
}

/// The tree, one line a subtask, with a mark for its status when `marked`
/// (unmarked, it changes only when a cycle adds a task).
pub fn plan_lines(state: &State, marked: bool) -> String {
    let mut lines = Vec::new();
    for (t, task) in state.tree.tasks.iter().enumerate() {
        for (s, subtask) in task.subtasks.iter().enumerate() {
            let mark = match marked {
                true => format!("{} ", mark(subtask.status)),
                false => String::new(),
            };
            lines.push(format!(
                "  {mark}{}.{} {}",
                t + 1,
                s + 1,
                subtask.description
            ));
        }
    }
    lines.join("\n")
}

fn mark(status: Status) -> &'static str {
    match status {
        Status::Completed => "[x]",
        Status::Failed => "[!]",
        Status::InProgress => "[>]",
        Status::Pending => "[ ]",
    }
}

/// Each subtask's number with its mark, on one line: what the plan lines
/// of the standing block leave out.
fn progress(state: &State) -> String {
    let mut marks = Vec::new();
    for (t, task) in state.tree.tasks.iter().enumerate() {
        for (s, subtask) in task.subtasks.iter().enumerate() {
            marks.push(format!("{} {}.{}", mark(subtask.status), t + 1, s + 1));
        }
    }
    marks.join(" ")
}

/// The byte budget of file contents in the context block, halved at each
/// level of context pressure.
pub fn files_budget(state: &State) -> usize {
    FILES_BUDGET >> state.pressure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_the_same_command_or_error_is_named_once_with_its_count() {
        let items: Vec<String> = [
            "a -> rc=1",
            "a -> rc=1",
            "b -> rc=0",
            "a -> rc=1",
            "a -> rc=1",
            "a -> rc=1",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            in_a_row(&items),
            [
                "a -> rc=1 (2 times in a row)",
                "b -> rc=0",
                "a -> rc=1 (3 times in a row)"
            ]
        );
        assert!(in_a_row(&[]).is_empty());
    }

    #[test]
    fn recent_errors_show_each_errors_first_line_cut() {
        let mut state = State::default();
        state.errors.push_back(
            "edit_file a.py: `old` was not found. The nearest lines of a.py:\n1: x = 1".into(),
        );
        state
            .errors
            .push_back(format!("not accepted yet: {}", "why ".repeat(100)));
        let settings = Settings::new("/nowhere".into());
        let block = round_block(&state, &settings, &[], &[]);
        let line = block
            .lines()
            .find(|l| l.starts_with("RECENT ERRORS: "))
            .unwrap();
        let (first, second) = line["RECENT ERRORS: ".len()..].split_once(" | ").unwrap();
        assert_eq!(
            first,
            "edit_file a.py: `old` was not found. The nearest lines of a.py:"
        );
        assert!(!block.contains("1: x = 1"), "{block}");
        assert_eq!(second.chars().count(), SHOWN_ERROR_MAX + 1, "{second}");
        assert!(second.ends_with('…'));
    }

    #[test]
    fn an_error_cut_inside_the_code_it_quotes_is_cut_before_it() {
        let long = format!("`    assert f({}) == 1`", "x, ".repeat(80));
        let error = format!("not edited: Python cannot read t.py: line 6 ({long}): bad");
        assert_eq!(
            shown_error(&error),
            "not edited: Python cannot read t.py: line 6…"
        );
        // Code quoted whole stays.
        let whole = format!(
            "not edited: line 6 (`x = (`): '(' was never closed {}",
            "y".repeat(300)
        );
        assert!(shown_error(&whole).starts_with("not edited: line 6 (`x = (`)"));
        assert_eq!(shown_error("short `code`"), "short `code`");
    }
}
