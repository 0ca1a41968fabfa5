//! A fake Ollama on 127.0.0.1 that speaks `/api/chat` (streaming and not),
//! `/api/tags`, `/api/show` and `/api/version` as Ollama does, errors
//! included, and answers as a pure function of the request from a script in
//! `fixtures/scripts/`. A runner killed and restarted gets the same answers.
//!
//! A script has a plan (the answer to the decomposition request, the one
//! with a `format`) and rules; the first rule whose conditions hold for the
//! request gives the reply. Conditions look at what the model is shown:
//! the active subtask, text the request has or lacks, the last tool result.
//! `faults` make the first times an identical request arrives fail (an HTTP
//! error, a dropped connection, a stream cut before `done`, an error inside
//! the stream), so retries are deterministic too.
//!
//! It also speaks the OpenAI chat API under `/v1`, as Ollama does (see
//! `fake_openai.rs`), from the same rules; and JSON tool mode: a round
//! request whose `format` is a choice of tool calls (`anyOf`) is answered
//! with the call as the JSON object a constrained model writes.

use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::{Hash, Hasher};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::personality::{self, Personality};
pub use super::script::{Fault, Reply, Script, load_script, requested_format};
use super::script::{answer, json_mode, request_text, written_as_json};

pub(super) struct Shared {
    pub(super) script: Script,
    personality: Personality,
    pub(super) requests: Mutex<Vec<Value>>,
    /// For each chat request answered without a fault, its number in
    /// `requests` and the reply the "model" generated after it, as an
    /// assistant message: what a server's prefix cache holds next.
    replies: Mutex<Vec<(usize, Value)>>,
    seen: Mutex<HashMap<u64, usize>>,
    /// Chat requests so far, for a personality's every-n-th faults.
    calls: AtomicUsize,
}

/// A running fake server; stops when dropped.
pub struct FakeOllama {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeOllama {
    pub fn from_fixture(name: &str) -> FakeOllama {
        FakeOllama::start(load_script(name), Personality::default())
    }

    /// A script played by a personality of `fixtures/personalities/`.
    pub fn with_personality(script: &str, personality: &str) -> FakeOllama {
        FakeOllama::start(load_script(script), personality::load(personality))
    }

    pub fn start(script: Script, personality: Personality) -> FakeOllama {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener
            .set_nonblocking(true)
            .expect("nonblocking listener");
        let addr = listener.local_addr().expect("local address");
        let shared = Arc::new(Shared {
            script,
            personality,
            requests: Mutex::new(Vec::new()),
            replies: Mutex::new(Vec::new()),
            seen: Mutex::new(HashMap::new()),
            calls: AtomicUsize::new(0),
        });
        let app = Router::new()
            .route("/", get(|| async { "Ollama is running" }))
            .route(
                "/api/version",
                get(|| async { axum::Json(json!({"version": "0.12.6"})) }),
            )
            .route("/api/tags", get(tags))
            .route("/api/show", post(show))
            .route("/api/chat", post(chat))
            .route(
                "/v1/chat/completions",
                post(super::fake_openai::chat_completions),
            )
            .route("/v1/models", get(super::fake_openai::models))
            .route("/props", get(super::fake_openai::props))
            .with_state(shared.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("server runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                let server = axum::serve(listener, app);
                tokio::select! {
                    _ = server => {}
                    _ = rx => {}
                }
            });
        });
        FakeOllama {
            addr,
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn model(&self) -> &str {
        &self.shared.script.model
    }

    /// Every request body received so far, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().expect("requests").clone()
    }

    /// Every chat request received so far, in order, each with the reply
    /// generated after it (`None` where a fault was served instead).
    pub fn chats(&self) -> Vec<(Value, Option<Value>)> {
        let requests = self.requests();
        let replies = self.shared.replies.lock().expect("replies").clone();
        requests
            .into_iter()
            .enumerate()
            .filter(|(_, request)| request.get("messages").is_some())
            .map(|(at, request)| {
                let reply = replies
                    .iter()
                    .find(|(n, _)| *n == at)
                    .map(|(_, r)| r.clone());
                (request, reply)
            })
            .collect()
    }

    /// The chat requests of the rounds (not decomposition, not reflection:
    /// those ask for structured output; JSON tool mode's rounds do too, for
    /// a choice of tool calls).
    pub fn round_requests(&self) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.get("messages").is_some()
                    && requested_format(r).is_none_or(|f| f["anyOf"].is_array())
            })
            .collect()
    }
}

impl Drop for FakeOllama {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub(super) fn error(status: u16, message: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(json!({ "error": message }))).into_response()
}

async fn tags(State(shared): State<Arc<Shared>>) -> Response {
    axum::Json(json!({
        "models": [{
            "name": shared.script.model,
            "model": shared.script.model,
            "modified_at": "2026-11-01T00:00:00Z",
            "size": 1_000_000_000u64,
            "digest": "sha256:0",
        }]
    }))
    .into_response()
}

async fn show(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or_default();
    shared
        .requests
        .lock()
        .expect("requests")
        .push(request.clone());
    let name = request["model"]
        .as_str()
        .or(request["name"].as_str())
        .unwrap_or("");
    if name != shared.script.model {
        return error(404, &format!("model '{name}' not found"));
    }
    if shared.script.hide_capabilities {
        return axum::Json(json!({
            "modelfile": "FROM fake",
            "parameters": "",
            "template": "{{ .Prompt }}",
            "details": { "family": "fake" },
            "model_info": { "fake.context_length": shared.script.context_length },
        }))
        .into_response();
    }
    axum::Json(json!({
        "modelfile": "FROM fake",
        "parameters": "",
        "template": "{{ .Prompt }}",
        "details": { "family": "fake" },
        "model_info": { "fake.context_length": shared.script.context_length },
        "capabilities": shared.script.capabilities,
    }))
    .into_response()
}

async fn chat(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return error(400, "invalid request body");
    };
    shared
        .requests
        .lock()
        .expect("requests")
        .push(request.clone());
    let script = &shared.script;
    let model = request["model"].as_str().unwrap_or("");
    if model != script.model {
        return error(
            404,
            &format!("model '{model}' not found, try pulling it first"),
        );
    }
    let has_tools = request["tools"].as_array().is_some_and(|t| !t.is_empty());
    if has_tools && !script.capabilities.iter().any(|c| c == "tools") {
        return error(
            400,
            &format!("registry.ollama.ai/library/{model} does not support tools"),
        );
    }
    let stream = request["stream"].as_bool().unwrap_or(true);
    let prompt_tokens = body.len() as u64 / script.bytes_per_token.max(1);
    let (reply, fault) = reply_for(&shared, &request, &body);
    if reply.delay_ms > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(reply.delay_ms)).await;
    }
    match fault {
        Some(Fault::Status {
            status,
            error: message,
        }) => error(status, &message),
        Some(Fault::Drop) => broken_body(),
        Some(fault @ (Fault::Cut | Fault::MidError { .. })) => {
            respond(model, &reply, prompt_tokens, true, Some(fault))
        }
        None => respond(model, &reply, prompt_tokens, stream, None),
    }
}

/// The reply to a chat request (in Ollama's shape; `body` is the bytes it
/// came as) and the fault to inject, whichever API it came by.
pub(super) fn reply_for(shared: &Shared, request: &Value, body: &[u8]) -> (Reply, Option<Fault>) {
    let seen = {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        body.hash(&mut hasher);
        let mut seen = shared.seen.lock().expect("seen");
        let count = seen.entry(hasher.finish()).or_insert(0);
        *count += 1;
        *count - 1
    };
    let (mut reply, mut fault) = answer(&shared.script, request, seen);
    let n = shared.calls.fetch_add(1, Ordering::SeqCst) + 1;
    fault = fault.or_else(|| shared.personality.fault(n));
    let json_mode = json_mode(request);
    if request["format"].is_null() || json_mode {
        reply = shared.personality.bend(reply, &request_text(request));
    }
    if json_mode {
        reply = written_as_json(reply);
    }
    if fault.is_none() {
        let at = shared
            .requests
            .lock()
            .expect("requests")
            .len()
            .saturating_sub(1);
        let generated = json!({ "role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls });
        shared
            .replies
            .lock()
            .expect("replies")
            .push((at, generated));
    }
    (reply, fault)
}

fn chunk(model: &str, content: &str, tool_calls: Option<&[Value]>, done: bool) -> Value {
    let mut message = json!({ "role": "assistant", "content": content });
    if let Some(calls) = tool_calls {
        message["tool_calls"] = Value::Array(calls.iter().map(wire_call).collect());
    }
    json!({
        "model": model,
        "created_at": "2026-11-22T00:00:00.000000Z",
        "message": message,
        "done": done,
    })
}

/// A script's tool call (`{"name", "arguments"}`) as Ollama sends it.
fn wire_call(call: &Value) -> Value {
    json!({ "function": { "name": call["name"], "arguments": call["arguments"] } })
}

fn done_fields(value: &mut Value, reply: &Reply, prompt_tokens: u64) {
    let completion =
        (reply.content.len() as u64 + json!(reply.tool_calls).to_string().len() as u64) / 4 + 1;
    value["done_reason"] = json!(reply.done_reason.clone().unwrap_or_else(|| "stop".into()));
    value["total_duration"] = json!(1_000_000u64);
    value["load_duration"] = json!(1_000u64);
    value["prompt_eval_count"] = json!(prompt_tokens);
    value["prompt_eval_duration"] = json!(500_000u64);
    value["eval_count"] = json!(completion);
    value["eval_duration"] = json!(400_000u64);
}

fn respond(
    model: &str,
    reply: &Reply,
    prompt_tokens: u64,
    stream: bool,
    fault: Option<Fault>,
) -> Response {
    if !stream {
        let mut value = chunk(
            model,
            &reply.content,
            Some(&reply.tool_calls)
                .filter(|c| !c.is_empty())
                .map(|c| c.as_slice()),
            true,
        );
        done_fields(&mut value, reply, prompt_tokens);
        return axum::Json(value).into_response();
    }
    // Content a line a chunk (at least one, empty or not), the tool calls in
    // a chunk of their own, then done.
    let mut lines: Vec<Value> = reply
        .content
        .split_inclusive('\n')
        .map(|piece| chunk(model, piece, None, false))
        .collect();
    if lines.is_empty() {
        lines.push(chunk(model, "", None, false));
    }
    if !reply.tool_calls.is_empty() {
        lines.push(chunk(model, "", Some(&reply.tool_calls), false));
    }
    let mut done = chunk(model, "", None, true);
    done_fields(&mut done, reply, prompt_tokens);
    lines.push(done);
    match fault {
        Some(Fault::Cut) => lines.truncate(1),
        Some(Fault::MidError { error }) => {
            lines.truncate(1);
            lines.push(json!({ "error": error }));
        }
        _ => {}
    }
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let chunks: Vec<Result<Bytes, Infallible>> = body
        .split_inclusive('\n')
        .map(|line| Ok(Bytes::from(line.to_string())))
        .collect();
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .body(Body::from_stream(futures_util::stream::iter(chunks)))
        .unwrap_or_else(|_| error(500, "cannot build the response"))
}

/// A 200 whose body fails at once: the client sees the connection die.
pub(super) fn broken_body() -> Response {
    let failing = futures_util::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::other("dropped"))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .body(Body::from_stream(failing))
        .unwrap_or_else(|_| error(500, "cannot build the response"))
}
