//! JSON tool mode: tool calls through structured output, for models and
//! servers without native tool calls. The tools are described in the system
//! prompt instead of sent as `tools`; the reply is forced (Ollama `format`,
//! OpenAI `response_format`) to be one JSON object, either a call of one tool
//! with its arguments or a message; and that object is mapped back to
//! [`ChatReply::tool_calls`], so the loop downstream cannot tell the modes
//! apart.
//!
//! The conversation is rendered the way such a model can read it: its past
//! calls as the JSON it would write, tool results as user messages (a chat
//! template without tool support drops or refuses the `tool` role), and no
//! two messages of the same role in a row (strict templates, such as
//! Gemma's, refuse those).

use serde_json::{Map, Value, json};

use super::{ChatReply, ChatRequest, ToolSpec};
use crate::chat::{Message, Role, ToolCall};

/// The key of the reply object that holds text instead of a call.
const MESSAGE_KEY: &str = "message";

/// The reply schema: one of the tools with its arguments, or a message. The
/// key order matters to a grammar-constrained model, which writes the keys in
/// the schema's order: `name` first, so it picks the tool before it writes
/// the arguments (serde_json keeps insertion order: `preserve_order`).
pub fn schema(tools: &[ToolSpec]) -> Value {
    let mut choices: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let mut arguments = tool.parameters.clone();
            if let Some(object) = arguments.as_object_mut() {
                object.insert("additionalProperties".into(), Value::Bool(false));
            }
            json!({
                "type": "object",
                "properties": {
                    "name": { "const": tool.name },
                    "arguments": arguments,
                },
                "required": ["name", "arguments"],
                "additionalProperties": false,
            })
        })
        .collect();
    choices.push(json!({
        "type": "object",
        "properties": { MESSAGE_KEY: { "type": "string" } },
        "required": [MESSAGE_KEY],
        "additionalProperties": false,
    }));
    json!({ "type": "object", "anyOf": choices })
}

/// What the system prompt gains: how to answer, and the tools.
pub fn instructions(tools: &[ToolSpec]) -> String {
    let mut lines = vec![
        "Answer with exactly one JSON object and nothing else.".to_string(),
        "To call a tool: {\"name\": \"TOOL\", \"arguments\": {...}}".to_string(),
        format!("To say something without acting: {{\"{MESSAGE_KEY}\": \"...\"}}"),
        "The tools and their arguments:".to_string(),
    ];
    for tool in tools {
        lines.push(format!(
            "- {}: {} Arguments: {}",
            tool.name,
            tool.description,
            describe_arguments(&tool.parameters)
        ));
    }
    lines.join("\n")
}

/// `path` (string, required): folder ...; `max_bytes` (integer): ...
fn describe_arguments(parameters: &Value) -> String {
    let required: Vec<&str> = parameters["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = parameters["properties"].as_object() else {
        return "none".into();
    };
    let described: Vec<String> = properties
        .iter()
        .map(|(name, property)| {
            let kind = property["type"].as_str().unwrap_or("any");
            let need = if required.contains(&name.as_str()) {
                ", required"
            } else {
                ""
            };
            match property["description"].as_str() {
                Some(description) => format!("{name} ({kind}{need}): {description}"),
                None => format!("{name} ({kind}{need})"),
            }
        })
        .collect();
    if described.is_empty() {
        "none".into()
    } else {
        described.join("; ")
    }
}

/// The request as JSON mode sends it: no `tools`, the tools in the system
/// prompt, the reply schema as the format, the conversation rendered.
pub fn request(native: &ChatRequest) -> ChatRequest {
    let instructions = instructions(&native.tools);
    let mut messages: Vec<Message> = Vec::new();
    let mut has_system = false;
    for message in &native.messages {
        let rendered = match message.role {
            Role::System => {
                has_system = true;
                Message::system(format!("{}\n\n{instructions}", message.content))
            }
            Role::User => Message::user(message.content.clone()),
            Role::Assistant => Message::assistant(written(message), Vec::new()),
            Role::Tool => Message::user(format!(
                "Result of {}:\n{}",
                message.tool_name.as_deref().unwrap_or("the tool"),
                message.content
            )),
        };
        push_merged(&mut messages, rendered);
    }
    if !has_system {
        messages.insert(0, Message::system(instructions));
    }
    // A strict template wants a user message right after the system prompt.
    if messages.get(1).is_some_and(|m| m.role == Role::Assistant) {
        messages.insert(1, Message::user("Go on with the work."));
    }
    ChatRequest {
        messages,
        tools: Vec::new(),
        // An answer keeps its own format: the tools are described only so
        // that its prompt starts as a round's does.
        format: Some(match &native.format {
            Some(format) if native.is_answer() => format.clone(),
            _ => schema(&native.tools),
        }),
        options: native.options,
    }
}

/// An assistant message as the model wrote it in JSON mode: its calls, its
/// message, or, for a reply that did not parse (cut at the token cap), the
/// text as it came. Wrapping that in a message would show the model its own
/// JSON nested one level deeper each round, which a small model copies.
fn written(message: &Message) -> String {
    if message.tool_calls.is_empty() {
        if message.content.trim_start().starts_with('{') {
            return message.content.clone();
        }
        return json!({ MESSAGE_KEY: message.content }).to_string();
    }
    message
        .tool_calls
        .iter()
        .map(|call| json!({ "name": call.name, "arguments": call.arguments }).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn push_merged(messages: &mut Vec<Message>, message: Message) {
    match messages.last_mut() {
        Some(last) if last.role == message.role && message.role != Role::System => {
            last.content.push_str("\n\n");
            last.content.push_str(&message.content);
        }
        _ => messages.push(message),
    }
}

/// The reply with its JSON mapped back: a call becomes a tool call (and no
/// content), a message becomes the content. Anything else (a reply cut at
/// the token cap, a server that ignored the format) is left as it came: the
/// loop still looks for calls written in the text.
pub fn reply(mut reply: ChatReply) -> ChatReply {
    let text = strip_fence(reply.content.trim());
    let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) else {
        return reply;
    };
    if let Some(call) = as_call(&object) {
        reply.tool_calls.push(call);
        reply.content.clear();
    } else if let Some(message) = object.get(MESSAGE_KEY).and_then(Value::as_str) {
        reply.content = message.to_string();
    }
    reply
}

fn as_call(object: &Map<String, Value>) -> Option<ToolCall> {
    let name = object.get("name")?.as_str()?.trim();
    if name.is_empty() {
        return None;
    }
    Some(ToolCall {
        name: name.to_string(),
        arguments: object
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new())),
    })
}

/// A ```json fence some servers leave around structured output.
fn strip_fence(text: &str) -> &str {
    let Some(inner) = text.strip_prefix("```") else {
        return text;
    };
    let inner = inner.trim_start_matches("json");
    inner.strip_suffix("```").unwrap_or(inner).trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Options;
    use crate::tools;
    use pretty_assertions::assert_eq;

    fn native() -> ChatRequest {
        ChatRequest {
            messages: vec![
                Message::system("You are runner."),
                Message::assistant(
                    "",
                    vec![ToolCall {
                        name: "write_file".into(),
                        arguments: json!({"path": "a.py", "content": "x"}),
                    }],
                ),
                Message::tool("write_file", "wrote 1 byte to a.py"),
                Message::user("You stopped."),
                Message::user("GOAL: g\nACTIVE SUBTASK: s"),
            ],
            tools: tools::specs().to_vec(),
            format: None,
            options: Options {
                temperature: 0.2,
                num_ctx: 4096,
                num_predict: Some(256),
            },
        }
    }

    #[test]
    fn the_request_describes_the_tools_and_forces_the_reply_shape() {
        let json = request(&native());
        assert!(json.tools.is_empty());
        assert_eq!(json.format, Some(schema(tools::specs())));
        assert_eq!(json.options, native().options);
        let roles: Vec<Role> = json.messages.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [Role::System, Role::User, Role::Assistant, Role::User]
        );
        let system = &json.messages[0].content;
        assert!(system.starts_with("You are runner.\n\nAnswer with exactly one JSON object"));
        assert!(system.contains(
            "- write_file: Create or overwrite a file of the workspace with the full content given. \
             Arguments: path (string, required): file relative to the workspace"
        ));
        assert_eq!(
            json.messages[2].content,
            r#"{"name":"write_file","arguments":{"path":"a.py","content":"x"}}"#
        );
        assert_eq!(
            json.messages[3].content,
            "Result of write_file:\nwrote 1 byte to a.py\n\nYou stopped.\n\nGOAL: g\nACTIVE SUBTASK: s"
        );
        assert!(json.messages.iter().all(|m| m.tool_calls.is_empty()));
    }

    #[test]
    fn the_schema_offers_each_tool_then_a_message_with_the_name_first() {
        let schema = schema(tools::specs());
        let choices = schema["anyOf"].as_array().unwrap();
        assert_eq!(choices.len(), tools::specs().len() + 1);
        assert_eq!(
            choices[0]["properties"]["name"],
            json!({"const": "list_dir"})
        );
        assert_eq!(
            choices[0]["properties"]["arguments"]["additionalProperties"],
            json!(false)
        );
        assert_eq!(choices.last().unwrap()["required"], json!(["message"]));
        let text = choices[2].to_string();
        assert!(
            text.find("\"name\"").unwrap() < text.find("\"arguments\"").unwrap(),
            "{text}"
        );
    }

    #[test]
    fn replies_map_back_to_calls_or_text() {
        let with = |content: &str| {
            reply(ChatReply {
                content: content.into(),
                ..ChatReply::default()
            })
        };
        let call = with(r#"{"name": "run_cmd", "arguments": {"cmd": "python3 a.py"}}"#);
        assert_eq!(
            call.tool_calls,
            [ToolCall {
                name: "run_cmd".into(),
                arguments: json!({"cmd": "python3 a.py"})
            }]
        );
        assert_eq!(call.content, "");
        let fenced =
            with("```json\n{\"name\": \"list_dir\", \"arguments\": {\"path\": \".\"}}\n```");
        assert_eq!(fenced.tool_calls[0].name, "list_dir");
        let message = with(r#"{"message": "All done."}"#);
        assert!(message.tool_calls.is_empty());
        assert_eq!(message.content, "All done.");
        let cut = with(r#"{"name": "write_file", "arguments": {"path": "a.py", "cont"#);
        assert!(cut.tool_calls.is_empty());
        assert!(cut.content.starts_with("{\"name\""));
    }

    #[test]
    fn past_replies_are_shown_as_written() {
        let said = Message::assistant("Done.", Vec::new());
        assert_eq!(written(&said), r#"{"message":"Done."}"#);
        let cut = Message::assistant("{\"message\": \"Hello, Wor", Vec::new());
        assert_eq!(written(&cut), cut.content);
    }

    #[test]
    fn a_conversation_that_starts_with_the_model_gets_a_user_turn_first() {
        let mut native = native();
        native.messages.remove(0);
        let json = request(&native);
        let roles: Vec<Role> = json.messages.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [Role::System, Role::User, Role::Assistant, Role::User]
        );
        assert!(json.messages[0].content.starts_with("Answer with exactly"));
    }
}
