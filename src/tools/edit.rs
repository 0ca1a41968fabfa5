//! `edit_file`: replaces one occurrence of a passage the model quotes.
//!
//! The passage is looked for exactly first; when it is not there, line by
//! line with each line's leading and trailing whitespace ignored and its
//! quotes taken as alike (a model often quotes code with its indentation or
//! its quotes changed). Zero or several matches
//! are refused with the lines nearest to what was quoted, numbered, so the
//! model can quote again.

use super::confined::resolve;
use super::paths::PathError;
use super::{files, removal, write};
use crate::lang::Languages;
use crate::state::{ActionOutcome, RefusalKind};

/// Lines of the file shown around the nearest match of a refused edit.
const NEAREST_LINES: usize = 6;

/// Why an edit cannot be applied to a text: the message for the model.
pub type EditRefusal = String;

/// The text after replacing the one occurrence of `old` with `new`.
pub fn apply(text: &str, old: &str, new: &str, path: &str) -> Result<String, EditRefusal> {
    // A file with nothing in it has nothing to quote: what it holds after
    // the edit is `new`, and nothing is lost (n1's package sent `from .add
    // import *` as `old` for an empty `mathx/__init__.py`, with that line
    // and `from .mul import *` as `new`, eight times, told each time that
    // the file is empty).
    if text.trim().is_empty() && !new.trim().is_empty() {
        return Ok(match new.ends_with('\n') {
            true => new.to_string(),
            false => format!("{new}\n"),
        });
    }
    if old.is_empty() {
        return Err(format!(
            "edit_file {path}: `old` is empty; quote the lines to replace exactly as they are in \
             the file (read_file shows them), or use write_file for a new file"
        ));
    }
    // The same edit sent again: `new` keeps `old` and the file holds `new`
    // already. Applied, it would give its lines twice (a small model sent
    // `def greeting(name, shout=False):` and the same body three times,
    // and greet.py had three `if shout:` blocks).
    if let Some(at) = made_before(text, old, new) {
        return Err(format!(
            "edit_file {path}: {path} holds this `new` already (from line {}): the edit was \
             made before, and made again it would give its lines twice; nothing was changed. If \
             something else must change, quote it as `old` and give what it must become as `new`",
            line_of(text, at)
        ));
    }
    let exact: Vec<usize> = text.match_indices(old).map(|(at, _)| at).collect();
    match exact.as_slice() {
        [at] => {
            let new = indented_after_mid_line(text, *at, old, new);
            return Ok(spliced(text, *at, at + old.len(), &new));
        }
        [] => {}
        several => {
            let spans: Vec<(usize, usize)> =
                several.iter().map(|at| (*at, at + old.len())).collect();
            return Err(several_matches(text, path, &spans));
        }
    }
    let spans = tolerant_matches(text, old);
    match spans.as_slice() {
        [(start, end)] => {
            let new = indented_at_line(&text[*start..*end], old, new);
            Ok(spliced(text, *start, *end, &new))
        }
        [] => Err(no_match(text, old, new, path)),
        several => Err(several_matches(text, path, several)),
    }
}

/// Where `text` holds `new` already, when `new` keeps `old` and is more
/// than one line: the edit was made, and made again it would give its
/// lines twice.
pub fn made_before(text: &str, old: &str, new: &str) -> Option<usize> {
    let again =
        !old.is_empty() && new != old && new.contains(old) && new.trim().lines().count() > 1;
    again.then(|| text.find(new)).flatten()
}

/// `text` with `start..end` replaced by `new`. When `new` repeats what
/// comes after the passage (or before it) as it is in the file, it gives
/// that part again rather than something to put beside it, so it replaces
/// that part too: a small model adding a function quoted a file's first
/// line as `old` and gave the whole new file as `new`, and the rest of the
/// old file came after it, every function twice.
fn spliced(text: &str, start: usize, end: usize, new: &str) -> String {
    let restated = |part: &str| {
        let part = part.trim();
        part.lines().filter(|l| !l.trim().is_empty()).count() >= 2 && new.contains(part)
    };
    let before = if restated(&text[..start]) {
        ""
    } else {
        &text[..start]
    };
    let after = if restated(&text[end..]) {
        if new.ends_with('\n') || !text.ends_with('\n') {
            ""
        } else {
            "\n"
        }
    } else {
        &text[end..]
    };
    format!("{before}{new}{after}")
}

/// The smallest edit, in whole lines, that turns `before` into `after`:
/// `(old, new)` such that [`apply`] of them to `before` gives `after`, with
/// `old` quoted once in `before` (lines around the change added until it
/// is). `None` when the texts are the same or no such quote exists. An
/// edit the runner mends is logged and shown so: what changed, where.
pub fn smallest(before: &str, after: &str) -> Option<(String, String)> {
    if before == after {
        return None;
    }
    let (was, is): (Vec<&str>, Vec<&str>) =
        (before.split('\n').collect(), after.split('\n').collect());
    let same_start = was.iter().zip(&is).take_while(|(a, b)| a == b).count();
    let most_end = was.len().min(is.len()) - same_start;
    let same_end = was
        .iter()
        .rev()
        .zip(is.iter().rev())
        .take(most_end)
        .take_while(|(a, b)| a == b)
        .count();
    let (mut from, mut to) = (same_start, same_end);
    loop {
        let old = was[from..was.len() - to].join("\n");
        let new = is[from..is.len() - to].join("\n");
        let quoted_once = !old.trim().is_empty() && before.matches(old.as_str()).count() == 1;
        if quoted_once && apply(before, &old, &new, "").as_deref() == Ok(after) {
            return Some((old, new));
        }
        match (from, to) {
            (0, 0) => return None,
            (0, _) => to -= 1,
            _ => from -= 1,
        }
    }
}

/// Runs `edit_file` on a workspace file: read, edit, write (as
/// `write_file` writes, so the result carries the same `FileChange`).
#[cfg(test)]
pub fn edit_file(
    root: &std::path::Path,
    given: &str,
    old: &str,
    new: &str,
    languages: Option<&Languages>,
) -> ActionOutcome {
    edit_over(root, given, old, new, languages, None)
}

/// `edit_file` over `prior`, the file's bytes as the caller read them
/// (see [`write::write_over`]); the write that follows reads nothing again.
pub fn edit_over(
    root: &std::path::Path,
    given: &str,
    old: &str,
    new: &str,
    languages: Option<&Languages>,
    prior: Option<Option<Vec<u8>>>,
) -> ActionOutcome {
    match resolve(root, given, false) {
        // Its folder is not there either: the file is new, and an edit
        // cannot make it. t106's temps-tests edited tests/test_temps.py,
        // never written, nine times, each told only that there was no
        // such file or folder.
        Err(PathError::MissingFolder) => {
            return ActionOutcome::refused(
                RefusalKind::NoSuchPath,
                format!(
                    "edit_file {given}: no such file (its folder is not there either); \
                     create it with write_file and its whole content"
                ),
            );
        }
        Err(e) => return files::path_refusal(given, e, None),
        Ok(_) => {}
    }
    let read = match prior {
        Some(prior) => Ok(prior),
        None => files::read(root, given),
    };
    let bytes = match read {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return ActionOutcome::refused(
                RefusalKind::NoSuchPath,
                format!("edit_file {given}: no such file; create it with write_file"),
            );
        }
        Err(e) => return ActionOutcome::failed(e),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return ActionOutcome::refused(
            RefusalKind::NotAFile,
            format!("edit_file {given}: the file is not UTF-8 text; it is not edited"),
        );
    };
    let edited = match apply(text, old, new, given) {
        Ok(edited) => edited,
        Err(refusal) => {
            let kind = match made_before(text, old, new) {
                Some(_) => RefusalKind::EditMadeBefore,
                None => RefusalKind::EditNoMatch,
            };
            return ActionOutcome::refused(kind, refusal);
        }
    };
    let (mut outcome, note) =
        write::write_noted(root, given, &edited, false, languages, Some(Some(bytes)));
    if outcome.ok {
        let removed = old.lines().count();
        let added = new.lines().count();
        let left = body_left(&edited, old, new)
            .map(|(line, body)| {
                format!(
                    "\nLines {line} to {} of {given}, after your new lines, are the body the \
                     block had before, much like your new lines, and are still there:\n```\n{}\n\
                     ```\nIf your new lines replace them, remove them: edit_file with them as \
                     `old` and \"\" as `new`.",
                    line + body.len() - 1,
                    body.join("\n")
                )
            })
            .unwrap_or_default();
        outcome.result = match &outcome.write {
            Some(change) if change.changed() => format!(
                "Edited {}: replaced {removed} line(s) with {added} line(s); the file now has {} \
                 bytes{}{note}{left}",
                change.path,
                change.bytes,
                removal::lost(&change.removed)
            ),
            // A model that sent the same text twice went on sending it
            // until the loop guard stopped it: say what to do instead.
            _ => format!(
                "{given}: `new` equals `old`; nothing changed. {given} holds that text already: \
                 if what the subtask asks is there, the subtask is done; otherwise give in \
                 `new` the text as it must read after the change"
            ),
        };
    }
    outcome
}

/// Lines of a block's old body an edit left after its new one: `old`
/// quoted the block's first line (`def main(argv):`), `new` gave that line
/// and a body, and the body the block had goes on after it, its lines
/// much like the new ones. t107's grep-lines quoted `def main(argv):` and
/// gave a main that reads `--match`; the old `with open(argv[0])` loop
/// stayed under it, took `--match` for the file, and the model wrote the
/// file again eight times, that loop kept each time. The first line's
/// number and the body's lines (to the first line not indented past the
/// quoted one), when most of them are like a new line.
fn body_left(edited: &str, old: &str, new: &str) -> Option<(usize, Vec<String>)> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let head = old.lines().rev().find(|line| !line.trim().is_empty())?;
    let new_lines: Vec<&str> = new.lines().collect();
    let kept = new_lines
        .iter()
        .position(|line| line.trim() == head.trim())?;
    let depth = indent(new_lines[kept]);
    let added: Vec<&str> = new_lines[kept + 1..]
        .iter()
        .copied()
        .filter(|line| !line.trim().is_empty())
        .collect();
    if added.len() < 2 || added.iter().any(|line| indent(line) <= depth) {
        return None;
    }
    let passage = new.trim_end_matches('\n');
    let at = edited.find(passage)? + passage.len();
    let after = &edited[at..];
    let after = &after[after.find('\n')? + 1..];
    let first = edited[..at].lines().count() + 1;
    let mut body = Vec::new();
    let mut skipped = 0;
    for line in after.lines() {
        if line.trim().is_empty() {
            match body.is_empty() {
                true => skipped += 1,
                false => body.push(line),
            }
            continue;
        }
        if indent(line) <= depth || body.len() >= 12 {
            break;
        }
        body.push(line);
    }
    while body.last().is_some_and(|line| line.trim().is_empty()) {
        body.pop();
    }
    let words = |line: &str| -> Vec<String> {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let plain = |line: &str| line.trim().replace('"', "'");
    let like = |line: &str| {
        let w = words(line);
        added.iter().any(|new| {
            let n = words(new);
            plain(new) == plain(line)
                || (w.len() >= 2
                    && n.len() >= 2
                    && w[..2] == n[..2]
                    && w.iter().filter(|x| n.contains(x)).count() * 5 >= w.len() * 3)
        })
    };
    let lines: Vec<&&str> = body.iter().filter(|l| !l.trim().is_empty()).collect();
    let alike = lines.iter().filter(|line| like(line)).count();
    (lines.len() >= 2 && alike >= 2 && alike * 3 >= lines.len() * 2).then(|| {
        (
            first + skipped,
            body.iter().map(|line| line.to_string()).collect(),
        )
    })
}

/// `new` for a one-line `old` found inside a line whose indentation it
/// did not quote (`if shout:` in `    if shout:`): a model that quotes a line
/// without its indentation writes the lines after the first relative to
/// it, and they get the line's indentation too, so a nested block stays
/// nested. Lines already indented that far are left as they are.
fn indented_after_mid_line<'a>(
    text: &str,
    at: usize,
    old: &str,
    new: &'a str,
) -> std::borrow::Cow<'a, str> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let relative = |line: &&str| !line.trim().is_empty() && !line.starts_with(before);
    if old.contains('\n')
        || before.is_empty()
        || !before.chars().all(|c| c == ' ' || c == '\t')
        || !new.lines().skip(1).any(|line| relative(&line))
    {
        return new.into();
    }
    let mut lines = new.split('\n');
    let mut out = lines.next().unwrap_or_default().to_string();
    for line in lines {
        out.push('\n');
        if !line.trim().is_empty() {
            out.push_str(before);
        }
        out.push_str(line);
    }
    out.into()
}

/// `new` for whole lines `found` that matched `old` with whitespace
/// ignored: when `old` quoted them less indented than they are, and `new`
/// starts at `old`'s indentation, every line of `new` gets the indentation
/// `old` left out (the model wrote both relative to where it quoted from).
fn indented_at_line<'a>(found: &str, old: &str, new: &'a str) -> std::borrow::Cow<'a, str> {
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let first_found = found.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first_old = old.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first_new = new.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let (have, quoted) = (
        &first_found[..indent(first_found)],
        &first_old[..indent(first_old)],
    );
    if have.len() <= quoted.len() || !have.starts_with(quoted) || indent(first_new) != quoted.len()
    {
        return new.into();
    }
    let missing = &have[quoted.len()..];
    new.split('\n')
        .map(|line| match line.trim().is_empty() {
            true => line.to_string(),
            false => format!("{missing}{line}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

/// 1-based line number of byte `at`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Byte spans of `text` whose lines equal the lines of `old` once each
/// line is trimmed, its double quotes are made single (a model quotes
/// `'Hello, {name}!'` for `"Hello, {name}!"`) and a `;` that ends it is
/// left out (one quoted `return f'Hello, {name}!';` three times from a
/// Python file with none); failing that, the same with blank lines left
/// out of both. A span covers whole lines, its final newline excluded
/// when `old` has none.
fn tolerant_matches(text: &str, old: &str) -> Vec<(usize, usize)> {
    let loose = |line: &str| {
        let line = line.trim();
        line.strip_suffix(';')
            .unwrap_or(line)
            .trim_end()
            .replace('"', "'")
    };
    let wanted: Vec<String> = old.lines().map(loose).collect();
    if wanted.iter().all(|line| line.is_empty()) {
        return Vec::new();
    }
    // (start, end without newline, end with newline) of every line.
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n').len();
        lines.push((start, start + bare, start + line.len()));
        start += line.len();
    }
    // The spans where `wanted` are the lines `lines` give, one after another.
    let spans = |lines: &[(usize, usize, usize)], wanted: &[&String]| {
        let mut spans = Vec::new();
        for first in 0..lines.len() {
            let Some(window) = lines.get(first..first + wanted.len()) else {
                break;
            };
            let same = window
                .iter()
                .zip(wanted)
                .all(|((s, e, _), want)| loose(&text[*s..*e]) == **want);
            if let (true, Some(last)) = (same, window.last()) {
                let end = if old.ends_with('\n') { last.2 } else { last.1 };
                spans.push((window[0].0, end));
            }
        }
        spans
    };
    let found = spans(&lines, &wanted.iter().collect::<Vec<_>>());
    if !found.is_empty() {
        return found;
    }
    // Then with blank lines left out on both sides: a model quoted two
    // functions with one blank line between them where the file has two,
    // three times (c1's add-function).
    let filled: Vec<(usize, usize, usize)> = lines
        .into_iter()
        .filter(|(s, e, _)| !text[*s..*e].trim().is_empty())
        .collect();
    let wanted: Vec<&String> = wanted.iter().filter(|line| !line.is_empty()).collect();
    spans(&filled, &wanted)
}

/// Refusal of an `old` found at several `spans`: each place with the
/// fewest lines around it that occur once in `text`, ready to be sent as
/// `old` (a small model told only "quote more lines" made both branches of
/// an `if` print the same line, could not tell them apart and gave up).
fn several_matches(text: &str, path: &str, spans: &[(usize, usize)]) -> EditRefusal {
    let all: Vec<&str> = text.lines().collect();
    let shown: Vec<String> = spans
        .iter()
        .map(|(start, end)| {
            let first = line_of(text, *start);
            let last = line_of(text, (*end).max(start + 1) - 1).max(first);
            match once_around(text, &all, first, last) {
                Some(quote) => format!(
                    "the one at line {first}, as an `old` that occurs once:\n```\n{quote}\n```"
                ),
                None => format!("line {first}:\n{}", numbered(text, first, last)),
            }
        })
        .collect();
    format!(
        "edit_file {path}: `old` occurs {} times (lines {}); nothing was changed. Quote more \
         lines around the one you mean so that it occurs once; {}",
        spans.len(),
        spans
            .iter()
            .map(|(start, _)| line_of(text, *start).to_string())
            .collect::<Vec<_>>()
            .join(", "),
        shown.join("\n")
    )
}

/// Lines `first..=last` (1-based) of `text` with the fewest lines before
/// and after them (those before first) that together occur once in
/// `text`; `None` when no such quote of up to 4 more lines exists.
fn once_around(text: &str, all: &[&str], first: usize, last: usize) -> Option<String> {
    (1..=4usize)
        .flat_map(|more| (0..=more).rev().map(move |before| (before, more - before)))
        .filter(|(before, after)| *before < first && last + after <= all.len())
        .map(|(before, after)| all[first - 1 - before..last + after].join("\n"))
        .find(|quote| !quote.trim().is_empty() && text.matches(quote.as_str()).count() == 1)
}

/// The last lines of `text` that occur once in it, to quote as `old` to
/// add code at its end; `None` for a text of blank lines.
pub fn last_lines(text: &str) -> Option<String> {
    let all: Vec<&str> = text.lines().collect();
    let last = all.iter().rposition(|line| !line.trim().is_empty())?;
    once_around(text, &all, last + 1, last + 1)
}

fn no_match(text: &str, old: &str, new: &str, path: &str) -> EditRefusal {
    // `new` begins with an `old` the file does not have: code added after
    // a line of the model's own (t79's add-done sent `old: "def
    // done(index):"` and that line with a body as `new`, three times, and
    // t73's add-hex did the same). Say how an addition is quoted, with the
    // file's last lines to quote.
    let adds = !old.trim().is_empty() && new.trim_start().starts_with(old.trim());
    if let Some(quote) = Some(text).filter(|_| adds).and_then(last_lines) {
        return format!(
            "edit_file {path}: `old` was not found; nothing was changed. `old` must be lines \
             {path} has now, and your `new` begins with your `old`: that adds code the file does \
             not have yet. To add it at the end of {path}, give as `old` its last lines:\n```\n\
             {quote}\n```\nand as `new` those same lines followed by the code you add, indented \
             as the code it belongs to."
        );
    }
    let first = old
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default();
    let nearest = nearest_line(text, first);
    let around = match nearest {
        Some(line) => format!(
            "The nearest lines of {path}:\n{}",
            numbered(
                text,
                line.saturating_sub(NEAREST_LINES / 2).max(1),
                line + NEAREST_LINES / 2
            )
        ),
        None => format!("{path} is empty."),
    };
    format!(
        "edit_file {path}: `old` was not found, not even with whitespace ignored; nothing was \
         changed. Read the file and quote the lines exactly. {around}"
    )
}

/// The 1-based line of `text` most like `wanted`: most words in common,
/// the first on a tie; `None` for an empty text.
fn nearest_line(text: &str, wanted: &str) -> Option<usize> {
    let words: Vec<&str> = wanted
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .collect();
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            let score = words
                .iter()
                .filter(|word| !word.is_empty() && line.contains(**word))
                .count();
            (score, usize::MAX - index)
        })
        .max()
        .map(|(_, reversed)| usize::MAX - reversed + 1)
}

/// Lines `from..=to` (1-based) of `text` as `N: line`.
fn numbered(text: &str, from: usize, to: usize) -> String {
    text.lines()
        .enumerate()
        .skip(from - 1)
        .take(to + 1 - from)
        .map(|(index, line)| format!("{}: {line}", index + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef average(xs):\n    return sum(xs) / (len(xs) - 1)\n";

    #[test]
    fn one_exact_occurrence_is_replaced_and_nothing_else() {
        let edited = apply(CALC, "(len(xs) - 1)", "len(xs)", "calc.py").unwrap();
        assert_eq!(edited, CALC.replace("(len(xs) - 1)", "len(xs)"));
        assert!(edited.contains("def add(a, b):\n    return a + b\n"));
    }

    #[test]
    fn indentation_quoted_wrong_still_matches_one_passage() {
        let old = "def average(xs):\nreturn sum(xs) / (len(xs) - 1)";
        let new = "def average(xs):\n    return sum(xs) / len(xs)";
        let edited = apply(CALC, old, new, "calc.py").unwrap();
        assert!(edited.ends_with("def average(xs):\n    return sum(xs) / len(xs)\n"));
        assert!(edited.starts_with("def add(a, b):\n"));
    }

    #[test]
    fn a_passage_quoted_with_other_blank_lines_matches() {
        // One blank line quoted where calc.py has two (c1's add-function).
        let old = "def add(a, b):\n    return a + b\n\ndef average(xs):\n";
        let new = "def add(a, b):\n    return a + b\n\n\ndef mean(xs):\n";
        let edited = apply(CALC, old, new, "calc.py").unwrap();
        assert_eq!(edited, CALC.replace("def average", "def mean"));
        // An exact match of the lines as quoted comes first.
        let text = "a = 1\n\nb = 2\na = 1\nb = 2\n";
        assert_eq!(
            apply(text, "a = 1\nb = 2\n", "c = 3\n", "t.py").unwrap(),
            "a = 1\n\nb = 2\nc = 3\n"
        );
    }

    #[test]
    fn a_line_quoted_without_its_indentation_keeps_the_new_lines_nested() {
        let text = "def greeting(name, shout):\n    if shout:\n        return 1\n    return 2\n";
        let new = "if shout:\n    return 3\nelse:\n    return 4";
        let edited = apply(text, "if shout:", new, "g.py").unwrap();
        assert_eq!(
            edited,
            "def greeting(name, shout):\n    if shout:\n        return 3\n    else:\n        return 4\n        return 1\n    return 2\n"
        );
        // Lines already at the line's indentation are left as they are.
        let absolute = "if shout:\n        return 3";
        let edited = apply(text, "if shout:", absolute, "g.py").unwrap();
        assert!(
            edited.contains("    if shout:\n        return 3\n"),
            "{edited}"
        );
        // Inside an expression nothing is indented.
        let edited = apply(text, "turn 2", "turn (2 +\n3)", "g.py").unwrap();
        assert!(edited.ends_with("    return (2 +\n3)\n"), "{edited}");
    }

    #[test]
    fn lines_quoted_less_indented_than_they_are_are_replaced_at_their_indentation() {
        let text = "class A:\n    def f(self):\n        return 1\n";
        let old = "def f(self):\n    return 1";
        let new = "def f(self):\n    return 2";
        let edited = apply(text, old, new, "a.py").unwrap();
        assert_eq!(edited, "class A:\n    def f(self):\n        return 2\n");
        // `new` written at the file's indentation is kept as it is.
        let new = "    def f(self):\n        return 2";
        let edited = apply(text, old, new, "a.py").unwrap();
        assert_eq!(edited, "class A:\n    def f(self):\n        return 2\n");
    }

    #[test]
    fn a_passage_quoted_with_the_other_quotes_matches() {
        let text = "def greeting(name):\n    return f\"Hello, {name}!\"\n";
        let edited = apply(
            text,
            "return f'Hello, {name}!'",
            "return f'HELLO, {name.upper()}!'",
            "g.py",
        )
        .unwrap();
        assert_eq!(
            edited,
            "def greeting(name):\n    return f'HELLO, {name.upper()}!'\n"
        );
    }

    #[test]
    fn a_line_quoted_with_a_semicolon_it_does_not_end_with_matches() {
        let text = "def greeting(name):\n    return f\"Hello, {name}!\"\n";
        let edited = apply(
            text,
            "return f'Hello, {name}!';",
            "return f'HELLO, {name}!'",
            "g.py",
        )
        .unwrap();
        assert_eq!(
            edited,
            "def greeting(name):\n    return f'HELLO, {name}!'\n"
        );
        let error = apply(text, "return f'Hello, {name}!';;", "x", "g.py").unwrap_err();
        assert!(error.contains("not found"), "{error}");
    }

    /// An `old` the file does not have that `new` begins with: an
    /// addition, answered with the file's last lines to quote.
    #[test]
    fn an_addition_after_a_line_of_the_model_s_own_is_shown_the_file_s_end() {
        let todo = "class Todo:\n    def items(self):\n        return list(self.entries)\n";
        let error = apply(
            todo,
            "def done(index):",
            "def done(index):\n    return self.entries.pop(index)",
            "todo.py",
        )
        .unwrap_err();
        assert!(error.contains("begins with your `old`"), "{error}");
        assert!(
            error.contains("```\n    def items(self):\n        return list(self.entries)\n```"),
            "{error}"
        );
        // Quoted as told, the addition is made.
        let quote = "    def items(self):\n        return list(self.entries)";
        let edited = apply(
            todo,
            quote,
            &format!(
                "{quote}\n\n    def done(self, index):\n        return self.entries.pop(index)"
            ),
            "todo.py",
        )
        .unwrap();
        assert!(
            edited.ends_with("        return self.entries.pop(index)\n"),
            "{edited}"
        );
        // A replacement that does not begin with `old` is shown the nearest lines.
        let error = apply(todo, "def itms(self):", "def items(self, n):", "todo.py").unwrap_err();
        assert!(error.contains("2:     def items(self):"), "{error}");
    }

    #[test]
    fn zero_matches_show_the_nearest_lines_numbered() {
        let error = apply(CALC, "def averge(xs, ys):", "x", "calc.py").unwrap_err();
        assert!(error.contains("was not found"), "{error}");
        assert!(error.contains("5: def average(xs):"), "{error}");
    }

    #[test]
    fn a_new_passage_that_restates_the_rest_of_the_file_replaces_it() {
        let text = "def reverse(text):\n    return text[::-1]\n\n\ndef shout(text):\n    return text.upper()\n";
        let whole = format!("{text}\n\ndef count(text):\n    return len(text)");
        // The first line quoted, the whole new file given.
        let edited = apply(text, "def reverse(text):", &whole, "t.py").unwrap();
        assert_eq!(edited, format!("{whole}\n"));
        // The last line quoted, the whole new file given.
        let edited = apply(
            text,
            "    return text.upper()\n",
            &format!("{whole}\n"),
            "t.py",
        )
        .unwrap();
        assert_eq!(edited, format!("{whole}\n"));
        // A passage that repeats one line of what follows is put in as it is.
        let text = "a = 1\nb = 2\nc = 3\n";
        assert_eq!(
            apply(text, "a = 1\n", "a = 1\nc = 3\n", "t.py").unwrap(),
            "a = 1\nc = 3\nb = 2\nc = 3\n"
        );
    }

    #[test]
    fn the_smallest_edit_quotes_what_changed_with_lines_around_until_once() {
        let before = "def a():\n    return 1\n\n\ndef b():\n    return 1\n";
        let after = "def a():\n    return 1\n\n\ndef b():\n    return 2\n";
        let (old, new) = smallest(before, after).unwrap();
        // `    return 1` alone is there twice: the line before makes it one.
        assert_eq!(old, "def b():\n    return 1");
        assert_eq!(new, "def b():\n    return 2");
        assert_eq!(apply(before, &old, &new, "x.py").unwrap(), after);
        // Lines put in: quoted with the line before them.
        let added = format!("{before}\n\ndef c():\n    return 3\n");
        let (old, new) = smallest(before, &added).unwrap();
        assert_eq!(apply(before, &old, &new, "x.py").unwrap(), added);
        assert!(
            new.contains("def c():") && !old.contains("def c"),
            "{old:?} {new:?}"
        );
        assert_eq!(smallest(before, before), None);
    }

    #[test]
    fn a_blocks_old_body_left_under_a_new_one_is_shown() {
        // t107's grep-lines: the first line of main quoted, a new main given.
        let text = "import sys\n\n\ndef main(argv):\n    with open(argv[0]) as f:\n        for line in f:\n            print(line, end=\"\")\n\n\nif __name__ == \"__main__\":\n    main(sys.argv[1:])\n";
        let old = "import sys\n\n\ndef main(argv):";
        let new = "import argparse\nimport sys\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--match')\n    parser.add_argument('rest', nargs='*')\n    args = parser.parse_args()\n    with open(args.rest[0]) as f:\n        for line in f:\n            if args.match is None or args.match in line:\n                print(line, end='')\n";
        let edited = apply(text, old, new, "lines.py").unwrap();
        let (line, body) = body_left(&edited, old, new).expect("the old body is left");
        assert_eq!(line, 15, "{edited}");
        assert_eq!(
            edited.lines().nth(line - 1),
            Some("    with open(argv[0]) as f:")
        );
        assert_eq!(body.len(), 3, "{body:?}");
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("lines.py"), text).unwrap();
        let outcome = edit_file(&root, "lines.py", old, new, None);
        assert!(outcome.ok, "{}", outcome.result);
        assert!(
            outcome
                .result
                .contains("Lines 15 to 17 of lines.py, after your new lines"),
            "{}",
            outcome.result
        );
        // A body put in a block that keeps its own, unlike it; lines put in
        // after a line that opens no block; a new function before another.
        let adds = "def main(argv):\n    total = 0\n    for x in argv:\n        total += int(x)\n    print(total)\n";
        let old = "def main(argv):";
        let new = "def main(argv):\n    if not argv:\n        raise SystemExit('usage: sum N...')";
        let edited = apply(adds, old, new, "s.py").unwrap();
        assert_eq!(body_left(&edited, old, new), None, "{edited}");
        let flat = "a = 1\nb = 2\nc = 3\n";
        let edited = apply(flat, "a = 1", "a = 1\nb = 5\nc = 6", "t.py").unwrap();
        assert_eq!(body_left(&edited, "a = 1", "a = 1\nb = 5\nc = 6"), None);
        let two =
            "import m\n\ndef test_a():\n    assert m.f(1, 'x') == 1\n    assert m.f(2, 'y') == 2\n";
        let new =
            "import m\n\ndef test_b():\n    assert m.f(3, 'x') == 3\n    assert m.f(4, 'y') == 4\n";
        let edited = apply(two, "import m", new, "t.py").unwrap();
        assert_eq!(body_left(&edited, "import m", new), None, "{edited}");
    }

    #[test]
    fn an_edit_of_a_file_that_is_not_there_says_to_write_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for given in ["tests/test_t.py", "test_t.py"] {
            let outcome = edit_file(&root, given, "a = 1", "a = 2", None);
            assert!(!outcome.ok, "{given}");
            assert_eq!(outcome.refusal, Some(RefusalKind::NoSuchPath), "{given}");
            let said = outcome.error.unwrap_or_default();
            assert!(
                said.contains("create it with write_file"),
                "{given}: {said}"
            );
        }
        assert!(!root.join("tests").exists(), "nothing is made");
    }

    #[test]
    fn an_edit_of_an_empty_file_gives_it_new() {
        let new = "from .add import *\nfrom .mul import *";
        assert_eq!(
            apply("", "from .add import *", new, "m/__init__.py").unwrap(),
            format!("{new}\n")
        );
        assert_eq!(apply("\n", "", "x = 1\n", "a.py").unwrap(), "x = 1\n");
        // Nothing to write is still refused.
        assert!(apply("", "a", "  ", "a.py").is_err());
        assert!(apply("y = 2\n", "", "x = 1", "a.py").is_err());
    }

    #[test]
    fn several_matches_are_refused_with_their_lines() {
        let text = "x = 1\ny = 2\nx = 1\n";
        let error = apply(text, "x = 1", "x = 3", "a.py").unwrap_err();
        assert!(error.contains("occurs 2 times (lines 1, 3)"), "{error}");
        let tolerant = apply("  a\nb\n a \n", "a", "c", "a.py");
        assert!(tolerant.unwrap_err().contains("occurs 2 times"));
    }

    #[test]
    fn several_matches_each_come_with_an_old_that_occurs_once() {
        let text = "def greet(name, shout):\n    if shout:\n        print(f\"Hello, {name}!\")\n    else:\n        print(f\"Hello, {name}!\")\n";
        let old = "print(f\"Hello, {name}!\")";
        let error = apply(text, old, "print(f\"HELLO, {name.upper()}!\")", "greet.py").unwrap_err();
        assert!(error.contains("occurs 2 times (lines 3, 5)"), "{error}");
        let quotes: Vec<&str> = error
            .split("```")
            .skip(1)
            .step_by(2)
            .map(|q| q.trim_matches('\n'))
            .collect();
        assert_eq!(
            quotes,
            [
                "    if shout:\n        print(f\"Hello, {name}!\")",
                "    else:\n        print(f\"Hello, {name}!\")"
            ],
            "{error}"
        );
        // Each quote, sent as `old`, changes its own place and no other.
        let shouted = apply(
            text,
            quotes[0],
            "    if shout:\n        print(f\"HELLO, {name.upper()}!\")",
            "greet.py",
        )
        .unwrap();
        assert!(
            shouted.contains("if shout:\n        print(f\"HELLO")
                && shouted.contains("else:\n        print(f\"Hello"),
            "{shouted}"
        );
        // The first of a file has no line before it: the line after it is quoted.
        let twice = "x = 1\ny = 2\nx = 1\nz = 3\n";
        let error = apply(twice, "x = 1", "x = 4", "a.py").unwrap_err();
        assert!(
            error.contains("```\nx = 1\ny = 2\n```") && error.contains("```\ny = 2\nx = 1\n```"),
            "{error}"
        );
    }

    #[test]
    fn an_edit_of_a_workspace_file_is_a_file_change() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("calc.py"), CALC).unwrap();
        let outcome = edit_file(&root, "calc.py", "(len(xs) - 1)", "len(xs)", None);
        assert!(outcome.ok, "{}", outcome.result);
        let change = outcome.write.unwrap();
        assert_eq!(change.before, Some(files::sha256_hex(CALC.as_bytes())));
        let now = std::fs::read_to_string(root.join("calc.py")).unwrap();
        assert_eq!(change.after, files::sha256_hex(now.as_bytes()));
        assert!(now.contains("/ len(xs)"));
        let missing = edit_file(&root, "nope.py", "a", "b", None);
        assert!(!missing.ok && missing.result.contains("write_file"));
    }

    #[test]
    fn an_edit_that_changes_nothing_says_the_file_holds_it_already() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("calc.py"), CALC).unwrap();
        let same = "def add(a, b):\n    return a + b";
        let outcome = edit_file(&root, "calc.py", same, same, None);
        assert!(outcome.ok, "{}", outcome.result);
        assert!(
            outcome
                .result
                .contains("calc.py holds that text already: if what the subtask asks is there"),
            "{}",
            outcome.result
        );
        assert_eq!(std::fs::read_to_string(root.join("calc.py")).unwrap(), CALC);
    }

    #[test]
    fn the_same_edit_sent_again_is_refused() {
        let text = "def greeting(name):\n    return name\n";
        let new = "def greeting(name, shout=False):\n    if shout:\n        return name.upper()";
        let once = apply(text, "def greeting(name):", new, "greet.py").unwrap();
        let again = apply(&once, "def greeting(name, shout=False):", new, "greet.py");
        assert_eq!(
            again,
            Err(
                "edit_file greet.py: greet.py holds this `new` already (from line 1): the edit \
                 was made before, and made again it would give its lines twice; nothing was \
                 changed. If something else must change, quote it as `old` and give what it must \
                 become as `new`"
                    .into()
            )
        );
        // A one-line `new` that keeps `old` is another edit.
        assert!(apply("x = 1\nx = 12\n", "x = 1\n", "x = 12\n", "a.py").is_ok());
        // Through the tool: its own kind (what it was to make is there),
        // not a quote that matched nothing; the file is as it was.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("greet.py"), &once).unwrap();
        let outcome = edit_file(
            &root,
            "greet.py",
            "def greeting(name, shout=False):",
            new,
            None,
        );
        assert_eq!(outcome.refusal, Some(RefusalKind::EditMadeBefore));
        let missing = edit_file(&root, "greet.py", "def farewell():", new, None);
        assert_eq!(missing.refusal, Some(RefusalKind::EditNoMatch));
        assert_eq!(
            std::fs::read_to_string(root.join("greet.py")).unwrap(),
            once
        );
    }

    #[test]
    fn an_edit_that_cuts_a_def_out_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("calc.py"), CALC).unwrap();
        let languages = Languages::default();
        let old = "def add(a, b):\n    return a + b\n\n\n";
        let outcome = edit_file(&root, "calc.py", old, "", Some(&languages));
        assert_eq!(
            outcome.result,
            "Edited calc.py: replaced 4 line(s) with 0 line(s); the file now has 52 bytes; the \
             definition add is gone: if the goal did not ask for that, put it back"
        );
        assert_eq!(outcome.write.unwrap().removed, ["add"]);
    }

    /// An edit that adds a parameter and no call that gives it says so
    /// (the 1.5B model added `shout=False` to `greeting` and never passed it).
    #[test]
    fn an_edit_that_adds_a_parameter_no_call_gives_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let greet = "import sys\n\n\ndef greeting(name):\n    return f\"Hello, {name}!\"\n\n\ndef main(argv):\n    print(greeting(argv[1]))\n\n\nif __name__ == \"__main__\":\n    main(sys.argv)\n";
        std::fs::write(root.join("greet.py"), greet).unwrap();
        let languages = Languages::default();
        let outcome = edit_file(
            &root,
            "greet.py",
            "def greeting(name):",
            "def greeting(name, shout=False):",
            Some(&languages),
        );
        assert!(
            outcome
                .result
                .starts_with("Edited greet.py: replaced 1 line(s) with 1 line(s)")
                && outcome.result.contains(
                    "; note: no call in greet.py gives `shout` to `greeting` \
                     (`greeting(argv[1])`, line 9): it always takes its default"
                )
                && outcome.result.ends_with(
                    "; note: `greeting` never reads its parameter `shout`: what it returns \
                     cannot depend on it"
                ),
            "{}",
            outcome.result
        );
    }
}
