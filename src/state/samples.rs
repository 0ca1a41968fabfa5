//! What a program the goal asks output of must print when it runs on a
//! file of the workspace (a sample it reads), as the goal's words give it
//! for that file's content, read apart from the code and from any output
//! (see [`crate::state::Event::SamplesRead`]). The assessment is shown the
//! checks' output and copies it: q2's line-count held `python3
//! line_count.py sample.txt` to `3.0`, what a program that averaged a
//! literal list printed for a sample of two lines, and called it met.

use serde::{Deserialize, Serialize};

use super::verdict::{Requirement, Shown, cut, says, spoken};

/// A file larger than this is not read for an answer: what a program
/// prints for it is past what a model reads off reliably.
pub const MAX_SAMPLE: usize = 1500;

/// A file a command reads, as it was when the model read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub path: String,
    pub sha256: String,
}

/// What `command` must print for the content of its `samples`, as the
/// model answered from the goal's words and that content alone, asked
/// twice in other words and a third time when those two disagree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleReading {
    pub command: String,
    pub samples: Vec<Sample>,
    /// The answers that could be read, in the order asked.
    pub prints: Vec<String>,
    /// Questions asked (an answer that could not be read is not kept).
    pub asked: u32,
    /// What programs written apart from the goal's words (not shown the
    /// run's code) printed when run as `command` on copies of the samples,
    /// each that ran and exited 0 (see `complete::samples`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<String>,
    /// The code of each program of [`Self::written`], in its order: one
    /// that printed what the command must print is shown to the question
    /// of a program that prints otherwise (see `Agent::program_question`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<String>,
}

impl SampleReading {
    /// The answers that say something (see [`said`]).
    pub fn readings(&self) -> Vec<&str> {
        said(&self.prints)
    }

    /// What the command must print: what two programs written apart print
    /// alike (see [`Self::written_agreed`]), or in the words of what two
    /// answers agree on when it is said within that (`3` of `Vowels: 3`);
    /// with no two such programs, what two answers agree on (see
    /// [`agreed_in`]). A model reads a count off a sample less surely than
    /// it writes the program that counts: t83's vowels read `Hello,
    /// world!` as 2 vowels twice, and a right program that printed 3 was
    /// held unmet.
    pub fn agreed(&self) -> Option<&str> {
        let read = agreed_in(&self.readings());
        match self.written_agreed() {
            Some(written) => match read {
                Some(read) if says(written, read) => Some(read),
                _ => Some(written),
            },
            None => read,
        }
    }

    /// What two programs written apart printed alike (see
    /// [`written_alike`]).
    pub fn written_agreed(&self) -> Option<&str> {
        written_alike(&self.written)
    }

    /// The code of a program written apart that printed what the command
    /// must print (see [`Self::foresees`]).
    pub fn right_program(&self) -> Option<&str> {
        self.agreed()?;
        self.written
            .iter()
            .zip(&self.programs)
            .find(|(printed, _)| self.foresees(printed))
            .map(|(_, code)| code.as_str())
    }

    /// Where [`Self::agreed`] comes from, as the evidence says it.
    pub fn given_by(&self) -> &'static str {
        match self.written_agreed() {
            Some(_) => {
                "as two programs written apart from the goal's words, not shown the code, print"
            }
            None => "read apart from the code and its output",
        }
    }

    /// Whether `printed` is what the answers give: the agreed text, in its
    /// words (`12` does not say `2`), or, with nothing agreed, one of the
    /// answers (a bare number said whole within one counts, see
    /// [`says_whole`]). What two programs written apart print alike holds
    /// a shorter output said within it with the same figures (`3` within
    /// `The line has 3 vowels.`), not one that leaves a figure out.
    pub fn foresees(&self, printed: &str) -> bool {
        let within_written = || {
            self.written_agreed().is_some_and(|written| {
                let figures = figures_of(printed);
                !figures.is_empty() && figures == figures_of(written) && says(written, printed)
            })
        };
        match self.agreed() {
            Some(expects) => says(printed, expects) || within_written(),
            None => self.readings().iter().any(|answer| {
                says(printed, answer)
                    || (printed.chars().any(|c| c.is_ascii_digit()) && says_whole(answer, printed))
            }),
        }
    }

    /// Whether a third question would add nothing: two answers agree, or
    /// three were asked.
    pub fn settled(&self) -> bool {
        self.agreed().is_some() || self.asked >= 3
    }

    /// What the reading is of, as the evidence says it: `the content of
    /// a.txt and b.txt`, or `its arguments` for a command that reads no
    /// sample.
    fn files(&self) -> String {
        if self.samples.is_empty() {
            return "its arguments".to_string();
        }
        let files: Vec<&str> = self.samples.iter().map(|s| s.path.as_str()).collect();
        format!("the content of {}", files.join(" and "))
    }
}

/// The answers that say something (of letters or digits), trimmed.
pub(crate) fn said(answers: &[String]) -> Vec<&str> {
    answers
        .iter()
        .map(|answer| answer.trim())
        .filter(|answer| !spoken(answer).is_empty())
        .collect()
}

/// The arguments of `command` after its program that name a file of the
/// workspace that is not source code (`is_source`), with its text
/// (`text`): what the program reads. `None` when it names none, or one
/// larger than [`MAX_SAMPLE`] or not text.
pub fn samples_of(
    command: &str,
    text: impl Fn(&str) -> Option<String>,
    is_source: impl Fn(&str) -> bool,
) -> Option<Vec<(String, String)>> {
    let words = shell_words::split(command).ok()?;
    let mut found: Vec<(String, String)> = Vec::new();
    for word in words.iter().skip(1) {
        let looks_like_file = !word.starts_with('-')
            && word.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty() && ext.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            });
        if !looks_like_file || is_source(word) || found.iter().any(|(p, _)| p == word) {
            continue;
        }
        let Some(content) = text(word) else {
            continue;
        };
        if content.len() > MAX_SAMPLE {
            return None;
        }
        found.push((word.clone(), content));
    }
    (!found.is_empty()).then_some(found)
}

/// What a model miscounts and a program does not: the sample's lines (a
/// last line without a line break counts, unlike `wc -l`), words (split at
/// whitespace, as `wc -w`) and characters.
pub fn figures(content: &str) -> String {
    let lines = content.lines().count();
    let words = content.split_whitespace().count();
    let chars = content.chars().count();
    let plural = |n: usize, one: &str| match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {one}s"),
    };
    format!(
        "{}, {}, {}",
        plural(lines, "line"),
        plural(words, "word"),
        plural(chars, "character")
    )
}

/// Whether an answer says back, whole, the command it was asked about or
/// the figures of a sample it was shown (see [`figures`]): that restates
/// the question, it reads nothing of the goal (r2's line-count: the third
/// answer was `python3 line_count.py sample.txt`).
pub fn echoes(answer: &str, command: &str, samples: &[(String, String)]) -> bool {
    says(answer, command)
        || samples
            .iter()
            .any(|(_, content)| says(answer, &figures(content)))
}

/// The current reading of a requirement's command, when there is one.
fn reading_of<'a>(
    requirement: &Requirement,
    readings: &'a [SampleReading],
) -> Option<&'a SampleReading> {
    let shown_by = requirement.shown_by.as_ref()?;
    let command = shown_by.command.split_whitespace().collect::<Vec<_>>();
    // A command that reads no sample is read only to be held to what its
    // readings agree on: the assessment's own text for a run the goal
    // does not give is a guess (t100's run-length held `python3 rle.py
    // aaaa` to "a5"), and no agreement leaves the requirement as it was.
    readings.iter().find(|reading| {
        !requirement.about_tests
            && !reading.readings().is_empty()
            && (!reading.samples.is_empty() || reading.agreed().is_some())
            && reading
                .command
                .split_whitespace()
                .eq(command.iter().copied())
    })
}

/// Each requirement shown by a command that has a reading two answers
/// agree on is about what that command prints, and holds that text, met
/// or not: the run then shows whether it is met (see
/// [`super::verdict::hold_to_output`]), and a cycle runs it until it
/// prints that.
pub fn to_read(mut requirements: Vec<Requirement>, readings: &[SampleReading]) -> Vec<Requirement> {
    for requirement in &mut requirements {
        let Some(agreed) = reading_of(requirement, readings).and_then(SampleReading::agreed) else {
            continue;
        };
        let agreed = agreed.to_string();
        requirement.about_output = true;
        if let Some(shown_by) = &mut requirement.shown_by {
            shown_by.expects = agreed;
        }
    }
    requirements
}

/// `readings` without those of a command with options whose answers agree
/// on what the same command without them prints, for the same samples:
/// the goal asks for the option to change something, so such a reading
/// says only that the model did not see what. t59's show-numbers read
/// both `python3 show.py sample.txt` and `python3 show.py -n sample.txt`
/// as the sample's ten lines unnumbered, and its cycle was to make `-n`
/// print them so.
pub fn changed_by_options(readings: Vec<SampleReading>) -> Vec<SampleReading> {
    let words = |command: &str| command.split_whitespace().collect::<Vec<_>>().join(" ");
    let bare = |command: &str| {
        command
            .split_whitespace()
            .filter(|word| !word.starts_with('-'))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let unchanged: Vec<bool> = readings
        .iter()
        .map(|reading| {
            let without = bare(&reading.command);
            let Some(agreed) = reading.agreed() else {
                return false;
            };
            without != words(&reading.command)
                && readings.iter().any(|other| {
                    words(&other.command) == without
                        && other.samples == reading.samples
                        && other.agreed().is_some_and(|a| spoken(a) == spoken(agreed))
                })
        })
        .collect();
    readings
        .into_iter()
        .zip(unchanged)
        .filter(|(reading, unchanged)| {
            if *unchanged {
                tracing::info!(command = %reading.command, "a reading its options do not change");
            }
            !unchanged
        })
        .map(|(reading, _)| reading)
        .collect()
}

/// The commands of unmet requirements that hold an agreed reading (see
/// [`to_read`]), each once: run beside those of met ones, so that what
/// they print now is said (q1's word-count assessment held five cases
/// unmet whose commands it was never shown the output of, two cycles
/// running).
pub fn unmet_read(requirements: &[Requirement], readings: &[SampleReading]) -> Vec<String> {
    let mut commands: Vec<String> = Vec::new();
    for requirement in requirements.iter().filter(|r| !r.met) {
        let Some(reading) = reading_of(requirement, readings) else {
            continue;
        };
        if reading.agreed().is_some() && !commands.contains(&reading.command) {
            commands.push(reading.command.clone());
        }
    }
    commands
}

/// What the model chose, asked which of a command's output and the
/// readings of a sample that disagree and do not foresee it the command
/// must print (see `complete::samples`): `chosen` when it chose the
/// output both times, put first once and last once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleChoice {
    pub command: String,
    pub samples: Vec<Sample>,
    pub printed: String,
    pub chosen: bool,
}

/// The run that shows a requirement with a reading, when it ran and
/// exited with code 0, and what it printed.
fn run_of<'a>(reading: &SampleReading, runs: &'a [Shown]) -> Option<&'a str> {
    let run = runs.iter().find(|run| {
        run.command
            .split_whitespace()
            .eq(reading.command.split_whitespace())
    })?;
    (run.exit_code == Some(0) && run.not_run.is_none()).then(|| run.printed.trim())
}

/// The readings whose answers do not agree and whose command, run,
/// printed what none of them foresees, with what it printed, each once:
/// what a choice is asked of (see [`SampleChoice`]).
pub fn unforeseen<'a>(
    requirements: &[Requirement],
    readings: &'a [SampleReading],
    runs: &[Shown],
) -> Vec<(&'a SampleReading, String)> {
    let mut found: Vec<(&SampleReading, String)> = Vec::new();
    for requirement in requirements {
        let Some(reading) = reading_of(requirement, readings) else {
            continue;
        };
        let Some(printed) = run_of(reading, runs) else {
            continue;
        };
        if reading.agreed().is_none()
            && !printed.is_empty()
            && !reading.foresees(printed)
            && !found
                .iter()
                .any(|(known, _)| known.command == reading.command)
        {
            found.push((reading, printed.to_string()));
        }
    }
    found
}

/// A requirement held unmet by [`hold_to_read`] for readings that
/// disagree and do not foresee what its command printed is met when the
/// model, asked which of them and that output the command must print,
/// chose the output both times (see [`SampleChoice`]), and it names no
/// option. t41's longest: a right program printed the longest line of
/// the sample, the readings said `111` and the whole file, and the run
/// ended not achieved.
pub fn hold_to_chosen(
    mut requirements: Vec<Requirement>,
    readings: &[SampleReading],
    runs: &[Shown],
    choices: &[SampleChoice],
) -> Vec<Requirement> {
    for requirement in &mut requirements {
        let Some(reading) = reading_of(requirement, readings) else {
            continue;
        };
        let Some(printed) = run_of(reading, runs) else {
            continue;
        };
        let chosen = choices.iter().any(|choice| {
            choice.chosen
                && choice.command == reading.command
                && choice.samples == reading.samples
                && choice.printed == printed
        });
        if requirement.met || !chosen || !requirement.options().is_empty() {
            continue;
        }
        requirement.met = true;
        requirement.evidence = format!(
            "`{}` printed {:?}; the readings of the goal's words on {} \
             disagreed, and asked which of them and that output it must print, the model chose \
             that output both times",
            reading.command,
            cut(printed, 80),
            reading.files()
        );
    }
    requirements
}

/// Whether `text` says `number` as a whole number of its own: `5` in
/// `5 words`, never the `0` of `24.0` (t2's sum-numbers printed `0` for
/// a file it never read, the readings were `24.0` and `11.7`, and the run
/// ended "Goal achieved").
fn says_whole(text: &str, number: &str) -> bool {
    let numbers = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .map(|w| w.trim_matches('.').to_string())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let (words, wanted) = (numbers(text), numbers(number));
    !wanted.is_empty() && words.windows(wanted.len()).any(|w| w == wanted.as_slice())
}

/// The numbers `text` says, in order (`3` and `10` of `3 lines, 10
/// words`).
fn figures_of(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .map(|w| w.trim_matches(['.', '-']))
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// What two of the outputs of programs written apart (see
/// [`SampleReading::written`]) print alike, as [`agreed_in`] reads them.
pub fn written_alike(written: &[String]) -> Option<&str> {
    agreed_in(&said(written))
}

/// What two of `readings` agree on: the same words (spacing, punctuation
/// aside), or one said within the other (`25` and `The file has 25
/// words.`), then the shorter.
fn agreed_in<'a>(readings: &[&'a str]) -> Option<&'a str> {
    readings.iter().enumerate().find_map(|(i, a)| {
        readings[i + 1..].iter().find_map(|b| {
            let (short, long) = match spoken(a).len() <= spoken(b).len() {
                true => (*a, *b),
                false => (*b, *a),
            };
            says(long, short).then_some(short)
        })
    })
}

/// A met requirement shown by a command with a reading is met only when
/// the command printed the agreed text, in its words (`12` does not say
/// `2`), or, with nothing agreed, one of the answers (a bare number said
/// whole within one counts, see [`says_whole`]). An unmet one whose
/// command printed the agreed text is met (when it names no option); one
/// whose command printed otherwise says what the goal's words give, so its
/// cycle knows what to change.
pub fn hold_to_read(
    mut requirements: Vec<Requirement>,
    readings: &[SampleReading],
    runs: &[Shown],
) -> Vec<Requirement> {
    for requirement in &mut requirements {
        let Some(reading) = reading_of(requirement, readings) else {
            continue;
        };
        let command = reading.command.as_str();
        let Some(printed) = run_of(reading, runs) else {
            continue;
        };
        let agreed = reading.agreed();
        let holds = reading.foresees(printed);
        if requirement.met && holds {
            continue;
        }
        // Unmet by the model, which was not shown what its command prints
        // (q1's word-count held five cases of its own unmet, each given
        // only its command, for two cycles), and met by the run: the
        // model chose that command to show it, and the text it must print
        // is the reading's, not the model's. One that names an option
        // is left to the runs that show options.
        if agreed.is_some() && holds && requirement.options().is_empty() {
            requirement.met = true;
            requirement.evidence = format!(
                "`{command}` printed {:?}, what the goal's words give for {} \
                 ({})",
                cut(printed, 80),
                reading.files(),
                reading.given_by()
            );
            continue;
        }
        requirement.met = false;
        requirement.evidence = match agreed {
            Some(expects) => format!(
                "`{command}` printed {:?}; for {}, the goal's words give \
                 {expects:?} ({})",
                cut(printed, 80),
                reading.files(),
                reading.given_by()
            ),
            None => format!(
                "`{command}` printed {:?}, and no reading of the goal's words on {} made \
                 apart from the code foresaw that",
                cut(printed, 80),
                reading.files()
            ),
        };
    }
    requirements
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::verdict::ShownBy;
    use crate::state::verdict::tests::printed as ran;

    fn reading(command: &str, prints: &[&str]) -> SampleReading {
        SampleReading {
            command: command.into(),
            samples: vec![Sample {
                path: "sample.txt".into(),
                sha256: "ab".into(),
            }],
            prints: prints.iter().map(|p| p.to_string()).collect(),
            asked: prints.len() as u32,
            written: Vec::new(),
            programs: Vec::new(),
        }
    }

    /// Two programs written apart that print alike are held over the
    /// readings; a reading said within what they print gives its words.
    #[test]
    fn what_two_programs_written_apart_print_is_held_over_the_readings() {
        let mut counted = reading("python3 vowels.py < input.txt", &["2", "2"]);
        assert_eq!(counted.agreed(), Some("2"));
        counted.written = vec!["Vowels: 3".into(), "3".into()];
        assert_eq!(counted.written_agreed(), Some("3"));
        assert_eq!(counted.agreed(), Some("3"));
        assert!(counted.foresees("3") && counted.foresees("There are 3 vowels"));
        assert!(!counted.foresees("2"));
        // Not alike: the readings stand.
        counted.written = vec!["3".into(), "4".into()];
        assert_eq!(counted.agreed(), Some("2"));
        assert!(counted.given_by().starts_with("read apart"));
        // Said in words by both, with the reading within: the reading's
        // words; a shorter output with the same figures is foreseen, one
        // that leaves a figure out is not.
        let mut figures = reading("python3 wc.py sample.txt", &["3 10", "3 10"]);
        figures.written = vec!["3 lines, 10 words".into(), "3 lines, 10 words".into()];
        assert_eq!(figures.agreed(), Some("3 lines, 10 words"));
        assert!(figures.foresees("3 lines, 10 words"));
        assert!(!figures.foresees("3"));
        let mut said = reading("python3 vowels.py < input.txt", &["3", "3"]);
        said.written = vec![
            "The line has 3 vowels.".into(),
            "The line has 3 vowels.".into(),
        ];
        assert_eq!(said.agreed(), Some("3"));
        assert!(said.given_by().starts_with("as two programs"));
    }

    #[test]
    fn a_reading_its_options_do_not_change_is_left_out() {
        let lines = "1\n2\n3";
        let readings = vec![
            reading("python3 show.py sample.txt", &[lines, lines]),
            reading("python3 show.py -n sample.txt", &[lines, lines]),
        ];
        let kept = changed_by_options(readings.clone());
        assert_eq!(kept, readings[..1]);
        // An option that changes what it prints, or one with no reading
        // without it, is kept.
        let numbered = vec![
            readings[0].clone(),
            reading(
                "python3 show.py -n sample.txt",
                &["1 1\n2 2\n3 3", "1 1\n2 2\n3 3"],
            ),
        ];
        assert_eq!(changed_by_options(numbered.clone()), numbered);
        assert_eq!(changed_by_options(readings[1..].to_vec()), readings[1..]);
    }

    fn shown(text: &str, met: bool, command: &str, expects: &str) -> Requirement {
        Requirement {
            requirement: text.into(),
            met,
            evidence: "the model's".into(),
            about_tests: false,
            about_output: false,
            shown_by: Some(ShownBy {
                command: command.into(),
                expects: expects.into(),
            }),
            file: None,
        }
    }

    const RUN: &str = "python3 line_count.py sample.txt";

    #[test]
    fn a_run_by_arguments_is_held_to_its_readings_only_when_they_agree() {
        // t100's run-length: a right rle.py, and the assessment's own
        // "a5" for `python3 rle.py aaaa`.
        const RLE: &str = "python3 rle.py aaaa";
        let bare = |prints: &[&str], written: &[&str]| SampleReading {
            samples: Vec::new(),
            written: written.iter().map(|w| w.to_string()).collect(),
            ..reading(RLE, prints)
        };
        let guessed = vec![shown("repeats are counted", false, RLE, "a5")];
        let runs = [ran(RLE, 0, "a4")];
        // Two programs written apart print a4: the guess gives way.
        let readings = [bare(&["a5", "4a"], &["a4", "a4"])];
        let held = hold_to_read(to_read(guessed.clone(), &readings), &readings, &runs);
        assert!(held[0].met, "{}", held[0].evidence);
        assert!(
            held[0].evidence.contains("its arguments"),
            "{}",
            held[0].evidence
        );
        // Nothing agreed: the requirement stays as the assessment held it,
        // and no choice is asked between the output and the readings.
        let readings = [bare(&["a5", "4a", "aaaa"], &["a4", "a1"])];
        let held = hold_to_read(to_read(guessed.clone(), &readings), &readings, &runs);
        assert_eq!(held, guessed);
        assert!(unforeseen(&guessed, &readings, &runs).is_empty());
        // Agreed otherwise than it printed: unmet, with what they agree on.
        let met = vec![shown("repeats are counted", true, RLE, "a4")];
        let readings = [bare(&["a5", "a5"], &[])];
        let held = hold_to_read(to_read(met, &readings), &readings, &runs);
        assert!(!held[0].met);
        assert!(held[0].evidence.contains("\"a5\""), "{}", held[0].evidence);
    }

    #[test]
    fn two_answers_agree_on_the_same_words_or_one_within_the_other() {
        assert_eq!(reading(RUN, &["2", "2."]).agreed(), Some("2"));
        assert_eq!(
            reading(RUN, &["The file has 25 words.", "25"]).agreed(),
            Some("25")
        );
        assert_eq!(reading(RUN, &["2", "12"]).agreed(), None);
        assert_eq!(reading(RUN, &["3", "2", "2 lines"]).agreed(), Some("2"));
        assert!(!reading(RUN, &["3", "2"]).settled());
        assert!(reading(RUN, &["3", "2", "4"]).settled());
        assert_eq!(reading(RUN, &["", "..."]).agreed(), None);
    }

    #[test]
    fn the_files_a_command_reads_are_its_arguments_that_are_text_of_the_workspace() {
        let text = |path: &str| match path {
            "sample.txt" => Some("a b\nc".to_string()),
            "big.txt" => Some("x".repeat(MAX_SAMPLE + 1)),
            "line_count.py" => Some("import sys".to_string()),
            _ => None,
        };
        let source = |path: &str| path.ends_with(".py");
        assert_eq!(
            samples_of(RUN, text, source),
            Some(vec![("sample.txt".into(), "a b\nc".into())])
        );
        assert_eq!(
            samples_of("python3 line_count.py missing.txt", text, source),
            None
        );
        assert_eq!(
            samples_of("python3 line_count.py big.txt", text, source),
            None
        );
        assert_eq!(samples_of("python3 line_count.py", text, source), None);
        assert_eq!(
            samples_of("python3 line_count.py -v 3 < sample.txt", text, source)
                .map(|found| found.len()),
            Some(1)
        );
    }

    #[test]
    fn the_figures_count_a_last_line_without_a_line_break() {
        assert_eq!(figures("a b\nc"), "2 lines, 3 words, 5 characters");
        let shown = [("sample.txt".to_string(), "a b\nc".to_string())];
        let echoes = |answer: &str| echoes(answer, RUN, &shown);
        assert!(echoes("It has 2 lines, 3 words, 5 characters."));
        assert!(echoes("python3 line_count.py sample.txt"));
        assert!(!echoes("3"));
        assert!(!echoes("3 words"));
        assert!(!echoes("sample.txt has 2 lines"));
        assert_eq!(figures("one\n"), "1 line, 1 word, 4 characters");
        assert_eq!(figures(""), "0 lines, 0 words, 0 characters");
    }

    #[test]
    fn an_output_copied_into_the_assessment_is_held_to_the_reading_of_the_sample() {
        // q2's line-count: the assessment held the run to what it printed.
        let requirements = vec![
            shown("prints how many lines the file has", true, RUN, "3.0"),
            shown("reads the file it is given", false, RUN, ""),
            shown(
                "a case of its own",
                true,
                "python3 line_count.py other.txt",
                "7",
            ),
        ];
        let readings = [reading(RUN, &["2", "2"])];
        let read = to_read(requirements, &readings);
        assert!(read[0].is_about_output() && read[1].is_about_output());
        assert_eq!(read[0].shown_by.as_ref().unwrap().expects, "2");
        assert_eq!(read[1].shown_by.as_ref().unwrap().expects, "2");
        assert!(!read[2].about_output, "a command with no reading is left");
        assert!(
            read[1].to_redo().is_some(),
            "its cycle runs it until it prints 2"
        );

        let held = hold_to_read(read.clone(), &readings, &[ran(RUN, 0, "3.0")]);
        assert!(!held[0].met);
        assert!(
            held[0].evidence.contains("\"3.0\"") && held[0].evidence.contains("\"2\""),
            "{}",
            held[0].evidence
        );
        assert!(held[2].met);
        // 12 is not 2; 2 among other words is.
        assert!(!hold_to_read(read.clone(), &readings, &[ran(RUN, 0, "12")])[0].met);
        let right = hold_to_read(read.clone(), &readings, &[ran(RUN, 0, "Lines: 2")]);
        assert!(right[0].met);
        assert_eq!(right[0].evidence, "the model's");
        assert!(right[1].met, "unmet by the model, met by the run");
        assert_eq!(
            right[1].evidence,
            "`python3 line_count.py sample.txt` printed \"Lines: 2\", what the goal's words give \
             for the content of sample.txt (read apart from the code and its output)"
        );
        // Not one that names an option, nor one whose command printed
        // otherwise.
        let mut optioned = read.clone();
        optioned[1].requirement = "takes --lines".into();
        assert!(!hold_to_read(optioned, &readings, &[ran(RUN, 0, "Lines: 2")])[1].met);
        let wrong = hold_to_read(read, &readings, &[ran(RUN, 0, "Lines: 3")]);
        assert!(!wrong[1].met);
        assert!(
            wrong[1].evidence.contains("give \"2\""),
            "{}",
            wrong[1].evidence
        );
    }

    #[test]
    fn the_commands_of_unmet_requirements_with_a_reading_are_run_too() {
        let requirements = vec![
            shown("prints the count", true, RUN, "2"),
            shown(
                "handles an empty file",
                false,
                "python3 line_count.py empty.txt",
                "",
            ),
            shown(
                "handles another",
                false,
                "python3  line_count.py empty.txt",
                "",
            ),
            shown(
                "handles a third",
                false,
                "python3 line_count.py other.txt",
                "",
            ),
        ];
        let readings = [
            reading(RUN, &["2", "2"]),
            reading("python3 line_count.py empty.txt", &["0", "0"]),
            reading("python3 line_count.py other.txt", &["1", "4"]),
        ];
        assert_eq!(
            unmet_read(&requirements, &readings),
            ["python3 line_count.py empty.txt"]
        );
    }

    #[test]
    fn with_no_answer_agreed_a_met_requirement_needs_one_of_them() {
        let requirements = vec![shown("prints the count", true, RUN, "9")];
        let readings = [reading(RUN, &["The file has 5 words", "4", "6"])];
        let read = to_read(requirements, &readings);
        assert_eq!(read[0].shown_by.as_ref().unwrap().expects, "9");
        assert!(hold_to_read(read.clone(), &readings, &[ran(RUN, 0, "5")])[0].met);
        assert!(hold_to_read(read.clone(), &readings, &[ran(RUN, 0, "6 words")])[0].met);
        let held = hold_to_read(read, &readings, &[ran(RUN, 0, "9")]);
        assert!(!held[0].met);
        assert!(held[0].evidence.contains("foresaw"), "{}", held[0].evidence);
        // t2's sum-numbers: `0` is not said by `24.0`.
        let decimals = [reading(RUN, &["24.0", "11.7"])];
        let requirements = vec![shown("prints the total", true, RUN, "0")];
        let read = to_read(requirements, &decimals);
        assert!(!hold_to_read(read.clone(), &decimals, &[ran(RUN, 0, "0")])[0].met);
        assert!(hold_to_read(read, &decimals, &[ran(RUN, 0, "Total: 24.0")])[0].met);
    }

    #[test]
    fn a_number_is_said_whole_not_as_a_part_of_a_decimal() {
        assert!(says_whole("5 words", "5"));
        assert!(says_whole("Total: 24.0", "24.0"));
        assert!(!says_whole("24.0", "0"));
        assert!(!says_whole("3.5", "5"));
        assert!(says_whole("It has 3 lines.", "3"));
    }
}
