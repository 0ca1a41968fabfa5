//! The whole state of a run, and the one function that changes it.
//!
//! `State::apply` is pure: replaying `history.jsonl` from nothing gives
//! exactly the state the live run had. No I/O lives here.

mod baseline;
mod conversation;
pub mod event;
pub mod guard;
pub mod tree;
pub mod verdict;

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::chat::{Message, ToolCall, Usage};
pub use baseline::{Baseline, BaselineFile};
pub use conversation::{KEPT_ARGUMENT, KEPT_EXCHANGES, head_and_tail};
use conversation::{KEPT_RESULT, shortened};
pub use event::{
    ActionOutcome, Event, FileChange, LoopPattern, NudgeKind, Outcome, Record, SeenFile,
    WriteIntent,
};
use guard::LOOP_WINDOW;
pub use tree::{Cursor, Status, Subtask, SubtaskKind, Task, TaskPlan, Tree};
pub use verdict::{CheckRun, Requirement, Tally, Verdict};

/// Commands kept for RECENT COMMANDS.
const KEPT_COMMANDS: usize = 5;
/// Errors kept for RECENT ERRORS (the prompt shows the last 3).
const KEPT_ERRORS: usize = 5;
/// Notes kept in the state (the prompt shows the last 10).
const KEPT_NOTES: usize = 50;

/// The calls of the model's last reply that have not been handled yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingReply {
    pub calls: Vec<ToolCall>,
    /// Index of the next call to handle.
    pub next: usize,
    /// The subtask the reply was for; its calls stop running once that
    /// subtask has ended.
    pub cursor: Option<Cursor>,
}

/// An action that was announced (`action_started`) and has no result yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InFlight {
    /// The seq of its `action_started` record.
    pub action: u64,
    pub call: ToolCall,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<WriteIntent>,
}

/// An action in the loop guard's window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentAction {
    pub signature: String,
    pub tool: String,
}

/// A file the runner wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    /// SHA-256 of what the runner last wrote.
    pub sha256: String,
    /// The file did not exist before the runner's first write.
    pub created: bool,
}

/// A command the model ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandRun {
    pub command: String,
    pub exit_code: Option<i32>,
}

/// How a run reaches its model: recorded when an invocation starts, reused by
/// `runner resume`. `None` where an older log did not record it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Server {
    pub host: Option<String>,
    pub api: Option<crate::model::Api>,
    pub tool_mode: Option<crate::model::tool_mode::ToolMode>,
}

/// How the last invocation ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Seq of the last event applied.
    pub last_seq: u64,
    /// The time of the log's first record: which log this state is of.
    #[serde(default)]
    pub log_started: String,
    pub goal: String,
    pub model: String,
    /// How the last invocation reached the model.
    #[serde(default)]
    pub server: Server,
    pub tree: Tree,
    /// Set by `run_ended`, cleared by `run_started`.
    pub ended: Option<Ending>,
    /// Invocations so far (fresh runs and resumes).
    pub runs: u32,
    pub max_rounds: u32,
    /// Rounds over all invocations.
    pub rounds: u32,
    /// Rounds of the current invocation.
    pub run_rounds: u32,
    pub model_calls: u32,
    pub usage: Usage,
    pub retries: u32,
    pub reply: Option<PendingReply>,
    pub in_flight: Option<InFlight>,
    /// Actions since the last write that changed a file (the guard's window).
    pub recent: VecDeque<RecentAction>,
    /// Signatures blocked since the last write that changed a file.
    pub blocked: Vec<String>,
    /// Signatures of calls refused since the last write that changed a
    /// file: the same refusal again is blocked as a loop.
    #[serde(default)]
    pub refused: VecDeque<String>,
    /// Calls blocked one after the other, with nothing run in between.
    pub blocked_in_a_row: u32,
    pub files: BTreeMap<String, FileRecord>,
    /// Files whose content the model was shown in this run, with the
    /// SHA-256 of that content: a read, a refusal that showed it, or what it
    /// wrote. A write over any other existing content is refused once.
    #[serde(default)]
    pub seen: BTreeMap<String, String>,
    /// Files the runner wrote that the last probe found missing.
    pub missing: Vec<String>,
    pub commands: VecDeque<CommandRun>,
    pub errors: VecDeque<String>,
    /// Prose nudges spent on the active subtask.
    pub nudges: u32,
    /// Loop nudges spent in this invocation.
    pub loop_nudges: u32,
    /// Corrective re-asks spent in this round.
    pub corrections: u32,
    /// Calls of the last reply, and how many of them were rejected.
    pub reply_calls: usize,
    pub reply_rejected: usize,
    /// Times the prompt filled more than 90% of the context window; each
    /// makes the prompt smaller.
    pub pressure: u32,
    pub notes: Vec<String>,
    pub conversation: VecDeque<Vec<Message>>,
    /// Exchanges ever begun: the one at `conversation[i]` is number
    /// `exchanges - conversation.len() + i`, however many were dropped.
    #[serde(default)]
    pub exchanges: u64,
    /// The number of the first exchange of the active subtask.
    #[serde(default)]
    pub subtask_exchange: u64,
    /// The checks of the last completion check.
    #[serde(default)]
    pub checks: Vec<CheckRun>,
    /// The goal's requirements as the last completion check found them.
    #[serde(default)]
    pub requirements: Vec<Requirement>,
    /// Cycles started in this invocation: tasks made of what was missing.
    #[serde(default)]
    pub cycles: u32,
    /// The first task of the current cycle (0 before any cycle).
    #[serde(default)]
    pub cycle_start: usize,
    /// Writes that changed a file since the current cycle started.
    #[serde(default)]
    pub cycle_writes: u32,
    /// The files there were when the run began, and which of them the run
    /// changed or deleted.
    #[serde(default)]
    pub baseline: Baseline,
}

impl State {
    /// Replays records from nothing.
    pub fn replay<'a>(records: impl IntoIterator<Item = &'a Record>) -> State {
        let mut state = State::default();
        for record in records {
            state.apply(record);
        }
        state
    }

    /// Applies one event. The only place the state changes.
    pub fn apply(&mut self, record: &Record) {
        self.last_seq = record.seq;
        if record.seq == 1 {
            self.log_started.clone_from(&record.ts);
        }
        match &record.event {
            Event::RunStarted {
                goal,
                model,
                max_rounds,
                host,
                api,
                tool_mode,
                ..
            } => {
                self.goal.clone_from(goal);
                self.model.clone_from(model);
                self.server = Server {
                    host: host.clone(),
                    api: *api,
                    tool_mode: *tool_mode,
                };
                self.max_rounds = *max_rounds;
                self.runs += 1;
                self.run_rounds = 0;
                // A resume gets fresh budgets: rounds, nudges, loop nudges.
                self.nudges = 0;
                self.loop_nudges = 0;
                self.cycles = 0;
                self.ended = None;
            }
            Event::Planned {
                tasks,
                model_calls,
                usage,
                retries,
                ..
            } => {
                self.tree = Tree::from_plan(tasks);
                self.model_calls += model_calls;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::BaselineRecorded { files, left_out } => {
                self.baseline = Baseline {
                    recorded: true,
                    files: files.iter().map(|f| (f.path.clone(), f.clone())).collect(),
                    left_out: *left_out,
                    ..Baseline::default()
                };
            }
            Event::FilesShown { files } => {
                for file in files {
                    self.saw(Some(file));
                }
            }
            Event::BaselineProbed { changed, deleted } => {
                self.baseline.changed.clone_from(changed);
                self.baseline.deleted.clone_from(deleted);
            }
            Event::RoundStarted { round, missing } => {
                self.rounds = *round;
                self.run_rounds += 1;
                self.corrections = 0;
                self.missing.clone_from(missing);
            }
            Event::ModelReplied {
                content,
                calls,
                usage,
                retries,
                ..
            } => {
                self.model_calls += 1;
                self.usage += *usage;
                self.retries += retries;
                self.reply = (!calls.is_empty()).then(|| PendingReply {
                    calls: calls.clone(),
                    next: 0,
                    cursor: self.tree.cursor,
                });
                self.reply_calls = calls.len();
                self.reply_rejected = 0;
                self.begin_exchange(vec![Message::assistant(content.clone(), shortened(calls))]);
            }
            Event::ActionStarted {
                call,
                summary,
                signature,
                write,
                tool,
            } => {
                let call = self.take_call(*call);
                self.in_flight = call.map(|call| InFlight {
                    action: record.seq,
                    call,
                    summary: summary.clone(),
                    write: write.clone(),
                });
                self.blocked_in_a_row = 0;
                self.recent.push_back(RecentAction {
                    signature: signature.clone(),
                    tool: tool.clone(),
                });
                while self.recent.len() > LOOP_WINDOW {
                    self.recent.pop_front();
                }
            }
            Event::ActionFinished { outcome, .. } => {
                let tool = self
                    .in_flight
                    .take()
                    .map(|flight| flight.call.name)
                    .unwrap_or_default();
                if outcome.interrupted {
                    // Its action_started was the last one in the window.
                    self.recent.pop_back();
                }
                self.record_outcome(outcome);
                self.tell(&tool, &outcome.result);
            }
            Event::ActionBlocked {
                call,
                tool,
                signature,
                message,
                ..
            } => {
                self.take_call(*call);
                self.blocked_in_a_row += 1;
                if !self.blocked.contains(signature) {
                    self.blocked.push(signature.clone());
                }
                self.push_error(format!("blocked a loop: {signature}"));
                self.tell(tool, message);
            }
            Event::CallRejected {
                call,
                tool,
                error,
                signature,
                seen,
            } => {
                self.take_call(*call);
                self.saw(seen.as_deref());
                if let Some(signature) = signature {
                    self.refused.push_back(signature.clone());
                    while self.refused.len() > LOOP_WINDOW {
                        self.refused.pop_front();
                    }
                }
                self.reply_rejected += 1;
                // A refusal that shows a file is listed by its first line.
                match seen {
                    Some(_) => self.push_error(error.lines().next().unwrap_or_default().into()),
                    None => self.push_error(error.clone()),
                }
                self.tell(tool, error);
            }
            Event::Noted { call, text } => {
                self.take_call(*call);
                self.notes.push(text.clone());
                if self.notes.len() > KEPT_NOTES {
                    self.notes.remove(0);
                }
                self.tell("note", "Noted.");
            }
            Event::SubtaskEnded {
                call,
                success,
                reason,
                ..
            } => {
                if let Some(call) = call {
                    self.take_call(*call);
                }
                self.tree.end_active(*success, reason);
                self.subtask_exchange = self.exchanges;
                self.nudges = 0;
                self.recent.clear();
                self.blocked.clear();
                self.refused.clear();
                self.blocked_in_a_row = 0;
                if call.is_some() {
                    let next = match self.tree.active() {
                        Some((_, subtask)) => format!("Next subtask: {}", subtask.description),
                        None => "Every subtask has ended.".to_string(),
                    };
                    let verdict = if *success { "complete" } else { "failed" };
                    self.tell(
                        "mark_subtask_complete",
                        &format!("Subtask marked {verdict}. {next}"),
                    );
                }
            }
            Event::Nudged { kind, message, .. } => {
                match kind {
                    NudgeKind::Prose => self.nudges += 1,
                    NudgeKind::Loop => self.loop_nudges += 1,
                    NudgeKind::Correction => self.corrections += 1,
                }
                let message = Message::user(message.clone());
                match self.conversation.back_mut() {
                    Some(exchange) => exchange.push(message),
                    None => self.begin_exchange(vec![message]),
                }
            }
            Event::Checked { checks } => {
                self.checks.clone_from(checks);
                for check in checks {
                    self.commands.push_back(CommandRun {
                        command: check.command.clone(),
                        exit_code: check.exit_code,
                    });
                    if self.commands.len() > KEPT_COMMANDS {
                        self.commands.pop_front();
                    }
                }
            }
            Event::Assessed {
                requirements,
                usage,
                retries,
            } => {
                self.requirements.clone_from(requirements);
                self.model_calls += 1;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::CycleStarted { cycle, task } => {
                self.cycles = *cycle;
                self.cycle_start = self.tree.tasks.len();
                self.cycle_writes = 0;
                self.tree.push(task);
                self.subtask_exchange = self.exchanges;
                self.nudges = 0;
                self.recent.clear();
                self.blocked.clear();
                self.blocked_in_a_row = 0;
            }
            Event::ModelFailed { retries, .. } => {
                self.retries += retries;
            }
            Event::ContextPressure { .. } => {
                self.pressure += 1;
            }
            Event::Reflected { usage, retries, .. } => {
                self.model_calls += 1;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::RunEnded { outcome, reason } => {
                self.ended = Some(Ending {
                    outcome: *outcome,
                    reason: reason.clone(),
                });
            }
            Event::RolledBack { path, to, .. } => self.rolled_back(path, to.as_deref()),
        }
    }

    /// Takes call `index` of the pending reply; the reply is done once its
    /// last call is taken.
    fn take_call(&mut self, index: usize) -> Option<ToolCall> {
        let reply = self.reply.as_mut()?;
        let call = reply.calls.get(index).cloned();
        reply.next = index + 1;
        if reply.next >= reply.calls.len() {
            self.reply = None;
        }
        call
    }

    /// The next call of the model's reply that has not been handled.
    pub fn next_call(&self) -> Option<(usize, &ToolCall)> {
        let reply = self.reply.as_ref()?;
        reply.calls.get(reply.next).map(|call| (reply.next, call))
    }

    fn record_outcome(&mut self, outcome: &ActionOutcome) {
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
            let created = match self.files.get(&write.path) {
                Some(file) => file.created,
                None => write.before.is_none(),
            };
            self.files.insert(
                write.path.clone(),
                FileRecord {
                    sha256: write.after.clone(),
                    created,
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
    fn rolled_back(&mut self, path: &str, to: Option<&str>) {
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

    fn saw(&mut self, seen: Option<&SeenFile>) {
        if let Some(seen) = seen {
            self.seen.insert(seen.path.clone(), seen.sha256.clone());
        }
    }

    /// A new exchange of the conversation; the oldest beyond what is kept
    /// is dropped.
    fn begin_exchange(&mut self, exchange: Vec<Message>) {
        self.exchanges += 1;
        self.conversation.push_back(exchange);
        while self.conversation.len() > KEPT_EXCHANGES {
            self.conversation.pop_front();
        }
    }

    /// The number of the first exchange `conversation` still holds.
    pub fn first_exchange(&self) -> u64 {
        self.exchanges
            .saturating_sub(self.conversation.len() as u64)
    }

    fn push_error(&mut self, error: String) {
        self.errors.push_back(error);
        if self.errors.len() > KEPT_ERRORS {
            self.errors.pop_front();
        }
    }

    /// Adds a tool result to the current exchange.
    fn tell(&mut self, tool: &str, content: &str) {
        let message = Message::tool(tool, head_and_tail(content, KEPT_RESULT));
        match self.conversation.back_mut() {
            Some(exchange) => exchange.push(message),
            None => self.begin_exchange(vec![message]),
        }
    }
}

#[cfg(test)]
mod tests;
