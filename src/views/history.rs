//! `runner history`: the log, one readable line per event; `--follow` tails
//! a running run until it ends.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::{Paint, outcome_word, read_records, running_pid, shorten};
use crate::error::{AppError, Exit};
use crate::state::{Event, NudgeKind, Record};
use crate::store::{Paths, StoreError, log};

/// How often `--follow` looks for new records: fast enough to feel live,
/// rare enough to cost nothing beside a model call.
const FOLLOW_POLL: Duration = Duration::from_millis(200);

/// What to show.
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryOptions {
    /// Only the last this many records.
    pub last: Option<usize>,
    pub json: bool,
    pub follow: bool,
}

pub async fn history(workspace: &Path, options: HistoryOptions) -> Result<Exit, AppError> {
    let path = Paths::new(workspace).history();
    let (records, warning) = read_records(&path)?;
    if let Some(warning) = warning {
        crate::paint::warning(&warning);
    }
    if records.is_empty() && !options.follow {
        crate::errln!(
            "runner: no run in {}; start one with `runner \"GOAL\"`",
            workspace.display()
        );
        return Ok(Exit::Achieved);
    }
    let paint = Paint::stdout();
    let skip = options.last.map_or(0, |n| records.len().saturating_sub(n));
    for record in &records[skip..] {
        print_record(record, options.json, &paint);
    }
    if options.follow {
        follow(workspace, &path, records.last(), options.json, &paint).await?;
    }
    Ok(Exit::Achieved)
}

fn print_record(record: &Record, json: bool, paint: &Paint) {
    let line = if json {
        serde_json::to_string(record).unwrap_or_default()
    } else {
        render_line(record, paint)
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Prints the records appended after `last` as they come, until the run
/// has ended and no runner holds the workspace (Ctrl-C stops it sooner). A
/// log replaced meanwhile (a new goal archived the old one) is read anew.
async fn follow(
    workspace: &Path,
    path: &Path,
    last: Option<&Record>,
    json: bool,
    paint: &Paint,
) -> Result<(), StoreError> {
    let mut seen = last.map_or(0, |r| r.seq);
    let mut ended = last.is_some_and(|r| matches!(r.event, Event::RunEnded { .. }));
    if last.is_none() {
        crate::errln!("runner: waiting for a run to start here (Ctrl-C to stop)");
    }
    loop {
        if ended && running_pid(workspace).is_none() {
            return Ok(());
        }
        tokio::select! {
            _ = tokio::time::sleep(FOLLOW_POLL) => {}
            _ = tokio::signal::ctrl_c() => return Ok(()),
        }
        let bytes = match fs_err::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(source) => {
                return Err(StoreError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        // Reading the whole file each time keeps this simple and correct
        // across a log that is replaced; a log is a few hundred KB at most.
        let (found, _) = log::scan(&bytes);
        if found.last().is_some_and(|f| f.record.seq < seen) {
            seen = 0;
        }
        let from = seen;
        for found in found.iter().filter(|f| f.record.seq > from) {
            print_record(&found.record, json, paint);
            seen = found.record.seq;
            ended = matches!(found.record.event, Event::RunEnded { .. });
        }
    }
}

/// One record as a line: seq, time, event, what happened.
pub fn render_line(record: &Record, paint: &Paint) -> String {
    let time = record.ts.get(..19).unwrap_or(&record.ts).replace('T', " ");
    let name = format!("{:<15}", record.event.name());
    let name = match &record.event {
        Event::ActionFinished { outcome, .. } if !outcome.ok => paint.bad.apply_to(name),
        Event::ActionBlocked { .. }
        | Event::CallRejected { .. }
        | Event::ModelFailed { .. }
        | Event::Nudged { .. } => paint.bad.apply_to(name),
        Event::SubtaskEnded { success: false, .. } => paint.bad.apply_to(name),
        Event::SubtaskEnded { .. } | Event::RunStarted { .. } | Event::RunEnded { .. } => {
            paint.bold.apply_to(name)
        }
        Event::RoundStarted { .. } | Event::ModelReplied { .. } => paint.dim.apply_to(name),
        _ => console::Style::new().apply_to(name),
    };
    format!(
        "{:>5}  {}  {name} {}",
        record.seq,
        paint.dim.apply_to(time),
        detail(&record.event)
    )
}

/// What an event says, in one line.
fn detail(event: &Event) -> String {
    match event {
        Event::RunStarted {
            goal,
            model,
            max_rounds,
            num_ctx,
            ..
        } => format!(
            "{:?} · model {model} · up to {max_rounds} rounds · num_ctx {num_ctx}",
            shorten(goal, 80)
        ),
        Event::Planned {
            tasks, fallback, ..
        } => {
            let subtasks: usize = tasks.iter().map(|t| t.subtasks.len()).sum();
            let mut text = format!("{} tasks, {subtasks} subtasks", tasks.len());
            if let Some(why) = fallback {
                text.push_str(&format!(" (fallback: {})", shorten(why, 80)));
            }
            text
        }
        Event::RoundStarted { round, missing } => {
            let mut text = format!("round {round}");
            if !missing.is_empty() {
                text.push_str(&format!("; gone: {}", missing.join(", ")));
            }
            text
        }
        Event::ModelReplied {
            content,
            calls,
            usage,
            retries,
            done_reason,
            ..
        } => {
            let mut text = if calls.is_empty() {
                format!("said {:?}", shorten(content, 80))
            } else {
                let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                format!("calls {}", names.join(", "))
            };
            text.push_str(&format!(
                " · {}+{} tokens",
                usage.prompt_tokens, usage.completion_tokens
            ));
            if *retries > 0 {
                text.push_str(&format!(" · {retries} retries"));
            }
            match done_reason.as_deref() {
                Some("length") => text.push_str(" · cut at --num-predict"),
                Some(crate::model::runaway::REPEATING) => {
                    text.push_str(" · stopped: it repeated itself")
                }
                _ => {}
            }
            text
        }
        Event::ActionStarted { summary, .. } => shorten(summary, 120),
        Event::ActionFinished { action, outcome } => {
            let what = match (&outcome.error, outcome.exit_code) {
                (Some(error), _) => format!("failed: {}", shorten(error, 100)),
                (None, Some(code)) => format!("ok: rc={code}"),
                (None, None) => format!("ok: {}", shorten(&outcome.result, 100)),
            };
            format!("#{action} {what}")
        }
        Event::ActionBlocked {
            signature, pattern, ..
        } => {
            let pattern = pattern.describe();
            format!("{} ({pattern})", shorten(signature, 100))
        }
        Event::CallRejected { tool, error, .. } => format!("{tool}: {}", shorten(error, 100)),
        Event::Noted { text, .. } => shorten(text, 120),
        Event::SubtaskEnded {
            call,
            task,
            subtask,
            success,
            reason,
        } => format!(
            "{}.{} {}{}: {}",
            task + 1,
            subtask + 1,
            if *success { "done" } else { "failed" },
            if call.is_none() {
                " (by the runner)"
            } else {
                ""
            },
            shorten(reason, 100)
        ),
        Event::CheckGiven {
            task, subtask, cmd, ..
        } => {
            format!("{}.{} runs `{}`", task + 1, subtask + 1, shorten(cmd, 100))
        }
        Event::Nudged { kind, level, .. } => match kind {
            NudgeKind::Prose => format!("nudge {level}: the model answered without a tool call"),
            NudgeKind::Loop => format!("loop nudge {level}: told the model it repeats itself"),
            NudgeKind::Correction => format!("correction {level}: its calls could not run"),
        },
        Event::ContextPressure {
            prompt_tokens,
            num_ctx,
        } => format!("the prompt filled {prompt_tokens} of {num_ctx} context tokens"),
        Event::Reflected { lessons, .. } => format!("{} lessons", lessons.len()),
        Event::Checked { checks } => {
            let each: Vec<String> = checks
                .iter()
                .map(|c| match c.exit_code {
                    Some(code) if c.wants_arguments => format!(
                        "`{}` exit code {code} (it wanted its arguments: not counted)",
                        c.command
                    ),
                    Some(code) => format!("`{}` exit code {code}", c.command),
                    None => format!("`{}` did not finish", c.command),
                })
                .collect();
            match each.is_empty() {
                true => "no check command".into(),
                false => each.join(", "),
            }
        }
        Event::RanBefore { runs } => {
            let each: Vec<String> = runs.iter().map(|r| format!("`{}`", r.command)).collect();
            format!("ran as they were: {}", or_none(&each))
        }
        Event::Assessed { requirements, .. } => {
            let met = requirements.iter().filter(|r| r.met).count();
            format!("{met} of {} requirements met", requirements.len())
        }
        Event::AnswersTried { path, tried, .. } => format!(
            "{} answer(s) for {path} run before written and not written: {}",
            tried.len(),
            tried
                .iter()
                .map(|t| format!("{} of {} right", t.passed, t.runs))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::SampleChosen { choice, .. } => shorten(
            &format!(
                "`{}` printed {:?}: the model {} it as what the goal gives",
                choice.command,
                choice.printed,
                match choice.chosen {
                    true => "chose",
                    false => "did not choose",
                }
            ),
            140,
        ),
        Event::ExampleSettled { settled, .. } => shorten(
            &format!(
                "{} returns {} or {}: {}",
                settled.call,
                settled.wanted,
                settled.got,
                match (settled.own_choice(), settled.held) {
                    (Some(chosen), _) if settled.written => format!(
                        "two writings of it apart returned {chosen} (a failing test's call)"
                    ),
                    (Some(chosen), _) =>
                        format!("the model chose {chosen} both times (a failing test's call)"),
                    (None, true) => format!("the model chose {} both times", settled.wanted),
                    (None, false) =>
                        format!("the model did not choose {} both times", settled.wanted),
                }
            ),
            140,
        ),
        Event::ExamplesStated { examples, .. } => {
            let (changed, own): (Vec<_>, Vec<_>) = examples.iter().partition(|e| e.variant);
            let more = match changed.len() {
                0 => String::new(),
                n => format!("; {n} more with other digits"),
            };
            match own.len() {
                0 => "the goal gives no example of what a function returns".into(),
                n => format!(
                    "{n} example{} from the goal: {}{more}",
                    if n == 1 { "" } else { "s" },
                    shorten(
                        &own.iter()
                            .map(|e| format!("{} -> {}", e.call, e.returns.join(" / ")))
                            .collect::<Vec<_>>()
                            .join(", "),
                        100
                    )
                ),
            }
        }
        Event::OutputsStated { outputs, .. } => shorten(
            &format!(
                "what the goal's options must print: {}",
                or_none(
                    &outputs
                        .iter()
                        .map(|o| format!("`{}` -> {}", o.command, o.prints.join(" / ")))
                        .collect::<Vec<_>>()
                )
            ),
            140,
        ),
        Event::GoalTextRead { text, .. } => shorten(
            &format!(
                "what the goal's words say its program prints: {}",
                or_none(&text.prints)
            ),
            140,
        ),
        Event::SamplesRead { readings, .. } => shorten(
            &format!(
                "what the goal's words give for the samples: {}",
                or_none(
                    &readings
                        .iter()
                        .map(|r| format!("`{}` -> {}", r.command, r.prints.join(" / ")))
                        .collect::<Vec<_>>()
                )
            ),
            140,
        ),
        Event::CycleStarted { cycle, task } => {
            format!("cycle {cycle}: {}", shorten(&task.description, 100))
        }
        Event::ModelFailed { error, retries } => {
            format!("{} (after {retries} retries)", shorten(error, 100))
        }
        Event::RunEnded { outcome, reason } => {
            format!("{}: {}", outcome_word(*outcome), shorten(reason, 100))
        }
        Event::RolledBack {
            path, point, to, ..
        } => match to {
            Some(_) => format!("{path} put back as it was at record {point}"),
            None => format!("{path} removed (it did not exist at record {point})"),
        },
        Event::BaselineRecorded { files, left_out } => match left_out {
            0 => format!("{} files there before the run", files.len()),
            more => format!(
                "{} files there before the run ({more} more not recorded)",
                files.len()
            ),
        },
        Event::FilesShown { files } => {
            let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
            format!("shown to the model: {}", or_none(&paths))
        }
        Event::BaselineProbed { changed, deleted } => {
            format!(
                "changed: {}; deleted: {}",
                or_none(changed),
                or_none(deleted)
            )
        }
    }
}

fn or_none(paths: &[String]) -> String {
    if paths.is_empty() {
        "(none)".into()
    } else {
        paths.join(", ")
    }
}
