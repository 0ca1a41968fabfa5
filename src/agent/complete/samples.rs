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
use crate::agent::Agent;
use crate::digest::sha256_hex;
use crate::state::Event;
use crate::state::samples::{self, Sample, SampleReading};
use crate::state::verdict::{self, Requirement};
use crate::store::{Durability, StoreError};

/// Commands read at one assessment, at most.
const MAX_READ: usize = 4;
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
    match asked {
        0 => (
            "must_print",
            format!(
                "No tool call now. {shown}From the GOAL's words and that content alone (not \
                 from any code, nor any program's output), write exactly what `{command}` must \
                 print once the GOAL is done. Answer with JSON: {{\"must_print\": \"...\"}}"
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
            );
            if let Some(samples) = samples {
                found.push((command, samples));
            }
            if found.len() == MAX_READ {
                break;
            }
        }
        found
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

#[cfg(test)]
mod tests {
    use super::*;

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
