//! What the user sees: one line per event on stderr, a spinner while the
//! model thinks, the final summary; with `--json`, every event as NDJSON on
//! stdout.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use console::Style;
use indicatif::{ProgressBar, ProgressStyle};

use crate::agent::Reporter;
use crate::paint::use_color;
use crate::settings::Output;
use crate::state::{Ending, Event, NudgeKind, Outcome, Record, State};
use crate::store::Stats;
use crate::text::shorten;

/// Lines of a command's output `-v` shows: enough for a test summary or
/// the top of a traceback; the whole output is in the log.
const OUTPUT_HEAD: usize = 8;

pub struct Terminal {
    output: Output,
    tty: bool,
    styles: Styles,
    spinner: Option<ProgressBar>,
    thinking_since: Option<Instant>,
    /// Summaries of started actions, to print with their results.
    started: HashMap<u64, String>,
}

#[derive(Clone)]
struct Styles {
    ok: Style,
    bad: Style,
    dim: Style,
    bold: Style,
}

impl Styles {
    fn new(color: bool) -> Styles {
        let style = |s: Style| s.force_styling(color);
        Styles {
            ok: style(Style::new().green()),
            bad: style(Style::new().red()),
            dim: style(Style::new().dim()),
            bold: style(Style::new().bold()),
        }
    }
}

impl Terminal {
    pub fn new(output: Output) -> Terminal {
        let tty = std::io::stderr().is_terminal();
        Terminal {
            output,
            tty,
            styles: Styles::new(use_color(tty)),
            spinner: None,
            thinking_since: None,
            started: HashMap::new(),
        }
    }

    fn line(&self, text: &str) {
        if !self.output.quiet {
            crate::errln!("{text}");
        }
    }

    /// A notice the user should see even with -q.
    pub fn notice(&self, text: &str) {
        crate::errln!("{} {text}", self.styles.bold.apply_to("runner:"));
    }

    /// The final summary: status, rounds, calls, tokens, time, retries.
    pub fn summary(&self, ending: &Ending, state: &State, stats: Stats, wall: Duration) {
        let s = &self.styles;
        let headline = match ending.outcome {
            Outcome::Achieved => s.ok.apply_to("Goal achieved.".to_string()),
            Outcome::NotAchieved => s
                .bad
                .apply_to(format!("Goal not achieved: {}.", ending.reason)),
            Outcome::Stopped => s.bad.apply_to(format!("Stopped: {}.", ending.reason)),
            Outcome::Interrupted => s.bad.apply_to(
                "Interrupted; the state is saved. Resume with `runner resume`.".to_string(),
            ),
            Outcome::ModelUnusable => s.bad.apply_to(format!("Stopped: {}.", ending.reason)),
        };
        let (done, total) = state.tree.progress();
        crate::errln!("{headline}");
        crate::errln!(
            "{}",
            s.dim.apply_to(format!(
                "subtasks {done}/{total} · rounds {} · model calls {} · tokens {} prompt / {} completion{} · \
                 {:.1} s · retries {} · fsyncs {}",
                state.run_rounds,
                state.model_calls,
                state.usage.prompt_tokens,
                state.usage.completion_tokens,
                state.usage.cache_note(),
                wall.as_secs_f64(),
                state.retries,
                stats.syncs,
            ))
        );
    }

    fn human(&mut self, record: &Record, state: &State) {
        let s = self.styles.clone();
        match &record.event {
            Event::RunStarted { goal, model, .. } => {
                let verb = if state.runs > 1 { "resuming" } else { "goal" };
                self.line(&format!(
                    "{} {verb}: {goal} {}",
                    s.bold.apply_to("runner"),
                    s.dim.apply_to(format!("(model {model})"))
                ));
            }
            Event::Planned { fallback, .. } => {
                if let Some(why) = fallback {
                    self.line(&format!("{}", s.bad.apply_to(format!("plan: {why}"))));
                }
                self.line(&format!(
                    "plan:\n{}",
                    crate::agent::prompt::plan_lines(state, true)
                ));
            }
            Event::RoundStarted { round, missing } => {
                if self.output.verbose {
                    self.line(&format!("{}", s.dim.apply_to(format!("round {round}"))));
                }
                if !missing.is_empty() {
                    self.line(&format!(
                        "  {} files the runner wrote are gone: {}",
                        s.bad.apply_to("!"),
                        missing.join(", ")
                    ));
                }
            }
            Event::ModelReplied { content, calls, .. } => {
                let first = content.lines().find(|l| !l.trim().is_empty());
                let said = match (first, calls.is_empty()) {
                    (Some(first), _) => Some(shorten(first, 100)),
                    (None, true) => Some("(empty reply)".to_string()),
                    (None, false) => None,
                };
                if let Some(said) = said.filter(|_| calls.is_empty() || self.output.verbose) {
                    self.line(&format!(
                        "  {} {}",
                        s.dim.apply_to("model:"),
                        s.dim.apply_to(said)
                    ));
                }
                if self.output.verbose && !calls.is_empty() {
                    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                    self.line(&format!(
                        "  {} {}",
                        s.dim.apply_to("model calls:"),
                        names.join(", ")
                    ));
                }
            }
            Event::ActionStarted { summary, .. } => {
                self.started.insert(record.seq, summary.clone());
            }
            Event::ActionFinished { action, outcome } => {
                let summary = self
                    .started
                    .remove(action)
                    .unwrap_or_else(|| "interrupted action".into());
                let mark = if outcome.ok {
                    s.ok.apply_to("✓")
                } else {
                    s.bad.apply_to("✗")
                };
                let detail = match (&outcome.error, &outcome.command) {
                    (Some(error), Some(command)) => shorten(
                        error.strip_prefix(&format!("{command}: ")).unwrap_or(error),
                        120,
                    ),
                    (Some(error), None) => shorten(error, 120),
                    (None, _) => String::new(),
                };
                self.line(&format!(
                    "  {mark} {} {}",
                    shorten(&summary, 100),
                    s.dim.apply_to(detail)
                ));
                if self.output.verbose && outcome.command.is_some() {
                    for line in outcome.result.lines().take(OUTPUT_HEAD) {
                        self.line(&format!("      {}", s.dim.apply_to(shorten(line, 120))));
                    }
                }
            }
            Event::ActionBlocked {
                signature, pattern, ..
            } => {
                let pattern = pattern.describe();
                self.line(&format!(
                    "  {} blocked a loop ({pattern}): {}",
                    s.bad.apply_to("⊘"),
                    shorten(signature, 100)
                ));
            }
            Event::CallRejected { tool, error, .. } => {
                self.line(&format!(
                    "  {} {tool}: {}",
                    s.bad.apply_to("✗"),
                    shorten(error, 120)
                ));
            }
            Event::Noted { text, .. } => self.line(&format!(
                "  {} {}",
                s.dim.apply_to("note:"),
                shorten(text, 100)
            )),
            Event::SubtaskEnded {
                task,
                subtask,
                success,
                reason,
                ..
            } => {
                let (mark, verb) = if *success {
                    (s.ok.apply_to("✔"), "done")
                } else {
                    (s.bad.apply_to("✘"), "failed")
                };
                self.line(&format!(
                    "{mark} subtask {}.{} {verb}: {}",
                    task + 1,
                    subtask + 1,
                    shorten(reason, 120)
                ));
            }
            Event::CheckGiven {
                task, subtask, cmd, ..
            } => {
                self.line(&format!(
                    "  {} check {}.{} is now `{}`",
                    s.dim.apply_to("→"),
                    task + 1,
                    subtask + 1,
                    shorten(cmd, 100)
                ));
            }
            Event::Nudged { kind, level, .. } => {
                let what = match kind {
                    NudgeKind::Prose => "the model answered without a tool call",
                    NudgeKind::Loop => "told the model it repeats itself",
                    NudgeKind::Correction => "sent the model a correction",
                };
                self.line(&format!("  {} {what}; nudge {level}", s.bad.apply_to("↻")));
            }
            Event::ContextPressure {
                prompt_tokens,
                num_ctx,
            } => {
                self.line(&format!(
                    "  {} the prompt filled {prompt_tokens} of {num_ctx} context tokens; sending less",
                    s.bad.apply_to("!")
                ));
            }
            Event::Checked { checks } => {
                for check in checks {
                    let (mark, how) = match check.exit_code {
                        Some(0) => (s.ok.apply_to("✓"), "passed".to_string()),
                        Some(code) if check.wants_arguments => (
                            s.dim.apply_to("·"),
                            format!(
                                "stopped for the arguments it reads (exit code {code}; not counted)"
                            ),
                        ),
                        Some(code) => (s.bad.apply_to("✗"), format!("failed (exit code {code})")),
                        None => (s.bad.apply_to("✗"), "did not finish".to_string()),
                    };
                    self.line(&format!("  {mark} check `{}` {how}", check.command));
                }
            }
            Event::RanBefore { runs } => {
                for run in runs {
                    self.line(&format!(
                        "  {} `{}` as it was, before the plan",
                        s.dim.apply_to("ran"),
                        run.command
                    ));
                }
            }
            Event::Assessed { requirements, .. } => {
                for requirement in requirements {
                    let mark = match requirement.met {
                        true => s.ok.apply_to("✓"),
                        false => s.bad.apply_to("✗"),
                    };
                    self.line(&format!(
                        "  {mark} {} {}",
                        shorten(&requirement.requirement, 80),
                        s.dim
                            .apply_to(format!("({})", shorten(&requirement.evidence, 80)))
                    ));
                }
            }
            Event::CycleStarted { cycle, .. } => {
                self.line(&format!(
                    "plan, cycle {cycle}: what is missing\n{}",
                    crate::agent::prompt::plan_lines(state, true)
                ));
            }
            Event::OutputsStated { outputs, .. } => {
                for output in outputs {
                    self.line(&format!(
                        "  {} `{}` -> {}",
                        s.dim.apply_to("what the goal says it prints:"),
                        shorten(&output.command, 50),
                        shorten(&output.prints.join(" / "), 50)
                    ));
                }
            }
            Event::GoalTextRead { text, .. } => {
                self.line(&format!(
                    "  {} {}",
                    s.dim
                        .apply_to("what the goal's words say its program prints:"),
                    shorten(&text.prints.join(" / "), 60)
                ));
            }
            Event::SamplesRead { readings, .. } => {
                for reading in readings {
                    self.line(&format!(
                        "  {} `{}` -> {}",
                        s.dim
                            .apply_to("what the goal says it prints for its sample:"),
                        shorten(&reading.command, 50),
                        shorten(&reading.prints.join(" / "), 50)
                    ));
                }
            }
            Event::AnswersTried { path, tried, .. } => {
                self.line(&format!(
                    "  {} {} for {}",
                    s.dim.apply_to("answers run before written, not written:"),
                    tried.len(),
                    shorten(path, 50)
                ));
            }
            Event::SampleChosen { choice, .. } => {
                self.line(&format!(
                    "  {} `{}` -> {} ({})",
                    s.dim.apply_to("asked what it must print:"),
                    shorten(&choice.command, 50),
                    shorten(&choice.printed, 40),
                    match choice.chosen {
                        true => "chosen both times",
                        false => "not chosen both times",
                    }
                ));
            }
            Event::ExampleSettled { settled, .. } => {
                self.line(&format!(
                    "  {} {} -> {} ({})",
                    s.dim.apply_to("asked which it returns:"),
                    shorten(&settled.call, 60),
                    shorten(&settled.wanted, 30),
                    match (settled.own_test, settled.own_choice(), settled.held) {
                        (true, Some(chosen), _) if settled.written => format!(
                            "a failing test's call: two writings of it apart returned {}",
                            shorten(chosen, 30)
                        ),
                        (true, Some(chosen), _) => format!(
                            "a failing test's call: the model chose {} both times",
                            shorten(chosen, 30)
                        ),
                        (true, None, _) => format!(
                            "a failing test's call: the model did not choose it or {} both times",
                            shorten(&settled.got, 30)
                        ),
                        (false, _, true) => format!(
                            "the model stands by it; the code returns {}",
                            shorten(&settled.got, 30)
                        ),
                        (false, _, false) => {
                            "the model's answers are not held against the code".into()
                        }
                    }
                ));
            }
            Event::ExamplesStated { examples, .. } => {
                let (changed, own): (Vec<_>, Vec<_>) = examples.iter().partition(|e| e.variant);
                for example in own {
                    self.line(&format!(
                        "  {} {} -> {}",
                        s.dim.apply_to("the goal's example:"),
                        shorten(&example.call, 60),
                        shorten(&example.returns.join(" / "), 40)
                    ));
                }
                if let Some(first) = changed.first() {
                    self.line(&format!(
                        "  {} {} with other digits, as writings of it agree (such as {} -> {})",
                        s.dim.apply_to("and"),
                        changed.len(),
                        shorten(&first.call, 40),
                        shorten(first.returns.first().map_or("", String::as_str), 20)
                    ));
                }
            }
            Event::Reflected { lessons, .. } => {
                if self.output.verbose {
                    for lesson in lessons {
                        self.line(&format!(
                            "  {} {}",
                            s.dim.apply_to("lesson:"),
                            shorten(lesson, 100)
                        ));
                    }
                }
            }
            Event::ModelFailed { error, .. } => {
                self.line(&format!("  {} {error}", s.bad.apply_to("model:")))
            }
            Event::BaselineProbed { changed, deleted } => {
                for (what, paths) in [("changed", changed), ("deleted", deleted)] {
                    if !paths.is_empty() {
                        self.line(&format!(
                            "  files there before the run, {what}: {}",
                            paths.join(", ")
                        ));
                    }
                }
            }
            Event::RunEnded { .. }
            | Event::RolledBack { .. }
            | Event::BaselineRecorded { .. }
            | Event::FilesShown { .. } => {}
        }
    }
}

impl Reporter for Terminal {
    fn event(&mut self, record: &Record, state: &State) {
        if self.output.json {
            let line = serde_json::to_string(record).unwrap_or_default();
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
        self.human(record, state);
    }

    fn notice(&mut self, text: &str) {
        Terminal::notice(self, text);
    }

    fn thinking(&mut self, on: bool) {
        if on {
            self.thinking_since = Some(Instant::now());
            if self.tty && !self.output.quiet {
                let spinner = ProgressBar::new_spinner();
                spinner.set_style(
                    ProgressStyle::with_template("  {spinner} the model is thinking… {elapsed}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                spinner.enable_steady_tick(Duration::from_millis(120));
                self.spinner = Some(spinner);
            }
        } else {
            if let Some(spinner) = self.spinner.take() {
                spinner.finish_and_clear();
            }
            if let Some(since) = self.thinking_since.take()
                && !self.tty
                && self.output.verbose
            {
                self.line(&format!(
                    "  model answered in {:.1} s",
                    since.elapsed().as_secs_f64()
                ));
            }
        }
    }
}
