//! The fake model's scripts (`fixtures/scripts/*.json`) and the pure
//! function from a request to its reply: the first rule whose conditions
//! hold for what the model is shown gives the answer.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, Deserialize)]
pub struct Script {
    #[serde(default = "default_model")]
    pub model: String,
    #[serde(default = "default_capabilities")]
    pub capabilities: Vec<String>,
    #[serde(default = "default_context_length")]
    pub context_length: u64,
    /// The decomposition answer: JSON, sent as the reply's content.
    #[serde(default)]
    pub plan: Value,
    /// A raw decomposition answer (for invalid plans); wins over `plan`.
    #[serde(default)]
    pub plan_text: Vec<String>,
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// When no rule matches.
    #[serde(default)]
    pub otherwise: Option<Reply>,
    /// The answer to the reflection at the end of a run (the request whose
    /// format asks for `worked`).
    #[serde(default = "default_reflection")]
    pub reflection: Value,
    /// The answers to the completion check's assessment (the request whose
    /// format asks for `requirements`): the first whose conditions hold for
    /// the request; when none does, every requirement is met.
    #[serde(default)]
    pub assessments: Vec<Assessment>,
    /// The answer to the question for the goal's examples (the request
    /// whose format asks for `examples`); none by default.
    #[serde(default = "default_examples")]
    pub examples: Value,
    /// The answer to the second question, each example's assert completed
    /// again (the format asks for `returns`); by default the first
    /// answer's asserts (a model that agrees with itself).
    #[serde(default)]
    pub returns: Option<Value>,
    /// The code the model writes when asked for a function of its own,
    /// from the goal's words alone (in plain text): the first at the run's
    /// temperature, the second warmer, the third warmer still; past the
    /// list, and by default, an answer with no code.
    #[serde(default)]
    pub writes: Vec<String>,
    /// The code the model writes when asked for a program of its own, as
    /// `writes` is for a function.
    #[serde(default)]
    pub programs: Vec<String>,
    /// The values the model chooses when asked which of two a call
    /// returns (the format asks for `answer`): the letter of the one of
    /// these; by default, and when neither is, `a` (a model that picks
    /// whatever comes first).
    #[serde(default)]
    pub chooses: Vec<String>,
    /// The texts the model picks when asked which of several a command
    /// must print (the format asks for `letter`): the letter of the first
    /// option that is one of these; by default, and when none is, `a`.
    #[serde(default)]
    pub picks: Vec<String>,
    /// The answer to the question of which runs of the goal's program its
    /// words give as examples (the format asks for `arguments`); none by
    /// default.
    #[serde(default = "default_arguments")]
    pub arguments: Value,
    /// The answer to the question of what the goal's options make a
    /// program print (the format asks for `prints`); none by default.
    #[serde(default = "default_prints")]
    pub prints: Value,
    /// The answer to that question asked again (the format asks for
    /// `outputs`); by default the first answer's texts.
    #[serde(default)]
    pub outputs: Option<Value>,
    /// The answer to the third question, asked when the first two disagree
    /// (the format asks for `texts`); by default the second answer's texts.
    #[serde(default)]
    pub texts: Option<Value>,
    /// The answer to one of those asked again right after an answer that
    /// said what the program printed before the run (the format asks for
    /// `with_option`); by default none (the earlier answer stands).
    #[serde(default)]
    pub with_option: Option<Value>,
    /// The answer to the question for a run whose output the goal's change
    /// alters (a format with `changed`); by default none.
    #[serde(default)]
    pub changed: Option<Value>,
    /// The answers to the questions of what a command prints for the
    /// sample it reads (the format asks for `must_print`, then `output`,
    /// then `shows`): an object of those keys, each with its text, or with
    /// an object of commands and the text for each; a key or command left
    /// out is answered with nothing (no reading), as by default.
    #[serde(default)]
    pub samples: Value,
    /// The answers to the questions of what the goal's program prints
    /// every time it runs, from the goal's words alone (the format asks
    /// for `always_prints`, then `shown_text`, then `every_time`): an
    /// object of those keys, each with its text; a key left out is
    /// answered `""` (the goal gives no text), as by default.
    #[serde(default)]
    pub goal_text: Value,
    /// Tokens reported for a prompt: its bytes divided by this.
    #[serde(default = "default_bytes_per_token")]
    pub bytes_per_token: u64,
    /// `/api/show` leaves out `capabilities`, as Ollama before 0.6.4 did.
    #[serde(default)]
    pub hide_capabilities: bool,
    /// The `/v1` routes want `Authorization: Bearer` with this key.
    #[serde(default)]
    pub api_key: Option<String>,
    /// Served at `/props`, as llama-server describes its model there.
    #[serde(default)]
    pub props: Option<Value>,
    /// The `/v1` chat route answers a streamed request with a 400, as a
    /// server that takes no `stream_options` does.
    #[serde(default)]
    pub refuses_streaming: bool,
}

fn default_model() -> String {
    "fake-coder:1b".into()
}
fn default_capabilities() -> Vec<String> {
    vec!["completion".into(), "tools".into()]
}
fn default_context_length() -> u64 {
    32768
}
fn default_bytes_per_token() -> u64 {
    4
}
fn default_examples() -> Value {
    json!({"examples": []})
}
fn default_arguments() -> Value {
    json!({"arguments": []})
}
fn default_prints() -> Value {
    json!({"prints": []})
}
fn default_reflection() -> Value {
    json!({"worked": ["wrote the file, then ran it"], "failed": [], "next": ["run the code after writing it"]})
}

/// The assessment of a model that reads what it is shown: the goal is met
/// when no check failed.
fn default_assessment(text: &str) -> Value {
    let checks = text.split("\nCHECKS:\n").nth(1).unwrap_or("");
    let failed = checks
        .lines()
        .any(|line| line.starts_with("exit code ") && line != "exit code 0");
    let evidence = match failed {
        true => "a check failed",
        false => "the checks passed",
    };
    // As a competent assessor: what a program printed is shown by running
    // it again, and must print the same (the runner holds a goal that asks
    // what a program prints to a requirement about output).
    let printed = (!failed).then(|| first_printed(checks)).flatten();
    match printed {
        Some((command, line)) => json!({"requirements": [{"requirement": "what the goal asks for",
            "met": true, "evidence": evidence, "about_tests": false, "about_output": true,
            "command": command, "expects": line}]}),
        None => json!({"requirements": [{"requirement": "what the goal asks for", "met": !failed,
            "evidence": evidence, "about_tests": false}]}),
    }
}

/// The command of the first check of `checks` (the CHECKS part of an
/// assessment request) that is not a test run and printed a line, and
/// that line.
fn first_printed(checks: &str) -> Option<(String, String)> {
    let mut lines = checks.lines();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        if command.contains("test") {
            continue;
        }
        if lines.next()? != "exit code 0" {
            continue;
        }
        if lines.next()? != "--- stdout ---" {
            continue;
        }
        let printed = lines.next()?.trim();
        if !printed.is_empty() {
            return Some((command.to_string(), printed.to_string()));
        }
    }
    None
}

/// One answer of the assessment, given when the request holds each of
/// `has` and none of `lacks`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Assessment {
    #[serde(default)]
    pub has: Vec<String>,
    #[serde(default)]
    pub lacks: Vec<String>,
    pub answer: Value,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Rule {
    #[serde(default)]
    pub name: String,
    /// The ACTIVE SUBTASK line contains this.
    #[serde(default)]
    pub subtask: Option<String>,
    /// The request (every message and tool call) contains each of these.
    #[serde(default)]
    pub has: Vec<String>,
    /// ... and none of these.
    #[serde(default)]
    pub lacks: Vec<String>,
    /// The last tool result contains this.
    #[serde(default)]
    pub last_tool: Option<String>,
    /// The request's temperature is at least this (a request asked again,
    /// warmer).
    #[serde(default)]
    pub min_temperature: Option<f64>,
    /// FILES CREATED names each of these ...
    #[serde(default)]
    pub created: Vec<String>,
    /// ... and none of these.
    #[serde(default)]
    pub not_created: Vec<String>,
    #[serde(default)]
    pub faults: Vec<Fault>,
    pub reply: Reply,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Reply {
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub tool_calls: Vec<Value>,
    #[serde(default)]
    pub done_reason: Option<String>,
    /// Milliseconds the "model" thinks before it answers (a signal can land
    /// meanwhile). Timing only: the answer stays a function of the request.
    #[serde(default)]
    pub delay_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// An HTTP error with Ollama's `{"error": ...}` body.
    Status { status: u16, error: String },
    /// The connection dies before any answer.
    Drop,
    /// A stream that stops before its `done` chunk.
    Cut,
    /// A 200 stream with `{"error": ...}` after its first chunk.
    MidError { error: String },
}

pub fn load_script(name: &str) -> Script {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/scripts")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The schema a request asks the reply to follow: Ollama's `format`, or
/// OpenAI's `response_format`.
pub fn requested_format(request: &Value) -> Option<&Value> {
    request
        .get("format")
        .or_else(|| request["response_format"]["json_schema"].get("schema"))
        .filter(|f| !f.is_null())
}

/// A round request of JSON tool mode: the reply must be one of the calls.
pub(super) fn json_mode(request: &Value) -> bool {
    requested_format(request).is_some_and(|f| f["anyOf"].is_array())
}

/// A reply as a model constrained to JSON tool mode's schema writes it: its
/// first call as `{"name", "arguments"}`, or its text as `{"message"}`.
pub(super) fn written_as_json(reply: Reply) -> Reply {
    let content = match reply.tool_calls.first() {
        Some(call) => json!({ "name": call["name"], "arguments": call["arguments"] }),
        None => json!({ "message": reply.content }),
    };
    Reply {
        content: content.to_string(),
        tool_calls: Vec::new(),
        ..reply
    }
}

/// The reply for a request, and the fault to inject the `seen`-th time it
/// arrives.
pub(super) fn answer(script: &Script, request: &Value, seen: usize) -> (Reply, Option<Fault>) {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let format = requested_format(request).unwrap_or(&Value::Null);
    // A structured answer: its JSON as the reply's content.
    let answered = |content: Value| {
        let reply = Reply {
            content: content.to_string(),
            ..Reply::default()
        };
        (reply, None)
    };
    if format["properties"].get("worked").is_some() {
        return answered(script.reflection.clone());
    }
    if format["properties"].get("examples").is_some() {
        return answered(script.examples.clone());
    }
    if format["properties"].get("returns").is_some() {
        let agreed = || json!({ "returns": script.examples["examples"].clone() });
        return answered(script.returns.clone().unwrap_or_else(agreed));
    }
    // A function or a program written of its own, in plain text: the
    // writing of the temperature's step (0.2, 0.6, 1.0), or none.
    let system = messages.first().and_then(|m| m["content"].as_str());
    let written = match system {
        Some(s) if s.contains("Write the one function asked for") => Some(&script.writes),
        Some(s) if s.contains("Write the one program asked for") => Some(&script.programs),
        _ => None,
    };
    if let Some(writes) = written {
        let temperature = request["options"]["temperature"]
            .as_f64()
            .or_else(|| request["temperature"].as_f64())
            .unwrap_or_default();
        let at = ((temperature - 0.2) / 0.4).round().max(0.0) as usize;
        let content = match writes.get(at) {
            Some(code) => format!("Here it is:\n```python\n{code}```\n"),
            None => "I cannot write it.".to_string(),
        };
        let reply = Reply {
            content,
            ..Reply::default()
        };
        return (reply, None);
    }
    if format["properties"].get("answer").is_some() {
        let text = request_text(request);
        let option = |from: &str, to: &str| {
            let start = text.find(from)? + from.len();
            let end = text[start..].find(to)? + start;
            Some(text[start..end].trim().to_string())
        };
        let chosen = |value: Option<String>| value.is_some_and(|v| script.chooses.contains(&v));
        let letter = match chosen(option("(b) ", "? Work it out")) {
            true if !chosen(option("(a) ", " or (b) ")) => "b",
            _ => "a",
        };
        return answered(json!({ "why": "worked out from the goal", "answer": letter }));
    }
    if format["properties"].get("letter").is_some() {
        let text = request_text(request);
        let letter = ["a", "b", "c", "d"]
            .into_iter()
            .find(|letter| {
                let head = format!("({letter})\n```\n");
                let option = text.find(&head).and_then(|at| {
                    let start = at + head.len();
                    Some(&text[start..start + text[start..].find("\n```")?])
                });
                option.is_some_and(|option| script.picks.iter().any(|p| p == option))
            })
            .unwrap_or("a");
        return answered(json!({ "why": "read off the sample", "letter": letter }));
    }
    if format["properties"].get("arguments").is_some() {
        return answered(script.arguments.clone());
    }
    if format["properties"].get("prints").is_some() {
        return answered(script.prints.clone());
    }
    if format["properties"].get("outputs").is_some() {
        let agreed = || json!({ "outputs": script.prints["prints"].clone() });
        return answered(script.outputs.clone().unwrap_or_else(agreed));
    }
    if format["properties"].get("changed").is_some() {
        let none = || json!({ "changed": [] });
        return answered(script.changed.clone().unwrap_or_else(none));
    }
    if format["properties"].get("with_option").is_some() {
        let none = || json!({ "with_option": [] });
        return answered(script.with_option.clone().unwrap_or_else(none));
    }
    if format["properties"].get("texts").is_some() {
        let second = match &script.outputs {
            Some(outputs) => outputs["outputs"].clone(),
            None => script.prints["prints"].clone(),
        };
        return answered(
            script
                .texts
                .clone()
                .unwrap_or_else(|| json!({ "texts": second })),
        );
    }
    for key in ["must_print", "output", "shows"] {
        if format["properties"].get(key).is_some() {
            let asked = request_text(request);
            let text = match &script.samples[key] {
                Value::Object(by_command) => by_command
                    .iter()
                    .find(|(command, _)| asked.contains(&format!("`{command}`")))
                    .and_then(|(_, text)| text.as_str()),
                text => text.as_str(),
            };
            return answered(json!({ key: text.unwrap_or_default() }));
        }
    }
    for key in ["always_prints", "shown_text", "every_time"] {
        if format["properties"].get(key).is_some() {
            let text = script.goal_text[key].as_str().unwrap_or_default();
            return answered(json!({ key: text }));
        }
    }
    if format["properties"].get("requirements").is_some() {
        let text = request_text(request);
        let answer = script
            .assessments
            .iter()
            .find(|a| {
                a.has.iter().all(|h| text.contains(h.as_str()))
                    && !a.lacks.iter().any(|l| text.contains(l.as_str()))
            })
            .map_or_else(|| default_assessment(&text), |a| a.answer.clone());
        return answered(answer);
    }
    if !format.is_null() && !json_mode(request) {
        let attempt = messages.iter().filter(|m| m["role"] == "assistant").count();
        let content = if script.plan_text.is_empty() {
            script.plan.to_string()
        } else {
            script.plan_text[attempt.min(script.plan_text.len() - 1)].clone()
        };
        let rule = script.rules.iter().find(|r| r.name == "plan");
        let fault = rule.and_then(|r| r.faults.get(seen).cloned());
        return (
            Reply {
                content,
                ..Reply::default()
            },
            fault,
        );
    }
    let text = messages
        .iter()
        .map(|m| {
            format!(
                "{}\n{}",
                m["content"].as_str().unwrap_or(""),
                m["tool_calls"]
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let context = messages
        .iter()
        .rev()
        .find(|m| {
            m["role"] == "user"
                && m["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("ACTIVE SUBTASK:"))
        })
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    let line = |label: &str| context.lines().find(|l| l.starts_with(label)).unwrap_or("");
    let subtask_line = line("ACTIVE SUBTASK:");
    let created: Vec<&str> = line("FILES CREATED:")
        .trim_start_matches("FILES CREATED:")
        .split(", ")
        .map(str::trim)
        .collect();
    let last_tool = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "tool")
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    let rule = script
        .rules
        .iter()
        .filter(|r| r.name != "plan")
        .find(|rule| {
            rule.subtask
                .as_ref()
                .is_none_or(|s| subtask_line.contains(s.as_str()))
                && rule.has.iter().all(|h| text.contains(h.as_str()))
                && !rule.lacks.iter().any(|l| text.contains(l.as_str()))
                && rule
                    .last_tool
                    .as_ref()
                    .is_none_or(|t| last_tool.contains(t.as_str()))
                && rule.min_temperature.is_none_or(|min| {
                    request["options"]["temperature"]
                        .as_f64()
                        .is_some_and(|t| t >= min)
                })
                && rule.created.iter().all(|f| created.contains(&f.as_str()))
                && !rule
                    .not_created
                    .iter()
                    .any(|f| created.contains(&f.as_str()))
        });
    match rule {
        Some(rule) => (rule.reply.clone(), rule.faults.get(seen).cloned()),
        None => (
            script.otherwise.clone().unwrap_or(Reply {
                content: "I do not know what to do.".into(),
                ..Reply::default()
            }),
            None,
        ),
    }
}

/// Every message's text and tool calls: what rules and personalities look at.
pub(super) fn request_text(request: &Value) -> String {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    messages
        .iter()
        .map(|m| {
            format!(
                "{}\n{}",
                m["content"].as_str().unwrap_or(""),
                m["tool_calls"]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
