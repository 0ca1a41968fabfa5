//! The round, top to bottom: probe, done?, context, model, act, advance, and
//! a nudge when the model answered without a tool call.

mod act;
mod complete;
pub mod decompose;
mod focus;
mod nudge;
pub mod prompt;
mod reconcile;
mod reflect;
mod review;

use crate::chat::{ToolCall, Usage};
use crate::lang::Language;
use crate::model::{ChatReply, ChatRequest, Failure, Model, ModelError, Options, text_calls};
use crate::settings::Settings;
use crate::state::{Ending, Event, Outcome, Record, State};
use crate::stop::Stop;
use crate::store::{Durability, Store, StoreError};
use crate::tools::{self, Toolbox};
use crate::workspace::{self, Map, RoundMap, Watch};

/// Corrective re-asks within one round, when the model's calls could not be
/// used: after two, the round ends and the next one starts afresh.
const MAX_CORRECTIONS: u32 = 2;
/// Above this share of the context window, the next prompt is made smaller
/// (Ollama would otherwise drop the start of the conversation silently).
const PRESSURE_PERCENT: u64 = 90;
/// How many times the prompt is halved under pressure.
const MAX_PRESSURE: u32 = 3;

/// Who is told what happens: the terminal, a JSON stream, or nobody.
pub trait Reporter {
    /// An event was recorded; `state` is the state after it.
    fn event(&mut self, record: &Record, state: &State);
    /// The model is thinking (`true`) or answered (`false`).
    fn thinking(&mut self, on: bool);
    /// Something the user should know that is not an event.
    fn notice(&mut self, _text: &str) {}
}

/// A reporter that shows nothing (benchmarks, tests).
pub struct Silent;

impl Reporter for Silent {
    fn event(&mut self, _: &Record, _: &State) {}
    fn thinking(&mut self, _: bool) {}
}

/// One invocation of the runner on one workspace.
pub struct Agent<'a> {
    settings: &'a Settings,
    store: &'a mut Store,
    model: &'a dyn Model,
    tools: &'a Toolbox,
    reporter: &'a mut dyn Reporter,
    stop: Stop,
    /// Lessons of earlier runs, as they stood when this one began.
    lessons: Option<String>,
    /// The context window asked of the server: `--num-ctx`, capped at the
    /// model's own.
    num_ctx: u64,
    /// The languages, and the reviews of the pending reply's writes.
    reviews: review::Reviews,
    /// What the runner knows of each language (definitions, tests, checks).
    languages: &'a [Box<dyn Language>],
    /// The probe of the files there were when the run began.
    watch: Watch,
    /// The workspace map of the rounds.
    map: RoundMap,
}

/// What a conversation turn led to.
enum Step {
    Go,
    /// Ask again within the same round (a correction was sent).
    Reask,
    End(Ending),
}

impl<'a> Agent<'a> {
    pub fn new(
        settings: &'a Settings,
        store: &'a mut Store,
        model: &'a dyn Model,
        tools: &'a Toolbox,
        reporter: &'a mut dyn Reporter,
        stop: Stop,
    ) -> Agent<'a> {
        let lessons = store.memory().render();
        Agent {
            settings,
            store,
            model,
            tools,
            reporter,
            stop,
            lessons,
            num_ctx: settings.num_ctx,
            reviews: review::Reviews::default(),
            languages: &[],
            watch: Watch::default(),
            map: RoundMap::default(),
        }
    }

    /// The languages the workspace map and the probe ask (none by default:
    /// the map then names files and sizes only).
    pub fn with_languages(mut self, languages: &'a [Box<dyn Language>]) -> Agent<'a> {
        self.languages = languages;
        self
    }

    /// Runs (or resumes) the goal until it ends, the rounds are spent, or a
    /// stop is requested. Only a broken store is an error; everything else is
    /// an ending, recorded in the log.
    pub async fn run(mut self, goal: &str) -> Result<Ending, StoreError> {
        let fitted = self.fit_context().await;
        self.record(
            Event::RunStarted {
                goal: goal.to_string(),
                model: self.settings.model.clone(),
                max_rounds: self.settings.max_rounds,
                num_ctx: self.num_ctx,
                host: Some(self.settings.host.clone()),
                api: Some(self.settings.api),
                tool_mode: Some(self.settings.tool_mode),
            },
            Durability::Lazy,
        )?;
        if let Err(failure) = fitted {
            return self.model_failed(failure);
        }
        // An empty folder has no baseline to record (and none to keep).
        if !self.state().tree.is_planned() && !self.state().baseline.recorded {
            let baseline = workspace::record_baseline(self.tools.root(), self.languages, goal);
            if !matches!(&baseline, Event::BaselineRecorded { files, .. } if files.is_empty()) {
                self.record(baseline, Durability::Lazy)?;
            }
        }
        if !self.state().tree.is_planned() {
            match self.plan(goal).await {
                None => return self.end(Outcome::Interrupted, "stopped by the user".into()),
                Some(Err(failure)) => return self.model_failed(failure),
                Some(Ok(planned)) => self.record(planned, Durability::Lazy)?,
            };
        }
        if let Some(flight) = self.state().in_flight.clone() {
            let outcome = reconcile::outcome(&flight, self.tools, &self.stop).await;
            self.record(
                Event::ActionFinished {
                    action: flight.action,
                    outcome,
                },
                Durability::Lazy,
            )?;
        }
        let mut reask = false;
        loop {
            self.store.checkpoint()?;
            if self.stop.is_requested() {
                return self.end(Outcome::Interrupted, "stopped by the user".into());
            }
            // 5-6. act on the calls of the last reply; advance.
            if let Some((index, call)) = self.state().next_call() {
                let call = call.clone();
                self.handle(index, call).await?;
                continue;
            }
            if !reask && self.needs_correction() {
                self.correct()?;
                reask = true;
            }
            if !reask {
                // 1. probe
                let missing = self.probe()?;
                // 2. done?
                if self.state().tree.is_finished() {
                    match self.conclude().await? {
                        Some(ending) => return Ok(ending),
                        None => continue,
                    }
                }
                if self.state().run_rounds >= self.settings.max_rounds {
                    let reason = format!(
                        "{} rounds spent; run `runner resume` to go on with a fresh budget",
                        self.settings.max_rounds
                    );
                    return self.end_reflecting(Outcome::Stopped, reason).await;
                }
                let round = self.state().rounds + 1;
                self.record(Event::RoundStarted { round, missing }, Durability::Lazy)?;
            }
            // 3-4. context and model; 7. a nudge when it answered in prose.
            reask = false;
            match self.converse().await? {
                Step::Go => {}
                Step::Reask => reask = true,
                Step::End(ending) => return Ok(ending),
            }
        }
    }

    fn state(&self) -> &State {
        self.store.state()
    }

    fn record(&mut self, event: Event, durability: Durability) -> Result<Record, StoreError> {
        let record = self.store.append(event, durability)?;
        tracing::info!(seq = record.seq, event = record.event.name(), "recorded");
        self.reporter.event(&record, self.store.state());
        Ok(record)
    }

    fn options(&self) -> Options {
        Options {
            temperature: self.settings.temperature,
            num_ctx: self.num_ctx,
            num_predict: Some(self.settings.num_predict),
        }
    }

    /// Caps `--num-ctx` at the model's context length, when the server says
    /// it. A model the server does not have ends the run here.
    async fn fit_context(&mut self) -> Result<(), Failure> {
        match self.model.info().await {
            Ok(info) => {
                if let Some(length) = info.context_length
                    && length < self.num_ctx
                {
                    self.reporter.notice(&format!(
                        "the model's context is {length} tokens; using that instead of --num-ctx {}",
                        self.num_ctx
                    ));
                    self.num_ctx = length;
                }
                Ok(())
            }
            Err(error @ ModelError::NotFound { .. }) => Err(Failure { error, retries: 0 }),
            // Servers that cannot describe the model still chat.
            Err(error) => {
                tracing::info!(%error, "no model info; keeping --num-ctx");
                Ok(())
            }
        }
    }

    /// The `planned` event; `None` when a stop was requested meanwhile.
    async fn plan(&mut self, goal: &str) -> Option<Result<Event, Failure>> {
        let map = Map::build(self.tools.root(), self.languages, goal);
        self.reporter.thinking(true);
        let planned = tokio::select! {
            planned = decompose::plan(self.model, goal, map.text(), self.options()) => Some(planned),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        planned
    }

    /// Files the runner wrote that are gone now; files there before the
    /// run that it changed or deleted are recorded when that differs from
    /// the last probe. Costs a stat per file the runner wrote, and after a
    /// command or a write a stat per file of the baseline (a hash only when
    /// a time changed and the size did not); never a walk of the workspace.
    fn probe(&mut self) -> Result<Vec<String>, StoreError> {
        let missing = self
            .state()
            .files
            .keys()
            .filter(|path| !self.tools.exists(path))
            .cloned()
            .collect();
        let state = self.store.state();
        let done = workspace::done_mark(
            state.commands.iter().map(|run| run.command.as_str()),
            state.files.values().map(|f| f.sha256.as_str()),
        );
        let baseline = &state.baseline;
        let Some(probed) = self.watch.probe_after(self.tools.root(), baseline, done) else {
            return Ok(missing);
        };
        if probed.changed != baseline.changed || probed.deleted != baseline.deleted {
            self.record(
                Event::BaselineProbed {
                    changed: probed.changed,
                    deleted: probed.deleted,
                },
                Durability::Lazy,
            )?;
        }
        Ok(missing)
    }

    /// `request` with the workspace map, when the active subtask names a
    /// file of the map (see [`RoundMap`]).
    fn with_map(&mut self, request: ChatRequest) -> ChatRequest {
        let state = self.store.state();
        let Some((_, subtask)) = state.tree.active() else {
            return request;
        };
        let writes = state.files.values().map(|f| f.sha256.as_str());
        let root = self.tools.root();
        match self.map.for_subtask(
            root,
            self.languages,
            &state.goal,
            &subtask.description,
            writes,
        ) {
            Some(map) => prompt::with_workspace(request, map),
            None => request,
        }
    }

    /// One turn: the prompt, the model's reply (tool calls written as text
    /// are taken too), and a nudge when it did not act.
    async fn converse(&mut self) -> Result<Step, StoreError> {
        let files =
            prompt::written_files(self.state(), self.tools, prompt::files_budget(self.state()));
        let request = prompt::request_with_files(
            self.state(),
            self.settings,
            self.num_ctx,
            self.lessons.as_deref(),
            &files,
        );
        let request = self.with_map(request);
        if let Some(context) = request.messages.last() {
            tracing::info!(
                bytes = request.size(),
                "context block:\n{}",
                context.content
            );
        }
        let reply = match self.ask(&request).await {
            None => {
                return self
                    .end(Outcome::Interrupted, "stopped by the user".into())
                    .map(Step::End);
            }
            Some(Ok(reply)) => reply,
            Some(Err(failure)) => return self.failed_turn(failure),
        };
        let ChatReply {
            content,
            tool_calls,
            usage,
            retries,
            done_reason,
            notices: _,
        } = reply;
        let (calls, from_text) = if tool_calls.is_empty() {
            let mut calls = text_calls::extract(&content, &tools::names());
            // A file given as a code block is written before the calls after
            // it (the run of the tests it fixes), unless a call writes one.
            if !calls.iter().any(|call| call.name == "write_file") {
                let paths = focus::known_paths(self.state());
                let current = |path: &str| {
                    let bytes = self.tools.contents(path)?;
                    String::from_utf8(bytes).ok()
                };
                let writes = text_calls::fenced_files(&content, &paths, current);
                calls = writes.into_iter().chain(calls).collect();
            }
            if calls.is_empty() && done_reason.as_deref() != Some("length") {
                calls = text_calls::extract_unclosed(&content, &tools::names());
            }
            // Cut at the cap while repeating itself: the file up to where
            // the repetition began is the model's work; asked again, it
            // repeats itself again, minutes a reply.
            if calls.is_empty()
                && done_reason.as_deref() == Some("length")
                && let Some((writes, dropped)) =
                    text_calls::cut_repetition(&content, &tools::names())
            {
                tracing::warn!(
                    dropped,
                    "the reply was cut at the token cap while repeating lines; \
                     writing its file up to where the repetition began"
                );
                calls = writes;
            }
            let from_text = !calls.is_empty();
            (calls, from_text)
        } else {
            (tool_calls, false)
        };
        let broken = calls
            .is_empty()
            .then(|| self.broken_call(&content, done_reason.as_deref()))
            .flatten();
        let calls: Vec<_> = calls.into_iter().map(tools::bounded).collect();
        let calls = self.review_writes(calls);
        let calls = self.checked_claims(calls);
        let acted = !calls.is_empty();
        self.record(
            Event::ModelReplied {
                content,
                calls,
                from_text,
                usage,
                retries,
                done_reason,
            },
            Durability::Lazy,
        )?;
        self.watch_context(usage)?;
        // A call that did not parse is corrected with its error, not nudged.
        if let Some(error) = broken
            && self.state().corrections < MAX_CORRECTIONS
        {
            self.send_correction(&error)?;
            return Ok(Step::Reask);
        }
        if !acted && let Some(ending) = self.nudge(&files).await? {
            return Ok(Step::End(ending));
        }
        Ok(Step::Go)
    }

    /// A model call failed: the server could not parse the model's tool call
    /// (a corrective re-ask, never a blind retry), or the model is unusable.
    fn failed_turn(&mut self, failure: Failure) -> Result<Step, StoreError> {
        if !matches!(failure.error, ModelError::ToolParse { .. }) {
            return self.model_failed(failure).map(Step::End);
        }
        self.record(
            Event::ModelFailed {
                error: failure.error.to_string(),
                retries: failure.retries,
            },
            Durability::Lazy,
        )?;
        if self.state().corrections >= MAX_CORRECTIONS {
            return Ok(Step::Go);
        }
        self.send_correction(&failure.error.to_string())?;
        Ok(Step::Reask)
    }

    /// One model call; `None` when a stop was requested meanwhile.
    async fn ask(&mut self, request: &ChatRequest) -> Option<Result<ChatReply, Failure>> {
        self.reporter.thinking(true);
        let result = tokio::select! {
            result = self.model.chat(request) => Some(result),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        if let Some(Ok(reply)) = &result {
            for notice in &reply.notices {
                self.reporter.notice(notice);
            }
        }
        result
    }

    /// The calls of a reply with each claim that a check subtask is done,
    /// made while the check's result for the files as they are is not known
    /// (it has not run since the last write), turned into the run of the
    /// check: the subtask is done when the check passes, and that run is
    /// what finds out. A small model claims "done" after a fix rather than
    /// run the check, and refused, claims it again or says it in prose
    /// (Qwen2.5-Coder 1.5B: "Mark the subtask complete with success=true."
    /// four rounds in a row, until the run stopped). A claim after the
    /// check failed, with nothing changed since, is refused as before.
    /// Done before the reply is logged: the log and the conversation hold
    /// the run of the check.
    fn checked_claims(&self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        let state = self.state();
        let Some(check) = focus::check_command(state) else {
            return calls;
        };
        let mut unknown = focus::check_unknown(state, &check);
        calls
            .into_iter()
            .map(|call| match self.tools.parse(&call) {
                Ok(tools::Call::Action(
                    tools::Action::WriteFile { .. } | tools::Action::EditFile { .. },
                )) => {
                    unknown = true;
                    call
                }
                Ok(tools::Call::Action(tools::Action::RunCmd { cmd, .. }))
                    if cmd.split_whitespace().eq(check.split_whitespace()) =>
                {
                    unknown = false;
                    call
                }
                Ok(tools::Call::Complete { success: true, .. }) if unknown => {
                    tracing::warn!(check, "a claim that the check subtask is done, made before the check ran on the files as they are: running the check");
                    unknown = false;
                    ToolCall {
                        name: "run_cmd".into(),
                        arguments: serde_json::json!({ "cmd": check }),
                    }
                }
                _ => call,
            })
            .collect()
    }

    /// The prompt filled most of the context window: record it (the prompt
    /// builder then keeps fewer exchanges and shorter tool results).
    fn watch_context(&mut self, usage: Usage) -> Result<(), StoreError> {
        let full = usage.prompt_tokens * 100 >= self.num_ctx * PRESSURE_PERCENT;
        if full && self.state().pressure < MAX_PRESSURE {
            if self.state().pressure == 0 {
                self.reporter.notice(&format!(
                    "the prompt used {} of {} context tokens; sending less history from now on \
                     (raise --num-ctx if the model allows it)",
                    usage.prompt_tokens, self.num_ctx
                ));
            }
            self.record(
                Event::ContextPressure {
                    prompt_tokens: usage.prompt_tokens,
                    num_ctx: self.num_ctx,
                },
                Durability::Lazy,
            )?;
        }
        Ok(())
    }

    fn model_failed(&mut self, failure: Failure) -> Result<Ending, StoreError> {
        let error = failure.error.to_string();
        self.record(
            Event::ModelFailed {
                error: error.clone(),
                retries: failure.retries,
            },
            Durability::Lazy,
        )?;
        self.end(Outcome::ModelUnusable, error)
    }

    /// Ends after the reflection turn (unless `--no-reflection`).
    async fn end_reflecting(
        &mut self,
        outcome: Outcome,
        reason: String,
    ) -> Result<Ending, StoreError> {
        if self.settings.reflection && !self.stop.is_requested() {
            self.reflect(outcome, &reason).await?;
        }
        self.end(outcome, reason)
    }

    fn end(&mut self, outcome: Outcome, reason: String) -> Result<Ending, StoreError> {
        self.record(
            Event::RunEnded {
                outcome,
                reason: reason.clone(),
            },
            Durability::Lazy,
        )?;
        Ok(Ending { outcome, reason })
    }
}
