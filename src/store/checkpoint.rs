//! `state.json`: the state as of one record of the log, with where that
//! record lies, so that loading replays only what came after it.

use serde::{Deserialize, Serialize};

use crate::state::State;

pub const VERSION: u32 = 1;

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

#[derive(Debug, Serialize, Deserialize)]
struct File<S> {
    version: u32,
    last_seq: u64,
    log: LogMark,
    /// CRC-32 of the state serialized compactly.
    checksum: String,
    state: S,
}

/// Serializes the checkpoint, pretty-printed for people with `cat`.
pub fn encode(state: &State, log: LogMark) -> Result<Vec<u8>, serde_json::Error> {
    let compact = serde_json::to_vec(state)?;
    let file = File {
        version: VERSION,
        last_seq: state.last_seq,
        log,
        checksum: format!("{:08x}", crc32fast::hash(&compact)),
        state,
    };
    let mut bytes = serde_json::to_vec_pretty(&file)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Parses and checks a checkpoint; `Err` says why it cannot be trusted.
pub fn decode(bytes: &[u8]) -> Result<(State, LogMark), String> {
    let file: File<State> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    if file.version != VERSION {
        return Err(format!("version {} is not {VERSION}", file.version));
    }
    let compact = serde_json::to_vec(&file.state).map_err(|e| e.to_string())?;
    if format!("{:08x}", crc32fast::hash(&compact)) != file.checksum {
        return Err("its checksum does not match its content".into());
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
        assert!(decode(edited.as_bytes()).unwrap_err().contains("checksum"));
    }
}
