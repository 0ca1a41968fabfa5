//! (b) of "done?", continued: what a function the goal names returns is
//! held to the examples the goal's own words give. The model is asked
//! once a run, from the goal alone (it is not shown the code), for calls
//! whose result the goal decides, and asked again for the result of each
//! call: an example counts only when both answers agree. Every assessment
//! then calls the function on them through its language, confined as the
//! model's commands are (`verdict::hold_to_examples`). The model's own
//! tests can hold its wrong belief; the goal's words cannot.

use std::time::Duration;

use serde_json::{Value, json};

use super::assess::json_of;
use crate::agent::{Agent, prompt};
use crate::lang::examples::{self, Example, Tried};
use crate::model::ChatRequest;
use crate::state::verdict::Examined;
use crate::state::{Event, Outcome};
use crate::store::{Durability, StoreError};

/// Examples asked for at most, each string at most this long, and the
/// answer's tokens at most (see `assess::MAX_ANSWER_TOKENS`).
const MAX_EXAMPLES: usize = 6;
const MAX_TEXT: usize = 100;
const MAX_ANSWER_TOKENS: u32 = 600;
/// How long the calls of one function may take together.
const EXAMPLES_TIMEOUT: Duration = Duration::from_secs(30);

fn examples_schema() -> Value {
    let text = json!({ "type": "string", "maxLength": MAX_TEXT });
    json!({
        "type": "object",
        "properties": {
            "examples": {
                "type": "array",
                "maxItems": MAX_EXAMPLES,
                "items": {
                    "type": "object",
                    "properties": { "call": text, "returns": text },
                    "required": ["call", "returns"]
                }
            }
        },
        "required": ["examples"]
    })
}

fn returns_schema(count: usize) -> Value {
    json!({
        "type": "object",
        "properties": {
            "returns": {
                "type": "array",
                "minItems": count,
                "maxItems": count,
                "items": { "type": "string", "maxLength": MAX_TEXT }
            }
        },
        "required": ["returns"]
    })
}

/// The language's name as a person writes it: `Python`.
fn spelled(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The first question: calls of `names` and what the goal says each
/// returns, in `language`.
fn examples_prompt(names: &[String], language: &str) -> String {
    let names = names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "No tool call now. From the GOAL's words alone (not from any code), give examples of \
         what {names} must return: each a call with literal arguments, written in {language}, \
         and the value the GOAL's words say that call returns, as a {language} literal. Only \
         calls whose result the GOAL decides; give none when the GOAL does not say what they \
         return. At most {MAX_EXAMPLES}. Answer with JSON: {{\"examples\": [{{\"call\": \
         \"...\", \"returns\": \"...\"}}]}}"
    )
}

/// The second question: what each of `calls` returns, asked apart from
/// the first answer.
fn returns_prompt(calls: &[&str], language: &str) -> String {
    let listed: String = calls
        .iter()
        .enumerate()
        .map(|(at, call)| format!("{}. {call}\n", at + 1))
        .collect();
    format!(
        "No tool call now. From the GOAL's words alone (not from any code), what does each of \
         these calls return?\n{listed}Answer with JSON, one {language} literal for each call, \
         in the same order: {{\"returns\": [\"...\"]}}"
    )
}

/// The calls of the first answer that call one of `names`, each once, and
/// what it said they return.
fn parse_examples(content: &str, names: &[String]) -> Vec<(String, String)> {
    let Ok(value) = json_of(content) else {
        return Vec::new();
    };
    let mut found: Vec<(String, String)> = Vec::new();
    for item in value["examples"].as_array().into_iter().flatten() {
        let (Some(call), Some(returns)) = (item["call"].as_str(), item["returns"].as_str()) else {
            continue;
        };
        let (call, returns) = (call.trim(), returns.trim());
        let named = examples::call_name(call).is_some_and(|name| names.iter().any(|n| n == name));
        if named && !returns.is_empty() && !found.iter().any(|(known, _)| known == call) {
            found.push((call.to_string(), returns.to_string()));
        }
    }
    found.truncate(MAX_EXAMPLES);
    found
}

/// The second answer, one result a call, when it gives as many.
fn parse_returns(content: &str, count: usize) -> Option<Vec<String>> {
    let value = json_of(content).ok()?;
    let returns: Vec<String> = value["returns"]
        .as_array()?
        .iter()
        .map(|r| match r {
            Value::String(text) => text.trim().to_string(),
            other => other.to_string(),
        })
        .collect();
    (returns.len() == count).then_some(returns)
}

impl Agent<'_> {
    /// The names the goal gives in call form that a source file (not a
    /// test) of the workspace defines, in a language that can call them
    /// on examples: each with that file and its language.
    fn examinable(&self) -> Vec<(String, String, usize)> {
        let state = self.state();
        let paths = super::assess::known_paths(state);
        let mut found = Vec::new();
        for name in crate::lang::called_names(&state.goal) {
            let defining = paths.iter().find_map(|path| {
                let at = self.languages.iter().position(|l| l.owns(path))?;
                let language = &self.languages[at];
                let text = String::from_utf8(self.tools.contents(path)?).ok()?;
                let can = !language.is_test(path)
                    && language.defines(&text, &name)
                    && language.examples_command(path, &name, &[]).is_some();
                can.then(|| (path.to_string(), at))
            });
            if let Some((path, at)) = defining {
                found.push((name, path, at));
            }
        }
        found
    }

    /// Asks for the goal's examples, once a run, when a function the goal
    /// names is there to call. `Ok(false)`: the run ended meanwhile (a
    /// stop, or a model that failed for good).
    pub(super) async fn ask_examples(&mut self) -> Result<bool, StoreError> {
        if self.state().examples.is_some() {
            return Ok(true);
        }
        let examinable = self.examinable();
        let Some((_, _, at)) = examinable.first() else {
            return Ok(true);
        };
        let language = spelled(self.languages[*at].name());
        let names: Vec<String> = examinable.iter().map(|(name, ..)| name.clone()).collect();
        let head = self.head();
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let first = format!("{head}\n\n{}", examples_prompt(&names, &language));
        let Some(reply) = self.ask_answer(first, examples_schema()).await? else {
            return Ok(false);
        };
        usage += reply.usage;
        retries += reply.retries;
        let stated = parse_examples(&reply.content, &names);
        let mut examples = Vec::new();
        if !stated.is_empty() {
            let calls: Vec<&str> = stated.iter().map(|(call, _)| call.as_str()).collect();
            let second = format!("{head}\n\n{}", returns_prompt(&calls, &language));
            let Some(reply) = self.ask_answer(second, returns_schema(calls.len())).await? else {
                return Ok(false);
            };
            usage += reply.usage;
            retries += reply.retries;
            // Without a second answer to hold each to, none counts.
            if let Some(again) = parse_returns(&reply.content, stated.len()) {
                examples = stated
                    .into_iter()
                    .zip(again)
                    .map(|((call, first), second)| Example {
                        call,
                        returns: vec![first, second],
                    })
                    .collect();
            }
        }
        self.record(
            Event::ExamplesStated {
                examples,
                usage,
                retries,
            },
            Durability::Lazy,
        )?;
        Ok(true)
    }

    /// One structured answer; `Ok(None)` when the run ended meanwhile.
    async fn ask_answer(
        &mut self,
        ask: String,
        format: Value,
    ) -> Result<Option<crate::model::ChatReply>, StoreError> {
        let mut options = self.options();
        options.num_predict = options.num_predict.map(|n| n.min(MAX_ANSWER_TOKENS));
        let request: ChatRequest = prompt::answer_request(self.settings, ask, format, options);
        match self.ask(&request).await {
            None => self
                .end(Outcome::Interrupted, "stopped by the user".into())
                .map(|_| None),
            Some(Err(failure)) => self.model_failed(failure).map(|_| None),
            Some(Ok(reply)) => Ok(Some(reply)),
        }
    }

    /// Each function with examples called on them, as it is now.
    pub(super) async fn examine(&mut self) -> Vec<Examined> {
        let examples = self.state().examples.clone().unwrap_or_default();
        if examples.is_empty() {
            return Vec::new();
        }
        let mut examined = Vec::new();
        for (name, module, at) in self.examinable() {
            let own: Vec<Example> = examples
                .iter()
                .filter(|e| e.name() == Some(name.as_str()))
                .cloned()
                .collect();
            let Some(command) = self.languages[at].examples_command(&module, &name, &own) else {
                continue;
            };
            if own.is_empty() || self.stop.is_requested() {
                continue;
            }
            let outcome = self
                .tools
                .run_own(&command, EXAMPLES_TIMEOUT, &self.stop)
                .await;
            let printed = crate::tools::printed(&outcome.result);
            let Some((mut tried, seen)) = examples::read(&printed) else {
                tracing::info!(%name, %module, %printed, "the examples could not call it");
                continue;
            };
            // It did not finish: the example after the last one printed
            // is the one that hung.
            if outcome.exit_code != Some(0)
                && let Some(hung) = own.get(seen)
            {
                tried.push(Tried {
                    call: hung.call.clone(),
                    wanted: hung.returns.first().cloned().unwrap_or_default(),
                    got: Err(format!(
                        "did not return within {} s",
                        EXAMPLES_TIMEOUT.as_secs()
                    )),
                    same: false,
                });
            }
            examined.push(Examined {
                name,
                module,
                tried,
            });
        }
        examined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_keep_only_calls_of_the_names_each_once() {
        let names = vec!["fizzbuzz".to_string()];
        let answer = "```json\n{\"examples\": [{\"call\": \"fizzbuzz(3)\", \"returns\": \
                      \"'Fizz'\"}, {\"call\": \"print(fizzbuzz(3))\", \"returns\": \"None\"}, \
                      {\"call\": \" fizzbuzz(3) \", \"returns\": \"'3'\"}, {\"call\": \
                      \"fizzbuzz(5)\", \"returns\": \"\"}, {\"call\": \"fizzbuzz(15)\"}]}\n```";
        assert_eq!(
            parse_examples(answer, &names),
            vec![("fizzbuzz(3)".to_string(), "'Fizz'".to_string())]
        );
        assert!(parse_examples("no", &names).is_empty());
        assert_eq!(
            parse_returns("{\"returns\": [\"'Fizz'\", 7]}", 2),
            Some(vec!["'Fizz'".to_string(), "7".to_string()])
        );
        assert_eq!(parse_returns("{\"returns\": [\"'Fizz'\"]}", 2), None);
    }

    #[test]
    fn the_questions_show_no_code_and_nothing_to_copy() {
        let names = vec!["fizzbuzz".to_string()];
        let prompt = examples_prompt(&names, "Python");
        assert!(prompt.contains("`fizzbuzz`"), "{prompt}");
        assert!(prompt.contains("written in Python"), "{prompt}");
        let example = &prompt[prompt.rfind("Answer with JSON: ").unwrap() + 18..];
        let example: Value = serde_json::from_str(example).unwrap();
        assert_eq!(example["examples"][0]["call"], "...");
        let prompt = returns_prompt(&["fizzbuzz(3)", "fizzbuzz(5)"], "Python");
        assert!(
            prompt.contains("1. fizzbuzz(3)\n2. fizzbuzz(5)\n"),
            "{prompt}"
        );
        assert!(!prompt.contains("Fizz'"), "{prompt}");
    }
}
