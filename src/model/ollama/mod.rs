//! The Ollama client. It speaks through ollama-rs's types (the request with
//! its tools, options and format; the messages and tool calls; the model
//! info) and covers, on purpose, what ollama-rs 0.3.6 drops:
//!
//! 1. The HTTP status of an error: `send_chat_messages` turns every non-2xx
//!    into `OllamaError::Other(body)`. We send its `ChatMessageRequest` with
//!    our own reqwest call and classify by status and body.
//! 2. `done_reason` (is the reply cut at `num_predict`?): not in
//!    `ChatMessageResponse`; our chunk type reads it.
//! 3. Errors in the middle of a stream (`{"error": ...}` after a 200): the
//!    ollama-rs stream prints them to stderr and skips them; we end the call
//!    with the error, and a stream that stops before `done` is a failure too.
//! 4. `tool_name` on tool results: `ChatMessage` has no such field; we add it
//!    to the serialized request.
//! 5. Hosts without a scheme or trailing slash: see [`crate::host`].

use std::time::Duration;

use ollama_rs::Ollama;
use ollama_rs::error::OllamaError;
use ollama_rs::generation::chat::request::ChatMessageRequest;
use ollama_rs::generation::chat::{ChatMessage, MessageRole};
use ollama_rs::generation::parameters::{FormatType, JsonStructure};
use ollama_rs::generation::tools::{ToolCall as WireToolCall, ToolCallFunction, ToolInfo};
use ollama_rs::models::ModelOptions;
use serde_json::{Value, json};

mod stream;

use stream::Reply;

use super::{
    BoxFuture, CONNECT_TIMEOUT, ChatReply, ChatRequest, ClientConfig, Failure, Model, ModelError,
    ModelInfo, ToolSpec,
};
use crate::chat::{Message, Role};

pub struct OllamaClient {
    config: ClientConfig,
    http: reqwest::Client,
    ollama: Ollama,
}

impl OllamaClient {
    pub fn new(config: ClientConfig) -> Result<OllamaClient, ModelError> {
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .build()
            .map_err(|e| server_error(None, &e.to_string(), false))?;
        let url = reqwest::Url::parse(&config.base_url)
            .map_err(|e| server_error(None, &format!("bad host URL: {e}"), false))?;
        let ollama = Ollama::builder()
            .url(url)
            .reqwest_client(http.clone())
            .build();
        Ok(OllamaClient {
            config,
            http,
            ollama,
        })
    }

    /// The version the server reports (`/api/version`).
    pub async fn version(&self) -> Result<String, ModelError> {
        let url = format!("{}api/version", self.config.base_url);
        let response = self
            .http
            .get(url)
            .timeout(self.config.timeout)
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        let status = response.status().as_u16();
        let body = response.text().await.map_err(|e| self.transport_error(e))?;
        if status != 200 {
            return Err(self.classify(Some(status), &body));
        }
        let value: Value = serde_json::from_str(&body)
            .map_err(|e| server_error(Some(status), &format!("bad version reply: {e}"), false))?;
        Ok(value["version"].as_str().unwrap_or("unknown").to_string())
    }

    /// The names of the models pulled (`/api/tags`).
    pub async fn pulled(&self) -> Result<Vec<String>, ModelError> {
        let models = self
            .ollama
            .list_local_models()
            .await
            .map_err(|e| self.ollama_error(e))?;
        Ok(models.into_iter().map(|m| m.name).collect())
    }

    /// The request body: ollama-rs's request, serialized, with the fields it
    /// lacks put in.
    fn wire_request(&self, request: &ChatRequest) -> Result<Value, ModelError> {
        let invalid = |e: serde_json::Error| server_error(None, &e.to_string(), false);
        let messages = request.messages.iter().map(wire_message).collect();
        let mut options = ModelOptions::default()
            .temperature(request.options.temperature)
            .num_ctx(request.options.num_ctx);
        if let Some(limit) = request.options.num_predict {
            options = options.num_predict(limit as i32);
        }
        let mut wire =
            ChatMessageRequest::new(self.config.model.clone(), messages).options(options);
        if !request.tools.is_empty() {
            let tools = request
                .tools
                .iter()
                .map(tool_info)
                .collect::<Result<Vec<_>, _>>()
                .map_err(invalid)?;
            wire = wire.tools(tools);
        }
        if let Some(schema) = &request.format {
            let schema: JsonStructure = serde_json::from_value(schema.clone()).map_err(invalid)?;
            wire = wire.format(FormatType::StructuredJson(Box::new(schema)));
        }
        let mut body = serde_json::to_value(&wire).map_err(invalid)?;
        body["stream"] = Value::Bool(true);
        if let Some(wire_messages) = body["messages"].as_array_mut() {
            for (wire, ours) in wire_messages.iter_mut().zip(&request.messages) {
                if let Some(name) = &ours.tool_name {
                    wire["tool_name"] = Value::String(name.clone());
                }
            }
        }
        Ok(body)
    }

    async fn attempt(&self, body: &Value) -> Result<ChatReply, ModelError> {
        let url = format!("{}api/chat", self.config.base_url);
        let call = async {
            let mut response = self
                .http
                .post(url)
                .json(body)
                .send()
                .await
                .map_err(|e| self.transport_error(e))?;
            let status = response.status().as_u16();
            if status != 200 {
                let body = response.text().await.unwrap_or_default();
                return Err(self.classify(Some(status), &body));
            }
            let mut reply = Reply::default();
            let whole = super::read_lines(
                &mut response,
                |e| self.transport_error(e),
                |line| reply.feed(line).map_err(|m| self.classify(None, &m)),
            )
            .await?;
            if whole {
                return Ok(reply.finish());
            }
            Err(server_error(
                None,
                "the reply stream ended before it was done (the server dropped the connection)",
                true,
            ))
        };
        match tokio::time::timeout(self.config.timeout, call).await {
            Ok(result) => result,
            Err(_) => Err(ModelError::Timeout {
                seconds: self.config.timeout.as_secs(),
            }),
        }
    }

    fn transport_error(&self, error: reqwest::Error) -> ModelError {
        if error.is_timeout() {
            ModelError::Timeout {
                seconds: self.config.timeout.as_secs(),
            }
        } else if error.is_connect() {
            ModelError::Unreachable {
                host: self.config.base_url.clone(),
                detail: root_cause(&error),
            }
        } else {
            server_error(None, &root_cause(&error), true)
        }
    }

    fn ollama_error(&self, error: OllamaError) -> ModelError {
        match error {
            OllamaError::ReqwestError(e) => self.transport_error(e),
            OllamaError::Other(body) => self.classify(None, &body),
            other => server_error(None, &other.to_string(), false),
        }
    }

    /// Turns an error answer into a [`ModelError`] by its status and the
    /// message Ollama puts in `{"error": ...}`.
    fn classify(&self, status: Option<u16>, body: &str) -> ModelError {
        let message = serde_json::from_str::<Value>(body)
            .ok()
            .and_then(|v| v["error"].as_str().map(str::to_string))
            .unwrap_or_else(|| body.trim().chars().take(300).collect());
        let lower = message.to_lowercase();
        if super::refuses_tools(&message) {
            return ModelError::NoTools {
                model: self.config.model.clone(),
            };
        }
        if super::tool_parse_failed(&message) {
            return ModelError::ToolParse { message };
        }
        let mentions_model = lower.contains("model") && lower.contains("not found");
        if mentions_model
            || (status == Some(404) && lower.contains("not found") && body.contains("error"))
        {
            return ModelError::NotFound {
                model: self.config.model.clone(),
                host: self.config.base_url.clone(),
            };
        }
        let transient = match status {
            Some(code) => code >= 500 || code == 429 || code == 408,
            // An error inside a stream: the runner died or ran out of memory.
            None => true,
        };
        let message = if status == Some(404) {
            format!(
                "{message} (is {} an Ollama server? For an OpenAI-compatible server use --api openai)",
                self.config.base_url
            )
        } else {
            message
        };
        server_error(status, &message, transient)
    }
}

pub(super) fn server_error(status: Option<u16>, message: &str, transient: bool) -> ModelError {
    ModelError::Server {
        status,
        message: message.to_string(),
        transient,
    }
}

/// The innermost cause: reqwest's own message is "error sending request".
pub(super) fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

impl Model for OllamaClient {
    fn chat<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatReply, Failure>> {
        Box::pin(async move {
            let body = self
                .wire_request(request)
                .map_err(|error| Failure { error, retries: 0 })?;
            let (mut reply, retries) = self.config.retry.run(|| self.attempt(&body)).await?;
            reply.retries = retries;
            Ok(reply)
        })
    }

    fn info(&self) -> BoxFuture<'_, Result<ModelInfo, ModelError>> {
        Box::pin(async move {
            let info = tokio::time::timeout(
                self.config.timeout.min(Duration::from_secs(60)),
                self.ollama.show_model_info(self.config.model.clone()),
            )
            .await
            .map_err(|_| ModelError::Timeout { seconds: 60 })?
            .map_err(|e| self.ollama_error(e))?;
            let context_length = info
                .model_info
                .iter()
                .find(|(key, _)| key.ends_with(".context_length"))
                .and_then(|(_, value)| value.as_u64());
            Ok(ModelInfo {
                capabilities: info.capabilities,
                context_length,
            })
        })
    }
}

fn wire_message(message: &Message) -> ChatMessage {
    let role = match message.role {
        Role::System => MessageRole::System,
        Role::User => MessageRole::User,
        Role::Assistant => MessageRole::Assistant,
        Role::Tool => MessageRole::Tool,
    };
    let mut wire = ChatMessage::new(role, message.content.clone());
    wire.tool_calls = message
        .tool_calls
        .iter()
        .map(|call| WireToolCall {
            function: ToolCallFunction {
                name: call.name.clone(),
                arguments: call.arguments.clone(),
            },
        })
        .collect();
    wire
}

fn tool_info(spec: &ToolSpec) -> Result<ToolInfo, serde_json::Error> {
    serde_json::from_value(json!({
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.parameters,
        }
    }))
}

#[cfg(test)]
mod tests;
