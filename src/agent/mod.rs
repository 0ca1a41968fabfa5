//! The round, in the order of the design. [`Agent::run`] begins (begin.rs:
//! the run recorded, the goal planned, an action left in flight
//! reconciled), then steps until an ending: stop?; act on the next pending
//! call of the last reply (act.rs); correct calls that could not be used
//! (nudge.rs); probe the files (probe.rs); done? (complete.rs: the checks
//! run again and the requirements assessed); else a turn of the model
//! (turn.rs): the context (prompt.rs), the question (ask.rs), the calls of
//! the answer (extract.rs), their review (review.rs, claims.rs), the
//! record, then a correction or a nudge (nudge.rs).

mod act;
mod ask;
mod begin;
mod claims;
mod complete;
pub mod decompose;
mod extract;
mod focus;
mod nudge;
mod probe;
pub mod prompt;
mod question;
mod reconcile;
mod reflect;
mod rerun;
mod returned;
mod review;
mod shown;
mod tried;
mod turn;

use crate::lang::Language;
use crate::model::{self, Model};
use crate::settings::Settings;
use crate::state::{Ending, Event, Outcome, Record, State};
use crate::stop::Stop;
use crate::store::{Durability, Store, StoreError};
use crate::tools::{self, Toolbox};
use crate::workspace::{PlanMap, Watch};

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
    /// The pending reply's calls as parsed when it was reviewed, each taken
    /// when it is handled.
    parsed: Vec<Option<Result<tools::Call, tools::Refusal>>>,
    /// What the runner knows of each language (definitions, tests, checks).
    languages: &'a [Box<dyn Language>],
    /// The probe of the files there were when the run began.
    watch: Watch,
    /// The workspace map of the cycle's plan, in every call's head.
    map: PlanMap,
    /// The last round's request, and the number of exchanges once its
    /// reply was recorded: a request that asks again appends to it (see
    /// [`prompt::asked_again`]).
    asked: Option<(model::ChatRequest, u64)>,
    /// The last write's run that printed an option of the goal's back, and
    /// the edit that leaves options out of the arguments (see rerun.rs);
    /// kept in memory: a resumed run learns it again at its next write.
    taken: Option<rerun::Unread>,
    /// The last question of its own asked (its words) and its answer, when
    /// the answer gave no code to take (see `Agent::question`); kept in
    /// memory: a resumed run asks it anew.
    said: Option<(String, String)>,
    /// Writings of the functions of failing asserts of the run's own
    /// tests, of their own from the goal's words, by name, in the order
    /// asked (`None`: an answer with no code; see `complete::examples`):
    /// a later failing assert of the same function is settled by them
    /// with no question. Kept in memory: a resumed run asks them anew.
    writings: Vec<(String, Vec<Option<String>>)>,
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
            parsed: Vec::new(),
            languages: &[],
            watch: Watch::default(),
            map: PlanMap::default(),
            asked: None,
            taken: None,
            said: None,
            writings: Vec::new(),
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
        let mut step = self.begin(goal).await?;
        loop {
            if let Step::End(ending) = step {
                return Ok(ending);
            }
            self.store.checkpoint()?;
            step = match step {
                _ if self.stop.is_requested() => Step::End(self.stopped()?),
                Step::Reask => self.turn().await?,
                _ => self.round().await?,
            };
        }
    }

    /// One step of the round, in the order of the design: act on the next
    /// pending call; correct calls that could not be used; probe; done?;
    /// then a turn of the model (see [`Agent::turn`]).
    async fn round(&mut self) -> Result<Step, StoreError> {
        if let Some((index, call)) = self.state().next_call() {
            let call = call.clone();
            self.handle(index, call).await?;
            return Ok(Step::Go);
        }
        if self.needs_correction() {
            self.correct()?;
            return Ok(Step::Reask);
        }
        let missing = self.probe()?;
        if self.state().tree.is_finished() {
            return Ok(self.conclude().await?.map_or(Step::Go, Step::End));
        }
        if self.state().run_rounds >= self.settings.max_rounds {
            let reason = format!(
                "{} rounds spent; run `runner resume` to go on with a fresh budget",
                self.settings.max_rounds
            );
            return self
                .end_reflecting(Outcome::Stopped, reason)
                .await
                .map(Step::End);
        }
        let round = self.state().rounds + 1;
        self.record(Event::RoundStarted { round, missing }, Durability::Lazy)?;
        self.turn().await
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

    /// Ends the run at the user's request.
    fn stopped(&mut self) -> Result<Ending, StoreError> {
        self.end(Outcome::Interrupted, "stopped by the user".into())
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
