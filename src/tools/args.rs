//! Checking a tool call's arguments. Lenient where the intent is clear (a
//! number sent as a string, arguments sent as a JSON string), strict
//! otherwise, and every refusal says what was expected.

use std::time::Duration;

use serde_json::{Map, Value};

use super::refusal::{Refusal, RefusalKind};
use super::{Action, Call, MAX_WRITE_BYTES, ToolConfig};
use crate::chat::ToolCall;

/// The default and the cap of `read_file`'s `max_bytes`.
const READ_DEFAULT: usize = 20_000;
const READ_CAP: usize = 200_000;
/// The longest a command may run, whatever the model asks.
const TIMEOUT_CAP: Duration = Duration::from_secs(1800);

pub fn parse(call: &ToolCall, config: &ToolConfig) -> Result<Call, Refusal> {
    let args = arguments(&call.arguments)
        .or_else(|| lone_argument(&call.name, &call.arguments))
        .ok_or_else(|| {
            Refusal::arguments(format!(
                "the arguments of {} must be a JSON object",
                call.name
            ))
        })?;
    if let Some(size) = args.get(super::TOO_LARGE).and_then(Value::as_u64) {
        return Err(too_large(format!(
            "{} refused: its arguments are {size} bytes, more than the limit of {} bytes for a \
             write; write a smaller file, or several",
            call.name, MAX_WRITE_BYTES
        )));
    }
    if !super::names().contains(&call.name.as_str()) {
        return Err(Refusal::new(
            RefusalKind::UnknownTool,
            format!(
                "there is no tool named {:?}. The tools are: {}",
                call.name,
                super::names().join(", ")
            ),
        ));
    }
    let a = Args {
        tool: &call.name,
        map: &args,
    };
    if call.name == "write_file"
        && let Ok(content) = a.string("content")
        && content.len() > MAX_WRITE_BYTES
    {
        return Err(too_large(format!(
            "write_file refused: the content is {} bytes, more than the limit of {} bytes; \
             write a smaller file",
            content.len(),
            MAX_WRITE_BYTES
        )));
    }
    fields(&a, config).map_err(Refusal::arguments)
}

/// The call of a known tool from its arguments; `Err` says what is wrong.
fn fields(a: &Args, config: &ToolConfig) -> Result<Call, String> {
    let call = match a.tool {
        "list_dir" => Call::Action(Action::ListDir {
            path: a.string_or("path", ".")?,
        }),
        "read_file" => Call::Action(Action::ReadFile {
            path: a.string("path")?,
            max_bytes: a
                .integer("max_bytes")?
                .map_or(READ_DEFAULT, |n| (n as usize).clamp(1, READ_CAP)),
        }),
        "write_file" => Call::Action(Action::WriteFile {
            path: a.string("path")?,
            content: a.string("content")?,
            create_dirs: a.boolean("create_dirs")?.unwrap_or(true),
        }),
        "edit_file" => Call::Action(Action::EditFile {
            path: a.string("path")?,
            old: a.string("old")?,
            new: a.string_or("new", "")?,
        }),
        "search" => Call::Action(Action::Search {
            pattern: a.string("pattern")?,
            path: a.string_or("path", ".")?,
        }),
        "run_cmd" => Call::Action(Action::RunCmd {
            cmd: a
                .string("cmd")
                .or_else(|e| a.string("command").map_err(|_| e))?,
            timeout: a
                .integer("timeout_sec")?
                .map_or(config.default_timeout, |n| Duration::from_secs(n.max(1)))
                .min(TIMEOUT_CAP),
        }),
        "mark_subtask_complete" => Call::Complete {
            success: a.boolean("success")?.unwrap_or(true),
            reason: a.string_or("reason", "")?,
        },
        "note" => Call::Note {
            text: a.string("text")?,
        },
        // `parse` refused the names of no tool already.
        other => return Err(format!("there is no tool named {other:?}")),
    };
    Ok(call)
}

fn too_large(message: String) -> Refusal {
    Refusal::new(RefusalKind::TooLarge, message)
}

/// The arguments as an object: an object as is, a JSON string holding one
/// parsed, nothing as empty.
fn arguments(value: &Value) -> Option<Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map.clone()),
        Value::Null => Some(Map::new()),
        Value::String(text) if text.trim().is_empty() => Some(Map::new()),
        Value::String(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        },
        _ => None,
    }
}

/// A plain string (no JSON) sent as the arguments of a tool that needs
/// one argument: that argument. t39's mathkit sent `note` its text so,
/// was refused three times and blocked as repeating.
fn lone_argument(tool: &str, value: &Value) -> Option<Map<String, Value>> {
    let Value::String(text) = value else {
        return None;
    };
    let spec = super::specs().iter().find(|s| s.name == tool)?;
    let [name] = spec.parameters["required"].as_array()?.as_slice() else {
        return None;
    };
    let name = name.as_str()?;
    (spec.parameters["properties"][name]["type"] == "string").then(|| {
        let mut map = Map::new();
        map.insert(name.to_string(), Value::String(text.clone()));
        map
    })
}

struct Args<'a> {
    tool: &'a str,
    map: &'a Map<String, Value>,
}

impl Args<'_> {
    fn expected(&self) -> String {
        let spec = super::specs().iter().find(|s| s.name == self.tool);
        match spec {
            Some(spec) => format!("{} takes {}", self.tool, spec.parameters["properties"]),
            None => String::new(),
        }
    }

    fn string(&self, key: &str) -> Result<String, String> {
        match self.map.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(Value::Number(n)) => Ok(n.to_string()),
            Some(other) => Err(format!(
                "{}: `{key}` must be a string, got {other}. {}",
                self.tool,
                self.expected()
            )),
            None => Err(format!(
                "{}: the argument `{key}` is missing. {}",
                self.tool,
                self.expected()
            )),
        }
    }

    fn string_or(&self, key: &str, default: &str) -> Result<String, String> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(default.to_string()),
            Some(_) => self.string(key),
        }
    }

    fn integer(&self, key: &str) -> Result<Option<u64>, String> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
                .map(Some)
                .ok_or_else(|| format!("{}: `{key}` must be a positive integer", self.tool)),
            Some(Value::String(s)) => s.trim().parse().map(Some).map_err(|_| {
                format!(
                    "{}: `{key}` must be a positive integer, got {s:?}",
                    self.tool
                )
            }),
            Some(other) => Err(format!(
                "{}: `{key}` must be a positive integer, got {other}",
                self.tool
            )),
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, String> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Ok(Some(true)),
                "false" | "no" | "0" => Ok(Some(false)),
                _ => Err(format!(
                    "{}: `{key}` must be true or false, got {s:?}",
                    self.tool
                )),
            },
            Some(other) => Err(format!(
                "{}: `{key}` must be true or false, got {other}",
                self.tool
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_call(name: &str, arguments: Value) -> Result<Call, Refusal> {
        parse(
            &ToolCall {
                name: name.into(),
                arguments,
            },
            &ToolConfig::default(),
        )
    }

    #[test]
    fn arguments_sent_as_a_json_string_are_parsed() {
        let call = parse_call(
            "write_file",
            json!("{\"path\": \"a.py\", \"content\": \"x\"}"),
        );
        assert_eq!(
            call,
            Ok(Call::Action(Action::WriteFile {
                path: "a.py".into(),
                content: "x".into(),
                create_dirs: true
            }))
        );
    }

    #[test]
    fn a_plain_string_is_the_one_argument_a_tool_needs() {
        assert_eq!(
            parse_call("note", json!("gcd and lcm go in mathkit/__init__.py")),
            Ok(Call::Note {
                text: "gcd and lcm go in mathkit/__init__.py".into()
            })
        );
        // A tool that needs more than one: refused as before.
        assert!(parse_call("write_file", json!("a.py")).is_err());
    }

    #[test]
    fn loose_types_are_accepted_where_the_intent_is_clear() {
        assert_eq!(
            parse_call(
                "mark_subtask_complete",
                json!({"success": "false", "reason": "no"})
            ),
            Ok(Call::Complete {
                success: false,
                reason: "no".into()
            })
        );
        let Ok(Call::Action(Action::RunCmd { timeout, .. })) =
            parse_call("run_cmd", json!({"cmd": "pytest", "timeout_sec": "30"}))
        else {
            panic!("run_cmd did not parse");
        };
        assert_eq!(timeout, Duration::from_secs(30));
    }

    #[test]
    fn refusals_say_what_is_expected() {
        let missing = parse_call("write_file", json!({"path": "a.py"})).unwrap_err();
        assert_eq!(missing.kind, RefusalKind::BadArguments);
        assert!(missing.contains("`content` is missing"), "{missing}");
        assert!(missing.contains("create_dirs"), "{missing}");
        let unknown = parse_call("delete_everything", json!({})).unwrap_err();
        assert_eq!(unknown.kind, RefusalKind::UnknownTool);
        assert!(
            unknown.contains("write_file, edit_file, search, run_cmd"),
            "{unknown}"
        );
        let typed = parse_call(
            "mark_subtask_complete",
            json!({"success": [1], "reason": "r"}),
        )
        .unwrap_err();
        assert!(typed.contains("true or false"), "{typed}");
        let big = parse_call(
            "write_file",
            json!({"path": "a", "content": "x".repeat(MAX_WRITE_BYTES + 1)}),
        );
        let big = big.unwrap_err();
        assert_eq!(big.kind, RefusalKind::TooLarge);
        assert!(big.contains("limit"));
    }
}
