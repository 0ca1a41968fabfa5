//! Ollama's NDJSON stream, put together into one reply: content and tool
//! calls from every chunk, `done_reason` and token counts from the last, and
//! an `{"error": ...}` line in the middle ended as the error it is. A reply
//! whose text has begun to repeat itself is ended there (see
//! [`crate::model::runaway`]): the caller drops the stream, and Ollama stops
//! generating when its client goes.

use ollama_rs::generation::chat::ChatMessage;
use serde::Deserialize;
use serde_json::json;

use crate::chat::{ToolCall, Usage};
use crate::model::ChatReply;
use crate::model::runaway;

/// One line of Ollama's NDJSON stream.
#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    message: Option<ChatMessage>,
    #[serde(default)]
    done: bool,
    #[serde(default)]
    done_reason: Option<String>,
    #[serde(default)]
    prompt_eval_count: Option<u64>,
    #[serde(default)]
    eval_count: Option<u64>,
    #[serde(default)]
    error: Option<String>,
}

/// A reply being put together from its chunks.
#[derive(Default)]
pub(super) struct Reply {
    reply: ChatReply,
    /// Chunks with text: Ollama streams a token a chunk, so this is the
    /// count of tokens of a reply that never reached its last chunk.
    pieces: u64,
}

impl Reply {
    /// Takes one line; `Ok(true)` once the final chunk arrived, or once the
    /// text repeats itself (the reply ends there, `done_reason`
    /// [`runaway::REPEATING`]). An error line comes back as the error body
    /// to classify.
    pub(super) fn feed(&mut self, line: &[u8]) -> Result<bool, String> {
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() {
            return Ok(false);
        }
        let chunk: Chunk = serde_json::from_str(text)
            .map_err(|e| format!("{{\"error\":\"unreadable reply line ({e})\"}}"))?;
        if let Some(error) = chunk.error {
            return Err(json!({ "error": error }).to_string());
        }
        if let Some(message) = chunk.message {
            if !message.content.is_empty() {
                self.pieces += 1;
            }
            self.reply.content.push_str(&message.content);
            self.reply
                .tool_calls
                .extend(message.tool_calls.into_iter().map(|call| ToolCall {
                    name: call.function.name,
                    arguments: call.function.arguments,
                }));
        }
        if chunk.done {
            self.reply.done_reason = chunk.done_reason;
            // `prompt_eval_count` is the whole prompt, cached prefix or not
            // (Ollama's runner counts the prompt's inputs before it loads
            // the cache slot), so it is what the `num_ctx` watch needs; how
            // much came from the cache Ollama does not say.
            self.reply.usage = Usage {
                prompt_tokens: chunk.prompt_eval_count.unwrap_or(0),
                completion_tokens: chunk.eval_count.unwrap_or(0),
                ..Usage::default()
            };
        }
        if !chunk.done && runaway::repeating(&self.reply.content) {
            self.reply.done_reason = Some(runaway::REPEATING.into());
            // Ollama's counts come with the last chunk, which is not
            // waited for: the prompt's is unknown (0 is no pressure on the
            // context window), the reply's is its pieces.
            self.reply.usage.completion_tokens = self.pieces;
            return Ok(true);
        }
        Ok(chunk.done)
    }

    pub(super) fn finish(self) -> ChatReply {
        self.reply
    }
}
