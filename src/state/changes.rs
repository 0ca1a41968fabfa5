//! The parts of `apply` that several events share: taking a call of the
//! pending reply, what an action's outcome changes, a rollback, and the tool
//! result told to the model with what its call came to.

use super::conversation::{KEPT_REFUSED_ARGUMENT, KEPT_RESULT, cut};
use super::{
    ActionOutcome, CallFact, Came, CommandRun, FileRecord, KEPT_COMMANDS, KEPT_ERRORS,
    KEPT_EXCHANGES, SeenFile, State, head_and_tail,
};
use crate::chat::{Message, ToolCall};

impl State {
    /// Takes call `index` of the pending reply; the reply is done once its
    /// last call is taken.
    pub(super) fn take_call(&mut self, index: usize) -> Option<ToolCall> {
        let reply = self.reply.as_mut()?;
        let call = reply.calls.get(index).cloned();
        reply.next = index + 1;
        if reply.next >= reply.calls.len() {
            self.reply = None;
        }
        call
    }

    pub(super) fn record_outcome(&mut self, outcome: &ActionOutcome) {
        if let Some(command) = &outcome.command {
            self.commands.push_back(CommandRun {
                command: command.clone(),
                exit_code: outcome.exit_code,
            });
            if self.commands.len() > KEPT_COMMANDS {
                self.commands.pop_front();
            }
        }
        self.saw(outcome.seen.as_deref());
        if let Some(write) = &outcome.write {
            self.seen.insert(write.path.clone(), write.after.clone());
            let (created, changed_at) = match self.files.get(&write.path) {
                Some(file) => (file.created, file.changed_at),
                None => (write.before.is_none(), self.exchanges),
            };
            self.files.insert(
                write.path.clone(),
                FileRecord {
                    sha256: write.after.clone(),
                    created,
                    changed_at: match write.changed() {
                        true => self.exchanges,
                        false => changed_at,
                    },
                },
            );
            self.missing.retain(|path| path != &write.path);
            if write.changed() {
                self.cycle_writes += 1;
                self.recent.clear();
                self.blocked.clear();
                self.refused.clear();
            }
        }
        if let Some(error) = &outcome.error {
            self.push_error(error.clone());
        }
    }

    /// A file put back by `runner rollback`: the runner now answers for the
    /// content put back, or no longer for a file it removed. Files changed,
    /// so what the guard saw before is no loop.
    pub(super) fn rolled_back(&mut self, path: &str, to: Option<&str>) {
        // Put back behind the model's back: it has not seen this content.
        self.seen.remove(path);
        match to {
            Some(sha256) => {
                // A file absent from `files` that a rollback brings back was
                // removed by an earlier rollback, so the runner created it.
                let created = self.files.get(path).is_none_or(|file| file.created);
                self.files.insert(
                    path.to_string(),
                    FileRecord {
                        sha256: sha256.to_string(),
                        created,
                        changed_at: self.exchanges,
                    },
                );
            }
            None => {
                self.files.remove(path);
            }
        }
        self.missing.retain(|missing| missing != path);
        self.recent.clear();
        self.blocked.clear();
        self.refused.clear();
    }

    pub(super) fn saw(&mut self, seen: Option<&SeenFile>) {
        if let Some(seen) = seen {
            self.seen.insert(seen.path.clone(), seen.sha256.clone());
        }
    }

    /// A new exchange of the conversation; the oldest beyond what is kept
    /// is dropped.
    pub(super) fn begin_exchange(&mut self, exchange: Vec<Message>) {
        self.exchanges += 1;
        self.conversation.push_back(exchange);
        while self.conversation.len() > KEPT_EXCHANGES {
            self.conversation.pop_front();
        }
        self.forget_calls();
    }

    /// Drops the facts of calls before the active subtask's first exchange,
    /// or whose results the conversation no longer holds.
    pub(super) fn forget_calls(&mut self) {
        let first = self.subtask_exchange.max(self.first_exchange());
        while self.calls.front().is_some_and(|fact| fact.exchange < first) {
            self.calls.pop_front();
        }
    }

    pub(super) fn push_error(&mut self, error: String) {
        self.errors.push_back(error);
        if self.errors.len() > KEPT_ERRORS {
            self.errors.pop_front();
        }
    }

    /// Adds a tool result to the current exchange, and what its call came
    /// to beside it.
    /// Call `index` of the exchange's reply, refused, kept as the model
    /// sent it (up to [`KEPT_REFUSED_ARGUMENT`] an argument) instead of
    /// cut as calls are kept: it is what the model is to correct.
    pub(super) fn keep_refused(&mut self, index: usize, whole: &ToolCall) {
        let reply = self
            .conversation
            .back_mut()
            .and_then(|exchange| exchange.first_mut())
            .filter(|message| message.role == crate::chat::Role::Assistant);
        if let Some(kept) = reply.and_then(|message| message.tool_calls.get_mut(index))
            && kept.name == whole.name
        {
            *kept = cut(whole, KEPT_REFUSED_ARGUMENT);
        }
    }

    pub(super) fn tell(&mut self, tool: &str, content: &str, came: Came) {
        let message = Message::tool(tool, head_and_tail(content, KEPT_RESULT));
        let at = match self.conversation.back_mut() {
            Some(exchange) => {
                exchange.push(message);
                exchange.len() - 1
            }
            None => {
                self.begin_exchange(vec![message]);
                0
            }
        };
        self.calls.push_back(CallFact {
            exchange: self.exchanges.saturating_sub(1),
            message: at,
            tool: tool.to_string(),
            came,
        });
    }
}
