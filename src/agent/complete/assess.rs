//! (b) of "done?": one structured-output call asks the model, for each
//! requirement of the goal, whether the files and the checks show it met.

use serde_json::{Value, json};

use super::same_command;
use crate::agent::{Agent, prompt};
use crate::chat::Message;
use crate::model::ChatRequest;
use crate::state::verdict::{self, CheckRun, Requirement, ShownBy};
use crate::state::{Event, Outcome};
use crate::state::{goal_text, samples};
use crate::store::{Durability, StoreError};

/// Bytes of the files' contents the assessment is shown: enough for the
/// small programs of a goal, bounded so the prompt fits a small context.
const FILES_BUDGET: usize = 8 * 1024;
/// Answers asked of the model before the assessment is given up.
const ASKS: usize = 2;
/// Source files whose lines an assessment's evidence is held to quote as
/// they are (see [`verdict::invented_evidence`]), at most.
const MAX_QUOTABLE_FILES: usize = 200;
/// The most lines the assessment shows of what the run changed in one
/// file the project had, and the most such files.
const MAX_CHANGED_LINES: usize = 40;
const MAX_CHANGED_FILES: usize = 5;
/// Requirements asked for at most, each string at most this long, and the
/// answer's tokens at most: a small model asked for JSON without bounds
/// writes until the token cap, minutes on a workstation's CPU. The bounds
/// fit the cap: six requirements with every string at its longest are
/// about 800 tokens (a cut-off answer is no answer).
pub(super) const MAX_REQUIREMENTS: usize = 6;
const MAX_TEXT: usize = 120;
const MAX_COMMAND: usize = 100;
const MAX_ANSWER_TOKENS: u32 = 1000;

/// The classes of a file a goal's tests are of (empty: the whole file)
/// and the public functions and methods in them, each as shown and as
/// called (see [`Agent::scope_of`]).
type TestedScope = (Vec<String>, Vec<(String, String)>);

/// What the assessor is told first, in the user message of a call in a
/// round's prefix (see [`prompt::answer_request`]).
const ASSESSOR: &str = "No tool call now: check whether the work meets the user's goal. Trust \
only the files and the output of the checks, never what the agent said it did.";

fn schema() -> Value {
    let text = json!({ "type": "string", "maxLength": MAX_TEXT });
    let command = json!({ "type": "string", "maxLength": MAX_COMMAND });
    json!({
        "type": "object",
        "properties": {
            "requirements": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_REQUIREMENTS,
                "items": {
                    "type": "object",
                    "properties": {
                        "requirement": text,
                        // The evidence before the verdict: a model writes
                        // what it reads, then judges it (l1's add-function
                        // assessor said `met: false` of a right function
                        // with no evidence at all).
                        "evidence": { "type": "string", "minLength": 1, "maxLength": MAX_TEXT },
                        "met": { "type": "boolean" },
                        "about_tests": { "type": "boolean" },
                        "about_output": { "type": "boolean" },
                        "command": command,
                        "expects": command
                    },
                    "required": [
                        "requirement", "evidence", "met", "about_tests", "about_output",
                        "command", "expects"
                    ]
                }
            }
        },
        "required": ["requirements"]
    })
}

impl Agent<'_> {
    /// Whether a source file of the workspace (one the run wrote, or one
    /// there before it) defines `name`, by its language. A workspace with
    /// no source file of a language the runner knows cannot be judged so:
    /// there, every name counts as defined (the checks and the assessment
    /// decide alone).
    fn defines(&self, name: &str) -> bool {
        let state = self.state();
        let mut known = false;
        let paths = state.files.keys().chain(state.baseline.files.keys());
        let found = paths.into_iter().any(|path| {
            let Some(language) = self.languages.iter().find(|l| l.owns(path)) else {
                return false;
            };
            known = true;
            self.tools
                .text(path)
                .is_some_and(|text| language.defines(&text, name))
        });
        found || !known
    }

    /// Each test file of the workspace (one the run wrote, or one there
    /// before it) with the names it defines, by its language.
    fn test_names(&self) -> Vec<(String, Vec<String>)> {
        known_paths(self.state())
            .into_iter()
            .filter_map(|path| {
                let language = self.languages.iter().find(|l| l.owns(path))?;
                language.is_test(path).then_some(())?;
                let text = self.tools.text(path)?;
                let definitions = language.definitions(&[(path.clone(), text)]);
                let names = definitions.into_iter().next()?.into_iter().map(|d| d.name);
                Some((path.clone(), names.collect()))
            })
            .collect()
    }

    /// The first source file (one the run wrote, or one there before it)
    /// that defines `name` under a longer name (see
    /// [`verdict::longer_name`]), and that name.
    fn defines_longer(&self, name: &str) -> Option<(String, String)> {
        known_paths(self.state()).into_iter().find_map(|path| {
            let language = self.languages.iter().find(|l| l.owns(path))?;
            if language.is_test(path) {
                return None;
            }
            let text = self.tools.text(path)?;
            language
                .definitions(&[(path.clone(), text)])
                .into_iter()
                .next()?
                .into_iter()
                .find(|d| verdict::longer_name(&d.name, name))
                .map(|d| (path.clone(), d.name))
        })
    }

    /// The path and text of each of `paths` that is a source file of
    /// `language` and there now.
    fn texts_of(
        &self,
        language: &dyn crate::lang::Language,
        paths: &[&String],
    ) -> Vec<(String, String)> {
        paths
            .iter()
            .filter(|p| language.owns(p))
            .filter_map(|p| {
                let text = self.tools.text(p)?;
                Some((p.to_string(), text))
            })
            .collect()
    }

    /// Whether the goal asks for tests of the project's code in `language`
    /// (see [`Agent::tested_code`]): it speaks of tests, gives no name in
    /// call form (those are held by `hold_to_exercised`), and the project
    /// had no tests of that language (a project with tests: the goal is
    /// about those).
    fn asks_tests_of_code(&self, language: &dyn crate::lang::Language) -> bool {
        let state = self.state();
        self.speaks_of_tests()
            && crate::lang::called_names(&state.goal).is_empty()
            && !state
                .baseline
                .files
                .keys()
                .any(|path| language.is_test(path))
    }

    /// What of `path`, a source file there before the run, the goal's
    /// tests are of, given its public functions and methods (`public`, as
    /// [`crate::lang::Language::public`] shows them): the classes the goal
    /// names (empty: the whole file, which the goal names by path) and
    /// those of `public` in them. `None` when the goal names neither.
    fn scope_of(&self, path: &str, public: Vec<(String, String)>) -> Option<TestedScope> {
        let goal = &self.state().goal;
        let class_of = |shown: &str| shown.split_once('.').map(|(class, _)| class.to_string());
        let mut classes: Vec<String> = public
            .iter()
            .filter_map(|(shown, _)| class_of(shown))
            .filter(|class| crate::text::has_word(goal, class))
            .collect();
        classes.dedup();
        if classes.is_empty() && !crate::text::names_path(goal, path) {
            return None;
        }
        let scope = public
            .into_iter()
            .filter(|(shown, _)| {
                classes.is_empty() || class_of(shown).is_some_and(|c| classes.contains(&c))
            })
            .collect();
        Some((classes, scope))
    }

    /// The classes of `path` a goal of tests of the project's code asks
    /// them of (empty: the whole file), when `path` is such code: a source
    /// file there before the run, in the scope of [`Agent::tested_code`].
    /// That code stays as it is (see `Agent::code_under_test_kept`), unless
    /// a function of the scope is a stub (not in its language's shapes, see
    /// [`crate::lang::Language::shapes`]): "implement the Stack class in
    /// stack.py, with tests" asks for it to be filled in; or the goal names
    /// a command-line option ("give greet.py a --shout flag, with a test"
    /// asks a change of what reads it). Two toolchain runs, only when the
    /// goal asks for tests of code.
    pub(in crate::agent) fn under_test(&self, path: &str) -> Option<Vec<String>> {
        let language = self.languages.iter().find(|l| l.owns(path))?;
        if language.is_test(path)
            || !self.state().baseline.files.contains_key(path)
            || !self.asks_tests_of_code(language.as_ref())
            || !verdict::named_options(&self.state().goal).is_empty()
        {
            return None;
        }
        let file = [(path.to_string(), self.tools.text(path)?)];
        let public = language.public(&file).pop()??;
        let (classes, scope) = self.scope_of(path, public)?;
        let shapes = language.shapes(&file).pop()??;
        scope
            .iter()
            .all(|(shown, _)| shapes.iter().any(|(name, _)| name == shown))
            .then_some(classes)
    }

    /// The files of the project a goal that asks for tests asks them of,
    /// with what no test calls (see [`verdict::hold_to_tested_code`]): for a
    /// goal that speaks of tests and gives no name in call form (those are
    /// held by `hold_to_exercised`), each source file there before the run
    /// that the goal names, or that defines a class the goal names (then
    /// only that class's methods count), in a project that had no tests of
    /// its language (a project with tests: the goal is about those).
    fn tested_code(&self) -> Vec<verdict::TestedCode> {
        let state = self.state();
        let paths = known_paths(state);
        let mut found = Vec::new();
        for language in self.languages {
            if !self.asks_tests_of_code(language.as_ref()) {
                continue;
            }
            let files = self.texts_of(language.as_ref(), &paths);
            let code: Vec<(String, String)> = files
                .iter()
                .filter(|(path, _)| {
                    !language.is_test(path) && state.baseline.files.contains_key(path)
                })
                .cloned()
                .collect();
            if code.is_empty() {
                continue;
            }
            let public = language.public(&code);
            let tests: Vec<(String, String)> = files
                .iter()
                .filter(|(path, _)| language.is_test(path))
                .cloned()
                .collect();
            let called = language.tests_called(&tests);
            for ((path, _), public) in code.iter().zip(public) {
                let Some((_, scope)) = public.and_then(|public| self.scope_of(path, public)) else {
                    continue;
                };
                // The test functions that call `name`, as `path::test`; a
                // test file that defines the name tests its own copy.
                let testing = |name: &str| -> Vec<String> {
                    tests
                        .iter()
                        .zip(&called)
                        .filter(|((_, text), _)| !language.defines(text, name))
                        .flat_map(|((path, _), called)| {
                            called
                                .iter()
                                .flatten()
                                .filter(|(_, calls)| calls.iter().any(|c| c == name))
                                .map(move |(test, _)| format!("{path}::{test}"))
                        })
                        .collect()
                };
                let mut functions: Vec<String> = Vec::new();
                let mut untested: Vec<String> = Vec::new();
                for (shown, name) in &scope {
                    let found = testing(name);
                    if found.is_empty() {
                        untested.push(shown.clone());
                    }
                    for test in found {
                        if !functions.contains(&test) {
                            functions.push(test);
                        }
                    }
                }
                // Its own test file by the language's rule, or else the
                // file of the tests that call it: o1's add-tests wrote
                // `tests/test_inventory.py`, its cycle named no file, and
                // a claim after a write that changed nothing stood.
                let test_file = language
                    .test_path(path)
                    .filter(|test| tests.iter().any(|(path, _)| path == test))
                    .or_else(|| {
                        let first = functions.first()?;
                        first.split_once("::").map(|(file, _)| file.to_string())
                    });
                let mut test_files: Vec<String> = Vec::new();
                for test in &functions {
                    let file = test
                        .split_once("::")
                        .map_or(test.as_str(), |(file, _)| file);
                    if !test_files.iter().any(|known| known == file) {
                        test_files.push(file.to_string());
                    }
                }
                // Of each untested one; with none, of each of them, for
                // one test of everything to be split by: t22's add-tests
                // cycles, told only "give each of its 3 functions a test
                // of its own", added a comment saying so, twice.
                let headed = match untested.is_empty() {
                    true => scope.iter().map(|(shown, _)| shown).collect::<Vec<_>>(),
                    false => untested.iter().collect(),
                };
                found.push(verdict::TestedCode {
                    path: path.clone(),
                    public: scope.len(),
                    heads: headed
                        .into_iter()
                        .filter_map(|name| language.test_head(name))
                        .collect(),
                    untested,
                    tests: functions.len(),
                    test_file,
                    names: scope.iter().map(|(shown, _)| shown.clone()).collect(),
                    test_files,
                });
            }
        }
        found
    }

    /// What the test file the active subtask writes leaves untested of the
    /// code a goal of tests asks them of (see [`Agent::tested_code`]): the
    /// file that code is in and, for each function or method no test
    /// calls, its name as shown and the first line of a test of its own
    /// ([`crate::lang::Language::test_head`]). Only the names the
    /// subtask's words give, or all of them when its words give none and
    /// no later subtask of its task writes tests (a plan that gives each
    /// function a test file of its own is not held to all of them in the
    /// first); `None` when nothing is untested, the subtask writes no test
    /// file, or the file is not there yet.
    pub(in crate::agent) fn untested_here(&self) -> Option<(String, Vec<(String, String)>)> {
        let state = self.state();
        let (task, subtask) = state.tree.active()?;
        let at = state.tree.cursor?.subtask;
        let crate::state::SubtaskKind::Write { path } = &subtask.kind else {
            return None;
        };
        let language = self.languages.iter().find(|l| l.owns(path))?;
        if !language.is_test(path) || self.tools.text(path).is_none() {
            return None;
        }
        let words = &subtask.description;
        let leaf = |name: &str| name.rsplit('.').next().unwrap_or(name).to_string();
        let later_tests = task.subtasks.iter().skip(at + 1).any(|other| {
            matches!(&other.kind, crate::state::SubtaskKind::Write { path }
                    if language.is_test(path))
        });
        self.tested_code().into_iter().find_map(|tested| {
            let named = |name: &String| crate::text::has_word(words, &leaf(name));
            let any_named = tested.names.iter().any(named);
            let untested: Vec<(String, String)> = tested
                .untested
                .iter()
                .filter(|name| named(name) || (!any_named && !later_tests))
                .filter_map(|name| Some((name.clone(), language.test_head(name)?)))
                .collect();
            (!untested.is_empty()).then(|| (tested.path.clone(), untested))
        })
    }

    /// What calls each of `names` that a source file (not a test) of the
    /// workspace defines (see [`verdict::Callers`]): the files the run
    /// wrote and those there before it, read by their language, one
    /// toolchain run per language. A name no source defines, or defined in
    /// a language that cannot tell what calls it, is left out.
    fn callers(&self, names: &[String]) -> std::collections::HashMap<String, verdict::Callers> {
        let mut found = std::collections::HashMap::new();
        if names.is_empty() {
            return found;
        }
        let state = self.state();
        let paths = known_paths(state);
        for language in self.languages {
            let files = self.texts_of(language.as_ref(), &paths);
            if files.is_empty() {
                continue;
            }
            let called = language.called(&files);
            if called.iter().all(Option::is_none) {
                continue;
            }
            let calls = |at: usize, name: &String| {
                called[at]
                    .as_ref()
                    .is_some_and(|names| names.contains(name))
            };
            for name in names {
                let Some((source, _)) = files
                    .iter()
                    .find(|(path, text)| !language.is_test(path) && language.defines(text, name))
                else {
                    continue;
                };
                let mut callers = verdict::Callers::default();
                for (at, (path, text)) in files.iter().enumerate() {
                    match (calls(at, name), language.is_test(path)) {
                        (false, _) => {}
                        // A test that defines the name itself tests its
                        // own copy (an add-function run's test file did).
                        (true, true) => callers.tested |= !language.defines(text, name),
                        (true, false) => callers.programs.push(path.clone()),
                    }
                }
                callers.test_file = language
                    .test_path(source)
                    .filter(|test| files.iter().any(|(path, _)| path == test));
                found.insert(name.clone(), callers);
            }
        }
        found
    }

    /// Whether a test file calls a name source file `program` defines (by
    /// its language), its own copy aside.
    fn tested(&self, program: &str) -> bool {
        let Some(language) = self.languages.iter().find(|l| l.owns(program)) else {
            return false;
        };
        let Some(text) = self.tools.text(program) else {
            return false;
        };
        let names: Vec<String> = language
            .definitions(&[(program.to_string(), text)])
            .into_iter()
            .flatten()
            .map(|definition| definition.name)
            .collect();
        self.callers(&names).values().any(|callers| callers.tested)
    }

    /// The module this run made where the goal asks for a package `name`
    /// (see [`crate::lang::Language::module_for_package`]), and the file
    /// that makes the package; one the project had is the user's layout,
    /// and is left alone.
    fn module_for_package(&self, name: &str) -> Option<(String, String)> {
        let files = super::workspace_files(self.tools.root());
        let baseline = &self.state().baseline.files;
        self.languages.iter().find_map(|language| {
            let module = language.module_for_package(name, &files)?;
            let file = language.package_file(name)?;
            (!baseline.contains_key(&module)).then_some((module, file))
        })
    }

    /// The names the package folders the goal names do not give as they
    /// are named (see [`crate::lang::Language::unexported`]), from the
    /// files the run wrote and those there before it, in those folders
    /// only (the others are not read).
    /// What the run changed in the source files the project had, as the
    /// last probe found them (see [`changed_lines`]), at most
    /// [`MAX_CHANGED_FILES`] of them.
    fn changes_to_the_project(&self) -> Vec<(String, String)> {
        let state = self.state();
        let source = |path: &&String| self.languages.iter().any(|l| l.owns(path));
        // The files the round's probe found changed: no read of the
        // others.
        state
            .baseline
            .changed
            .iter()
            .filter(source)
            .filter_map(|path| {
                let now = self.tools.text(path)?;
                let before = self.text_before_run(path)?;
                (before != now).then(|| (path.clone(), changed_lines(&before, &now)))
            })
            .take(MAX_CHANGED_FILES)
            .collect()
    }

    pub(in crate::agent) fn unexported(&self) -> Vec<crate::lang::Unexported> {
        let state = self.state();
        let in_named = |path: &&String| {
            path.rsplit_once('/')
                .is_some_and(|(folder, _)| verdict::names_folder(&state.goal, folder))
        };
        let paths: Vec<&String> = state
            .files
            .keys()
            .chain(state.baseline.files.keys())
            .filter(in_named)
            .collect();
        let mut found = Vec::new();
        for language in self.languages {
            let files = self.texts_of(language.as_ref(), &paths);
            found.extend(language.unexported(&files));
        }
        found
    }

    /// Whether `word` is a program of the workspace that reads neither its
    /// arguments nor its input, and no source file of its language does
    /// (see [`crate::lang::Language::reads_input`]): a file the run wrote
    /// or one that was there, by its language.
    fn ignores_input(&self, word: &str) -> Option<(&'static str, &'static str)> {
        let language = self.unread(word, |l, text| l.reads_input(text), true)?;
        Some((
            language.arguments_at().unwrap_or(""),
            language.first_argument().unwrap_or(""),
        ))
    }

    /// How its language runs `word`, a program of the workspace (a source
    /// file there, no test): `python3 welcome.py`.
    fn run_of(&self, word: &str) -> Option<String> {
        let language = self
            .languages
            .iter()
            .find(|l| l.owns(word) && !l.is_test(word))?;
        self.tools
            .contents(word)
            .map(|_| language.run_command(word))
    }

    /// Whether `word` is a program of the workspace (a source file, no
    /// test) that, by its language, reads no standard input, and no other
    /// source file of its language (no test either) does.
    fn ignores_stdin(&self, word: &str) -> bool {
        self.unread(word, |l, text| l.reads_stdin(text), false)
            .is_some()
    }

    /// The language of `word`, a program of the workspace (no test) whose
    /// text does not `reads` by its language, when no source file of that
    /// language the run wrote or that was there does either (test files
    /// among them when `tests` is true).
    fn unread(
        &self,
        word: &str,
        reads: impl Fn(&dyn crate::lang::Language, &str) -> bool,
        tests: bool,
    ) -> Option<&dyn crate::lang::Language> {
        let state = self.state();
        let language = self.languages.iter().find(|l| l.owns(word))?.as_ref();
        if language.is_test(word) {
            return None;
        }
        let program = self.tools.contents(word)?;
        let read =
            |bytes: &[u8]| std::str::from_utf8(bytes).is_ok_and(|text| reads(language, text));
        let mut sources = state
            .files
            .keys()
            .chain(state.baseline.files.keys())
            .filter(|path| language.owns(path) && (tests || !language.is_test(path)));
        let unread = !read(&program)
            && !sources.any(|path| self.tools.contents(path).is_some_and(|bytes| read(&bytes)));
        unread.then_some(language)
    }

    /// Whether `word` is a source file that was there before the run and
    /// whose top level, as it is now, only defines (by its language's
    /// `runs_nothing`): a library of the project.
    pub(super) fn is_library(&self, word: &str) -> bool {
        let Some(language) = self.languages.iter().find(|l| l.owns(word)) else {
            return false;
        };
        !language.is_test(word)
            && self.state().baseline.files.contains_key(word)
            && self
                .tools
                .text(word)
                .is_some_and(|text| language.runs_nothing(&text, false).is_some())
    }

    /// Whether the goal speaks of tests (see [`verdict::speaks_of_tests`]).
    pub(in crate::agent) fn speaks_of_tests(&self) -> bool {
        verdict::speaks_of_tests(&self.state().goal, |word| {
            self.languages.iter().any(|l| l.is_test(word))
        })
    }

    /// Whether tests that pass now can be the goal's and not only the
    /// project's as they were: the run wrote or changed a test file, or the
    /// project had none, or its tests failed before the run.
    fn new_tests(&self) -> bool {
        let state = self.state();
        let is_test = |path: &String| self.languages.iter().any(|l| l.is_test(path));
        state.files.keys().any(is_test)
            || state.baseline.changed.iter().any(is_test)
            || !state.baseline.files.keys().any(is_test)
            || state.tests_before == Some(false)
    }

    /// The model's requirement-by-requirement answer, recorded; `None` when
    /// the run ended meanwhile (a stop, an unusable model, or no usable
    /// answer).
    pub(super) async fn assess(
        &mut self,
        checks: &[CheckRun],
        earlier: &[CheckRun],
    ) -> Result<Option<Vec<Requirement>>, StoreError> {
        if !self.ask_examples().await? || !self.ask_outputs().await? {
            return Ok(None);
        }
        let files = prompt::written_files(self.state(), self.tools, FILES_BUDGET);
        let changes = self.changes_to_the_project();
        let head = self.head();
        let state = self.state();
        // The head first, as every call of the run: the server's cache keeps
        // it from the last round.
        let ask = format!(
            "{head}\n\n{ASSESSOR}\n\n{}",
            assessment_prompt(&Assessed {
                files: &files,
                changes: &changes,
                checks,
                before: &state.requirements,
                earlier,
                failed_before: &state.checks_before,
                existing: !state.baseline.files.is_empty(),
            })
        );
        let first = prompt::answer_request(self.settings, ask, schema(), self.options());
        let mut messages = first.messages.clone();
        // The question's own words, which an answer copies for evidence.
        let tests_run_with: Vec<String> = checks
            .iter()
            .map(|check| format!("{} `{}`", crate::workspace::TESTS_RUN_WITH, check.command))
            .collect();
        let instructions: Vec<&str> = [FAILED_BEFORE, HAD_FILES]
            .into_iter()
            .chain(tests_run_with.iter().map(String::as_str))
            .collect();
        let (mut usage, mut retries) = (crate::chat::Usage::default(), 0);
        let mut error = String::new();
        // What evidence may quote: the goal, the source files of the
        // workspace (the run's first, a bounded number) and the checks.
        let quotable: Vec<String> = {
            let state = self.state();
            let source = |path: &&String| self.languages.iter().any(|l| l.owns(path));
            std::iter::once(state.goal.clone())
                .chain(
                    state
                        .files
                        .keys()
                        .chain(state.baseline.files.keys())
                        .filter(source)
                        .take(MAX_QUOTABLE_FILES)
                        .filter_map(|path| self.tools.text(path)),
                )
                .chain(checks.iter().map(|check| check.output.clone()))
                .map(|text| verdict::quoted_form(&text))
                .collect()
        };
        for again in 0..ASKS {
            let mut options = self.options();
            options.num_predict = options.num_predict.map(|n| n.min(MAX_ANSWER_TOKENS));
            // Asked again at the same temperature, o3's add-function gave
            // the same answer, cut off in the same string, both times.
            options.temperature = prompt::warmer(options.temperature, again as u32);
            let request = ChatRequest {
                messages: messages.clone(),
                options,
                ..first.clone()
            };
            let reply = match self.ask(&request).await {
                None => {
                    return self
                        .end(Outcome::Interrupted, "stopped by the user".into())
                        .map(|_| None);
                }
                Some(Err(failure)) => return self.model_failed(failure).map(|_| None),
                Some(Ok(reply)) => reply,
            };
            usage += reply.usage;
            retries += reply.retries;
            let cut_off = crate::model::runaway::cut_off(reply.done_reason.as_deref());
            match parse(&reply.content) {
                // The last ask takes the answer as it is: unmet stays unmet.
                Ok(requirements)
                    if again + 1 < ASKS
                        && let Some(why) = verdict::stale_evidence(&requirements, checks)
                            .or_else(|| verdict::misquoted_evidence(&requirements, checks))
                            .or_else(|| {
                                verdict::invented_evidence(&requirements, |line| {
                                    let line = verdict::quoted_form(line);
                                    quotable.iter().any(|text| text.contains(&line))
                                })
                            })
                            .or_else(|| verdict::copied_evidence(&requirements, &instructions)) =>
                {
                    tracing::warn!(%why, "an assessment whose evidence the checks contradict");
                    messages.push(Message::assistant(reply.content, Vec::new()));
                    messages.push(Message::user(format!(
                        "That answer cannot be used: {why}. Answer again with JSON only."
                    )));
                    error = why;
                }
                Ok(requirements) => {
                    let speaks = verdict::speaks_of_output(&self.state().goal);
                    let answered: Vec<String> =
                        requirements.iter().map(|r| r.requirement.clone()).collect();
                    let requirements =
                        crate::state::cases::not_named(&self.state().goal, requirements);
                    let requirements =
                        verdict::not_about_tests(self.speaks_of_tests(), requirements);
                    // A test file run by its path is a run of tests too: t11's
                    // textkit assessment showed "the test file runs both
                    // functions" by `python3 textkit/test_textkit.py`,
                    // expecting pytest's "2 passed in 0.03s", and a cycle
                    // was to make the file print it.
                    let requirements = verdict::shown_by_tests(requirements, |command| {
                        self.languages.iter().any(|l| {
                            l.runs_tests(command)
                                || command
                                    .split_whitespace()
                                    .any(|word| l.owns(word) && l.is_test(word))
                        })
                    });
                    let requirements = verdict::shown_by_library(requirements, speaks, |word| {
                        self.is_library(word)
                    });
                    let requirements = verdict::hold_to_tests(requirements, checks);
                    let requirements = verdict::failure_described(
                        &self.state().goal,
                        requirements,
                        checks,
                        &self.state().checks_before,
                    );
                    let requirements = verdict::met_by_named_tests(
                        requirements,
                        checks,
                        &self.test_names(),
                        |w| self.languages.iter().any(|l| l.is_test(w)),
                    );
                    let requirements = verdict::to_stated(
                        requirements,
                        self.state().outputs.as_deref().unwrap_or_default(),
                    );
                    let Some(read) = self.read_samples(&requirements).await? else {
                        return Ok(None);
                    };
                    let Some(text) = self.read_goal_text(checks).await? else {
                        return Ok(None);
                    };
                    let read = samples::changed_by_options(read);
                    let requirements = samples::to_read(requirements, &read);
                    let mut runs = self.show(&requirements).await;
                    for command in samples::unmet_read(&requirements, &read) {
                        if !runs.iter().any(|run| same_command(&run.command, &command)) {
                            runs.push(self.run_shown(&command).await);
                        }
                    }
                    let requirements = verdict::hold_to_output(requirements, &runs);
                    let requirements =
                        verdict::held_as_before(requirements, &self.state().requirements, &runs);
                    let requirements = samples::hold_to_read(requirements, &read, &runs);
                    let Some(choices) = self.choose_samples(&requirements, &read, &runs).await?
                    else {
                        return Ok(None);
                    };
                    let requirements =
                        samples::hold_to_chosen(requirements, &read, &runs, &choices);
                    // Before the goal's options are looked for: a stated
                    // run names its option.
                    let stated = self.run_stated().await;
                    let requirements = verdict::hold_to_stated(
                        requirements,
                        self.state().outputs.as_deref().unwrap_or_default(),
                        &stated,
                    );
                    let requirements = verdict::shown_with_options(requirements);
                    // For a goal that gives its program arguments, a run
                    // with none shows nothing of what it prints with them
                    // (t67's right welcome.py printed nothing bare, and was
                    // held to print something every time it runs).
                    let given = verdict::given_arguments(&self.state().goal);
                    let with_arguments: Vec<CheckRun> = checks
                        .iter()
                        .filter(|check| {
                            !given
                                || !matches!(
                                    verdict::program_run(&check.command, |w| self.run_of(w)),
                                    Some((_, false))
                                )
                        })
                        .cloned()
                        .collect();
                    let requirements = goal_text::hold_to_goal_text(
                        requirements,
                        &self.state().goal,
                        &text,
                        &with_arguments,
                        |command| self.runs_program(command),
                    );
                    let requirements = goal_text::hold_to_speaking(
                        requirements,
                        &self.state().goal,
                        &text,
                        &with_arguments,
                        // A library the project had is no program to
                        // make print.
                        |command| {
                            self.runs_program(command)
                                && !command.split_whitespace().any(|w| self.is_library(w))
                        },
                        self.speaks_of_tests(),
                    );
                    let requirements = verdict::hold_to_goal(&self.state().goal, requirements);
                    let requirements =
                        verdict::hold_to_named(&self.state().goal, requirements, |name| {
                            self.defines(name)
                        });
                    let requirements =
                        verdict::named_apart(&self.state().goal, requirements, |name| {
                            self.defines_longer(name)
                        });
                    let requirements = verdict::hold_to_exports(
                        &self.state().goal,
                        requirements,
                        &self.unexported(),
                    );
                    let requirements =
                        verdict::hold_to_packages(&self.state().goal, requirements, |name| {
                            self.module_for_package(name)
                        });
                    let requirements = verdict::hold_to_output_asked(speaks, requirements);
                    // A library of the project run with arguments by the
                    // model's own check, for a goal that asks for no
                    // output, was a check that showed nothing, not a
                    // program to make read them (n2's add-function: a
                    // right `count_vowels` went into a cycle to make
                    // textutil.py read `sys.argv`).
                    let requirements = verdict::hold_to_arguments(
                        requirements,
                        checks,
                        given,
                        |word| match !speaks && self.is_library(word) {
                            true => None,
                            false => self.ignores_input(word),
                        },
                        |word| self.tools.contents(word).is_some(),
                    );
                    let requirements =
                        verdict::bare_runs_unmet(requirements, given, |word| self.run_of(word));
                    let requirements = verdict::hold_to_standard_input(
                        verdict::reads_standard_input(&self.state().goal),
                        requirements,
                        checks,
                        |word| self.ignores_stdin(word),
                    );
                    let requirements = verdict::hold_to_tests_asked(
                        self.speaks_of_tests(),
                        requirements,
                        checks,
                        self.new_tests(),
                    );
                    let Some(examined) = self.examine().await? else {
                        return Ok(None);
                    };
                    let requirements = verdict::hold_to_examples(requirements, &examined);
                    let requirements =
                        verdict::shown_by_examples(self.speaks_of_tests(), requirements, &examined);
                    let goal = &self.state().goal;
                    let callers = self.callers(&crate::lang::called_names(goal));
                    // Called on the goal's examples and right on each: run,
                    // not only read.
                    let held = |name: &str| examined.iter().any(|e| e.name == name && e.held());
                    let requirements =
                        verdict::hold_to_exercised(goal, requirements, checks, |name| {
                            callers.get(name).filter(|_| !held(name)).cloned()
                        });
                    let tested = self.tested_code();
                    let requirements = verdict::hold_to_tested_code(requirements, &tested);
                    let uncaught = self.uncaught(&tested, checks, &requirements).await;
                    let requirements = verdict::hold_to_mutants(requirements, &uncaught);
                    let requirements = verdict::hold_to_run(requirements, checks, |program| {
                        examined.iter().any(|e| e.module == program && e.held())
                            || (checks.iter().any(CheckRun::tests_passed) && self.tested(program))
                    });
                    let requirements = verdict::hold_to_kept(
                        requirements,
                        checks,
                        &self.state().ran_before,
                        &verdict::named_options(&self.state().goal),
                    );
                    let requirements = crate::state::cases::still_not_named(
                        &self.state().goal,
                        requirements,
                        &answered,
                    );
                    self.record(
                        Event::Assessed {
                            requirements: requirements.clone(),
                            usage,
                            retries,
                        },
                        Durability::Lazy,
                    )?;
                    return Ok(Some(requirements));
                }
                Err(why) => {
                    tracing::warn!(%why, answer = %reply.content, "an unusable assessment");
                    messages.push(Message::assistant(reply.content, Vec::new()));
                    messages.push(Message::user(match cut_off {
                        true => format!(
                            "That answer was cut off at the length limit: {why}. Answer again \
                             with JSON only: fewer requirements, each line shorter."
                        ),
                        false => {
                            format!(
                                "That answer cannot be used: {why}. Answer again with JSON only."
                            )
                        }
                    }));
                    error = why;
                }
            }
        }
        self.record(
            Event::Assessed {
                requirements: Vec::new(),
                usage,
                retries,
            },
            Durability::Lazy,
        )?;
        let reason = format!(
            "not achieved: the model gave no usable assessment of the goal ({error}); the checks \
             {}",
            match !checks.iter().any(CheckRun::failed) {
                true => "passed",
                false => "failed",
            }
        );
        self.end_reflecting(Outcome::NotAchieved, reason)
            .await
            .map(|_| None)
    }
}

/// The files the run wrote and those there before it, each once, sorted.
pub(super) fn known_paths(state: &crate::state::State) -> Vec<&String> {
    let mut paths: Vec<&String> = state
        .files
        .keys()
        .chain(state.baseline.files.keys())
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// What the assessment is told when the project's tests failed before the
/// run.
const FAILED_BEFORE: &str = "Before the run the project's tests failed: what the GOAL says was \
wrong then (a test that failed, an error it reported) describes the project as it was and is no \
requirement itself; what it asks is that this be right now, shown by the CHECKS as they are now.";

/// What the assessment of a goal on a project that had files is told of
/// what its words say of the project as it was.
const HAD_FILES: &str = "The project had files before the run: what the GOAL says of the project \
as it was (what it has or lacks, what is wrong with it) describes where the run began and is no \
requirement itself; what it asks is what must be true now.";

/// What the assessment asks after the head (which holds the goal).
/// What the assessment is shown (see [`assessment_prompt`]).
#[derive(Default)]
struct Assessed<'a> {
    /// The files the run wrote, with their content.
    files: &'a [(String, String)],
    /// What the run changed in the project's files (see [`changed_lines`]).
    changes: &'a [(String, String)],
    /// The checks as they ran now, and at the last assessment.
    checks: &'a [CheckRun],
    earlier: &'a [CheckRun],
    /// The requirements of the last assessment.
    before: &'a [Requirement],
    /// The project's checks that failed before the run.
    failed_before: &'a [CheckRun],
    /// The workspace had files before the run.
    existing: bool,
}

fn assessment_prompt(shown: &Assessed<'_>) -> String {
    let Assessed {
        files,
        changes,
        checks,
        earlier,
        before,
        failed_before,
        existing,
    } = *shown;
    let mut text = "FILES:\n".to_string();
    if files.is_empty() {
        text.push_str("(the run wrote no file)\n");
    }
    for (path, content) in files {
        text.push_str(&format!("--- {path} ---\n{}\n", content.trim_end()));
    }
    // t90's stats-fix assessor held "find the bug in stats.py and fix
    // it" unmet beside the project's tests, failing before the run and
    // passing now: "the bug is not found". It was shown stats.py as it
    // is, never what the run changed in it.
    if !changes.is_empty() {
        text.push_str(
            "\nCHANGED BY THE RUN (files the project had before it; a line with - was there \
             before the run, a line with + is there now):\n",
        );
        for (path, lines) in changes {
            text.push_str(&format!("--- {path} ---\n{}\n", lines.trim_end()));
        }
    }
    text.push_str("\nCHECKS:\n");
    if checks.is_empty() {
        text.push_str("(no check command)\n");
    }
    for check in checks {
        text.push_str(&format!("{}\n", check.output.trim_end()));
        // "$ CMD" and "exit code N" alone: say so, or a small model reads
        // the output it expected into the silence.
        if check.output.trim_end().lines().count() <= 2 {
            text.push_str("(it printed nothing)\n");
        }
        // t24's grades-fix assessor listed the goal's "pytest reports a
        // failure in test_grades.py" as a requirement, unmet, beside the
        // four tests passing: it was never shown that they had failed.
        if let Some(then) = failed_before
            .iter()
            .find(|then| same_command(&then.command, &check.command))
        {
            let failing = crate::lang::failed_tests(&then.output);
            let named = match failing.is_empty() {
                true => String::new(),
                false => format!(
                    ": {}",
                    failing
                        .iter()
                        .take(5)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            text.push_str(&format!(
                "(Before the run the same command {}{named}; now it {}.)\n",
                result(then),
                result(check)
            ));
        }
    }
    let unmet: Vec<&Requirement> = before.iter().filter(|r| !r.met).collect();
    if !unmet.is_empty() {
        text.push_str(
            "\nNOT MET AT THE LAST ASSESSMENT (list each again, judged on the FILES and CHECKS \
             as they are now):\n",
        );
        for requirement in unmet {
            text.push_str(&format!(
                "- {} ({})\n",
                requirement.requirement, requirement.evidence
            ));
        }
        // A small model copies the last answer: the calc-fix assessor
        // said again that `average` returned 3.0, not 4.0, after the
        // tests that showed it passed.
        for (then, now) in changed(earlier, checks) {
            text.push_str(&format!(
                "Since then `{}` changed: then it {}, now it {}.\n",
                now.command,
                result(then),
                result(now)
            ));
        }
    }
    // t94's cipher-tests assessor held the goal's "There are no tests for
    // cipher.py." unmet beside the tests the run wrote, passing.
    let began = match (failed_before.is_empty(), existing) {
        (false, _) => Some(FAILED_BEFORE),
        (true, true) => Some(HAD_FILES),
        (true, false) => None,
    };
    if let Some(began) = began {
        text.push('\n');
        text.push_str(began);
        text.push('\n');
    }
    text.push_str(&format!(
        "\nList every requirement of the GOAL: each thing the user asked for (a file, a \
         function, a behaviour, an output, tests), and only what its words ask: a case it does \
         not name (a missing or empty file, wrong input, an error to handle) is no requirement. \
         For each give the evidence first (quote the \
         line of the FILES or the CHECKS that shows whether it is met), then whether it is met, \
         whether it is about tests (it asks for \
         tests, or for tests to pass), and whether it is about output: what the program prints \
         when a user runs it from the command line (a message, an option, a flag). What a \
         function returns is not output (tests show it): about_output false. For a requirement \
         about output give the command that shows it (the program run as the user would, with \
         the options the requirement names and, when it reads a file, a file of FILES; its standard \
         input only from a file of FILES after <, when it reads that) and the exact text its output must contain when it is met (what it \
         prints, like 5 or Hello, World!, never a description of it): the runner runs the \
         command, and the requirement is met only when the output holds that text. For every other requirement give \"\" for both. At \
         most {MAX_REQUIREMENTS} requirements, a short line each. Answer with JSON: {{\"requirements\": \
         [{{\"requirement\": \"...\", \"evidence\": \"...\", \"met\": true, \"about_tests\": \
         false, \"about_output\": false, \"command\": \"\", \"expects\": \"\"}}]}}",
    ));
    text
}

/// The lines the run changed of a file, from its text `before` the run to
/// `now`: each change with a line around it, `-` before and `+` now,
/// changes far apart parted by `...`; at most [`MAX_CHANGED_LINES`].
fn changed_lines(before: &str, now: &str) -> String {
    let diff = similar::TextDiff::from_lines(before, now);
    let mut out: Vec<String> = Vec::new();
    for (n, group) in diff.grouped_ops(1).iter().enumerate() {
        if n > 0 {
            out.push("...".into());
        }
        for op in group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                out.push(format!("{sign}{}", change.value().trim_end_matches('\n')));
            }
        }
    }
    if out.len() > MAX_CHANGED_LINES {
        out.truncate(MAX_CHANGED_LINES);
        out.push("... (more changes)".into());
    }
    out.join("\n")
}

/// Each check of `now` that ran at the last assessment too (`earlier`)
/// and ended otherwise: passed or failed, or other tests counted.
fn changed<'a>(
    earlier: &'a [CheckRun],
    now: &'a [CheckRun],
) -> impl Iterator<Item = (&'a CheckRun, &'a CheckRun)> {
    now.iter().filter_map(|now| {
        let then = earlier.iter().find(|then| then.command == now.command)?;
        (then.passed() != now.passed() || then.tests != now.tests).then_some((then, now))
    })
}

/// How a check ended, in a few words: `failed (1 passed, 2 failed)`.
fn result(check: &CheckRun) -> String {
    let tests = check
        .tests
        .map(|t| format!("{} tests passed, {} failed", t.passed, t.failed));
    if check.wants_arguments {
        return "stopped where the program reads the arguments or input it is run with, which \
                this command does not give (not counted against the work)"
            .to_string();
    }
    match (check.passed(), check.exit_code, tests) {
        (true, _, None) => "passed".to_string(),
        (true, _, Some(tests)) => format!("passed ({tests})"),
        (false, Some(code), None) => format!("failed (exit code {code})"),
        (false, Some(code), Some(tests)) => format!("failed (exit code {code}; {tests})"),
        (false, None, _) => "did not finish".to_string(),
    }
}

/// The JSON of a structured answer, whatever its fence.
pub(super) fn json_of(content: &str) -> Result<Value, String> {
    let text = content.trim();
    let text = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .unwrap_or(text);
    serde_json::from_str(text.trim()).map_err(|e| format!("it is not JSON ({e})"))
}

/// The whole entries of an answer's `"requirements"` array that is not
/// JSON as a whole (cut off at the length limit), when the model was
/// saying them again: an entry that repeats one before it shows that
/// everything it had to say was said. o1's cli-flag listed three
/// requirements, then the last of them until the limit, three times
/// running, and a run whose checks and shown outputs had all passed ended
/// "not achieved" for want of a usable assessment. Without a repeat the
/// cut-off part may hold an unmet requirement: `None`.
fn said_again(content: &str) -> Option<Vec<Value>> {
    let start = content.find("\"requirements\"")?;
    let mut rest = content[start..].split_once('[')?.1;
    let mut items: Vec<Value> = Vec::new();
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        match values.next() {
            Some(Ok(item @ Value::Object(_))) => {
                let offset = values.byte_offset();
                items.push(item);
                rest = &rest[offset..];
            }
            _ => break,
        }
    }
    let key = |item: &Value| {
        let text = |key| item.get(key).and_then(Value::as_str).unwrap_or("").trim();
        (
            text("requirement").to_lowercase(),
            text("command").to_string(),
        )
    };
    let repeated = items
        .iter()
        .enumerate()
        .any(|(at, item)| items[..at].iter().any(|known| key(known) == key(item)));
    repeated.then_some(items)
}

/// The requirements in the model's answer.
fn parse(content: &str) -> Result<Vec<Requirement>, String> {
    let items = match json_of(content) {
        Ok(value) => value
            .get("requirements")
            .and_then(Value::as_array)
            .ok_or("it has no \"requirements\" array")?
            .clone(),
        Err(why) => said_again(content).ok_or(why)?,
    };
    let requirements: Vec<Requirement> = items
        .iter()
        .filter_map(|item| {
            let requirement = item.get("requirement")?.as_str()?.trim();
            (!requirement.is_empty()).then(|| Requirement {
                requirement: requirement.to_string(),
                met: item.get("met").and_then(Value::as_bool).unwrap_or(false),
                evidence: item
                    .get("evidence")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                about_tests: item
                    .get("about_tests")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                about_output: item
                    .get("about_output")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                shown_by: shown_by(item),
                file: None,
            })
        })
        .collect();
    if requirements.is_empty() {
        return Err("it lists no requirement".into());
    }
    Ok(once_each(requirements))
}

/// The requirements with each one said again (the same words, whatever
/// their case, and the same command to show it) kept once: unmet when any
/// copy is unmet, with that copy's evidence. A small model's answer gave one
/// requirement six times, and the cycle's task named it six times.
fn once_each(requirements: Vec<Requirement>) -> Vec<Requirement> {
    let mut kept: Vec<Requirement> = Vec::with_capacity(requirements.len());
    for requirement in requirements {
        let same = kept.iter_mut().find(|known| {
            known.requirement.to_lowercase() == requirement.requirement.to_lowercase()
                && known.shown_by == requirement.shown_by
        });
        match same {
            Some(known) => {
                if known.met && !requirement.met {
                    *known = requirement;
                }
            }
            None => kept.push(requirement),
        }
    }
    kept
}

/// The command and expected output an item gives, when it gives a command.
fn shown_by(item: &Value) -> Option<ShownBy> {
    let text = |key| item.get(key).and_then(Value::as_str).unwrap_or("").trim();
    let command = text("command");
    (!command.is_empty()).then(|| ShownBy {
        command: command.to_string(),
        expects: text("expects").to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_answer_is_read_whatever_its_fence_and_bad_items_are_left_out() {
        let answer = "```json\n{\"requirements\": [{\"requirement\": \"add\", \"met\": true, \
                      \"evidence\": \"def add\", \"about_tests\": false}, {\"met\": true}]}\n```";
        assert_eq!(
            parse(answer),
            Ok(vec![Requirement {
                requirement: "add".into(),
                met: true,
                evidence: "def add".into(),
                about_tests: false,
                about_output: false,
                shown_by: None,
                file: None,
            }])
        );
        let answer = "{\"requirements\": [{\"requirement\": \"--shout\", \"met\": true, \
                      \"evidence\": \"upper()\", \"about_tests\": false, \"about_output\": true, \
                      \"command\": \" python3 g.py --shout \", \"expects\": \"HI\"}]}";
        let requirements = parse(answer).unwrap();
        assert!(requirements[0].about_output);
        assert_eq!(
            requirements[0].shown_by,
            Some(ShownBy {
                command: "python3 g.py --shout".into(),
                expects: "HI".into()
            })
        );
        assert_eq!(requirements[0].to_show(), Some("python3 g.py --shout"));
        assert!(parse("{\"requirements\": []}").is_err());
        assert!(parse("all done!").is_err());
    }

    #[test]
    fn a_requirement_given_again_is_kept_once_and_unmet_if_any_copy_is() {
        let item = |text: &str, met: bool, evidence: &str| {
            format!("{{\"requirement\": \"{text}\", \"met\": {met}, \"evidence\": \"{evidence}\"}}")
        };
        let answer = format!(
            "{{\"requirements\": [{}, {}, {}, {}]}}",
            item("It plays correctly.", true, "def play"),
            item("it plays correctly.", false, "a test fails"),
            item("It has tests.", true, "test_play"),
            item("It plays correctly.", true, "again"),
        );
        let requirements = parse(&answer).unwrap();
        let seen: Vec<(&str, bool, &str)> = requirements
            .iter()
            .map(|r| (r.requirement.as_str(), r.met, r.evidence.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                ("it plays correctly.", false, "a test fails"),
                ("It has tests.", true, "test_play"),
            ]
        );
    }

    /// o1's cli-flag: three requirements, then the last again until the
    /// length limit cut the answer off. The whole entries are the answer;
    /// cut off with no entry said again, the rest may be anything.
    #[test]
    fn an_answer_cut_off_while_saying_its_entries_again_is_read_to_the_cut() {
        let item = |text: &str, met: bool| {
            format!(
                "{{\"requirement\": \"{text}\", \"met\": {met}, \"evidence\": \"is `\", \
                 \"command\": \"python3 greet.py\", \"expects\": \"Hello\"}}"
            )
        };
        let looped = format!(
            "{{\n  \"requirements\": [\n    {},\n    {},\n  {},\n  {},\n  {{\n    \"requirement\": \"It ta",
            item("It takes --shout", true),
            item("It prints in lowercase without it", false),
            item("It prints in lowercase without it", false),
            item("it prints in lowercase without it", true),
        );
        let requirements = parse(&looped).unwrap();
        let seen: Vec<(&str, bool)> = requirements
            .iter()
            .map(|r| (r.requirement.as_str(), r.met))
            .collect();
        assert_eq!(
            seen,
            [
                ("It takes --shout", true),
                ("It prints in lowercase without it", false)
            ]
        );
        let cut = format!(
            "{{\"requirements\": [{}, {}, {{\"requirement\": \"It",
            item("It takes --shout", true),
            item("It prints in lowercase without it", true),
        );
        assert!(parse(&cut).unwrap_err().contains("not JSON"));
        assert!(parse("{\"requirements\": [").is_err());
    }

    #[test]
    fn a_check_that_printed_nothing_is_said_to_have_printed_nothing() {
        let silent = CheckRun {
            command: "python3 hello_world.py".into(),
            exit_code: Some(0),
            output: "$ python3 hello_world.py\nexit code 0".into(),
            tests: None,
            wants_arguments: false,
        };
        let prompt = assessment_prompt(&Assessed {
            checks: std::slice::from_ref(&silent),
            ..Default::default()
        });
        assert!(
            prompt.contains("exit code 0\n(it printed nothing)"),
            "{prompt}"
        );
        assert!(prompt.contains("met only when the output holds that text"));
        assert!(!prompt.contains("NOT MET"), "{prompt}");
        let spoke = CheckRun {
            output: format!("{}\nHello, World!", silent.output),
            ..silent
        };
        let prompt = assessment_prompt(&Assessed {
            checks: &[spoke],
            ..Default::default()
        });
        assert!(!prompt.contains("printed nothing"), "{prompt}");
    }

    #[test]
    fn the_answer_format_gives_nothing_a_model_could_copy_as_a_requirement() {
        // Qwen2.5-Coder 1.5B listed the example requirements of an earlier
        // prompt as the goal's, and a cycle went to make them true.
        let prompt = assessment_prompt(&Assessed::default());
        let example = &prompt[prompt.rfind("Answer with JSON: ").unwrap() + 18..];
        let example: Value = serde_json::from_str(example).unwrap();
        let items = example["requirements"].as_array().unwrap();
        assert_eq!(items.len(), 1);
        for (key, value) in items[0].as_object().unwrap() {
            if let Some(text) = value.as_str() {
                assert!(text.is_empty() || text == "...", "{key}: {text}");
            }
        }
        assert_eq!(parse(&example.to_string()).unwrap().len(), 1);
    }

    #[test]
    fn the_evidence_comes_before_the_verdict() {
        // In the schema (the order the server's grammar makes the model
        // write the keys in) and in the example of the prompt, and the
        // evidence is never empty.
        let keys = |object: &Value| -> Vec<String> {
            object.as_object().unwrap().keys().cloned().collect()
        };
        let schema = schema();
        let item = &schema["properties"]["requirements"]["items"];
        let position = |keys: &[String], key: &str| keys.iter().position(|k| k == key).unwrap();
        for keys in [
            keys(&item["properties"]),
            item["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap().to_string())
                .collect(),
        ] {
            assert!(
                position(&keys, "evidence") < position(&keys, "met"),
                "{keys:?}"
            );
        }
        assert_eq!(item["properties"]["evidence"]["minLength"], 1);
        let prompt = assessment_prompt(&Assessed::default());
        let example: Value =
            serde_json::from_str(&prompt[prompt.rfind("Answer with JSON: ").unwrap() + 18..])
                .unwrap();
        let example = keys(&example["requirements"][0]);
        assert!(
            position(&example, "evidence") < position(&example, "met"),
            "{example:?}"
        );
    }

    #[test]
    fn what_was_not_met_before_is_asked_about_again() {
        let requirement = |text: &str, met| Requirement {
            requirement: text.into(),
            met,
            evidence: "seen".into(),
            about_tests: false,
            about_output: false,
            shown_by: None,
            file: None,
        };
        let before = [requirement("add", true), requirement("mul(a, b)", false)];
        let check = |exit_code, passed, failed| CheckRun {
            command: "python3 -m pytest -q".into(),
            exit_code: Some(exit_code),
            output: String::new(),
            tests: Some(crate::state::Tally { passed, failed }),
            wants_arguments: false,
        };
        let (then, now) = (check(1, 1, 2), check(0, 3, 0));
        let prompt = assessment_prompt(&Assessed {
            checks: std::slice::from_ref(&now),
            before: &before,
            earlier: &[then],
            ..Default::default()
        });
        assert!(
            prompt.contains(
                "NOT MET AT THE LAST ASSESSMENT (list each again, judged on the FILES and CHECKS \
                 as they are now):\n- mul(a, b) (seen)\nSince then `python3 -m pytest -q` \
                 changed: then it failed (exit code 1; 1 tests passed, 2 failed), now it passed (3 \
                 tests passed, 0 failed).\n"
            ),
            "{prompt}"
        );
        assert!(!prompt.contains("- add"), "{prompt}");
        // A check that ended as before is not said again.
        let same = std::slice::from_ref(&now);
        let prompt = assessment_prompt(&Assessed {
            checks: same,
            before: &before,
            earlier: same,
            ..Default::default()
        });
        assert!(!prompt.contains("Since then"), "{prompt}");
    }
    #[test]
    fn a_fix_goal_is_told_how_the_projects_tests_went_before_the_run() {
        let check = |exit_code, passed, failed, output: &str| CheckRun {
            command: "python3 -m pytest -q".into(),
            exit_code: Some(exit_code),
            output: output.into(),
            tests: Some(crate::state::Tally { passed, failed }),
            wants_arguments: false,
        };
        let then = check(
            1,
            3,
            1,
            "FAILED test_grades.py::test_boundaries - AssertionError\n1 failed, 3 passed",
        );
        let now = check(0, 4, 0, "4 passed in 0.01s");
        let prompt = assessment_prompt(&Assessed {
            checks: std::slice::from_ref(&now),
            failed_before: std::slice::from_ref(&then),
            ..Default::default()
        });
        assert!(
            prompt.contains(
                "(Before the run the same command failed (exit code 1; 3 tests passed, 1 \
                 failed): test_grades.py::test_boundaries; now it passed (4 tests passed, 0 \
                 failed).)"
            ),
            "{prompt}"
        );
        assert!(
            prompt.contains("describes the project as it was and is no requirement itself"),
            "{prompt}"
        );
        // A goal whose project's tests passed before is told nothing of it.
        let prompt = assessment_prompt(&Assessed {
            checks: std::slice::from_ref(&now),
            ..Default::default()
        });
        assert!(!prompt.contains("Before the run"), "{prompt}");
    }

    #[test]
    fn a_goal_on_a_project_is_told_its_words_of_the_project_as_it_was_are_no_requirement() {
        let prompt = assessment_prompt(&Assessed {
            existing: true,
            ..Default::default()
        });
        assert!(prompt.contains(HAD_FILES), "{prompt}");
        // A new project has no before; a fix is told how its tests went.
        let prompt = assessment_prompt(&Assessed::default());
        assert!(!prompt.contains("before the run"), "{prompt}");
        let then = CheckRun {
            command: "python3 -m pytest -q".into(),
            exit_code: Some(1),
            output: "1 failed".into(),
            tests: None,
            wants_arguments: false,
        };
        let prompt = assessment_prompt(&Assessed {
            failed_before: std::slice::from_ref(&then),
            existing: true,
            ..Default::default()
        });
        assert!(
            prompt.contains(FAILED_BEFORE) && !prompt.contains(HAD_FILES),
            "{prompt}"
        );
    }

    #[test]
    fn the_assessment_is_shown_what_the_run_changed_in_the_projects_files() {
        let before = "def mean(v):\n    return sum(v) / len(v)\n\n\ndef median(v):\n    \
                      v = sorted(v)\n    return v[len(v) // 2]\n";
        let now = before.replace("return v[len(v) // 2]", "return (v[1] + v[2]) / 2");
        let lines = changed_lines(before, &now);
        assert_eq!(
            lines,
            "     v = sorted(v)\n-    return v[len(v) // 2]\n+    return (v[1] + v[2]) / 2"
        );
        let prompt = assessment_prompt(&Assessed {
            changes: &[("stats.py".into(), lines)],
            ..Default::default()
        });
        assert!(
            prompt.contains(
                "CHANGED BY THE RUN (files the project had before it; a line with - was there \
                 before the run, a line with + is there now):\n--- stats.py ---\n     v = \
                 sorted(v)\n-    return v[len(v) // 2]\n"
            ),
            "{prompt}"
        );
        // Changes far apart are parted, and a long change is cut short.
        let long: String = (0..100).map(|n| format!("x = {n}\n")).collect();
        let apart = long
            .replace("x = 3\n", "x = -3\n")
            .replace("x = 60\n", "x = -60\n");
        assert_eq!(
            changed_lines(&long, &apart),
            " x = 2\n-x = 3\n+x = -3\n x = 4\n...\n x = 59\n-x = 60\n+x = -60\n x = 61"
        );
        let all = long.replace("x = ", "y = ");
        assert!(changed_lines(&long, &all).ends_with("\n... (more changes)"));
        let prompt = assessment_prompt(&Assessed::default());
        assert!(!prompt.contains("CHANGED BY THE RUN"), "{prompt}");
    }
}
