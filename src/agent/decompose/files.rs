//! The files shape of a plan (`{"tasks": [{"path", "purpose"}], "check"}`)
//! as one task: a subtask per file, then the check.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::lang::Languages;
use crate::state::verdict::package_names;
use crate::state::{SubtaskKind, TaskPlan};
use crate::text::replace_word;

/// What a planned write of a program adds to the model's words.
pub(super) const WHOLE: &str = ". Complete working code, no placeholders";

/// What a planned write of a program that planned tests call adds.
pub(super) const TESTABLE: &str = ". Functions take their inputs as arguments and return their \
results, so tests can call them; input() and random choices stay out of them";

/// Files of one plan: more is not a plan a small model finishes.
const MAX_FILES: usize = 6;
/// What a file must hold, cut to this: a model that wrote its code there
/// gets the start of it, not a prompt full of code.
const MAX_PURPOSE: usize = 200;

/// What a plan is made for, beside the model's answer: the goal's words
/// and the files the workspace holds before the run.
#[derive(Clone, Copy)]
pub struct Shape<'a> {
    pub goal: &'a str,
    pub existing: &'a BTreeSet<String>,
}

static NOTHING: BTreeSet<String> = BTreeSet::new();

impl Default for Shape<'_> {
    /// No goal and an empty folder: the plan as the model gave it.
    fn default() -> Self {
        Shape {
            goal: "",
            existing: &NOTHING,
        }
    }
}

/// The files shape as one task: a subtask per file, then the check. Put
/// right on the way by the files' languages (see [`Languages::plan_check`]
/// and [`crate::lang::Language::plan_path`]): `my-game.py` becomes
/// `my_game.py` (a module with a hyphen cannot be imported by its tests);
/// the check is the one that runs the planned tests. A new package's
/// modules that hold nothing the goal asks for are left out (see
/// [`unasked_modules`]).
pub(super) fn files_plan(
    items: &[Value],
    check: &str,
    shape: &Shape,
) -> Result<Vec<TaskPlan>, String> {
    if items.len() > MAX_FILES {
        return Err(format!(
            "it has {} files; give 1 to {MAX_FILES}",
            items.len()
        ));
    }
    let languages = Languages::default();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut check = check.trim().trim_matches('`').trim().to_string();
    for (i, item) in items.iter().enumerate() {
        let given = item
            .get("path")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or("");
        let path = given.trim_start_matches("./");
        if path.is_empty() || path.contains(char::is_whitespace) {
            return Err(format!(
                "task {} has no file path (give one like \"word_count.py\")",
                i + 1
            ));
        }
        if path.starts_with('/') || path.split('/').any(|part| part == "..") {
            return Err(format!(
                "task {}: {path} is not inside the folder; give a relative path",
                i + 1
            ));
        }
        let path = languages
            .for_path(path)
            .map_or(path.to_string(), |l| l.plan_path(path));
        if path != given {
            check = check.replace(given, &path);
        }
        let purpose: String = item
            .get("purpose")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .chars()
            .take(MAX_PURPOSE)
            .collect();
        if !files.iter().any(|(known, _)| *known == path) {
            files.push((path, purpose));
        }
    }
    asked_packages(&mut files, &mut check, shape, &languages);
    if unasked_modules(&mut files, shape, &languages) {
        let planned: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
        // A check that runs a file left out runs what the plan writes.
        let runs_left_out = shell_words::split(&check).is_ok_and(|words| {
            words
                .iter()
                .any(|word| languages.for_path(word).is_some() && !planned.contains(&word.as_str()))
        });
        if runs_left_out {
            check.clear();
        }
    }
    let is_test = |path: &str| languages.is_test(path);
    let is_program = |path: &str| languages.for_path(path).is_some() && !is_test(path);
    let program = files
        .iter()
        .rev()
        .map(|(path, _)| path)
        .find(|path| is_program(path));
    let paths: Vec<String> = files.iter().map(|(path, _)| path.clone()).collect();
    let check = languages.plan_check(&paths, &check);
    if files.is_empty() && check.is_empty() {
        return Err("it names no file to write and no command to run".into());
    }
    // What a small model leaves out unless told: the import of the module
    // under test, test functions, and the code itself (it writes `pass`).
    let tested = files.iter().any(|(path, _)| is_test(path));
    let mut subtasks: Vec<String> = files
        .iter()
        .map(|(path, purpose)| {
            let mut line = match purpose.is_empty() {
                true => format!("Write {path}"),
                false => format!("Write {path}: {}", purpose.trim_end_matches('.')),
            };
            // The module a test file tests, by its language's naming
            // (`mathx/test_add.py` tests `mathx/add.py`) when the plan
            // writes it, else the plan's last program: a package plan's
            // tests were told to import from its `__main__.py`.
            let tested_module = languages.for_path(path).and_then(|language| {
                language
                    .subjects(path)
                    .into_iter()
                    .find(|subject| files.iter().any(|(planned, _)| planned == subject))
            });
            match (tested_module.as_ref().or(program), languages.for_path(path)) {
                (Some(program), Some(language)) if is_test(path) => {
                    line.push_str(&language.test_file_hint(program))
                }
                // A package's file that binds what its modules define: a
                // package plan's `__init__.py` was to "add the package to
                // sys.path", and `from mathx import add` failed.
                (_, Some(language)) if let Some(hint) = language.package_hint(path, &paths) => {
                    line.push_str(&hint)
                }
                _ if is_program(path) => {
                    line.push_str(WHOLE);
                    // A game that draws its moves at random inside the
                    // function its tests call cannot be tested (Qwen2.5-
                    // Coder 1.5B wrote one, then flipped the expected value
                    // with every run).
                    if tested {
                        line.push_str(TESTABLE);
                    }
                }
                _ => {}
            }
            line
        })
        .collect();
    let names: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
    let mut description = writes(&names);
    let mut kinds: Vec<SubtaskKind> = files
        .iter()
        .map(|(path, _)| SubtaskKind::Write { path: path.clone() })
        .collect();
    if !check.is_empty() {
        kinds.push(SubtaskKind::Check { cmd: check.clone() });
        subtasks.push(check_subtask(&check));
        description = then_run(&description, &check);
    }
    Ok(vec![TaskPlan {
        kinds,
        description,
        subtasks,
    }])
}

/// Each package the goal asks for (see [`package_names`]) that the plan
/// would make a module of instead (Python's `wordplay.py` for "a Python
/// package wordplay"), when neither the plan nor the workspace has a file
/// in its folder: the module is planned as the package's own file
/// (`wordplay/__init__.py`), and a check that ran the module is left to
/// the plan's tests. t83's wordplay and distance planned the module; the
/// assessment held "wordplay is a package" unmet, and the cycle that was
/// to make one wrote `wordplay/__init__.py` as `from wordplay import
/// is_anagram, reverse_words`, which imports the package from itself.
fn asked_packages(
    files: &mut [(String, String)],
    check: &mut String,
    shape: &Shape,
    languages: &Languages,
) {
    for name in package_names(shape.goal) {
        let folder = format!("{name}/");
        let planned: Vec<String> = files.iter().map(|(path, _)| path.clone()).collect();
        let in_folder = |path: &String| path.starts_with(&folder);
        if planned.iter().any(in_folder) || shape.existing.iter().any(in_folder) {
            continue;
        }
        let made = languages.all().find_map(|language| {
            let module = language.module_for_package(&name, &planned)?;
            let file = language.package_file(&name)?;
            (!shape.existing.contains(&module)).then_some((module, file))
        });
        let Some((module, file)) = made else {
            continue;
        };
        for (path, purpose) in files.iter_mut() {
            *purpose = replace_word(purpose, &module, &file);
            if *path == module {
                path.clone_from(&file);
            }
        }
        if shell_words::split(check).is_ok_and(|words| words.contains(&module)) {
            check.clear();
        }
    }
}

/// `files` without the modules of a package the plan makes anew that hold
/// nothing the goal asks for, nor the tests of them; whether any went. The
/// goal's functions are then defined in the package's own file (see
/// [`super::to_called`]). Asked for "to_kelvin(celsius) and
/// from_kelvin(kelvin) in a Python package", Qwen2.5-Coder 1.5B planned
/// `kelvin/__version__.py`, `kelvin/celsius_to_kelvin.py` and
/// `kelvin/kelvin_to_celsius.py` beside `kelvin/__init__.py`, which
/// imported from them with `*`; three runs (t56 to t58) spent their rounds
/// on modules no one asked for and never got to the tests. Only for a goal
/// that calls its functions (`to_kelvin(celsius)`): a module stays when its
/// purpose names one of them, the goal names it, it runs the package
/// (`__main__.py`), or it is in the workspace. Of the tests of the modules
/// left out, the first stays as the package's (`test_kelvin.py`, in its
/// folder) when no other test is planned.
fn unasked_modules(
    files: &mut Vec<(String, String)>,
    shape: &Shape,
    languages: &Languages,
) -> bool {
    let calls = crate::lang::called_names(shape.goal);
    if calls.is_empty() {
        return false;
    }
    let new = |path: &str| !shape.existing.contains(path);
    let packages: Vec<(String, String)> = files
        .iter()
        .filter(|(path, _)| new(path))
        .filter_map(|(path, _)| Some((path.clone(), languages.for_path(path)?.package_of(path)?)))
        .collect();
    let mut changed = false;
    for (init, package) in packages {
        let unasked: Vec<String> = files
            .iter()
            .filter(|(path, purpose)| {
                let Some(language) = languages.for_path(path) else {
                    return false;
                };
                let in_package = path
                    .strip_prefix(&format!("{package}/"))
                    .is_some_and(|rest| !rest.contains('/'));
                let stem = path.rsplit('/').next().unwrap_or(path);
                let stem = stem.split('.').next().unwrap_or(stem);
                in_package
                    && new(path)
                    && !language.is_test(path)
                    && !language.is_entry(path)
                    && language.package_of(path).is_none()
                    && !calls
                        .iter()
                        .any(|call| crate::text::has_word(purpose, call))
                    && !names_module(shape.goal, stem, &package)
            })
            .map(|(path, _)| path.clone())
            .collect();
        if unasked.is_empty() {
            continue;
        }
        let of_unasked = |path: &str| {
            languages.for_path(path).is_some_and(|language| {
                language.is_test(path)
                    && language
                        .subjects(path)
                        .iter()
                        .any(|subject| unasked.contains(subject))
            })
        };
        let mut tested = files
            .iter()
            .any(|(path, _)| languages.is_test(path) && !of_unasked(path));
        // The name the package's tests go by (`test_kelvin.py`).
        let name = languages
            .for_path(&init)
            .and_then(|language| language.test_path(&init))
            .and_then(|path| path.rsplit('/').next().map(str::to_string));
        let mut kept = Vec::new();
        for (path, purpose) in files.drain(..) {
            if unasked.contains(&path) {
                continue;
            }
            if of_unasked(&path) {
                if !tested && let Some(name) = &name {
                    tested = true;
                    let renamed = match path.rsplit_once('/') {
                        Some((dir, _)) => format!("{dir}/{name}"),
                        None => name.clone(),
                    };
                    kept.push((renamed, String::new()));
                }
                continue;
            }
            kept.push((path, purpose));
        }
        *files = kept;
        changed = true;
    }
    changed
}

/// Whether `goal` names the module `stem` of `package`: as a word of its
/// own, not the package's name (t62's `kelvin/kelvin.py`) nor an argument
/// in a call it gives (`celsius` of `to_kelvin(celsius)`, t62's
/// `kelvin/celsius.py`).
fn names_module(goal: &str, stem: &str, package: &str) -> bool {
    let mut depth = 0usize;
    let outside: String = goal
        .chars()
        .filter(|c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' if depth > 0 => {
                depth -= 1;
                false
            }
            _ => depth == 0,
        })
        .collect();
    package.rsplit('/').next() != Some(stem) && crate::text::has_word(&outside, stem)
}

/// The description of a plan that writes `names`: `Write a.py and b.py`.
pub(super) fn writes(names: &[&str]) -> String {
    match names.len() {
        0 => String::new(),
        1 => format!("Write {}", names[0]),
        n => format!("Write {} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// `description`, then the run of `check`.
pub(super) fn then_run(description: &str, check: &str) -> String {
    match description.is_empty() {
        true => format!("Run `{check}`"),
        false => format!("{description}, then run `{check}`"),
    }
}

/// The subtask that runs a plan's check.
pub(super) fn check_subtask(check: &str) -> String {
    format!("Run `{check}` and make it succeed (fix the files if it fails)")
}

#[cfg(test)]
mod tests {
    use super::super::{parse, parse_for};
    use super::*;

    #[test]
    fn the_files_shape_becomes_a_write_per_file_then_the_check() {
        let plan = r#"{"tasks": [{"path": "hello.py", "purpose": "Print hello."}], "check": "python3 hello.py"}"#;
        assert_eq!(
            parse(plan),
            Ok(vec![TaskPlan {
                kinds: vec![
                    SubtaskKind::Write {
                        path: "hello.py".into()
                    },
                    SubtaskKind::Check {
                        cmd: "python3 hello.py".into()
                    },
                ],
                description: "Write hello.py, then run `python3 hello.py`".into(),
                subtasks: vec![
                    "Write hello.py: Print hello. Complete working code, no placeholders".into(),
                    "Run `python3 hello.py` and make it succeed (fix the files if it fails)".into(),
                ],
            }])
        );
    }

    #[test]
    fn what_small_models_get_wrong_in_a_files_plan_is_put_right() {
        // A hyphen in a module, a pytest check that collects nothing.
        let tests = r#"{"tasks": [{"path": "./my-game.py", "purpose": "the game"},
            {"path": "test_my_game.py", "purpose": "tests"}], "check": "pytest my-game.py"}"#;
        let plan = parse(tests).unwrap();
        assert_eq!(
            plan[0].subtasks,
            [
                "Write my_game.py: the game. Complete working code, no placeholders. Functions \
                 take their inputs as arguments and return their results, so tests can call \
                 them; input() and random choices stay out of them",
                "Write test_my_game.py: tests. It imports from my_game (`from my_game import \
                 ...`) and has 3 to 5 short test_ functions, each calling it and asserting \
                 what it returns",
                "Run `python3 -m pytest -q` and make it succeed (fix the files if it fails)"
            ]
        );
        // A package's test file imports the module it tests, not the
        // plan's last program.
        let package = r#"{"tasks": [{"path": "mathx/add.py", "purpose": "add"},
            {"path": "mathx/__main__.py", "purpose": "entry"},
            {"path": "mathx/test_add.py", "purpose": "tests"}], "check": ""}"#;
        let plan = parse(package).unwrap();
        assert!(
            plan[0].subtasks[2].contains("It imports from mathx.add (`from mathx.add import"),
            "{:?}",
            plan[0].subtasks
        );
        // A package's `__init__.py` gives what its modules define.
        let package = r#"{"tasks": [{"path": "mathx/add.py", "purpose": "add"},
            {"path": "mathx/mul.py", "purpose": "mul"},
            {"path": "mathx/__init__.py", "purpose": "Add the mathx package to sys.path"},
            {"path": "mathx/test_add.py", "purpose": "tests"}], "check": ""}"#;
        let plan = parse(package).unwrap();
        assert_eq!(
            plan[0].subtasks[2],
            "Write mathx/__init__.py: Add the mathx package to sys.path. It makes the package \
             give what its modules define, so that `from mathx import ...` works: `from .add \
             import *` and `from .mul import *`"
        );
        // A pytest check without tests runs the program; so does no check.
        for check in ["python3 -m pytest -q", ""] {
            let plan = parse(&format!(
                r#"{{"tasks": [{{"path": "hi.py", "purpose": ""}}], "check": "{check}"}}"#
            ))
            .unwrap();
            assert_eq!(
                plan[0].subtasks,
                [
                    "Write hi.py. Complete working code, no placeholders",
                    "Run `python3 hi.py` and make it succeed (fix the files if it fails)"
                ]
            );
        }
        // A long purpose (code, as small models write) is cut.
        let long = format!(
            r#"{{"tasks": [{{"path": "a.txt", "purpose": "{}"}}], "check": ""}}"#,
            "x".repeat(1000)
        );
        assert_eq!(
            parse(&long).unwrap()[0].subtasks,
            [format!("Write a.txt: {}", "x".repeat(200))]
        );
    }

    /// t58's kelvin plan: modules the goal never asked for, beside the
    /// package's own file, and tests of them.
    #[test]
    fn a_new_packages_modules_that_hold_nothing_the_goal_asks_for_are_left_out() {
        let plan = r#"{"tasks": [
            {"path": "kelvin/__init__.py", "purpose": "Define the kelvin package"},
            {"path": "kelvin/__version__.py", "purpose": "Define the package version"},
            {"path": "kelvin/celsius_to_kelvin.py", "purpose": "Define the celsius_to_kelvin function"},
            {"path": "kelvin/kelvin_to_celsius.py", "purpose": "Define the kelvin_to_celsius function"},
            {"path": "kelvin/tests/test_celsius_to_kelvin.py", "purpose": "Write tests for celsius_to_kelvin"},
            {"path": "kelvin/tests/test_kelvin_to_celsius.py", "purpose": "Write tests for kelvin_to_celsius"}],
            "check": "python3 -m pytest -q kelvin/tests/test_celsius_to_kelvin.py"}"#;
        let goal = "I need to_kelvin(celsius) and from_kelvin(kelvin) in a Python package; the \
                    package is to be named kelvin and tested with pytest";
        let existing = BTreeSet::new();
        let shape = Shape {
            goal,
            existing: &existing,
        };
        let tasks = parse_for(plan, &shape).unwrap();
        assert_eq!(
            tasks[0].kinds,
            [
                SubtaskKind::Write {
                    path: "kelvin/__init__.py".into()
                },
                SubtaskKind::Write {
                    path: "kelvin/tests/test_kelvin.py".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 -m pytest -q".into()
                },
            ]
        );
        assert_eq!(
            tasks[0].subtasks[1],
            "Write kelvin/tests/test_kelvin.py. It imports from kelvin (`from kelvin import ...`) \
             and has 3 to 5 short test_ functions, each calling it and asserting what it returns"
        );
        // Without a goal, as the model gave it.
        assert_eq!(parse(plan).unwrap()[0].kinds.len(), 7);
        // A module whose purpose names a function the goal calls stays, as
        // does one the goal names, and the tests of them.
        let named = plan.replace("Define the celsius_to_kelvin function", "Define to_kelvin");
        let tasks = parse_for(&named, &shape).unwrap();
        let paths: Vec<String> = tasks[0].kinds.iter().map(|k| format!("{k:?}")).collect();
        assert!(
            paths
                .iter()
                .any(|p| p.contains("kelvin/celsius_to_kelvin.py"))
                && paths
                    .iter()
                    .any(|p| p.contains("test_celsius_to_kelvin.py"))
                && !paths
                    .iter()
                    .any(|p| p.contains("kelvin/kelvin_to_celsius.py")),
            "{paths:?}"
        );
        let versioned = format!("{goal}, with its version in __version__");
        let shape_version = Shape {
            goal: &versioned,
            existing: &existing,
        };
        let tasks = parse_for(plan, &shape_version).unwrap();
        assert!(
            tasks[0].kinds.contains(&SubtaskKind::Write {
                path: "kelvin/__version__.py".into()
            }),
            "{:?}",
            tasks[0].kinds
        );
        // A module named as the package, or as an argument of a call of
        // the goal, is no module the goal names (t62's kelvin plan).
        let t62 = plan
            .replace("kelvin/celsius_to_kelvin.py", "kelvin/celsius.py")
            .replace("kelvin/kelvin_to_celsius.py", "kelvin/kelvin.py")
            .replace("test_celsius_to_kelvin.py", "test_celsius.py")
            .replace("test_kelvin_to_celsius.py", "test_kelvin.py");
        let kinds = &parse_for(&t62, &shape).unwrap()[0].kinds;
        assert_eq!(kinds.len(), 3, "{kinds:?}");
        // A goal that calls no function, and a package already there, keep
        // the plan's modules.
        let mathx = Shape {
            goal: "Create a kelvin package with conversions and pytest tests",
            existing: &existing,
        };
        assert_eq!(parse_for(plan, &mathx).unwrap()[0].kinds.len(), 7);
        let there: BTreeSet<String> = ["kelvin/__init__.py".to_string()].into();
        let shape_there = Shape {
            goal,
            existing: &there,
        };
        assert_eq!(parse_for(plan, &shape_there).unwrap()[0].kinds.len(), 7);
    }

    /// t83's distance plan: a module where the goal asks for a package.
    #[test]
    fn a_module_planned_where_the_goal_asks_for_a_package_is_planned_as_the_package() {
        let plan = r#"{"tasks": [
            {"path": "distance.py", "purpose": "Define km_to_miles and miles_to_km in the distance.py file"},
            {"path": "test_distance.py", "purpose": "Tests of distance.py"}],
            "check": "python3 distance.py"}"#;
        let goal = "Make a Python package called distance with km_to_miles(km) and \
                    miles_to_km(miles), importable as `from distance import km_to_miles, \
                    miles_to_km`, plus pytest tests";
        let existing = BTreeSet::new();
        let shape = Shape {
            goal,
            existing: &existing,
        };
        let tasks = parse_for(plan, &shape).unwrap();
        assert_eq!(
            tasks[0].kinds,
            [
                SubtaskKind::Write {
                    path: "distance/__init__.py".into()
                },
                SubtaskKind::Write {
                    path: "test_distance.py".into()
                },
                SubtaskKind::Check {
                    cmd: "python3 -m pytest -q".into()
                },
            ]
        );
        assert!(
            tasks[0].subtasks[0].starts_with(
                "Write distance/__init__.py: Define km_to_miles and miles_to_km in \
                              the distance/__init__.py file"
            ),
            "{}",
            tasks[0].subtasks[0]
        );
        assert!(
            tasks[0].subtasks[1].contains(
                "Tests of distance/__init__.py. It imports from distance (`from distance import"
            ),
            "{}",
            tasks[0].subtasks[1]
        );
        // A goal that asks for no package, a module already there, and a
        // plan that makes the package's folder keep the plan's module.
        let no_package = Shape {
            goal: "Write distance.py with km_to_miles(km) and pytest tests",
            existing: &existing,
        };
        let there: BTreeSet<String> = ["distance.py".to_string()].into();
        let module_there = Shape {
            goal,
            existing: &there,
        };
        for shape in [no_package, module_there] {
            assert_eq!(
                parse_for(plan, &shape).unwrap()[0].kinds[0],
                SubtaskKind::Write {
                    path: "distance.py".into()
                }
            );
        }
        let folder = plan.replace(
            r#"{"path": "test_distance.py""#,
            r#"{"path": "distance/units.py", "purpose": "constants"}, {"path": "test_distance.py""#,
        );
        assert_eq!(
            parse_for(&folder, &shape).unwrap()[0].kinds[0],
            SubtaskKind::Write {
                path: "distance.py".into()
            }
        );
    }

    #[test]
    fn invalid_files_plans_say_what_is_wrong() {
        let error = |plan: &str| parse(plan).unwrap_err();
        assert!(error(r#"{"tasks": [], "check": ""}"#).contains("no file"));
        assert!(
            error(r#"{"tasks": [{"path": "", "purpose": "x"}], "check": "x"}"#)
                .contains("task 1 has no file path")
        );
        assert!(
            error(r#"{"tasks": [{"path": "../a.py", "purpose": "x"}], "check": ""}"#)
                .contains("not inside")
        );
        let many: Vec<String> = (0..7)
            .map(|i| format!(r#"{{"path": "f{i}.py", "purpose": ""}}"#))
            .collect();
        assert!(
            error(&format!(
                r#"{{"tasks": [{}], "check": ""}}"#,
                many.join(",")
            ))
            .contains("7 files")
        );
    }
}
