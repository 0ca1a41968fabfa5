//! After a write or an edit that changed a file: the programs the run
//! holds the work to run again at once, and what they print goes into the
//! write's result, as aider's auto-test does. The model learns what its
//! change did in the round it made it, not at the last check: a cli-flag
//! cycle wrote `greeting` to shout on both of its branches, and only the
//! last check, twelve rounds later, ran `python3 greet.py` and found
//! `HELLO, world!` where `Hello, world!` was kept (c2, BENCHMARKS.md).
//!
//! Which programs: those that ran before the plan (see
//! [`crate::state::Event::RanBefore`]), told only when they no longer
//! print what they printed then; those whose runs showed a requirement the
//! last assessment found met, told only when they no longer print what it
//! found; the runs the active task must make print
//! something ([`SubtaskKind::Show`]) or pass an option; and, in a task
//! that has none of those, each program that ran before the plan with the
//! options the goal names. Each within [`RERUN_TIMEOUT`] seconds, through
//! the model's own `run_cmd` (its whitelist, sandbox and limits).
//!
//! A run with an option of the goal's that printed the option back,
//! printed what the program prints without it, or printed what it prints
//! with the option's bare word in its place (read as one more argument),
//! is kept (see [`Unread`]):
//! until the file changes again, a completion is refused once a subtask
//! with what to do (`RefusalKind::OptionTaken`, `OptionIgnored`). So is
//! one after a write that left a program that ran before the plan failing
//! (`KeptBroken`): l3's cli-flag marked its change done with `greet.py`
//! raising NameError, and only the check subtask after it found that.

use super::Agent;
use super::complete::same_command;
use crate::state::verdict::{self, CheckRun, cut};
use crate::state::{RefusalKind, SubtaskKind};

/// Seconds each run may take: the programs that ran before the plan took
/// less (see `begin::RAN_BEFORE_TIMEOUT`).
const RERUN_TIMEOUT: u64 = 10;
/// Runs after one write at most.
const MAX_RERUNS: usize = 4;
/// Runs of what the last assessment found met, after one write at most.
const MAX_MET: usize = 2;
/// Characters of a line of output quoted.
const QUOTED: usize = 80;

impl Agent<'_> {
    /// What the programs the work is held to print after a write that
    /// changed a file, one line each after a line break (empty when
    /// nothing is held or a stop came); and, when the active subtask is a
    /// run of one of them (a show, or a check that passes an option) that
    /// now passes, holds what it must and takes its options as options,
    /// why it is done (see [`shows`]).
    pub(super) async fn rerun_after_write(&mut self) -> (String, Option<String>) {
        let state = self.state();
        let kept: Vec<CheckRun> = state
            .ran_before
            .iter()
            .filter(|run| run.passed())
            .cloned()
            .collect();
        // What the last assessment found met by a run of a program: the
        // command, the text it printed, and the requirement.
        let met: Vec<(String, String, String)> = state
            .requirements
            .iter()
            .filter(|r| r.met && r.is_about_output())
            .filter_map(|r| {
                let command = r.to_show()?;
                let expects = r.shown_by.as_ref()?.expects.trim();
                let text = !expects.is_empty() && !verdict::describes(expects);
                let known = kept.iter().any(|was| same_command(&was.command, command));
                (text && !known).then(|| {
                    (
                        command.to_string(),
                        expects.to_string(),
                        r.requirement.clone(),
                    )
                })
            })
            .take(MAX_MET)
            .collect();
        // The options the goal names: a check's own (`pytest -q`) are not.
        let options = verdict::named_options(&state.goal);
        let passes = |cmd: &str| {
            cmd.split_whitespace()
                .any(|w| options.iter().any(|o| o == w))
        };
        let mut runs: Vec<(String, Option<String>)> = Vec::new();
        let active = match state.tree.active().map(|(_, subtask)| &subtask.kind) {
            Some(SubtaskKind::Show { cmd, .. }) => Some(cmd.clone()),
            Some(SubtaskKind::Check { cmd }) if passes(cmd) => Some(cmd.clone()),
            _ => None,
        };
        if let Some(cursor) = state.tree.cursor
            && let Some(task) = state.tree.tasks.get(cursor.task)
        {
            for subtask in task.subtasks.iter().filter(|s| !s.status.is_ended()) {
                let run = match &subtask.kind {
                    SubtaskKind::Show { cmd, expects } => (cmd.clone(), Some(expects.clone())),
                    SubtaskKind::Check { cmd } if passes(cmd) => (cmd.clone(), None),
                    _ => continue,
                };
                if !runs.iter().any(|(known, _)| same_command(known, &run.0)) {
                    runs.push(run);
                }
            }
        }
        if runs.is_empty() && !options.is_empty() {
            let given: Vec<String> = options
                .iter()
                .map(|option| verdict::with_value(&state.goal, option))
                .collect();
            for was in &kept {
                runs.push((format!("{} {}", was.command, given.join(" ")), None));
            }
        }
        // The options that take no value (`--shout`): what a program that
        // reads them left out of its arguments (see `left_out`), and what a
        // run with one and no value shows of it.
        let flags = verdict::named_flags(&state.goal);
        let mut lines = Vec::new();
        let mut plain = Vec::new();
        let mut done = None;
        self.taken = None;
        for was in kept.iter().take(MAX_RERUNS) {
            if self.stop.is_requested() {
                return (String::new(), None);
            }
            let now = self
                .run_check_within(&was.command, Some(RERUN_TIMEOUT))
                .await;
            if let Some(line) = changed(was, &now) {
                // Failing or printing otherwise: o2's cli-flag made
                // `greeting` drop its "Hello, ", was told so after the
                // write, and its claim stood.
                if self.taken.is_none() {
                    self.taken = self.broken(&now, &line, &crate::tools::printed(&was.output));
                }
                // An edit to copy is said at once, in the write's result.
                match &self.taken {
                    Some(taken) if taken.edit.is_some() && taken.told == line => {
                        lines.push(format!("{line}. {}", taken.advice));
                    }
                    _ => lines.push(line),
                }
            }
            plain.push(now);
        }
        // A change that broke what the last assessment found met: t5's
        // countdown met the goal, and a cycle for a requirement the goal
        // does not give made it print each number twice.
        for (command, expects, requirement) in &met {
            if runs.iter().any(|(known, _)| same_command(known, command)) {
                continue;
            }
            if self.stop.is_requested() {
                return (String::new(), None);
            }
            let now = self.run_check_within(command, Some(RERUN_TIMEOUT)).await;
            if shows(&now, Some(expects), &options) {
                continue;
            }
            let Some(said) = outcome(&now, &crate::tools::printed(&now.output)) else {
                continue;
            };
            let line = format!(
                "`{command}` {said}; the last assessment found \"{}\" met by it printing {:?}, \
                 and the goal does not ask to change that: make it print that again",
                cut(requirement, QUOTED),
                cut(expects, QUOTED)
            );
            if self.taken.is_none() {
                self.taken = self.broken(&now, &line, expects);
            }
            lines.push(line);
        }
        for (command, expects) in runs.iter().take(MAX_RERUNS.saturating_sub(kept.len())) {
            if self.stop.is_requested() {
                return (String::new(), None);
            }
            let now = self.run_check_within(command, Some(RERUN_TIMEOUT)).await;
            let Some(mut line) = printed(&now, expects.as_deref(), &options) else {
                continue;
            };
            if active.as_deref() == Some(command.as_str())
                && shows(&now, expects.as_deref(), &options)
            {
                done = Some(format!("after the change, {line}"));
            }
            if self.taken.is_none() {
                self.taken = match printed_back(&now, &flags) {
                    Some(option) => self.left_out(&now, option, &line),
                    None => self.ignored(&now, &plain, &flags, &line),
                };
                if self.taken.is_none() {
                    self.taken = self.read_as_word(&now, &flags, &line).await;
                }
                if let Some(taken) = &self.taken {
                    line = format!("{}. {}", taken.told, taken.advice);
                }
            }
            lines.push(line);
        }
        let lines = lines
            .iter()
            .map(|line| format!("\nAfter this change, {line}"))
            .collect();
        // A run that took the option for nothing is not done (`taken`).
        (lines, done.filter(|_| self.taken.is_none()))
    }
}

/// Whether `pieces` (the literal text of a line, see
/// [`crate::lang::Language::literal_pieces`]) hold one of `printed` that
/// `now` lacks: a piece of three letters or more.
fn prints_piece_of(pieces: &[String], printed: &str, now: &str) -> bool {
    pieces.iter().any(|piece| {
        piece.chars().filter(|c| c.is_alphabetic()).count() >= 3
            && printed.contains(piece.as_str())
            && !now.contains(piece.as_str())
    })
}

/// Whether a run of the active subtask's command shows it done: it exited
/// with code 0, holds what it must print (a text, not a description: that
/// is the assessment's to judge) and prints none of the goal's options
/// back. A show subtask is done when its command does that, not when the
/// model says so; k1's cli-flag wrote the line that made `python3 greet.py
/// --shout` print `HELLO, WORLD!`, was told it held, and then wrote the
/// same file until the loop guard ended the subtask as failed.
fn shows(now: &CheckRun, expects: Option<&str>, options: &[String]) -> bool {
    let printed = crate::tools::printed(&now.output);
    now.passed()
        && printed_back(now, options).is_none()
        && expects.is_none_or(|expects| {
            !verdict::describes(expects) && verdict::holds(&printed, expects).is_ok()
        })
}

impl Agent<'_> {
    /// For a run that printed `option` back: the file of its program that
    /// reads its arguments by position, and the edit that leaves the
    /// options out of them (see [`crate::lang::Language::options_left_out`]).
    /// A small model told that its program took `--shout` for the name
    /// changed `greeting` again and never `name = argv[1]` (e1's cli-flag,
    /// both runs); it copies a call it is shown (ca2da98).
    fn left_out(&self, run: &CheckRun, option: &str, told: &str) -> Option<Unread> {
        let (path, text) = self.program_of(run)?;
        let edit = self
            .reviews
            .languages
            .for_path(&path)?
            .options_left_out(&text)?;
        Some(Unread {
            kind: RefusalKind::OptionTaken,
            advice: left_out_advice(&path, option, &edit),
            again: "If the program must print it",
            edit: Some(edit),
            told: told.to_string(),
            path,
            text,
        })
    }

    /// For a run with the goal's options that printed what the program
    /// prints without them (`plain`, run just before): the options change
    /// nothing yet. f1's cli-flag marked its change done with `greet.py
    /// --shout` printing `Hello, world!`, as `greet.py` did.
    fn ignored(
        &self,
        run: &CheckRun,
        plain: &[CheckRun],
        options: &[String],
        told: &str,
    ) -> Option<Unread> {
        let given: Vec<&str> = run
            .command
            .split_whitespace()
            .filter(|word| options.iter().any(|option| option == word))
            .collect();
        let without: Vec<&str> = run
            .command
            .split_whitespace()
            .filter(|word| !given.contains(word))
            .collect();
        let plain = plain
            .iter()
            .find(|plain| same_command(&plain.command, &without.join(" ")))?;
        (!given.is_empty() && run.passed() && verdict::prints_as_before(plain, run))
            .then_some(())?;
        let (path, text) = self.program_of(run)?;
        let given = given.join(" ");
        Some(Unread {
            kind: RefusalKind::OptionIgnored,
            told: format!(
                "{told}, what `{}` prints without {given}: {given} changes nothing yet",
                plain.command
            ),
            advice: format!("Make {path} do what the goal asks when it is run with {given}"),
            edit: None,
            again: "If it must print the same",
            path,
            text,
        })
    }

    /// For a run with the goal's flags that printed what the same command
    /// prints with each flag written as a plain word (`python3 count.py
    /// chars` beside `python3 count.py --chars`, see [`as_words`]): the
    /// program reads the flag as one of its arguments, not as an option.
    /// x3's cli-chars counted `--chars` as a word of its text and printed
    /// `1`: neither the option printed back nor the output without it, so
    /// nothing was refused and the subtask was marked done.
    async fn read_as_word(
        &mut self,
        run: &CheckRun,
        flags: &[String],
        told: &str,
    ) -> Option<Unread> {
        let (worded, given) = as_words(&run.command, flags)?;
        if !run.passed() || self.stop.is_requested() {
            return None;
        }
        let plain = self.run_check_within(&worded, Some(RERUN_TIMEOUT)).await;
        verdict::prints_as_before(&plain, run).then_some(())?;
        let (path, text) = self.program_of(run)?;
        let edit = self
            .reviews
            .languages
            .for_path(&path)
            .and_then(|language| language.options_left_out(&text));
        let advice = match &edit {
            Some(edit) => left_out_advice(&path, &given, edit),
            None => {
                format!("Make {path} read {given} as an option, apart from its other arguments")
            }
        };
        Some(Unread {
            kind: RefusalKind::OptionTaken,
            told: format!(
                "{told}, what `{worded}` prints: {path} reads {given} as a word of its arguments, \
                 not as an option"
            ),
            advice,
            edit,
            again: "If it must print the same",
            path,
            text,
        })
    }

    /// For a program that ran before the plan and fails or prints
    /// otherwise after the last write (`told`, what [`changed`] says of
    /// it): the completion waits until it prints as it did.
    ///
    /// When its argument parser is given the whole command line, its own
    /// path first (see [`crate::lang::Language::own_path_left_out`]), the
    /// advice is the edit that leaves the path out, ready to copy: t37's
    /// join-sep, told that `python3 join.py one two three` printed
    /// `join.py one two three`, wrote the same file again until the round
    /// cap.
    /// Else, when a line of the file as it was before the run that printed
    /// `before` (a string of it is in that text, and in the file no more)
    /// is gone, the advice quotes it: t41's greet-shout, told that `python3 greet.py` printed
    /// "HELLO, WORLD!" where it had printed "Hello, world!", rewrote its
    /// other branch to shout too, four times.
    fn broken(&self, run: &CheckRun, told: &str, before: &str) -> Option<Unread> {
        let (path, text) = self.program_of(run)?;
        let edit = self
            .reviews
            .languages
            .for_path(&path)
            .and_then(|language| language.own_path_left_out(&text));
        let advice = match &edit {
            Some(edit) => format!(
                "{path} gives its argument parser the whole command line at line {}, its own \
                 path first, and the parser reads that path as an argument: make this call, \
                 which gives it the arguments after the path: {}",
                edit.line,
                super::nudge::edit_call(&path, &edit.old, &edit.new)
            ),
            None => match self.printing_line_gone(&path, &text, before) {
                Some((at, line)) => format!(
                    "Before this run, that came from line {at} of {path}, `{}`, which {path} no \
                     longer has: put that line back where the program runs as it did then. Fix \
                     {path}",
                    line.trim()
                ),
                None => format!("Fix {path}"),
            },
        };
        Some(Unread {
            kind: RefusalKind::KeptBroken,
            advice,
            edit,
            again: "If the goal asks that it no longer print that",
            told: told.to_string(),
            path,
            text,
        })
    }

    /// The first line of `path` as it was before the run (from the blob its
    /// first change kept) that `now` no longer has and that holds a quoted
    /// string with a piece of `printed` that `now` has nowhere (three
    /// letters or more, cut at `{`, `}` and `%`), with its number. A line
    /// whose text is still there, moved or reworded around it, is not
    /// what was lost.
    fn printing_line_gone(&self, path: &str, now: &str, printed: &str) -> Option<(usize, String)> {
        let language = self.reviews.languages.for_path(path)?;
        let was = self.text_before_run(path)?;
        let kept: std::collections::HashSet<&str> = now.lines().map(str::trim).collect();
        was.lines().enumerate().find_map(|(at, line)| {
            let gone = !line.trim().is_empty() && !kept.contains(line.trim());
            (gone && prints_piece_of(&language.literal_pieces(line), printed, now))
                .then(|| (at + 1, line.to_string()))
        })
    }

    /// The source file a run's command runs (its first word a language
    /// owns that is a file of the workspace), and its text.
    fn program_of(&self, run: &CheckRun) -> Option<(String, String)> {
        run.command.split_whitespace().find_map(|word| {
            self.reviews.languages.for_path(word)?;
            Some((word.to_string(), self.tools.text(word)?))
        })
    }

    /// What the runs of the last write found (an option of the goal's not
    /// read, a program that ran before failing), while the file of the
    /// program is as that write left it.
    pub(super) fn last_runs_found(&self) -> Option<&Unread> {
        self.taken
            .as_ref()
            .filter(|taken| self.tools.text(&taken.path).as_deref() == Some(taken.text.as_str()))
    }

    /// The edit a refused claim wrote out to copy (the one that leaves the
    /// options out of a program's arguments), when the model claims the
    /// subtask again with the program as it was: the runner makes it in
    /// place of the claim, once a subtask. t18's sumargs-avg was refused
    /// with the edit, marked the subtask complete again at once, and spent
    /// its rounds rewriting `float(arg) for arg in argv[1:]`, which
    /// `--avg` crashed, while the edit was never made.
    pub(super) fn edit_ignored(&self) -> Option<(String, crate::lang::Edit)> {
        let taken = self.last_runs_found()?;
        let edit = taken.edit.clone()?;
        let state = self.state();
        (super::focus::completion_refused(state, taken.kind)
            && !super::focus::edit_made_for_claim(state))
        .then(|| (taken.path.clone(), edit))
    }
}

/// A run after a write that shows the program does not read an option of
/// the goal's as one: it printed it back (took it for an argument), or it
/// printed what it prints without it; and what to do.
#[derive(Debug, Clone)]
pub(super) struct Unread {
    /// `OptionTaken`, `OptionIgnored` or `KeptBroken`, as a completion is
    /// refused.
    pub kind: RefusalKind,
    /// The file of the program, and its text when the run was made.
    pub path: String,
    text: String,
    /// What the run printed, as the write's result says it.
    pub told: String,
    /// What to do, and the start of when a second claim is right.
    pub advice: String,
    /// The edit `advice` writes out to copy, when it gives one (see
    /// [`crate::lang::Language::options_left_out`]).
    pub edit: Option<crate::lang::Edit>,
    pub again: &'static str,
}

/// A program that ran before the plan and prints otherwise now: what it
/// printed then and now; `None` when it prints the same or was not run.
fn changed(was: &CheckRun, now: &CheckRun) -> Option<String> {
    if verdict::prints_as_before(was, now) {
        return None;
    }
    let (then, printed) = (
        crate::tools::printed(&was.output),
        crate::tools::printed(&now.output),
    );
    // Two outputs whose first lines are the same are quoted whole: f1's
    // cli-flag was told `printed "Hello, world!"; before this run it
    // printed "Hello, world!"` of a second greeting its edit had added.
    let same_start = now.passed() && first_line(&printed) == first_line(&then);
    let (now_said, then_said) = match same_start {
        true => (
            format!("printed {:?}", cut(printed.trim(), QUOTED)),
            cut(then.trim(), QUOTED),
        ),
        false => (outcome(now, &printed)?, first_line(&then)),
    };
    Some(format!(
        "`{}` {now_said}; before this run it printed {then_said:?}, and the goal does not ask to \
         change that: make it print that again",
        was.command,
    ))
}

/// What a run printed, and against what it must hold (`expects`) or the
/// option of the goal's (`options`) it printed back; `None` when it was not
/// run.
fn printed(now: &CheckRun, expects: Option<&str>, options: &[String]) -> Option<String> {
    let printed = crate::tools::printed(&now.output);
    let back = printed_back(now, options).map(|option| {
        format!(
            ": it printed {option} back, so the program took {option} for an argument (it must \
             read {option} as an option and print no {option})"
        )
    });
    // An expectation that describes the output (not a text) is for the
    // assessment to judge, as `focus::check::short_of` leaves it.
    let held = match (now.passed(), expects) {
        (true, Some(expects)) if !verdict::describes(expects) => {
            Some(match verdict::holds(&printed, expects) {
                Ok(_) => format!(", which holds {expects:?} as it must"),
                Err(_) => format!(
                    ", which does not hold {expects:?} yet{}",
                    printed
                        .lines()
                        .find(|l| !l.trim().is_empty())
                        .and_then(|line| verdict::difference(line, expects))
                        .map(|d| format!(": {d}"))
                        .unwrap_or_default()
                ),
            })
        }
        _ => None,
    };
    // Held to several lines, a run is quoted whole: t8's repeat-times was
    // told `printed "hi", which holds "hi\nhi"`, the first of its two
    // lines, which is all a run that printed one would have shown.
    let said = match expects {
        Some(expects) if now.exit_code == Some(0) && expects.trim().contains('\n') => {
            format!("printed {:?}", cut(printed.trim(), QUOTED))
        }
        _ => outcome(now, &printed)?,
    };
    Some(format!(
        "`{}` {said}{}",
        now.command,
        back.or(held).unwrap_or_default()
    ))
}

/// The option of the goal's (`options`) a run passed and printed back.
fn printed_back<'o>(now: &CheckRun, options: &'o [String]) -> Option<&'o str> {
    let lower = crate::tools::printed(&now.output).to_lowercase();
    let passed: Vec<&str> = now.command.split_whitespace().collect();
    options
        .iter()
        .find(|option| passed.contains(&option.as_str()) && lower.contains(&option.to_lowercase()))
        .map(String::as_str)
}

/// What to do about `given` read by position in `path`: the edit that
/// leaves the options out of its arguments, written out to copy.
fn left_out_advice(path: &str, given: &str, edit: &crate::lang::Edit) -> String {
    format!(
        "{path} reads its arguments by position at line {}, {given} among them: make this call, \
         which leaves the options out of them: {}",
        edit.line,
        super::nudge::edit_call(path, &edit.old, &edit.new)
    )
}

/// `command` with each of the goal's flags it passes written as a plain
/// word (`--chars` as `chars`), and those flags; `None` when it passes
/// none.
fn as_words(command: &str, flags: &[String]) -> Option<(String, String)> {
    let is_flag = |word: &str| flags.iter().any(|flag| flag == word);
    let given: Vec<&str> = command.split_whitespace().filter(|w| is_flag(w)).collect();
    if given.is_empty() {
        return None;
    }
    let worded: Vec<&str> = command
        .split_whitespace()
        .map(|word| match is_flag(word) {
            true => word.trim_start_matches('-'),
            false => word,
        })
        .collect();
    Some((worded.join(" "), given.join(" ")))
}

/// `printed "…"` for a run that passed, `fails (exit code N): "…"` with
/// its last line otherwise; `None` for a run the sandbox refused (the
/// runner's matter, not the model's).
fn outcome(run: &CheckRun, printed: &str) -> Option<String> {
    Some(match run.exit_code {
        Some(0) => match first_line(printed) {
            line if line.is_empty() => "printed nothing".to_string(),
            line => format!("printed {line:?}"),
        },
        Some(code) => format!("fails (exit code {code}): {:?}", last_line(printed)),
        None if run.output.starts_with("not run:") => return None,
        // How it ended, as `run_cmd` says it (a timeout, a signal).
        None => match run.output.lines().nth(1) {
            Some(ended) => format!("ended: {}", ended.trim()),
            None => format!("did not end within {RERUN_TIMEOUT} s"),
        },
    })
}

fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    cut(line.trim(), QUOTED)
}

fn last_line(text: &str) -> String {
    let line = text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
    cut(line.trim(), QUOTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_printed_the_text_when_a_quoted_piece_of_it_is_printed_and_gone() {
        use crate::lang::Language;
        let prints = |line: &str, printed: &str, now: &str| {
            prints_piece_of(&crate::lang::Python.literal_pieces(line), printed, now)
        };
        let line = "    print(f\"Hello, {name}!\")";
        assert!(prints(line, "Hello, world!", "print(f'HELLO, {name}!')"));
        // Still in the file, reworded around it: not what was lost.
        assert!(!prints(line, "Hello, world!", "text = 'Hello, ' + name"));
        // A field's name, or a piece of fewer than three letters, is no text.
        assert!(!prints("print(f'{name}!')", "name!", ""));
        assert!(!prints("print('Hi')", "Hi there", ""));
        assert!(prints("print('%s items' % n)", "3 items", ""));
        assert!(!prints("total = n + 1", "3", ""));
    }

    fn run(command: &str, exit_code: Option<i32>, stdout: &str) -> CheckRun {
        CheckRun {
            command: command.to_string(),
            exit_code,
            output: format!("$ {command}\nexit code 0\n--- stdout ---\n{stdout}"),
            tests: None,
            wants_arguments: false,
        }
    }

    #[test]
    fn a_flag_is_written_as_a_word_and_a_command_without_one_is_not() {
        let flags = ["--chars".to_string(), "--lines".to_string()];
        assert_eq!(
            as_words("python3 count.py --chars hello --lines", &flags),
            Some((
                "python3 count.py chars hello lines".to_string(),
                "--chars --lines".to_string()
            ))
        );
        // pytest's own options are not the goal's.
        assert_eq!(as_words("python3 -m pytest -q", &flags), None);
        assert_eq!(as_words("python3 count.py --charsx", &flags), None);
    }

    #[test]
    fn a_run_that_prints_its_option_back_is_told_so() {
        let now = run("python3 greet.py --shout", Some(0), "Hello, --shout!");
        let line = printed(&now, None, &["--shout".to_string()]).unwrap();
        assert!(
            line.starts_with(
                "`python3 greet.py --shout` printed \"Hello, --shout!\": it printed --shout back"
            ),
            "{line}"
        );
        // Options of the command's own are not the goal's.
        let pytest = run("python3 -m pytest -q", Some(0), "1 passed -q -m");
        let line = printed(&pytest, None, &["--shout".to_string()]).unwrap();
        assert_eq!(line, "`python3 -m pytest -q` printed \"1 passed -q -m\"");
    }

    #[test]
    fn a_run_a_requirement_shows_is_held_to_what_it_must_print() {
        let now = run("python3 greet.py --shout", Some(0), "HELLO, WORLD!");
        let held = printed(&now, Some("HELLO, WORLD!"), &[]).unwrap();
        assert!(
            held.ends_with("which holds \"HELLO, WORLD!\" as it must"),
            "{held}"
        );
        // One that describes the output is the assessment's to judge.
        let described = "the greeting in capital letters for the name it is given";
        let told = printed(&now, Some(described), &[]).unwrap();
        assert_eq!(told, "`python3 greet.py --shout` printed \"HELLO, WORLD!\"");
        // Held to several lines, the run is quoted whole.
        let twice = run("python3 repeat.py --times 2", Some(0), "hi\nhi\n");
        let held = printed(&twice, Some("hi\nhi"), &[]).unwrap();
        assert_eq!(
            held,
            "`python3 repeat.py --times 2` printed \"hi\\nhi\", which holds \"hi\\nhi\" as it must"
        );
        let once = run("python3 repeat.py --times 2", Some(0), "hi\n");
        let told = printed(&once, Some("hi\nhi"), &[]).unwrap();
        assert!(
            told.starts_with("`python3 repeat.py --times 2` printed \"hi\", which does not hold"),
            "{told}"
        );
        let short = printed(&now, Some("HELLO, ANN!"), &[]).unwrap();
        assert!(
            short.ends_with(
                "which does not hold \"HELLO, ANN!\" yet: it printed WORLD where ANN must be"
            ),
            "{short}"
        );
    }

    #[test]
    fn a_kept_program_is_named_only_when_it_prints_otherwise_and_a_refused_run_never() {
        let was = run("python3 greet.py", Some(0), "Hello, world!");
        assert_eq!(
            changed(&was, &run("python3 greet.py", Some(0), "Hello,  world!\n")),
            None
        );
        // A line more, quoted whole.
        assert_eq!(
            changed(&was, &run("python3 greet.py", Some(0), "Hello, world!\nHello, world!")),
            Some(
                "`python3 greet.py` printed \"Hello, world!\\nHello, world!\"; before this run it \
                 printed \"Hello, world!\", and the goal does not ask to change that: make it print \
                 that again"
                    .to_string()
            )
        );
        let failed = changed(&was, &run("python3 greet.py", Some(1), "NameError: x")).unwrap();
        assert!(
            failed.starts_with(
                "`python3 greet.py` fails (exit code 1): \"NameError: x\"; before this run it \
                 printed \"Hello, world!\""
            ),
            "{failed}"
        );
        let refused = CheckRun {
            output: "not run: the sandbox is off".into(),
            ..run("python3 greet.py", None, "")
        };
        assert_eq!(changed(&was, &refused), None);
    }
}
