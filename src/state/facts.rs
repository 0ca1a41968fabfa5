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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;
    use crate::state::{Event, State};
    use pretty_assertions::assert_eq;

    fn apply(state: &mut State, event: Event) {
        state.apply_next(event);
    }

    #[test]
    fn each_tool_result_is_kept_with_what_its_call_came_to() {
        let mut state = State::default();
        let call = |name: &str| ToolCall {
            name: name.into(),
            arguments: serde_json::json!({}),
        };
        apply(
            &mut state,
            Event::ModelReplied {
                content: String::new(),
                calls: vec![call("write_file"), call("run_cmd")],
                from_text: false,
                question: false,
                usage: Default::default(),
                retries: 0,
                done_reason: None,
            },
        );
        apply(
            &mut state,
            Event::CallRejected {
                call: 0,
                tool: "write_file".into(),
                kind: RefusalKind::LanguageRefused,
                error: "not written: a.py does not parse".into(),
                signature: None,
                seen: None,
            },
        );
        apply(
            &mut state,
            Event::ActionStarted {
                call: 1,
                tool: "run_cmd".into(),
                summary: "run_cmd python3 a.py".into(),
                signature: "s".into(),
                write: None,
            },
        );
        let outcome = ActionOutcome {
            ok: true,
            result: "$ python3 a.py\nexit code 0".into(),
            command: Some("python3 a.py".into()),
            exit_code: Some(0),
            ..ActionOutcome::default()
        };
        let started = state.last_seq;
        apply(
            &mut state,
            Event::ActionFinished {
                action: started,
                outcome: outcome.clone(),
            },
        );
        let kept = ActionOutcome {
            result: String::new(),
            ..outcome
        };
        assert_eq!(
            Vec::from(state.calls.clone()),
            vec![
                CallFact {
                    exchange: 0,
                    message: 1,
                    tool: "write_file".into(),
                    came: Came::Refused {
                        kind: RefusalKind::LanguageRefused
                    },
                },
                CallFact {
                    exchange: 0,
                    message: 2,
                    tool: "run_cmd".into(),
                    came: Came::Ran {
                        outcome: Box::new(kept)
                    },
                },
            ]
        );
        // The messages they point at are the results the model was shown.
        let exchange = &state.conversation[0];
        assert_eq!(exchange[1].content, "not written: a.py does not parse");
        assert_eq!(exchange[2].content, "$ python3 a.py\nexit code 0");
    }
}
