//! The client for OpenAI-compatible servers (`/v1/chat/completions`):
//! llama.cpp's llama-server, LM Studio, vLLM, and Ollama under `/v1`. The
//! same retries and error classes as the Ollama client; tokens from `usage`;
//! `finish_reason: "length"` reported as Ollama's `done_reason` is.
//!
//! These servers size the context when they start (`-c`, `--max-model-len`),
//! so `num_ctx` is not sent; the model's context is read from the server
//! when it tells it (vLLM's `max_model_len`, llama-server's `/props`).

mod wire;

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use super::ollama::{root_cause, server_error};
use super::{
    BoxFuture, CONNECT_TIMEOUT, ChatReply, ChatRequest, ClientConfig, Failure, Model, ModelError,
    ModelInfo,
};

/// A key for a server that wants one (`Authorization: Bearer`). It is never
/// printed: its `Debug` is a placeholder, and the client cuts it out of any
/// message a server echoes it in.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(hidden)")
    }
}

impl ApiKey {
    /// `--api-key`: the key itself, or `env:NAME` to read it from the
    /// environment variable NAME (so it is not on the command line, where
    /// other users of the machine can see it in `ps`).
    pub fn from_arg(given: &str) -> Result<ApiKey, String> {
        let key = match given.strip_prefix("env:") {
            Some(name) => std::env::var(name).map_err(|_| {
                format!("the environment variable {name} is not set: export it, or pass the key")
            })?,
            None => given.to_string(),
        };
        let key = key.trim().to_string();
        if key.is_empty() {
            return Err("the API key is empty".into());
        }
        Ok(ApiKey(key))
    }

    /// `text` with the key cut out.
    fn redact(&self, text: &str) -> String {
        text.replace(&self.0, "[api key]")
    }
}

/// The base URL of the API: the host as [`crate::host::parse`] gives it,
/// with `v1/` added unless it already ends in it.
pub fn base_url(host: &str) -> String {
    if host.ends_with("/v1/") {
        host.to_string()
    } else {
        format!("{host}v1/")
    }
}

pub struct OpenAiClient {
    config: ClientConfig,
    http: reqwest::Client,
    key: Option<ApiKey>,
    /// Whether replies are asked for streamed: until the server refuses a
    /// streamed request (see [`refuses_streaming`]).
    streams: AtomicBool,
}

impl OpenAiClient {
    /// `config.base_url` is the host (`http://h:p/` or with a prefix); the
    /// `/v1` part is added when missing.
    pub fn new(mut config: ClientConfig, key: Option<ApiKey>) -> Result<OpenAiClient, ModelError> {
        config.base_url = base_url(&config.base_url);
        reqwest::Url::parse(&config.base_url)
            .map_err(|e| server_error(None, &format!("bad host URL: {e}"), false))?;
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .build()
            .map_err(|e| server_error(None, &e.to_string(), false))?;
        Ok(OpenAiClient {
            config,
            http,
            key,
            streams: AtomicBool::new(true),
        })
    }

    fn authorized(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.key {
            // bearer_auth marks the header sensitive: it is not shown in Debug.
            Some(key) => request.bearer_auth(&key.0),
            None => request,
        }
    }

    async fn attempt(&self, body: &Value) -> Result<ChatReply, ModelError> {
        let url = format!("{}chat/completions", self.config.base_url);
        let call = async {
            let mut response = self
                .authorized(self.http.post(url))
                .json(body)
                .send()
                .await
                .map_err(|e| self.transport_error(e))?;
            let status = response.status().as_u16();
            let events = response
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("text/event-stream"));
            if status == 200 && events {
                return self.streamed(&mut response).await;
            }
            let text = response.text().await.map_err(|e| self.transport_error(e))?;
            if status != 200 {
                return Err(self.classify(status, &text));
            }
            wire::reply(&text).map_err(|why| match serde_json::from_str::<Value>(&text) {
                // A 200 that carries an error (some proxies answer so).
                Ok(value) if !value["error"].is_null() => self.classify(500, &text),
                _ => server_error(Some(status), &self.redacted(&why), false),
            })
        };
        match tokio::time::timeout(self.config.timeout, call).await {
            Ok(result) => result,
            Err(_) => Err(ModelError::Timeout {
                seconds: self.config.timeout.as_secs(),
            }),
        }
    }

    /// The reply of a server-sent event stream, read until it is whole or
    /// repeats itself; the stream is dropped then, and the server stops
    /// generating when its client goes.
    async fn streamed(&self, response: &mut reqwest::Response) -> Result<ChatReply, ModelError> {
        let mut reply = wire::Streamed::default();
        let whole = super::read_lines(
            response,
            |e| self.transport_error(e),
            |line| {
                let line = String::from_utf8_lossy(line);
                reply.feed(&line).map_err(|body| self.classify(500, &body))
            },
        )
        .await?;
        if whole || reply.finished() {
            return Ok(reply.finish());
        }
        Err(server_error(
            None,
            "the reply stream ended before it was done (the server dropped the connection)",
            true,
        ))
    }

    fn redacted(&self, text: &str) -> String {
        match &self.key {
            Some(key) => key.redact(text),
            None => text.to_string(),
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
                detail: self.redacted(&root_cause(&error)),
            }
        } else {
            server_error(None, &self.redacted(&root_cause(&error)), true)
        }
    }

    /// An error answer as a [`ModelError`], by its status and message.
    fn classify(&self, status: u16, body: &str) -> ModelError {
        let message = self.redacted(&wire::error_message(body));
        let lower = message.to_lowercase();
        if super::refuses_tools(&message) {
            return ModelError::NoTools {
                model: self.config.model.clone(),
            };
        }
        if super::tool_parse_failed(&message) {
            return ModelError::ToolParse { message };
        }
        let names_model = lower.contains("model")
            && (lower.contains("not found") || lower.contains("does not exist"));
        if status == 404 && names_model {
            return ModelError::NotFound {
                model: self.config.model.clone(),
                host: self.config.base_url.clone(),
            };
        }
        let message = match status {
            401 | 403 => format!(
                "{message} (the server wants an API key: pass --api-key env:NAME or set \
                 RUNNER_API_KEY)"
            ),
            404 => format!(
                "{message} (is {} an OpenAI-compatible server? For Ollama's own API use --api \
                 ollama)",
                self.config.base_url
            ),
            _ => message,
        };
        let transient = status >= 500 || status == 429 || status == 408;
        server_error(Some(status), &message, transient)
    }

    /// A GET of `url` as JSON; `None` when it does not answer 200 with JSON.
    async fn get_json(&self, url: String) -> Result<Option<Value>, ModelError> {
        let response = self
            .authorized(self.http.get(url))
            .timeout(self.config.timeout.min(std::time::Duration::from_secs(60)))
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        if response.status().as_u16() != 200 {
            return Ok(None);
        }
        Ok(response.json::<Value>().await.ok())
    }
}

impl Model for OpenAiClient {
    fn chat<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatReply, Failure>> {
        Box::pin(async move {
            let streams = self.streams.load(Ordering::Relaxed);
            let body = wire::request(&self.config.model, request, streams);
            // With -v, what the model was sent, whole: to see why it answered so.
            tracing::debug!(%body, "chat request");
            let (mut reply, retries) = match self.config.retry.run(|| self.attempt(&body)).await {
                Err(failure) if streams && refuses_streaming(&failure.error) => {
                    tracing::warn!(error = %failure.error, "the server refuses streaming; asking without");
                    self.streams.store(false, Ordering::Relaxed);
                    let body = wire::request(&self.config.model, request, false);
                    self.config.retry.run(|| self.attempt(&body)).await?
                }
                result => result?,
            };
            reply.retries = retries;
            Ok(reply)
        })
    }

    /// The model's context, when the server says it, and whether its chat
    /// template takes tools, when llama-server says it; the other servers
    /// do not, so auto tool mode tries native calls first there.
    fn info(&self) -> BoxFuture<'_, Result<ModelInfo, ModelError>> {
        Box::pin(async move {
            let models = self
                .get_json(format!("{}models", self.config.base_url))
                .await?;
            let listed = models
                .as_ref()
                .and_then(|m| m["data"].as_array())
                .cloned()
                .unwrap_or_default();
            let ours = listed
                .iter()
                .find(|m| m["id"].as_str() == Some(self.config.model.as_str()))
                .or(if listed.len() == 1 {
                    listed.first()
                } else {
                    None
                });
            let mut context_length = ours.and_then(|m| {
                m["max_model_len"]
                    .as_u64()
                    .or_else(|| m["meta"]["n_ctx"].as_u64())
            });
            let root = self.config.base_url.trim_end_matches("v1/");
            let props = self.get_json(format!("{root}props")).await?;
            let props = props.as_ref().unwrap_or(&Value::Null);
            if context_length.is_none() {
                context_length = props["default_generation_settings"]["n_ctx"].as_u64();
            }
            Ok(ModelInfo {
                capabilities: template_capabilities(props),
                context_length,
            })
        })
    }
}

/// llama-server's `/props` tells what the model's chat template can do:
/// as Ollama's capabilities, `tools` when it renders tool calls.
/// Whether a server's error says it does not take a streamed request (or
/// `stream_options`): a 4xx that names streaming.
fn refuses_streaming(error: &ModelError) -> bool {
    match error {
        ModelError::Server {
            status: Some(status),
            message,
            ..
        } => (400..500).contains(status) && message.to_lowercase().contains("stream"),
        _ => false,
    }
}

fn template_capabilities(props: &Value) -> Vec<String> {
    let caps = &props["chat_template_caps"];
    match caps["supports_tool_calls"].as_bool() {
        Some(true) => vec!["completion".into(), "tools".into()],
        Some(false) => vec!["completion".into()],
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RetryPolicy;
    use std::time::Duration;

    fn client(key: Option<&str>) -> OpenAiClient {
        OpenAiClient::new(
            ClientConfig {
                base_url: "http://127.0.0.1:9/".into(),
                model: "m".into(),
                retry: RetryPolicy::default(),
                timeout: Duration::from_secs(1),
            },
            key.map(|k| ApiKey(k.into())),
        )
        .unwrap()
    }

    #[test]
    fn hosts_get_v1_once() {
        for (host, want) in [
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1/"),
            ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/"),
            ("https://h:443/proxy/", "https://h:443/proxy/v1/"),
            ("https://h:443/proxy/v1/", "https://h:443/proxy/v1/"),
        ] {
            assert_eq!(base_url(host), want, "for {host}");
        }
        let parsed = crate::host::parse("localhost:1234/v1").unwrap();
        assert_eq!(base_url(&parsed), "http://localhost:1234/v1/");
    }

    #[test]
    fn errors_are_classified_like_ollamas() {
        let c = client(None);
        let body = |m: &str| serde_json::json!({"error": {"message": m, "type": "x"}}).to_string();
        let cases = [
            (
                400,
                "registry.ollama.ai/library/gemma3:1b does not support tools",
            ),
            (500, "tools param requires --jinja flag"),
            (
                400,
                "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",
            ),
        ];
        for (status, message) in cases {
            assert!(
                matches!(
                    c.classify(status, &body(message)),
                    ModelError::NoTools { .. }
                ),
                "{message}"
            );
        }
        let peg = "The model produced output that does not match the expected peg-native format";
        assert!(matches!(
            c.classify(500, &body(peg)),
            ModelError::ToolParse { .. }
        ));
        assert!(matches!(
            c.classify(404, &body("The model `m` does not exist.")),
            ModelError::NotFound { .. }
        ));
        assert!(c.classify(500, &body("slot unavailable")).is_transient());
        assert!(c.classify(503, "<html>Loading model</html>").is_transient());
        assert!(c.classify(429, &body("busy")).is_transient());
        assert!(
            !c.classify(400, &body("the request exceeds the available context size"))
                .is_transient()
        );
        let unknown_route = c.classify(404, "404 page not found").to_string();
        assert!(unknown_route.contains("--api ollama"), "{unknown_route}");
    }

    #[test]
    fn the_key_never_shows() {
        let c = client(Some("sk-very-secret"));
        assert_eq!(format!("{:?}", c.key), "Some(ApiKey(hidden))");
        let error = c
            .classify(
                401,
                r#"{"error":{"message":"Incorrect API key provided: sk-very-secret"}}"#,
            )
            .to_string();
        assert!(!error.contains("sk-very-secret"), "{error}");
        assert!(error.contains("--api-key"), "{error}");
    }

    #[test]
    fn a_key_comes_from_the_argument_or_the_environment() {
        assert_eq!(ApiKey::from_arg(" abc ").unwrap(), ApiKey("abc".into()));
        assert!(ApiKey::from_arg("").is_err());
        let missing = ApiKey::from_arg("env:RUNNER_TEST_SURELY_UNSET_VARIABLE").unwrap_err();
        assert!(
            missing.contains("RUNNER_TEST_SURELY_UNSET_VARIABLE"),
            "{missing}"
        );
        let path = ApiKey::from_arg("env:PATH").unwrap();
        assert_eq!(path.0, std::env::var("PATH").unwrap().trim());
    }
}
