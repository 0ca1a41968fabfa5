//! `ledger.log`, `loops.json` and `memory.json` are projections of the log,
//! like `state.json`: each record says what it adds to them
//! ([`effects`]), the store writes that right after appending the record,
//! and on opening it replays what a crash kept from them. Nothing else
//! writes them.
//!
//! Each carries how far it got: a ledger line its record's `#seq`, a loop
//! its `seq`, the memory the first time of the log it follows and the last
//! seq of that log it holds (the memory outlives a log: it is copied when a
//! run is archived).

use serde_json::{Value, json};

use crate::state::{Event, Record, State};

/// What one record adds to the files beside the log.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// A line of `ledger.log`: `WRITE`, `CMD`, `ERROR`, `TRIED`, `BLOCKED`,
    /// `CHECK` (the completion check), `UNDO`.
    Ledger { kind: &'static str, text: String },
    /// An entry of `loops.json`.
    Loop(Value),
    /// A failed call, kept in `memory.json` for later runs.
    Mistake { tool: String, error: String },
    /// Lessons of the reflection at the end of a run.
    Lessons { goal: String, lessons: Vec<String> },
    /// A note the model kept.
    Note(String),
}

/// What `record` adds, given the state just before it was applied.
pub fn effects(before: &State, record: &Record) -> Vec<Effect> {
    match &record.event {
        Event::ActionFinished { outcome, .. } => {
            let Some(flight) = &before.in_flight else {
                return Vec::new();
            };
            let tool = flight.call.name.clone();
            let ledger = if let Some(command) = &outcome.command {
                let rc = match outcome.exit_code {
                    Some(code) => format!("rc={code}"),
                    None => "killed".into(),
                };
                Effect::Ledger {
                    kind: "CMD",
                    text: format!("{command} -> {rc}"),
                }
            } else if !outcome.ok {
                Effect::Ledger {
                    kind: "ERROR",
                    text: format!(
                        "{}: {}",
                        flight.summary,
                        outcome.error.as_deref().unwrap_or("failed")
                    ),
                }
            } else if let Some(write) = &outcome.write {
                Effect::Ledger {
                    kind: "WRITE",
                    text: format!("{} ({} bytes)", write.path, write.bytes),
                }
            } else {
                Effect::Ledger {
                    kind: "TRIED",
                    text: flight.summary.clone(),
                }
            };
            let mut effects = vec![ledger];
            if !outcome.ok && !outcome.interrupted {
                effects.push(Effect::Mistake {
                    tool,
                    error: outcome
                        .error
                        .clone()
                        .unwrap_or_else(|| outcome.result.clone()),
                });
            }
            effects
        }
        Event::ActionBlocked {
            call,
            tool,
            signature,
            pattern,
            ..
        } => {
            let args = before
                .conversation
                .back()
                .and_then(|exchange| exchange.first())
                .and_then(|message| message.tool_calls.get(*call))
                .map(|call| call.arguments.clone())
                .unwrap_or_default();
            vec![
                Effect::Loop(json!({
                    "signature": signature,
                    "tool": tool,
                    "args": args,
                    "pattern": pattern,
                    "round": before.rounds,
                    "seq": record.seq,
                    "time": record.ts,
                })),
                Effect::Ledger {
                    kind: "BLOCKED",
                    text: signature.clone(),
                },
                Effect::Mistake {
                    tool: tool.clone(),
                    error: format!("blocked a loop: {signature}"),
                },
            ]
        }
        Event::CallRejected {
            tool, error, seen, ..
        } => vec![Effect::Mistake {
            tool: tool.clone(),
            // The refusal of a blind write shows the file: the mistake is
            // the blindness, not the file's content.
            error: match seen {
                Some(_) => "a write over a file it had not read".into(),
                None => error.clone(),
            },
        }],
        Event::Reflected { lessons, .. } => vec![Effect::Lessons {
            goal: before.goal.clone(),
            lessons: lessons.clone(),
        }],
        Event::Noted { text, .. } => vec![Effect::Note(text.clone())],
        Event::Checked { checks } => checks
            .iter()
            .map(|check| Effect::Ledger {
                kind: "CHECK",
                text: match check.exit_code {
                    Some(code) => format!("{} -> rc={code}", check.command),
                    None => format!("{} -> did not finish", check.command),
                },
            })
            .collect(),
        Event::RolledBack { path, point, .. } => vec![Effect::Ledger {
            kind: "UNDO",
            text: format!("{path} -> record {point}"),
        }],
        _ => Vec::new(),
    }
}

/// A line of `ledger.log`.
pub fn ledger_line(record: &Record, kind: &str, text: &str) -> String {
    format!(
        "{} #{} {kind:<7} {}\n",
        record.ts,
        record.seq,
        text.replace('\n', " ")
    )
}

/// The seq of the last line of `ledger.log`; `None` when no line has one.
pub fn ledger_seq(text: &str) -> Option<u64> {
    text.lines().rev().find_map(|line| {
        let seq = line.split_whitespace().nth(1)?.strip_prefix('#')?;
        seq.parse().ok()
    })
}

/// The seq of the last entry of `loops.json` (0 when there is none).
pub fn loops_seq(entries: &[Value]) -> u64 {
    entries
        .iter()
        .filter_map(|entry| entry["seq"].as_u64())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{Message, ToolCall};
    use crate::state::{ActionOutcome, InFlight, LoopPattern};
    use pretty_assertions::assert_eq;

    fn record(seq: u64, event: Event) -> Record {
        Record {
            seq,
            ts: "2026-11-23T00:00:00.000Z".into(),
            event,
        }
    }

    fn in_flight(name: &str, summary: &str) -> State {
        State {
            in_flight: Some(InFlight {
                action: 3,
                call: ToolCall {
                    name: name.into(),
                    arguments: json!({}),
                },
                summary: summary.into(),
                write: None,
            }),
            ..State::default()
        }
    }

    #[test]
    fn a_failed_command_is_a_cmd_line_and_a_mistake() {
        let before = in_flight("run_cmd", "run_cmd python3 -m pytest");
        let finished = record(
            4,
            Event::ActionFinished {
                action: 3,
                outcome: ActionOutcome {
                    ok: false,
                    result: "$ python3 -m pytest\nexit code 1".into(),
                    command: Some("python3 -m pytest".into()),
                    exit_code: Some(1),
                    error: Some("python3 -m pytest: exit code 1".into()),
                    ..ActionOutcome::default()
                },
            },
        );
        assert_eq!(
            effects(&before, &finished),
            vec![
                Effect::Ledger {
                    kind: "CMD",
                    text: "python3 -m pytest -> rc=1".into()
                },
                Effect::Mistake {
                    tool: "run_cmd".into(),
                    error: "python3 -m pytest: exit code 1".into()
                }
            ]
        );
        let line = ledger_line(&finished, "CMD", "python3 -m pytest -> rc=1");
        assert_eq!(
            line,
            "2026-11-23T00:00:00.000Z #4 CMD     python3 -m pytest -> rc=1\n"
        );
        assert_eq!(ledger_seq(&format!("{line}{line}")), Some(4));
        assert_eq!(ledger_seq("old line without a seq\n"), None);
    }

    #[test]
    fn a_blocked_call_is_a_loop_with_its_arguments() {
        let mut before = State {
            rounds: 7,
            ..State::default()
        };
        before.conversation.push_back(vec![Message::assistant(
            String::new(),
            vec![ToolCall {
                name: "list_dir".into(),
                arguments: json!({"path": "."}),
            }],
        )]);
        let blocked = record(
            9,
            Event::ActionBlocked {
                call: 0,
                tool: "list_dir".into(),
                signature: "list_dir {\"path\":\".\"}".into(),
                pattern: LoopPattern::Repeat,
                message: "Blocked".into(),
            },
        );
        let effects = effects(&before, &blocked);
        let Effect::Loop(entry) = &effects[0] else {
            panic!("{effects:?}")
        };
        assert_eq!(entry["args"], json!({"path": "."}));
        assert_eq!(entry["round"], 7);
        assert_eq!(loops_seq(std::slice::from_ref(entry)), 9);
        assert!(matches!(
            effects[1],
            Effect::Ledger {
                kind: "BLOCKED",
                ..
            }
        ));
        assert!(matches!(&effects[2], Effect::Mistake { tool, .. } if tool == "list_dir"));
    }

    #[test]
    fn lessons_notes_and_rejections_go_to_memory() {
        let before = State {
            goal: "g".into(),
            ..State::default()
        };
        let noted = record(
            2,
            Event::Noted {
                call: 0,
                text: "use pytest".into(),
            },
        );
        assert_eq!(
            effects(&before, &noted),
            vec![Effect::Note("use pytest".into())]
        );
        let rejected = record(
            3,
            Event::CallRejected {
                call: 0,
                tool: "create_file".into(),
                kind: crate::state::RefusalKind::UnknownTool,
                error: "there is no tool named create_file".into(),
                signature: None,
                seen: None,
            },
        );
        assert!(matches!(
            &effects(&before, &rejected)[0],
            Effect::Mistake { .. }
        ));
        let reflected = record(
            4,
            Event::Reflected {
                lessons: vec!["next: run it".into()],
                usage: Default::default(),
                retries: 0,
            },
        );
        assert_eq!(
            effects(&before, &reflected),
            vec![Effect::Lessons {
                goal: "g".into(),
                lessons: vec!["next: run it".into()]
            }]
        );
    }
}
