//! The exit codes of DESIGN.md and the failures around a run that end in one.

use crate::state::Outcome;
use crate::store::StoreError;

/// The exit codes of DESIGN.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    Achieved = 0,
    Stopped = 1,
    Usage = 2,
    Model = 3,
    Store = 4,
    Interrupted = 130,
}

impl From<Outcome> for Exit {
    fn from(outcome: Outcome) -> Exit {
        match outcome {
            Outcome::Achieved => Exit::Achieved,
            Outcome::NotAchieved | Outcome::Stopped => Exit::Stopped,
            Outcome::Interrupted => Exit::Interrupted,
            Outcome::ModelUnusable => Exit::Model,
        }
    }
}

/// A failure before or around the run, with its exit code.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Bad usage or configuration (exit 2).
    #[error("{0}")]
    Usage(String),
    /// The model server or the model cannot be used (exit 3).
    #[error("{0}")]
    Model(String),
    /// The workspace's state cannot be used as it is (exit 4).
    #[error("{0}")]
    State(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl AppError {
    pub fn exit(&self) -> Exit {
        match self {
            AppError::Usage(_) => Exit::Usage,
            AppError::Model(_) => Exit::Model,
            AppError::State(_) | AppError::Store(_) => Exit::Store,
        }
    }
}
