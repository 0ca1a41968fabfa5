//! A command's output, drained to the end while holding only its head and its
//! tail, then cleaned (ANSI escapes, invalid UTF-8) for the model.

use std::collections::VecDeque;

/// Bytes kept at each end of a stream: enough for any traceback a model can
/// use, small enough that a command printing gigabytes costs nothing.
pub const KEEP: usize = 64 * 1024;

/// The first and last [`KEEP`] bytes of a stream, and its length.
#[derive(Debug, Default, Clone)]
pub struct HeadTail {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: u64,
}

impl HeadTail {
    pub fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.head.len() < KEEP {
            let take = (KEEP - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        if bytes.len() >= KEEP {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - KEEP..]);
        } else {
            let overflow = (self.tail.len() + bytes.len()).saturating_sub(KEEP);
            self.tail.drain(..overflow);
            self.tail.extend(bytes);
        }
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// The text for the model: all of it when it fits in `limit` bytes,
    /// otherwise a head and a tail and a line that says how much was cut.
    pub fn render(&self, limit: usize) -> String {
        let kept = self.head.len() as u64 + self.tail.len() as u64;
        let half = limit / 2;
        if self.total <= limit as u64 && kept == self.total {
            let mut all = self.head.clone();
            all.extend(self.tail.iter());
            return clean(&all);
        }
        let head = &self.head[..self.head.len().min(half)];
        let tail: Vec<u8> = self
            .tail
            .iter()
            .skip(self.tail.len().saturating_sub(half))
            .copied()
            .collect();
        let cut = self.total - head.len() as u64 - tail.len() as u64;
        format!(
            "{}\n[... {cut} bytes cut from the middle of {} bytes of output ...]\n{}",
            clean(head),
            self.total,
            clean(&tail)
        )
    }
}

/// Lossy UTF-8 without ANSI escape sequences or other control characters.
pub fn clean(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                // CSI: ESC [ params final-byte
                Some('[') => {
                    chars.next();
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC: ESC ] ... BEL or ESC \
                Some(']') => {
                    chars.next();
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' || (c == '\u{1b}' && chars.peek() == Some(&'\\')) {
                            if c == '\u{1b}' {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                _ => {
                    chars.next();
                }
            },
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_kept_whole() {
        let mut out = HeadTail::default();
        out.push(b"hello ");
        out.push(b"world");
        assert_eq!(out.render(100), "hello world");
    }

    #[test]
    fn long_output_keeps_both_ends_and_says_what_was_cut() {
        let mut out = HeadTail::default();
        out.push(b"START");
        for _ in 0..10_000 {
            out.push(&[b'x'; 100]);
        }
        out.push(b"END");
        assert_eq!(out.total(), 5 + 1_000_000 + 3);
        assert!(out.head.len() <= KEEP && out.tail.len() <= KEEP);
        let shown = out.render(1000);
        assert!(shown.starts_with("START"));
        assert!(shown.ends_with("END"));
        assert!(
            shown.contains("bytes cut from the middle of 1000008 bytes"),
            "{shown}"
        );
        assert!(shown.len() < 1200);
    }

    #[test]
    fn escapes_and_bad_utf8_are_cleaned() {
        assert_eq!(clean(b"\x1b[31mred\x1b[0m ok\r\n"), "red ok\n");
        assert_eq!(clean(b"\x1b]0;title\x07x"), "x");
        assert_eq!(clean(b"a\xffb"), "a\u{fffd}b");
    }
}
