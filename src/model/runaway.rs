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
    fn code_that_is_alike_but_not_the_same_is_not_a_loop() {
        let tests: String = (0..40)
            .map(|i| format!("def test_{i}():\n    assert fizzbuzz({i}) == expected({i})\n\n"))
            .collect();
        assert!(!repeating(&tests));
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
