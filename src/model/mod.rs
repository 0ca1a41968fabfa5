//! The model behind a small trait, and its clients. The loop sees only
//! [`Model`]; retries and error classification live here.

pub mod json_mode;
pub mod ollama;
pub mod openai;
pub mod retry;
pub mod runaway;
pub mod text_calls;
pub mod tool_mode;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde_json::Value;

use crate::chat::{Message, ToolCall, Usage};

pub use retry::RetryPolicy;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub use crate::chat::ToolSpec;

/// Sampling and size settings sent with every call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    pub temperature: f32,
    /// The context window the server must allocate. Always sent: Ollama's
    /// default is small and it cuts a longer prompt silently.
    pub num_ctx: u64,
    /// A cap on the reply's tokens, so a model that runs on stops.
    pub num_predict: Option<u32>,
}

/// Reads a streamed body a line at a time into `take` until it says the
/// reply is whole (`Ok(true)`); `Ok(false)` when the body ended first (its
/// last line, without a line break, given too). Only the new bytes are
/// searched for the end of a line: a line of 50 MB (an oversized tool
/// call) arrives in thousands of chunks, and searching it whole each time
/// is quadratic. Returning drops nothing: the caller drops the response,
/// and with it the connection, which stops the server's generation.
async fn read_lines<E>(
    response: &mut reqwest::Response,
    transport: impl Fn(reqwest::Error) -> E,
    mut take: impl FnMut(&[u8]) -> Result<bool, E>,
) -> Result<bool, E> {
    let mut buffer = Vec::new();
    while let Some(bytes) = response.chunk().await.map_err(&transport)? {
        let mut from = buffer.len();
        buffer.extend_from_slice(&bytes);
        while let Some(end) = buffer[from..].iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buffer.drain(..=from + end).collect();
            from = 0;
            if take(&line)? {
                return Ok(true);
            }
        }
    }
    match buffer.is_empty() {
        true => Ok(false),
        false => take(&buffer),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    /// A JSON schema the reply must follow (structured output).
    pub format: Option<Value>,
    pub options: Options,
}

impl ChatRequest {
    /// Bytes of text in the prompt: what the model is sent, for budgets and
    /// benchmarks.
    pub fn size(&self) -> usize {
        self.messages.iter().map(Message::size).sum()
    }

    /// An answer asked for in a round's prefix: the tool schemas are sent
    /// so that the prompt starts as a round's does (a chat template puts
    /// them in the system turn, where the server's prefix cache keeps
    /// them), and the reply is held to `format`, which leaves no room for
    /// a tool call. See [`crate::agent::prompt::answer_request`].
    pub fn is_answer(&self) -> bool {
        !self.tools.is_empty() && self.format.is_some()
    }

    /// The request without its tool schemas: an answer for a server that
    /// refuses tools and a format together.
    pub fn without_tools(&self) -> ChatRequest {
        ChatRequest {
            tools: Vec::new(),
            ..self.clone()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatReply {
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    /// Why generation stopped (`stop`, `length`), when the server says.
    pub done_reason: Option<String>,
    /// Transient failures retried before this reply came.
    pub retries: u32,
    /// One-line notices for the user about how the call was made (a switch
    /// to JSON tool mode); the loop hands them to its reporter.
    pub notices: Vec<String>,
}

/// What the server says about the model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelInfo {
    pub capabilities: Vec<String>,
    pub context_length: Option<u64>,
}

/// Why a model call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    #[error(
        "cannot reach the model server at {host} ({detail}): start it with `ollama serve` \
         (or llama-server, LM Studio, vLLM with --api openai), or point --host / OLLAMA_HOST at it"
    )]
    Unreachable { host: String, detail: String },
    #[error(
        "the model {model:?} is not available on {host}: pull it with `ollama pull {model}` \
         (with --api openai, give --model as the server lists it under /v1/models)"
    )]
    NotFound { model: String, host: String },
    #[error(
        "the model {model:?} does not support tools: run with --tool-mode json (or auto), which \
         asks for tool calls through structured output, or use one that calls tools, such as \
         qwen3, gpt-oss or llama3.1 (`ollama pull qwen3`)"
    )]
    NoTools { model: String },
    /// The server could not parse the tool call the model wrote. Not retried
    /// blindly: the loop asks the model again with a correction.
    #[error("the server could not parse the model's tool call: {message}")]
    ToolParse { message: String },
    #[error("the model server answered {}: {message}", status.map(|s| format!("HTTP {s}")).unwrap_or_else(|| "an error".into()))]
    Server {
        status: Option<u16>,
        message: String,
        transient: bool,
    },
    #[error(
        "the model did not answer within {seconds} s (raise --model-timeout for a slow machine)"
    )]
    Timeout { seconds: u64 },
}

impl ModelError {
    /// Worth trying again after a pause.
    pub fn is_transient(&self) -> bool {
        match self {
            ModelError::Unreachable { .. } | ModelError::Timeout { .. } => true,
            ModelError::Server { transient, .. } => *transient,
            _ => false,
        }
    }
}

/// A failed call and the retries spent on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub error: ModelError,
    pub retries: u32,
}

/// A chat model.
pub trait Model: Send + Sync {
    /// One chat call, retried on transient failures.
    fn chat<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatReply, Failure>>;
    /// Capabilities and context length, when the server tells them.
    fn info(&self) -> BoxFuture<'_, Result<ModelInfo, ModelError>>;
}

/// Settings every client takes.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Base URL ending in `/`.
    pub base_url: String,
    pub model: String,
    pub retry: RetryPolicy,
    /// The longest one call may take.
    pub timeout: Duration,
}

/// Seconds to establish a connection: a server that does not accept within
/// this is down or unreachable, and waiting longer only delays the retry.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Which HTTP API the model server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Api {
    /// Ollama's own `/api/chat`: `num_ctx` is sent, capabilities are known.
    #[default]
    Ollama,
    /// The OpenAI chat API (`/v1/chat/completions`) of llama-server, LM
    /// Studio, vLLM, and Ollama under `/v1`.
    OpenAi,
}

/// A server's error message says the model or the server takes no `tools`:
/// Ollama ("... does not support tools"), llama-server without `--jinja`
/// ("tools param requires --jinja flag"), vLLM without auto tool choice
/// ("\"auto\" tool choice requires --enable-auto-tool-choice ..."). Only
/// these explicit messages count: a bare 400 is as often a bad request.
pub(crate) fn refuses_tools(message: &str) -> bool {
    let lower = message.to_lowercase();
    lower.contains("does not support tools")
        || lower.contains("tools param requires --jinja")
        || lower.contains("enable-auto-tool-choice")
}

/// A server's error message says it could not parse the tool call the model
/// wrote: Ollama ("error parsing tool call"), llama-server and LM Studio
/// ("... does not match the expected peg-native format").
pub(crate) fn tool_parse_failed(message: &str) -> bool {
    let lower = message.to_lowercase();
    lower.contains("error parsing tool call")
        || lower.contains("failed to parse tool call")
        || lower.contains("peg-native format")
}
