//! (b) of "done?", continued: what a program prints for a file of the
//! workspace it reads (a sample) is held to what the goal's words give for
//! that file's content, not to what the assessment read off the program's
//! output. At an assessment of a goal that asks what a program prints, each
//! command that shows a requirement and names such a file is asked about
//! from the goal and the file's content alone (not the code, not any
//! output), twice in other words and a third time when those disagree;
//! asked again only when the file changed (see `crate::state::samples`).
//! q2's line-count: the assessment held `python3 line_count.py sample.txt`
//! to the `3.0` it had been shown, for a sample of two lines.

use serde_json::{Value, json};

use super::assess::json_of;
use super::examples::spelled;
use crate::agent::Agent;
use crate::agent::prompt;
use crate::digest::sha256_hex;
use crate::state::Event;
use crate::state::samples::{self, Sample, SampleChoice, SampleReading};
use crate::state::verdict::{self, Requirement};
use crate::store::{Durability, StoreError};

/// Commands read at one assessment, at most.
const MAX_READ: usize = 4;
/// Writings of a program, at most (see [`Agent::written_prints`]).
const WRITINGS: u32 = 3;
/// How long a program written apart may run.
const WRITTEN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);
/// An answer's characters, at most.
const MAX_TEXT: usize = 300;

/// The format of an answer of one text under `key`.
pub(super) fn text_schema(key: &str) -> Value {
    json!({
        "type": "object",
        "properties": { key: { "type": "string", "maxLength": MAX_TEXT } },
        "required": [key]
    })
}

/// Each sample, named, with its figures and its content.
fn shown_samples(samples: &[(String, String)]) -> String {
    samples
        .iter()
        .map(|(path, content)| {
            format!(
                "{path} ({}) holds exactly:\n```\n{content}\n```\n",
                samples::figures(content)
            )
        })
        .collect()
}

/// The questions, each in other words, asked apart from the answers
/// before: the key of the answer and the question.
fn question(asked: u32, command: &str, samples: &[(String, String)]) -> (&'static str, String) {
    let shown = shown_samples(samples);
    let content = match samples.is_empty() {
        true => "",
        false => " and that content",
    };
    match asked {
        0 => (
            "must_print",
            format!(
                "No tool call now. {shown}From the GOAL's words{content} alone (not from any \
                 code, nor any program's output), write exactly what `{command}` must print \
                 once the GOAL is done. Answer with JSON: {{\"must_print\": \"...\"}}"
            ),
        ),
        1 => (
            "output",
            format!(
                "No tool call now. A user runs `{command}`, and the program does exactly what \
                 the GOAL says. {shown}What exact text does the program print? Answer with \
                 JSON: {{\"output\": \"...\"}}"
            ),
        ),
        _ => (
            "shows",
            format!(
                "No tool call now. The GOAL is done and a user types `{command}`. {shown}\
                 Judging by the GOAL's words only, write the exact text the command shows the \
                 user. Answer with JSON: {{\"shows\": \"...\"}}"
            ),
        ),
    }
}

impl Agent<'_> {
    /// The commands of `requirements` that read samples, with them and
    /// their content, each once, at most [`MAX_READ`]; none when the goal
    /// asks for no output.
    fn sampled(&self, requirements: &[Requirement]) -> Vec<(String, Vec<(String, String)>)> {
        if !verdict::speaks_of_output(&self.state().goal) {
            return Vec::new();
        }
        let mut found: Vec<(String, Vec<(String, String)>)> = Vec::new();
        for requirement in requirements.iter().filter(|r| !r.about_tests) {
            let Some(shown_by) = &requirement.shown_by else {
                continue;
            };
            let command = shown_by.command.split_whitespace().collect::<Vec<_>>();
            let command = command.join(" ");
            if command.is_empty()
                || found.iter().any(|(c, _)| *c == command)
                || self.languages.iter().any(|l| l.runs_tests(&command))
            {
                continue;
            }
            let samples = samples::samples_of(
                &command,
                |path| self.tools.text(path),
                |path| self.languages.iter().any(|l| l.owns(path)),
            )
            .or_else(|| self.read_by_arguments(&command).then(Vec::new));
            if let Some(samples) = samples {
                found.push((command, samples));
            }
            if found.len() == MAX_READ {
                break;
            }
        }
        found
    }

    /// Whether `command`, which reads no sample, is read all the same:
    /// it runs a program the run makes anew with arguments, and is not a
    /// run the goal gives (the goal's own text holds those). What such a
    /// command prints is otherwise the assessment's guess: t100's
    /// run-length printed `a3b1c2` for the goal's `aaabcc` at its first
    /// write, and the assessment held `python3 rle.py aaaa` to "a5"; the
    /// cycles that followed broke the program.
    fn read_by_arguments(&self, command: &str) -> bool {
        let Ok(words) = shell_words::split(command) else {
            return false;
        };
        let goal: Vec<&str> = self.state().goal.split_whitespace().collect();
        let given = goal.windows(words.len().max(1)).any(|w| {
            w.iter()
                .map(|word| {
                    word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | '.' | ':'))
                })
                .eq(words.iter().map(String::as_str))
        });
        let program = self.languages.iter().find_map(|l| l.program_in(command));
        // `python3 PATH ARG...`: the program's path is the second word.
        !given
            && words.len() > 2
            && program.is_some_and(|path| !self.state().baseline.files.contains_key(&path))
    }

    /// The readings of the commands of `requirements` that read samples,
    /// as the files are now: kept from an earlier assessment when no file
    /// changed, else asked and recorded. `Ok(None)`: the run ended
    /// meanwhile.
    pub(super) async fn read_samples(
        &mut self,
        requirements: &[Requirement],
    ) -> Result<Option<Vec<SampleReading>>, StoreError> {
        let mut current = Vec::new();
        let mut asked_now = Vec::new();
        let mut programs = Programs::default();
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        for (command, files) in self.sampled(requirements) {
            let samples: Vec<Sample> = files
                .iter()
                .map(|(path, content)| Sample {
                    path: path.clone(),
                    sha256: sha256_hex(content.as_bytes()),
                })
                .collect();
            let known = self
                .state()
                .samples
                .iter()
                .find(|r| r.command == command && r.samples == samples)
                .cloned();
            if let Some(known) = known {
                current.push(known);
                continue;
            }
            let mut reading = SampleReading {
                command: command.clone(),
                samples,
                prints: Vec::new(),
                asked: 0,
                written: Vec::new(),
                programs: Vec::new(),
            };
            let head = self.head();
            while reading.asked < 2 || !reading.settled() {
                let (key, ask) = question(reading.asked, &command, &files);
                let Some(reply) = self
                    .ask_answer(format!("{head}\n\n{ask}"), text_schema(key))
                    .await?
                else {
                    return Ok(None);
                };
                reading.asked += 1;
                usage += reply.usage;
                retries += reply.retries;
                // The question said back is no reading of the goal.
                let answer = json_of(&reply.content)
                    .ok()
                    .and_then(|value| value[key].as_str().map(str::to_string))
                    .filter(|answer| !samples::echoes(answer, &command, &files));
                reading.prints.extend(answer);
            }
            let Some((written, used, again)) =
                self.written_prints(&command, &files, &mut programs).await?
            else {
                return Ok(None);
            };
            (reading.written, reading.programs) = written.into_iter().unzip();
            usage += used;
            retries += again;
            asked_now.push(reading.clone());
            current.push(reading);
        }
        if !asked_now.is_empty() {
            self.record(
                Event::SamplesRead {
                    readings: asked_now,
                    usage,
                    retries,
                },
                Durability::Lazy,
            )?;
        }
        Ok(Some(current))
    }
}

/// The writings of each program asked at one reading of the samples, in
/// the order asked (`None`: an answer with no code): the commands that run
/// the same program run the same writings.
#[derive(Default)]
struct Programs(Vec<(String, Vec<Option<String>>)>);

/// What a program is asked for, written of its own.
fn program_prompt(path: &str, language: &str) -> String {
    format!(
        "Write the whole {language} program {path} as the GOAL's words describe it: one file \
         that reads what the GOAL says it reads, the way the GOAL says, and prints what the GOAL \
         asks. No tests, no examples, no other files."
    )
}

impl Agent<'_> {
    /// What programs written of their own from the goal's words (not
    /// shown the run's code nor any output) print when run as `command`
    /// on copies of `files` (see [`SampleReading::written`]), with the
    /// usage and retries of the questions: two writings, the second
    /// warmer, and a third when those two do not print alike or one did
    /// not run. Only for a program the run makes anew: one the project
    /// had does more than the goal's words say. `None` when the run ended
    /// meanwhile.
    async fn written_prints(
        &mut self,
        command: &str,
        files: &[(String, String)],
        programs: &mut Programs,
    ) -> Result<Option<(Vec<(String, String)>, crate::chat::Usage, u32)>, StoreError> {
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let mut printed: Vec<(String, String)> = Vec::new();
        let languages = self.languages;
        let found = languages
            .iter()
            .find_map(|language| Some((language.as_ref(), language.program_in(command)?)));
        let Some((language, path)) = found else {
            return Ok(Some((printed, usage, retries)));
        };
        if self.state().baseline.files.contains_key(&path) {
            return Ok(Some((printed, usage, retries)));
        }
        let at = match programs.0.iter().position(|(known, _)| *known == path) {
            Some(at) => at,
            None => {
                programs.0.push((path.clone(), Vec::new()));
                programs.0.len() - 1
            }
        };
        for again in 0..WRITINGS {
            if again == 2 {
                let outputs: Vec<String> = printed.iter().map(|(out, _)| out.clone()).collect();
                if outputs.is_empty() || samples::written_alike(&outputs).is_some() {
                    break;
                }
            }
            if programs.0[at].1.len() <= again as usize {
                let ask = format!(
                    "{}\n\n{}",
                    self.head(),
                    program_prompt(&path, &spelled(language.name()))
                );
                let request = prompt::writing_request(
                    prompt::Writing::Program,
                    self.settings,
                    self.num_ctx,
                    ask,
                    again * 2,
                );
                let Some(reply) = self.answer_to(&request).await? else {
                    return Ok(None);
                };
                usage += reply.usage;
                retries += reply.retries;
                tracing::info!(%path, answer = %reply.content, "the program written again");
                programs.0[at]
                    .1
                    .push(super::examples::code_of(&reply.content));
            }
            let Some(source) = programs.0[at].1[again as usize].clone() else {
                continue;
            };
            let Some(run) = language.written_program_command(&source, command) else {
                break;
            };
            let outcome = self
                .tools
                .run_own_apart(&run, files, WRITTEN_TIMEOUT, &self.stop)
                .await;
            let output = crate::tools::printed(&outcome.result);
            tracing::info!(%command, exit_code = ?outcome.exit_code, %output, "a program written again, run");
            if outcome.exit_code == Some(0) && !output.trim().is_empty() {
                printed.push((output.trim().to_string(), source));
            }
        }
        Ok(Some((printed, usage, retries)))
    }
}

/// The question between what `command` printed and `readings`, in
/// `order` (indexes of `options`: the output first, then the readings).
fn choice_question(
    command: &str,
    samples: &[(String, String)],
    options: &[String],
    order: &[usize],
) -> String {
    let letters = ['a', 'b', 'c', 'd'];
    let listed: String = order
        .iter()
        .zip(letters)
        .map(|(at, letter)| format!("({letter})\n```\n{}\n```\n", options[*at]))
        .collect();
    let allowed: Vec<String> = letters[..order.len()]
        .iter()
        .map(|l| format!("\"{l}\""))
        .collect();
    format!(
        "No tool call now. {}From the GOAL's words and that content alone (not from any code), \
         which of these is exactly what `{command}` must print once the GOAL is done?\n{listed}\
         Work it out in `why`, in one or two short sentences, then give the letter ({}). \
         Answer with JSON: {{\"why\": \"...\", \"letter\": \"a\"}}",
        shown_samples(samples),
        allowed.join(", ")
    )
}

fn letter_schema(count: usize) -> Value {
    let letters: Vec<String> = ["a", "b", "c", "d"][..count]
        .iter()
        .map(|l| l.to_string())
        .collect();
    json!({
        "type": "object",
        "properties": {
            "why": { "type": "string", "maxLength": MAX_TEXT },
            "letter": { "type": "string", "enum": letters }
        },
        "required": ["why", "letter"]
    })
}

/// The place (0 for `a`) of the letter a choice answer gives.
fn letter_of(content: &str) -> Option<usize> {
    let value = json_of(content).ok()?;
    let letter = value["letter"].as_str()?.trim();
    let letter = letter
        .trim_matches(|c| c == '(' || c == ')')
        .to_ascii_lowercase();
    ["a", "b", "c", "d"].iter().position(|l| *l == letter)
}

impl Agent<'_> {
    /// What the model chose for each command whose readings disagree and
    /// do not foresee what it printed (see
    /// [`samples::hold_to_chosen`]): asked twice, the output put first
    /// once and last once, once a run for the same samples and output.
    /// `Ok(None)`: the run ended meanwhile.
    pub(super) async fn choose_samples(
        &mut self,
        requirements: &[Requirement],
        readings: &[SampleReading],
        runs: &[verdict::Shown],
    ) -> Result<Option<Vec<SampleChoice>>, StoreError> {
        let mut choices = Vec::new();
        for (reading, printed) in samples::unforeseen(requirements, readings, runs) {
            let known = self.state().sample_choices.iter().find(|choice| {
                choice.command == reading.command
                    && choice.samples == reading.samples
                    && choice.printed == printed
            });
            if let Some(known) = known {
                choices.push(known.clone());
                continue;
            }
            let files: Vec<(String, String)> = reading
                .samples
                .iter()
                .filter_map(|s| Some((s.path.clone(), self.tools.text(&s.path)?)))
                .collect();
            // Past what a model reads off reliably, as a sample is.
            if printed.chars().count() > MAX_TEXT {
                continue;
            }
            let mut options = vec![printed.clone()];
            for answer in reading.readings().into_iter().take(3) {
                if !options.iter().any(|known| known.trim() == answer.trim()) {
                    options.push(answer.to_string());
                }
            }
            if options.len() < 2 {
                continue;
            }
            let first: Vec<usize> = (0..options.len()).collect();
            let last: Vec<usize> = (1..options.len()).chain([0]).collect();
            let (mut usage, mut retries, mut chosen) = (crate::chat::Usage::default(), 0, 0);
            let head = self.head();
            for order in [first, last] {
                let ask = choice_question(&reading.command, &files, &options, &order);
                let Some(reply) = self
                    .ask_answer(format!("{head}\n\n{ask}"), letter_schema(order.len()))
                    .await?
                else {
                    return Ok(None);
                };
                usage += reply.usage;
                retries += reply.retries;
                tracing::info!(command = %reading.command, answer = %reply.content, "which it prints");
                if letter_of(&reply.content).and_then(|at| order.get(at)) == Some(&0) {
                    chosen += 1;
                }
            }
            let choice = SampleChoice {
                command: reading.command.clone(),
                samples: reading.samples.clone(),
                printed,
                chosen: chosen == 2,
            };
            self.record(
                Event::SampleChosen {
                    choice: choice.clone(),
                    usage,
                    retries,
                },
                Durability::Lazy,
            )?;
            choices.push(choice);
        }
        Ok(Some(choices))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_lists_the_options_in_its_order_and_reads_the_letter() {
        let samples = [("sample.txt".to_string(), "ab\nabc".to_string())];
        let options = ["abc".to_string(), "3".to_string(), "ab\nabc".to_string()];
        let asked = choice_question(
            "python3 longest.py sample.txt",
            &samples,
            &options,
            &[1, 2, 0],
        );
        assert!(
            asked.contains("(a)\n```\n3\n```\n(b)\n```\nab\nabc\n```\n(c)\n```\nabc\n```\n"),
            "{asked}"
        );
        assert!(
            asked.contains("give the letter (\"a\", \"b\", \"c\")"),
            "{asked}"
        );
        assert_eq!(letter_of(r#"{"why": "", "letter": "c"}"#), Some(2));
        assert_eq!(letter_of(r#"{"why": "", "letter": "(B)"}"#), Some(1));
        assert_eq!(letter_of(r#"{"why": "", "letter": "e"}"#), None);
        assert_eq!(letter_of("abc"), None);
    }

    #[test]
    fn the_questions_show_the_sample_its_counts_and_the_command() {
        let samples = [("sample.txt".to_string(), "one two\nthree".to_string())];
        let asked: Vec<(&str, String)> = (0..3)
            .map(|n| question(n, "python3 wc.py sample.txt", &samples))
            .collect();
        let keys: Vec<&str> = asked.iter().map(|(key, _)| *key).collect();
        assert_eq!(keys, ["must_print", "output", "shows"]);
        for (key, ask) in &asked {
            assert!(ask.contains("one two\nthree"), "{ask}");
            assert!(ask.contains("2 lines, 3 words, 13 characters"), "{ask}");
            assert!(ask.contains("`python3 wc.py sample.txt`"), "{ask}");
            assert!(ask.contains(&format!("{{\"{key}\": \"...\"}}")), "{ask}");
        }
        assert_ne!(asked[0].1, asked[1].1);
    }
}
