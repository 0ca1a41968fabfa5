//! A reply that has begun to repeat itself: a small model that falls into a
//! loop writes the same block of lines until the token cap (Qwen2.5-Coder
//! 1.5B wrote `count_vowels` and `shout` again and again, 1,024 tokens,
//! about two minutes on a workstation's CPU, every one of them thrown
//! away). A streamed reply is stopped as soon as its text ends in such a
//! run; what came before it is kept, as for a reply cut at the cap.

/// The `done_reason` of a reply the runner stopped because it repeated
/// itself. Everything that takes a reply cut at the cap (`length`) as cut
/// off takes this one too (see [`cut_off`]).
pub const REPEATING: &str = "repetition";

/// Whether a reply that ended so was cut before the model finished it: at
/// the token cap, or stopped by the runner because it repeated itself.
pub fn cut_off(done_reason: Option<&str>) -> bool {
    matches!(done_reason, Some("length") | Some(REPEATING))
}

/// Line breaks the repeated copies must hold between them, at least: code
/// ends in a few closing lines, or says the same line twice or thrice
/// (blank lines, `pass`), not eight lines over again.
const MIN_REPEATED_LINES: usize = 8;
/// Bytes a block repeated inside one line must fill, at least, to be a
/// loop: a string literal written as the same few letters again and again
/// (Qwen2.5-Coder 1.5B's test of `count_vowels('aAeEiIoOuUaAeEiIoOuU...`,
/// cut at the cap five times in one run), not a rule of dashes.
const MIN_REPEATED_BYTES: usize = 600;
/// The text looked at, from its end: a repeated block longer than a third
/// of it is not seen.
const WINDOW: usize = 12 * 1024;
/// The end of the text whose earlier copies give the candidate lengths of
/// the repeated block.
const PROBE: usize = 16;

/// Whether `text` ends in the same block of lines written three times or
/// more in a row, with at least [`MIN_REPEATED_LINES`] line breaks in the
/// copies after the first. A line break is a real one or the `\n` of a
/// JSON string (a file written inside a call).
pub fn repeating(text: &str) -> bool {
    repetition_start(text).is_some()
}

/// Where the copies after the first begin, when `text` is
/// [`repeating`]: what comes before is what the model meant to write.
pub fn repetition_start(text: &str) -> Option<usize> {
    same_start(text).or_else(|| alike_start(text))
}

/// Copies a block of lines alike but not the same must come in, at least,
/// to be a loop: one more than the same block needs.
const MIN_ALIKE_COPIES: usize = 4;
/// Lines of such a block, at most (a test function and a blank line).
const MAX_ALIKE_PERIOD: usize = 8;

/// Where the second copy begins of a block of at least two lines written
/// [`MIN_ALIKE_COPIES`] times or more in a row at the end of `lines`, each
/// copy the one before it but for one word at most (its name), with at
/// least [`MIN_REPEATED_LINES`] lines in the copies after the first.
/// Qwen2.5-Coder 1.5B wrote `def test_add_seventeen(a, b):` and the same
/// assert under it, thirty-seven names long, to the token cap six times in
/// one package run (44 minutes). Code meant so differs in more than a
/// name: tests assert other values, getters return other fields.
pub fn alike_from(lines: &[&str]) -> Option<usize> {
    let n = lines.len();
    for period in 2..=MAX_ALIKE_PERIOD {
        if n < MIN_ALIKE_COPIES * period {
            break;
        }
        let block = |copy: usize| &lines[n - (copy + 1) * period..n - copy * period];
        let mut copies = 1;
        while (copies + 1) * period <= n && alike(block(copies), block(copies - 1)) {
            copies += 1;
        }
        let meant = block(0)
            .iter()
            .filter(|line| !line.trim().is_empty())
            .count();
        if copies >= MIN_ALIKE_COPIES && (copies - 1) * period >= MIN_REPEATED_LINES && meant > 0 {
            return Some(n - (copies - 1) * period);
        }
    }
    None
}

/// Whether block `b` is block `a` but for one word at most: the same
/// lines, or lines whose words and what is between them are the same but
/// one word.
fn alike(a: &[&str], b: &[&str]) -> bool {
    let mut differ = 0;
    for (x, y) in a.iter().zip(b) {
        if x == y {
            continue;
        }
        let (wx, sx) = words_and_skeleton(x);
        let (wy, sy) = words_and_skeleton(y);
        if sx != sy || wx.len() != wy.len() {
            return false;
        }
        differ += wx.iter().zip(&wy).filter(|(p, q)| p != q).count();
        if differ > 1 {
            return false;
        }
    }
    true
}

/// The words of `line` (runs of letters, digits and `_`), and the line
/// with each word put as one `w`.
pub(crate) fn words_and_skeleton(line: &str) -> (Vec<&str>, String) {
    let mut words = Vec::new();
    let mut skeleton = String::new();
    let mut start = None;
    for (at, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        let word = c.is_alphanumeric() || c == '_';
        match (word, start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                words.push(&line[from..at]);
                skeleton.push('w');
                start = None;
            }
            _ => {}
        }
        if !word && at < line.len() {
            skeleton.push(c);
        }
    }
    (words, skeleton)
}

/// [`alike_from`] on the end of `text`, whose lines end at a line break or
/// at the `\n` of a JSON string; the line it is still writing is left out.
/// The byte where the second copy begins.
fn alike_start(text: &str) -> Option<usize> {
    let offset = text.len().saturating_sub(WINDOW);
    let offset = (offset..=text.len()).find(|&i| text.is_char_boundary(i))?;
    let tail = &text[offset..];
    let mut starts = vec![0];
    let bytes = tail.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            starts.push(i + 1);
        } else if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'n') {
            starts.push(i + 2);
            i += 1;
        } else if bytes[i] == b'\\' {
            // Another escape: its second byte is not a line break.
            i += 1;
        }
        i += 1;
    }
    let lines: Vec<&str> = starts
        .windows(2)
        .map(|w| {
            let line = &tail[w[0]..w[1]];
            line.strip_suffix('\n')
                .or_else(|| line.strip_suffix("\\n"))
                .unwrap_or(line)
        })
        .collect();
    // The first line may begin before the window.
    let whole = lines.get(1..)?;
    alike_from(whole).map(|at| offset + starts[at + 1])
}

/// [`repetition_start`] for the same block, byte for byte.
fn same_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let offset = bytes.len().saturating_sub(WINDOW);
    let tail = &bytes[offset..];
    let n = tail.len();
    if n < 3 * PROBE {
        return None;
    }
    let probe = &tail[n - PROBE..];
    // Blank lines and spaces are no block (and, matching at every length,
    // would make this slow).
    if blank(probe) {
        return None;
    }
    for period in 1..=n / 3 {
        if &tail[n - PROBE - period..n - period] != probe {
            continue;
        }
        // How far back the text keeps to this period.
        let mut start = n - PROBE - period;
        while start > 0 && tail[start - 1] == tail[start - 1 + period] {
            start -= 1;
        }
        let repeated = &tail[start + period..];
        let in_line =
            repeated.len() >= MIN_REPEATED_BYTES && repeated.iter().any(|&b| b != repeated[0]);
        if n - start < 3 * period || (line_breaks(repeated) < MIN_REPEATED_LINES && !in_line) {
            continue;
        }
        if !blank(repeated) {
            // The copies are found from the end: the first may take in
            // the end of the line before it. It begins on a line of its
            // own.
            let at = offset + start + period;
            let line_start = |i: usize| {
                i == 0 || bytes[i - 1] == b'\n' || (i >= 2 && &bytes[i - 2..i] == b"\\n")
            };
            let at = (at..bytes.len()).find(|&i| line_start(i)).unwrap_or(at);
            return (at..=bytes.len()).find(|&i| text.is_char_boundary(i));
        }
    }
    None
}

/// Whether `bytes` are only white space, real or written as a JSON
/// string's escapes (one of which either end may cut in two).
fn blank(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let text = text
        .replace("\\n", "")
        .replace("\\t", "")
        .replace("\\r", "");
    text.trim_start_matches(['n', 't', 'r'])
        .trim_end_matches('\\')
        .trim()
        .is_empty()
}

fn line_breaks(bytes: &[u8]) -> usize {
    let real = bytes.iter().filter(|&&b| b == b'\n').count();
    let escaped = bytes.windows(2).filter(|w| w == b"\\n").count();
    real + escaped
}

/// The first `n` tests of u1's package run, alike but for their names, as
/// a JSON string gives them.
#[cfg(test)]
pub(crate) fn alike_tests(n: usize) -> String {
    [
        "add",
        "add_negative",
        "add_zero",
        "add_one",
        "add_two",
        "add_three",
    ][..n]
        .iter()
        .map(|name| format!("def test_{name}(a, b):\\n    assert add(a, b) == a + b\\n\\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_written_again_and_again_is_seen_once_it_is_there_three_times() {
        let block = "def count_vowels(text):\\n    \\\"\\\"\\\"The text backwards.\\\"\\\"\\\"\\n    \
                     return text[::-1]\\n\\n\\ndef shout(text):\\n    return text.upper()\\n\\n\\n";
        let start = "```json\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"t.py\", \
                     \"content\": \"";
        let twice = format!("{start}{block}{block}");
        assert!(!repeating(&twice), "two copies are not yet a loop");
        let thrice = format!("{twice}{block}def cou");
        assert!(repeating(&thrice));
        let at = repetition_start(&thrice).unwrap();
        assert_eq!(
            &thrice[..at],
            format!("{start}{block}"),
            "the first copy stays"
        );
        // Real line breaks, one line over and over.
        let lines = format!("import x\n{}", "    assert add(1, 2) == 3\n".repeat(9));
        assert!(repeating(&lines));
        let at = repetition_start(&lines).unwrap();
        assert_eq!(&lines[..at], "import x\n    assert add(1, 2) == 3\n");
        let few = format!("import x\n{}", "    assert add(1, 2) == 3\n".repeat(4));
        assert!(!repeating(&few), "four equal lines can be meant");
        // Inside one line: a string literal of the same letters.
        let line = format!(
            "    assert count_vowels('hello') == 2\\n    assert count_vowels('{}",
            "aAeEiIoOuU".repeat(70)
        );
        assert!(repeating(&line));
        let at = repetition_start(&line).unwrap();
        assert!(
            line[..at].ends_with("== 2\\n    assert count_vowels('aAeEiIoOuU"),
            "the first copy stays: {}",
            &line[..at]
        );
    }

    #[test]
    fn a_block_written_again_under_other_names_is_a_loop() {
        // u1's package run, as Qwen2.5-Coder 1.5B streamed it: a JSON
        // string, thirty-seven tests alike but for their names.
        let start = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \
                     \"mathx/test_add.py\",\n    \"content\": \"from mathx.add import add\\n\\n";
        let written = |n: usize| format!("{start}{}def test_add_fo", alike_tests(n));
        assert!(!repeating(&written(3)), "three alike are not yet a loop");
        let text = written(5);
        assert!(repeating(&text));
        let at = repetition_start(&text).unwrap();
        assert_eq!(
            &text[..at],
            format!("{start}{}", alike_tests(1)),
            "the first copy stays"
        );
        // Real line breaks.
        let lines: String = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|n| format!("def test_{n}():\n    assert f() == 1\n"))
            .collect();
        assert!(repeating(&lines));
    }

    #[test]
    fn code_that_is_alike_but_not_the_same_is_not_a_loop() {
        let tests: String = (0..40)
            .map(|i| format!("def test_{i}():\n    assert fizzbuzz({i}) == expected({i})\n\n"))
            .collect();
        assert!(!repeating(&tests));
        // Other names and other values, or one line each.
        let getters: String = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|field| format!("def get_{field}(self):\n    return self.{field}\n\n"))
            .collect();
        assert!(!repeating(&getters));
        let checks: String = (0..12)
            .map(|i| format!("def test_{i}():\n    assert add({i}, 1) == {}\n\n", i + 1))
            .collect();
        assert!(!repeating(&checks));
        let words: String = [
            "apple", "banana", "cherry", "grape", "lemon", "mango", "melon", "olive", "peach",
            "pear", "plum", "lime",
        ]
        .iter()
        .map(|word| format!("    \"{word}\",\n"))
        .collect();
        assert!(!repeating(&format!("WORDS = [\n{words}]\n")));
        let rule = format!("# {}\nprint('x')\n", "-".repeat(300));
        assert!(!repeating(&rule), "one long line holds no repeated lines");
        let dashes = format!("x = '{}", "-".repeat(2000));
        assert!(!repeating(&dashes), "one character over and over is a rule");
        let word = format!("x = '{}", "ab".repeat(250));
        assert!(!repeating(&word), "a short run inside a line can be meant");
        let blank = format!("x = 1{}", "\n".repeat(40));
        assert!(!repeating(&blank), "blank lines are no block");
        let escaped = format!("{{\"content\": \"x = 1{}", "\\n".repeat(40));
        assert!(!repeating(&escaped), "nor are they written as escapes");
        assert!(!repeating(&format!("{escaped}\\")), "cut in an escape");
        assert!(!repeating(""));
        assert!(cut_off(Some("length")) && cut_off(Some(REPEATING)));
        assert!(!cut_off(Some("stop")) && !cut_off(None));
    }
}
