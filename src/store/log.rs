//! `history.jsonl`: one record a line, each ending in a CRC-32 of its own
//! bytes, so that a torn or damaged line is recognised.
//!
//! A line is the record's JSON with `,"crc":"xxxxxxxx"` put before its
//! closing brace; the CRC covers the JSON as it was without that field.

use crate::state::Record;

/// Encodes a record as one line, newline included; returns it and its CRC.
pub fn encode(record: &Record) -> Result<(Vec<u8>, u32), serde_json::Error> {
    let mut line = serde_json::to_vec(record)?;
    let crc = crc32fast::hash(&line);
    line.pop(); // the closing brace, put back after the crc
    line.extend_from_slice(format!(",\"crc\":\"{crc:08x}\"}}\n").as_bytes());
    Ok((line, crc))
}

/// Why a line is not a valid record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    NoNewline,
    NoChecksum,
    BadChecksum,
    BadJson(String),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NoNewline => write!(f, "the line is not terminated (a torn write)"),
            LineError::NoChecksum => write!(f, "the line has no checksum"),
            LineError::BadChecksum => write!(f, "the checksum does not match the content"),
            LineError::BadJson(e) => write!(f, "the line is not a valid record: {e}"),
        }
    }
}

/// Decodes one line (without its newline) and returns the record and its CRC.
pub fn decode(line: &[u8]) -> Result<(Record, u32), LineError> {
    const MARK: &[u8] = b",\"crc\":\"";
    let at = rfind(line, MARK).ok_or(LineError::NoChecksum)?;
    let tail = &line[at + MARK.len()..];
    if tail.len() != 10 || &tail[8..] != b"\"}" {
        return Err(LineError::NoChecksum);
    }
    let stated = std::str::from_utf8(&tail[..8])
        .ok()
        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        .ok_or(LineError::NoChecksum)?;
    let mut body = line[..at].to_vec();
    body.push(b'}');
    if crc32fast::hash(&body) != stated {
        return Err(LineError::BadChecksum);
    }
    let record = serde_json::from_slice(&body).map_err(|e| LineError::BadJson(e.to_string()))?;
    Ok((record, stated))
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// A record found by [`scan`], with where it lies in the file.
#[derive(Debug, Clone)]
pub struct Found {
    pub record: Record,
    pub crc: u32,
    /// Byte offset of the line's start, relative to where the scan began.
    pub start: u64,
    /// Byte offset just past its newline.
    pub end: u64,
}

/// A line that is not a valid record.
#[derive(Debug, Clone)]
pub struct Bad {
    pub start: u64,
    pub error: LineError,
    /// The seqs of the valid records after the bad line. One at or past the
    /// bad line's place means damage in the middle of the log; none, or only
    /// stale copies of earlier lines, a torn tail.
    pub later: Vec<u64>,
}

impl Bad {
    /// A valid record at or past the bad line's place (`expected`, the seq
    /// it should have had) follows it: damage, not a torn tail.
    pub fn damages(&self, expected: u64) -> bool {
        self.later.iter().any(|&seq| seq >= expected)
    }
}

/// Splits `bytes` into records, stopping at the first bad line.
pub fn scan(bytes: &[u8]) -> (Vec<Found>, Option<Bad>) {
    let mut found = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let (line, end, error) = match rest.iter().position(|&b| b == b'\n') {
            Some(n) => (&rest[..n], at + n + 1, None),
            None => (rest, bytes.len(), Some(LineError::NoNewline)),
        };
        let decoded = match error {
            Some(e) => Err(e),
            None => decode(line),
        };
        match decoded {
            Ok((record, crc)) => found.push(Found {
                record,
                crc,
                start: at as u64,
                end: end as u64,
            }),
            Err(error) => {
                let later = seqs_in(&bytes[end..]);
                return (
                    found,
                    Some(Bad {
                        start: at as u64,
                        error,
                        later,
                    }),
                );
            }
        }
        at = end;
    }
    (found, None)
}

/// The seqs of the whole lines of `bytes` that are valid records.
fn seqs_in(bytes: &[u8]) -> Vec<u64> {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .filter_map(|line| line.strip_suffix(b"\n"))
        .filter_map(|line| decode(line).ok())
        .map(|(record, _)| record.seq)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Event, Outcome};

    fn record(seq: u64) -> Record {
        Record {
            seq,
            ts: "2026-11-22T00:00:00Z".into(),
            event: Event::RunEnded {
                outcome: Outcome::Achieved,
                reason: format!("done {seq}"),
            },
        }
    }

    #[test]
    fn a_record_survives_encoding() {
        let line = encode(&record(7)).unwrap().0;
        assert_eq!(line.last(), Some(&b'\n'));
        let text = String::from_utf8(line.clone()).unwrap();
        assert!(text.starts_with(r#"{"seq":7,"ts":"#), "{text}");
        assert!(text.contains(r#""event":"run_ended""#), "{text}");
        let (decoded, _) = decode(&line[..line.len() - 1]).unwrap();
        assert_eq!(decoded, record(7));
    }

    #[test]
    fn a_flipped_byte_fails_the_checksum() {
        let mut line = encode(&record(1)).unwrap().0;
        line.pop();
        let at = line.iter().position(|&b| b == b'd').unwrap();
        line[at] = b'D';
        assert_eq!(decode(&line).unwrap_err(), LineError::BadChecksum);
    }

    #[test]
    fn a_torn_last_line_is_told_apart_from_damage_in_the_middle() {
        let mut bytes = Vec::new();
        for seq in 1..=3 {
            bytes.extend(encode(&record(seq)).unwrap().0);
        }
        let whole = bytes.len();
        let (found, bad) = scan(&bytes);
        assert_eq!(found.len(), 3);
        assert!(bad.is_none());
        assert_eq!(found[2].end as usize, whole);

        let torn = &bytes[..whole - 5];
        let (found, bad) = scan(torn);
        assert_eq!(found.len(), 2);
        let bad = bad.unwrap();
        assert_eq!(bad.error, LineError::NoNewline);
        assert!(bad.later.is_empty());

        let mut damaged = bytes.clone();
        damaged[found[1].start as usize + 3] = b'#';
        let (found, bad) = scan(&damaged);
        assert_eq!(found.len(), 1);
        assert_eq!(bad.unwrap().later, [3]);

        // Garbage after the last record, even over several lines, holds no
        // valid record.
        let mut garbage = bytes.clone();
        garbage.extend_from_slice(b"\0\0\0\n{\"seq\":4}\nzz\n\0");
        let (found, bad) = scan(&garbage);
        assert_eq!(found.len(), 3);
        assert!(bad.unwrap().later.is_empty());
    }
}
