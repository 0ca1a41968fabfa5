//! What each call of the conversation came to, kept beside its tool result:
//! the round reads these facts (a command's exit code, a write, a refusal's
//! kind), never the words of the result.

use serde::{Deserialize, Serialize};

use super::outcome::ActionOutcome;
use super::refusal::RefusalKind;

/// One call's tool result and what it came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallFact {
    /// The exchange whose messages hold its result, numbered as
    /// [`super::State::exchanges`] counts them.
    pub exchange: u64,
    /// The place of its result among that exchange's messages.
    pub message: usize,
    /// The tool the call named.
    pub tool: String,
    pub came: Came,
}

/// What a call came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "came", rename_all = "snake_case")]
pub enum Came {
    /// The action ran: its outcome, without the result text (the
    /// conversation holds that).
    Ran { outcome: Box<ActionOutcome> },
    /// The call was refused before it ran.
    Refused { kind: RefusalKind },
    /// The loop guard blocked it.
    Blocked,
    /// A note was kept.
    Noted,
    /// It ended the active subtask.
    Ended,
}

impl Came {
    /// The outcome of an action that ran, kept without its text.
    pub fn ran(outcome: &ActionOutcome) -> Came {
        Came::Ran {
            outcome: Box::new(ActionOutcome {
                result: String::new(),
                seen: None,
                ..outcome.clone()
            }),
        }
    }
}
