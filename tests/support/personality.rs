//! Personalities of the fake model: how a scripted "competent" reply is
//! bent the way local models bend it. Loaded from `fixtures/personalities/`.

use serde::Deserialize;
use serde_json::{Value, json};

use super::fake_ollama::{Fault, Reply};

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Personality {
    #[serde(default)]
    pub name: String,
    /// Answer in prose until the request contains this text.
    #[serde(default)]
    pub prose_until: Option<String>,
    #[serde(default)]
    pub prose: String,
    /// Make the `repeat` call until the request contains this text.
    #[serde(default)]
    pub repeat_until: Option<String>,
    #[serde(default)]
    pub repeat: Option<Value>,
    /// Write the calls into the message text instead of `tool_calls`.
    #[serde(default)]
    pub text_calls: bool,
    /// An unknown tool first, then a missing argument, then the right call.
    #[serde(default)]
    pub malformed: bool,
    /// Every n-th chat request fails with `fault`.
    #[serde(default)]
    pub every: Option<Every>,
    /// The n-th chat request (1-based) gets this fault.
    #[serde(default)]
    pub at: Vec<(usize, Fault)>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Every {
    pub n: usize,
    pub fault: Fault,
}

pub fn load(name: &str) -> Personality {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/personalities")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl Personality {
    /// The fault for the `n`-th chat request, if this personality has one.
    pub fn fault(&self, n: usize) -> Option<Fault> {
        if let Some((_, fault)) = self.at.iter().find(|(at, _)| *at == n) {
            return Some(fault.clone());
        }
        self.every
            .as_ref()
            .filter(|every| every.n > 0 && n.is_multiple_of(every.n))
            .map(|every| every.fault.clone())
    }

    /// The competent `reply` as this personality would send it, given the
    /// whole text of the request.
    pub fn bend(&self, mut reply: Reply, text: &str) -> Reply {
        if let Some(until) = &self.prose_until
            && !text.contains(until.as_str())
        {
            return Reply {
                content: self.prose.clone(),
                ..Reply::default()
            };
        }
        if let (Some(until), Some(call)) = (&self.repeat_until, &self.repeat)
            && !text.contains(until.as_str())
        {
            return Reply {
                tool_calls: vec![call.clone()],
                ..Reply::default()
            };
        }
        if self.malformed && !reply.tool_calls.is_empty() {
            let first = &mut reply.tool_calls[0];
            if !text.contains("there is no tool named") {
                first["name"] = json!("create_file");
            } else if !text.contains("is missing") {
                let name = first["name"].as_str().unwrap_or("").to_string();
                let arguments = first["arguments"].as_object_mut();
                let required = match name.as_str() {
                    "write_file" => "content",
                    "run_cmd" => "cmd",
                    "note" => "text",
                    _ => "path",
                };
                if let Some(arguments) = arguments {
                    arguments.remove(required);
                }
                if name == "mark_subtask_complete" {
                    first["name"] = json!("read_file");
                    first["arguments"] = json!({});
                }
            }
        }
        if self.text_calls && !reply.tool_calls.is_empty() {
            let written: Vec<String> = reply.tool_calls.iter().map(as_text).collect();
            reply.content = format!("{}\n{}", reply.content, written.join("\n"))
                .trim()
                .to_string();
            reply.tool_calls.clear();
        }
        reply
    }
}

/// A call as a local model writes it in text, the form chosen by the tool:
/// bare JSON, a ```json fence, Qwen's <tool_call> tags, or arguments as a
/// JSON string.
fn as_text(call: &Value) -> String {
    let name = call["name"].as_str().unwrap_or("");
    let plain = json!({ "name": name, "arguments": call["arguments"] });
    match name {
        "write_file" => format!("I will write the file now.\n{plain}"),
        "run_cmd" => format!("```json\n{plain}\n```"),
        "mark_subtask_complete" => format!("<tool_call>\n{plain}\n</tool_call>"),
        _ => json!({ "name": name, "arguments": call["arguments"].to_string() }).to_string(),
    }
}
