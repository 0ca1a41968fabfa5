//! The reflection turn at the end of a run: the model notes what worked,
//! what failed and what to do next; those become lessons in memory.json for
//! the next run in this workspace.

use serde_json::{Value, json};

use super::{Agent, prompt};
use crate::state::{Event, Outcome};
use crate::store::{Durability, StoreError};

/// Items kept from each list of the reflection.
const ITEMS: usize = 3;
/// A lesson longer than this is cut: it is shown in every later prompt.
const LESSON_MAX: usize = 200;

fn schema() -> Value {
    let list = json!({ "type": "array", "items": { "type": "string" } });
    json!({
        "type": "object",
        "properties": { "worked": list, "failed": list, "next": list },
        "required": ["worked", "failed", "next"]
    })
}

impl Agent<'_> {
    pub(super) async fn reflect(
        &mut self,
        outcome: Outcome,
        reason: &str,
    ) -> Result<(), StoreError> {
        let head = self.head();
        let state = self.state();
        let errors: Vec<&str> = state.errors.iter().map(String::as_str).collect();
        let summary = format!(
            "OUTCOME: {outcome:?}: {reason}\nPLAN:\n{}\nRECENT ERRORS: {}\n\n\
             Look back at this run. Answer with JSON: what worked, what failed, and what to do \
             next time, at most {ITEMS} short items each.",
            prompt::plan_lines(state, true),
            if errors.is_empty() {
                "(none)".to_string()
            } else {
                errors.join(" | ")
            },
        );
        // The head first, as every call of the run: the server's cache
        // keeps it from the last call.
        let ask = format!(
            "{head}\n\nNo tool call now: review the work of this run so that the next run here \
             goes better.\n\n{summary}"
        );
        let request = prompt::answer_request(self.settings, ask, schema(), self.options());
        let reply = match self.ask(&request).await {
            None => return Ok(()),
            Some(Err(failure)) => {
                self.record(
                    Event::ModelFailed {
                        error: format!("reflection skipped: {}", failure.error),
                        retries: failure.retries,
                    },
                    Durability::Lazy,
                )?;
                return Ok(());
            }
            Some(Ok(reply)) => reply,
        };
        let lessons = lessons(&reply.content);
        self.record(
            Event::Reflected {
                lessons,
                usage: reply.usage,
                retries: reply.retries,
            },
            Durability::Lazy,
        )?;
        Ok(())
    }
}

/// The lessons in a reflection: `worked: ...`, `failed: ...`, `next: ...`;
/// from plain lines when the reply is not the JSON asked for.
fn lessons(content: &str) -> Vec<String> {
    let cut = |text: &str| text.trim().chars().take(LESSON_MAX).collect::<String>();
    if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(content.trim()) {
        let mut out = Vec::new();
        for key in ["worked", "failed", "next"] {
            let items = map
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            out.extend(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|s| !s.trim().is_empty())
                    .take(ITEMS)
                    .map(|s| format!("{key}: {}", cut(s))),
            );
        }
        return out;
    }
    content
        .lines()
        .map(|line| cut(line.trim_start_matches(['-', '*', ' '])))
        .filter(|line| !line.is_empty())
        .take(ITEMS * 3)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::lessons;

    #[test]
    fn lessons_from_json_and_from_prose() {
        let json = r#"{"worked": ["wrote tests first"], "failed": ["", "forgot to run pytest"], "next": []}"#;
        assert_eq!(
            lessons(json),
            ["worked: wrote tests first", "failed: forgot to run pytest"]
        );
        assert_eq!(
            lessons("- run pytest\n\n* keep files small"),
            ["run pytest", "keep files small"]
        );
    }
}
