//! (b) of "done?", continued: what a program the goal changes must print
//! with an option the goal names is held to what the goal's words say,
//! not to what the model read off the program's output. The model is
//! asked once a run, before the plan (`begin`; the plan then runs the
//! command until it prints that, see `decompose::to_stated`), from the
//! goal and what the program printed before the run (it is not shown the
//! code nor any output of the work), twice in other words, and a third
//! time when those disagree; every assessment runs each command and holds
//! it to what two answers agree on, or, when none do, to one of the
//! answers (`verdict::hold_to_stated`). g1's cli-flag assessment was
//! shown `greet.py --shout` printing `HELLO, world!`, took it for "the
//! greeting in capitals", and the run ended "Goal achieved".

use super::examples::{lines_of, lines_schema};
use crate::agent::Agent;
use crate::chat::Usage;
use crate::model::ChatReply;
use crate::state::Event;
use crate::state::verdict::{self, CheckRun, StatedOutput, cut, spoken};
use crate::store::{Durability, StoreError};

/// A command and what it printed.
type Printed = (String, String);

/// A command asked about: a program that ran before the plan (`program`)
/// with an option the goal names (`option`, with its value), and what the
/// program printed then (`was`).
struct Asked {
    command: String,
    program: String,
    option: String,
    was: String,
}

/// What the questions of a run cost.
#[derive(Default)]
struct Tally {
    calls: u32,
    usage: Usage,
    retries: u32,
    /// The command of each answer asked again.
    again: Vec<String>,
}

impl Tally {
    fn add(&mut self, reply: &ChatReply) {
        self.calls += 1;
        self.usage += reply.usage;
        self.retries += reply.retries;
    }
}

/// Programs that ran before the plan, and options, asked about at most.
const MAX_PROGRAMS: usize = 2;
const MAX_OPTIONS: usize = 2;
/// Seconds each stated command may run (as the runs after a write).
const STATED_TIMEOUT: u64 = 10;
/// Characters of a program's earlier output shown.
const SHOWN: usize = 300;

/// The first question: what each of `commands` must print, given what the
/// programs printed before the run (`before`: command and output).
fn prints_prompt(before: &[(String, String)], commands: &[String]) -> String {
    let shown: String = before
        .iter()
        .map(|(command, printed)| format!("`{command}` printed:\n{}\n", cut(printed.trim(), SHOWN)))
        .collect();
    let listed: String = commands.iter().map(|c| format!("`{c}`\n")).collect();
    format!(
        "No tool call now. Before this run, {shown}From the GOAL's words and that output alone \
         (not from any code), write exactly what each of these commands must print once the \
         GOAL is done, in the same order:\n{listed}Answer with JSON: {{\"prints\": [\"...\"]}}"
    )
}

/// What the programs printed before the run (`before`), each "`command`
/// VERB "output"", and the commands asked about, one a line.
fn said(before: &[(String, String)], verb: &str, commands: &[String]) -> (String, String) {
    let shown: Vec<String> = before
        .iter()
        .map(|(command, printed)| format!("`{command}` {verb} {:?}", cut(printed.trim(), SHOWN)))
        .collect();
    let listed: String = commands.iter().map(|c| format!("`{c}`\n")).collect();
    (shown.join("; "), listed)
}

/// The second question, in other words, asked apart from the first answer.
fn outputs_prompt(before: &[(String, String)], commands: &[String]) -> String {
    let (shown, listed) = said(before, "printed", commands);
    format!(
        "No tool call now. {shown} before this run, and the GOAL asks for a change. Once it is \
         made, what exact text does each of these commands print?\n{listed}Answer with JSON, one \
         text for each command, in the same order: {{\"outputs\": [\"...\"]}}"
    )
}

/// The third question, asked when the first two answers leave a command
/// with nothing agreed.
fn texts_prompt(before: &[(String, String)], commands: &[String]) -> String {
    let (shown, listed) = said(before, "showed", commands);
    format!(
        "No tool call now. The GOAL is done, and a user types each of these commands:\n{listed}\
         Before the change, {shown}. Judging by the GOAL's words only, write the exact text each \
         command shows the user, in the same order. Answer with JSON: {{\"texts\": [\"...\"]}}"
    )
}

/// Asked right after an answer (`answered`) that gives `asked.command`
/// what its program printed before the run, without the option: what it
/// was read as at first. In a replay of cli-flag's second question (t46),
/// 4 of 5 answers were `Hello, world!` for `python3 greet.py --shout`;
/// asked this after such an answer, 8 of 8 were `HELLO, WORLD!`.
fn again_prompt(asked: &Asked, answered: &str) -> String {
    let Asked {
        command,
        program,
        option,
        ..
    } = asked;
    format!(
        "Your answer for `{command}`, {answered:?}, is what `{program}` printed before this run, \
         without `{option}`. The GOAL says what `{option}` must change. What exact text does \
         `{command}` print once the GOAL is done? Answer with JSON: {{\"with_option\": [\"...\"]}}"
    )
}

impl Agent<'_> {
    /// Each program that ran before the plan and passed, with each option
    /// the goal names (`python3 greet.py --shout`; one that takes a value
    /// with it, `python3 repeat.py --times 2`, see [`verdict::with_value`]),
    /// and those programs with what they printed; each command with what
    /// its program printed. Without its value, t1's repeat-times was held
    /// to nothing but the assessment's reading of the check.
    fn stated_commands(&self) -> (Vec<Printed>, Vec<Asked>) {
        let state = self.state();
        let flags: Vec<String> = verdict::named_options(&state.goal)
            .into_iter()
            .take(MAX_OPTIONS)
            .map(|option| verdict::with_value(&state.goal, &option))
            .collect();
        let kept: Vec<&CheckRun> = state
            .ran_before
            .iter()
            .filter(|run| run.passed())
            .take(MAX_PROGRAMS)
            .collect();
        if flags.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let before: Vec<Printed> = kept
            .iter()
            .map(|run| (run.command.clone(), crate::tools::printed(&run.output)))
            .collect();
        let asked = before
            .iter()
            .flat_map(|(program, printed)| {
                flags.iter().map(move |flag| Asked {
                    command: format!("{program} {flag}"),
                    program: program.clone(),
                    option: flag.clone(),
                    was: printed.clone(),
                })
            })
            .collect();
        (before, asked)
    }

    /// The answers to one question (`ask`, whose format asks for `key`),
    /// one for each of `asked`, or fewer when the answer does not give
    /// one for each; an answer that gives a command what its program
    /// printed before the run is asked again right after it (see
    /// [`again_prompt`]), and the answer given then takes its place.
    /// `Ok(None)`: the run ended meanwhile.
    async fn answers(
        &mut self,
        asked: &[Asked],
        ask: String,
        key: &str,
        tally: &mut Tally,
    ) -> Result<Option<Vec<String>>, StoreError> {
        let n = asked.len();
        let Some(reply) = self
            .ask_answer(ask.clone(), lines_schema(key, n, n))
            .await?
        else {
            return Ok(None);
        };
        tally.add(&reply);
        let mut answers = lines_of(&reply.content, key);
        if answers.len() != n {
            return Ok(Some(answers));
        }
        for (answer, command) in answers.iter_mut().zip(asked) {
            if spoken(answer) != spoken(&command.was) {
                continue;
            }
            let earlier = [ask.clone(), reply.content.clone()];
            let Some(again) = self
                .ask_answer_after(
                    Some(earlier),
                    again_prompt(command, answer),
                    lines_schema("with_option", 1, 1),
                )
                .await?
            else {
                return Ok(None);
            };
            tally.add(&again);
            tally.again.push(command.command.clone());
            if let Some(text) = lines_of(&again.content, "with_option").into_iter().next() {
                *answer = text;
            }
        }
        Ok(Some(answers))
    }

    /// Asks what the goal's options must make the programs print, once a
    /// run (before the plan, see `begin`), when a program ran before the
    /// plan and the goal names an option. `Ok(false)`: the run ended
    /// meanwhile.
    pub(in crate::agent) async fn ask_outputs(&mut self) -> Result<bool, StoreError> {
        if self.state().outputs.is_some() {
            return Ok(true);
        }
        let (before, asked) = self.stated_commands();
        if asked.is_empty() {
            return Ok(true);
        }
        let commands: Vec<String> = asked.iter().map(|a| a.command.clone()).collect();
        let head = self.head();
        let n = commands.len();
        let mut tally = Tally::default();
        let first = format!("{head}\n\n{}", prints_prompt(&before, &commands));
        let Some(firsts) = self.answers(&asked, first, "prints", &mut tally).await? else {
            return Ok(false);
        };
        let second = format!("{head}\n\n{}", outputs_prompt(&before, &commands));
        let Some(seconds) = self.answers(&asked, second, "outputs", &mut tally).await? else {
            return Ok(false);
        };
        // Answers that are not one for each command are read as none.
        let mut outputs: Vec<StatedOutput> = match (firsts.len() == n, seconds.len() == n) {
            (true, true) => asked
                .iter()
                .zip(firsts.into_iter().zip(seconds))
                .map(|(asked, (a, b))| StatedOutput {
                    command: asked.command.clone(),
                    prints: vec![a, b],
                    was: asked.was.clone(),
                })
                .collect(),
            _ => Vec::new(),
        };
        if !outputs.iter().all(StatedOutput::settled) {
            let third = format!("{head}\n\n{}", texts_prompt(&before, &commands));
            let Some(thirds) = self.answers(&asked, third, "texts", &mut tally).await? else {
                return Ok(false);
            };
            if thirds.len() == n {
                for (output, text) in outputs.iter_mut().zip(thirds) {
                    output.prints.push(text);
                }
            }
        }
        self.record(
            Event::OutputsStated {
                outputs,
                asked_again: tally.again,
                calls: tally.calls,
                usage: tally.usage,
                retries: tally.retries,
            },
            Durability::Lazy,
        )?;
        Ok(true)
    }

    /// Each stated command with an answer left (see
    /// [`StatedOutput::readings`]), run now: what it printed, `None` when it
    /// failed.
    pub(super) async fn run_stated(&mut self) -> Vec<(String, Option<String>)> {
        let stated = self.state().outputs.clone().unwrap_or_default();
        let mut runs = Vec::new();
        for output in stated.iter().filter(|o| !o.readings().is_empty()) {
            if self.stop.is_requested() {
                break;
            }
            let run = self
                .run_check_within(&output.command, Some(STATED_TIMEOUT))
                .await;
            let printed = run.passed().then(|| crate::tools::printed(&run.output));
            runs.push((output.command.clone(), printed));
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_questions_show_what_ran_before_and_no_output_of_now() {
        let before = vec![("python3 greet.py".to_string(), "Hello, world!".to_string())];
        let commands = vec!["python3 greet.py --shout".to_string()];
        let first = prints_prompt(&before, &commands);
        assert!(
            first.contains("Before this run, `python3 greet.py` printed:\nHello, world!\n"),
            "{first}"
        );
        assert!(first.contains("`python3 greet.py --shout`\n"), "{first}");
        let second = outputs_prompt(&before, &commands);
        assert!(
            second.contains("`python3 greet.py` printed \"Hello, world!\" before this run"),
            "{second}"
        );
        assert!(second.ends_with("{\"outputs\": [\"...\"]}"), "{second}");
        let third = texts_prompt(&before, &commands);
        assert!(
            third.contains("Before the change, `python3 greet.py` showed \"Hello, world!\"."),
            "{third}"
        );
        assert!(!third.contains("HELLO"), "{third}");
    }
}
