//! What the round sees of the workspace: the probe of the files (those the
//! run wrote and those that were there before it) and the workspace map of
//! the head every call starts with.

use super::{Agent, prompt};
use crate::state::Event;
use crate::store::{Durability, StoreError};
use crate::workspace;

impl Agent<'_> {
    /// Files the runner wrote that are gone now; files there before the
    /// run that it changed or deleted are recorded when that differs from
    /// the last probe. Costs a stat per file the runner wrote, and after a
    /// command or a write a stat per file of the baseline (a hash only when
    /// a time changed and the size did not); never a walk of the workspace.
    pub(super) fn probe(&mut self) -> Result<Vec<String>, StoreError> {
        let missing = self
            .state()
            .files
            .keys()
            .filter(|path| !self.tools.exists(path))
            .cloned()
            .collect();
        let state = self.store.state();
        let done = workspace::done_mark(
            state.commands.iter().map(|run| run.command.as_str()),
            state.files.values().map(|f| f.sha256.as_str()),
        );
        let baseline = &state.baseline;
        let Some(probed) = self.watch.probe_after(self.tools.root(), baseline, done) else {
            return Ok(missing);
        };
        if probed.changed != baseline.changed || probed.deleted != baseline.deleted {
            self.record(
                Event::BaselineProbed {
                    changed: probed.changed,
                    deleted: probed.deleted,
                },
                Durability::Lazy,
            )?;
        }
        Ok(missing)
    }

    /// What every call of the run starts with (see [`prompt::head`]): the
    /// goal, the lessons, and the map of this cycle's plan.
    pub(super) fn head(&mut self) -> String {
        let state = self.store.state();
        let map = self
            .map
            .of_cycle(self.tools.root(), self.languages, &state.goal, state.cycles);
        prompt::head(&state.goal, self.lessons.as_deref(), map)
    }
}
