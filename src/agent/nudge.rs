//! Step 7 of the round and its relatives: what the model is told when it
//! answers in prose, or when its calls could not be used.

use super::{Agent, MAX_CORRECTIONS};
use crate::state::{Ending, Event, NudgeKind, Outcome};
use crate::store::{Durability, StoreError};
use crate::tools;

impl Agent<'_> {
    /// The model answered in prose while subtasks remain: nudge it,
    /// escalating, or stop (resumably) when this subtask's nudges are spent.
    pub(super) async fn nudge(&mut self) -> Result<Option<Ending>, StoreError> {
        let state = self.state();
        let Some((_, subtask)) = state.tree.active() else {
            return Ok(None);
        };
        let subtask = subtask.description.clone();
        if state.nudges >= self.settings.max_nudges {
            let reason = format!(
                "the model stopped calling tools on \"{subtask}\" ({} nudges spent); \
                 run `runner resume` to try again",
                self.settings.max_nudges
            );
            return self
                .end_reflecting(Outcome::Stopped, reason)
                .await
                .map(Some);
        }
        let level = state.nudges + 1;
        let left = self.settings.max_rounds.saturating_sub(state.run_rounds);
        let missing = match state.files.len() {
            0 => "No file has been written yet.".to_string(),
            n => format!("{n} files written so far; the subtask is still open."),
        };
        let message = match level {
            1 => format!(
                "You answered without calling a tool, but the ACTIVE SUBTASK is not done: \
                 {subtask}. {missing} {left} rounds are left. Call a tool now; if your approach \
                 did not work, try another one."
            ),
            2 => "You stopped twice without acting. Act now: write a file (write_file), run a \
                  command (run_cmd), or mark the subtask complete or failed \
                  (mark_subtask_complete)."
                .to_string(),
            _ => format!(
                "Last chance: call mark_subtask_complete now, with success=true if \"{subtask}\" \
                 is done, or success=false and the reason if it cannot be done."
            ),
        };
        self.record(
            Event::Nudged {
                kind: NudgeKind::Prose,
                level,
                message,
            },
            Durability::Lazy,
        )?;
        Ok(None)
    }

    /// Every call of the last reply was refused (unknown tool, bad
    /// arguments) and this round has corrections left.
    pub(super) fn needs_correction(&self) -> bool {
        let state = self.state();
        state.reply.is_none()
            && state.reply_calls > 0
            && state.reply_rejected == state.reply_calls
            && state.corrections < MAX_CORRECTIONS
    }

    /// Tells the model why its calls were refused, with the tools' schemas.
    pub(super) fn correct(&mut self) -> Result<(), StoreError> {
        let errors: Vec<String> = self
            .state()
            .conversation
            .back()
            .map(|exchange| {
                exchange
                    .iter()
                    .filter(|m| m.role == crate::chat::Role::Tool)
                    .map(|m| m.content.clone())
                    .collect()
            })
            .unwrap_or_default();
        self.send_correction(&errors.join("; "))
    }

    pub(super) fn send_correction(&mut self, error: &str) -> Result<(), StoreError> {
        let schemas: Vec<String> = tools::specs()
            .iter()
            .map(|spec| {
                format!(
                    "- {}: {} Arguments: {}",
                    spec.name, spec.description, spec.parameters["properties"]
                )
            })
            .collect();
        let message = format!(
            "Your last reply had no tool call that could run ({error}). Call exactly one of these \
             tools, with its arguments as a JSON object:\n{}\nFor example: \
             {{\"name\": \"list_dir\", \"arguments\": {{\"path\": \".\"}}}}",
            schemas.join("\n")
        );
        let level = self.state().corrections + 1;
        self.record(
            Event::Nudged {
                kind: NudgeKind::Correction,
                level,
                message,
            },
            Durability::Lazy,
        )?;
        Ok(())
    }
}
