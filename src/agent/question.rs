//! A question of its own, asked instead of a round when the rounds are not
//! getting a fix right: the failing check, the code as it is, and what is
//! wanted, with no tools, no plan and no run around them; the answer's code
//! block is written (see [`prompt::Question`]). Asked in rounds, Qwen2.5-
//! Coder 1.5B wrote `celsius * 9 / 5 - 32` back unchanged round after round
//! (u3's temp-fix); asked in prose, it said the right formula (u2's), and
//! asked so, v1's temp-fix was fixed in its first subtask.

use super::complete::same_command;
use super::{Agent, focus, prompt};
use crate::chat::ToolCall;
use crate::lang::examples::{self, Example, Tried};
use crate::model::text_calls;
use crate::state::{RefusalKind, SubtaskKind};
use prompt::Question;

/// Questions of their own asked in a subtask, at most: past them, the
/// rounds go on as rounds.
const MAX_QUESTIONS: u32 = 3;
/// A program asked of whole is at most this long: a longer one is changed
/// in rounds, by edits.
const MAX_PROGRAM_BYTES: usize = 3 * 1024;
/// Seconds each run of a program asked of may take.
const RUN_TIMEOUT: u64 = 10;
/// How long the trace of a failing test's call may take.
const TRACE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// How `language` reads the options `goal` names, in a program written
/// anew, as a paragraph of the question (empty when it names none): its
/// own parser of the command line, flags and options with a value alike
/// (see `Language::reading_options_anew`), else how it reads each flag. w2's
/// echo-reverse answered `if "--reverse" in argv: words.reverse()`, the
/// option reversed with the words and printed back.
fn options_read(language: &dyn crate::lang::Language, goal: &str) -> String {
    let named = crate::state::verdict::named_options(goal);
    let flags = crate::state::verdict::named_flags(goal);
    let valued: Vec<String> = named
        .iter()
        .filter(|option| !flags.contains(option))
        .cloned()
        .collect();
    let options: Vec<String> = language.reading_options_anew(&flags, &valued).map_or_else(
        || {
            flags
                .iter()
                .filter_map(|option| language.reading_option(option))
                .collect()
        },
        |how| vec![how],
    );
    match options.is_empty() {
        true => String::new(),
        false => format!("{}.\n\n", options.join("; ")),
    }
}

impl Agent<'_> {
    /// The question of its own this round asks instead of a round, at most
    /// [`MAX_QUESTIONS`] times a subtask: the fix of a refused write sent
    /// again (see [`Agent::unreadable_question`]), else of the function a failing
    /// test of the project's own, or of what the goal says, calls (see
    /// [`focus::repair`]), else of a function the goal's examples show
    /// wrong while its module is written (see [`Agent::goal_repair`]), else the
    /// fix of a small program of the project whose runs print otherwise
    /// than they must (see [`Agent::program_question`]). `files` are those
    /// the round's context shows. The second element is how many were asked
    /// before in the subtask.
    pub(super) async fn question(&mut self, files: &[(String, String)]) -> Option<(Question, u32)> {
        let asked = self.state().questions;
        if asked >= MAX_QUESTIONS {
            return None;
        }
        let mut question = match self.unreadable_question() {
            Some(question) => question,
            None => {
                let repair = match focus::repair(self.state(), files, |path| self.tools.text(path))
                {
                    Some(repair) => Some(repair),
                    None => self.goal_repair(files).await,
                };
                match repair {
                    Some(mut repair) => {
                        repair.trace = self
                            .traced(&repair.module, &repair.name, &repair.call)
                            .await;
                        repair.unchanged = focus::wrote_back(self.state(), &repair.module);
                        let question = prompt::repair_question(&repair);
                        match self.returns_command(&repair) {
                            Some(command) => question.with_returns(command),
                            None => question,
                        }
                    }
                    None => self.program_question().await?,
                }
            }
        };
        // Its last answer said something and gave no code: asked for the
        // code alone, after it.
        question.said = self
            .said
            .take()
            .filter(|(ask, _)| *ask == question.ask)
            .map(|(_, said)| said);
        Some((question, asked))
    }

    /// The [`focus::Repair`] of a function the goal's own words show
    /// wrong, while the active subtask writes the module that defines it:
    /// each call whose value the goal's words give (see
    /// [`crate::state::State::goal_given`]) is made now, and the first that
    /// returns another value is the one asked of. In the cycle that was to
    /// make `format_duration(3725)` return '1:02:05', t30's add-duration
    /// model sent its function back unchanged round after round.
    async fn goal_repair(&self, files: &[(String, String)]) -> Option<focus::Repair> {
        let state = self.state();
        let SubtaskKind::Write { path } = &state.tree.active()?.1.kind else {
            return None;
        };
        let language = self.languages.iter().find(|l| l.owns(path))?;
        if language.is_test(path) {
            return None;
        }
        let code = files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, text)| text.clone())
            .or_else(|| self.tools.text(path))?;
        let given = state.goal_given();
        let mut names: Vec<&str> = given
            .iter()
            .filter_map(|(call, _)| examples::call_name(call))
            .filter(|name| language.defines(&code, name))
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let own: Vec<Example> = given
                .iter()
                .filter(|(call, _)| examples::call_name(call) == Some(name))
                .map(|(call, value)| Example {
                    call: call.clone(),
                    returns: vec![value.clone()],
                    written: false,
                    variant: false,
                })
                .collect();
            let Some(command) = language.examples_command(path, name, &own) else {
                continue;
            };
            let outcome = self
                .tools
                .run_own(&command, TRACE_TIMEOUT, &self.stop)
                .await;
            if self.stop.is_requested() {
                return None;
            }
            let printed = crate::tools::printed(&outcome.result);
            let Some((tried, _)) = examples::read_alone(&printed) else {
                continue;
            };
            let wrong = tried.into_iter().find_map(|t| match t {
                Tried {
                    call,
                    got: Ok(got),
                    same: false,
                    wanted,
                } if !language.no_value(&got) => Some((call, got, wanted)),
                _ => None,
            });
            if let Some((call, got, wanted)) = wrong {
                return focus::goal_repair(path, &code, &call, &got, &wanted);
            }
        }
        None
    }

    /// The command that calls the function `repair` asks of with its call
    /// and what it must return, and with each call of it whose value the
    /// goal's words give (see [`crate::state::State::goal_given`]): what
    /// an answer is held to before it is written (see
    /// [`Question::returns`]). `None` when its language cannot make one.
    fn returns_command(&self, repair: &focus::Repair) -> Option<String> {
        let language = self.languages.iter().find(|l| l.owns(&repair.module))?;
        let mut calls = vec![Example {
            call: repair.call.clone(),
            returns: vec![repair.expected.clone()],
            written: false,
            variant: false,
        }];
        for (call, value) in self.state().goal_given() {
            if examples::call_name(&call) == Some(repair.name.as_str())
                && !calls.iter().any(|known| known.call == call)
            {
                calls.push(Example {
                    call,
                    returns: vec![value],
                    written: false,
                    variant: false,
                });
            }
        }
        language.examples_command(&repair.module, &repair.name, &calls)
    }

    /// The lines `call` of `name` (defined in `module`) runs, told (see
    /// [`crate::lang::trace`]); `None` when its language cannot trace it
    /// or the call could not be made.
    async fn traced(&self, module: &str, name: &str, call: &str) -> Option<String> {
        let language = self.languages.iter().find(|l| l.owns(module))?;
        let command = language.trace_command(module, name, call)?;
        let outcome = self
            .tools
            .run_own(&command, TRACE_TIMEOUT, &self.stop)
            .await;
        let printed = crate::tools::printed(&outcome.result);
        let trace = crate::lang::trace::read(&printed)?;
        Some(crate::lang::trace::told(&trace, call, module))
    }

    /// The fix of a write the file's language refused, which the model
    /// then sent again as it was (see [`focus::unreadable_write`]): the
    /// content and why it was not written, to be given whole, fixed. Told
    /// the line in rounds, t10's textkit wrote the same file back five
    /// times (the other questions of its own were asked for the same
    /// reason; this one is not measured on the model yet).
    fn unreadable_question(&self) -> Option<Question> {
        let (path, content, why) =
            focus::unreadable_write(self.state(), |path| self.tools.text(path))?;
        if content.len() > MAX_PROGRAM_BYTES {
            return None;
        }
        let language = self.languages.iter().find(|l| l.owns(&path))?;
        let tag = language.name();
        let why = why
            .strip_prefix("not written: ")
            .or_else(|| why.strip_prefix("not edited: "))
            .unwrap_or(&why);
        // An edit's refusal goes on with how to quote lines in an edit.
        let unchanged = format!(" {path} is unchanged.");
        let why = why.split(unchanged.as_str()).next().unwrap_or(why);
        let ask = format!(
            "This is {path} as it was to be written:\n```{tag}\n{}\n```\n\nIt was not written: \
             {why}\n\nWhat in it keeps it from being written? {}",
            content.trim_end(),
            prompt::answer_form(tag, &path)
        );
        let runs = match language.is_test(&path) {
            true => Vec::new(),
            false => self.runs_of(&path),
        };
        Some(Question::of_file(path, tag, ask).with_runs(runs))
    }

    /// The fix of a small program the project had, when the last call of
    /// the active subtask shows that it prints otherwise than it must: a
    /// completion refused for what it prints (a run kept from before the
    /// run broken, an option taken for an argument or ignored), or a run of
    /// it that failed. What it must print: what the goal's words decide of
    /// a run (the answers agreed before the plan) and, for each run made
    /// before the plan, what it printed then. Each is run now, and asked
    /// only when one prints otherwise. e-reverse's model reversed the words
    /// with and without `--reverse`, round after round. When none does
    /// and the claim was refused for an option of the goal's taken for an
    /// argument or changing nothing, the goal's words are what it must do:
    /// the question says them and what that run showed.
    async fn program_question(&mut self) -> Option<Question> {
        let state = self.state();
        // Or the last answer's program, written, when it still prints
        // otherwise: asked again, warmer. x3's cli-flag answer read
        // `--shout` right and kept the `.lower()` its first edit had put
        // in the greeting; the next round claimed the subtask done, and the
        // claim stood (refused once).
        let refused = matches!(
            focus::claim_refused(state),
            Some(RefusalKind::KeptBroken | RefusalKind::OptionTaken | RefusalKind::OptionIgnored)
        ) || focus::answer_written(state);
        let path = match focus::last(state) {
            // The file the subtask is to change, or that its writes changed:
            // one the project had, else one made anew that must print
            // something known.
            _ if refused => {
                let changed = focus::changed_files(state);
                let had = changed
                    .iter()
                    .find(|path| state.baseline.files.contains_key(*path));
                had.or_else(|| changed.iter().find(|path| !self.runs_of(path).is_empty()))?
                    .clone()
            }
            focus::Last::Failed {
                file: Some(file), ..
            } if !file.contains(" line ") => file,
            _ => return None,
        };
        let language = self.languages.iter().find(|l| l.owns(&path))?;
        if language.is_test(&path) {
            return None;
        }
        let tag = language.name();
        let options = options_read(language.as_ref(), &state.goal);
        let text = self.tools.text(&path)?;
        if text.len() > MAX_PROGRAM_BYTES {
            return None;
        }
        let wanted = self.runs_of(&path);
        // A completion refused because the last write's run took an option
        // of the goal's for an argument or for nothing, with no edit to
        // copy (one that leaves the options out of the arguments is what
        // e1's cli-flag needed, and copied): what it printed.
        let unread = self
            .last_runs_found()
            .filter(|taken| {
                refused
                    && taken.edit.is_none()
                    && taken.path == path
                    && matches!(
                        taken.kind,
                        RefusalKind::OptionTaken | RefusalKind::OptionIgnored
                    )
            })
            .map(|taken| taken.told.clone());
        let goal = state.goal.trim().trim_end_matches('.').to_string();
        if wanted.is_empty() && unread.is_none() {
            return None;
        }
        let mut now = Vec::new();
        for (command, _) in &wanted {
            let run = self.run_check_within(command, Some(RUN_TIMEOUT)).await;
            now.push((command.clone(), crate::tools::printed(&run.output)));
        }
        let shown = |runs: &[(String, String)]| {
            runs.iter()
                .map(|(command, printed)| format!("$ {command}\n{}", printed.trim_end()))
                .collect::<Vec<_>>()
                .join("\n")
        };
        if wanted
            .iter()
            .zip(&now)
            .all(|((command, want), (_, got))| self.prints_as_it_must(command, want, got))
        {
            // Nothing it must print is known otherwise than it prints: the
            // goal's words are what it must do. x3's cli-chars counted
            // `--chars` as a word of its text, and what it must print with
            // it was stated three ways (`121`, `5`, `3`, for 13).
            let told = unread?;
            let kept = match wanted.is_empty() {
                true => String::new(),
                false => format!(
                    " These must print what they print now:\n```\n{}\n```",
                    shown(&wanted)
                ),
            };
            let ask = format!(
                "{path} must do what this goal asks: {goal}.\n\n{told}.{kept}\n\n{path}:\n```{tag}\n{}\n\
                 ```\n\n{options}What in {path} keeps it from doing what the goal asks? {}",
                text.trim_end(),
                prompt::answer_form(tag, &path)
            );
            return Some(Question::of_file(path, tag, ask).with_runs(wanted));
        }
        // A run made before the plan that the run's changes broke: the
        // program as it was then is the one to change. Shown its own
        // answer back, t45's greet-shout model gave it back four times of
        // four; shown greet.py as it was, the same model's answers differ
        // (see `Agent::best_answer`).
        let broke: Vec<&str> = (wanted.iter().zip(&now))
            .filter(|((command, want), (_, got))| {
                !self.prints_as_it_must(command, want, got)
                    && (self.state().ran_before.iter()).any(|run| run.command == *command)
            })
            .map(|((command, _), _)| command.as_str())
            .collect();
        // So too after an answer written that still prints otherwise: the
        // file is that answer, and shown it, t50's cli-flag model gave back
        // its `name = 'world'` before `if args.shout:` in six answers of
        // two questions.
        let was = match broke.is_empty() && !focus::answer_written(self.state()) {
            true => None,
            false => self.text_before_run(&path).filter(|was| *was != text),
        };
        let kept = match broke.is_empty() {
            true => String::new(),
            false => format!(
                ", and {} printed what it must",
                broke
                    .iter()
                    .map(|command| format!("`{command}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        };
        let ask = match was {
            Some(was) => format!(
                "{path} must work so (each command, then what it must print):\n```\n{}\n```\n\
                 After the changes of this run, it prints:\n```\n{}\n```\n\nBefore this run, \
                 {path} was as below{kept}:\n```{tag}\n{}\n```\n\n\
                 {options}Change that {path} so that each command prints what it must, and keep \
                 what it did. {}",
                shown(&wanted),
                shown(&now),
                was.trim_end(),
                prompt::answer_form(tag, &path)
            ),
            None => format!(
                "{path} must work so (each command, then what it must print):\n```\n{}\n```\nNow \
                 it prints:\n```\n{}\n```\n\n{path}:\n```{tag}\n{}\n```\n\n{}{options}What in \
                 {path} makes it print otherwise? {}",
                shown(&wanted),
                shown(&now),
                text.trim_end(),
                self.written_right(&path, &wanted, tag),
                prompt::answer_form(tag, &path)
            ),
        };
        Some(Question::of_file(path, tag, ask).with_runs(wanted))
    }

    /// Whether `printed` is what `command` must print, `must`: the same
    /// words, or, for a command whose sample the goal's words were read
    /// for (see [`crate::state::samples::SampleReading`]), what that
    /// reading holds (`5` within `The largest is 5`).
    pub(super) fn prints_as_it_must(&self, command: &str, must: &str, printed: &str) -> bool {
        same_command(printed, must)
            || (self.state().samples.iter()).any(|reading| {
                reading.command == command
                    && reading.agreed() == Some(must)
                    && reading.foresees(printed)
            })
    }

    /// For a program the run makes anew, a paragraph that shows a program
    /// written apart from the goal's words (see
    /// [`crate::state::samples::SampleReading::right_program`]) that
    /// printed what one of `wanted` must print; empty when none did. t85's
    /// biggest model wrote, round after round, a biggest.py that read one
    /// line of its standard input, while a program it wrote apart read
    /// them all and printed the largest.
    fn written_right(&self, path: &str, wanted: &[(String, String)], tag: &str) -> String {
        if self.state().baseline.files.contains_key(path) {
            return String::new();
        }
        let right = (self.state().samples.iter())
            .filter(|reading| {
                wanted
                    .iter()
                    .any(|(command, _)| *command == reading.command)
            })
            .find_map(|reading| reading.right_program());
        match right {
            Some(code) => format!(
                "This program, written from the GOAL's words alone, prints what each command must \
                 print:\n```{tag}\n{}\n```\n\n",
                code.trim_end()
            ),
            None => String::new(),
        }
    }

    /// `path` as it was before the run: from the blob kept of it when the
    /// run changed it, else the file itself while it still has the
    /// content the baseline recorded.
    pub(super) fn text_before_run(&self, path: &str) -> Option<String> {
        let sha256 = self.state().baseline.files.get(path)?.sha256.as_deref()?;
        if let Some(was) = crate::store::blobs::read(self.store.paths(), sha256).ok()? {
            return String::from_utf8(was).ok();
        }
        let now = self.tools.contents(path)?;
        (crate::digest::sha256_hex(&now) == sha256)
            .then(|| String::from_utf8(now).ok())
            .flatten()
    }

    /// The runs a program of the project, `path`, must make, each with
    /// what it must print: what the goal's words decide of a run that runs
    /// it (the answers agreed before the plan), then each run of it made
    /// before the plan that passed, held to what it printed then.
    fn runs_of(&self, path: &str) -> Vec<(String, String)> {
        let state = self.state();
        let runs_it = |command: &str| command.split_whitespace().any(|word| word == path);
        let mut wanted: Vec<(String, String)> = Vec::new();
        for output in state.outputs.as_deref().unwrap_or_default() {
            if let Some(expects) = output.held()
                && runs_it(&output.command)
            {
                wanted.push((output.command.clone(), expects.to_string()));
            }
        }
        // What the goal's words give for a sample the program reads.
        for reading in &state.samples {
            if let Some(expects) = reading.agreed()
                && runs_it(&reading.command)
                && !wanted
                    .iter()
                    .any(|(command, _)| *command == reading.command)
            {
                wanted.push((reading.command.clone(), expects.to_string()));
            }
        }
        for run in &state.ran_before {
            if run.passed()
                && runs_it(&run.command)
                && !wanted.iter().any(|(command, _)| *command == run.command)
            {
                wanted.push((run.command.clone(), crate::tools::printed(&run.output)));
            }
        }
        wanted
    }

    /// The write an answer to a [`Question`] gives: its last code block
    /// that defines the function asked of (written to its module, where the
    /// review puts definitions alone in beside the others, see
    /// `Agent::merged`), or, of a whole program, its last code block.
    /// `None` when no block does: the reply's calls are then only those
    /// it makes (not a block of prose taken for a file: it was asked for
    /// one, and gave none that is right).
    pub(super) fn answered(&self, question: &Question, content: &str) -> Option<ToolCall> {
        let language = self.languages.iter().find(|l| l.owns(&question.path))?;
        let (_, code) = text_calls::code_blocks(content)
            .into_iter()
            .rfind(|(_, code)| match &question.function {
                Some(name) => language.defines(code, name),
                // Code its language reads: v2's echo-reverse answered with
                // a sentence in the block.
                None => language
                    .parsed_definitions(&[(question.path.clone(), code.to_string())])
                    .into_iter()
                    .next()
                    .flatten()
                    .is_some(),
            })?;
        Some(ToolCall {
            name: "write_file".into(),
            arguments: serde_json::json!({ "path": question.path, "content": code }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::options_read;
    use crate::lang::Python;

    #[test]
    fn flags_are_read_with_the_languages_parser_and_an_option_with_a_value_is_not() {
        let flags = options_read(&Python, "Give echo.py a --reverse flag");
        assert!(
            flags.starts_with(
                "With argparse, `parser.add_argument('--reverse', action='store_true')`"
            ) && flags.ends_with(".\n\n"),
            "{flags}"
        );
        // `store_true` would be wrong for `--times N`: it is read as an
        // option that takes a value (t1's repeat-times, told to read it as
        // a flag, never found the number).
        let valued = options_read(
            &Python,
            "Give echo.py a --reverse flag and a --times N option",
        );
        assert!(
            valued.contains("`parser.add_argument('--reverse', action='store_true')`"),
            "{valued}"
        );
        assert!(
            valued.contains("`parser.add_argument('--times')` makes `args.times` the text given"),
            "{valued}"
        );
        assert!(!valued.contains("'--times' in sys.argv"), "{valued}");
        assert_eq!(options_read(&Python, "Write a hello world script"), "");
    }
}
