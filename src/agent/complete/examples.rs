//! (b) of "done?", continued: what a function the goal names returns is
//! held to the examples the goal's own words give. The model is asked
//! once a run, from the goal alone (it is not shown the code), for calls
//! whose result the goal decides, and asked again for the result of each
//! call: an example counts only when both answers agree, and one whose
//! value the goal's words do not give only while the function returns
//! every such value (see `examine`). Every assessment
//! then calls the function on them through its language, confined as the
//! model's commands are (`verdict::hold_to_examples`). The model's own
//! tests can hold its wrong belief; the goal's words cannot.

use std::time::Duration;

use serde_json::{Value, json};

use super::assess::json_of;
use crate::agent::{Agent, prompt};
use crate::lang::examples::{self, Example, Tried, same_call};
use crate::model::ChatRequest;
use crate::state::verdict::{Examined, Settled};
use crate::state::{Event, Outcome};
use crate::store::{Durability, StoreError};

/// Examples asked for at most, each string at most this long, and the
/// answer's tokens at most (see `assess::MAX_ANSWER_TOKENS`).
const MAX_EXAMPLES: usize = 6;
/// Examples asked for at most when the goal names several functions (see
/// [`each`]), and lines of an answer read at most.
const MAX_SHARED: usize = 10;
const MAX_LINES: usize = 20;
const MAX_TEXT: usize = 100;
const MAX_ANSWER_TOKENS: u32 = 600;
/// How long the calls of one function may take together.
const EXAMPLES_TIMEOUT: Duration = Duration::from_secs(30);
/// How long its calls on the goal's examples with other digits may take
/// together: a larger number can make a right function slow (a recursive
/// `fib(72)` for `fib(30)`), and what it says is a check more, not the
/// goal's word.
const VARIANT_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) fn lines_schema(key: &str, min: usize, max: usize) -> Value {
    json!({
        "type": "object",
        "properties": {
            key: {
                "type": "array",
                "minItems": min,
                "maxItems": max,
                "items": { "type": "string", "maxLength": MAX_TEXT }
            }
        },
        "required": [key]
    })
}

/// The language's name as a person writes it: `Python`.
pub(super) fn spelled(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The first question: asserts, in `language`, of what calls of `names`
/// return, as the goal's words decide; `shape` is the language's assert
/// (`assert CALL == VALUE`). A coder model writes asserts more surely
/// than it fills a form: asked for a call and what it "returns", Qwen2.5-
/// Coder 1.5B gave `count_vowels('hello')` and "h".
fn examples_prompt(
    names: &[String],
    language: &str,
    shape: &str,
    code: &[(String, String)],
) -> String {
    let most = match names.len() {
        0 | 1 => format!("At most {MAX_EXAMPLES}"),
        _ => format!("At most {} for each of them", each(names)),
    };
    let names = names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let shown: String = code
        .iter()
        .map(|(path, text)| format!("{path}, as it was before this run:\n```\n{text}\n```\n"))
        .collect();
    let (from, arguments) = match code.is_empty() {
        true => ("From the GOAL's words alone (not from any code)", ""),
        false => (
            "From the GOAL's words alone (not from the code above)",
            ", in the shape the code above gives its data",
        ),
    };
    format!(
        "{shown}No tool call now. {from}, write {language} asserts of what {names} must \
         return, each one line `{shape}`: a call with literal arguments{arguments}, and the \
         value the GOAL's words say it returns, as a literal. Only calls whose result the GOAL \
         decides; none when the GOAL does not say what they return. {most}. Answer with JSON: \
         {{\"examples\": [\"...\"]}}"
    )
}

/// Calls of the goal's examples with other digits (see
/// [`examples::variants`]) tried, of each example and of one function.
/// t101's `int(float(text) * 100)` is wrong on 7% of the prices from 0.00
/// to 9.99: twelve draws find one of them half the time.
const VARIANTS: usize = 12;
const MAX_VARIANTS: usize = 24;

/// Writings of one function asked for at most: a third only when the
/// first two disagree on a call, or one of them could not be called.
const WRITINGS: u32 = 3;

/// The question for a writing of `name` of its own, from the GOAL's words
/// (and the project's `code`, for the shape of its data).
fn writing_prompt(name: &str, language: &str, code: &[(String, String)]) -> String {
    let shown: String = code
        .iter()
        .map(|(path, text)| format!("{path}, as it was before this run:\n```\n{text}\n```\n"))
        .collect();
    format!(
        "{shown}Write only the {language} function `{name}` as the GOAL's words describe \
         it: no tests, no examples, no other code."
    )
}

/// The code a writing's answer gives: the last fenced block in it, or all
/// of it when it has none.
pub(super) fn code_of(content: &str) -> Option<String> {
    let code = match crate::model::text_calls::code_blocks(content)
        .into_iter()
        .next_back()
    {
        Some((_, block)) => block.to_string(),
        None => content.to_string(),
    };
    Some(code).filter(|code| !code.trim().is_empty())
}

/// Each call and the value that at least two of `returned` (each writing's
/// calls and values) give it.
fn agreed(returned: &[Vec<(String, String)>]) -> Vec<(String, String)> {
    let mut agreed: Vec<(String, String)> = Vec::new();
    for (at, values) in returned.iter().enumerate() {
        for (call, value) in values {
            let again = returned[at + 1..]
                .iter()
                .any(|later| later.iter().any(|(c, v)| same_call(c, call) && v == value));
            if again && !agreed.iter().any(|(c, _)| same_call(c, call)) {
                agreed.push((call.clone(), value.clone()));
            }
        }
    }
    agreed
}

/// The values of `stated` that the examples hold: a value two writings
/// agreed on (`written`: each call and the value it returned, the
/// language's literal) in place of the model's answers, but where the
/// goal's own words give the value (see [`examples::given_by`]); and
/// each call of `written` that none of `stated` makes, a goal's example
/// with other digits ([`Example::variant`]).
fn with_written(goal: &str, stated: Vec<Example>, written: Vec<(String, String)>) -> Vec<Example> {
    let given = |e: &Example| {
        let first = e.returns.first().map(String::as_str).unwrap_or_default();
        examples::given_by(goal, first)
    };
    let mut examples = stated;
    for (call, value) in written {
        let example = Example {
            call: call.clone(),
            returns: vec![value.clone(), value],
            written: true,
            variant: false,
        };
        match examples.iter_mut().find(|e| same_call(&e.call, &call)) {
            Some(known) if given(known) => {}
            Some(known) => *known = example,
            // A call of no answer's: one of the goal's with other digits.
            None => examples.push(Example {
                variant: true,
                ..example
            }),
        }
    }
    examples
}

/// Characters of the project's code shown with the examples question at
/// most (see [`Agent::project_code`]).
const MAX_CODE: usize = 4_000;

/// Examples of one function at most, when the goal names `names`: the
/// budget shared, two each at least. t37's mathkit was asked of `gcd` and
/// `lcm` and gave six calls of `gcd`; its `lcm`, a copy of `gcd`, was held
/// to no example.
fn each(names: &[String]) -> usize {
    (MAX_EXAMPLES / names.len().max(1)).max(2)
}

/// Examples of all of `names` at most.
fn most(names: &[String]) -> usize {
    (each(names) * names.len()).clamp(MAX_EXAMPLES, MAX_SHARED)
}

/// `stated` (calls and values) with at most [`each`] of one function and
/// [`most`] in all, in their order.
fn shared(stated: Vec<(String, String)>, names: &[String]) -> Vec<(String, String)> {
    let mut kept: Vec<(String, String)> = Vec::new();
    for (call, value) in stated {
        let name = examples::call_name(&call).map(str::to_string);
        let of_it = kept
            .iter()
            .filter(|(known, _)| examples::call_name(known).map(str::to_string) == name)
            .count();
        if of_it < each(names) && kept.len() < most(names) {
            kept.push((call, value));
        }
    }
    kept
}

/// The second question: each of `lines` (an assert of a call, its value
/// left out) completed, asked apart from the first answer.
fn returns_prompt(lines: &[String]) -> String {
    let listed: String = lines.iter().map(|line| format!("{line}\n")).collect();
    format!(
        "No tool call now. From the GOAL's words alone (not from any code), complete each of \
         these lines with the value the GOAL's words say the call returns, in place of the \
         `...`:\n{listed}Answer with JSON, the completed lines in the same order: \
         {{\"returns\": [\"...\"]}}"
    )
}

/// The strings of `key` in a structured answer.
pub(super) fn lines_of(content: &str, key: &str) -> Vec<String> {
    items_of(content, key)
        .iter()
        .filter_map(Value::as_str)
        .map(|line| line.trim().to_string())
        .filter(|line| !line.is_empty())
        .collect()
}

/// The items of the array an answer (JSON) gives under `key`; none when it
/// gives none.
pub(super) fn items_of(content: &str, key: &str) -> Vec<Value> {
    json_of(content)
        .ok()
        .and_then(|value| value[key].as_array().cloned())
        .unwrap_or_default()
}

/// Each assert of `sides` (its two sides, by the language) whose one side
/// calls one of `names`: the call and the other side, each call once.
fn calls_of(sides: Vec<Option<(String, String)>>, names: &[String]) -> Vec<(String, String)> {
    let named =
        |side: &str| examples::call_name(side).is_some_and(|n| names.iter().any(|x| x == n));
    let mut found: Vec<(String, String)> = Vec::new();
    for (left, right) in sides.into_iter().flatten() {
        let (call, value) = match (named(&left), named(&right)) {
            (true, false) => (left, right),
            (false, true) => (right, left),
            _ => continue,
        };
        let (call, value) = (call.trim().to_string(), value.trim().to_string());
        if !value.is_empty() && !found.iter().any(|(known, _)| same_call(known, &call)) {
            found.push((call, value));
        }
    }
    found
}

/// The second answer: the call and value of each of `lines` that is an
/// assert of one of `calls` (by `assertions`, the language); a line that
/// is no assert is the value of the call in its place, when there are as
/// many lines as calls (asked to complete `assert count_vowels('hello')
/// == ...`, Qwen2.5-Coder 1.5B answered with the values alone).
fn completed(
    calls: &[&str],
    lines: Vec<String>,
    assertions: impl Fn(&[String]) -> Vec<Option<(String, String)>>,
) -> Vec<(String, String)> {
    let names: Vec<String> = calls
        .iter()
        .filter_map(|call| examples::call_name(call))
        .map(str::to_string)
        .collect();
    let placed = lines.len() == calls.len();
    let sides = assertions(&lines);
    let mut found = Vec::new();
    for (at, (line, sides)) in lines.iter().zip(sides).enumerate() {
        match calls_of(vec![sides], &names).pop() {
            Some(pair) => found.push(pair),
            None if placed => found.push((calls[at].to_string(), line.clone())),
            None => {}
        }
    }
    found
}

/// Whether the model's answers, agreeing on `agreed` of the `asked`
/// calls it answered twice (those the function was called on, or not for
/// their answers' disagreeing), are too unsure to hold a function to:
/// fewer than two thirds agreed. t66's add-function (`--api openai`)
/// agreed on 3 of 6, 'AEIOUaeiou' 10 and 5 among the rest, held a right
/// `count_vowels` to its `count_vowels('python')` of 2, and the model made
/// it count one vowel too many.
/// Errors no function means to raise, as [`examples::read`] says a call
/// raised them.
const UNMEANT: [&str; 2] = ["raised ZeroDivisionError", "raised IndexError"];

/// Each of `examples` that calls with an empty string (`''` or `""`),
/// again with three blanks in its place, and what it returns for ''.
fn blank_probes(examples: &[Example]) -> Vec<Example> {
    examples
        .iter()
        .filter_map(|example| {
            let call = ["''", "\"\""].iter().find_map(|empty| {
                let quote = &empty[..1];
                let at = example.call.find(empty)?;
                // The empty string alone: not the end of a longer literal.
                let before = example.call[..at].trim_end();
                let after = example.call[at + 2..].trim_start();
                (before.ends_with(['(', ',']) && after.starts_with([')', ','])).then(|| {
                    format!(
                        "{}{quote}   {quote}{}",
                        &example.call[..at],
                        &example.call[at + 2..]
                    )
                })
            })?;
            Some(Example {
                call,
                returns: example.returns.iter().take(1).cloned().collect(),
                written: false,
                variant: false,
            })
        })
        .collect()
}

fn unsure(agreed: usize, asked: usize) -> bool {
    agreed * 3 < asked * 2
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
                let text = self.tools.text(path)?;
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
        let names: Vec<String> = examinable.iter().map(|(name, ..)| name.clone()).collect();
        self.ask_examples_of(names, *at).await
    }

    /// Asks for the goal's examples before the plan is recorded, when the
    /// goal gives functions in call form and the plan (`tasks`) writes a
    /// source file in a language that can call them: its writes are then
    /// told what the goal says the calls return (`decompose::to_examples`),
    /// and a test that expects otherwise is refused from the first write
    /// on (`review::against_goal`). Asked at the first assessment, t26's
    /// add-duration had written `format_duration` to give '01:02:05' and
    /// no test of it when it learned the goal's 1:02:05. `Ok(false)`: the
    /// run ended meanwhile.
    pub(in crate::agent) async fn ask_examples_planned(
        &mut self,
        tasks: &[crate::state::TaskPlan],
    ) -> Result<bool, StoreError> {
        if self.state().examples.is_some() {
            return Ok(true);
        }
        let names = crate::lang::called_names(&self.state().goal);
        let Some(first) = names.first() else {
            return Ok(true);
        };
        let at = tasks.iter().flat_map(|task| &task.kinds).find_map(|kind| {
            let crate::state::SubtaskKind::Write { path } = kind else {
                return None;
            };
            let at = self.languages.iter().position(|l| l.owns(path))?;
            let language = &self.languages[at];
            let can =
                !language.is_test(path) && language.examples_command(path, first, &[]).is_some();
            can.then_some(at)
        });
        match at {
            Some(at) => self.ask_examples_of(names, at).await,
            None => Ok(true),
        }
    }

    /// Asks for the goal's examples of `names` in the language at `at`.
    async fn ask_examples_of(&mut self, names: Vec<String>, at: usize) -> Result<bool, StoreError> {
        let languages = self.languages;
        let language = languages[at].as_ref();
        let Some(shape) = language.assert_equal("CALL", "VALUE") else {
            return Ok(true);
        };
        let spelled = spelled(language.name());
        let head = self.head();
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let code = self.project_code(at);
        let first = format!(
            "{head}\n\n{}",
            examples_prompt(&names, &spelled, &shape, &code)
        );
        let schema = lines_schema("examples", 0, most(&names));
        let Some(reply) = self.ask_answer(first, schema).await? else {
            return Ok(false);
        };
        usage += reply.usage;
        retries += reply.retries;
        tracing::info!(answer = %reply.content, "the goal's examples, as first stated");
        let mut lines = lines_of(&reply.content, "examples");
        lines.truncate(MAX_LINES);
        let stated = shared(calls_of(language.assertions(&lines), &names), &names);
        let mut examples = Vec::new();
        let asked: Vec<String> = stated
            .iter()
            .filter_map(|(call, _)| language.assert_equal(call, "..."))
            .collect();
        if !asked.is_empty() {
            let second = format!("{head}\n\n{}", returns_prompt(&asked));
            let schema = lines_schema("returns", asked.len(), asked.len());
            let Some(reply) = self.ask_answer(second, schema).await? else {
                return Ok(false);
            };
            usage += reply.usage;
            retries += reply.retries;
            tracing::info!(answer = %reply.content, "the goal's examples, their values again");
            let calls: Vec<&str> = stated.iter().map(|(call, _)| call.as_str()).collect();
            let again = completed(&calls, lines_of(&reply.content, "returns"), |lines| {
                language.assertions(lines)
            });
            // A call the second answer left out, or changed, counts not.
            examples = stated
                .iter()
                .cloned()
                .filter_map(|(call, first)| {
                    let (_, second) = again.iter().find(|(known, _)| same_call(known, &call))?;
                    Some(Example {
                        returns: vec![first, second.clone()],
                        written: false,
                        variant: false,
                        call,
                    })
                })
                .collect();
        }
        let Some(written) = self.written(&names, at, &stated, &code).await? else {
            return Ok(false);
        };
        let (written, used, again) = written;
        usage += used;
        retries += again;
        let examples = with_written(&self.state().goal, examples, written);
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

    /// What writings of each of `names` of their own, asked from the
    /// goal's words (not shown the run's code), returned on the calls of
    /// `stated` whose value the goal's words do not give: each call two
    /// writings returned the same value on, and that value, with the usage
    /// and retries of the questions. A coder model writes what the goal
    /// says more surely than it works out what a call returns: asked from
    /// wordplay's goal, Qwen2.5-Coder 1.5B said twice that
    /// `reverse_words('Hello World')` returns 'dlroW olleH' and wrote the
    /// function so, but asked for the function alone, wrote the words
    /// reversed. Probed over 7 goals, its two answers agreed on a wrong
    /// value on 5 of 32 calls; its writings of the same functions, at
    /// temperature 0 and 0.7, were all right but one, which raised
    /// IndexError on ''. A writing warmer than the run's can be wrong too
    /// (t82's wordplay: `text[::-1]` at 0.6), so where the first two
    /// disagree a third decides. Each writing is called on the goal's own
    /// examples too (those whose value the goal's words give), and counts
    /// only when it returns their values; and on those examples with other
    /// digits ([`examples::variants`]), whose values it then holds as
    /// well. `None` when the run ended meanwhile.
    #[allow(clippy::type_complexity)]
    async fn written(
        &mut self,
        names: &[String],
        at: usize,
        stated: &[(String, String)],
        code: &[(String, String)],
    ) -> Result<Option<(Vec<(String, String)>, crate::chat::Usage, u32)>, StoreError> {
        let languages = self.languages;
        let language = languages[at].as_ref();
        let spelled = spelled(language.name());
        let goal = self.state().goal.clone();
        let head = self.head();
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let mut held = Vec::new();
        for name in names {
            let of_it = |(call, _): &&(String, String)| examples::call_name(call) == Some(name);
            let unknown = |call: &str| Example {
                call: call.to_string(),
                returns: vec!["None".into()],
                written: false,
                variant: false,
            };
            let (known, unsaid): (Vec<_>, Vec<_>) = stated
                .iter()
                .filter(of_it)
                .partition(|(_, value)| examples::given_by(&goal, value));
            let calls: Vec<Example> = unsaid.iter().map(|(call, _)| unknown(call)).collect();
            // The goal's own examples, each again with other digits: a
            // writing is called on both, and what it returns on the
            // changed ones counts only when it returns the goal's values
            // on the goal's own.
            let known: Vec<Example> = known
                .iter()
                .map(|(call, value)| Example {
                    call: call.clone(),
                    returns: vec![value.clone()],
                    written: false,
                    variant: false,
                })
                .collect();
            // Each with the kind of value of the goal's call it changes.
            let mut variants: Vec<(String, String)> = Vec::new();
            for example in &known {
                let kind = examples::literal_kind(&example.returns[0]);
                for changed in examples::variants(&example.call, VARIANTS) {
                    let new = !stated.iter().any(|(call, _)| same_call(call, &changed))
                        && !variants.iter().any(|(known, _)| same_call(known, &changed));
                    if new && variants.len() < MAX_VARIANTS {
                        variants.push((changed, kind.clone()));
                    }
                }
            }
            let asked = calls.len() + variants.len();
            // The goal's own first: a writing that hangs on the rest still
            // shows whether it returns the goal's values.
            let called: Vec<Example> = known.iter().chain(&calls).cloned().collect();
            let changed: Vec<Example> = variants.iter().map(|(call, _)| unknown(call)).collect();
            let mut returned: Vec<Vec<(String, String)>> = Vec::new();
            for again in 0..WRITINGS {
                // A third writing decides only where the first two
                // disagree, and only beside one that could be called: a
                // call neither returned a value on (the goal's example
                // with digits the function does not take) it cannot.
                let known_now = agreed(&returned);
                let decided = (returned.iter().flatten())
                    .all(|(call, _)| known_now.iter().any(|(c, _)| same_call(c, call)));
                if asked == 0 || again == 2 && (returned.is_empty() || decided) {
                    break;
                }
                let ask = format!("{head}\n\n{}", writing_prompt(name, &spelled, code));
                let Some(reply) = self.ask_writing(ask, again).await? else {
                    return Ok(None);
                };
                usage += reply.usage;
                retries += reply.retries;
                tracing::info!(%name, answer = %reply.content, "the function written again");
                let Some(source) = code_of(&reply.content).filter(|c| language.defines(c, name))
                else {
                    continue;
                };
                let call =
                    |calls, timeout| self.call_writing(language, &source, name, calls, timeout);
                let Some(result) = call(&called, EXAMPLES_TIMEOUT).await else {
                    break;
                };
                let Some(tried) = result else {
                    continue;
                };
                let faithful = known.iter().all(|example| {
                    tried
                        .iter()
                        .any(|t| t.same && same_call(&t.call, &example.call))
                });
                // A writing that returns otherwise than the goal's words on
                // the goal's own call is no reading of them: t104's
                // add-initials writings joined the letters with dots, gave
                // 'A.L' for the goal's 'A.L.', agreed on 'J.D' for 'john
                // doe', and a right function was held to that.
                let mut values: Vec<(String, String)> = tried
                    .into_iter()
                    .filter(|_| faithful)
                    .filter(|t| !known.iter().any(|k| same_call(&k.call, &t.call)))
                    .filter_map(|t| Some((t.call, t.got.ok()?)))
                    .collect();
                if faithful && !changed.is_empty() {
                    let tried = call(&changed, VARIANT_TIMEOUT).await.flatten();
                    values.extend(
                        tried
                            .unwrap_or_default()
                            .into_iter()
                            .filter_map(|t| Some((t.call, t.got.ok()?)))
                            .filter(|(call, value)| {
                                variants.iter().any(|(changed, kind)| {
                                    same_call(changed, call)
                                        && *kind == examples::literal_kind(value)
                                })
                            }),
                    );
                }
                returned.push(values);
            }
            held.extend(agreed(&returned));
        }
        tracing::info!(?held, "what the writings agreed on");
        Ok(Some((held, usage, retries)))
    }

    /// What `source`, a writing of `name` of its own, returned on `calls`
    /// (see [`crate::lang::Language::written_command`]): `None` when the
    /// language cannot call a writing, `Some(None)` when this one could
    /// not be called.
    async fn call_writing(
        &self,
        language: &dyn crate::lang::Language,
        source: &str,
        name: &str,
        calls: &[Example],
        timeout: Duration,
    ) -> Option<Option<Vec<Tried>>> {
        let command = language.written_command(source, name, calls)?;
        let outcome = self.tools.run_own(&command, timeout, &self.stop).await;
        let printed = crate::tools::printed(&outcome.result);
        let tried = examples::read(&printed).map(|(tried, _)| tried);
        if tried.is_none() {
            tracing::info!(%name, %printed, "the writing could not be called");
        }
        Some(tried)
    }

    /// The project's own source files in the language at `at` as they
    /// were before the run, shown with the examples question for the
    /// shape of the data its functions take: those the goal names, or the
    /// only one there is; none past [`MAX_CODE`] characters in all. Asked
    /// from the goal alone, t56's add-oldest model called
    /// `oldest(['Alice', 'Bob', 'Charlie'])` where people.py's records are
    /// dicts with a name and an age.
    fn project_code(&self, at: usize) -> Vec<(String, String)> {
        let language = self.languages[at].as_ref();
        let sources: Vec<String> = (self.state().baseline.files.keys())
            .filter(|path| language.owns(path) && !language.is_test(path))
            .cloned()
            .collect();
        let named = crate::workspace::named_by(&self.state().goal, &sources);
        let shown = match (named.is_empty(), sources.as_slice()) {
            (false, _) => named,
            (true, [only]) => vec![only],
            (true, _) => Vec::new(),
        };
        let mut code = Vec::new();
        let mut room = MAX_CODE;
        for path in shown {
            let Some(text) = self.text_before_run(path) else {
                continue;
            };
            if text.len() <= room {
                room -= text.len();
                code.push((path.clone(), text.trim_end().to_string()));
            }
        }
        code
    }

    /// One structured answer; `Ok(None)` when the run ended meanwhile.
    pub(super) async fn ask_answer(
        &mut self,
        ask: String,
        format: Value,
    ) -> Result<Option<crate::model::ChatReply>, StoreError> {
        self.ask_answer_after(None, ask, format).await
    }

    /// A writing of a function of its own (see [`Self::written`]), `again`
    /// times asked before; `Ok(None)` when the run ended meanwhile.
    async fn ask_writing(
        &mut self,
        ask: String,
        again: u32,
    ) -> Result<Option<crate::model::ChatReply>, StoreError> {
        let request = self.function_writing(ask, again);
        self.answer_to(&request).await
    }

    /// The request for a writing of a function of its own, `again` times
    /// asked before.
    fn function_writing(&self, ask: String, again: u32) -> ChatRequest {
        prompt::writing_request(
            prompt::Writing::Function,
            self.settings,
            self.num_ctx,
            ask,
            again * 2,
        )
    }

    /// One structured answer after `earlier` (a question of these and the
    /// model's answer, see [`prompt::answer_request_after`]); `Ok(None)`
    /// when the run ended meanwhile.
    pub(super) async fn ask_answer_after(
        &mut self,
        earlier: Option<[String; 2]>,
        ask: String,
        format: Value,
    ) -> Result<Option<crate::model::ChatReply>, StoreError> {
        let options = self.answer_options();
        let request: ChatRequest = match earlier {
            Some(earlier) => {
                prompt::answer_request_after(self.settings, earlier, ask, format, options)
            }
            None => prompt::answer_request(self.settings, ask, format, options),
        };
        self.answer_to(&request).await
    }

    /// The options of a structured answer: the run's, its tokens at most
    /// [`MAX_ANSWER_TOKENS`].
    fn answer_options(&self) -> crate::model::Options {
        let mut options = self.options();
        options.num_predict = options.num_predict.map(|n| n.min(MAX_ANSWER_TOKENS));
        options
    }

    /// The model's answer to `request`; `Ok(None)` when the run ended
    /// meanwhile.
    pub(super) async fn answer_to(
        &mut self,
        request: &ChatRequest,
    ) -> Result<Option<crate::model::ChatReply>, StoreError> {
        match self.ask(request).await {
            None => self
                .end(Outcome::Interrupted, "stopped by the user".into())
                .map(|_| None),
            Some(Err(failure)) => self.model_failed(failure).map(|_| None),
            Some(Ok(reply)) => Ok(Some(reply)),
        }
    }

    /// Each function with examples called on them, as it is now; `None`
    /// when the run ended meanwhile (a question of [`Self::settle`]).
    pub(super) async fn examine(&mut self) -> Result<Option<Vec<Examined>>, StoreError> {
        let examples = self.state().examples.clone().unwrap_or_default();
        if examples.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let goal = self.state().goal.clone();
        let mut examined = Vec::new();
        for (name, module, at) in self.examinable() {
            let (variants, own): (Vec<Example>, Vec<Example>) = examples
                .iter()
                .filter(|e| e.name() == Some(name.as_str()))
                .cloned()
                .partition(|e| e.variant);
            if own.is_empty() {
                continue;
            }
            let Some(command) = self.languages[at].examples_command(&module, &name, &own) else {
                continue;
            };
            let Some((exit_code, printed)) = self.run_examples(&command, EXAMPLES_TIMEOUT).await
            else {
                break;
            };
            let Some((mut tried, seen)) = examples::read(&printed) else {
                tracing::info!(%name, %module, %printed, "the examples could not call it");
                continue;
            };
            // A value two writings of the function agreed on (see
            // [`Self::written`]) is held as one the goal's words give.
            let written = |t: &Tried| own.iter().any(|e| e.written && same_call(&e.call, &t.call));
            let unsure = unsure(tried.len(), seen);
            // It did not finish: the example after the last one printed
            // is the one that hung, or ended the program.
            if exit_code != Some(0)
                && let Some(hung) = own.get(seen)
            {
                let why = match exit_code {
                    None => format!("did not return within {} s", EXAMPLES_TIMEOUT.as_secs()),
                    Some(code) => format!("ended the program (exit code {code})"),
                };
                tried.push(Tried {
                    call: hung.call.clone(),
                    wanted: hung.returns.first().cloned().unwrap_or_default(),
                    got: Err(why),
                    same: false,
                });
            }
            // The model's two answers agreed on fewer than two thirds of
            // its calls: it does not know what the goal decides, and a value
            // both answers gave is no surer than the rest (x1's
            // add-function: 2 of 6 agreed, both saying `count_vowels(
            // 'python')` is 2, and a right function was held wrong for
            // 20 rounds). A call it agreed on that the function does not
            // return is not held against the function; one it returns
            // still shows the function ran, and ran right.
            if unsure {
                tried.retain(|t| t.same || written(t));
            }
            // A value the goal's words do not give is the model's own
            // working out (n1's add-function: both answers said
            // `count_vowels('Python')` is 2, and a right function was
            // held wrong). Such values hold the function only when it
            // returns each of them, or when the model, asked which of its
            // value and the function's the call returns, chooses its own
            // whichever is put first (t37's mathkit: a wrong `lcm` whose
            // tests asserted its wrong values ended "Goal achieved"). Else
            // they are all left out, and the function is judged by what
            // runs it (tests, the assessment). A call that raised or hung
            // on the goal's own arguments, or for a value they give, is
            // wrong whatever it was to return: it stays. One on arguments
            // the goal's words do not give either is the model's own from
            // end to end, and the arguments may be what was wrong (t56's
            // add-oldest: a right `oldest` raised TypeError on a list of
            // names, where the project's people are records, and was held
            // wrong for the rest of the run): it is left out.
            tried.retain(|t| {
                t.got.is_ok()
                    || written(t)
                    || examples::given_by(&goal, &t.wanted)
                    || examples::arguments_given(&goal, &t.call)
            });
            let given =
                |t: &Tried| examples::given_by(&goal, &t.wanted) || t.got.is_err() || written(t);
            if let Some(differs) = tried.iter().find(|t| !t.same && !given(t)).cloned() {
                let Some(held) = self.settle(&differs).await? else {
                    return Ok(None);
                };
                if !held {
                    tried.retain(given);
                }
            }
            // Each example of an empty string, again with blanks only: a
            // function that returns for '' and fails with an error no
            // function means to raise for '   ' is wrong (t98's
            // add-average-word: 0 for '', ZeroDivisionError for '   ', a
            // text with no words, and "Goal achieved").
            let blanks = blank_probes(&own);
            if !blanks.is_empty()
                && let Some(command) = self.languages[at].examples_command(&module, &name, &blanks)
            {
                let Some((_, printed)) = self.run_examples(&command, EXAMPLES_TIMEOUT).await else {
                    break;
                };
                if let Some((probed, _)) = examples::read(&printed) {
                    tried.extend(probed.into_iter().filter(|t| {
                        matches!(&t.got, Err(why) if UNMEANT.iter().any(|e| why.starts_with(e)))
                    }));
                }
            }
            // The goal's examples with other digits, called apart: the
            // changed arguments may be outside what the function takes, or
            // make it hang, so only a value of the kind the writings gave
            // counts (see `Example::variant`), and the first that differs
            // is held only when settled so.
            if !variants.is_empty()
                && let Some(command) =
                    self.languages[at].examples_command(&module, &name, &variants)
            {
                let Some((_, printed)) = self.run_examples(&command, VARIANT_TIMEOUT).await else {
                    break;
                };
                let differs = examples::read(&printed).and_then(|(probed, _)| {
                    probed.into_iter().find(|t| {
                        !t.same
                            && matches!(&t.got, Ok(got)
                                if examples::literal_kind(got) == examples::literal_kind(&t.wanted))
                    })
                });
                // The writings agree, but the goal's words may not decide
                // the call (`wrap('a bb ccc', 1)`: a word longer than the
                // width): it counts only when the model, asked which of
                // the two values it returns, chooses theirs both times.
                if let Some(differs) = differs {
                    let Some(held) = self.settle(&differs).await? else {
                        return Ok(None);
                    };
                    if held {
                        tried.push(differs);
                    }
                }
            }
            let each: Vec<String> = tried.iter().map(Tried::said).collect();
            tracing::info!(%name, %module, tried = %each.join("; "), "called on the goal's examples");
            examined.push(Examined {
                name,
                module,
                tried,
            });
        }
        Ok(Some(examined))
    }

    /// The exit code of examples command `command` and what it printed;
    /// `None` when the user cut it short: what it gave says nothing of the
    /// code.
    async fn run_examples(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Option<(Option<i32>, String)> {
        let outcome = self.tools.run_own(command, timeout, &self.stop).await;
        if self.stop.is_requested() {
            return None;
        }
        Some((outcome.exit_code, crate::tools::printed(&outcome.result)))
    }

    /// Whether the model, asked twice which of `tried`'s wanted value and
    /// what the function returned the call returns (each put first once),
    /// chose its own both times; asked once a run for a call and the value
    /// it got. `None` when the run ended meanwhile.
    async fn settle(&mut self, tried: &Tried) -> Result<Option<bool>, StoreError> {
        let Ok(got) = &tried.got else {
            return Ok(Some(true));
        };
        if let Some(known) =
            self.state().settled.iter().find(|s| {
                same_call(&s.call, &tried.call) && s.got == *got && s.wanted == tried.wanted
            })
        {
            return Ok(Some(known.held));
        }
        let head = self.head();
        let (mut usage, mut retries, mut chosen) = (crate::chat::Usage::default(), 0, 0);
        for (a, b) in [(&tried.wanted, got), (got, &tried.wanted)] {
            let ask = format!("{head}\n\n{}", choice_prompt(&tried.call, a, b));
            let Some(reply) = self.ask_answer(ask, choice_schema()).await? else {
                return Ok(None);
            };
            usage += reply.usage;
            retries += reply.retries;
            tracing::info!(call = %tried.call, answer = %reply.content, "which it returns");
            let picked = match choice_in(&reply.content, a, b) {
                Some('a') => a,
                Some('b') => b,
                _ => continue,
            };
            if *picked == tried.wanted {
                chosen += 1;
            }
        }
        let settled = Settled {
            call: tried.call.clone(),
            wanted: tried.wanted.clone(),
            got: got.clone(),
            held: chosen == 2,
            own_test: false,
            got_held: false,
            written: false,
        };
        self.record_settled(settled, usage, retries)?;
        Ok(Some(chosen == 2))
    }

    fn record_settled(
        &mut self,
        settled: Settled,
        usage: crate::chat::Usage,
        retries: u32,
    ) -> Result<(), StoreError> {
        self.record(
            Event::ExampleSettled {
                settled,
                usage,
                retries,
            },
            Durability::Lazy,
        )
        .map(|_| ())
    }

    /// When the last run of the active subtask failed at an assert of a
    /// test the run wrote, `assert CALL == EXPECTED` where the code
    /// returned ACTUAL and the goal's words give no value of CALL: which
    /// of the two the call returns, asked twice from the goal's words
    /// alone (each put first once), once for those three. The value
    /// chosen both times is the goal's word on the call from then on (see
    /// [`crate::state::State::goal_given`]): the failure is told which
    /// side is wrong, a test write that expects otherwise is refused, and
    /// a function that returns otherwise is asked of. t84's rps wrote
    /// tests in which rock beats paper, and told "if the code is right,
    /// the test is wrong", fitted the code to them. A stop or a failed
    /// answer leaves it unasked (the round's own request meets them).
    /// `true` when it was asked and recorded.
    pub(in crate::agent) async fn settle_own_test(
        &mut self,
        files: &[(String, String)],
    ) -> Result<bool, StoreError> {
        let state = self.state();
        // Counted first: reading the failure starts the language's parser.
        if state.settled.iter().filter(|s| s.own_test).count() >= MAX_OWN_SETTLED {
            return Ok(false);
        }
        let Some((call, expected, actual)) = crate::agent::focus::failing_assert(state, files)
        else {
            return Ok(false);
        };
        let known = state.settled.iter().any(|s| {
            s.own_test && same_call(&s.call, &call) && s.wanted == expected && s.got == actual
        });
        if known || examples::goal_says(&state.goal_given(), &call).is_some() {
            return Ok(false);
        }
        let Some((sides, mut usage, mut retries)) = self
            .settle_by_writings(files, &call, &expected, &actual)
            .await
        else {
            return Ok(false);
        };
        let written = sides.0 == 2 || sides.1 == 2;
        let chose = match written {
            true => sides,
            false => {
                let Some((chose, used, again)) = self.choose_side(&call, &expected, &actual).await
                else {
                    return Ok(false);
                };
                usage += used;
                retries += again;
                chose
            }
        };
        let settled = Settled {
            call,
            wanted: expected,
            got: actual,
            held: chose.0 == 2,
            own_test: true,
            got_held: chose.1 == 2,
            written,
        };
        self.record_settled(settled, usage, retries)?;
        Ok(true)
    }

    /// How many times the model, asked twice from the goal's words alone
    /// which of `expected` (the test's) and `actual` (the code's) `call`
    /// returns, each put first once, chose each; with the usage and
    /// retries of the questions. `None` when the run is stopped or the
    /// model failed (the round's own request meets them).
    async fn choose_side(
        &mut self,
        call: &str,
        expected: &str,
        actual: &str,
    ) -> Option<((u32, u32), crate::chat::Usage, u32)> {
        let head = self.head();
        let (mut usage, mut retries, mut chose) = (crate::chat::Usage::default(), 0, (0, 0));
        for (a, b) in [(expected, actual), (actual, expected)] {
            let ask = format!("{head}\n\n{}", choice_prompt(call, a, b));
            let request =
                prompt::answer_request(self.settings, ask, choice_schema(), self.answer_options());
            let reply = self.ask(&request).await?.ok()?;
            usage += reply.usage;
            retries += reply.retries;
            tracing::info!(%call, answer = %reply.content, "which it returns, of a failing test");
            match choice_in(&reply.content, a, b) {
                Some('a') if a == expected => chose.0 += 1,
                Some('b') if b == expected => chose.0 += 1,
                Some('a' | 'b') => chose.1 += 1,
                _ => {}
            }
        }
        Some((chose, usage, retries))
    }

    /// Which side of a failing assert of the run's own test (`call`, the
    /// test's `expected`, the code's `actual`) writings of the called
    /// function of their own return, asked from the goal's words alone
    /// (not shown the run's code), told the call and the two values as
    /// the form of what it returns: how many returned `expected` and how
    /// many `actual`, two of one side settling it (else the model is asked
    /// to choose), with the usage and retries of the writings; none of
    /// either when no language calls the function. A third writing only
    /// where the first two split or one gave neither. Asked to choose,
    /// t88's rps model answered `a` six times of six; its code, written
    /// from the goal's words, was right where its tests said a tie was a
    /// win. `None` when the run is stopped or the model failed (the
    /// round's own request meets them).
    async fn settle_by_writings(
        &mut self,
        files: &[(String, String)],
        call: &str,
        expected: &str,
        actual: &str,
    ) -> Option<((u32, u32), crate::chat::Usage, u32)> {
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let Some(name) = examples::call_name(call).map(str::to_string) else {
            return Some(((0, 0), usage, retries));
        };
        let languages = self.languages;
        let language = languages.iter().map(AsRef::as_ref).find(|language| {
            files.iter().any(|(path, text)| {
                language.owns(path) && !language.is_test(path) && language.defines(text, &name)
            })
        });
        let Some(language) = language else {
            return Some(((0, 0), usage, retries));
        };
        let spelled = spelled(language.name());
        let head = self.head();
        let example = Example {
            call: call.to_string(),
            returns: vec![expected.to_string()],
            written: false,
            variant: false,
        };
        let at = match self.writings.iter().position(|(known, _)| *known == name) {
            Some(at) => at,
            None => {
                self.writings.push((name.clone(), Vec::new()));
                self.writings.len() - 1
            }
        };
        let mut sides = (0, 0);
        for again in 0..WRITINGS {
            if sides.0 == 2 || sides.1 == 2 || again == 2 && sides == (0, 0) {
                break;
            }
            if self.writings[at].1.len() <= again as usize {
                let (a, b) = match again % 2 {
                    0 => (expected, actual),
                    _ => (actual, expected),
                };
                let ask = format!("{head}\n\n{}", settling_prompt(&name, &spelled, call, a, b));
                let request = self.function_writing(ask, again);
                let reply = self.ask(&request).await?.ok()?;
                usage += reply.usage;
                retries += reply.retries;
                tracing::info!(%name, answer = %reply.content, "the function written again, of a failing test");
                let source = code_of(&reply.content).filter(|c| language.defines(c, &name));
                self.writings[at].1.push(source);
            }
            let Some(source) = self.writings[at].1[again as usize].clone() else {
                continue;
            };
            let Some(called) = self
                .call_writing(
                    language,
                    &source,
                    &name,
                    std::slice::from_ref(&example),
                    EXAMPLES_TIMEOUT,
                )
                .await
            else {
                break;
            };
            if self.stop.is_requested() {
                return None;
            }
            let Some(tried) = called.and_then(|tried| tried.into_iter().next()) else {
                continue;
            };
            tracing::info!(tried = %tried.said(), "a writing of a failing test's function");
            match &tried.got {
                _ if tried.same => sides.0 += 1,
                Ok(got) if language.same_value(got, actual) => sides.1 += 1,
                _ => {}
            }
        }
        Some((sides, usage, retries))
    }
}

/// Failing asserts of the run's own tests settled at most, a run.
const MAX_OWN_SETTLED: usize = 6;

/// The question for a writing of `name` of its own that settles a failing
/// assert of `call`: `a` and `b` show the form of what it returns.
fn settling_prompt(name: &str, language: &str, call: &str, a: &str, b: &str) -> String {
    format!(
        "Write only the {language} function `{name}` as the GOAL's words describe it: no \
         tests, no examples, no other code. It is called like `{call}`, and returns values \
         in the form of {a} or {b}."
    )
}

/// The question between two values of `call`: (a) `a`, (b) `b`.
fn choice_prompt(call: &str, a: &str, b: &str) -> String {
    format!(
        "No tool call now. From the GOAL's words alone (not from any code), what does `{call}` \
         return: (a) {a} or (b) {b}? Work it out in `why`, in one or two short sentences, then \
         give the letter. Answer with JSON: {{\"why\": \"...\", \"answer\": \"a\"}}"
    )
}

fn choice_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "why": { "type": "string", "maxLength": 300 },
            "answer": { "type": "string", "enum": ["a", "b"] }
        },
        "required": ["why", "answer"]
    })
}

/// Which of `a` and `b` a choice answer gives: the one its working out
/// (`why`) names when it names one and not the other, else the letter.
/// t106's pricing-package, asked whether `format_cents(289)` returns
/// '$289' or '$2.89', worked out "'$2.89'" both times and gave the letter
/// `a` both times, wherever that value stood.
fn choice_in(content: &str, a: &str, b: &str) -> Option<char> {
    let why = json_of(content)
        .ok()
        .and_then(|value| value["why"].as_str().map(str::to_string))
        .unwrap_or_default();
    match (names_value(&why, a), names_value(&why, b)) {
        (true, false) => Some('a'),
        (false, true) => Some('b'),
        _ => choice_of(content),
    }
}

/// Whether `text` names `value` (a literal; a string by its text): as a
/// whole, not as a piece of a longer word or number (`2` in `2.89`). A
/// string of letters and spaces alone counts only in quotes: bare, it may
/// be a word of the working out's prose (`'a'` of "returns a string").
fn names_value(text: &str, value: &str) -> bool {
    let value = value.trim();
    let quoted = ['\'', '"']
        .into_iter()
        .find_map(|quote| value.strip_prefix(quote)?.strip_suffix(quote));
    let bare = quoted.unwrap_or(value);
    if bare.trim().is_empty() {
        return false;
    }
    if quoted.is_some() && bare.chars().all(|c| c.is_alphabetic() || c == ' ') {
        return ['\'', '"']
            .iter()
            .any(|q| text.contains(&format!("{q}{bare}{q}")));
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(bare).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let mut after = text[at + bare.len()..].chars();
        let (next, then) = (after.next(), after.next());
        let digit_on = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let inside_word = before.is_some_and(word) || next.is_some_and(word);
        let inside_number = before == Some('.') && digit_on(bare.chars().next())
            || next == Some('.') && digit_on(then);
        !inside_word && !inside_number
    })
}

/// The letter a choice answer gives: `a` or `b`.
fn choice_of(content: &str) -> Option<char> {
    let value = json_of(content).ok()?;
    let answer = value["answer"]
        .as_str()?
        .trim()
        .trim_matches(|c| c == '(' || c == ')');
    match answer.to_ascii_lowercase().as_str() {
        "a" => Some('a'),
        "b" => Some('b'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// t98's add-average-word: `average_word_length('')` was an example;
    /// `'   '` is asked too. A longer literal, or an empty one inside
    /// another, is not an empty argument.
    #[test]
    fn an_example_of_an_empty_string_is_probed_with_blanks() {
        let example = |call: &str| Example {
            call: call.into(),
            returns: vec!["0".into(), "0.00".into()],
            written: true,
            variant: false,
        };
        let probes = blank_probes(&[
            example("average_word_length('')"),
            example("average_word_length('hello')"),
            example("pad(\"\", 3)"),
            example("join(['', 'a'], '-')"),
            example("f('it''s')"),
        ]);
        let calls: Vec<&str> = probes.iter().map(|p| p.call.as_str()).collect();
        assert_eq!(calls, ["average_word_length('   ')", "pad(\"   \", 3)"]);
        assert_eq!(probes[0].returns, ["0"]);
        assert!(!probes[0].written);
        // Only an error no function means to raise counts against it.
        assert!(
            UNMEANT
                .iter()
                .any(|e| "raised ZeroDivisionError: division by zero".starts_with(e))
        );
        assert!(
            !UNMEANT
                .iter()
                .any(|e| "raised ValueError: empty".starts_with(e))
        );
    }

    #[test]
    fn a_choice_answer_gives_its_letter_and_nothing_else_counts() {
        assert_eq!(choice_of(r#"{"why": "4*6/2", "answer": "a"}"#), Some('a'));
        // The value its working out names, wherever it stands.
        let why = r#"{"why": "289 cents would be formatted as '$2.89'.", "answer": "a"}"#;
        assert_eq!(choice_in(why, "'$289'", "'$2.89'"), Some('b'));
        assert_eq!(choice_in(why, "'$2.89'", "'$289'"), Some('a'));
        // Both named, or neither: the letter.
        let both = r#"{"why": "not 488 but 489", "answer": "b"}"#;
        assert_eq!(choice_in(both, "489", "488"), Some('b'));
        assert_eq!(
            choice_in(r#"{"why": "it is 12", "answer": "a"}"#, "2", "1"),
            Some('a')
        );
        assert_eq!(
            choice_in(r#"{"why": "2.5 in all", "answer": "a"}"#, "5", "2"),
            Some('a')
        );
        assert_eq!(
            choice_in(r#"{"why": "it gives 2", "answer": "a"}"#, "5", "2"),
            Some('b')
        );
        // A word of the prose is no string's value; in quotes it is.
        let prose = r#"{"why": "it returns a string, 'ab'", "answer": "a"}"#;
        assert_eq!(choice_in(prose, "'a'", "'ab'"), Some('b'));
        let prose = r#"{"why": "it returns a string", "answer": "b"}"#;
        assert_eq!(choice_in(prose, "'a'", "'ab'"), Some('b'));
        assert_eq!(choice_of(r#"{"why": "", "answer": "(B)"}"#), Some('b'));
        assert_eq!(choice_of(r#"{"why": "", "answer": "c"}"#), None);
        assert_eq!(choice_of(r#"{"why": "12"}"#), None);
        assert_eq!(choice_of("12"), None);
        let asked = choice_prompt("lcm(4, 6)", "12", "2");
        assert!(
            asked.contains("`lcm(4, 6)` return: (a) 12 or (b) 2?"),
            "{asked}"
        );
    }

    #[test]
    fn the_asserts_keep_only_calls_of_the_names_each_once_whichever_side() {
        let names = vec!["fizzbuzz".to_string()];
        let answer = "```json\n{\"examples\": [\"assert fizzbuzz(3) == 'Fizz'\", \"x\", 7]}\n```";
        assert_eq!(
            lines_of(answer, "examples"),
            ["assert fizzbuzz(3) == 'Fizz'", "x"]
        );
        assert!(lines_of("no", "examples").is_empty());
        let side = |l: &str, r: &str| Some((l.to_string(), r.to_string()));
        let sides = vec![
            side("fizzbuzz(3)", "'Fizz'"),
            None,
            side("'Buzz'", "fizzbuzz(5)"),
            side("print(fizzbuzz(3))", "None"),
            side("fizzbuzz( 3 )", "'3'"),
            side("fizzbuzz(15)", "fizzbuzz(30)"),
        ];
        assert_eq!(
            calls_of(sides, &names),
            vec![
                ("fizzbuzz(3)".to_string(), "'Fizz'".to_string()),
                ("fizzbuzz(5)".to_string(), "'Buzz'".to_string())
            ]
        );
    }

    #[test]
    fn several_functions_share_the_examples() {
        let names = vec!["gcd".to_string(), "lcm".to_string()];
        let pair = |c: &str, v: &str| (c.to_string(), v.to_string());
        let stated = vec![
            pair("gcd(4, 6)", "2"),
            pair("gcd(8, 12)", "4"),
            pair("gcd(10, 15)", "5"),
            pair("gcd(17, 19)", "1"),
            pair("lcm(4, 6)", "12"),
        ];
        assert_eq!(
            shared(stated, &names),
            vec![
                pair("gcd(4, 6)", "2"),
                pair("gcd(8, 12)", "4"),
                pair("gcd(10, 15)", "5"),
                pair("lcm(4, 6)", "12"),
            ]
        );
        let prompt = examples_prompt(&names, "Python", "assert CALL == VALUE", &[]);
        assert!(prompt.contains("At most 3 for each of them."), "{prompt}");
        let one = examples_prompt(&names[..1], "Python", "assert CALL == VALUE", &[]);
        assert!(one.contains("At most 6."), "{one}");
        let four: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        assert_eq!((each(&four), most(&four)), (2, 8));
    }

    #[test]
    fn a_second_answer_of_values_alone_is_read_in_the_calls_order() {
        let calls = ["f(1)", "f(2)"];
        let parse = |lines: &[String]| -> Vec<Option<(String, String)>> {
            lines
                .iter()
                .map(|l| {
                    let (left, right) = l.strip_prefix("assert ")?.split_once(" == ")?;
                    Some((left.to_string(), right.to_string()))
                })
                .collect()
        };
        let lines = |l: &[&str]| l.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        let pair = |c: &str, v: &str| (c.to_string(), v.to_string());
        assert_eq!(
            completed(&calls, lines(&["assert f(2) == 4", "Fizz"]), parse),
            vec![pair("f(2)", "4"), pair("f(2)", "Fizz")]
        );
        assert_eq!(
            completed(&calls, lines(&["1", "Fizz"]), parse),
            vec![pair("f(1)", "1"), pair("f(2)", "Fizz")]
        );
        // Not as many: only the asserts count.
        assert_eq!(
            completed(&calls, lines(&["assert f(1) == 1", "2", "3"]), parse),
            vec![pair("f(1)", "1")]
        );
    }

    #[test]
    fn the_questions_show_only_the_projects_code_and_nothing_to_copy() {
        let names = vec!["fizzbuzz".to_string()];
        let prompt = examples_prompt(&names, "Python", "assert CALL == VALUE", &[]);
        assert!(
            prompt.starts_with("No tool call now. From the GOAL's words alone (not from any code)"),
            "{prompt}"
        );
        assert!(!prompt.contains("shape"), "{prompt}");
        let code = [(
            "people.py".to_string(),
            "def names(people):\n    pass".to_string(),
        )];
        let shown = examples_prompt(&names, "Python", "assert CALL == VALUE", &code);
        assert!(
            shown.starts_with("people.py, as it was before this run:\n```\ndef names(people):\n    pass\n```\nNo tool call now."),
            "{shown}"
        );
        assert!(
            shown.contains("literal arguments, in the shape the code above gives its data,"),
            "{shown}"
        );
        assert!(prompt.contains("`fizzbuzz`"), "{prompt}");
        assert!(prompt.contains("write Python asserts"), "{prompt}");
        assert!(prompt.contains("`assert CALL == VALUE`"), "{prompt}");
        let example = &prompt[prompt.rfind("Answer with JSON: ").unwrap() + 18..];
        let example: Value = serde_json::from_str(example).unwrap();
        assert_eq!(example["examples"][0], "...");
        let lines = ["assert fizzbuzz(3) == ...".to_string()];
        let prompt = returns_prompt(&lines);
        assert!(
            prompt.contains("`...`:\nassert fizzbuzz(3) == ...\n"),
            "{prompt}"
        );
        assert!(!prompt.contains("Fizz'"), "{prompt}");
    }
}
