//! The OpenAI chat API's bodies: our request as `/v1/chat/completions`
//! takes it, and its answer as a [`ChatReply`].

use serde::Deserialize;
use serde_json::{Value, json};

use crate::chat::{Message, Role, ToolCall, Usage};
use crate::model::{ChatReply, ChatRequest, runaway};

/// The request body, streamed when `stream`: a streamed reply that has
/// begun to repeat itself is stopped there (see [`Streamed`]), and
/// `stream_options.include_usage` asks for the token counts at its end. A
/// server that refuses either is asked without (see
/// [`super::OpenAiClient`]): a whole answer carries `usage` and complete
/// tool-call arguments on every server.
pub fn request(model: &str, request: &ChatRequest, stream: bool) -> Value {
    let mut body = json!({
        "model": model,
        "messages": messages(&request.messages),
        "stream": stream,
        "temperature": request.options.temperature,
    });
    if stream {
        body["stream_options"] = json!({ "include_usage": true });
    }
    if let Some(limit) = request.options.num_predict {
        body["max_tokens"] = json!(limit);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.parameters,
                    }
                })
            })
            .collect();
        body["tools"] = Value::Array(tools);
        body["tool_choice"] = json!("auto");
    }
    if let Some(schema) = &request.format {
        body["response_format"] = json!({
            "type": "json_schema",
            "json_schema": { "name": "reply", "schema": schema },
        });
    }
    body
}

/// The conversation with ids tying each tool result to its call. Our
/// messages have none, so they are numbered in order; nine characters,
/// letters and digits, which Mistral's templates on vLLM insist on. A tool
/// result with no call before it (the kept history can start mid-exchange)
/// goes as a user message, which every server takes.
fn messages(messages: &[Message]) -> Vec<Value> {
    let mut next_id = 0;
    let mut open: std::collections::VecDeque<String> = Default::default();
    let mut wire = Vec::with_capacity(messages.len());
    for message in messages {
        let value = match message.role {
            Role::System => json!({ "role": "system", "content": message.content }),
            Role::User => json!({ "role": "user", "content": message.content }),
            Role::Assistant => {
                open.clear();
                let mut value = json!({ "role": "assistant", "content": message.content });
                if !message.tool_calls.is_empty() {
                    let calls: Vec<Value> = message
                        .tool_calls
                        .iter()
                        .map(|call| {
                            next_id += 1;
                            let id = format!("call{next_id:05}");
                            open.push_back(id.clone());
                            json!({
                                "id": id,
                                "type": "function",
                                "function": { "name": call.name, "arguments": arguments(call) },
                            })
                        })
                        .collect();
                    value["tool_calls"] = Value::Array(calls);
                }
                value
            }
            Role::Tool => match open.pop_front() {
                Some(id) => {
                    json!({ "role": "tool", "tool_call_id": id, "content": message.content })
                }
                None => json!({
                    "role": "user",
                    "content": format!(
                        "Result of {}:\n{}",
                        message.tool_name.as_deref().unwrap_or("a tool"),
                        message.content
                    ),
                }),
            },
        };
        wire.push(value);
    }
    wire
}

/// Arguments go as a JSON string; a string the model gave is sent as it was.
fn arguments(call: &ToolCall) -> String {
    match &call.arguments {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<WireUsage>,
    /// llama-server's own figures: `prompt_n` tokens evaluated, `cache_n`
    /// taken from the prefix cache.
    #[serde(default)]
    timings: Option<Timings>,
}

#[derive(Deserialize)]
struct Timings {
    #[serde(default)]
    prompt_n: Option<u64>,
    #[serde(default)]
    cache_n: Option<u64>,
}

#[derive(Deserialize)]
struct Choice {
    message: WireMessage,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<WireCall>>,
}

#[derive(Deserialize)]
struct WireCall {
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

/// The answer of a completion; `Err` says why it is not one.
pub fn reply(body: &str) -> Result<ChatReply, String> {
    let completion: Completion = serde_json::from_str(body)
        .map_err(|e| format!("the answer is not a chat completion ({e})"))?;
    let Some(choice) = completion.choices.into_iter().next() else {
        return Err("the answer has no choices".into());
    };
    let tool_calls = choice
        .message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .map(|call| ToolCall {
            name: call.function.name,
            arguments: decoded(call.function.arguments),
        })
        .collect();
    Ok(ChatReply {
        content: choice.message.content.unwrap_or_default(),
        tool_calls,
        usage: usage_of(completion.usage, completion.timings),
        // "length" means cut at max_tokens, as Ollama's done_reason says.
        done_reason: choice.finish_reason,
        ..ChatReply::default()
    })
}

/// The token counts of an answer: `usage`, and llama-server's `timings`
/// where it gives them.
fn usage_of(wire: Option<WireUsage>, timings: Option<Timings>) -> Usage {
    let mut usage = Usage::default();
    let mut cached = None;
    if let Some(u) = wire {
        usage.prompt_tokens = u.prompt_tokens;
        usage.completion_tokens = u.completion_tokens;
        cached = u.prompt_tokens_details.and_then(|d| d.cached_tokens);
    }
    // llama-server's timings say it best: what it evaluated and what it
    // took from the cache.
    if let Some(Timings {
        prompt_n: Some(evaluated),
        cache_n: Some(cache_n),
    }) = timings
    {
        cached = Some(cache_n);
        usage.prompt_tokens = usage.prompt_tokens.max(evaluated + cache_n);
    }
    if let Some(cached) = cached {
        usage.prompt_cached = cached.min(usage.prompt_tokens);
        usage.prompt_cache_known = usage.prompt_tokens;
    }
    usage
}

/// A streamed answer being put together from its server-sent events:
/// `data: {chunk}` lines whose `choices[0].delta` carry pieces of the text
/// and of the tool calls (by `index`, the arguments as pieces of a string),
/// `finish_reason` in the last, `usage` (and llama-server's `timings`) in
/// one after it, then `data: [DONE]`.
#[derive(Default)]
pub struct Streamed {
    content: String,
    /// Each call's name and arguments, as their pieces came.
    calls: Vec<(String, String)>,
    finish_reason: Option<String>,
    usage: Option<WireUsage>,
    timings: Option<Timings>,
    /// Chunks with text: a token each on the servers seen.
    pieces: u64,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    timings: Option<Timings>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct ChunkChoice {
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<CallPiece>>,
}

#[derive(Deserialize)]
struct CallPiece {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    function: Option<FunctionPiece>,
}

#[derive(Deserialize)]
struct FunctionPiece {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}

impl Streamed {
    /// Takes one line of the stream; `Ok(true)` once the answer is whole
    /// (`[DONE]`), or once its text repeats itself (it ends there,
    /// `done_reason` [`runaway::REPEATING`]). An error event comes back as
    /// the error body to classify.
    pub fn feed(&mut self, line: &str) -> Result<bool, String> {
        let Some(data) = line.trim().strip_prefix("data:") else {
            return Ok(false);
        };
        let data = data.trim();
        if data == "[DONE]" {
            return Ok(true);
        }
        let chunk: Chunk = serde_json::from_str(data)
            .map_err(|e| format!("{{\"error\":\"unreadable event in the reply ({e})\"}}"))?;
        if chunk.error.is_some() {
            return Err(data.to_string());
        }
        for choice in chunk.choices {
            let delta = choice.delta.unwrap_or(Delta {
                content: None,
                tool_calls: None,
            });
            if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                self.pieces += 1;
                self.content.push_str(&text);
            }
            for piece in delta.tool_calls.unwrap_or_default() {
                let index = piece.index.unwrap_or(self.calls.len().saturating_sub(1));
                if self.calls.len() <= index {
                    self.calls.resize(index + 1, Default::default());
                }
                let function = piece.function.unwrap_or(FunctionPiece {
                    name: None,
                    arguments: None,
                });
                self.calls[index].0 += function.name.as_deref().unwrap_or("");
                self.calls[index].1 += function.arguments.as_deref().unwrap_or("");
            }
            self.finish_reason = choice.finish_reason.or(self.finish_reason.take());
        }
        self.usage = chunk.usage.or(self.usage.take());
        self.timings = chunk.timings.or(self.timings.take());
        if self.finish_reason.is_none() && runaway::repeating(&self.content) {
            self.finish_reason = Some(runaway::REPEATING.into());
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether the answer ended (a `finish_reason` came), for a stream
    /// that closes without `[DONE]`.
    pub fn finished(&self) -> bool {
        self.finish_reason.is_some()
    }

    pub fn finish(self) -> ChatReply {
        let stopped = self.finish_reason.as_deref() == Some(runaway::REPEATING);
        let mut usage = usage_of(self.usage, self.timings);
        if stopped {
            // The counts come after the last piece, which is not waited for.
            usage.completion_tokens = self.pieces;
        }
        ChatReply {
            content: self.content,
            tool_calls: self
                .calls
                .into_iter()
                .filter(|(name, _)| !name.is_empty())
                .map(|(name, arguments)| ToolCall {
                    name,
                    arguments: decoded(Value::String(arguments)),
                })
                .collect(),
            usage,
            done_reason: self.finish_reason,
            ..ChatReply::default()
        }
    }
}

/// Arguments arrive as a JSON string; one that does not parse is kept as the
/// string, so the tool's checker tells the model what is wrong with it.
fn decoded(arguments: Value) -> Value {
    match arguments {
        Value::String(text) if text.trim().is_empty() => json!({}),
        Value::String(text) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        Value::Null => json!({}),
        other => other,
    }
}

/// The message of an error answer, in the shapes servers use: OpenAI and
/// llama-server `{"error": {"message": ...}}`, LM Studio and Ollama's own
/// `{"error": "..."}`, older vLLM `{"object": "error", "message": ...}`.
pub fn error_message(body: &str) -> String {
    let value: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    value["error"]["message"]
        .as_str()
        .or(value["error"].as_str())
        .or(value["message"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| body.trim().chars().take(300).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Options, ToolSpec};
    use pretty_assertions::assert_eq;

    fn call(name: &str, arguments: Value) -> ToolCall {
        ToolCall {
            name: name.into(),
            arguments,
        }
    }

    #[test]
    fn the_request_has_tools_ids_the_cap_and_the_schema() {
        let request = ChatRequest {
            messages: vec![
                Message::tool("note", "orphan"),
                Message::assistant(
                    "",
                    vec![
                        call("list_dir", json!({"path": "."})),
                        call("run_cmd", json!("{\"cmd\": \"ls\"")),
                    ],
                ),
                Message::tool("list_dir", "a.py"),
                Message::tool("run_cmd", "bad arguments"),
                Message::user("GOAL: g"),
            ],
            tools: vec![ToolSpec {
                name: "list_dir",
                description: "lists",
                parameters: json!({"type": "object"}),
            }],
            format: Some(json!({"type": "object"})),
            options: Options {
                temperature: 0.5,
                num_ctx: 8192,
                num_predict: Some(300),
            },
        };
        let streamed = super::request("m", &request, true);
        assert_eq!(streamed["stream"], json!(true));
        assert_eq!(streamed["stream_options"], json!({"include_usage": true}));
        let body = super::request("m", &request, false);
        assert!(body.get("stream_options").is_none());
        assert_eq!(body["max_tokens"], json!(300));
        assert_eq!(body["stream"], json!(false));
        assert_eq!(body["tool_choice"], json!("auto"));
        assert_eq!(body["tools"][0]["function"]["name"], json!("list_dir"));
        assert_eq!(
            body["response_format"],
            json!({"type": "json_schema", "json_schema": {"name": "reply", "schema": {"type": "object"}}})
        );
        let m = &body["messages"];
        assert_eq!(
            m[0],
            json!({"role": "user", "content": "Result of note:\norphan"})
        );
        assert_eq!(m[1]["tool_calls"][0]["id"], json!("call00001"));
        assert_eq!(
            m[1]["tool_calls"][0]["function"]["arguments"],
            json!("{\"path\":\".\"}")
        );
        assert_eq!(
            m[1]["tool_calls"][1]["function"]["arguments"],
            json!("{\"cmd\": \"ls\"")
        );
        assert_eq!(
            m[2],
            json!({"role": "tool", "tool_call_id": "call00001", "content": "a.py"})
        );
        assert_eq!(m[3]["tool_call_id"], json!("call00002"));
        assert!(body.get("num_ctx").is_none());
    }

    #[test]
    fn a_stream_is_put_together_from_its_events() {
        let mut reply = Streamed::default();
        let events = [
            ": keep-alive",
            r#"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}"#,
            r#"data: {"choices":[{"index":0,"delta":{"content":"lo"}}]}"#,
            r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"write_file","arguments":"{\"path\": "}}]}}]}"#,
            r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a.py\"}"}}]}}]}"#,
            r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"data: {"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7},"timings":{"prompt_n":30,"cache_n":70}}"#,
        ];
        for event in events {
            assert_eq!(reply.feed(event), Ok(false), "{event}");
        }
        assert!(reply.finished());
        assert_eq!(reply.feed("data: [DONE]"), Ok(true));
        let reply = reply.finish();
        assert_eq!(reply.content, "Hello");
        assert_eq!(reply.tool_calls.len(), 1);
        assert_eq!(reply.tool_calls[0].name, "write_file");
        assert_eq!(reply.tool_calls[0].arguments, json!({"path": "a.py"}));
        assert_eq!(reply.done_reason.as_deref(), Some("tool_calls"));
        assert_eq!(reply.usage.prompt_tokens, 100);
        assert_eq!(reply.usage.prompt_cached, 70);
        assert_eq!(reply.usage.completion_tokens, 7);

        let mut broken = Streamed::default();
        let error = broken
            .feed(r#"data: {"error":{"code":500,"message":"the slot died"}}"#)
            .unwrap_err();
        assert!(error.contains("the slot died"));
    }

    #[test]
    fn a_stream_that_repeats_itself_is_stopped_there() {
        let mut reply = Streamed::default();
        let piece = |text: &str| {
            format!(
                "data: {}",
                json!({"choices": [{"index": 0, "delta": {"content": text}}]})
            )
        };
        let mut fed = 1;
        assert_eq!(reply.feed(&piece("def f():\n")), Ok(false));
        while reply.feed(&piece("    return 1\n")) == Ok(false) {
            fed += 1;
            assert!(fed < 50, "never stopped");
        }
        let reply = reply.finish();
        assert_eq!(reply.done_reason.as_deref(), Some(runaway::REPEATING));
        assert_eq!(reply.usage.completion_tokens, fed + 1);
        assert_eq!(reply.usage.prompt_cache_known, 0, "the counts never came");
    }

    #[test]
    fn an_answer_becomes_a_reply() {
        let body = r#"{"id":"x","object":"chat.completion","choices":[{"index":0,
            "message":{"role":"assistant","content":null,"tool_calls":[
              {"id":"c1","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"a.py\",\"content\":\"x\"}"}},
              {"id":"c2","type":"function","function":{"name":"run_cmd","arguments":"{broken"}}]},
            "finish_reason":"length"}],"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}}"#;
        let reply = reply(body).unwrap();
        assert_eq!(
            reply.tool_calls,
            [
                call("write_file", json!({"path": "a.py", "content": "x"})),
                call("run_cmd", json!("{broken"))
            ]
        );
        assert_eq!(reply.content, "");
        assert_eq!(reply.done_reason.as_deref(), Some("length"));
        assert_eq!(
            reply.usage,
            Usage {
                prompt_tokens: 120,
                completion_tokens: 30,
                ..Usage::default()
            }
        );
        assert_eq!(reply.usage.cache_share(), None, "the server did not say");
        assert!(super::reply(r#"{"choices": []}"#).is_err());
        assert!(super::reply("<html>").is_err());
    }

    #[test]
    fn the_prefix_cache_is_read_where_the_server_tells() {
        let choice = r#""choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]"#;
        // llama-server: its timings, evaluated and from the cache.
        let llama = format!(
            r#"{{{choice},"usage":{{"prompt_tokens":1000,"completion_tokens":5}},
            "timings":{{"prompt_n":140,"cache_n":860,"predicted_n":5}}}}"#
        );
        let usage = reply(&llama).unwrap().usage;
        assert_eq!((usage.prompt_cached, usage.prompt_cache_known), (860, 1000));
        assert_eq!(usage.cache_note(), " · prompt cache 86%");
        // OpenAI's and vLLM's field.
        let openai = format!(
            r#"{{{choice},"usage":{{"prompt_tokens":200,"completion_tokens":5,
            "prompt_tokens_details":{{"cached_tokens":50}}}}}}"#
        );
        let usage = reply(&openai).unwrap().usage;
        assert_eq!((usage.prompt_cached, usage.prompt_cache_known), (50, 200));
        // Summed over calls, a call that did not say does not count.
        let mut run = usage;
        run += Usage {
            prompt_tokens: 300,
            completion_tokens: 1,
            ..Usage::default()
        };
        assert_eq!(run.cache_share(), Some(0.25));
    }

    #[test]
    fn error_messages_in_every_shape() {
        assert_eq!(
            error_message(r#"{"error":{"code":500,"message":"boom","type":"server_error"}}"#),
            "boom"
        );
        assert_eq!(error_message(r#"{"error":"no model"}"#), "no model");
        assert_eq!(
            error_message(r#"{"object":"error","message":"old vllm","code":400}"#),
            "old vllm"
        );
        assert_eq!(error_message(" Bad Gateway \n"), "Bad Gateway");
    }
}
