//! The whole state of a run, and the one function that changes it.
//!
//! `State::apply` is pure: replaying `history.jsonl` from nothing gives
//! exactly the state the live run had. No I/O lives here.

mod apply;
mod baseline;
pub mod cases;
mod changes;
mod conversation;
pub mod event;
mod facts;
pub mod goal_text;
pub mod guard;
mod outcome;
mod refusal;
pub mod samples;
pub mod tree;
pub mod verdict;

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::chat::{Message, ToolCall, Usage};
pub use baseline::{Baseline, BaselineFile};
pub use conversation::{KEPT_ARGUMENT, KEPT_EXCHANGES, KEPT_REFUSED_ARGUMENT, head_and_tail};
pub use event::{Event, LoopPattern, NudgeKind, Outcome, Record, TriedAnswer};
pub use facts::{CallFact, Came};
pub use outcome::{ActionOutcome, CommandEnd, FileChange, SeenFile, WriteIntent};
pub use refusal::RefusalKind;
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    /// SHA-256 of what the runner last wrote.
    pub sha256: String,
    /// The file did not exist before the runner's first write.
    pub created: bool,
    /// The exchange of the last write that changed it (or of the rollback
    /// that put it back): files shown in the prompt come in this order,
    /// so a change moves one file to the end and leaves the others where
    /// the server's prefix cache keeps them.
    #[serde(default)]
    pub changed_at: u64,
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
    /// Questions of their own asked in the active subtask (see
    /// `Event::ModelReplied::question`); a resume does not renew them.
    #[serde(default)]
    pub questions: u32,
    /// The exchange of the last answer to a question of its own (see
    /// `Event::ModelReplied::question`): its write's call is in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_exchange: Option<u64>,
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
    /// What the calls whose results `conversation` holds came to, in order,
    /// from the active subtask's first exchange on.
    #[serde(default)]
    pub calls: VecDeque<CallFact>,
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
    /// Whether the project's own tests passed when they ran before the
    /// plan; `None` when they did not run (no tests, or a plan without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests_before: Option<bool>,
    /// The tests that failed when the project's own tests ran before the
    /// plan, as their runner named them (see [`crate::lang::failed_tests`]):
    /// a test of the project that fails now and is not here, the run broke.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_before: Vec<String>,
    /// The checks that ran before the plan (the project's own tests as
    /// they were), kept when they failed: the assessment of a goal to fix
    /// them is told how they went then and how now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks_before: Vec<CheckRun>,
    /// The programs the goal names as they ran before the plan (see
    /// [`Event::RanBefore`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ran_before: Vec<CheckRun>,
    /// The goal's requirements as the last completion check found them.
    #[serde(default)]
    pub requirements: Vec<Requirement>,
    /// The goal's examples of what the functions it names return, asked
    /// once a run (see [`Event::ExamplesStated`]); `None` until asked.
    #[serde(default)]
    pub examples: Option<Vec<crate::lang::examples::Example>>,
    /// The examples whose value the model was asked to choose between its
    /// own and the function's (see [`Event::ExampleSettled`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settled: Vec<crate::state::verdict::Settled>,
    /// What the programs that ran before the plan must print with the
    /// goal's options, asked once a run (see [`Event::OutputsStated`]);
    /// `None` until asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs: Option<Vec<crate::state::verdict::StatedOutput>>,
    /// What commands must print for the samples they read, as the goal's
    /// words give it, the last reading of each command (see
    /// [`Event::SamplesRead`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<samples::SampleReading>,
    /// What the model chose between a command's output and readings of
    /// its sample that disagree (see [`Event::SampleChosen`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sample_choices: Vec<samples::SampleChoice>,
    /// What the program the goal asks for prints every time it runs, from
    /// the goal's words alone, asked once a run (see
    /// [`Event::GoalTextRead`]); `None` until asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_text: Option<goal_text::GoalText>,
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
    /// The calls the goal's own words give the value of, and that value
    /// (see [`crate::lang::examples::goal_given`]); none before the
    /// examples are asked.
    pub fn goal_given(&self) -> Vec<(String, String)> {
        let examples = self.examples.as_deref().unwrap_or_default();
        let mut given = crate::lang::examples::goal_given(&self.goal, examples);
        for settled in &self.settled {
            if let Some(value) = settled.own_choice()
                && crate::lang::examples::goal_says(&given, &settled.call).is_none()
            {
                given.push((settled.call.clone(), value.to_string()));
            }
        }
        given
    }

    /// Replays records from nothing.
    pub fn replay<'a>(records: impl IntoIterator<Item = &'a Record>) -> State {
        let mut state = State::default();
        for record in records {
            state.apply(record);
        }
        state
    }

    /// The next call of the model's reply that has not been handled.
    pub fn next_call(&self) -> Option<(usize, &ToolCall)> {
        let reply = self.reply.as_ref()?;
        reply.calls.get(reply.next).map(|call| (reply.next, call))
    }

    /// Applies `event` as the next record (for tests that build a state the
    /// way a run does).
    #[cfg(test)]
    pub(crate) fn apply_next(&mut self, event: Event) {
        let seq = self.last_seq + 1;
        self.apply(&Record {
            seq,
            ts: String::new(),
            event,
        });
    }

    /// The number of the first exchange `conversation` still holds.
    pub fn first_exchange(&self) -> u64 {
        self.exchanges
            .saturating_sub(self.conversation.len() as u64)
    }
}

#[cfg(test)]
mod tests;
