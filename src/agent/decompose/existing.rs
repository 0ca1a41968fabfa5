//! A plan on a project that is already there: a subtask that writes a file
//! the workspace holds says to change it and keep the rest. "Write calc.py:
//! ... Complete working code" over an existing calc.py reads as "write it
//! anew", and a small model did (Qwen2.5-Coder 1.5B lost every function
//! the goal did not name).

use super::files::WHOLE;
use crate::state::{SubtaskKind, TaskPlan};
use crate::text::has_word;

/// The files the plan writes, in order.
pub fn planned_writes(tasks: &[TaskPlan]) -> Vec<String> {
    tasks
        .iter()
        .flat_map(|t| &t.kinds)
        .filter_map(|kind| match kind {
            SubtaskKind::Write { path } => Some(path.clone()),
            _ => None,
        })
        .collect()
}

/// What a subtask on an existing file adds.
const KEEP: &str = ". It exists: change what the goal asks and keep the rest of it";
/// What a subtask on an existing test file adds: the runner refuses a
/// change of its asserts (see `Agent::kept_tests`). A small model planned
/// "Change test_calc.py: Fix the bug in calc.py so that the tests pass"
/// and changed the test's expected value. A test that is added goes in a
/// test function of its own: t100's add-initials, told a test must call
/// the new `initials` and to add tests "only if the goal asks for them",
/// made the project's one test call `initials` in place of `full_name`.
const KEEP_TESTS: &str = ". It exists and holds the project's tests: keep each of its asserts as \
it is (a change to them is refused) and change the code they test; a test that is added goes \
after them, in a test function of its own";

/// `tasks` with each write of a file for which `exists` holds said as a
/// change of that file; of a test file (`is_test`), one that keeps its
/// asserts.
pub fn on_workspace(
    tasks: &mut [TaskPlan],
    exists: impl Fn(&str) -> bool,
    is_test: impl Fn(&str) -> bool,
) {
    for task in tasks {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            if !exists(path) {
                continue;
            }
            if let Some(rest) = subtask.strip_prefix(&format!("Write {path}")) {
                *subtask = format!("Change {path}{rest}");
            }
            let keep = if is_test(path) { KEEP_TESTS } else { KEEP };
            // After a sentence that has its full stop, the next one alone.
            let keep = match subtask.ends_with('.') {
                true => &keep[1..],
                false => keep,
            };
            if !subtask.ends_with(keep) {
                subtask.push_str(keep);
            }
        }
    }
}

/// `tasks` with each planned write of an existing test file made a change
/// of the code it tests (`subject` gives it; `None` leaves the write as it
/// is), when the project's tests fail before the run and the plan does not
/// change that code already. Asked to fix the bug the failing tests of
/// `test_calc.py` show, a small model planned "Write test_calc.py: Fix the
/// bug in calc.py" in each of its runs, and with the tests' asserts kept
/// it had nothing left to change. A plan that changes that code already
/// drops the write of the test file (its tests' asserts are kept, so its
/// fix is the code's): planned "Change test_calc.py: Fix the bug in
/// calc.py" before "Change calc.py", the model sent the refused change of
/// an assert until the loop guard ended the subtask, six rounds of twenty.
/// Tests the goal asks for besides are a requirement the assessment
/// lists, and a cycle writes them. Called only when the tests fail: a
/// plan that adds tests to a project whose tests pass keeps its test file.
pub fn to_code_under_test(tasks: &mut [TaskPlan], subject: impl Fn(&str) -> Option<String>) {
    let written = planned_writes(tasks);
    for task in tasks {
        let mut moved: Vec<(String, String)> = Vec::new();
        let mut dropped = Vec::new();
        for (at, (subtask, kind)) in task
            .subtasks
            .iter_mut()
            .zip(task.kinds.iter_mut())
            .enumerate()
        {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            let Some(code) = subject(path) else {
                continue;
            };
            if written.contains(&code) || moved.iter().any(|(_, c)| *c == code) {
                dropped.push(at);
                continue;
            }
            let test = path.clone();
            let rest = ["Write ", "Change "]
                .iter()
                .find_map(|verb| subtask.strip_prefix(&format!("{verb}{test}")))
                .map(|rest| rest.to_string());
            *subtask = match rest {
                Some(rest) => format!("Change {code}{rest}"),
                None => format!("Change {code}: {subtask}"),
            };
            subtask.push_str(&format!(
                ". The project's tests in {test} fail now: change {code} so that they pass, and \
                 keep {test} as it is"
            ));
            *kind = SubtaskKind::Write { path: code.clone() };
            moved.push((test, code));
        }
        if dropped.len() < task.subtasks.len() {
            for at in dropped.into_iter().rev() {
                task.subtasks.remove(at);
                task.kinds.remove(at);
            }
        }
        for (test, code) in moved {
            task.description = task.description.replace(&test, &code);
        }
    }
}

/// `tasks` with the tests a goal asks for in a file of their own, for a
/// goal that speaks of tests (the caller knows) and a plan that writes no
/// test file: the test file of the first planned source file that has none
/// (`test_path`, by its language: `test_inventory.py` for `inventory.py`).
/// A change of an existing file the goal asks nothing else of
/// (`asked_of` is false) becomes the write of its tests; otherwise the
/// tests are written after it. Returns the planned test file. Asked to add
/// tests to `inventory.py`, a small model planned "Change inventory.py:
/// Add pytest tests" in every run and added a docstring; asked for a
/// function and its tests, it wrote the function alone, and pytest, which
/// reads only test files, found no test. A change is of the tests when its
/// words are about tests, or when `of_tests` says so, given the file and
/// the subtask's own words: all it gives in code form that the file does
/// not have is made up (y1's add-tests planned "Change inventory.py: Add a
/// class `Inventory` with a method `add_item`"), or the file is code the
/// goal's tests are of and the change adds nothing the goal asks.
pub fn tests_of_their_own(
    tasks: &mut [TaskPlan],
    is_test: impl Fn(&str) -> bool,
    test_path: impl Fn(&str) -> Option<String>,
    exists: impl Fn(&str) -> bool,
    asked_of: impl Fn(&str) -> bool,
    of_tests: impl Fn(&str, &str) -> bool,
) -> Option<String> {
    let writes = planned_writes(tasks);
    let changes_tests = |code: &str, subtask: &str| {
        about_tests(subtask, &is_test)
            || of_tests(code, subtask.split(WHOLE).next().unwrap_or(subtask))
    };
    if writes.iter().any(|path| is_test(path)) {
        tests_out_of_code(tasks, |code, subtask| {
            let unasked =
                exists(code) && !is_test(code) && !asked_of(code) && changes_tests(code, subtask);
            test_path(code).filter(|test| unasked && !exists(test) && writes.contains(test))
        });
        return None;
    }
    let (code, test) = writes.into_iter().find_map(|path| {
        let test = test_path(&path).filter(|test| !exists(test))?;
        Some((path, test))
    })?;
    for task in tasks.iter_mut() {
        let Some(at) = task
            .kinds
            .iter()
            .position(|kind| matches!(kind, SubtaskKind::Write { path } if *path == code))
        else {
            continue;
        };
        let retarget =
            exists(&code) && !asked_of(&code) && changes_tests(&code, &task.subtasks[at]);
        let own = format!(
            "The tests go in {test}, a file of their own that imports what it tests from {code}"
        );
        if retarget {
            let subtask = &task.subtasks[at];
            let rest = ["Write ", "Change "]
                .iter()
                .find_map(|verb| subtask.strip_prefix(&format!("{verb}{code}")))
                .map(str::to_string)
                .unwrap_or_else(|| format!(": {subtask}"));
            task.subtasks[at] = format!("Write {test}{rest}. {own}; {code} stays as it is");
            task.kinds[at] = SubtaskKind::Write { path: test.clone() };
            task.description = task.description.replacen(&code, &test, 1);
        } else {
            task.subtasks[at].push_str(&format!(". Its tests go in {test}, the next subtask"));
            task.subtasks.insert(
                at + 1,
                format!(
                    "Write {test}: the tests the goal asks for, of what {code} holds. {own}. \
                     Complete working code, no placeholders"
                ),
            );
            task.kinds
                .insert(at + 1, SubtaskKind::Write { path: test.clone() });
        }
        return Some(test);
    }
    None
}

/// Whether a subtask, in the planner's own words (what the runner adds
/// to a planned write is left out: it speaks of tests too), is about tests.
fn about_tests(subtask: &str, is_test: impl Fn(&str) -> bool) -> bool {
    let own = subtask.split(WHOLE).next().unwrap_or(subtask);
    crate::state::verdict::speaks_of_tests(own, is_test)
}

/// `tasks` without each planned change of a file for which `unasked`
/// (given the path and the subtask) names the test file the plan writes
/// for it: a file the goal asks nothing of but tests, in a plan that
/// writes them in a file of their own. That file's subtask says the code
/// stays as it is. Asked to add tests to `inventory.py`, a small model
/// planned "Change inventory.py: Add pytest tests for the Inventory
/// class" and then "Write test_inventory.py", and did the first by
/// changing the module. A task left with nothing is kept as it was.
fn tests_out_of_code(tasks: &mut [TaskPlan], unasked: impl Fn(&str, &str) -> Option<String>) {
    let mut dropped: Vec<(String, String)> = Vec::new();
    for task in tasks.iter_mut() {
        let mut at = 0;
        while at < task.kinds.len().min(task.subtasks.len()) {
            let dropped_test = match &task.kinds[at] {
                SubtaskKind::Write { path } if task.subtasks.len() > 1 => {
                    unasked(path, &task.subtasks[at]).map(|test| (path.clone(), test))
                }
                _ => None,
            };
            let Some((path, test)) = dropped_test else {
                at += 1;
                continue;
            };
            task.kinds.remove(at);
            task.subtasks.remove(at);
            task.description = task.description.replacen(&format!("{path} and "), "", 1);
            dropped.push((path, test));
        }
    }
    for (code, test) in dropped {
        for task in tasks.iter_mut() {
            let at = task
                .kinds
                .iter()
                .position(|kind| matches!(kind, SubtaskKind::Write { path } if *path == test));
            if let Some(subtask) = at.and_then(|at| task.subtasks.get_mut(at)) {
                subtask.push_str(&format!(". {code} stays as it is"));
            }
        }
    }
}

/// What the project's failing tests point at in a source file (see
/// [`to_failing_code`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Points {
    /// Said after the subtask: `. The project's tests that fail (...) call
    /// ...: the bug is there; ... stays as it is`.
    pub hint: String,
    /// The functions of the file the failing tests call, sorted.
    pub failing: Vec<String>,
    /// Those only passing tests call, sorted.
    pub passing: Vec<String>,
    /// Names the file does not define that the failing tests' names give
    /// (`median_even` of `test_median_even`): a plan that names one took
    /// the test for the code.
    pub misnamed: Vec<String>,
}

/// `tasks` with each planned write of a file told what the project's
/// failing tests point at in it (`points`, given the path: the functions
/// the failing tests call and those only passing tests call). Shown that
/// `test_average` failed, a small model planned "Fix the bug in the `add`
/// function" and broke `add`; told after it that `add` stays as it is,
/// another run planned the same and broke `add` again. So a subtask that
/// names a function only passing tests call, and none the failing tests
/// call, names the failing ones instead: the plan's guess of where the bug
/// is gives way to the tests that show it. So does a name the file does not
/// define that a failing test's name gives: q2's stats-fix planned "Fix the
/// bug in the median_even function in stats.py" of `test_median_even`, and
/// the model's edits quoted a `median_even` that was not there, round
/// after round.
pub fn to_failing_code(tasks: &mut [TaskPlan], points: impl Fn(&str) -> Option<Points>) {
    for task in tasks {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            let Some(points) = points(path) else {
                continue;
            };
            if !points.failing.iter().any(|name| has_word(subtask, name)) {
                let failing = points.failing.join("` and `");
                for name in points.passing.iter().chain(&points.misnamed) {
                    *subtask = crate::text::replace_word(subtask, name, &failing);
                }
            }
            subtask.push_str(&points.hint);
        }
    }
}

/// `tasks` whose planned change of a file is told, for each command-line
/// option of `options` (those the goal names), where the file reads its
/// arguments and how its language reads an option (`reading`, given the
/// path and the option; `None` for a file that is not the user's or reads
/// no arguments). x1's cli-flag planned "Add a --shout flag to the
/// greeting function": the model gave `greeting` a `shout` that nothing
/// passed, and `main`, where the command line is read, never changed.
pub fn to_options(
    tasks: &mut [TaskPlan],
    options: &[String],
    reading: impl Fn(&str, &str) -> Option<String>,
) {
    for task in tasks {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            for option in options {
                if let Some(how) = reading(path, option) {
                    subtask.push_str(&format!(". {option} is a command-line option: {how}"));
                }
            }
        }
    }
}

/// `tasks` whose writes that speak of a function the goal gives in call
/// form (`snake(s)`) by its name alone are told that call: the name is
/// the goal's, and a test calls it by that name. t26's textcase plan said
/// "Define the snake function", and the model wrote `snake_case`, and its
/// tests called `snake_case`. A call no write speaks of goes to the first
/// write of source code (`source`, by the languages) that is not a test:
/// t56's kelvin plan said "Define the kelvin package with functions
/// kelvin_to_celsius and kelvin_to_fahrenheit" for a goal of
/// `to_kelvin(celsius)` and `from_kelvin(kelvin)`, and neither was ever
/// written.
pub fn to_called(tasks: &mut [TaskPlan], goal: &str, source: impl Fn(&str) -> bool) {
    let calls: Vec<(String, String)> = crate::lang::called_names(goal)
        .into_iter()
        .filter_map(|name| {
            // The call of this name, not of a longer one it ends (`to_snake(`).
            let (at, _) = goal.match_indices(&format!("{name}(")).find(|(at, _)| {
                !goal[..*at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })?;
            let close = goal[at..].find(')')?;
            Some((name, goal[at..=at + close].to_string()))
        })
        .collect();
    for task in &mut *tasks {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            if !matches!(kind, SubtaskKind::Write { .. }) {
                continue;
            }
            let told: Vec<String> = calls
                .iter()
                .filter(|(name, _)| {
                    crate::text::has_word(subtask, name) && !subtask.contains(&format!("{name}("))
                })
                .map(|(_, call)| format!("`{call}`"))
                .collect();
            match told.len() {
                0 => {}
                1 => subtask.push_str(&format!(
                    ". The goal calls it {}: that is its name",
                    told[0]
                )),
                _ => subtask.push_str(&format!(
                    ". The goal calls them {}: those are their names",
                    told.join(" and ")
                )),
            }
        }
    }
    let writes: Vec<(&String, &SubtaskKind)> = tasks
        .iter()
        .flat_map(|task| task.subtasks.iter().zip(&task.kinds))
        .filter(|(_, kind)| matches!(kind, SubtaskKind::Write { .. }))
        .collect();
    let unsaid: Vec<String> = calls
        .iter()
        .filter(|(name, _)| {
            !writes
                .iter()
                .any(|(text, _)| crate::text::has_word(text, name))
        })
        .map(|(_, call)| format!("`{call}`"))
        .collect();
    if unsaid.is_empty() {
        return;
    }
    let home = tasks.iter_mut().find_map(|task| {
        let at = task
            .kinds
            .iter()
            .position(|kind| matches!(kind, SubtaskKind::Write { path } if source(path)))?;
        Some(&mut task.subtasks[at])
    });
    if let Some(subtask) = home {
        subtask.push_str(&match unsaid.len() {
            1 => format!(". It defines {}, as the goal calls it", unsaid[0]),
            _ => format!(
                ". It defines {}, as the goal calls them",
                unsaid.join(" and ")
            ),
        });
    }
}

/// The goal's own examples told to the writes that speak of them: each
/// write whose subtask names a function of `given` (see
/// [`crate::lang::examples::goal_given`]) is told what the goal says its
/// calls return, at most three: the code is written to it, and a test of
/// it expects it. t26's add-duration wrote `format_duration` to give
/// '01:02:05' where the goal says 3725 gives 1:02:05.
pub fn to_examples(tasks: &mut [TaskPlan], given: &[(String, String)]) {
    const MAX_TOLD: usize = 3;
    for task in tasks {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            if !matches!(kind, SubtaskKind::Write { .. }) {
                continue;
            }
            let told: Vec<String> = given
                .iter()
                .filter(|(call, _)| {
                    crate::lang::examples::call_name(call)
                        .is_some_and(|name| crate::text::has_word(subtask, name))
                })
                .take(MAX_TOLD)
                .map(|(call, value)| format!("`{call}` returns {value}"))
                .collect();
            if !told.is_empty() {
                subtask.push_str(&format!(". The goal says {}", told.join("; ")));
            }
        }
    }
}

/// `tasks` with a write of each input file a check names that neither the
/// workspace (`exists`) nor the plan holds, before the check: a data file
/// (`code` is false for it: no language owns it) given as an argument. A
/// small model planned `python3 word_count.py test_file.txt` with no
/// test_file.txt, and its check subtask ended in a FileNotFoundError it
/// never got past. At most two a check.
pub fn inputs_of_checks(
    tasks: &mut [TaskPlan],
    exists: impl Fn(&str) -> bool,
    code: impl Fn(&str) -> bool,
) {
    let mut planned = planned_writes(tasks);
    for task in tasks {
        let mut at = 0;
        while at < task.kinds.len() {
            let (cmd, expects) = match &task.kinds[at] {
                SubtaskKind::Check { cmd } => (cmd.clone(), None),
                SubtaskKind::Show { cmd, expects } => (cmd.clone(), Some(expects.clone())),
                _ => {
                    at += 1;
                    continue;
                }
            };
            let words = shell_words::split(&cmd).unwrap_or_default();
            let inputs: Vec<String> = words
                .iter()
                .skip(1)
                .filter(|word| is_data_file(word) && !code(word))
                .filter(|word| !exists(word) && !planned.contains(word))
                .take(2)
                .cloned()
                .collect();
            for input in inputs {
                let content = match &expects {
                    // A cycle's run whose output must hold a text the
                    // assessment gave for an input nobody wrote (p2's
                    // word-count: `python3 word_count.py input.txt`, "5").
                    Some(expects) => format!("with content for which its output holds {expects:?}"),
                    None => "with content whose right answer you know".to_string(),
                };
                task.subtasks.insert(
                    at,
                    format!(
                        "Write {input}: a small sample input that `{cmd}` reads (the check runs \
                         on it), {content}"
                    ),
                );
                task.kinds.insert(
                    at,
                    SubtaskKind::Write {
                        path: input.clone(),
                    },
                );
                planned.push(input);
                at += 1;
            }
            at += 1;
        }
    }
}

/// The input file [`files_of_checks`] gives a check that names none.
pub const SAMPLE_INPUT: &str = "sample.txt";

/// `tasks` whose checks of a program that opens the file its argument
/// names (`opens`, found by running it: see `Agent::opening_programs`)
/// name no input file: each such check (and the subtask and task that say
/// it) runs the program on a data file the plan writes (`data`: the first
/// planned write no language owns, `example.txt`), else on
/// [`SAMPLE_INPUT`], written before it by [`inputs_of_checks`] when the
/// workspace has none. t56's show-numbers
/// planned `python3 show.py -n` for a show.py that prints the file it is
/// given; the check could never pass, and the model, told to make it
/// succeed, wrote show.py over until it printed nothing of the file.
pub fn files_of_checks(
    tasks: &mut [TaskPlan],
    opens: impl Fn(&str) -> bool,
    data: impl Fn(&str) -> bool,
) {
    let sample = planned_writes(tasks)
        .into_iter()
        .find(|path| is_data_file(path) && data(path))
        .unwrap_or_else(|| SAMPLE_INPUT.to_string());
    for task in tasks {
        for at in 0..task.kinds.len() {
            let (SubtaskKind::Check { cmd } | SubtaskKind::Show { cmd, .. }) = &mut task.kinds[at]
            else {
                continue;
            };
            let Ok(words) = shell_words::split(cmd) else {
                continue;
            };
            let runs = words.iter().skip(1).any(|word| opens(word));
            let named = words
                .iter()
                .skip(1)
                .any(|word| is_data_file(word) && !opens(word));
            if !runs || named {
                continue;
            }
            let was = cmd.clone();
            let now = format!("{was} {sample}");
            let (old, new) = (format!("`{was}`"), format!("`{now}`"));
            *cmd = now;
            task.subtasks[at] = task.subtasks[at].replace(&old, &new);
            task.description = task.description.replace(&old, &new);
        }
    }
}

/// `tasks` whose planned write of a program a check runs on an input file
/// (`python3 word_count.py sample.txt`) says how the program gets that
/// file: from its command line (`first_argument` of the program's path,
/// by its language: `` `sys.argv[1]` (after `import sys`) ``), never by
/// its name in the code. Shown the plan's write of `sample.txt`, a small
/// model wrote `print(word_count('sample.txt'))`, and the cycles spent on
/// reading the argument after it ended in a `NameError`.
pub fn arguments_of_checks(
    tasks: &mut [TaskPlan],
    first_argument: impl Fn(&str) -> Option<&'static str>,
) {
    let checks: Vec<String> = tasks
        .iter()
        .flat_map(|task| &task.kinds)
        .filter_map(|kind| match kind {
            SubtaskKind::Check { cmd } => Some(cmd.clone()),
            _ => None,
        })
        .collect();
    for cmd in checks {
        let words = shell_words::split(&cmd).unwrap_or_default();
        let Some((program, input, first)) = words.windows(2).skip(1).find_map(|pair| {
            let first = first_argument(&pair[0])?;
            is_data_file(&pair[1]).then_some((&pair[0], &pair[1], first))
        }) else {
            continue;
        };
        let said = format!(". `{cmd}` runs it on {input}");
        for task in tasks.iter_mut() {
            for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
                if matches!(kind, SubtaskKind::Write { path } if path == program)
                    && !subtask.contains(&said)
                {
                    subtask.push_str(&format!(
                        "{said}: it reads that path {COMMAND_LINE} ({first} is the first \
                         argument) and never names {input} in its code"
                    ));
                }
            }
        }
    }
}

/// `tasks` whose planned write of a program a check runs says where the
/// program reads the arguments the goal gives it (`first_argument` of its
/// path, by its language), and that it puts no value of its own in their
/// place. For a goal whose words give the program arguments (see
/// [`crate::state::verdict::given_arguments`]); a write told already how
/// it gets its input file (see [`arguments_of_checks`]) is left as it is.
/// t8's countdown ("given a number as its argument") was planned "Write a
/// Python program that prints numbers from a given number down to 1"; the
/// model wrote `countdown(5)`, its cycle was told to read `sys.argv`, and
/// it added the loop again instead.
pub fn arguments_of_given(
    tasks: &mut [TaskPlan],
    stated: &[String],
    first_argument: impl Fn(&str) -> Option<&'static str>,
) {
    let checks: Vec<Vec<String>> = tasks
        .iter()
        .flat_map(|task| &task.kinds)
        .filter_map(|kind| match kind {
            SubtaskKind::Check { cmd } => shell_words::split(cmd).ok(),
            _ => None,
        })
        .collect();
    // The runs the goal states (t102's acronym planned a bare `python3
    // acronym.py` for the goal's `python3 acronym.py portable network
    // graphics`): they give the arguments, not whether a check runs it.
    let stated: Vec<Vec<String>> = stated
        .iter()
        .filter_map(|command| shell_words::split(command).ok())
        .collect();
    for task in tasks.iter_mut() {
        for (subtask, kind) in task.subtasks.iter_mut().zip(&task.kinds) {
            let SubtaskKind::Write { path } = kind else {
                continue;
            };
            let Some(first) = first_argument(path) else {
                continue;
            };
            let runs: Vec<&Vec<String>> = checks
                .iter()
                .filter(|words| words.iter().skip(1).any(|word| word == path))
                .collect();
            if runs.is_empty() || subtask.contains(COMMAND_LINE) {
                continue;
            }
            // A run that gives several arguments says so, each by its
            // word: told only where the first is, t101's acronym read
            // `sys.argv[1].split()` of `acronym.py portable network
            // graphics` and printed "p".
            let of_path = |words: &&Vec<String>| words.iter().skip(1).any(|word| word == path);
            let Some(longest) = runs
                .iter()
                .copied()
                .chain(stated.iter().filter(of_path))
                .max_by_key(|words| words.len())
            else {
                continue;
            };
            let at = longest.iter().position(|word| word == path).unwrap_or(0);
            let given: Vec<&String> = longest[at + 1..]
                .iter()
                .take_while(|word| !matches!(word.as_str(), "<" | ">" | "|"))
                .collect();
            let several = match given.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    let rest: Vec<String> = rest.iter().map(|w| format!("`{w}`")).collect();
                    format!(
                        "{} of them in `{}`: {} and `{last}`, each an argument of its own; ",
                        given.len(),
                        shell_words::join(longest.iter()),
                        rest.join(", ")
                    )
                }
                _ => String::new(),
            };
            subtask.push_str(&format!(
                ". It reads the arguments the goal gives it {COMMAND_LINE} ({several}{first} is \
                 the first), never a value of its own in their place"
            ));
        }
    }
}

/// How a planned write is told where its program's arguments are.
const COMMAND_LINE: &str = "from its command line";

/// A relative path of a file with an extension, inside the workspace: not
/// an option, not absolute, no `..`.
fn is_data_file(word: &str) -> bool {
    let Some((stem, extension)) = word.rsplit_once('.') else {
        return false;
    };
    !word.starts_with(['-', '/', '~'])
        && !word.contains("..")
        && !stem.is_empty()
        && !stem.ends_with('/')
        && !extension.is_empty()
        && extension.chars().all(|c| c.is_ascii_alphanumeric())
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "_./-".contains(c))
}

/// `tasks` checked by the project's own tests, `check` (the command its
/// languages give for the tests that were there before the run): a plan
/// whose checks do not run it gets it as its last subtask. A small model
/// asked to fix a bug that the project's tests show planned `python3
/// calc.py` as the check, which passes on the bug.
pub fn project_check(tasks: &mut [TaskPlan], check: &str) {
    let runs_it = |kind: &SubtaskKind| {
        matches!(kind, SubtaskKind::Check { cmd }
            if cmd.split_whitespace().eq(check.split_whitespace()))
    };
    // A plan of descriptions alone (free kinds) runs it when a subtask
    // says so.
    let says_it = |subtask: &String| {
        let words: Vec<&str> = subtask.split_whitespace().collect();
        let check: Vec<&str> = check.split_whitespace().collect();
        words.windows(check.len()).any(|w| {
            w.iter()
                .map(|word| word.trim_matches('`'))
                .eq(check.iter().copied())
        })
    };
    if tasks.iter().flat_map(|t| &t.kinds).any(runs_it)
        || tasks.iter().flat_map(|t| &t.subtasks).any(says_it)
    {
        return;
    }
    let Some(last) = tasks.last_mut() else {
        return;
    };
    // A plan given as descriptions alone has no kinds yet: free ones.
    last.kinds.resize(last.subtasks.len(), SubtaskKind::Free);
    last.subtasks.push(format!(
        "Run the project's tests, `{check}`, and make them pass (fix the code if they fail)"
    ));
    last.kinds.push(SubtaskKind::Check {
        cmd: check.to_string(),
    });
}

/// A command whose output the model stated from the goal's words before
/// the plan (see `complete::outputs`), with what it must print and the
/// file of its program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stated {
    pub command: String,
    pub expects: String,
    pub program: String,
}

/// The subtask that runs a stated command until its output holds what it
/// must (a cycle's show subtask says the same).
pub fn show_subtask(command: &str, expects: &str) -> String {
    format!("Run `{command}` and make its output hold {expects:?} (fix the files until it does)")
}

/// `tasks` with a run of each stated command right after the last write
/// of its program (else at the end of the last task), done only when its
/// output holds what the goal's words say: from the first write on, the
/// run after each write (see `Agent::rerun_after_write`) holds the change
/// to it. A cli-flag run learned that `--shout` must print `HELLO,
/// WORLD!` at its first assessment, after a whole task of writes, and
/// spent its cycle's rounds on it (i2, both runs).
pub fn to_stated(tasks: &mut [TaskPlan], stated: &[Stated]) {
    for output in stated {
        let shown = tasks.iter().flat_map(|t| &t.kinds).any(|kind| {
            matches!(kind, SubtaskKind::Show { cmd, .. }
                if cmd.split_whitespace().eq(output.command.split_whitespace()))
        });
        if shown {
            continue;
        }
        let written = tasks.iter().enumerate().rev().find_map(|(t, task)| {
            let at = task.kinds.iter().rposition(
                |kind| matches!(kind, SubtaskKind::Write { path } if *path == output.program),
            )?;
            Some((t, at + 1))
        });
        let Some((t, at)) = written.or_else(|| {
            let last = tasks.len().checked_sub(1)?;
            Some((last, tasks[last].subtasks.len()))
        }) else {
            return;
        };
        let task = &mut tasks[t];
        // A plan given as descriptions alone has no kinds yet: free ones.
        task.kinds.resize(task.subtasks.len(), SubtaskKind::Free);
        task.subtasks
            .insert(at, show_subtask(&output.command, &output.expects));
        task.kinds.insert(
            at,
            SubtaskKind::Show {
                cmd: output.command.clone(),
                expects: output.expects.clone(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_of_an_existing_file_is_a_change_that_keeps_the_rest() {
        let mut tasks = vec![TaskPlan {
            description: "Write calc.py and test_calc.py".into(),
            subtasks: vec![
                "Write calc.py: fix average. Complete working code, no placeholders".into(),
                "Write test_calc.py: tests".into(),
                "Run `python3 -m pytest -q`".into(),
            ],
            kinds: vec![
                SubtaskKind::Write {
                    path: "calc.py".into(),
                },
                SubtaskKind::Write {
                    path: "test_calc.py".into(),
                },
                SubtaskKind::Check {
                    cmd: "python3 -m pytest -q".into(),
                },
            ],
        }];
        on_workspace(&mut tasks, |path| path == "calc.py", |_| false);
        assert_eq!(
            tasks[0].subtasks,
            vec![
                format!(
                    "Change calc.py: fix average. Complete working code, no placeholders{KEEP}"
                ),
                "Write test_calc.py: tests".to_string(),
                "Run `python3 -m pytest -q`".to_string(),
            ]
        );
        let once = tasks.clone();
        on_workspace(&mut tasks, |path| path == "calc.py", |_| false);
        assert_eq!(tasks, once, "said once");
        // After a full stop, one full stop.
        tasks[0].subtasks[0] = "Write calc.py: fix average.".into();
        on_workspace(&mut tasks, |path| path == "calc.py", |_| false);
        assert_eq!(
            tasks[0].subtasks[0],
            "Change calc.py: fix average. It exists: change what the goal asks and keep the rest \
             of it"
        );
    }

    #[test]
    fn a_planned_write_of_a_failing_test_file_changes_the_code_it_tests() {
        let plan = |first: &str, second: Option<&str>| {
            let mut kinds = vec![SubtaskKind::Write { path: first.into() }];
            let mut subtasks = vec![format!("Write {first}: fix the bug in calc.py")];
            if let Some(second) = second {
                kinds.push(SubtaskKind::Write {
                    path: second.into(),
                });
                subtasks.push(format!("Write {second}"));
            }
            vec![TaskPlan {
                description: format!("Write {first}, then run the tests"),
                subtasks,
                kinds,
            }]
        };
        let subject = |path: &str| (path == "test_calc.py").then(|| "calc.py".to_string());
        let mut tasks = plan("test_calc.py", None);
        to_code_under_test(&mut tasks, subject);
        assert_eq!(
            tasks[0].kinds,
            [SubtaskKind::Write {
                path: "calc.py".into()
            }]
        );
        assert_eq!(
            tasks[0].subtasks[0],
            "Change calc.py: fix the bug in calc.py. The project's tests in test_calc.py fail \
             now: change calc.py so that they pass, and keep test_calc.py as it is"
        );
        assert_eq!(tasks[0].description, "Write calc.py, then run the tests");
        // A plan that changes the code already drops the write of its
        // test file, before the code's or after it.
        for (first, second) in [("calc.py", "test_calc.py"), ("test_calc.py", "calc.py")] {
            let mut both = plan(first, Some(second));
            to_code_under_test(&mut both, subject);
            assert_eq!(
                both[0].kinds,
                [SubtaskKind::Write {
                    path: "calc.py".into()
                }],
                "{first}, {second}"
            );
            assert!(both[0].subtasks[0].starts_with("Write calc.py"));
        }
        // A file that is not a test of the project: kept.
        let mut other = plan("notes.py", None);
        let before = other.clone();
        to_code_under_test(&mut other, subject);
        assert_eq!(other, before);
    }

    #[test]
    fn a_subtask_that_names_only_code_the_passing_tests_call_names_the_failing_code() {
        // v1's calc-fix run (Ollama API), as planned: told after it that
        // `add` stays as it is, the model changed `add`.
        let planned = |subtask: &str| {
            vec![TaskPlan {
                description: "Write calc.py".into(),
                subtasks: vec![subtask.into()],
                kinds: vec![SubtaskKind::Write {
                    path: "calc.py".into(),
                }],
            }]
        };
        let points = |_: &str| {
            Some(Points {
                hint: "; HINT".into(),
                failing: vec!["average".into()],
                passing: vec!["add".into()],
                misnamed: vec!["average_of_two".into(), "test_average_of_two".into()],
            })
        };
        let mut tasks = planned(
            "Change calc.py: Fix the bug in the `add` function in `calc.py` (see add.py) to \
             make the tests pass",
        );
        to_failing_code(&mut tasks, points);
        assert_eq!(
            tasks[0].subtasks[0],
            "Change calc.py: Fix the bug in the `average` function in `calc.py` (see add.py) to \
             make the tests pass; HINT"
        );
        // One that names a failing test's name as the code.
        let mut tasks =
            planned("Change calc.py: Fix the bug in the average_of_two function in calc.py");
        to_failing_code(&mut tasks, points);
        assert_eq!(
            tasks[0].subtasks[0],
            "Change calc.py: Fix the bug in the average function in calc.py; HINT"
        );
        // One that names the failing code already is kept as planned.
        let mut tasks = planned("Change calc.py: Fix average, not add");
        to_failing_code(&mut tasks, points);
        assert_eq!(
            tasks[0].subtasks[0],
            "Change calc.py: Fix average, not add; HINT"
        );
    }

    #[test]
    fn the_tests_a_goal_asks_for_go_in_a_file_of_their_own() {
        let write = |path: &str| SubtaskKind::Write { path: path.into() };
        let plan = |path: &str| {
            vec![TaskPlan {
                description: format!("Write {path}, then run `python3 {path}`"),
                subtasks: vec![
                    format!("Write {path}: the function and its tests"),
                    format!("Run `python3 {path}`"),
                ],
                kinds: vec![
                    write(path),
                    SubtaskKind::Check {
                        cmd: format!("python3 {path}"),
                    },
                ],
            }]
        };
        let is_test = |path: &str| path.starts_with("test_");
        let test_path = |path: &str| (!is_test(path)).then(|| format!("test_{path}"));
        let project = ["inventory.py"];
        let exists = |path: &str| project.contains(&path);

        // A new file: its tests are written after it.
        let mut new = plan("fizzbuzz.py");
        let planned = tests_of_their_own(
            &mut new,
            is_test,
            test_path,
            exists,
            |_| false,
            |_, _| false,
        );
        assert_eq!(planned.as_deref(), Some("test_fizzbuzz.py"));
        assert_eq!(
            new[0].kinds,
            [
                write("fizzbuzz.py"),
                write("test_fizzbuzz.py"),
                SubtaskKind::Check {
                    cmd: "python3 fizzbuzz.py".into()
                }
            ]
        );
        assert_eq!(
            new[0].subtasks[0],
            "Write fizzbuzz.py: the function and its tests. Its tests go in test_fizzbuzz.py, the \
             next subtask"
        );
        assert!(
            new[0].subtasks[1].starts_with("Write test_fizzbuzz.py: the tests the goal asks for"),
            "{}",
            new[0].subtasks[1]
        );

        // A file of the project the goal asks nothing else of: the change is
        // the write of its tests.
        let mut existing = plan("inventory.py");
        let planned = tests_of_their_own(
            &mut existing,
            is_test,
            test_path,
            exists,
            |_| false,
            |_, _| false,
        );
        assert_eq!(planned.as_deref(), Some("test_inventory.py"));
        assert_eq!(existing[0].kinds[0], write("test_inventory.py"));
        assert_eq!(existing[0].subtasks.len(), 2);
        assert_eq!(
            existing[0].subtasks[0],
            "Write test_inventory.py: the function and its tests. The tests go in \
             test_inventory.py, a file of their own that imports what it tests from \
             inventory.py; inventory.py stays as it is"
        );
        assert_eq!(
            existing[0].description, "Write test_inventory.py, then run `python3 inventory.py`",
            "the check it names is kept"
        );

        // One the goal asks more of keeps its change, and its tests follow.
        let mut asked = plan("inventory.py");
        tests_of_their_own(
            &mut asked,
            is_test,
            test_path,
            exists,
            |_| true,
            |_, _| false,
        );
        assert_eq!(
            asked[0].kinds[..2],
            [write("inventory.py"), write("test_inventory.py")]
        );

        // A plan that writes a test file, or code whose test file is there:
        // unchanged.
        let mut tested = plan("fizzbuzz.py");
        tested[0].subtasks.push("Write test_fizzbuzz.py".into());
        tested[0].kinds.push(write("test_fizzbuzz.py"));
        let before = tested.clone();
        assert_eq!(
            tests_of_their_own(
                &mut tested,
                is_test,
                test_path,
                exists,
                |_| false,
                |_, _| false
            ),
            None
        );
        assert_eq!(tested, before);
        let mut covered = plan("calc.py");
        let before = covered.clone();
        let there = |path: &str| path == "test_calc.py" || path == "calc.py";
        assert_eq!(
            tests_of_their_own(
                &mut covered,
                is_test,
                test_path,
                there,
                |_| false,
                |_, _| false
            ),
            None
        );
        assert_eq!(covered, before);
    }

    #[test]
    fn a_change_of_code_for_the_tests_a_plan_writes_apart_is_dropped() {
        let write = |path: &str| SubtaskKind::Write { path: path.into() };
        let check = SubtaskKind::Check {
            cmd: "python3 -m pytest -q".into(),
        };
        // The plan of a real add-tests run.
        let plan = |change: &str| {
            vec![TaskPlan {
                description: "Write inventory.py and test_inventory.py, then run the tests".into(),
                subtasks: vec![
                    format!(
                        "Change inventory.py: {change}{WHOLE}. Functions ... so tests can call them"
                    ),
                    "Write test_inventory.py: pytest tests for the Inventory class".into(),
                    "Run `python3 -m pytest -q`".into(),
                ],
                kinds: vec![
                    write("inventory.py"),
                    write("test_inventory.py"),
                    check.clone(),
                ],
            }]
        };
        let is_test = |path: &str| path.starts_with("test_");
        let test_path = |path: &str| (!is_test(path)).then(|| format!("test_{path}"));
        let exists = |path: &str| path == "inventory.py";

        let mut tasks = plan("Add pytest tests for the Inventory class");
        let planned = tests_of_their_own(
            &mut tasks,
            is_test,
            test_path,
            exists,
            |_| false,
            |_, _| false,
        );
        assert_eq!(planned, None, "the plan writes its test file already");
        assert_eq!(tasks[0].kinds, [write("test_inventory.py"), check.clone()]);
        assert_eq!(
            tasks[0].subtasks[0],
            "Write test_inventory.py: pytest tests for the Inventory class. inventory.py stays as \
             it is"
        );
        assert_eq!(
            tasks[0].description,
            "Write test_inventory.py, then run the tests"
        );

        // Kept: a change that is not about tests (what the runner adds to
        // a planned write says "tests" and does not count), one the goal
        // asks for, and one whose test file is there already.
        for (change, asked, there) in [
            ("fix the bug in remove", false, false),
            ("Add pytest tests", true, false),
            ("Add pytest tests", false, true),
        ] {
            let mut tasks = plan(change);
            let before = tasks.clone();
            let exists =
                |path: &str| path == "inventory.py" || (there && path == "test_inventory.py");
            tests_of_their_own(
                &mut tasks,
                is_test,
                test_path,
                exists,
                |_| asked,
                |_, _| false,
            );
            assert_eq!(tasks, before, "{change}, asked {asked}, there {there}");
        }

        // A change whose names in code form are made up (y1's add-tests
        // planned a method `add_item` nobody asked for) is of the tests
        // too; made_up is given the planner's own words.
        let change = "Add a class `Inventory` with a method `add_item`";
        let mut tasks = plan(change);
        let made_up = |code: &str, subtask: &str| {
            code == "inventory.py" && subtask == format!("Change inventory.py: {change}")
        };
        tests_of_their_own(&mut tasks, is_test, test_path, exists, |_| false, made_up);
        assert_eq!(tasks[0].kinds, [write("test_inventory.py"), check.clone()]);
        let mut tasks = plan(change);
        let before = tasks.clone();
        tests_of_their_own(&mut tasks, is_test, test_path, exists, |_| true, made_up);
        assert_eq!(tasks, before, "a change the goal asks for stays");
    }

    #[test]
    fn a_change_of_code_not_about_tests_keeps_its_file_and_gets_tests_after_it() {
        let mut tasks = vec![TaskPlan {
            description: "Fix calc.py".into(),
            subtasks: vec!["Change calc.py: fix the bug in average".into()],
            kinds: vec![SubtaskKind::Write {
                path: "calc.py".into(),
            }],
        }];
        let is_test = |path: &str| path.starts_with("test_");
        let planned = tests_of_their_own(
            &mut tasks,
            is_test,
            |path| Some(format!("test_{path}")),
            |path| path == "calc.py",
            |_| false,
            |_, _| false,
        );
        assert_eq!(planned.as_deref(), Some("test_calc.py"));
        assert_eq!(
            tasks[0].kinds,
            [
                SubtaskKind::Write {
                    path: "calc.py".into()
                },
                SubtaskKind::Write {
                    path: "test_calc.py".into()
                }
            ]
        );
    }

    #[test]
    fn an_input_a_check_names_and_nothing_holds_is_written_first() {
        let plan = |check: &str| {
            vec![TaskPlan {
                description: "Write word_count.py".into(),
                subtasks: vec!["Write word_count.py".into(), format!("Run `{check}`")],
                kinds: vec![
                    SubtaskKind::Write {
                        path: "word_count.py".into(),
                    },
                    SubtaskKind::Check { cmd: check.into() },
                ],
            }]
        };
        let code = |path: &str| path.ends_with(".py");
        let mut tasks = plan("python3 word_count.py test_file.txt");
        inputs_of_checks(&mut tasks, |_| false, code);
        assert_eq!(
            tasks[0].kinds[1],
            SubtaskKind::Write {
                path: "test_file.txt".into()
            }
        );
        assert!(tasks[0].subtasks[1].starts_with(
            "Write test_file.txt: a small sample input that `python3 word_count.py test_file.txt` reads"
        ));
        assert_eq!(
            tasks[0].kinds[2],
            SubtaskKind::Check {
                cmd: "python3 word_count.py test_file.txt".into()
            }
        );
        // A cycle's run whose output must hold a text: the sample is
        // written for it.
        let mut shown = plan("python3 word_count.py input.txt");
        shown[0].kinds[1] = SubtaskKind::Show {
            cmd: "python3 word_count.py input.txt".into(),
            expects: "5".into(),
        };
        inputs_of_checks(&mut shown, |_| false, code);
        assert_eq!(
            shown[0].kinds[1],
            SubtaskKind::Write {
                path: "input.txt".into()
            }
        );
        assert!(
            shown[0].subtasks[1].ends_with("with content for which its output holds \"5\""),
            "{}",
            shown[0].subtasks[1]
        );
        // There already, code, an option, a path outside, or no file: kept.
        for (check, there) in [
            ("python3 word_count.py notes.txt", true),
            ("python3 -m pytest -q test_other.py", false),
            ("python3 word_count.py --top 3", false),
            ("python3 word_count.py /etc/hosts", false),
            ("python3 word_count.py ../notes.txt", false),
            ("python3 word_count.py", false),
        ] {
            let mut tasks = plan(check);
            let before = tasks.clone();
            inputs_of_checks(&mut tasks, |_| there, code);
            assert_eq!(tasks, before, "{check}");
        }
    }

    #[test]
    fn a_check_of_a_program_that_opens_its_argument_runs_it_on_a_sample() {
        let plan = |check: &str| {
            vec![TaskPlan {
                description: format!("Change show.py, then run `{check}`"),
                subtasks: vec![
                    "Change show.py".into(),
                    format!("Run `{check}` and make it succeed (fix the files if it fails)"),
                ],
                kinds: vec![
                    SubtaskKind::Write {
                        path: "show.py".into(),
                    },
                    SubtaskKind::Check { cmd: check.into() },
                ],
            }]
        };
        let opens = |path: &str| path == "show.py";
        let mut tasks = plan("python3 show.py -n");
        files_of_checks(&mut tasks, opens, |path| !path.ends_with(".py"));
        assert_eq!(
            tasks[0].kinds[1],
            SubtaskKind::Check {
                cmd: "python3 show.py -n sample.txt".into()
            }
        );
        assert_eq!(
            tasks[0].subtasks[1],
            "Run `python3 show.py -n sample.txt` and make it succeed (fix the files if it fails)"
        );
        assert_eq!(
            tasks[0].description,
            "Change show.py, then run `python3 show.py -n sample.txt`"
        );
        // Then its write comes first, and the program is told to read it.
        inputs_of_checks(&mut tasks, |path| path == "show.py", |p| p.ends_with(".py"));
        assert_eq!(
            tasks[0].kinds[1],
            SubtaskKind::Write {
                path: "sample.txt".into()
            }
        );
        // An input named already, another program, or the tests: kept.
        for check in [
            "python3 show.py -n notes.txt",
            "python3 other.py -n",
            "python3 -m pytest -q",
        ] {
            let mut tasks = plan(check);
            let before = tasks.clone();
            files_of_checks(&mut tasks, opens, |path| !path.ends_with(".py"));
            assert_eq!(tasks, before, "{check}");
        }
    }

    #[test]
    fn a_program_a_check_runs_on_a_file_is_told_to_read_it_from_its_command_line() {
        let plan = |check: &str| {
            vec![TaskPlan {
                description: "Write word_count.py".into(),
                subtasks: vec![
                    "Write word_count.py: count words".into(),
                    format!("Run `{check}`"),
                ],
                kinds: vec![
                    SubtaskKind::Write {
                        path: "word_count.py".into(),
                    },
                    SubtaskKind::Check { cmd: check.into() },
                ],
            }]
        };
        let first = |path: &str| path.ends_with(".py").then_some("`sys.argv[1]`");
        let mut tasks = plan("python3 word_count.py sample.txt");
        arguments_of_checks(&mut tasks, first);
        assert_eq!(
            tasks[0].subtasks[0],
            "Write word_count.py: count words. `python3 word_count.py sample.txt` runs it on \
             sample.txt: it reads that path from its command line (`sys.argv[1]` is the first \
             argument) and never names sample.txt in its code"
        );
        assert_eq!(
            tasks[0].subtasks[1],
            "Run `python3 word_count.py sample.txt`"
        );
        // Said once, however many checks run it on the file.
        let (kind, subtask) = (tasks[0].kinds[1].clone(), tasks[0].subtasks[1].clone());
        tasks[0].kinds.push(kind);
        tasks[0].subtasks.push(subtask);
        let once = tasks.clone();
        arguments_of_checks(&mut tasks, first);
        assert_eq!(tasks, once);
        // No input file after the program, or no program of a language:
        // nothing said.
        for check in [
            "python3 word_count.py",
            "python3 word_count.py --shout",
            "python3 -m pytest -q test_word_count.py",
            "wc -w sample.txt",
        ] {
            let mut tasks = plan(check);
            let before = tasks.clone();
            arguments_of_checks(&mut tasks, first);
            assert_eq!(tasks, before, "{check}");
        }
    }

    #[test]
    fn a_program_a_check_runs_in_a_goal_that_gives_it_arguments_is_told_where_they_are() {
        let plan = |check: &str| {
            vec![TaskPlan {
                description: "Write countdown.py".into(),
                subtasks: vec![
                    "Write countdown.py: count down".into(),
                    "Write notes.txt: notes".into(),
                    format!("Run `{check}`"),
                ],
                kinds: vec![
                    SubtaskKind::Write {
                        path: "countdown.py".into(),
                    },
                    SubtaskKind::Write {
                        path: "notes.txt".into(),
                    },
                    SubtaskKind::Check { cmd: check.into() },
                ],
            }]
        };
        let first = |path: &str| path.ends_with(".py").then_some("`sys.argv[1]`");
        let mut tasks = plan("python3 countdown.py");
        arguments_of_given(&mut tasks, &[], first);
        assert_eq!(
            tasks[0].subtasks[0],
            "Write countdown.py: count down. It reads the arguments the goal gives it from its \
             command line (`sys.argv[1]` is the first), never a value of its own in their place"
        );
        // Said once; nothing said of a file of no language.
        let once = tasks.clone();
        arguments_of_given(&mut tasks, &[], first);
        assert_eq!(tasks, once);
        assert_eq!(tasks[0].subtasks[1], "Write notes.txt: notes");
        // A write told already how it gets its input file keeps that.
        let mut tasks = plan("python3 countdown.py sample.txt");
        arguments_of_checks(&mut tasks, first);
        let told = tasks.clone();
        arguments_of_given(&mut tasks, &[], first);
        assert_eq!(tasks, told);
        // Several arguments: each said.
        let mut tasks = plan("python3 acronym.py portable network graphics")
            .into_iter()
            .map(|mut t| {
                t.kinds[0] = SubtaskKind::Write {
                    path: "acronym.py".into(),
                };
                t
            })
            .collect::<Vec<_>>();
        arguments_of_given(&mut tasks, &[], first);
        assert!(
            tasks[0].subtasks[0].ends_with(
                "(3 of them in `python3 acronym.py portable network graphics`: `portable`, \
                 `network` and `graphics`, each an argument of its own; `sys.argv[1]` is the \
                 first), never a value of its own in their place"
            ),
            "{}",
            tasks[0].subtasks[0]
        );
        // The goal's own run gives them when the plan's check is bare.
        let mut bare = plan("python3 acronym.py");
        bare[0].kinds[0] = SubtaskKind::Write {
            path: "acronym.py".into(),
        };
        let stated = ["python3 acronym.py portable network graphics".to_string()];
        arguments_of_given(&mut bare, &stated, first);
        assert_eq!(bare[0].subtasks[0], tasks[0].subtasks[0]);
        // A program no check runs (its tests run it) is not told.
        let mut tasks = plan("python3 -m pytest -q");
        arguments_of_given(&mut tasks, &[], first);
        assert_eq!(tasks, plan("python3 -m pytest -q"));
    }

    #[test]
    fn a_change_of_a_program_is_told_where_it_reads_each_option_the_goal_names() {
        let mut tasks = vec![TaskPlan {
            description: "Change greet.py".into(),
            subtasks: vec![
                "Write greet.py: add a --shout flag to greeting".into(),
                "Write notes.md: say so".into(),
                "Run `python3 greet.py`".into(),
            ],
            kinds: vec![
                SubtaskKind::Write {
                    path: "greet.py".into(),
                },
                SubtaskKind::Write {
                    path: "notes.md".into(),
                },
                SubtaskKind::Check {
                    cmd: "python3 greet.py".into(),
                },
            ],
        }];
        let reading = |path: &str, option: &str| {
            (path == "greet.py").then(|| format!("greet.py reads {option} at line 10"))
        };
        let options = ["--shout".to_string(), "-n".to_string()];
        to_options(&mut tasks, &options, reading);
        assert_eq!(
            tasks[0].subtasks,
            [
                "Write greet.py: add a --shout flag to greeting. --shout is a command-line \
                 option: greet.py reads --shout at line 10. -n is a command-line option: \
                 greet.py reads -n at line 10",
                "Write notes.md: say so",
                "Run `python3 greet.py`",
            ]
        );
        // No option named: nothing said.
        let before = tasks.clone();
        to_options(&mut tasks, &[], reading);
        assert_eq!(tasks, before);
    }

    #[test]
    fn a_write_that_names_a_function_the_goal_calls_is_told_the_call() {
        let write =
            |path: &str, text: &str| (text.to_string(), SubtaskKind::Write { path: path.into() });
        let items = [
            write(
                "textcase/__init__.py",
                "Write textcase/__init__.py: expose snake and kebab",
            ),
            write(
                "textcase/snake.py",
                "Write textcase/snake.py: Define the snake function",
            ),
            write(
                "test_snake.py",
                "Write test_snake.py: test snake(s) with two cases",
            ),
            write("notes.md", "Write notes.md: say so"),
        ];
        let mut tasks = vec![TaskPlan {
            description: "t".into(),
            subtasks: items.iter().map(|(text, _)| text.clone()).collect(),
            kinds: items.iter().map(|(_, kind)| kind.clone()).collect(),
        }];
        let goal = "Build a package textcase that exposes to_snake(text), snake(s) and kebab(s) \
                    at its top level (snake('Hello World') gives 'hello_world')";
        let source = |path: &str| path.ends_with(".py") && !path.contains("test_");
        to_called(&mut tasks, goal, source);
        assert_eq!(
            tasks[0].subtasks,
            [
                "Write textcase/__init__.py: expose snake and kebab. The goal calls them \
                 `snake(s)` and `kebab(s)`: those are their names. It defines \
                 `to_snake(text)`, as the goal calls it",
                "Write textcase/snake.py: Define the snake function. The goal calls it \
                 `snake(s)`: that is its name",
                "Write test_snake.py: test snake(s) with two cases",
                "Write notes.md: say so",
            ]
        );
        // A goal that calls nothing: nothing said.
        let before = tasks.clone();
        to_called(
            &mut tasks,
            "Build a package textcase with snake and kebab",
            source,
        );
        assert_eq!(tasks, before);
        // t56's kelvin: no write speaks of either call.
        let mut kelvin = vec![TaskPlan {
            description: "t".into(),
            subtasks: vec![
                "Write kelvin/test_kelvin.py: tests".into(),
                "Write kelvin/__init__.py: Define kelvin_to_celsius".into(),
            ],
            kinds: vec![
                SubtaskKind::Write {
                    path: "kelvin/test_kelvin.py".into(),
                },
                SubtaskKind::Write {
                    path: "kelvin/__init__.py".into(),
                },
            ],
        }];
        let goal = "I need to_kelvin(celsius) and from_kelvin(kelvin) in a Python package";
        to_called(&mut kelvin, goal, source);
        assert_eq!(kelvin[0].subtasks[0], "Write kelvin/test_kelvin.py: tests");
        assert_eq!(
            kelvin[0].subtasks[1],
            "Write kelvin/__init__.py: Define kelvin_to_celsius. It defines \
             `to_kelvin(celsius)` and `from_kelvin(kelvin)`, as the goal calls them"
        );
    }

    #[test]
    fn a_write_that_names_a_function_of_the_goals_examples_is_told_them() {
        let task = |items: &[(&str, SubtaskKind)]| TaskPlan {
            description: "t".into(),
            subtasks: items.iter().map(|(text, _)| text.to_string()).collect(),
            kinds: items.iter().map(|(_, kind)| kind.clone()).collect(),
        };
        let write = |path: &str| SubtaskKind::Write { path: path.into() };
        let mut tasks = vec![task(&[
            (
                "Change timeutil.py: add format_duration(seconds)",
                write("timeutil.py"),
            ),
            (
                "Write test_timeutil.py: test format_duration",
                write("test_timeutil.py"),
            ),
            (
                "Write notes.md: say what format_durations does",
                write("notes.md"),
            ),
            (
                "Run `python3 -c 'import timeutil; timeutil.format_duration(1)'`",
                SubtaskKind::Check {
                    cmd: "python3 -c 'import timeutil'".into(),
                },
            ),
        ])];
        let given = [
            ("format_duration(3725)".to_string(), "'1:02:05'".to_string()),
            ("to_seconds(1, 0, 0)".to_string(), "3600".to_string()),
        ];
        let before = tasks.clone();
        to_examples(&mut tasks, &given);
        assert_eq!(
            tasks[0].subtasks[..2],
            [
                "Change timeutil.py: add format_duration(seconds). The goal says \
                 `format_duration(3725)` returns '1:02:05'",
                "Write test_timeutil.py: test format_duration. The goal says \
                 `format_duration(3725)` returns '1:02:05'",
            ]
        );
        // Another name alone (format_durations), and no write: as they were.
        assert_eq!(tasks[0].subtasks[2..], before[0].subtasks[2..]);
        // No examples the goal gives: nothing said.
        let mut again = before.clone();
        to_examples(&mut again, &[]);
        assert_eq!(again, before);
    }

    #[test]
    fn a_plan_that_does_not_run_the_projects_tests_gets_them_last() {
        let plan = |check: &str| TaskPlan {
            description: "Fix calc.py".into(),
            subtasks: vec!["Change calc.py".into(), format!("Run `{check}`")],
            kinds: vec![
                SubtaskKind::Write {
                    path: "calc.py".into(),
                },
                SubtaskKind::Check { cmd: check.into() },
            ],
        };
        let mut tasks = vec![plan("python3 calc.py")];
        project_check(&mut tasks, "python3 -m pytest -q");
        assert_eq!(tasks[0].subtasks.len(), 3);
        assert_eq!(
            tasks[0].kinds[2],
            SubtaskKind::Check {
                cmd: "python3 -m pytest -q".into()
            }
        );
        assert!(tasks[0].subtasks[2].contains("`python3 -m pytest -q`"));
        let mut checked = vec![plan("python3  -m pytest -q")];
        let before = checked.clone();
        project_check(&mut checked, "python3 -m pytest -q");
        assert_eq!(checked, before, "already run: unchanged");
        let mut said = vec![TaskPlan {
            description: "Fix calc.py".into(),
            subtasks: vec!["Fix calc.py".into(), "run `python3 -m pytest -q`".into()],
            kinds: Vec::new(),
        }];
        let before = said.clone();
        project_check(&mut said, "python3 -m pytest -q");
        assert_eq!(said, before, "said in words: unchanged");
    }
    #[test]
    fn a_stated_output_is_run_after_the_last_write_of_its_program() {
        let write = |path: &str| SubtaskKind::Write { path: path.into() };
        let check = |cmd: &str| SubtaskKind::Check { cmd: cmd.into() };
        let mut tasks = vec![
            TaskPlan {
                description: "Add the flag".into(),
                subtasks: vec![
                    "Change greet.py: add --shout".into(),
                    "Change greet.py: read --shout".into(),
                    "Write notes.md".into(),
                    "Run `python3 greet.py`".into(),
                ],
                kinds: vec![
                    write("greet.py"),
                    write("greet.py"),
                    write("notes.md"),
                    check("python3 greet.py"),
                ],
            },
            TaskPlan {
                description: "Prose".into(),
                subtasks: vec!["Think".into()],
                kinds: vec![],
            },
        ];
        let stated = |command: &str, program: &str| Stated {
            command: command.into(),
            expects: "HELLO, WORLD!".into(),
            program: program.into(),
        };
        to_stated(
            &mut tasks,
            &[
                stated("python3 greet.py --shout", "greet.py"),
                stated("python3 other.py --shout", "other.py"),
            ],
        );
        assert_eq!(
            tasks[0].subtasks[2],
            "Run `python3 greet.py --shout` and make its output hold \"HELLO, WORLD!\" (fix the \
             files until it does)"
        );
        assert_eq!(
            tasks[0].kinds[2],
            SubtaskKind::Show {
                cmd: "python3 greet.py --shout".into(),
                expects: "HELLO, WORLD!".into()
            }
        );
        assert_eq!(tasks[0].kinds.len(), 5);
        // A program no subtask writes: at the end of the last task, its
        // free subtasks kept in place.
        assert_eq!(tasks[1].subtasks.len(), 2);
        assert_eq!(tasks[1].kinds[0], SubtaskKind::Free);
        assert!(tasks[1].subtasks[1].starts_with("Run `python3 other.py --shout`"));
        // Stated again: once.
        let before = tasks.clone();
        to_stated(
            &mut tasks,
            &[stated("python3  greet.py --shout", "greet.py")],
        );
        assert_eq!(tasks, before);
    }
}
