//! `state.json`: the state as of one record of the log, with where that
//! record lies, so that loading replays only what came after it.

use serde::{Deserialize, Serialize};

use crate::state::State;

/// 2: the state keeps what each call of the conversation came to
/// (`calls`); a version 1 state.json lacks it and is rebuilt from the log.
pub const VERSION: u32 = 2;

/// Where the checkpoint's last record lies in `history.jsonl`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogMark {
    /// Byte offset of the line of record `last_seq`.
    pub start: u64,
    /// Byte offset just past it: where the records to replay begin.
    pub end: u64,
    /// The CRC that line carries.
    pub crc: u32,
}

/// The file without its checksum, which follows as the last field.
#[derive(Debug, Serialize, Deserialize)]
struct File<S> {
    version: u32,
    last_seq: u64,
    log: LogMark,
    state: S,
}

/// What precedes the checksum: `,` then the field, pretty-printed.
const CHECKSUM_FIELD: &[u8] = b",\n  \"checksum\": \"";

/// Serializes the checkpoint, pretty-printed for people with `cat`, ending
/// in a CRC-32 of every byte before it. One serialization: the state is the
/// biggest thing the runner writes after every action.
pub fn encode(state: &State, log: LogMark) -> Result<Vec<u8>, serde_json::Error> {
    let file = File {
        version: VERSION,
        last_seq: state.last_seq,
        log,
        state,
    };
    let mut bytes = serde_json::to_vec_pretty(&file)?;
    // `{ ... "state": {...}\n}`: the checksum goes before the closing brace.
    bytes.truncate(bytes.len() - 2);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(CHECKSUM_FIELD);
    bytes.extend_from_slice(format!("{crc:08x}\"\n}}\n").as_bytes());
    Ok(bytes)
}

/// Why a state.json is not used as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Written by an earlier runner, whose state held less: nothing is
    /// wrong, the log has everything.
    #[error("it was written by an earlier version of runner (state version {0})")]
    Older(u32),
    #[error("{0}")]
    Broken(String),
}

impl From<&str> for Rejection {
    fn from(why: &str) -> Rejection {
        Rejection::Broken(why.to_string())
    }
}

/// Parses and checks a checkpoint; `Err` says why it cannot be trusted.
pub fn decode(bytes: &[u8]) -> Result<(State, LogMark), Rejection> {
    let at = bytes
        .windows(CHECKSUM_FIELD.len())
        .rposition(|w| w == CHECKSUM_FIELD)
        .ok_or("it has no checksum")?;
    let stated = bytes
        .get(at + CHECKSUM_FIELD.len()..at + CHECKSUM_FIELD.len() + 8)
        .and_then(|hex| std::str::from_utf8(hex).ok())
        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        .ok_or("its checksum is unreadable")?;
    if crc32fast::hash(&bytes[..at]) != stated {
        return Err("its checksum does not match its content".into());
    }
    // The checksum field is ignored here: it was checked above.
    #[derive(serde::Deserialize)]
    struct Version {
        version: u32,
    }
    if let Ok(Version { version }) = serde_json::from_slice(bytes)
        && version < VERSION
    {
        return Err(Rejection::Older(version));
    }
    let file: File<State> =
        serde_json::from_slice(bytes).map_err(|e| Rejection::Broken(e.to_string()))?;
    if file.version != VERSION {
        return Err(Rejection::Broken(format!(
            "version {} is not {VERSION}",
            file.version
        )));
    }
    if file.last_seq != file.state.last_seq {
        return Err("last_seq disagrees with the state".into());
    }
    Ok((file.state, file.log))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_an_edit_is_caught() {
        let state = State {
            goal: "hello".into(),
            last_seq: 4,
            ..State::default()
        };
        let mark = LogMark {
            start: 10,
            end: 20,
            crc: 7,
        };
        let bytes = encode(&state, mark).unwrap();
        assert_eq!(decode(&bytes).unwrap(), (state, mark));
        let edited = String::from_utf8(bytes).unwrap().replace("hello", "hellp");
        assert!(
            decode(edited.as_bytes())
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
    }

    #[test]
    fn a_checkpoint_of_an_earlier_version_is_said_to_be_one() {
        let state = State::default();
        let bytes = encode(&state, LogMark::default()).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let old = text.replace(&format!("\"version\": {VERSION}"), "\"version\": 1");
        // Its own checksum, as the earlier runner wrote it.
        let at = old.rfind(",\n  \"checksum\"").unwrap();
        let crc = crc32fast::hash(&old.as_bytes()[..at]);
        let old = format!("{}{crc:08x}\"\n}}\n", &old[..at + CHECKSUM_FIELD.len()]);
        assert_eq!(decode(old.as_bytes()).unwrap_err(), Rejection::Older(1));
    }
}
