//! A call the runner does not run, and why: the kind, which the round and
//! the log read (see [`RefusalKind`]), and the message, which the model is
//! shown.

pub use crate::state::RefusalKind;

/// A refused call: its kind and the message the model is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
}

impl Refusal {
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            message: message.into(),
        }
    }

    /// Bad arguments, with what was wrong.
    pub fn arguments(message: impl Into<String>) -> Refusal {
        Refusal::new(RefusalKind::BadArguments, message)
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A refusal reads as its message where text is wanted, so the callers that
/// only pass the message on (the completion check's runs) need no change.
impl std::ops::Deref for Refusal {
    type Target = str;

    fn deref(&self) -> &str {
        &self.message
    }
}
