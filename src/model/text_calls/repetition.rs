//! A reply cut at the token cap while the model repeated itself: the files
//! it wrote, up to where the repetition began.

use serde_json::Value;

use crate::chat::ToolCall;

use super::closed_calls;
use crate::model::runaway;

/// The files of a reply the runner stopped because it repeated itself
/// (see [`crate::model::runaway::repetition_start`], `at`: where the
/// copies after the first begin): each `write_file` call of the text
/// before `at`, its content up to its last whole line. t98's
/// textstats-tests wrote twelve lines of `assertEqual(longest_word("Hello
/// World\nWorld..."), "World")`, a few too few for the rules of
/// [`cut_repetition`], was stopped, asked again, and wrote them again,
/// three times.
pub fn cut_before(text: &str, at: usize, known: &[&str]) -> Option<Vec<ToolCall>> {
    let before = text.get(..at)?;
    let writes: Vec<ToolCall> = closed_calls(before, known, false)
        .into_iter()
        .filter(|call| call.name == "write_file")
        .filter_map(|mut call| {
            let content = call.arguments["content"].as_str()?;
            let whole = content[..content.rfind('\n')? + 1].to_string();
            (!whole.trim().is_empty()).then(|| {
                call.arguments["content"] = Value::String(whole);
                call
            })
        })
        .collect();
    (!writes.is_empty()).then_some(writes)
}

/// A reply cut at the token cap while the model wrote the same lines over
/// and over (Qwen2.5-Coder 1.5B repeats a test file's block of asserts until
/// the cap): its `write_file` calls, each file's content up to where the
/// repetition began, and how many repeated lines were dropped. `None` when
/// no file in it ends in at least [`MIN_REPEATED`] repeated lines: a file
/// merely cut short is not written (the model is told to write less).
pub fn cut_repetition(text: &str, known: &[&str]) -> Option<(Vec<ToolCall>, usize)> {
    let calls = closed_calls(text, known, false);
    let mut dropped = 0;
    let mut writes = Vec::new();
    for mut call in calls.into_iter().filter(|call| call.name == "write_file") {
        let Some(content) = call.arguments["content"].as_str() else {
            continue;
        };
        // The last line is the one the cap cut.
        let whole = &content[..content.rfind('\n').map_or(0, |at| at + 1)];
        let lines: Vec<&str> = whole.lines().collect();
        let start = repeated_tail(&lines);
        let repeated = lines[start..]
            .iter()
            .filter(|l| !l.trim().is_empty())
            .count();
        // Or a block written again and again under other names, or a
        // line again and again with other numbers.
        let start = match (
            repeated >= MIN_REPEATED && start > 0,
            runaway::alike_from(&lines),
        ) {
            (true, _) => start,
            (false, Some(start)) => start,
            (false, None) => match counting_from(&lines)
                .or_else(|| counting_blocks_from(&lines))
                .or_else(|| literals_from(&lines))
                .or_else(|| growing_from(&lines))
                .or_else(|| blank_from(&lines))
            {
                Some(start) => start,
                None => continue,
            },
        };
        dropped += lines.len() - start;
        let kept = lines[..start].join("\n") + "\n";
        call.arguments["content"] = Value::String(kept);
        writes.push(call);
    }
    (!writes.is_empty()).then_some((writes, dropped))
}

/// Blank lines in a row at the end of a reply cut at the cap that are a
/// model writing line breaks on, not code (a file's own blank lines are
/// two or three).
const MIN_BLANK: usize = 12;

/// Where the blank lines `lines` (a file of a reply cut at the token cap)
/// end in begin, when there are [`MIN_BLANK`] or more: q2's add-palindrome
/// wrote three lines of strutil.py and then `\n` to the cap, three replies
/// in a row.
fn blank_from(lines: &[&str]) -> Option<usize> {
    let blank = lines
        .iter()
        .rev()
        .take_while(|l| l.trim().is_empty())
        .count();
    (blank >= MIN_BLANK && blank < lines.len()).then(|| lines.len() - blank)
}

/// A file that ends in this many lines each written before it is a model
/// repeating itself (code ends in a few closing lines, not six).
pub const MIN_REPEATED: usize = 6;

/// Lines in a row at the end of a reply cut at the cap, each the one before
/// it but for its numbers, that are a model counting on rather than
/// writing code.
const MIN_COUNTING: usize = 12;

/// Where the lines to drop begin, when `lines` (a file of a reply cut at
/// the token cap) ends in [`MIN_COUNTING`] lines or more in a row, each the
/// line before it but for its numbers: the first [`MIN_REPEATED`] of them
/// are kept. x3's package run (Ollama API) wrote `assert mathx.add(1, 2)
/// == 3`, then the same with 0, 5, 10, 100, ... 10000000000000, to the
/// cap seven times in a row (70 s a reply); a file of the first few is
/// the test the model meant. Only of a reply cut at the cap: a table
/// written whole stays whole.
fn counting_from(lines: &[&str]) -> Option<usize> {
    let mut start = lines.len();
    while start > 1 && numbers_only(lines[start - 2], lines[start - 1]) {
        start -= 1;
    }
    // `start` is the run's second line: the run is one longer.
    let run = lines.len() - start + 1;
    (lines.len() >= 2 && run >= MIN_COUNTING).then(|| start - 1 + MIN_REPEATED)
}

/// Whether line `b` is line `a` but for its numbers (a number's sign is
/// the number's: `add(-5, -5)` after `add(5, 5)`); a blank line is no such
/// line.
fn numbers_only(a: &str, b: &str) -> bool {
    let unsigned = |line: &str| -> String {
        let chars: Vec<char> = line.chars().collect();
        chars
            .iter()
            .enumerate()
            .filter(|(at, c)| !(**c == '-' && chars.get(at + 1).is_some_and(char::is_ascii_digit)))
            .map(|(_, c)| *c)
            .collect()
    };
    let (a, b) = (unsigned(a), unsigned(b));
    let (wa, sa) = runaway::words_and_skeleton(&a);
    let (wb, sb) = runaway::words_and_skeleton(&b);
    !a.trim().is_empty()
        && sa == sb
        && wa.len() == wb.len()
        && wa.iter().zip(&wb).all(|(x, y)| {
            x == y
                || (x.bytes().all(|c| c.is_ascii_digit()) && y.bytes().all(|c| c.is_ascii_digit()))
        })
}

/// Copies of a block of lines, each the one before it but for its numbers,
/// that are a model counting on: [`MIN_COUNTING`] lines or more in all,
/// and at least this many copies.
const MIN_COUNTED_BLOCKS: usize = 4;
/// Lines of such a block, at most (a comment, a value, an assert and a
/// blank line, twice).
const MAX_BLOCK: usize = 8;

/// Where the lines to drop begin, when `lines` (a file of a reply cut at
/// the token cap, its last block perhaps cut short) ends in blocks of two
/// to [`MAX_BLOCK`] lines, each the block before it but for its numbers
/// (or the same), [`MIN_COUNTED_BLOCKS`] of them or more and
/// [`MIN_COUNTING`] lines or more: the first copies, [`MIN_REPEATED`]
/// lines or more and two copies at least, are kept. t106's temps-tests
/// wrote `# Test 19: above`, `readings = [10, 20, 30, 40, 50]`, `assert
/// above(readings, -10) == 0` and a blank line, numbers counting on, from
/// Test 2 to Test 22 at the cap, nine replies in a row; no line alike the
/// next but for its numbers, as [`counting_from`] takes them. Only of a
/// reply cut at the cap: a table written whole stays whole.
fn counting_blocks_from(lines: &[&str]) -> Option<usize> {
    let same = |a: &str, b: &str| a == b || numbers_only(a, b);
    for period in 2..=MAX_BLOCK {
        for cut in 0..period {
            let whole = &lines[..lines.len().saturating_sub(cut)];
            let n = whole.len();
            if n < MIN_COUNTED_BLOCKS * period {
                break;
            }
            let block = |copy: usize| &whole[n - (copy + 1) * period..n - copy * period];
            let mut copies = 1;
            while (copies + 1) * period <= n
                && block(copies)
                    .iter()
                    .zip(block(copies - 1))
                    .all(|(a, b)| same(a, b))
            {
                copies += 1;
            }
            // A block of blank lines or of one line again is no block of
            // code counted on.
            let meant = block(0).iter().filter(|l| !l.trim().is_empty()).count();
            let counted = (1..copies).any(|copy| block(copy) != block(copy - 1));
            if copies >= MIN_COUNTED_BLOCKS
                && copies * period >= MIN_COUNTING
                && meant >= 2
                && counted
            {
                let kept = MIN_REPEATED.div_ceil(period).max(2);
                return Some(n - copies * period + kept * period);
            }
        }
    }
    None
}

/// Lines in a row at the end of a reply cut at the cap, of at most
/// [`MAX_SHAPES`] shapes that differ only in their literals, that are a
/// model listing on rather than writing code.
const MIN_LISTING: usize = 24;
/// Shapes of such a run, at most: a few statements said again and again
/// for one value after another.
const MAX_SHAPES: usize = 4;

/// Where the lines to drop begin, when `lines` (a file of a reply cut at
/// the token cap) ends in [`MIN_LISTING`] lines or more in a row, none
/// blank, of at most [`MAX_SHAPES`] shapes (a line's shape: the line with
/// each string literal and each number put as one mark), with more than
/// one line among them: the first [`MIN_REPEATED`] of them are kept. z5's
/// add-tests (Ollama API) wrote `inv.add("apple", 5)`, `assert
/// inv.count("apple") == 5`, `inv.remove("apple", 2)` and on through the
/// fruits in alphabetical order, to the cap six times in a row; no two
/// lines alike but for their numbers, no block the same but for one
/// word. Only of a reply cut at the cap: a table written whole stays
/// whole.
fn literals_from(lines: &[&str]) -> Option<usize> {
    let mut shapes: Vec<String> = Vec::new();
    let mut start = lines.len();
    while start > 0 {
        let line = lines[start - 1];
        if line.trim().is_empty() {
            break;
        }
        let shape = shape(line);
        if !shapes.contains(&shape) {
            if shapes.len() == MAX_SHAPES {
                break;
            }
            shapes.push(shape);
        }
        start -= 1;
    }
    let run = &lines[start..];
    let varied = run.iter().any(|line| *line != run[0]);
    (run.len() >= MIN_LISTING && varied).then_some(start + MIN_REPEATED)
}

/// Lines in a row at the end of a reply cut at the cap, none blank, of one
/// shape once a list of literals counts as one literal, that are a model
/// listing longer and longer values rather than writing code.
const MIN_GROWING: usize = 12;

/// Where the lines to drop begin, when `lines` (a file of a reply cut at
/// the token cap) ends in [`MIN_GROWING`] lines or more in a row, none
/// blank and not all the same, of one shape once each list of literals
/// (`1, 2, 3`) is put as one (see [`shape`]): the first [`MIN_REPEATED`]
/// of them are kept. t109's temps-tests wrote `assert
/// temps.hottest([1, 2, 3, 4, 5]) == 5`, then the list one longer, then
/// reversed, to the cap twice in a row; each line had another number of
/// literals, another shape to [`literals_from`]. Only of a reply cut at
/// the cap: a table written whole stays whole.
fn growing_from(lines: &[&str]) -> Option<usize> {
    let folded = |line: &str| {
        let shaped = shape(line);
        let mut out = String::new();
        let mut rest = shaped.as_str();
        while let Some(c) = rest.chars().next() {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            if c == '0' || c == 'S' {
                // `0, 0, 0` is one `0`.
                while let Some(after) = rest.strip_prefix(", ").and_then(|r| r.strip_prefix(c)) {
                    rest = after;
                }
            }
        }
        out
    };
    let last = folded(lines.last()?);
    let mut start = lines.len();
    while start > 0 && !lines[start - 1].trim().is_empty() && folded(lines[start - 1]) == last {
        start -= 1;
    }
    let run = &lines[start..];
    let varied = run.iter().any(|line| *line != run[0]);
    (run.len() >= MIN_GROWING && varied).then_some(start + MIN_REPEATED)
}

/// `line` with each string literal (in either quotes) put as `S` and each
/// number (its sign its own) as `0`: what stays when only values change.
fn shape(line: &str) -> String {
    let mut unquoted = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' || c == '"' {
            while let Some(inner) = chars.next() {
                match inner {
                    '\\' => {
                        chars.next();
                    }
                    end if end == c => break,
                    _ => {}
                }
            }
            unquoted.push('S');
        } else {
            unquoted.push(c);
        }
    }
    let (words, skeleton) = runaway::words_and_skeleton(&unquoted);
    let mut words = words.into_iter();
    let mut shaped = String::new();
    for c in skeleton.chars() {
        match c {
            'w' => match words.next() {
                Some(word) if word.bytes().all(|b| b.is_ascii_digit()) => {
                    if shaped.ends_with('-') {
                        shaped.pop();
                    }
                    shaped.push('0');
                }
                Some(word) => shaped.push_str(word),
                None => {}
            },
            other => shaped.push(other),
        }
    }
    shaped
}

/// Where the run of lines at the end of `lines` begins in which every line
/// is blank or a copy of a line before it.
fn repeated_tail(lines: &[&str]) -> usize {
    let mut start = lines.len();
    while start > 0 {
        let line = lines[start - 1];
        if line.trim().is_empty() || lines[..start - 1].contains(&line) {
            start -= 1;
        } else {
            break;
        }
    }
    // Blank lines before the repetition belong to the file.
    while start < lines.len() && lines[start].trim().is_empty() {
        start += 1;
    }
    start
}
