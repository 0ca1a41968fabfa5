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
//! greeting in capitals", and the run ended "Goal achieved". So is what a
//! run of a program of the project that the goal quotes with words after
//! it prints (t73's tip-percent: "so that `python tip.py 40 20` prints
//! 8.00"), held only to what two answers agree on.

use super::checks::same_command;
use super::examples::{items_of, lines_of, lines_schema};
use crate::agent::Agent;
use crate::chat::Usage;
use crate::model::ChatReply;
use crate::state::Event;
use crate::state::verdict::{self, CheckRun, StatedOutput, cut, spoken};
use crate::store::{Durability, StoreError};

/// A command and what it printed.
type Printed = (String, String);

/// The texts of an answer under `key`, trimmed, in order: an empty one is
/// kept in its place (it says the goal gives no text for that command, see
/// [`unsaid`]), where [`lines_of`] would shift the rest onto the wrong
/// commands.
fn texts_of(content: &str, key: &str) -> Vec<String> {
    items_of(content, key)
        .iter()
        .map(|text| text.as_str().map(|text| text.trim().to_string()))
        .collect::<Option<Vec<String>>>()
        .unwrap_or_default()
}

/// A command asked about: a program that ran before the plan (`program`)
/// with an option the goal names (`option`, with its value), and what the
/// program printed then (`was`); or a run the goal quotes (see
/// [`verdict::goal_runs`]: `option` empty), and what it printed before
/// the run, when it passed.
struct Asked {
    command: String,
    program: String,
    option: String,
    was: String,
}

/// A run the goal quotes or gives as an example (see `Agent::goal_runs`),
/// or the same without its last word (`shorter`), and what it printed
/// before the run, `None` when it failed.
struct GoalRun {
    command: String,
    printed: Option<String>,
    shorter: bool,
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

/// Programs that ran before the plan, options, and runs the goal quotes,
/// asked about at most.
const MAX_PROGRAMS: usize = 2;
const MAX_OPTIONS: usize = 2;
const MAX_QUOTED: usize = 2;
/// Seconds each stated command may run (as the runs after a write).
const STATED_TIMEOUT: u64 = 10;
/// Characters of a program's earlier output shown.
const SHOWN: usize = 300;

/// The question asked when the goal quotes no run of its program (`run`,
/// `python3 binary.py`) and gives it arguments: the words given after it
/// in the runs whose output the goal's words decide.
fn examples_prompt(run: &str) -> String {
    format!(
        "No tool call now. From the GOAL's words alone (not from any code): in which runs of \
         `{run}` do the GOAL's words decide exactly what it prints (an example the GOAL gives, \
         or a case its words settle)? Write the words given after `{run}` in each such run, at \
         most {MAX_QUOTED}, and none when the GOAL's words settle no output. Answer with JSON: \
         {{\"arguments\": [\"...\"]}}"
    )
}

/// The words of an answer (`given`) after `run`'s program: an answer may
/// give the whole command line.
fn words_after(run: &str, given: &str, is_program: impl Fn(&str) -> bool) -> Vec<String> {
    let words = shell_words::split(given).unwrap_or_default();
    match words.iter().position(|w| run.ends_with(w.as_str())) {
        Some(at) if is_program(&words[at]) => words[at + 1..].to_vec(),
        _ => words,
    }
}

/// Asked when every run the goal quotes or gives as an example prints
/// what it printed before (`before`, see [`verdict::shows_no_change`]):
/// the words given after `run` in a run whose output the goal's change
/// alters.
fn changed_prompt(run: &str, before: &[(String, String)]) -> String {
    let (shown, _) = said(before, "printed", &[]);
    format!(
        "No tool call now. Before this run, {shown}, and by the GOAL's words these runs of \
         `{run}` print the same once the GOAL is done. The GOAL asks for a change: from its \
         words alone, give the words given after `{run}` in one run whose output the change \
         alters (a case the GOAL's words speak of that those runs do not show), or none when \
         the GOAL changes no output of `{run}`. Answer with JSON: {{\"changed\": [\"...\"]}}"
    )
}

/// Said of runs the goal quotes (`quoted`): the goal may not say what one
/// prints, and an empty answer says so (no reading, see
/// [`StatedOutput::readings`]) where a guess would hold a right program
/// to a wrong text.
fn unsaid(quoted: bool) -> &'static str {
    match quoted {
        true => " Where the GOAL's words do not say what a command prints, give \"\" for it.",
        false => "",
    }
}

/// The first question: what each of `commands` must print, given what the
/// programs printed before the run (`before`: command and output).
fn prints_prompt(before: &[(String, String)], commands: &[String], quoted: bool) -> String {
    let shown: String = before
        .iter()
        .map(|(command, printed)| format!("`{command}` printed:\n{}\n", cut(printed.trim(), SHOWN)))
        .collect();
    let listed: String = commands.iter().map(|c| format!("`{c}`\n")).collect();
    let (from, what) = match before.is_empty() {
        true => (String::new(), "the GOAL's words alone"),
        false => (
            format!("Before this run, {shown}"),
            "the GOAL's words and that output alone",
        ),
    };
    format!(
        "No tool call now. {from}From {what} (not from any code), write exactly what each of \
         these commands must print once the GOAL is done, in the same order:\n{listed}Answer \
         with JSON: {{\"prints\": [\"...\"]}}{}",
        unsaid(quoted)
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
fn outputs_prompt(before: &[(String, String)], commands: &[String], quoted: bool) -> String {
    let (shown, listed) = said(before, "printed", commands);
    let asks = match before.is_empty() {
        true => "The GOAL asks for a change.".to_string(),
        false => format!("{shown} before this run, and the GOAL asks for a change."),
    };
    format!(
        "No tool call now. {asks} Once it is made, what exact text \
         does each of these commands print?\n{listed}Answer with JSON, one text for each \
         command, in the same order: {{\"outputs\": [\"...\"]}}{}",
        unsaid(quoted)
    )
}

/// The third question, asked when the first two answers leave a command
/// with nothing agreed.
fn texts_prompt(before: &[(String, String)], commands: &[String], quoted: bool) -> String {
    let (shown, listed) = said(before, "showed", commands);
    let shown = match before.is_empty() {
        true => String::new(),
        false => format!("Before the change, {shown}. "),
    };
    format!(
        "No tool call now. The GOAL is done, and a user types each of these commands:\n{listed}\
         {shown}Judging by the GOAL's words only, write the exact text each command shows the \
         user, in the same order. Answer with JSON: {{\"texts\": [\"...\"]}}{}",
        unsaid(quoted)
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
    if option.is_empty() {
        return format!(
            "Your answer for `{command}`, {answered:?}, is what it printed before this run. What \
             exact text does `{command}` print once the GOAL is done (the same text, if the GOAL \
             does not change it)? Answer with JSON: {{\"with_option\": [\"...\"]}}"
        );
    }
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

    /// The runs of programs that the goal quotes (see
    /// [`verdict::goal_runs`]), but those already `asked` with an option;
    /// when it quotes none and gives its program arguments, in words that
    /// call no function, the runs the model gives as the goal's examples
    /// (see [`examples_prompt`]: t74's binary, "for example 10 gives 1010",
    /// printed `01010` and ended "Goal achieved"). Each is run once as the
    /// project is before the plan: what it printed, `None` when it failed
    /// (a program the goal asks for that is not there yet). `Ok(None)`:
    /// the run ended meanwhile.
    async fn goal_runs(
        &mut self,
        asked: &[Asked],
        tally: &mut Tally,
    ) -> Result<Option<(Vec<GoalRun>, Option<String>)>, StoreError> {
        let run_of = |word: &str| {
            let language = self
                .languages
                .iter()
                .find(|l| l.owns(word) && !l.is_test(word))?;
            Some(language.run_command(word))
        };
        let is_file = |word: &str| self.tools.contents(word).is_some();
        let goal = self.state().goal.clone();
        let mut commands: Vec<String> = verdict::goal_runs(&goal, run_of, is_file)
            .into_iter()
            .filter(|command| !asked.iter().any(|a| same_command(&a.command, command)))
            .collect();
        let gives = verdict::given_arguments(&goal) || verdict::speaks_of_arguments(&goal);
        let example = (commands.is_empty() && gives && crate::lang::called_names(&goal).is_empty())
            .then(|| verdict::named_program(&goal, run_of))
            .flatten()
            .filter(|(word, _)| !self.is_library(word));
        if let Some((_, run)) = &example {
            let run = run.as_str();
            let head = self.head();
            let ask = format!("{head}\n\n{}", examples_prompt(run));
            let format = lines_schema("arguments", 0, MAX_QUOTED);
            let Some(reply) = self.ask_answer(ask, format).await? else {
                return Ok(None);
            };
            tally.add(&reply);
            for given in lines_of(&reply.content, "arguments") {
                let words = words_after(run, &given, |w| run_of(w).is_some());
                if let Some(command) = verdict::plain_run(run, &words, is_file)
                    && !commands.iter().any(|known| same_command(known, &command))
                {
                    commands.push(command);
                }
            }
        }
        let mut runs = Vec::new();
        for command in commands.into_iter().take(MAX_QUOTED) {
            if self.stop.is_requested() {
                break;
            }
            let shorter = self.shorter_run(&command);
            let run = self.run_check_within(&command, Some(STATED_TIMEOUT)).await;
            let printed = run.passed().then(|| crate::tools::printed(&run.output));
            runs.push(GoalRun {
                command,
                printed,
                shorter: false,
            });
            let Some(shorter) =
                shorter.filter(|s| !runs.iter().any(|r| same_command(&r.command, s)))
            else {
                continue;
            };
            let run = self.run_check_within(&shorter, Some(STATED_TIMEOUT)).await;
            if run.passed() {
                runs.push(GoalRun {
                    command: shorter,
                    printed: Some(crate::tools::printed(&run.output)),
                    shorter: true,
                });
            }
        }
        Ok(Some((runs, example.map(|(_, run)| run))))
    }

    /// The run the model names as one whose output the goal's change alters
    /// (see [`changed_prompt`]), when the runs the goal gives as examples of
    /// `run` show no change: held to print something else than it printed
    /// now, before the plan. `Ok(None)`: the run ended meanwhile.
    async fn changed_run(
        &mut self,
        run: &str,
        outputs: &[StatedOutput],
        tally: &mut Tally,
    ) -> Result<Option<Option<StatedOutput>>, StoreError> {
        let before: Vec<(String, String)> = outputs
            .iter()
            .filter(|o| o.quoted && !o.was.trim().is_empty())
            .map(|o| (o.command.clone(), o.was.clone()))
            .collect();
        let head = self.head();
        let ask = format!("{head}\n\n{}", changed_prompt(run, &before));
        let Some(reply) = self.ask_answer(ask, lines_schema("changed", 0, 1)).await? else {
            return Ok(None);
        };
        tally.add(&reply);
        let runs_a_program = |word: &str| {
            self.languages
                .iter()
                .any(|l| l.owns(word) && !l.is_test(word))
        };
        let is_file = |word: &str| self.tools.contents(word).is_some();
        let command = lines_of(&reply.content, "changed")
            .into_iter()
            .next()
            .map(|given| words_after(run, &given, runs_a_program))
            .filter(|words| !words.is_empty())
            .and_then(|words| verdict::plain_run(run, &words, is_file))
            .filter(|command| !outputs.iter().any(|o| same_command(&o.command, command)));
        let Some(command) = command else {
            return Ok(Some(None));
        };
        let now = self.run_check_within(&command, Some(STATED_TIMEOUT)).await;
        let was = match now.passed() {
            true => crate::tools::printed(&now.output),
            false => String::new(),
        };
        Ok(Some(Some(StatedOutput {
            command,
            prints: Vec::new(),
            was,
            quoted: true,
            changes: true,
        })))
    }

    /// A run of a program the project had with two words or more after it
    /// (`python3 tip.py 40 20`), without the last one (`python3 tip.py
    /// 40`): the case a goal that adds to what the program takes may leave
    /// as it was. t75's tip-percent was held to `tip.py 40 20` printing
    /// 8.00 and made every tip 20%; its assessment read the `8.00` of
    /// `tip.py 40` as "15% by default", and the run ended "Goal achieved".
    fn shorter_run(&self, command: &str) -> Option<String> {
        let words = shell_words::split(command).ok()?;
        let at = words.iter().position(|word| {
            self.state().baseline.files.contains_key(word.as_str())
                && self
                    .languages
                    .iter()
                    .any(|l| l.owns(word) && !l.is_test(word))
        })?;
        (words.len() >= at + 3).then(|| shell_words::join(&words[..words.len() - 1]))
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
        let mut answers = texts_of(&reply.content, key);
        if answers.len() != n {
            return Ok(Some(answers));
        }
        for (answer, command) in answers.iter_mut().zip(asked) {
            // A quoted run that printed nothing before has nothing to
            // answer again of.
            let nothing = command.option.is_empty() && spoken(&command.was).is_empty();
            if nothing || spoken(answer) != spoken(&command.was) {
                continue;
            }
            // A quoted run is asked again once: the answer given then
            // stands (t77's welcome-many asked the same two runs again six
            // times, and each answer was what it printed before).
            let once = command.option.is_empty() && tally.again.contains(&command.command);
            if once {
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
    /// plan and the goal names an option; and what each run of a program
    /// of the project that the goal quotes prints (see [`Self::goal_runs`]).
    /// `Ok(false)`: the run ended meanwhile.
    pub(in crate::agent) async fn ask_outputs(&mut self) -> Result<bool, StoreError> {
        if self.state().outputs.is_some() {
            return Ok(true);
        }
        let (mut before, mut asked) = self.stated_commands();
        let mut tally = Tally::default();
        let Some((runs, example)) = self.goal_runs(&asked, &mut tally).await? else {
            return Ok(false);
        };
        for GoalRun {
            command,
            printed,
            shorter,
        } in runs
        {
            // A shorter run is held to what it prints once the goal is
            // done, whether that is what it printed before or not.
            let was = match shorter {
                true => String::new(),
                false => printed.clone().unwrap_or_default(),
            };
            if let Some(printed) = printed {
                before.push((command.clone(), printed));
            }
            asked.push(Asked {
                program: command.clone(),
                command,
                option: String::new(),
                was,
            });
        }
        if asked.is_empty() {
            return Ok(true);
        }
        let commands: Vec<String> = asked.iter().map(|a| a.command.clone()).collect();
        let quoted = asked.iter().any(|a| a.option.is_empty());
        let head = self.head();
        let n = commands.len();
        let first = format!("{head}\n\n{}", prints_prompt(&before, &commands, quoted));
        let Some(firsts) = self.answers(&asked, first, "prints", &mut tally).await? else {
            return Ok(false);
        };
        let second = format!("{head}\n\n{}", outputs_prompt(&before, &commands, quoted));
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
                    quoted: asked.option.is_empty(),
                    changes: false,
                })
                .collect(),
            _ => Vec::new(),
        };
        if !outputs.iter().all(StatedOutput::settled) {
            let third = format!("{head}\n\n{}", texts_prompt(&before, &commands, quoted));
            let Some(thirds) = self.answers(&asked, third, "texts", &mut tally).await? else {
                return Ok(false);
            };
            if thirds.len() == n {
                for (output, text) in outputs.iter_mut().zip(thirds) {
                    output.prints.push(text);
                }
            }
        }
        let mut outputs = verdict::without_outputs_read_as_inputs(outputs);
        if let Some(run) = example.filter(|_| verdict::shows_no_change(&outputs)) {
            let Some(changed) = self.changed_run(&run, &outputs, &mut tally).await? else {
                return Ok(false);
            };
            outputs.extend(changed);
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
        for output in stated
            .iter()
            .filter(|o| o.changes || !o.readings().is_empty())
        {
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
    fn an_empty_answer_keeps_its_place() {
        assert_eq!(
            texts_of(r#"{"prints": [" HELLO ", "", "7.00"]}"#, "prints"),
            ["HELLO", "", "7.00"]
        );
        assert!(texts_of(r#"{"prints": ["a", 1]}"#, "prints").is_empty());
        assert!(texts_of("no json", "prints").is_empty());
    }

    #[test]
    fn a_quoted_run_alone_is_asked_from_the_goal_s_words_and_may_be_unsaid() {
        let commands = vec!["python3 fee.py 100 7".to_string()];
        let first = prints_prompt(&[], &commands, true);
        assert!(
            first.starts_with("No tool call now. From the GOAL's words alone (not from any code)"),
            "{first}"
        );
        assert!(first.ends_with("give \"\" for it."), "{first}");
        let second = outputs_prompt(&[], &commands, true);
        assert!(
            second.starts_with("No tool call now. The GOAL asks for a change. Once it is made"),
            "{second}"
        );
        let third = texts_prompt(&[], &commands, false);
        assert!(!third.contains("Before the change"), "{third}");
        assert!(third.ends_with("{\"texts\": [\"...\"]}"), "{third}");
    }

    #[test]
    fn the_questions_show_what_ran_before_and_no_output_of_now() {
        let before = vec![("python3 greet.py".to_string(), "Hello, world!".to_string())];
        let commands = vec!["python3 greet.py --shout".to_string()];
        let first = prints_prompt(&before, &commands, false);
        assert!(
            first.contains("Before this run, `python3 greet.py` printed:\nHello, world!\n"),
            "{first}"
        );
        assert!(first.contains("`python3 greet.py --shout`\n"), "{first}");
        let second = outputs_prompt(&before, &commands, false);
        assert!(
            second.contains("`python3 greet.py` printed \"Hello, world!\" before this run"),
            "{second}"
        );
        assert!(second.ends_with("{\"outputs\": [\"...\"]}"), "{second}");
        let third = texts_prompt(&before, &commands, false);
        assert!(
            third.contains("Before the change, `python3 greet.py` showed \"Hello, world!\"."),
            "{third}"
        );
        assert!(!third.contains("HELLO"), "{third}");
    }
}
