//! Events: the only way the state changes. Each is one line of
//! `history.jsonl`, applied by [`super::State::apply`].

use serde::{Deserialize, Serialize};

use super::baseline::BaselineFile;
use super::outcome::{ActionOutcome, SeenFile, WriteIntent};
use super::refusal::RefusalKind;
use super::tree::TaskPlan;
use super::verdict::{CheckRun, Requirement};
use crate::chat::{ToolCall, Usage};
use crate::model::Api;
use crate::model::tool_mode::ToolMode;

/// How an invocation of the runner ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every subtask completed.
    Achieved,
    /// Every subtask ended, but some failed.
    NotAchieved,
    /// Stopped before the end (rounds or nudges spent); resumable.
    Stopped,
    /// Ctrl-C or SIGTERM; resumable.
    Interrupted,
    /// The model server or model could not be used; resumable once fixed.
    ModelUnusable,
}

/// The shape of a detected loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopPattern {
    /// The same action a third time with nothing written in between.
    Repeat,
    /// A-B-A-B.
    Alternate,
}

/// Why the model was sent a nudge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NudgeKind {
    /// It answered in prose while subtasks remain.
    #[default]
    Prose,
    /// The loop guard blocked its action.
    Loop,
    /// Its tool calls could not be used (unknown tool, bad arguments, a call
    /// the server could not parse): a corrective re-ask.
    Correction,
}

impl LoopPattern {
    /// In words, for people.
    pub fn describe(self) -> &'static str {
        match self {
            LoopPattern::Repeat => "a repeat",
            LoopPattern::Alternate => "an alternation",
        }
    }
}

/// What the runner records. Serialized with an `"event"` tag, snake case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// An invocation begins (a fresh run or a resume): a new round budget.
    RunStarted {
        goal: String,
        model: String,
        max_rounds: u32,
        /// The context window asked of the server (capped at the model's).
        #[serde(default)]
        num_ctx: u64,
        /// The server's base URL, the API and the tool mode the run uses, so
        /// that `runner resume` talks to the same model the same way (absent
        /// in logs written before they were recorded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        host: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        api: Option<Api>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_mode: Option<ToolMode>,
    },
    /// The goal was decomposed (or fell back to itself as the single task).
    Planned {
        tasks: Vec<TaskPlan>,
        /// Why the plan is the fallback, when it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback: Option<String>,
        model_calls: u32,
        usage: Usage,
        retries: u32,
    },
    /// A round begins; `missing` are files the runner wrote that are gone.
    RoundStarted { round: u32, missing: Vec<String> },
    /// The model answered. Logged before any of its calls runs.
    ModelReplied {
        content: String,
        calls: Vec<ToolCall>,
        /// The calls were parsed out of the message text.
        #[serde(default)]
        from_text: bool,
        usage: Usage,
        retries: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        done_reason: Option<String>,
        /// It answered a question of its own (a fix asked with no tools,
        /// not a round): its words stay in the log, and the subtask's
        /// conversation shows only the calls taken from it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        question: bool,
    },
    /// A call is about to run; synced to disk before it does.
    ActionStarted {
        call: usize,
        tool: String,
        summary: String,
        signature: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        write: Option<WriteIntent>,
    },
    /// The action started at record `action` ended.
    ActionFinished {
        action: u64,
        #[serde(flatten)]
        outcome: ActionOutcome,
    },
    /// The loop guard refused a call; it did not run.
    ActionBlocked {
        call: usize,
        tool: String,
        signature: String,
        pattern: LoopPattern,
        message: String,
    },
    /// A call that could not run: unknown tool, bad arguments, over the limit.
    CallRejected {
        call: usize,
        tool: String,
        /// Why, as the round reads it (`unknown` in older logs).
        #[serde(default)]
        kind: RefusalKind,
        /// The message the model was shown.
        error: String,
        /// The refusal's signature (tool and error) when a repeat of it is
        /// to count as a loop; `None` for refusals that are not the model's
        /// doing (a call past the per-reply limit, a subtask that ended).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signature: Option<String>,
        /// The file whose content the refusal showed (a write over a file
        /// the model had not seen).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seen: Option<Box<SeenFile>>,
    },
    /// The model kept a note.
    Noted { call: usize, text: String },
    /// A subtask ended; the cursor moves on. `call` is the model's
    /// `mark_subtask_complete`, `None` when the runner ended it.
    SubtaskEnded {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call: Option<usize>,
        task: usize,
        subtask: usize,
        success: bool,
        reason: String,
    },
    /// A check subtask's command, given the arguments its program needs:
    /// the planned command (`python3 word_count.py`) failed, and the same
    /// with arguments after it passed; or it stopped where the program
    /// reads its arguments, and the program opens files, so the check runs
    /// it on `input`, a sample the subtask writes first. The subtask, and
    /// the checks of the work, run this one from now on.
    CheckGiven {
        task: usize,
        subtask: usize,
        cmd: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<String>,
    },
    /// The model was told to act: after a reply without a tool call, a
    /// blocked loop, or calls that could not be used.
    Nudged {
        #[serde(default)]
        kind: NudgeKind,
        level: u32,
        message: String,
    },
    /// The prompt filled more than 90% of the context window; the next
    /// prompts are made smaller.
    ContextPressure { prompt_tokens: u64, num_ctx: u64 },
    /// The reflection at the end of a run: lessons for the next run.
    Reflected {
        lessons: Vec<String>,
        usage: Usage,
        retries: u32,
    },
    /// Every subtask had ended: the checks ran once more on the files as
    /// they are. A check only reads, so one a crash interrupted runs again.
    Checked { checks: Vec<CheckRun> },
    /// The model's answer, requirement by requirement, whether the goal is
    /// met, held to the checks (a requirement about tests is met only by
    /// tests that ran and passed).
    Assessed {
        requirements: Vec<Requirement>,
        usage: Usage,
        retries: u32,
    },
    /// The goal's examples of what the functions it names in call form
    /// return, asked of the model once a run from the goal's words alone
    /// (it is not shown the code), each answer twice: every assessment
    /// calls the function on them, and one that returns otherwise than
    /// the goal says is a requirement not met.
    ExamplesStated {
        examples: Vec<crate::lang::examples::Example>,
        usage: Usage,
        retries: u32,
    },
    /// A call on which a function the goal names returned other than what
    /// both of the model's answers said, a value the goal's words do not
    /// give, settled by asking the model which of the two it returns,
    /// each first once (see [`crate::state::verdict::Settled`]).
    ExampleSettled {
        settled: crate::state::verdict::Settled,
        usage: Usage,
        retries: u32,
    },
    /// What the programs that ran before the plan must print with each
    /// option the goal names, asked of the model once a run from the goal
    /// and what they printed then (it is not shown the code), twice, and a
    /// third time when those disagree: every assessment runs each command
    /// and holds it to what two answers agree on, or to one of them (see
    /// [`crate::state::verdict::hold_to_stated`]). An answer that said what
    /// the program printed before the run, without the option, was asked
    /// again right after it (its command is in `asked_again`, and its
    /// answer in `outputs` is the one given then).
    OutputsStated {
        outputs: Vec<crate::state::verdict::StatedOutput>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        asked_again: Vec<String>,
        /// The model calls made; 0 in a log written before it was kept,
        /// when two were counted.
        #[serde(default)]
        calls: u32,
        usage: Usage,
        retries: u32,
    },
    /// What commands that run a program on files of the workspace (a
    /// sample it reads) must print, asked of the model at an assessment
    /// from the goal's words and the files' content alone (not the code,
    /// not any output), twice in other words, and a third time when those
    /// disagree; asked again when a file changed. Every assessment holds a
    /// requirement shown by such a command to what the answers agree on
    /// (see [`crate::state::samples::hold_to_read`]).
    SamplesRead {
        readings: Vec<crate::state::samples::SampleReading>,
        usage: Usage,
        retries: u32,
    },
    /// Which of a command's output and the readings of its sample (that
    /// disagree and do not foresee it) the command must print, as the
    /// model chose asked twice (see
    /// [`crate::state::samples::hold_to_chosen`]).
    SampleChosen {
        choice: crate::state::samples::SampleChoice,
        usage: Usage,
        retries: u32,
    },
    /// Answers to a question of its own that were not written: each was
    /// run first, in a copy of the workspace, with the commands the
    /// question knows what they must print of, and the answer written (the
    /// next `model_replied`) printed more of that, or was the last asked
    /// (see `Agent::best_answer`).
    AnswersTried {
        path: String,
        tried: Vec<TriedAnswer>,
        usage: Usage,
        retries: u32,
    },
    /// What the program the goal asks for prints every time it runs, asked
    /// of the model once a run, at the first assessment that has a check
    /// that ran a program, from the goal's words alone, twice in other
    /// words and a third time when those disagree. Every assessment holds
    /// such a check to what two answers agree on when that is words of the
    /// goal (see [`crate::state::goal_text::hold_to_goal_text`]).
    GoalTextRead {
        text: crate::state::goal_text::GoalText,
        usage: Usage,
        retries: u32,
    },
    /// The programs of the project that the goal names, run as they were
    /// before the plan, without the options the goal names (a fresh run
    /// whose goal names options): what a change the goal asks of those
    /// options must leave them printing. Each ran twice and printed the
    /// same both times; another run of them at the end is held to it.
    RanBefore { runs: Vec<CheckRun> },
    /// What is missing became a new task: cycle `cycle` of `--max-cycles`.
    CycleStarted { cycle: u32, task: TaskPlan },
    /// A model call failed for good (after its retries).
    ModelFailed { error: String, retries: u32 },
    /// The invocation ended.
    RunEnded { outcome: Outcome, reason: String },
    /// The files there were when the run began (a fresh run, before its
    /// plan), bounded: `left_out` more were not recorded.
    BaselineRecorded {
        files: Vec<BaselineFile>,
        #[serde(default)]
        left_out: u64,
    },
    /// The probe found files of the baseline changed or deleted (recorded
    /// when what it found differs from the last time).
    BaselineProbed {
        changed: Vec<String>,
        deleted: Vec<String>,
    },
    /// The context block of the next question shows these files whole, as
    /// they are: files there before the run that the active subtask or the
    /// goal names. They count as seen (a write of one is not refused).
    FilesShown { files: Vec<SeenFile> },
    /// `runner rollback` put a file the runner wrote back to what it was
    /// after record `point`.
    RolledBack {
        path: String,
        point: u64,
        /// SHA-256 of the content replaced, `None` when the file was missing.
        from: Option<String>,
        /// SHA-256 of the content put back, `None` when the file was removed
        /// (it did not exist at `point`).
        to: Option<String>,
    },
}

impl Event {
    /// The name of the event as it appears in the log.
    pub fn name(&self) -> &'static str {
        match self {
            Event::RunStarted { .. } => "run_started",
            Event::Planned { .. } => "planned",
            Event::RoundStarted { .. } => "round_started",
            Event::ModelReplied { .. } => "model_replied",
            Event::ActionStarted { .. } => "action_started",
            Event::ActionFinished { .. } => "action_finished",
            Event::ActionBlocked { .. } => "action_blocked",
            Event::CallRejected { .. } => "call_rejected",
            Event::Noted { .. } => "noted",
            Event::SubtaskEnded { .. } => "subtask_ended",
            Event::CheckGiven { .. } => "check_given",
            Event::Nudged { .. } => "nudged",
            Event::ContextPressure { .. } => "context_pressure",
            Event::Reflected { .. } => "reflected",
            Event::Checked { .. } => "checked",
            Event::Assessed { .. } => "assessed",
            Event::ExamplesStated { .. } => "examples_stated",
            Event::ExampleSettled { .. } => "example_settled",
            Event::OutputsStated { .. } => "outputs_stated",
            Event::SamplesRead { .. } => "samples_read",
            Event::SampleChosen { .. } => "sample_chosen",
            Event::AnswersTried { .. } => "answers_tried",
            Event::GoalTextRead { .. } => "goal_text_read",
            Event::RanBefore { .. } => "ran_before",
            Event::CycleStarted { .. } => "cycle_started",
            Event::ModelFailed { .. } => "model_failed",
            Event::RunEnded { .. } => "run_ended",
            Event::RolledBack { .. } => "rolled_back",
            Event::BaselineRecorded { .. } => "baseline_recorded",
            Event::BaselineProbed { .. } => "baseline_probed",
            Event::FilesShown { .. } => "files_shown",
        }
    }
}

/// An event as stored: its place in the log and its time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub seq: u64,
    /// RFC 3339, UTC.
    pub ts: String,
    #[serde(flatten)]
    pub event: Event,
}

/// An answer of [`Event::AnswersTried`]: of `runs` commands, how many
/// printed what they must, and the first that did not, with what it
/// printed (cut short); `None` when the answer had no code to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriedAnswer {
    pub passed: u32,
    pub runs: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong: Option<String>,
}
