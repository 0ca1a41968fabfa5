//! The model's side of a turn: the options of a call, the call itself
//! (given up when a stop is requested), and what its answer says of the
//! context window; a failed call becomes a correction or the run's end.

use super::{Agent, MAX_CORRECTIONS, MAX_PRESSURE, PRESSURE_PERCENT, Step};
use crate::chat::Usage;
use crate::model::{ChatReply, ChatRequest, Failure, ModelError, Options};
use crate::state::{Ending, Event, Outcome};
use crate::store::{Durability, StoreError};

impl Agent<'_> {
    pub(super) fn options(&self) -> Options {
        Options {
            temperature: self.settings.temperature,
            num_ctx: self.num_ctx,
            num_predict: Some(self.settings.num_predict),
        }
    }

    /// One model call; `None` when a stop was requested meanwhile.
    pub(super) async fn ask(
        &mut self,
        request: &ChatRequest,
    ) -> Option<Result<ChatReply, Failure>> {
        self.reporter.thinking(true);
        let result = tokio::select! {
            result = self.model.chat(request) => Some(result),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        if let Some(Ok(reply)) = &result {
            for notice in &reply.notices {
                self.reporter.notice(notice);
            }
        }
        result
    }

    /// A model call failed: the server could not parse the model's tool call
    /// (a corrective re-ask, never a blind retry), or the model is unusable.
    pub(super) fn failed_turn(&mut self, failure: Failure) -> Result<Step, StoreError> {
        if !matches!(failure.error, ModelError::ToolParse { .. }) {
            return self.model_failed(failure).map(Step::End);
        }
        self.record(
            Event::ModelFailed {
                error: failure.error.to_string(),
                retries: failure.retries,
            },
            Durability::Lazy,
        )?;
        if self.state().corrections >= MAX_CORRECTIONS {
            return Ok(Step::Go);
        }
        self.send_correction(&failure.error.to_string())?;
        Ok(Step::Reask)
    }

    /// The prompt filled most of the context window: record it (the prompt
    /// builder then keeps fewer exchanges and shorter tool results).
    pub(super) fn watch_context(&mut self, usage: Usage) -> Result<(), StoreError> {
        let full = usage.prompt_tokens * 100 >= self.num_ctx * PRESSURE_PERCENT;
        if full && self.state().pressure < MAX_PRESSURE {
            if self.state().pressure == 0 {
                self.reporter.notice(&format!(
                    "the prompt used {} of {} context tokens; sending less history from now on \
                     (raise --num-ctx if the model allows it)",
                    usage.prompt_tokens, self.num_ctx
                ));
            }
            self.record(
                Event::ContextPressure {
                    prompt_tokens: usage.prompt_tokens,
                    num_ctx: self.num_ctx,
                },
                Durability::Lazy,
            )?;
        }
        Ok(())
    }

    pub(super) fn model_failed(&mut self, failure: Failure) -> Result<Ending, StoreError> {
        let error = failure.error.to_string();
        self.record(
            Event::ModelFailed {
                error: error.clone(),
                retries: failure.retries,
            },
            Durability::Lazy,
        )?;
        self.end(Outcome::ModelUnusable, error)
    }
}
