//! The doctor's checks of the model: the server, the model pulled, its
//! tools, its context length.

use std::time::Duration;

use super::{Check, Level, check};
use crate::error::Exit;
use crate::model::ollama::OllamaClient;
use crate::model::{ClientConfig, Model, ModelError, RetryPolicy};
use crate::settings::Settings;

/// The longest one question to the server may take: the model's metadata
/// is read from disk, never generated, so a slow answer means trouble.
const SERVER_TIMEOUT: Duration = Duration::from_secs(20);

/// The server, the model pulled, its tools, its context length.
pub(super) async fn model_checks(settings: &Settings) -> Vec<Check> {
    let model = &settings.model;
    let fail = |name, text: String| check(Level::Fail, name, text, Exit::Model);
    let skip = |name, why: &str| check(Level::Skip, name, why, Exit::Model);
    let client = match OllamaClient::new(ClientConfig {
        base_url: settings.host.clone(),
        model: model.clone(),
        retry: RetryPolicy {
            retries: 0,
            base: Duration::ZERO,
        },
        timeout: SERVER_TIMEOUT,
    }) {
        Ok(client) => client,
        Err(error) => return vec![check(Level::Fail, "server", error.to_string(), Exit::Usage)],
    };
    let mut checks = Vec::new();
    match client.version().await {
        Ok(version) => checks.push(check(
            Level::Ok,
            "server",
            format!("Ollama {version} at {}", settings.host),
            Exit::Model,
        )),
        Err(error) => {
            let why = "not checked: the server is not reachable";
            return vec![
                fail("server", error.to_string()),
                skip("model", why),
                skip("tools", why),
                skip("context", why),
            ];
        }
    }
    match client.pulled().await {
        Ok(names) if names.iter().any(|name| same_model(name, model)) => {
            checks.push(check(
                Level::Ok,
                "model",
                format!("{model} is pulled"),
                Exit::Model,
            ));
        }
        Ok(names) => {
            let why = "not checked: the model is not pulled";
            let known = if names.is_empty() {
                "none is".to_string()
            } else {
                format!("pulled: {}", names.join(", "))
            };
            checks.push(fail(
                "model",
                format!(
                    "{model} is not pulled ({known}): run `ollama pull {model}`, or pick a pulled \
                     one with --model"
                ),
            ));
            checks.extend([skip("tools", why), skip("context", why)]);
            return checks;
        }
        Err(error) => checks.push(fail("model", error.to_string())),
    }
    match client.info().await {
        Ok(info) => {
            checks.push(if info.capabilities.iter().any(|c| c == "tools") {
                check(
                    Level::Ok,
                    "tools",
                    format!("{model} can call tools"),
                    Exit::Model,
                )
            } else if info.capabilities.is_empty() {
                check(
                    Level::Warn,
                    "tools",
                    "the server does not tell what the model can do (an Ollama before 0.6.4?); \
                     a model without tools fails at its first call",
                    Exit::Model,
                )
            } else {
                fail(
                    "tools",
                    ModelError::NoTools {
                        model: model.clone(),
                    }
                    .to_string(),
                )
            });
            checks.push(context_check(info.context_length, settings.num_ctx, model));
        }
        Err(error) => {
            checks.push(fail("tools", error.to_string()));
            checks.push(skip(
                "context",
                "not checked: the server did not describe the model",
            ));
        }
    }
    checks
}

/// `qwen3` is `qwen3:latest` to Ollama.
fn same_model(pulled: &str, wanted: &str) -> bool {
    let full = |name: &str| {
        if name.contains(':') {
            name.to_string()
        } else {
            format!("{name}:latest")
        }
    };
    full(pulled) == full(wanted)
}

fn context_check(length: Option<u64>, num_ctx: u64, model: &str) -> Check {
    let (level, text) = match length {
        Some(length) if num_ctx > length => (
            Level::Warn,
            format!(
                "--num-ctx {num_ctx} is more than the {length} tokens {model} takes: Ollama \
                 caps it; pass --num-ctx {length}"
            ),
        ),
        Some(length) => (
            Level::Ok,
            format!("{model} takes {length} tokens; the runner asks for {num_ctx} (--num-ctx)"),
        ),
        None => (
            Level::Warn,
            format!(
                "the server does not tell the model's context length; the runner asks for \
                 {num_ctx} tokens (--num-ctx)"
            ),
        ),
    };
    check(level, "context", text, Exit::Model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_name_without_a_tag_is_latest() {
        assert!(same_model("qwen3:latest", "qwen3"));
        assert!(same_model("qwen3", "qwen3:latest"));
        assert!(!same_model("qwen3:8b", "qwen3"));
    }

    #[test]
    fn a_context_larger_than_the_model_takes_is_a_warning() {
        assert_eq!(context_check(Some(8192), 16384, "m").level, Level::Warn);
        assert_eq!(context_check(Some(32768), 16384, "m").level, Level::Ok);
        assert_eq!(context_check(None, 16384, "m").level, Level::Warn);
    }
}
