//! The conversation as plain data: the messages the model is sent and the
//! tool calls it makes. Shared by the state (which keeps the conversation) and
//! the model clients (which translate it to their wire formats).

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// One call of a tool, as the model asked for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub name: String,
    pub arguments: Value,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a tool result: the tool that produced it (Ollama's `tool_name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Message {
        Message::plain(Role::System, content)
    }

    pub fn user(content: impl Into<String>) -> Message {
        Message::plain(Role::User, content)
    }

    pub fn assistant(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Message {
        Message {
            tool_calls,
            ..Message::plain(Role::Assistant, content)
        }
    }

    pub fn tool(tool_name: impl Into<String>, content: impl Into<String>) -> Message {
        Message {
            tool_name: Some(tool_name.into()),
            ..Message::plain(Role::Tool, content)
        }
    }

    fn plain(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_name: None,
        }
    }

    /// Bytes of text this message puts into a prompt.
    pub fn size(&self) -> usize {
        self.content.len()
            + self
                .tool_calls
                .iter()
                .map(|call| call.name.len() + call.arguments.to_string().len())
                .sum::<usize>()
    }
}

/// Tokens a model call consumed (or, summed, a run).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the prompt sent (Ollama's `prompt_eval_count`, which counts
    /// the whole prompt, cached or not; OpenAI's `usage.prompt_tokens`).
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Of the prompt tokens of calls whose server said how many it served
    /// from its prefix cache (llama-server's `timings.cache_n`, OpenAI's
    /// `usage.prompt_tokens_details.cached_tokens`), those served from it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub prompt_cached: u64,
    /// The prompt tokens of those calls: the cache share is
    /// `prompt_cached / prompt_cache_known`. Ollama does not say, so its
    /// calls count in neither.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub prompt_cache_known: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    /// The share of the prompt tokens the server took from its cache, over
    /// the calls that said; `None` when none did.
    pub fn cache_share(&self) -> Option<f64> {
        (self.prompt_cache_known > 0)
            .then(|| self.prompt_cached as f64 / self.prompt_cache_known as f64)
    }

    /// `· prompt cache 86%` for a summary line, when it is known.
    pub fn cache_note(&self) -> String {
        self.cache_share()
            .map(|share| format!(" · prompt cache {:.0}%", share * 100.0))
            .unwrap_or_default()
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.prompt_cached += other.prompt_cached;
        self.prompt_cache_known += other.prompt_cache_known;
    }
}

/// A tool as the model is told about it: data beside [`ToolCall`], so the
/// tools describe themselves without knowing the model client.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// JSON schema of the arguments.
    pub parameters: serde_json::Value,
}
