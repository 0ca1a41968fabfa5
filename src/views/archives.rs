//! `runner reset --list`: the runs archived under `.agent_context/archive/`
//! (by a reset or a new goal), oldest first, with their goal and ending.

use std::path::Path;

use super::{Paint, outcome_word, read_records, shorten};
use crate::error::{AppError, Exit};
use crate::state::State;
use crate::store::{Paths, StoreError};

pub fn list(workspace: &Path) -> Result<Exit, AppError> {
    let dir = Paths::new(workspace).archive();
    let mut names: Vec<String> = match fs_err::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter(|entry| entry.path().is_dir())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => return Err(StoreError::Io { path: dir, source }.into()),
    };
    if names.is_empty() {
        crate::outln!("No archived runs in {}.", workspace.display());
        return Ok(Exit::Achieved);
    }
    // The names are times (RFC 3339 with `-` for `:`), so they sort by time.
    names.sort();
    let paint = Paint::stdout();
    for name in names {
        let (records, _) = read_records(&dir.join(&name).join("history.jsonl"))?;
        let state = State::replay(&records);
        let ending = match &state.ended {
            Some(ending) => outcome_word(ending.outcome),
            None if records.is_empty() => "empty",
            None => "unfinished",
        };
        crate::outln!(
            "{}  {:<14} {:>5} records  {:?}",
            paint.bold.apply_to(&name),
            ending,
            records.len(),
            shorten(&state.goal, 80)
        );
    }
    crate::outln!(
        "{}",
        paint.dim.apply_to(format!(
            "in {}; each folder holds that run's history.jsonl, state.json and logs",
            dir.display()
        ))
    );
    Ok(Exit::Achieved)
}
