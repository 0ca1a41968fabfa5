//! A `state.json` whose log is empty or shorter than it: the log was emptied,
//! cut or replaced, and loading would rebuild the state from what is left,
//! forgetting the run (and the files it wrote, which `diff` and `rollback`
//! know from the log). The runner refuses instead, changes nothing, and says
//! the way out.

use std::path::Path;

use super::read_records;
use crate::error::AppError;
use crate::store::{Paths, checkpoint};

/// Refuses when a valid checkpoint is ahead of the log's last valid record.
/// `--salvage` is the user's word to go on with what the log holds.
pub fn check(workspace: &Path, salvage: bool) -> Result<(), AppError> {
    if salvage {
        return Ok(());
    }
    let paths = Paths::new(workspace);
    let Ok(bytes) = fs_err::read(paths.state()) else {
        return Ok(());
    };
    let Ok((state, _)) = checkpoint::decode(&bytes) else {
        return Ok(());
    };
    if state.last_seq == 0 {
        return Ok(());
    }
    let (records, _) = read_records(&paths.history())?;
    let logged = records.last().map_or(0, |r| r.seq);
    if logged >= state.last_seq {
        return Ok(());
    }
    Err(AppError::State(format!(
        "{} holds the run {:?} up to record {}, but {} ends at record {logged}: the log was \
         emptied or cut. Nothing was changed. Put the log back if you have it; or run again \
         with --salvage to go on from the {logged} records left (the run's earlier writes are \
         then forgotten); or `runner reset` to archive it all and start over",
        paths.state().display(),
        state.goal,
        state.last_seq,
        paths.history().display(),
    )))
}
