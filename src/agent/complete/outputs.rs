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
use crate::state::Event;
use crate::state::verdict::{self, CheckRun, StatedOutput, cut};
use crate::store::{Durability, StoreError};

/// A command and what it printed (for a stated command: what its program
/// printed without the option).
type Printed = (String, String);

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

impl Agent<'_> {
    /// Each program that ran before the plan and passed, with each option
    /// the goal names (`python3 greet.py --shout`; one that takes a value
    /// with it, `python3 repeat.py --times 2`, see [`verdict::with_value`]),
    /// and those programs with what they printed; each command with what
    /// its program printed. Without its value, t1's repeat-times was held
    /// to nothing but the assessment's reading of the check.
    fn stated_commands(&self) -> (Vec<Printed>, Vec<Printed>) {
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
        let commands = before
            .iter()
            .flat_map(|(command, printed)| {
                flags
                    .iter()
                    .map(move |flag| (format!("{command} {flag}"), printed.clone()))
            })
            .collect();
        (before, commands)
    }

    /// Asks what the goal's options must make the programs print, once a
    /// run (before the plan, see `begin`), when a program ran before the
    /// plan and the goal names an option. `Ok(false)`: the run ended
    /// meanwhile.
    pub(in crate::agent) async fn ask_outputs(&mut self) -> Result<bool, StoreError> {
        if self.state().outputs.is_some() {
            return Ok(true);
        }
        let (before, stated) = self.stated_commands();
        if stated.is_empty() {
            return Ok(true);
        }
        let commands: Vec<String> = stated.iter().map(|(c, _)| c.clone()).collect();
        let head = self.head();
        let n = commands.len();
        let first = format!("{head}\n\n{}", prints_prompt(&before, &commands));
        let Some(first) = self.ask_answer(first, lines_schema("prints", n, n)).await? else {
            return Ok(false);
        };
        let second = format!("{head}\n\n{}", outputs_prompt(&before, &commands));
        let Some(second) = self
            .ask_answer(second, lines_schema("outputs", n, n))
            .await?
        else {
            return Ok(false);
        };
        let (firsts, seconds) = (
            lines_of(&first.content, "prints"),
            lines_of(&second.content, "outputs"),
        );
        // Answers that are not one for each command are read as none.
        let mut outputs: Vec<StatedOutput> = match (firsts.len() == n, seconds.len() == n) {
            (true, true) => stated
                .into_iter()
                .zip(firsts.into_iter().zip(seconds))
                .map(|((command, was), (a, b))| StatedOutput {
                    command,
                    prints: vec![a, b],
                    was,
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut usage = first.usage;
        usage += second.usage;
        let mut retries = first.retries + second.retries;
        if !outputs.iter().all(StatedOutput::settled) {
            let third = format!("{head}\n\n{}", texts_prompt(&before, &commands));
            let Some(third) = self.ask_answer(third, lines_schema("texts", n, n)).await? else {
                return Ok(false);
            };
            let thirds = lines_of(&third.content, "texts");
            if thirds.len() == n {
                for (output, text) in outputs.iter_mut().zip(thirds) {
                    output.prints.push(text);
                }
            }
            usage += third.usage;
            retries += third.retries;
        }
        self.record(
            Event::OutputsStated {
                outputs,
                usage,
                retries,
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
