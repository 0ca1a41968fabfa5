//! `State::apply`: the one function that changes the state, one event at a
//! time.

use super::conversation::shortened;
use super::guard::LOOP_WINDOW;
use super::{
    Baseline, Came, CommandRun, Ending, Event, InFlight, KEPT_COMMANDS, KEPT_NOTES, NudgeKind,
    PendingReply, RecentAction, Record, Server, State, Tree,
};
use crate::chat::Message;

impl State {
    /// Applies one event. The only place the state changes.
    pub fn apply(&mut self, record: &Record) {
        self.last_seq = record.seq;
        if record.seq == 1 {
            self.log_started.clone_from(&record.ts);
        }
        match &record.event {
            Event::RunStarted {
                goal,
                model,
                max_rounds,
                host,
                api,
                tool_mode,
                ..
            } => {
                self.goal.clone_from(goal);
                self.model.clone_from(model);
                self.server = Server {
                    host: host.clone(),
                    api: *api,
                    tool_mode: *tool_mode,
                };
                self.max_rounds = *max_rounds;
                self.runs += 1;
                self.run_rounds = 0;
                // A resume gets fresh budgets: rounds, nudges, loop nudges.
                self.nudges = 0;
                self.loop_nudges = 0;
                self.cycles = 0;
                self.ended = None;
            }
            Event::Planned {
                tasks,
                model_calls,
                usage,
                retries,
                ..
            } => {
                self.tree = Tree::from_plan(tasks);
                self.model_calls += model_calls;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::BaselineRecorded { files, left_out } => {
                self.baseline = Baseline {
                    recorded: true,
                    files: files.iter().map(|f| (f.path.clone(), f.clone())).collect(),
                    left_out: *left_out,
                    ..Baseline::default()
                };
            }
            Event::FilesShown { files } => {
                for file in files {
                    self.saw(Some(file));
                }
            }
            Event::BaselineProbed { changed, deleted } => {
                self.baseline.changed.clone_from(changed);
                self.baseline.deleted.clone_from(deleted);
            }
            Event::RoundStarted { round, missing } => {
                self.rounds = *round;
                self.run_rounds += 1;
                self.corrections = 0;
                self.missing.clone_from(missing);
            }
            Event::ModelReplied {
                content,
                calls,
                usage,
                retries,
                done_reason,
                question,
                ..
            } => {
                self.model_calls += 1;
                self.questions += u32::from(*question);
                self.usage += *usage;
                self.retries += retries;
                self.reply = (!calls.is_empty()).then(|| PendingReply {
                    calls: calls.clone(),
                    next: 0,
                    cursor: self.tree.cursor,
                });
                self.reply_calls = calls.len();
                self.reply_rejected = 0;
                // A reply cut while it repeated itself is kept up to where
                // the repetition began: shown its loop again (asked again,
                // or in the next round's exchanges), a small model takes it
                // up again.
                let said = match crate::model::runaway::cut_off(done_reason.as_deref()) {
                    true => crate::model::runaway::repetition_start(content)
                        .map_or(content.as_str(), |at| &content[..at]),
                    false => content.as_str(),
                };
                // An answer to a question of its own is in prose by the form
                // it was asked in; shown in the rounds after with the write
                // taken from it, a small model answers them in prose too
                // (v3's echo-reverse, until its nudges ran out): they see the
                // write only. An answer that gave no code keeps its words:
                // they are all it gave, and w1's temp-fix made the fix its
                // three answers said in the round after them.
                let said = if *question && !calls.is_empty() {
                    ""
                } else {
                    said
                };
                self.begin_exchange(vec![Message::assistant(said.to_string(), shortened(calls))]);
                if *question {
                    self.answer_exchange = Some(self.exchanges.saturating_sub(1));
                }
            }
            Event::ActionStarted {
                call,
                summary,
                signature,
                write,
                tool,
            } => {
                let call = self.take_call(*call);
                self.in_flight = call.map(|call| InFlight {
                    action: record.seq,
                    call,
                    summary: summary.clone(),
                    write: write.clone(),
                });
                self.blocked_in_a_row = 0;
                self.recent.push_back(RecentAction {
                    signature: signature.clone(),
                    tool: tool.clone(),
                });
                while self.recent.len() > LOOP_WINDOW {
                    self.recent.pop_front();
                }
            }
            Event::ActionFinished { outcome, .. } => {
                let tool = self
                    .in_flight
                    .take()
                    .map(|flight| flight.call.name)
                    .unwrap_or_default();
                if outcome.interrupted {
                    // Its action_started was the last one in the window.
                    self.recent.pop_back();
                }
                self.record_outcome(outcome);
                self.tell(&tool, &outcome.result, Came::ran(outcome));
            }
            Event::ActionBlocked {
                call,
                tool,
                signature,
                message,
                ..
            } => {
                self.take_call(*call);
                self.blocked_in_a_row += 1;
                if !self.blocked.contains(signature) {
                    self.blocked.push(signature.clone());
                }
                self.push_error(format!(
                    "blocked a loop: {}",
                    super::guard::shown(signature)
                ));
                self.tell(tool, message, Came::Blocked);
            }
            Event::CallRejected {
                call,
                tool,
                kind,
                error,
                signature,
                seen,
            } => {
                if let Some(whole) = self.take_call(*call) {
                    self.keep_refused(*call, &whole);
                }
                self.saw(seen.as_deref());
                if let Some(signature) = signature {
                    self.refused.push_back(signature.clone());
                    while self.refused.len() > LOOP_WINDOW {
                        self.refused.pop_front();
                    }
                }
                self.reply_rejected += 1;
                // A refusal that shows a file is listed by its first line.
                match seen {
                    Some(_) => self.push_error(error.lines().next().unwrap_or_default().into()),
                    None => self.push_error(error.clone()),
                }
                self.tell(tool, error, Came::Refused { kind: *kind });
            }
            Event::Noted { call, text } => {
                self.take_call(*call);
                self.notes.push(text.clone());
                if self.notes.len() > KEPT_NOTES {
                    self.notes.remove(0);
                }
                self.tell("note", "Noted.", Came::Noted);
            }
            Event::CheckGiven {
                task,
                subtask,
                cmd,
                input,
            } => {
                self.tree.give_check(*task, *subtask, cmd, input.as_deref());
            }
            Event::SubtaskEnded {
                call,
                success,
                reason,
                ..
            } => {
                if let Some(call) = call {
                    self.take_call(*call);
                }
                self.tree.end_active(*success, reason);
                self.subtask_exchange = self.exchanges;
                self.forget_calls();
                self.nudges = 0;
                self.questions = 0;
                self.recent.clear();
                self.blocked.clear();
                self.refused.clear();
                self.blocked_in_a_row = 0;
                if call.is_some() {
                    let next = match self.tree.active() {
                        Some((_, subtask)) => format!("Next subtask: {}", subtask.description),
                        None => "Every subtask has ended.".to_string(),
                    };
                    let verdict = if *success { "complete" } else { "failed" };
                    self.tell(
                        "mark_subtask_complete",
                        &format!("Subtask marked {verdict}. {next}"),
                        Came::Ended,
                    );
                }
            }
            Event::Nudged { kind, message, .. } => {
                match kind {
                    NudgeKind::Prose => self.nudges += 1,
                    NudgeKind::Loop => self.loop_nudges += 1,
                    NudgeKind::Correction => self.corrections += 1,
                }
                let message = Message::user(message.clone());
                match self.conversation.back_mut() {
                    Some(exchange) => exchange.push(message),
                    None => self.begin_exchange(vec![message]),
                }
            }
            Event::Checked { checks } => {
                // Before the plan: the project's own tests as they were.
                if !self.tree.is_planned() {
                    self.tests_before = Some(checks.iter().all(super::verdict::CheckRun::passed));
                    self.failing_before = checks
                        .iter()
                        .flat_map(|check| crate::lang::failed_tests(&check.output))
                        .collect();
                    self.checks_before = match self.tests_before {
                        Some(false) => checks.clone(),
                        _ => Vec::new(),
                    };
                }
                self.checks.clone_from(checks);
                for check in checks {
                    self.commands.push_back(CommandRun {
                        command: check.command.clone(),
                        exit_code: check.exit_code,
                    });
                    if self.commands.len() > KEPT_COMMANDS {
                        self.commands.pop_front();
                    }
                }
            }
            Event::RanBefore { runs } => self.ran_before.clone_from(runs),
            Event::Assessed {
                requirements,
                usage,
                retries,
            } => {
                self.requirements.clone_from(requirements);
                self.model_calls += 1;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::ExamplesStated {
                examples,
                usage,
                retries,
            } => {
                self.examples = Some(examples.clone());
                self.model_calls += 1;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::ExampleSettled {
                settled,
                usage,
                retries,
            } => {
                self.settled.push(settled.clone());
                self.model_calls += 2;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::OutputsStated {
                outputs,
                calls,
                usage,
                retries,
                ..
            } => {
                self.outputs = Some(outputs.clone());
                self.model_calls += if *calls == 0 { 2 } else { *calls };
                self.usage += *usage;
                self.retries += retries;
            }
            Event::GoalTextRead {
                text,
                usage,
                retries,
            } => {
                self.model_calls += text.asked;
                self.goal_text = Some(text.clone());
                self.usage += *usage;
                self.retries += retries;
            }
            Event::AnswersTried {
                tried,
                usage,
                retries,
                ..
            } => {
                self.model_calls += tried.len() as u32;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::SampleChosen {
                choice,
                usage,
                retries,
            } => {
                self.sample_choices.push(choice.clone());
                self.model_calls += 2;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::SamplesRead {
                readings,
                usage,
                retries,
            } => {
                for reading in readings {
                    self.samples.retain(|r| r.command != reading.command);
                    self.samples.push(reading.clone());
                    self.model_calls += reading.asked;
                }
                self.usage += *usage;
                self.retries += retries;
            }
            Event::CycleStarted { cycle, task } => {
                self.cycles = *cycle;
                self.cycle_start = self.tree.tasks.len();
                self.cycle_writes = 0;
                self.tree.push(task);
                self.subtask_exchange = self.exchanges;
                self.forget_calls();
                self.nudges = 0;
                self.questions = 0;
                self.recent.clear();
                self.blocked.clear();
                self.blocked_in_a_row = 0;
            }
            Event::ModelFailed { retries, .. } => {
                self.retries += retries;
            }
            Event::ContextPressure { .. } => {
                self.pressure += 1;
            }
            Event::Reflected { usage, retries, .. } => {
                self.model_calls += 1;
                self.usage += *usage;
                self.retries += retries;
            }
            Event::RunEnded { outcome, reason } => {
                self.ended = Some(Ending {
                    outcome: *outcome,
                    reason: reason.clone(),
                });
            }
            Event::RolledBack { path, to, .. } => self.rolled_back(path, to.as_deref()),
        }
    }
}
