//! What an action came to, and the facts about files it records: the typed
//! values everything downstream of an action reads (the result text is only
//! what the model is shown).

use serde::{Deserialize, Serialize};

use super::RefusalKind;

/// A write the runner made to a file of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    pub path: String,
    /// SHA-256 of the content before, `None` when the file did not exist.
    pub before: Option<String>,
    /// SHA-256 of the content written.
    pub after: String,
    pub bytes: u64,
    /// The top-level definitions (by name) the previous content had and
    /// this one has not, when the language parsed both.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

impl FileChange {
    /// The write changed the file (a rewrite with the same bytes did not).
    pub fn changed(&self) -> bool {
        self.before.as_deref() != Some(self.after.as_str())
    }
}

/// A file's content as the model was shown it whole (a `read_file`, or the
/// refusal of a write over a file it had not seen): a write over that
/// content is not blind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenFile {
    pub path: String,
    pub sha256: String,
}

/// What a `write_file` is about to do, recorded before it does it, so that a
/// crash in between can be reconciled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteIntent {
    pub path: String,
    /// SHA-256 of the file before, `None` when it does not exist.
    pub before: Option<String>,
    /// SHA-256 of the content it will write.
    pub after: String,
}

/// What an executed action came to.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ActionOutcome {
    pub ok: bool,
    /// The tool result exactly as the model is shown it.
    pub result: String,
    /// For `run_cmd`: the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// For `run_cmd`: the exit code (`None` when killed or never started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// For `run_cmd` that started: how it ended (absent in older logs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<CommandEnd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<FileChange>,
    /// One line for RECENT ERRORS when the action failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The runner stopped while the action ran and could not tell its
    /// result (recorded on resume). Running it again is no loop.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// The file whose whole content the result showed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen: Option<Box<SeenFile>>,
    /// Why the tool refused to act (a path outside the workspace, a program
    /// not allowed); `None` when it acted, or tried and failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<RefusalKind>,
}

impl ActionOutcome {
    /// An action its tool refused to do, for `error`, which the model is
    /// told.
    pub fn refused(kind: RefusalKind, error: String) -> ActionOutcome {
        ActionOutcome {
            refusal: Some(kind),
            ..ActionOutcome::failed(error)
        }
    }

    /// An action that was tried and failed (the system said no: a file
    /// that cannot be read, a program that cannot start), for `error`.
    pub fn failed(error: String) -> ActionOutcome {
        ActionOutcome {
            ok: false,
            result: format!("Error: {error}"),
            error: Some(error),
            ..ActionOutcome::default()
        }
    }
}

/// How a command that started ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum CommandEnd {
    /// It exited with this code.
    Exited { code: i32 },
    /// A signal ended it (its number, when the system tells).
    Signal { signal: Option<i32> },
    /// It ran past its timeout and was killed.
    TimedOut { secs: u64 },
    /// The user interrupted the runner; it was killed.
    Stopped,
    /// It started more processes than allowed and was killed.
    TooManyProcesses { max: usize },
}

impl CommandEnd {
    /// The line under the command in its result: `exit code 1`.
    pub fn describe(self) -> String {
        match self {
            CommandEnd::Exited { code } => format!("exit code {code}"),
            CommandEnd::Signal {
                signal: Some(signal),
            } => format!("killed by signal {signal}"),
            CommandEnd::Signal { signal: None } => "killed by a signal".into(),
            CommandEnd::TimedOut { secs } => {
                format!("timed out after {secs} s; the command was killed")
            }
            CommandEnd::Stopped => {
                "stopped: the user interrupted the runner; the command was killed".into()
            }
            CommandEnd::TooManyProcesses { max } => {
                format!("killed: it started more than {max} processes at once")
            }
        }
    }
}
