//! How tool calls are asked for: natively (`tools` in the request) or in
//! JSON mode (see [`super::json_mode`]). A [`Model`] around the client, so
//! the loop never knows which: `auto` picks native when the server lists
//! `tools` among the model's capabilities and JSON when it lists others; when
//! it says nothing, native is tried, and a refusal ("does not support tools")
//! switches to JSON mode for the rest of the run and asks again, with a
//! one-line notice.

use std::sync::Mutex;

use super::{BoxFuture, ChatReply, ChatRequest, Failure, Model, ModelError, ModelInfo, json_mode};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolMode {
    /// Native when the model supports tools, JSON otherwise.
    #[default]
    Auto,
    Native,
    Json,
}

/// What auto mode knows so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    /// Nothing asked yet.
    Unknown,
    /// Asked, and the server did not say: try native.
    Unsaid,
    Native,
    Json,
}

struct Inner {
    choice: Choice,
    /// Notices not handed out yet.
    notices: Vec<String>,
    /// The server refused an answer with the tools' schemas.
    answers_alone: bool,
}

/// A client whose tool calls go natively or through JSON mode.
pub struct ToolModel {
    client: Box<dyn Model>,
    mode: ToolMode,
    model: String,
    inner: Mutex<Inner>,
}

impl ToolModel {
    pub fn new(client: Box<dyn Model>, mode: ToolMode, model: &str) -> ToolModel {
        let choice = match mode {
            ToolMode::Auto => Choice::Unknown,
            ToolMode::Native => Choice::Native,
            ToolMode::Json => Choice::Json,
        };
        ToolModel {
            client,
            mode,
            model: model.to_string(),
            inner: Mutex::new(Inner {
                choice,
                notices: Vec::new(),
                answers_alone: false,
            }),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        // A panic while the lock was held cannot leave `Inner` half-changed
        // (every change is one assignment or push), so a poisoned lock is
        // still good to use.
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut inner)
    }

    /// Auto mode's choice from what the server said about the model.
    fn learn(&self, info: &Result<ModelInfo, ModelError>) {
        let capabilities = match info {
            Ok(info) if !info.capabilities.is_empty() => &info.capabilities,
            _ => {
                self.with(|inner| {
                    if inner.choice == Choice::Unknown {
                        inner.choice = Choice::Unsaid;
                    }
                });
                return;
            }
        };
        let native = capabilities.iter().any(|c| c == "tools");
        self.with(|inner| {
            if inner.choice != Choice::Unknown && inner.choice != Choice::Unsaid {
                return;
            }
            if native {
                inner.choice = Choice::Native;
            } else {
                inner.choice = Choice::Json;
                inner.notices.push(format!(
                    "the model {:?} does not list tool support (its capabilities: {}); asking for \
                     tool calls as JSON through structured output (--tool-mode json)",
                    self.model,
                    capabilities.join(", ")
                ));
            }
        });
        tracing::info!(model = %self.model, ?capabilities, choice = ?self.with(|i| i.choice), "tool mode");
    }

    async fn json_chat(&self, request: &ChatRequest) -> Result<ChatReply, Failure> {
        let reply = self.client.chat(&json_mode::request(request)).await?;
        match request.is_answer() {
            true => Ok(reply),
            false => Ok(json_mode::reply(reply)),
        }
    }

    /// An answer in a round's prefix (see [`ChatRequest::is_answer`]); sent
    /// without the tools when the server refuses tools and a format
    /// together (Ollama did for some models), from then on. A model without
    /// tools is told apart as for a round (JSON mode, or the error of
    /// `--tool-mode native`).
    async fn answer(&self, request: &ChatRequest) -> Result<ChatReply, Failure> {
        if !self.with(|inner| inner.answers_alone) {
            match self.tool_chat(request).await {
                Err(Failure {
                    error:
                        error @ (ModelError::Server {
                            transient: false, ..
                        }
                        | ModelError::ToolParse { .. }),
                    retries,
                }) => {
                    tracing::info!(%error, "an answer with the tools' schemas failed: asking without them from now on");
                    self.with(|inner| inner.answers_alone = true);
                    let mut result = self.client.chat(&request.without_tools()).await;
                    match &mut result {
                        Ok(reply) => reply.retries += retries,
                        Err(failure) => failure.retries += retries,
                    }
                    return result;
                }
                other => return other,
            }
        }
        self.client.chat(&request.without_tools()).await
    }

    async fn tool_chat(&self, request: &ChatRequest) -> Result<ChatReply, Failure> {
        if self.with(|inner| inner.choice) == Choice::Unknown {
            let info = self.client.info().await;
            self.learn(&info);
        }
        if self.with(|inner| inner.choice) == Choice::Json {
            return self.json_chat(request).await;
        }
        match self.client.chat(request).await {
            Err(Failure {
                error: ModelError::NoTools { .. },
                retries,
            }) if self.mode == ToolMode::Auto => {
                self.with(|inner| {
                    inner.choice = Choice::Json;
                    inner.notices.push(format!(
                        "the server says the model {:?} does not support tools; asking for tool \
                         calls as JSON through structured output from now on (--tool-mode json)",
                        self.model
                    ));
                });
                tracing::info!(model = %self.model, "no native tools: switched to JSON tool mode");
                let mut result = self.json_chat(request).await;
                match &mut result {
                    Ok(reply) => reply.retries += retries,
                    Err(failure) => failure.retries += retries,
                }
                result
            }
            other => other,
        }
    }
}

impl Model for ToolModel {
    fn chat<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatReply, Failure>> {
        Box::pin(async move {
            // Decomposition and reflection ask for structured output without
            // tools: the same in every mode.
            if request.tools.is_empty() {
                return self.client.chat(request).await;
            }
            if request.is_answer() {
                // Its notices wait for a round's reply, which the user sees.
                return self.answer(request).await;
            }
            let mut reply = self.tool_chat(request).await?;
            reply
                .notices
                .extend(self.with(|inner| std::mem::take(&mut inner.notices)));
            Ok(reply)
        })
    }

    fn info(&self) -> BoxFuture<'_, Result<ModelInfo, ModelError>> {
        Box::pin(async move {
            let info = self.client.info().await;
            if self.mode == ToolMode::Auto {
                self.learn(&info);
            }
            info
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{Message, ToolCall};
    use crate::model::Options;
    use crate::tools;
    use serde_json::json;
    use std::sync::Arc;

    /// A model that answers natively or refuses tools, and keeps what it got.
    struct Scripted {
        capabilities: Vec<String>,
        takes_tools: bool,
        /// Refuses tools and a format together, as Ollama did for some
        /// models ("failed to parse grammar").
        refuses_answers: bool,
        seen: Arc<Mutex<Vec<ChatRequest>>>,
    }

    impl Model for Scripted {
        fn chat<'a>(
            &'a self,
            request: &'a ChatRequest,
        ) -> BoxFuture<'a, Result<ChatReply, Failure>> {
            Box::pin(async move {
                self.seen.lock().unwrap().push(request.clone());
                if !request.tools.is_empty() && !self.takes_tools {
                    return Err(Failure {
                        error: ModelError::NoTools { model: "m".into() },
                        retries: 1,
                    });
                }
                let asked = request.format.as_ref().filter(|f| f.get("anyOf").is_none());
                if asked.is_some() && !request.tools.is_empty() && self.refuses_answers {
                    return Err(Failure {
                        error: ModelError::Server {
                            status: Some(400),
                            message: "failed to parse grammar".into(),
                            transient: false,
                        },
                        retries: 0,
                    });
                }
                if asked.is_some() {
                    return Ok(ChatReply {
                        content: r#"{"tasks": []}"#.into(),
                        ..ChatReply::default()
                    });
                }
                let call = json!({"name": "list_dir", "arguments": {"path": "."}});
                Ok(if request.tools.is_empty() {
                    ChatReply {
                        content: call.to_string(),
                        ..ChatReply::default()
                    }
                } else {
                    ChatReply {
                        tool_calls: vec![ToolCall {
                            name: "list_dir".into(),
                            arguments: json!({"path": "."}),
                        }],
                        ..ChatReply::default()
                    }
                })
            })
        }

        fn info(&self) -> BoxFuture<'_, Result<ModelInfo, ModelError>> {
            Box::pin(async move {
                Ok(ModelInfo {
                    capabilities: self.capabilities.clone(),
                    context_length: None,
                })
            })
        }
    }

    fn model(
        mode: ToolMode,
        capabilities: &[&str],
        takes_tools: bool,
    ) -> (ToolModel, Arc<Mutex<Vec<ChatRequest>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let client = Scripted {
            capabilities: capabilities.iter().map(|c| c.to_string()).collect(),
            takes_tools,
            refuses_answers: false,
            seen: seen.clone(),
        };
        (ToolModel::new(Box::new(client), mode, "m"), seen)
    }

    fn round() -> ChatRequest {
        ChatRequest {
            messages: vec![Message::system("s"), Message::user("u")],
            tools: tools::specs().to_vec(),
            format: None,
            options: Options {
                temperature: 0.2,
                num_ctx: 4096,
                num_predict: None,
            },
        }
    }

    /// Whether each request the client got went natively.
    fn natively(seen: &Mutex<Vec<ChatRequest>>) -> Vec<bool> {
        let seen = seen.lock().unwrap();
        seen.iter().map(|r| !r.tools.is_empty()).collect()
    }

    #[tokio::test]
    async fn auto_follows_the_capabilities() {
        let (tooled, seen) = model(ToolMode::Auto, &["completion", "tools"], true);
        let reply = tooled.chat(&round()).await.unwrap();
        assert_eq!(reply.tool_calls[0].name, "list_dir");
        assert!(reply.notices.is_empty());
        assert_eq!(natively(&seen), [true]);

        let (json, seen) = model(ToolMode::Auto, &["completion"], false);
        json.info().await.unwrap();
        let reply = json.chat(&round()).await.unwrap();
        assert_eq!(reply.tool_calls[0].name, "list_dir");
        assert_eq!(reply.notices.len(), 1, "{:?}", reply.notices);
        assert!(reply.notices[0].contains("does not list tool support"));
        let again = json.chat(&round()).await.unwrap();
        assert!(again.notices.is_empty(), "the notice is given once");
        assert_eq!(natively(&seen), [false, false]);
    }

    #[tokio::test]
    async fn auto_falls_back_to_json_when_tools_are_refused() {
        let (tooled, seen) = model(ToolMode::Auto, &[], false);
        let reply = tooled.chat(&round()).await.unwrap();
        assert_eq!(reply.tool_calls[0].name, "list_dir");
        assert_eq!(reply.retries, 1, "the refused call's retries count");
        assert!(reply.notices[0].contains("does not support tools"));
        tooled.chat(&round()).await.unwrap();
        assert_eq!(natively(&seen), [true, false, false]);
    }

    #[tokio::test]
    async fn native_and_json_are_kept_whatever_the_server_says() {
        let (native, seen) = model(ToolMode::Native, &["completion"], false);
        let failure = native.chat(&round()).await.unwrap_err();
        assert!(matches!(failure.error, ModelError::NoTools { .. }));
        assert_eq!(natively(&seen), [true]);

        let (json, seen) = model(ToolMode::Json, &["tools"], true);
        json.chat(&round()).await.unwrap();
        assert_eq!(natively(&seen), [false]);
        assert!(seen.lock().unwrap()[0].format.is_some());
    }

    #[tokio::test]
    async fn requests_without_tools_pass_through() {
        let (json, seen) = model(ToolMode::Json, &[], false);
        let mut plan = round();
        plan.tools.clear();
        plan.format = Some(json!({"type": "object"}));
        let reply = json.chat(&plan).await.unwrap();
        assert!(reply.tool_calls.is_empty(), "the content is not mapped");
        assert_eq!(seen.lock().unwrap()[0], plan);
    }

    fn answer() -> ChatRequest {
        ChatRequest {
            format: Some(json!({"type": "object", "properties": {"tasks": {"type": "array"}}})),
            ..round()
        }
    }

    #[tokio::test]
    async fn an_answer_goes_with_the_tools_and_keeps_its_format() {
        let (native, seen) = model(ToolMode::Auto, &["completion", "tools"], true);
        let reply = native.chat(&answer()).await.unwrap();
        assert_eq!(reply.content, r#"{"tasks": []}"#);
        assert!(reply.tool_calls.is_empty());
        assert_eq!(seen.lock().unwrap()[0], answer(), "sent as it is");

        let (json, seen) = model(ToolMode::Json, &[], false);
        let reply = json.chat(&answer()).await.unwrap();
        assert_eq!(
            reply.content, r#"{"tasks": []}"#,
            "the content is not mapped"
        );
        let sent = seen.lock().unwrap()[0].clone();
        assert!(sent.tools.is_empty());
        assert_eq!(
            sent.format,
            answer().format,
            "its own format, not the calls'"
        );
        let round = json_mode::request(&round());
        assert_eq!(
            sent.messages[0], round.messages[0],
            "the system prompt of a round in JSON mode, the tools described"
        );
    }

    #[tokio::test]
    async fn an_answer_the_server_refuses_with_tools_is_asked_without_them_from_then_on() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let client = Scripted {
            capabilities: vec!["tools".into()],
            takes_tools: true,
            refuses_answers: true,
            seen: seen.clone(),
        };
        let tooled = ToolModel::new(Box::new(client), ToolMode::Auto, "m");
        let reply = tooled.chat(&answer()).await.unwrap();
        assert_eq!(reply.content, r#"{"tasks": []}"#);
        tooled.chat(&answer()).await.unwrap();
        let round_reply = tooled.chat(&round()).await.unwrap();
        assert_eq!(
            round_reply.tool_calls[0].name, "list_dir",
            "rounds keep their tools"
        );
        assert_eq!(natively(&seen), [true, false, false, true]);
        assert_eq!(seen.lock().unwrap()[1], answer().without_tools());
    }
}
