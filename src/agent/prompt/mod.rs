//! What the model is sent each round, laid out for the server's prefix
//! cache (which keeps the last prompt and evaluates only what follows the
//! longest common prefix with it): what never changes first (the system
//! prompt, the tool schemas), then what changes rarely (the standing block:
//! the head every call of the run starts with (goal, lessons, the map of
//! the plan), then the plan and the files shown), then the exchanges of the
//! active subtask, which only grow, and last what changes every round (the
//! round block: the active subtask, the plan's progress, the facts of the
//! probe, what to do now). The blocks are in `context.rs`.

mod context;

use super::focus;
use crate::chat::{Message, Role};
use crate::model::{ChatRequest, Options, text_calls};
use crate::settings::Settings;
use crate::state::{Came, State};
use crate::tools;

use context::{ShownFiles, content_now};
pub use context::{
    files_budget, head, part_by_change, plan_lines, round_block, standing_block, written_files,
};

/// A tool result in the prompt is cut to this many bytes (head and tail),
/// halved at each level of context pressure.
const RESULT_MAX: usize = 12 * 1024;

pub fn system_prompt(settings: &Settings) -> String {
    format!(
        "You are runner, a coding agent working in a folder on the user's machine (the workspace). \
You act only by calling tools: list_dir, read_file, write_file, edit_file, search, run_cmd, mark_subtask_complete, note.\n\
Each reply is exactly one tool call: {{\"name\": \"TOOL\", \"arguments\": {{...}}}}\n\
Rules:\n\
- Work on the ACTIVE SUBTASK shown in the latest message, one tool call at a time.\n\
- Paths are relative to the workspace.\n\
- write_file writes the whole file: give the complete content.\n\
- run_cmd runs one program without a shell (no pipes, no &&) and without keyboard input: \
a program it runs takes what it needs from its command-line arguments, or, when it reads its standard \
input, from a file of the workspace after < (python3 app.py < input.txt). Allowed programs: {}.\n\
- In a Python program, put what runs it (input, loops, printing) under \
`if __name__ == \"__main__\":`, so that tests can import it.\n\
- After writing code, run it or its tests to check that it works.\n\
- When the ACTIVE SUBTASK is done, call mark_subtask_complete with success=true and what you did. \
If it cannot be done, call it with success=false and why.\n\
- Nobody answers questions: decide yourself and act.",
        settings.tools.allowed.join(", ")
    )
}

/// A call that is not a round (the plan, the completion check's
/// assessment, the reflection) asked in a round's prefix: the system
/// prompt and the tool schemas of every round, then `ask` (what is asked
/// and how to answer) as the user message, and the answer held to
/// `format`, which leaves no room for a tool call. The server's prefix
/// cache keeps the system prompt and the schemas (about a thousand tokens
/// with a chat template's tool instructions) from a run's first call to
/// its last and on to the next run's, instead of reading them again in
/// the first round after each of these calls.
pub fn answer_request(
    settings: &Settings,
    ask: String,
    format: serde_json::Value,
    options: Options,
) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system(system_prompt(settings)), Message::user(ask)],
        tools: tools::specs().to_vec(),
        format: Some(format),
        options,
    }
}

/// An [`answer_request`] that follows one of its own: the question asked
/// before (`earlier`: the question and the model's answer) comes first, so
/// that `ask` can say what was wrong with that answer. Told so apart from
/// it, Qwen2.5-Coder 1.5B gave the same wrong answer again (5 of 6 in a
/// replay of cli-flag's question); after it, the right one (8 of 8, see
/// `complete::outputs`).
pub fn answer_request_after(
    settings: &Settings,
    earlier: [String; 2],
    ask: String,
    format: serde_json::Value,
    options: Options,
) -> ChatRequest {
    let mut request = answer_request(settings, ask, format, options);
    let [asked, answered] = earlier;
    request.messages.splice(
        1..1,
        [
            Message::user(asked),
            Message::assistant(answered, Vec::new()),
        ],
    );
    request
}

/// What a [`writing_request`] asks for, of its own from the goal's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writing {
    /// One function (see `complete::examples`).
    Function,
    /// A whole program (see `complete::samples`).
    Program,
}

impl Writing {
    /// The system prompt.
    pub fn system(self) -> &'static str {
        match self {
            Writing::Function => {
                "You are a careful programmer. Write the one function asked for from its \
                 description. Answer in plain text: the code in one code block."
            }
            Writing::Program => {
                "You are a careful programmer. Write the one program asked for from its \
                 description. Answer in plain text: the code in one code block."
            }
        }
    }

    /// Tokens a writing is given at most.
    fn max_tokens(self) -> u32 {
        match self {
            Writing::Function => 600,
            Writing::Program => 800,
        }
    }
}

/// A function or a program written of its own from the goal's words,
/// `again` steps warmer than the run: no tools, no plan, no format. Held
/// to a JSON string, Qwen2.5-Coder 1.5B wrote a function's body on one
/// line at 0.6 (2 of 3 writings of wordplay's is_anagram raised
/// SyntaxError); in a code block, none did.
pub fn writing_request(
    what: Writing,
    settings: &Settings,
    num_ctx: u64,
    ask: String,
    again: u32,
) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system(what.system()), Message::user(ask)],
        tools: Vec::new(),
        format: None,
        options: Options {
            temperature: warmer(settings.temperature, again),
            num_ctx,
            num_predict: Some(settings.num_predict.min(what.max_tokens())),
        },
    }
}

/// The system prompt of a [`question_request`].
const REPAIR_SYSTEM: &str = "You are a careful programmer fixing a bug. Answer in plain text: \
first one sentence on what is wrong, then the corrected code in one code block.";

/// A question of its own, asked with no tools, no plan and no run around
/// it, whose answer's code block is written to `path`: the fix of one
/// function (`function`, put in beside the file's other definitions), or
/// of a whole small program (`None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub path: String,
    pub function: Option<String>,
    /// The language's tag of a code block.
    pub language: String,
    pub ask: String,
    /// What the model answered when this was asked last, in prose with no
    /// code that is right: asked again, it is shown its answer and asked for
    /// the code alone (see [`question_request`]).
    pub said: Option<String>,
    /// The commands an answer's program is run with before it is written,
    /// each with what it must print (see `Agent::best_answer`); empty when
    /// the question knows none.
    pub runs: Vec<(String, String)>,
    /// For the fix of a function: the command that calls it with calls
    /// whose values it must return and prints what
    /// [`crate::lang::examples::read`] reads (see
    /// [`crate::lang::Language::examples_command`]); an answer is run with
    /// it before it is written. `None` when the question knows none.
    pub returns: Option<String>,
}

impl Question {
    /// The question of a whole file, `path`, in `language`.
    pub fn of_file(path: String, language: &str, ask: String) -> Question {
        Question {
            path,
            function: None,
            language: language.to_string(),
            ask,
            said: None,
            runs: Vec::new(),
            returns: None,
        }
    }

    /// The same question, its answers run with `runs` before one is
    /// written.
    pub fn with_runs(self, runs: Vec<(String, String)>) -> Question {
        Question { runs, ..self }
    }

    /// The same question, its answers called with `command` (see
    /// [`Question::returns`]) before one is written.
    pub fn with_returns(self, command: String) -> Question {
        Question {
            returns: Some(command),
            ..self
        }
    }
}

/// The question that asks for the fix of one function a call shows wrong
/// (see [`focus::Repair`]): the failing test's line, or the goal's words,
/// what the call gave and what it must give, and the function as it is;
/// the answer is a sentence on what is wrong and the corrected function
/// in a code block. Asked so, a small model reasons before it writes: in
/// a round it wrote the function back unchanged.
pub fn repair_question(repair: &focus::Repair) -> Question {
    let focus::Repair {
        module,
        name,
        language,
        shown,
        call,
        actual,
        expected,
        definition,
        trace,
        unchanged,
    } = repair;
    let trace = trace
        .as_deref()
        .map(|trace| format!("{trace}\n\n"))
        .unwrap_or_default();
    // A call that raised an error in place of a value (see
    // `focus::repair`): "raised ValueError: ..." is what it did.
    let (returned, returns, gives) = match actual.strip_prefix("raised ") {
        Some(error) => (
            format!("raised {error}"),
            format!("raises {error}"),
            format!("raises {error}"),
        ),
        None => (
            format!("returned {actual}"),
            format!("returns {actual}"),
            format!("gives {actual}"),
        ),
    };
    // t25's grades-fix model gave the same `letter` back to the same
    // question, three times.
    let unchanged = match unchanged {
        true => format!(
            "Your last answer gave {name} back as it already was, so `{call}` still \
             {returns}: the change must be to a line the call runs.\n\n"
        ),
        false => String::new(),
    };
    let shown = match shown {
        focus::Shown::Test { test, line, goal } => {
            let why = match goal {
                true => format!(" (the goal says `{call}` returns {expected})"),
                false => String::new(),
            };
            format!(
                "The test in {test} is right{why}, and it fails:\n```{language}\n{line}\n```\n\
                 `{call}` {returned}; the test expects {expected}."
            )
        }
        focus::Shown::Goal => format!(
            "The goal says `{call}` returns {expected}, and it {returned}: the function is \
             wrong."
        ),
    };
    let differ = focus::differ(actual, expected);
    let ask = format!(
        "{shown}{differ}\n\nThe function {name}, in {module}:\n```{language}\n{definition}\n```\n\n\
         {trace}{unchanged}What in {name} {gives} instead of {expected}? {}",
        answer_form(language, name)
    );
    Question {
        path: module.clone(),
        function: Some(name.clone()),
        language: language.to_string(),
        ask,
        said: None,
        runs: Vec::new(),
        returns: None,
    }
}

/// How to answer a [`Question`]: one sentence, then `what` corrected,
/// whole, in a code block of `language`. No form to fill in: given one
/// with `(one sentence)` in its block, w1's temp-fix wrote its sentence
/// in the block.
pub fn answer_form(language: &str, what: &str) -> String {
    format!(
        "First say in one sentence what is wrong. Then write all the code of the corrected \
         {what} in one ```{language} code block."
    )
}

/// What a [`Question`] answered with no code asks after the answer: the
/// code alone. A small model that said the right fix in prose (w1's
/// temp-fix, three times) writes it when asked for nothing else.
pub fn code_alone(question: &Question) -> String {
    let what = question.function.as_deref().unwrap_or(&question.path);
    format!(
        "Now write all the code of the corrected {what}, with that fixed, in one ```{} code \
         block and nothing else.",
        question.language
    )
}

/// The request of a [`Question`]. `again` is how many times one was asked
/// before in the subtask: each time warmer, or a small model answers as it
/// did.
pub fn question_request(
    settings: &Settings,
    num_ctx: u64,
    question: &Question,
    again: u32,
) -> ChatRequest {
    ChatRequest {
        messages: [
            Message::system(REPAIR_SYSTEM),
            Message::user(question.ask.clone()),
        ]
        .into_iter()
        .chain(question.said.iter().flat_map(|said| {
            [
                Message::assistant(said.clone(), Vec::new()),
                Message::user(code_alone(question)),
            ]
        }))
        .collect(),
        tools: Vec::new(),
        format: None,
        options: Options {
            temperature: warmer(settings.temperature, again),
            num_ctx,
            num_predict: Some(settings.num_predict),
        },
    }
}

/// The request of a round. Under context pressure it keeps fewer exchanges
/// and shorter tool results, so the prompt stays inside the window however
/// long the run. `head` is what every call of the run starts with (see
/// [`head`]).
pub fn request(state: &State, settings: &Settings, num_ctx: u64, head: &str) -> ChatRequest {
    request_with_files(state, settings, num_ctx, head, &[])
}

/// [`request`] with the contents of files in the standing block (see
/// [`written_files`]), in the order given. Only the exchanges of the
/// active subtask are sent, at most `--history-keep` of them, between the
/// standing block and the round block: from one round to the next, only
/// the last exchange and the round block are new, and from one subtask to
/// the next the standing block stays but for the files the last subtask
/// changed, unless a note or the window changed.
pub fn request_with_files(
    state: &State,
    settings: &Settings,
    num_ctx: u64,
    head: &str,
    files: &[(String, String)],
) -> ChatRequest {
    let (standing, changing) = part_by_change(state, files);
    let mut messages = vec![
        Message::system(system_prompt(settings)),
        Message::user(standing_block(state, head, &standing)),
    ];
    let current: Vec<&Vec<Message>> = focus::current_exchanges(state).collect();
    let keep = (settings.history_keep >> state.pressure).max(1);
    // Numbered from the subtask's start, which stays put when the state has
    // dropped its first exchanges.
    let listed = state.first_exchange() + focus::subtask_start(state) as u64;
    let shown = first_shown(state.subtask_exchange, state.exchanges, keep as u64);
    let skip = shown.saturating_sub(listed) as usize;
    let result_max = RESULT_MAX >> state.pressure;
    let conversation = messages.len();
    for (n, exchange) in current.iter().enumerate().skip(skip) {
        let answer = state.answer_exchange == Some(listed + n as u64);
        messages.extend(
            exchange
                .iter()
                .filter(|m| !empty_reply(m) && (answer || !prose_reply(m)))
                .map(|m| shorten(m, result_max)),
        );
    }
    // A file the subtask changed whose content as it is now the result of
    // its write shows (see `content_now`) is not shown again in the round
    // block: a result stays in the conversation, where the server's prefix
    // cache keeps it, while the round block is read again every round, and
    // with it a file the subtask wrote, in each round after the write
    // (BENCHMARKS.md, issue 18). Changed since by other means, or its write
    // out of the window, it is in the round block.
    let results = &messages[conversation..];
    let changing: ShownFiles = changing
        .into_iter()
        .filter(|(path, text)| {
            let block = content_now(path, text);
            !results
                .iter()
                .any(|m| m.role == Role::Tool && m.content.contains(&block))
        })
        .collect();
    messages.push(Message::user(round_block(
        state, settings, &changing, files,
    )));
    ChatRequest {
        messages,
        tools: tools::specs().to_vec(),
        format: None,
        options: Options {
            temperature: retry_temperature(state, settings.temperature),
            num_ctx,
            num_predict: Some(settings.num_predict),
        },
    }
}

/// What a write's or an edit's result ends with: the file as it left it,
/// when it is at most [`context::FILE_MAX`] bytes (a larger one is shown
/// in part in the round block, as before). The model sees what the
/// runner's mends made of its content, and the round block does not show
/// the file again while it stays so (see [`request_with_files`]).
pub fn shown_after_write(path: &str, content: &str) -> String {
    match content.len() <= context::FILE_MAX {
        true => format!("\n{}", content_now(path, content)),
        false => String::new(),
    }
}

/// Bytes a request asked again may add to the one it follows (see
/// [`asked_again`]): past that, the request is made anew, within the
/// bounds of a round's.
const ASKED_AGAIN_MAX: usize = 16 * 1024;

/// The request that asks the model again after a reply nothing came of (a
/// call that did not parse or was refused, prose, a blocked repeat): the
/// request that reply answered (`last`), then the reply as the model wrote
/// it, then what the runner told it since (the results of its calls and
/// the correction or nudge, in one user message). The server's prefix
/// cache holds `last` and the reply it generated, so it reads only what
/// the runner said: made anew with its round block after the exchange, the
/// reply, the runner's answer and the round block were read again, half of
/// all the prompt tokens a real model's runs evaluated (BENCHMARKS.md,
/// issue 18). `None` when something came of the reply (an action ran, a
/// note was kept, a subtask ended or began), when the reply's calls came as the
/// server's own tool calls (rendered by the server, not as the model wrote
/// them), when the context window is under pressure, or when it would grow
/// past [`ASKED_AGAIN_MAX`]: the next request is made anew.
pub fn asked_again(last: &ChatRequest, state: &State, settings: &Settings) -> Option<ChatRequest> {
    let exchange = state.conversation.back()?;
    let (reply, told) = exchange.split_first()?;
    let written_as_text = reply.tool_calls.is_empty()
        || !text_calls::extract(&reply.content, &tools::names()).is_empty();
    if reply.role != Role::Assistant
        || reply.content.trim().is_empty()
        || !written_as_text
        || told.is_empty()
        || state.pressure > 0
    {
        return None;
    }
    let this = state.exchanges.checked_sub(1)?;
    // A subtask that began since (the runner ended the last one as stuck)
    // starts its own request.
    if state.subtask_exchange > this {
        return None;
    }
    let came_of_it = state.calls.iter().any(|fact| {
        fact.exchange == this && !matches!(fact.came, Came::Refused { .. } | Came::Blocked)
    });
    if came_of_it {
        return None;
    }
    let said: Vec<String> = told
        .iter()
        .map(|message| match message.role {
            Role::Tool => format!(
                "Result of {}: {}",
                message.tool_name.as_deref().unwrap_or("your call"),
                message.content
            ),
            _ => message.content.clone(),
        })
        .collect();
    // A reply whose calls were all blocked as repeats is one the request
    // holds already: shown it a second time, a small model wrote it a
    // third (t9's textkit: the same refused write of `__init__.py` six
    // times, at temperatures raised to 1.0, until the subtask failed).
    let facts: Vec<&Came> = state
        .calls
        .iter()
        .filter(|fact| fact.exchange == this)
        .map(|fact| &fact.came)
        .collect();
    let repeated = !facts.is_empty() && facts.iter().all(|came| matches!(came, Came::Blocked));
    let prose = prose_reply(reply) && state.answer_exchange != Some(this);
    let mut messages = last.messages.clone();
    if !prose && !repeated {
        messages.push(Message::assistant(reply.content.clone(), Vec::new()));
    }
    messages.push(Message::user(said.join("\n\n")));
    let request = ChatRequest {
        messages,
        options: Options {
            temperature: retry_temperature(state, settings.temperature),
            ..last.options
        },
        ..last.clone()
    };
    (request.size() <= last.size() + ASKED_AGAIN_MAX).then_some(request)
}

/// The number of the first exchange sent, of the active subtask's exchanges
/// `first..end`: all of them while they are at most `keep`; past that, the
/// window moves in steps of half of `keep`, so what is sent before the last
/// exchange (the prefix the server keeps in its cache) stays the same for
/// several rounds instead of changing every round, and never more than
/// `keep` exchanges are sent.
fn first_shown(first: u64, end: u64, keep: u64) -> u64 {
    if end - first <= keep {
        return first;
    }
    let step = keep.div_ceil(2).max(1);
    first + (end - first - keep).div_ceil(step) * step
}

/// Each correction of this round, each nudge of this subtask and each call
/// blocked in a row raises the temperature by this, up to
/// [`MAX_RETRY_TEMPERATURE`]: asked again at the same temperature, a small
/// model writes the same broken reply again (d1's add-function: the same
/// refused write six rounds in a row, the rounds given up to it).
const RETRY_STEP: f32 = 0.2;
const MAX_RETRY_TEMPERATURE: f32 = 1.0;

/// The temperature of a round's request: `--temperature`, raised when the
/// model is asked again (never lowered below what the user set).
pub fn retry_temperature(state: &State, temperature: f32) -> f32 {
    warmer(
        temperature,
        state.corrections + state.nudges + state.blocked_in_a_row,
    )
}

/// `temperature` for a request asked `again` times before.
pub fn warmer(temperature: f32, again: u32) -> f32 {
    match again {
        0 => temperature,
        again => {
            (temperature + RETRY_STEP * again as f32).min(MAX_RETRY_TEMPERATURE.max(temperature))
        }
    }
}

/// A reply with neither text nor a call. It is not sent again: the nudge
/// after it says what was missing, and a small model shown its own empty
/// turns answers empty again (Qwen2.5-Coder 1.5B did three rounds in a row,
/// twice, each turn one token).
fn empty_reply(message: &Message) -> bool {
    message.role == Role::Assistant
        && message.tool_calls.is_empty()
        && message.content.trim().is_empty()
}

/// A reply in prose that called no tool and tried none (a call that did
/// not parse is kept, for its correction to point at; so is an answer to a
/// question of the runner's own: see `State::answer_exchange`). It is not
/// sent again: the nudge after it says what was wanted, and a small model
/// shown its own prose writes it again. t8's slug-tests: told the exact
/// edit that would correct its test, Qwen2.5-Coder 1.5B answered with the
/// same 186 tokens of advice three rounds in a row, each shown the ones
/// before, the temperature raised each time.
fn prose_reply(message: &Message) -> bool {
    message.role == Role::Assistant
        && message.tool_calls.is_empty()
        && text_calls::diagnose(&message.content, &tools::names()).is_none()
}

/// A message as it is sent again: long tool results cut (long arguments
/// were cut when the state kept the message), and the text of a reply whose
/// calls were found in it left out: the calls are sent as calls, and a
/// model shown both copies both, one more each round.
fn shorten(message: &Message, result_max: usize) -> Message {
    let mut message = message.clone();
    match message.role {
        Role::Tool => {
            message.content = crate::state::head_and_tail(&message.content, result_max);
        }
        Role::Assistant
            if !message.tool_calls.is_empty()
                && !text_calls::extract(&message.content, &tools::names()).is_empty() =>
        {
            message.content.clear();
        }
        _ => {}
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fix_question_after_the_function_came_back_unchanged_says_so() {
        let mut repair = focus::Repair {
            module: "grades.py".into(),
            name: "letter".into(),
            language: "python",
            shown: focus::Shown::Test {
                test: "test_grades.py".into(),
                line: "assert letter(90) == 'A'".into(),
                goal: false,
            },
            call: "letter(90)".into(),
            actual: "'B'".into(),
            expected: "'A'".into(),
            definition: "def letter(score):\n    if score > 80:\n        return 'B'".into(),
            trace: None,
            unchanged: false,
        };
        let said = "Your last answer gave letter back as it already was, so `letter(90)` still \
                    returns 'B': the change must be to a line the call runs.\n\nWhat in letter";
        assert!(!repair_question(&repair).ask.contains("Your last answer"));
        repair.unchanged = true;
        let ask = repair_question(&repair).ask;
        assert!(ask.contains(said), "{ask}");
    }

    #[test]
    fn a_fix_question_of_the_goals_example_says_what_the_goal_says() {
        let repair = focus::Repair {
            module: "timeutil.py".into(),
            name: "format_duration".into(),
            language: "python",
            shown: focus::Shown::Goal,
            call: "format_duration(3725)".into(),
            actual: "'01:02:05'".into(),
            expected: "'1:02:05'".into(),
            definition: "def format_duration(seconds):\n    return f'{seconds // 3600:02d}'".into(),
            trace: None,
            unchanged: false,
        };
        let ask = repair_question(&repair).ask;
        assert!(
            ask.starts_with(
                "The goal says `format_duration(3725)` returns '1:02:05', and it returned \
                 '01:02:05': the function is wrong. They differ in one place: '01:02:05' has `0` \
                 at its start, where '1:02:05' has nothing.\n\nThe function format_duration, in \
                 timeutil.py:"
            ) && ask.contains("What in format_duration gives '01:02:05' instead of '1:02:05'?"),
            "{ask}"
        );
        let test = focus::Repair {
            shown: focus::Shown::Test {
                test: "test_timeutil.py".into(),
                line: "assert format_duration(3725) == '1:02:05'".into(),
                goal: true,
            },
            ..repair
        };
        let ask = repair_question(&test).ask;
        assert!(
            ask.starts_with(
                "The test in test_timeutil.py is right (the goal says `format_duration(3725)` \
                 returns '1:02:05'), and it fails:"
            ),
            "{ask}"
        );
    }

    #[test]
    fn a_fix_question_says_when_the_values_differ_in_capital_letters_alone() {
        let repair = focus::Repair {
            module: "textcase/kebab.py".into(),
            name: "kebab".into(),
            language: "python",
            shown: focus::Shown::Goal,
            call: "kebab('Hello World')".into(),
            actual: "'Hello-World'".into(),
            expected: "'hello-world'".into(),
            definition: "def kebab(s):\n    return s.replace(' ', '-')".into(),
            trace: None,
            unchanged: false,
        };
        let ask = repair_question(&repair).ask;
        assert!(
            ask.contains(
                "and it returned 'Hello-World': the function is wrong. They differ only in \
                 capital letters.\n\n"
            ),
            "{ask}"
        );
    }

    #[test]
    fn a_model_asked_again_is_asked_warmer() {
        let mut state = State::default();
        assert_eq!(retry_temperature(&state, 0.2), 0.2);
        state.corrections = 1;
        assert!((retry_temperature(&state, 0.2) - 0.4).abs() < 1e-6);
        state.nudges = 2;
        assert!((retry_temperature(&state, 0.2) - 0.8).abs() < 1e-6);
        state.nudges = 9;
        assert_eq!(retry_temperature(&state, 0.2), 1.0);
        // A call blocked as a repeat is a reply asked again too.
        let blocked = State {
            blocked_in_a_row: 2,
            ..State::default()
        };
        assert!((retry_temperature(&blocked, 0.2) - 0.6).abs() < 1e-6);
        // What the user set above the cap stays.
        assert_eq!(retry_temperature(&state, 1.5), 1.5);
    }

    #[test]
    fn the_window_of_exchanges_moves_in_steps_so_the_prefix_is_kept() {
        let mut starts = Vec::new();
        for end in 0..=20u64 {
            let first = first_shown(0, end, 5);
            assert!(end - first <= 5, "at most keep exchanges are sent");
            starts.push(first);
        }
        // All five while they fit, then steps of three.
        assert_eq!(&starts[..6], &[0, 0, 0, 0, 0, 0]);
        assert_eq!(&starts[6..12], &[3, 3, 3, 6, 6, 6]);
        let moves = starts.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(
            moves, 5,
            "the prefix changes once every three rounds, not every round"
        );
        // A new subtask starts its own window.
        assert_eq!(first_shown(17, 19, 5), 17);
    }

    #[test]
    fn a_long_subtask_is_sent_in_a_window_that_keeps_its_start_for_rounds() {
        let settings = Settings::new("/nowhere".into());
        let mut state = State::default();
        let mut prefixes = Vec::new();
        for n in 0..12 {
            // What begin_exchange does: count, keep at most eight.
            state.exchanges += 1;
            state.conversation.push_back(vec![Message::assistant(
                format!("reply {n}"),
                vec![listing()],
            )]);
            while state.conversation.len() > crate::state::KEPT_EXCHANGES {
                state.conversation.pop_front();
            }
            let sent = request(&state, &settings, 8192, "GOAL: g").messages;
            assert!(sent.len() - 3 <= settings.history_keep);
            prefixes.push(sent[2].content.clone());
        }
        let changes = prefixes.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(changes <= 3, "{prefixes:?}");
    }

    /// A call, so that a reply is sent again (one that calls no tool is not).
    fn listing() -> crate::chat::ToolCall {
        crate::chat::ToolCall {
            name: "run_cmd".into(),
            arguments: serde_json::json!({"cmd": "ls"}),
        }
    }

    /// The next round's request: one more exchange, and what changes every
    /// round (a command, an error, a round spent).
    fn next_round(state: &mut State, n: u64) {
        state.exchanges += 1;
        state.conversation.push_back(vec![
            Message::assistant(format!("reply {n}"), vec![listing()]),
            Message::user(format!("result {n}")),
        ]);
        state.errors.push_back(format!("error {n}"));
        state.run_rounds += 1;
    }

    #[test]
    fn a_round_sends_the_last_prompt_again_but_its_round_block() {
        let settings = Settings::new("/nowhere".into());
        let files = [
            ("a.py".to_string(), "A = 1\n".to_string()),
            ("b.py".to_string(), "B = 2\n".to_string()),
        ];
        let mut state = State::default();
        let mut sent =
            vec![request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages];
        for n in 0..3 {
            next_round(&mut state, n);
            sent.push(request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages);
        }
        for pair in sent.windows(2) {
            let kept = pair[0].len() - 1;
            assert_eq!(pair[1][..kept], pair[0][..kept], "all but the round block");
            assert_ne!(pair[1][kept], pair[0][kept]);
        }
        let standing = &sent[3][1].content;
        assert!(
            standing.contains("CONTENT OF a.py:\n```\nA = 1\n```"),
            "{standing}"
        );
        assert!(standing.contains("CONTENT OF b.py:"), "{standing}");
        assert!(
            !sent[3]
                .last()
                .is_some_and(|m| m.content.contains("CONTENT OF"))
        );

        // b.py written in this subtask: it is shown in the round block from
        // now on, a.py stays where it was.
        wrote(&mut state, "b.py", "B = 2\n");
        let moved = request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages;
        assert!(moved[1].content.contains("CONTENT OF a.py:"));
        assert!(!moved[1].content.contains("CONTENT OF b.py:"));
        let round = moved.last().map(|m| m.content.as_str()).unwrap_or("");
        assert!(
            round.starts_with("CONTENT OF b.py:\n```\nB = 2\n```"),
            "{round}"
        );
        next_round(&mut state, 3);
        let after = request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages;
        let kept = moved.len() - 1;
        assert_eq!(after[..kept], moved[..kept], "stable again after the move");
    }

    /// The fact of a write of `path` with `text`, whose result is the
    /// second message of the last exchange.
    fn wrote(state: &mut State, path: &str, text: &str) {
        state.calls.push_back(crate::state::CallFact {
            exchange: state.exchanges - 1,
            message: 1,
            tool: "write_file".into(),
            came: crate::state::Came::Ran {
                outcome: Box::new(crate::state::ActionOutcome {
                    ok: true,
                    write: Some(crate::state::FileChange {
                        path: path.into(),
                        before: None,
                        after: crate::digest::sha256_hex(text.as_bytes()),
                        bytes: text.len() as u64,
                        removed: vec![],
                    }),
                    ..Default::default()
                }),
            },
        });
    }

    #[test]
    fn a_file_the_subtask_wrote_is_shown_after_its_writes_result_not_every_round() {
        let settings = Settings::new("/nowhere".into());
        let mut state = State {
            exchanges: 1,
            ..State::default()
        };
        let result = format!(
            "Wrote 6 bytes to b.py{}",
            shown_after_write("b.py", "B = 2\n")
        );
        assert_eq!(
            result,
            "Wrote 6 bytes to b.py\nCONTENT OF b.py now:\n```\nB = 2\n```"
        );
        state.conversation.push_back(vec![
            Message::assistant("{\"name\": \"write_file\"}", vec![]),
            Message::tool("write_file", result),
        ]);
        wrote(&mut state, "b.py", "B = 2\n");
        let files = [
            ("a.py".to_string(), "A = 1\n".to_string()),
            ("b.py".to_string(), "B = 2\n".to_string()),
        ];
        let sent = request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages;
        let round = &sent.last().unwrap().content;
        assert!(!round.contains("CONTENT OF"), "{round}");
        assert!(sent[1].content.contains("CONTENT OF a.py:"));
        assert!(!sent[1].content.contains("CONTENT OF b.py"));

        // The rounds after it send it again as it was: the cache keeps it.
        next_round(&mut state, 1);
        let later = request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages;
        assert_eq!(later[..sent.len() - 1], sent[..sent.len() - 1]);
        assert!(!later.last().unwrap().content.contains("CONTENT OF"));

        // Changed since by something else: in the round block, as it is.
        let files = [
            ("a.py".to_string(), "A = 1\n".to_string()),
            ("b.py".to_string(), "B = 3\n".to_string()),
        ];
        let changed = request_with_files(&state, &settings, 8192, "GOAL: g", &files).messages;
        assert!(
            changed
                .last()
                .unwrap()
                .content
                .starts_with("CONTENT OF b.py:\n```\nB = 3\n```")
        );
        // A file too large to show whole after its result is shown in the
        // round block.
        assert_eq!(shown_after_write("big.py", &"x".repeat(5000)), "");
    }

    #[test]
    fn the_head_starts_the_standing_block_and_the_system_prompt_stays() {
        let settings = Settings::new("/nowhere".into());
        let state = State::default();
        let plain = request(&state, &settings, 8192, "GOAL: g");
        let map = "WORKSPACE (1 files)\ncalc.py";
        let mapped = request(&state, &settings, 8192, &head("g", None, Some(map)));
        assert_eq!(mapped.messages[0], plain.messages[0]);
        assert!(
            mapped.messages[1]
                .content
                .starts_with("GOAL: g\nWORKSPACE (1 files)\ncalc.py\nPLAN:"),
            "{}",
            mapped.messages[1].content
        );
        assert_eq!(mapped.messages[2..], plain.messages[2..]);
        assert_eq!(
            head("g", Some("- run it"), None),
            "GOAL: g\nLESSONS (from earlier runs here):\n- run it"
        );
    }

    /// A plan of two subtasks: the second's first round sends the first's
    /// standing block again but its last lines, which say what is done.
    #[test]
    fn the_next_subtask_keeps_the_standing_block() {
        use crate::state::{Event, TaskPlan};
        let settings = Settings::new("/nowhere".into());
        let mut state = State::default();
        state.apply_next(Event::Planned {
            tasks: vec![TaskPlan {
                description: "Greet".into(),
                subtasks: vec!["Write hello.py".into(), "Run `python3 hello.py`".into()],
                kinds: Vec::new(),
            }],
            fallback: None,
            model_calls: 1,
            usage: Default::default(),
            retries: 0,
        });
        let first = request(&state, &settings, 8192, "GOAL: g").messages;
        state.apply_next(Event::SubtaskEnded {
            call: None,
            task: 0,
            subtask: 0,
            success: true,
            reason: "written".into(),
        });
        let second = request(&state, &settings, 8192, "GOAL: g").messages;
        let (before, after) = (&first[1].content, &second[1].content);
        let kept = before.find("CURRENT TASK:").unwrap();
        assert_eq!(
            before[..kept],
            after[..kept],
            "the standing block stays but its end"
        );
        assert!(!before[..kept].contains("[x]") && !before[..kept].contains("[>]"));
        assert!(
            before[kept..]
                .starts_with("CURRENT TASK: Greet (task 1/1)\nPLAN PROGRESS: [>] 1.1 [ ] 1.2"),
            "{before}"
        );
        assert!(
            after.ends_with("\nPLAN PROGRESS: [x] 1.1 [>] 1.2"),
            "{after}"
        );
    }

    #[test]
    fn asked_again_after_prose_or_a_blocked_repeat_the_reply_is_left_out() {
        let settings = Settings::new("/nowhere".into());
        let call = r#"{"name": "write_file", "arguments": {"path": "a.py", "content": "x"}}"#;
        // The last exchange: `reply`, then what the runner said, its call
        // (when it has one) having come to `came`.
        let asked = |reply: &str, came: Option<crate::state::Came>| {
            let mut state = State {
                exchanges: 1,
                ..State::default()
            };
            // As the state keeps a reply: with the calls found in it.
            let calls = match came {
                Some(_) => vec![listing()],
                None => vec![],
            };
            let mut exchange = vec![Message::assistant(reply, calls)];
            if let Some(came) = came {
                exchange.push(Message::tool("write_file", "Blocked: a repeat"));
                state.calls.push_back(crate::state::CallFact {
                    exchange: 0,
                    message: 1,
                    tool: "write_file".into(),
                    came,
                });
            }
            exchange.push(Message::user("Call a tool now"));
            state.conversation.push_back(exchange);
            let last = request(&State::default(), &settings, 8192, "GOAL: g");
            let again = asked_again(&last, &state, &settings).expect("asked again");
            assert_eq!(again.messages[..last.messages.len()], last.messages[..]);
            again.messages[last.messages.len()..]
                .iter()
                .map(|m| m.role)
                .collect::<Vec<Role>>()
        };
        assert_eq!(asked("I will write it.", None), [Role::User]);
        assert_eq!(asked(call, Some(crate::state::Came::Blocked)), [Role::User]);
        let refused = crate::state::Came::Refused {
            kind: crate::state::RefusalKind::LanguageRefused,
        };
        assert_eq!(
            asked(call, Some(refused)),
            [Role::Assistant, Role::User],
            "a refused call is shown with its refusal"
        );
    }

    #[test]
    fn a_reply_that_called_no_tool_is_not_sent_again_but_the_nudge_after_it_is() {
        let mut state = State {
            exchanges: 3,
            ..State::default()
        };
        state.conversation.push_back(vec![
            Message::assistant("", vec![]),
            Message::user("You answered without calling a tool"),
        ]);
        state.conversation.push_back(vec![
            Message::assistant("I will write it.", vec![]),
            Message::user("Call a tool now"),
        ]);
        state.conversation.push_back(vec![
            Message::assistant("", vec![listing()]),
            Message::tool("run_cmd", "a.py"),
        ]);
        let settings = Settings::new("/nowhere".into());
        let sent = |state: &State| -> Vec<(Role, String)> {
            let sent = request(state, &settings, 8192, "GOAL: g").messages;
            sent[2..sent.len() - 1]
                .iter()
                .map(|m| (m.role, m.content.clone()))
                .collect()
        };
        let said = |role, text: &str| (role, text.to_string());
        assert_eq!(
            sent(&state),
            [
                said(Role::User, "You answered without calling a tool"),
                said(Role::User, "Call a tool now"),
                said(Role::Assistant, ""),
                said(Role::Tool, "a.py"),
            ]
        );
        // A call that did not parse is kept, for its correction.
        let broken = r#"{"name": "write_file", "arguments": {"path": "a.py", "content": x}}"#;
        let mut tried = state.clone();
        tried.exchanges += 1;
        tried.conversation.push_back(vec![
            Message::assistant(broken, vec![]),
            Message::user("Your last reply had no tool call that could run"),
        ]);
        assert_eq!(
            sent(&tried)[4..],
            [
                said(Role::Assistant, broken),
                said(
                    Role::User,
                    "Your last reply had no tool call that could run"
                )
            ]
        );
        // The answer to a question of the runner's own keeps its words.
        state.answer_exchange = Some(1);
        assert_eq!(
            sent(&state)[1..3],
            [
                said(Role::Assistant, "I will write it."),
                said(Role::User, "Call a tool now"),
            ]
        );
    }
}
