//! Before the first round: the run is recorded, the context window fitted
//! to the model, the workspace's baseline kept, the goal planned (once),
//! and an action the last run left in flight reconciled.

use std::collections::BTreeMap;

use super::{Agent, Step, decompose, reconcile};
use crate::lang::Languages;
use crate::model::{Failure, ModelError};
use crate::state::verdict::CheckRun;
use crate::state::{BaselineFile, Event, SubtaskKind};
use crate::store::{Durability, StoreError};
use crate::workspace::{self, Map};

/// Programs the goal names that run before the plan at most (see
/// [`Agent::programs_before`]).
const MAX_RAN_BEFORE: usize = 3;
/// Seconds each of those runs may take: a program that waits or loops
/// holds up the plan, and one that needs longer shows nothing to hold
/// the work to.
const RAN_BEFORE_TIMEOUT: u64 = 10;
/// The most failed tests' checks a subtask is told (see
/// [`Agent::failed_checks`]), and the longest statement or value of one.
const SHOWN_FAILED_CHECKS: usize = 3;
const MAX_CHECKED_CHARS: usize = 100;
/// The words a program that printed nothing before the plan is run with
/// again (see [`Agent::given_words`]): an order, a count and letters an
/// option may change.
const SAMPLE_WORDS: &str = "one two three";
/// The word a program that printed something before the plan is run with
/// again, to see whether it reads its arguments: one, which a program
/// that reads a name takes as it does three (`greet.py one two three`
/// fails once argparse reads a single name).
const SAMPLE_WORD: &str = "one";

impl Agent<'_> {
    /// What the round starts from: `Step::Go`, or the ending when the model
    /// is unusable or a stop came during the plan.
    pub(super) async fn begin(&mut self, goal: &str) -> Result<Step, StoreError> {
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
            return self.model_failed(failure).map(Step::End);
        }
        // An empty folder has no baseline to record (and none to keep).
        if !self.state().tree.is_planned() && !self.state().baseline.recorded {
            let baseline = workspace::record_baseline(self.tools.root(), self.languages, goal);
            if !matches!(&baseline, Event::BaselineRecorded { files, .. } if files.is_empty()) {
                self.record(baseline, Durability::Lazy)?;
            }
        }
        if !self.state().tree.is_planned() {
            let tests = self.projects_tests().await;
            if self.state().ran_before.is_empty() {
                self.programs_before(goal).await?;
            }
            // What the goal's options must make those programs print,
            // asked before the plan (not shown any code, as at the end):
            // the plan holds its writes to it (`decompose::to_stated`).
            if !self.ask_outputs().await?
                && let Some(ending) = self.state().ended.clone()
            {
                return Ok(Step::End(ending));
            }
            let mut planned = match self.plan(goal, tests.as_ref()).await {
                None => return self.stopped().map(Step::End),
                Some(Err(failure)) => return self.model_failed(failure).map(Step::End),
                Some(Ok(planned)) => planned,
            };
            if let Event::Planned {
                tasks,
                fallback: Some(_),
                ..
            } = &mut planned
                && let Some(plan) = self.plan_of_workspace(goal)
            {
                *tasks = plan;
            }
            if let Event::Planned { tasks, .. } = &mut planned {
                let mut opening = self.opening_programs(tasks).await;
                // A goal whose program is given a file on its command line:
                // the programs the plan makes anew open one. t85's longest
                // ("given the name of a text file as its argument") was
                // checked `python3 longest.py`, which passed printing
                // nothing, and its assessment made up a run of a file
                // nobody wrote.
                if crate::state::verdict::given_a_file(goal) {
                    let baseline = &self.state().baseline.files;
                    opening.extend(decompose::planned_writes(tasks).into_iter().filter(|path| {
                        !baseline.contains_key(path)
                            && self
                                .languages
                                .iter()
                                .any(|l| l.owns(path) && !l.is_test(path))
                    }));
                }
                decompose::files_of_checks(
                    tasks,
                    |path| opening.iter().any(|p| p == path),
                    |path| !self.languages.iter().any(|l| l.owns(path)),
                );
                let baseline = &self.state().baseline.files;
                if tests.as_ref().is_some_and(fail) {
                    decompose::to_code_under_test(tasks, |path| {
                        let language = self.languages.iter().find(|l| l.is_test(path))?;
                        baseline.contains_key(path).then_some(())?;
                        language
                            .subjects(path)
                            .into_iter()
                            .find(|code| baseline.contains_key(code))
                    });
                    decompose::to_failing_code(tasks, |path| self.failing_points(path));
                }
                let failed_before = tests.as_ref().is_some_and(fail);
                if !self.speaks_of_tests() {
                    decompose::without_unasked_tests(
                        tasks,
                        |path| {
                            !baseline.contains_key(path)
                                && self.languages.iter().any(|l| l.is_test(path))
                        },
                        |command| self.languages.iter().any(|l| l.runs_tests(command)),
                        |path| {
                            let language = self.languages.iter().find(|l| l.owns(path))?;
                            Some(language.run_command(path))
                        },
                    );
                }
                // Tests that failed before the run make the goal a fix (it
                // speaks of them), not a goal of new tests: t1's
                // wordfreq-fix planned "Change wordfreq.py: Change the
                // tests to pass", and its change of the code was made the
                // write of a new test_wordfreq.py beside the project's own
                // tests/test_wordfreq.py.
                let tests = (self.speaks_of_tests() && !failed_before).then(|| {
                    let planned = decompose::planned_writes(tasks);
                    decompose::tests_of_their_own(
                        tasks,
                        |path| self.languages.iter().any(|l| l.is_test(path)),
                        |path| self.test_file_of(path, &planned),
                        |path| baseline.contains_key(path),
                        |path| self.asked_of(goal, path),
                        |path, subtask| {
                            self.of_code_under_test(goal, path, subtask)
                                || (!failed_before && self.made_up(goal, path, subtask))
                        },
                    )
                });
                if crate::state::verdict::reads_standard_input(goal) {
                    decompose::to_standard_input(
                        tasks,
                        |path| baseline.contains_key(path) || self.tools.contents(path).is_some(),
                        |path| {
                            let language = self.languages.iter().find(|l| l.owns(path))?;
                            (!language.is_test(path)).then(|| language.run_command(path))
                        },
                    );
                }
                decompose::inputs_of_checks(
                    tasks,
                    |path| baseline.contains_key(path) || self.tools.contents(path).is_some(),
                    |path| self.languages.iter().any(|l| l.owns(path)),
                );
                let first_argument = |path: &str| {
                    let language = self.languages.iter().find(|l| l.owns(path))?;
                    (!language.is_test(path)).then_some(())?;
                    language.first_argument()
                };
                decompose::arguments_of_checks(tasks, first_argument);
                if crate::state::verdict::given_arguments(goal) {
                    let stated: Vec<String> = (self.state().outputs.iter().flatten())
                        .map(|output| output.command.clone())
                        .collect();
                    decompose::arguments_of_given(tasks, &stated, first_argument);
                }
                decompose::to_options(
                    tasks,
                    &crate::state::verdict::named_options(goal),
                    |path, option| {
                        baseline.contains_key(path).then_some(())?;
                        let text = self.tools.text(path)?;
                        let valued = crate::state::verdict::takes_value(goal, option);
                        super::focus::where_option_is_read(path, option, valued, &text)
                    },
                );
                decompose::to_called(tasks, goal, |path| {
                    self.languages
                        .iter()
                        .any(|l| l.owns(path) && !l.is_test(path))
                });
                decompose::to_stated(tasks, &self.stated(baseline));
                decompose::on_workspace(
                    tasks,
                    |path| baseline.contains_key(path),
                    |path| self.languages.iter().any(|l| l.is_test(path)),
                );
                let files: Vec<String> = baseline.keys().cloned().chain(tests.flatten()).collect();
                if let Some(check) = Languages::default().check_command(self.tools.root(), &files) {
                    decompose::project_check(tasks, &check);
                }
            }
            if let Event::Planned { tasks, .. } = &mut planned {
                if !self.ask_examples_planned(tasks).await?
                    && let Some(ending) = self.state().ended.clone()
                {
                    return Ok(Step::End(ending));
                }
                decompose::to_examples(tasks, &self.state().goal_given());
            }
            self.record(planned, Durability::Lazy)?;
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
        Ok(Step::Go)
    }

    /// The plan when the model gave none that could be used, for a goal
    /// that names one source file of the project (or of a project with
    /// one): its tests written (by its language's naming) when the goal
    /// speaks of tests, else the file changed, and the check the plan's
    /// files give. t61's timeparse-tests planner named no file three times;
    /// with the goal as its one task, the model wrote timeparse.py back as
    /// it was until the loop guard ended the subtask. `None`: the goal as
    /// the one task, as before.
    fn plan_of_workspace(&self, goal: &str) -> Option<Vec<crate::state::TaskPlan>> {
        let baseline = &self.state().baseline.files;
        let source = |path: &&String| {
            self.languages
                .iter()
                .any(|l| l.owns(path) && !l.is_test(path))
        };
        let sources: Vec<&String> = baseline.keys().filter(source).collect();
        let named = crate::workspace::named_by(goal, sources.iter().copied());
        let file = match (named.as_slice(), sources.as_slice()) {
            ([file], _) | ([], [file]) => *file,
            _ => return None,
        };
        let language = self.languages.iter().find(|l| l.owns(file))?;
        let path = match self.speaks_of_tests() {
            true => language.test_path(file)?,
            false => file.clone(),
        };
        let plan = serde_json::json!({"tasks": [{"path": path, "purpose": goal}], "check": ""});
        let existing = baseline.keys().cloned().collect();
        let shape = decompose::Shape {
            goal,
            existing: &existing,
        };
        decompose::parse_for(&plan.to_string(), &shape).ok()
    }

    /// Each command whose output the model stated before the plan and that
    /// the answers agree on, with the program of the workspace
    /// (`baseline`) it runs.
    fn stated(&self, baseline: &BTreeMap<String, BaselineFile>) -> Vec<decompose::Stated> {
        let outputs = self.state().outputs.as_deref().unwrap_or_default();
        outputs
            .iter()
            .filter_map(|output| {
                let expects = output.held()?;
                let program = output.command.split_whitespace().find(|word| {
                    baseline.contains_key(*word) && self.languages.iter().any(|l| l.owns(word))
                })?;
                Some(decompose::Stated {
                    command: output.command.clone(),
                    expects: expects.to_string(),
                    program: program.to_string(),
                })
            })
            .collect()
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

    /// What the project's tests that failed before the plan point at in
    /// `path`, a source file of the project, by its language: the
    /// functions it defines that those tests call, and those only passing
    /// tests call, which stay as they are. `None` when no failing test
    /// calls one of its functions.
    fn failing_points(&self, path: &str) -> Option<decompose::Points> {
        let state = self.state();
        let language = self.languages.iter().find(|l| l.owns(path))?;
        if state.failing_before.is_empty() || language.is_test(path) {
            return None;
        }
        let read = |path: &str| self.tools.text(path);
        let text = read(path)?;
        let tests: Vec<(String, String)> = state
            .baseline
            .files
            .keys()
            .filter(|p| language.is_test(p))
            .filter_map(|p| Some((p.clone(), read(p)?)))
            .collect();
        let mut failing: Vec<String> = Vec::new();
        let (mut failed, mut passing) = (Vec::new(), Vec::new());
        for ((file, _), found) in tests.iter().zip(language.tests_called(&tests)) {
            for (id, called) in found.into_iter().flatten() {
                let node = format!("{file}::{id}");
                let fails = state
                    .failing_before
                    .iter()
                    .any(|f| f.split('[').next() == Some(node.as_str()));
                let defined = called.into_iter().filter(|n| language.defines(&text, n));
                match fails {
                    true => {
                        failing.push(id);
                        failed.extend(defined);
                    }
                    false => passing.extend(defined),
                }
            }
        }
        let named = |names: &mut Vec<String>| {
            names.sort();
            names.dedup();
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        passing.retain(|n| !failed.contains(n));
        if failed.is_empty() {
            return None;
        }
        let mut hint = format!(
            ". The project's tests that fail ({}) call {} of {path}: the bug is there",
            named(&mut failing),
            named(&mut failed)
        );
        let checked = self.failed_checks(language.as_ref(), &failing);
        if !checked.is_empty() {
            hint.push_str(&format!("; they check {checked}"));
        }
        if !passing.is_empty() {
            hint.push_str(&format!(
                "; {}, called only by tests that pass, stays as it is",
                named(&mut passing)
            ));
        }
        // A failing test's name, and the code's name it gives by the
        // language's naming of tests: what a plan takes for the code.
        let mut misnamed: Vec<String> = failing
            .iter()
            .flat_map(|id| std::iter::once(id.clone()).chain(language.named_subject(id)))
            .filter(|name| !name.is_empty() && !language.defines(&text, name))
            .collect();
        misnamed.dedup();
        Some(decompose::Points {
            hint,
            failing: failed,
            passing,
            misnamed,
        })
    }

    /// What the failing tests `failing` (ids as `language` gives them)
    /// checked and got, as the report of the check before the plan says:
    /// `` `assert f(0) == 32` (f(0) returned -32.0, the test says 32) ``, at most
    /// [`SHOWN_FAILED_CHECKS`] of them, "and"-joined; empty when the report
    /// says none. Told only which function the bug is in, a small model
    /// guessed the fix (t1's temp-fix turned `celsius * 9 / 5 - 32` into
    /// the other conversion's formula): the test's own line is what the
    /// function must do.
    fn failed_checks(&self, language: &dyn crate::lang::Language, failing: &[String]) -> String {
        let said: Vec<String> = self
            .state()
            .checks
            .iter()
            .flat_map(|check| language.failed_checks(&check.output))
            .filter(|check| failing.contains(&test_id(check)))
            .take(SHOWN_FAILED_CHECKS)
            .map(|check| said_check(&check))
            .collect();
        said.join(" and ")
    }

    /// Where the tests of `path`, a source file, are: the project's test
    /// file of it when it has one (`tests/test_wordfreq.py`, whose
    /// language names `wordfreq.py` its subject), else the plan's
    /// (`planned`, the files it writes), else where its language puts them
    /// (`test_wordfreq.py`). A project that keeps its tests in a folder
    /// (and may tell pytest to look only there) gets no second test file
    /// beside the code, and a plan that writes `tests/test_slug.py` is
    /// known to write the tests of `slug.py` (t3's slug-tests kept "Change
    /// slug.py" beside them).
    fn test_file_of(&self, path: &str, planned: &[String]) -> Option<String> {
        let baseline = &self.state().baseline.files;
        let tests_path = |test: &&String| {
            self.languages
                .iter()
                .any(|l| l.is_test(test) && l.subjects(test).iter().any(|code| code == path))
        };
        let existing = baseline.keys().find(tests_path);
        existing
            .or_else(|| planned.iter().find(tests_path))
            .cloned()
            .or_else(|| self.languages.iter().find_map(|l| l.test_path(path)))
    }

    /// Whether the goal asks a change of `path`, a file of the project,
    /// beyond its tests: it gives a name in call form (`shout(text)`)
    /// that the file does not define.
    fn asked_of(&self, goal: &str, path: &str) -> bool {
        let Some(language) = self.languages.iter().find(|l| l.owns(path)) else {
            return true;
        };
        let Some(text) = self.tools.text(path) else {
            return true;
        };
        crate::lang::called_names(goal)
            .iter()
            .any(|name| !language.defines(&text, name))
    }

    /// Whether a planned change of `path`, a file of the project, gives in
    /// code form (in backticks, or called) names the file does not define,
    /// none of which the goal gives: what it would add is made up. Asked
    /// for tests of inventory.py, a small model planned "Add a class
    /// `Inventory` with a method `add_item`" (`Inventory` is there).
    fn made_up(&self, goal: &str, path: &str, subtask: &str) -> bool {
        let new = self.new_names(path, subtask);
        !new.is_empty() && !new.iter().any(|name| crate::text::has_word(goal, name))
    }

    /// Whether a planned change of `path` is of code the goal asks tests
    /// of (see [`Agent::under_test`]), which stays as it is, and adds
    /// nothing the goal names: it gives in code form no name the file does
    /// not define that the goal gives. Asked to cover `Account` in bank.py
    /// with tests, z3's plan kept "Change bank.py: Define the Account class
    /// with methods for deposit, withdraw, and balance" (all there), and
    /// the model's rewrite broke `withdraw`.
    fn of_code_under_test(&self, goal: &str, path: &str, subtask: &str) -> bool {
        self.under_test(path).is_some()
            && !self
                .new_names(path, subtask)
                .iter()
                .any(|name| crate::text::has_word(goal, name))
    }

    /// The names `subtask`, a planned change of `path` (a file of the
    /// project), gives in code form (in backticks, or called) that the
    /// file does not define, by its language; none when no language owns
    /// it or it cannot be read.
    fn new_names(&self, path: &str, subtask: &str) -> Vec<String> {
        let Some(language) = self.languages.iter().find(|l| l.owns(path)) else {
            return Vec::new();
        };
        let Some(text) = self.tools.text(path) else {
            return Vec::new();
        };
        crate::text::code_names(subtask)
            .into_iter()
            .filter(|name| !language.defines(&text, name))
            .collect()
    }

    /// The `planned` event; `None` when a stop was requested meanwhile.
    /// The project's own tests run once before the plan, as the model's
    /// `run_cmd` would run them: the planner is shown what fails, and a
    /// plan to change a failing test file changes the code it tests (see
    /// [`decompose::to_code_under_test`]). `None` when the workspace has no
    /// tests or the run was asked to stop. Recorded as `checked` (a run
    /// that stops before its plan runs them again).
    async fn projects_tests(&mut self) -> Option<CheckRun> {
        let files: Vec<String> = self.state().baseline.files.keys().cloned().collect();
        let check = Languages::default().check_command(self.tools.root(), &files)?;
        if self.stop.is_requested() {
            return None;
        }
        let run = self.run_check(&check).await;
        run.exit_code?;
        // Recorded: whether they passed before the run is what tells a
        // goal that adds tests from one that makes them pass.
        let recorded = self.record(
            Event::Checked {
                checks: vec![run.clone()],
            },
            Durability::Lazy,
        );
        if let Err(error) = recorded {
            tracing::warn!(%error, "the run of the project's tests was not recorded");
        }
        Some(run)
    }

    /// The programs of the project that the goal names by path, run as
    /// they are before the plan when the goal names command-line options
    /// (see [`Event::RanBefore`]): asked for an option, a small model
    /// changed what greet.py prints without it too (`HELLO, WORLD!` for
    /// `python3 greet.py`), and nothing held it to what it printed before.
    /// Each runs twice, for at most [`RAN_BEFORE_TIMEOUT`] seconds; one
    /// that fails or times out, or prints otherwise the second time (a
    /// game's random move, a clock), is left out; one that printed
    /// nothing is run with words after it (see [`Agent::given_words`]),
    /// and kept bare when that shows nothing either; one that printed
    /// something is kept bare and, when words after it change what it
    /// prints, with them too. Nothing is recorded when none is left or
    /// the run was asked to stop.
    async fn programs_before(&mut self, goal: &str) -> Result<(), StoreError> {
        // A goal that speaks of a default may change what the program
        // does without the option ("--name, defaulting to 'friend'").
        if crate::state::verdict::named_options(goal).is_empty()
            || goal.to_lowercase().contains("default")
        {
            return Ok(());
        }
        let named = |path: &str| {
            goal.split_whitespace().any(|word| {
                word.trim_matches(|c: char| !(c.is_alphanumeric() || "._/-".contains(c))) == path
            })
        };
        let commands: Vec<String> = self
            .state()
            .baseline
            .files
            .keys()
            .filter(|path| named(path))
            .filter_map(|path| {
                let language = self.languages.iter().find(|l| l.owns(path))?;
                let text = self.tools.text(path)?;
                (!language.is_test(path) && language.runs_nothing(&text, false).is_none())
                    .then(|| language.run_command(path))
            })
            .take(MAX_RAN_BEFORE)
            .collect();
        let mut runs = Vec::new();
        for command in commands {
            if self.stop.is_requested() {
                return Ok(());
            }
            let Some(first) = self.run_twice(&command).await else {
                continue;
            };
            // A program that printed nothing shows nothing an option could
            // change: given words, it may show what it does with them.
            let silent = crate::tools::printed(&first.output).trim().is_empty();
            match silent {
                true => runs.push(
                    self.given_words(&command, SAMPLE_WORDS)
                        .await
                        .unwrap_or(first),
                ),
                false => {
                    // One that reads its arguments is kept with them too,
                    // and its option is asked of with them: t48's
                    // cli-flag ended "Goal achieved" with `greet.py
                    // --shout Ann` printing `HELLO, WORLD!` (its program
                    // parsed `['--shout']` alone when the flag was given),
                    // held only to the bare `greet.py --shout`.
                    let words = self.given_words(&command, SAMPLE_WORD).await;
                    let printed = crate::tools::printed(&first.output).to_string();
                    runs.push(first);
                    runs.extend(words.filter(|run| crate::tools::printed(&run.output) != printed));
                }
            }
        }
        if runs.is_empty() || self.stop.is_requested() {
            return Ok(());
        }
        self.record(Event::RanBefore { runs }, Durability::Lazy)
            .map(|_| ())
    }

    /// The programs of the project (there before the run) that a check of
    /// `tasks` runs without naming an input file, and that, run on
    /// [`SAMPLE_WORD`], say there is no such file: they open the file their
    /// argument names (see [`decompose::files_of_checks`]). Each runs once,
    /// for at most [`RAN_BEFORE_TIMEOUT`] seconds.
    async fn opening_programs(&mut self, tasks: &[crate::state::TaskPlan]) -> Vec<String> {
        let mut programs: Vec<(String, String)> = Vec::new();
        for kind in tasks.iter().flat_map(|task| &task.kinds) {
            let (SubtaskKind::Check { cmd } | SubtaskKind::Show { cmd, .. }) = kind else {
                continue;
            };
            let words = shell_words::split(cmd).unwrap_or_default();
            for word in words.iter().skip(1) {
                let Some(language) = self.languages.iter().find(|l| l.owns(word)) else {
                    continue;
                };
                let there = self.state().baseline.files.contains_key(word);
                if there && !language.is_test(word) && !programs.iter().any(|(p, _)| p == word) {
                    programs.push((word.clone(), language.run_command(word)));
                }
            }
        }
        let mut opening = Vec::new();
        for (path, command) in programs.into_iter().take(MAX_RAN_BEFORE) {
            if self.stop.is_requested() {
                break;
            }
            let command = format!("{command} {SAMPLE_WORD}");
            let run = self
                .run_check_within(&command, Some(RAN_BEFORE_TIMEOUT))
                .await;
            if !run.passed() && opens(&run.output, SAMPLE_WORD) {
                opening.push(path);
            }
        }
        opening
    }

    /// `command` run with `words` after it, when it prints
    /// something and prints the same the second time. t1's echo-reverse:
    /// `python3 echo.py` printed nothing before the plan, nothing was
    /// agreed of what `--reverse` must make it print, and each write was
    /// refused because `--reverse` "changes nothing" of an empty output.
    async fn given_words(&mut self, command: &str, words: &str) -> Option<CheckRun> {
        let run = self.run_twice(&format!("{command} {words}")).await?;
        (!crate::tools::printed(&run.output).trim().is_empty()).then_some(run)
    }

    /// The first run of `command` (at most [`RAN_BEFORE_TIMEOUT`] seconds
    /// each) when it passed twice and printed the same both times.
    async fn run_twice(&mut self, command: &str) -> Option<CheckRun> {
        let first = self
            .run_check_within(command, Some(RAN_BEFORE_TIMEOUT))
            .await;
        if !first.passed() {
            return None;
        }
        let again = self
            .run_check_within(command, Some(RAN_BEFORE_TIMEOUT))
            .await;
        (again.passed() && again.output == first.output).then_some(first)
    }

    async fn plan(
        &mut self,
        goal: &str,
        tests: Option<&CheckRun>,
    ) -> Option<Result<Event, Failure>> {
        let map = Map::build(self.tools.root(), self.languages, goal);
        // The map the planner sees is the one the cycle's calls start with.
        self.map.keep(self.state().cycles, &map);
        let head = self.head();
        let tests_now = tests.map(|run| self.tests_now(run)).unwrap_or_default();
        let workspace = decompose::workspace_section(!map.is_empty(), &tests_now);
        let existing = self.state().baseline.files.keys().cloned().collect();
        self.reporter.thinking(true);
        let planned = tokio::select! {
            planned = decompose::plan(self.model, self.settings, goal, &head, &workspace, self.options(), &existing) => Some(planned),
            _ = self.stop.requested() => None,
        };
        self.reporter.thinking(false);
        planned
    }

    /// What the planner is told of the project's tests as they are: they
    /// pass, or what fails and where (by the language's reading of the
    /// output, at most a few places).
    fn tests_now(&self, run: &CheckRun) -> String {
        if !fail(run) {
            return format!("\nThe project's tests pass now (`{}`).", run.command);
        }
        let mut text = format!(
            "\nThe project's tests FAIL now: `{}` exit code {}{}.",
            run.command,
            run.exit_code.map_or("none".to_string(), |c| c.to_string()),
            run.tests
                .map(|t| format!(", {} failed, {} passed", t.failed, t.passed))
                .unwrap_or_default()
        );
        // The failed tests by name, with what failed, as the runner's
        // summary says them; else where the language reads the failure.
        // A test its language reads what it checked of (see
        // `Language::failed_checks`) says that instead: told `assert -32.0
        // == 32`, u3's temp-fix planned to "return the correct value for
        // -32.0".
        let named = crate::lang::failed_with_why(&run.output);
        if !named.is_empty() {
            let checks: Vec<crate::lang::FailedCheck> = self
                .languages
                .iter()
                .flat_map(|l| l.failed_checks(&run.output))
                .collect();
            for (test, why) in named.iter().take(3) {
                let own = test.split('[').next().unwrap_or_default().split_once("::");
                let checked = checks
                    .iter()
                    .find(|check| own.is_some_and(|(_, own)| own == test_id(check)));
                match (checked, why.is_empty()) {
                    (Some(check), _) => {
                        text.push_str(&format!("\n  {test} fails: {}", said_check(check)))
                    }
                    (None, true) => text.push_str(&format!("\n  {test} fails")),
                    (None, false) => text.push_str(&format!("\n  {test} fails: {why}")),
                }
            }
            return text;
        }
        let problems = self
            .languages
            .iter()
            .flat_map(|l| l.failures(&run.output))
            .take(3);
        for problem in problems {
            let place = match problem.line {
                Some(line) => format!("{}:{line}", problem.path),
                None => problem.path.clone(),
            };
            text.push_str(&format!("\n  {place}: {}", problem.message));
        }
        text
    }
}

/// A failed check's test as a failing test's id names it within its file
/// (`TestA::test_b` of pytest's `TestA.test_b`, parameters left out).
fn test_id(check: &crate::lang::FailedCheck) -> String {
    check
        .test
        .split('[')
        .next()
        .unwrap_or_default()
        .replace('.', "::")
}

/// What a failed check checked and got, cut: `` `assert f(0) == 32` (f(0)
/// returned -32.0, the test says 32) ``.
fn said_check(check: &crate::lang::FailedCheck) -> String {
    let cut = |text: &str| crate::text::shorten(text, MAX_CHECKED_CHARS);
    match &check.got {
        Some(got) => format!("`{}` ({})", cut(&check.statement), cut(got)),
        None => format!("`{}`", cut(&check.statement)),
    }
}

/// Whether `output` says that a file named `word` could not be opened:
/// the system's own words for it ("No such file or directory"), which
/// programs of any language pass on (Python's `FileNotFoundError`,
/// Node's `ENOENT`), with `word` quoted.
fn opens(output: &str, word: &str) -> bool {
    output.contains("No such file or directory")
        && (output.contains(&format!("'{word}'")) || output.contains(&format!("\"{word}\"")))
}

/// The project's tests ran and did not pass.
fn fail(run: &CheckRun) -> bool {
    !run.passed() && run.tests.is_some_and(|t| t.failed > 0)
}
