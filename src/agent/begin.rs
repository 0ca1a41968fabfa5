//! Before the first round: the run is recorded, the context window fitted
//! to the model, the workspace's baseline kept, the goal planned (once),
//! and an action the last run left in flight reconciled.

use super::{Agent, Step, decompose, reconcile};
use crate::lang::Languages;
use crate::model::{Failure, ModelError};
use crate::state::Event;
use crate::store::{Durability, StoreError};
use crate::workspace::{self, Map};

impl Agent<'_> {
    /// What the round starts from: `Step::Go`, or the ending when the model
    /// is unusable or a stop came during the plan.
    pub(super) async fn begin(&mut self, goal: &str) -> Result<Step, StoreError> {
        let fitted = self.fit_context().await;
        self.record(
            Event::RunStarted {
                goal: goal.to_string(),
                model: self.settings.model.clone(),
                max_rounds: self.settings.max_rounds,
                num_ctx: self.num_ctx,
                host: Some(self.settings.host.clone()),
                api: Some(self.settings.api),
                tool_mode: Some(self.settings.tool_mode),
            },
            Durability::Lazy,
        )?;
        if let Err(failure) = fitted {
            return self.model_failed(failure).map(Step::End);
        }
        // An empty folder has no baseline to record (and none to keep).
        if !self.state().tree.is_planned() && !self.state().baseline.recorded {
            let baseline = workspace::record_baseline(self.tools.root(), self.languages, goal);
            if !matches!(&baseline, Event::BaselineRecorded { files, .. } if files.is_empty()) {
                self.record(baseline, Durability::Lazy)?;
            }
        }
        if !self.state().tree.is_planned() {
            let mut planned = match self.plan(goal).await {
                None => return self.stopped().map(Step::End),
                Some(Err(failure)) => return self.model_failed(failure).map(Step::End),
                Some(Ok(planned)) => planned,
            };
            if let Event::Planned { tasks, .. } = &mut planned {
                let baseline = &self.state().baseline.files;
                decompose::on_workspace(
                    tasks,
                    |path| baseline.contains_key(path),
                    |path| self.languages.iter().any(|l| l.is_test(path)),
                );
                let files: Vec<String> = baseline.keys().cloned().collect();
                if let Some(check) = Languages::default().check_command(self.tools.root(), &files) {
                    decompose::project_check(tasks, &check);
                }
            }
            self.record(planned, Durability::Lazy)?;
        }
        if let Some(flight) = self.state().in_flight.clone() {
            let outcome = reconcile::outcome(&flight, self.tools, &self.stop).await;
            self.record(
                Event::ActionFinished {
                    action: flight.action,
                    outcome,
                },
                Durability::Lazy,
            )?;
        }
        Ok(Step::Go)
    }

    /// Caps `--num-ctx` at the model's context length, when the server says
    /// it. A model the server does not have ends the run here.
    async fn fit_context(&mut self) -> Result<(), Failure> {
        match self.model.info().await {
            Ok(info) => {
                if let Some(length) = info.context_length
                    && length < self.num_ctx
                {
                    self.reporter.notice(&format!(
                        "the model's context is {length} tokens; using that instead of --num-ctx {}",
                        self.num_ctx
                    ));
                    self.num_ctx = length;
                }
                Ok(())
            }
            Err(error @ ModelError::NotFound { .. }) => Err(Failure { error, retries: 0 }),
            // Servers that cannot describe the model still chat.
            Err(error) => {
                tracing::info!(%error, "no model info; keeping --num-ctx");
                Ok(())
            }
        }
    }

    /// The `planned` event; `None` when a stop was requested meanwhile.
    async fn plan(&mut self, goal: &str) -> Option<Result<Event, Failure>> {
        let map = Map::build(self.tools.root(), self.languages, goal);
        self.reporter.thinking(true);
        let planned = tokio::select! {
            planned = decompose::plan(self.model, self.settings, goal, map.text(), self.options()) => Some(planned),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        planned
    }
}
