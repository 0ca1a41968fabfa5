//! The fake server's OpenAI chat API, as Ollama serves it under `/v1` (and
//! llama-server, LM Studio, vLLM at their roots): `/v1/chat/completions`
//! (not streamed), `/v1/models`, and llama-server's `/props` when the script
//! gives one. The request is turned into the Ollama shape the rules read,
//! answered by the same rules and faults, and sent back as a completion:
//! arguments as JSON strings, `usage`, `finish_reason`, errors as
//! `{"error": {"message": ...}}`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::fake_ollama::{Fault, Reply, Shared, broken_body, reply_for};

fn error(status: u16, message: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let kind = if status.is_server_error() {
        "server_error"
    } else {
        "invalid_request_error"
    };
    let body = json!({ "error": { "code": status.as_u16(), "message": message, "type": kind } });
    (status, axum::Json(body)).into_response()
}

/// `Authorization: Bearer KEY` when the script wants a key.
fn authorized(shared: &Shared, headers: &HeaderMap) -> bool {
    let Some(key) = &shared.script.api_key else {
        return true;
    };
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bearer {key}"))
}

pub(super) async fn models(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if !authorized(&shared, &headers) {
        return error(401, "Invalid API key");
    }
    axum::Json(json!({
        "object": "list",
        "data": [{ "id": shared.script.model, "object": "model", "created": 0, "owned_by": "library" }],
    }))
    .into_response()
}

pub(super) async fn props(State(shared): State<Arc<Shared>>) -> Response {
    match &shared.script.props {
        Some(props) => axum::Json(props.clone()).into_response(),
        None => (StatusCode::NOT_FOUND, "404 page not found").into_response(),
    }
}

pub(super) async fn chat_completions(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return error(400, "invalid request body");
    };
    // What a server with a prefix cache (llama-server) kept of the last
    // prompt: the bytes its messages share with this one's.
    let kept = {
        let mut requests = shared.requests.lock().expect("requests");
        let last = requests.last().map(|r| r["messages"].to_string());
        requests.push(request.clone());
        let now = request["messages"].to_string();
        last.map_or(0, |last| {
            last.bytes()
                .zip(now.bytes())
                .take_while(|(a, b)| a == b)
                .count() as u64
        })
    };
    if !authorized(&shared, &headers) {
        return error(401, "Incorrect API key provided");
    }
    let script = &shared.script;
    let model = request["model"].as_str().unwrap_or("");
    if model != script.model {
        return error(
            404,
            &format!("model \"{model}\" not found, try pulling it first"),
        );
    }
    let has_tools = request["tools"].as_array().is_some_and(|t| !t.is_empty());
    if has_tools && !script.capabilities.iter().any(|c| c == "tools") {
        return error(
            400,
            &format!("registry.ollama.ai/library/{model} does not support tools"),
        );
    }
    let stream = request["stream"].as_bool().unwrap_or(false);
    if stream && script.refuses_streaming {
        return error(400, "'stream_options' is not supported by this server");
    }
    let prompt_tokens = body.len() as u64 / script.bytes_per_token.max(1);
    let (reply, fault) = reply_for(&shared, &as_ollama(&request), &body);
    match fault {
        Some(Fault::Status {
            status,
            error: message,
        }) => error(status, &message),
        Some(Fault::Drop | Fault::Cut | Fault::MidError { .. }) => broken_body(),
        None => {
            let mut answer = completion(model, &reply, prompt_tokens);
            if script.props.is_some() {
                // llama-server's own figures of the prompt: evaluated and cached.
                let cache_n = (kept / script.bytes_per_token.max(1)).min(prompt_tokens);
                answer["timings"] =
                    json!({ "prompt_n": prompt_tokens - cache_n, "cache_n": cache_n });
            }
            match stream {
                true => events(&answer),
                false => axum::Json(answer).into_response(),
            }
        }
    }
}

/// A whole answer as server-sent events, as llama-server streams one: the
/// text a line an event, each tool call's name then its arguments in two
/// pieces, the `finish_reason`, then `usage` and `timings`, then `[DONE]`.
fn events(answer: &Value) -> Response {
    let choice = &answer["choices"][0];
    let message = &choice["message"];
    let delta = |delta: Value| json!({ "choices": [{ "index": 0, "delta": delta }] });
    let mut events = vec![delta(json!({ "role": "assistant", "content": "" }))];
    let content = message["content"].as_str().unwrap_or("");
    events.extend(
        content
            .split_inclusive('\n')
            .map(|piece| delta(json!({ "content": piece }))),
    );
    for (index, call) in message["tool_calls"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let arguments = call["function"]["arguments"].as_str().unwrap_or("");
        let half = arguments.len() / 2;
        let half = (half..=arguments.len())
            .find(|&i| arguments.is_char_boundary(i))
            .unwrap_or(half);
        events.push(delta(
            json!({ "tool_calls": [{ "index": index, "id": call["id"],
            "type": "function", "function": { "name": call["function"]["name"],
            "arguments": &arguments[..half] } }] }),
        ));
        events.push(delta(
            json!({ "tool_calls": [{ "index": index, "function": { "arguments": &arguments[half..] } }] }),
        ));
    }
    events.push(json!({ "choices": [{ "index": 0, "delta": {},
        "finish_reason": choice["finish_reason"] }] }));
    let mut last = json!({ "choices": [], "usage": answer["usage"] });
    if !answer["timings"].is_null() {
        last["timings"] = answer["timings"].clone();
    }
    events.push(last);
    let mut lines: Vec<String> = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    lines.push("data: [DONE]\n\n".into());
    let chunks: Vec<Result<Bytes, std::convert::Infallible>> =
        lines.into_iter().map(|l| Ok(Bytes::from(l))).collect();
    Response::builder()
        .header(axum::http::header::CONTENT_TYPE, "text/event-stream")
        .body(axum::body::Body::from_stream(futures_util::stream::iter(
            chunks,
        )))
        .unwrap_or_else(|_| error(500, "cannot build the response"))
}

/// The request as the rules read it: Ollama's messages (arguments as
/// objects) and `format`.
fn as_ollama(request: &Value) -> Value {
    let messages: Vec<Value> = request["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|mut message| {
            if let Some(calls) = message["tool_calls"].as_array_mut() {
                for call in calls {
                    let arguments = &call["function"]["arguments"];
                    let parsed = arguments
                        .as_str()
                        .and_then(|a| serde_json::from_str::<Value>(a).ok())
                        .unwrap_or_else(|| arguments.clone());
                    *call = json!({ "function": { "name": call["function"]["name"], "arguments": parsed } });
                }
            }
            message
        })
        .collect();
    let mut view = json!({ "model": request["model"], "messages": messages });
    if let Some(schema) = super::fake_ollama::requested_format(request) {
        view["format"] = schema.clone();
    }
    view
}

fn completion(model: &str, reply: &Reply, prompt_tokens: u64) -> Value {
    let calls: Vec<Value> = reply
        .tool_calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            json!({
                "id": format!("call_{i}"),
                "type": "function",
                "function": { "name": call["name"], "arguments": call["arguments"].to_string() },
            })
        })
        .collect();
    let mut message = json!({ "role": "assistant", "content": reply.content });
    if !calls.is_empty() {
        message["tool_calls"] = Value::Array(calls);
        if reply.content.is_empty() {
            message["content"] = Value::Null;
        }
    }
    let finish_reason = match (&reply.done_reason, reply.tool_calls.is_empty()) {
        (Some(reason), _) => reason.clone(),
        (None, false) => "tool_calls".into(),
        (None, true) => "stop".into(),
    };
    let completion_tokens =
        (reply.content.len() as u64 + json!(reply.tool_calls).to_string().len() as u64) / 4 + 1;
    json!({
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_795_000_000u64,
        "model": model,
        "system_fingerprint": "fp_fake",
        "choices": [{ "index": 0, "message": message, "finish_reason": finish_reason }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    })
}
