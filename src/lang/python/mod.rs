//! Python, known through Python's own parser: `facts.py` (embedded, run
//! with `python3 -I`) returns what `ast` finds, and the review decides
//! from those facts. Without `python3`, Python knows nothing and accepts.

mod facts;
mod pytest;
mod review;
#[cfg(test)]
mod tests;

use std::path::Path;

use super::{
    Definition, Ignored, Language, Problem, Refusal, Review, RunAs, Unexported, Unpassed, Workspace,
};
use facts::Facts;
use review::{Module, Write};

/// What pytest says when the code a test calls reads the keyboard.
const TYPED_IN_TEST: &str = "reading from stdin while output is captured";

/// The most modules of the workspace one review reads, and the largest.
const MAX_MODULES: usize = 40;
const MAX_MODULE_BYTES: usize = 200_000;

pub struct Python;

/// The modules of Python's standard library a program most often uses
/// (a part of `sys.stdlib_module_names`).
const STANDARD_MODULES: [&str; 36] = [
    "argparse",
    "collections",
    "copy",
    "csv",
    "datetime",
    "decimal",
    "enum",
    "fileinput",
    "fractions",
    "functools",
    "glob",
    "hashlib",
    "heapq",
    "io",
    "itertools",
    "json",
    "logging",
    "math",
    "operator",
    "os",
    "pathlib",
    "pprint",
    "random",
    "re",
    "shutil",
    "statistics",
    "string",
    "subprocess",
    "sys",
    "tempfile",
    "textwrap",
    "time",
    "typing",
    "unittest",
    "urllib",
    "uuid",
];

/// What the log says a repair mended (see `facts.py`'s `repair`).
fn repaired_why(mended: &[String]) -> String {
    let said: Vec<&str> = mended
        .iter()
        .filter_map(|m| match m.as_str() {
            "apostrophes" => Some("escaped apostrophes that ended strings early"),
            "quotes" => Some("opened strings closed with the other quote with that quote"),
            "closed" => Some("closed strings left open at the end of their line"),
            "joined" => Some("wrote as `\\n` the line breaks inside strings"),
            "backslash" => Some("wrote `chr(10)` for a `'\\n'` inside an f-string's braces"),
            "dedented" => Some("put a file indented as a whole at the margin"),
            "brace" => Some("dropped a `}` at the end that closed the call's JSON, not code"),
            "escaped" => Some("unescaped quotes escaped outside any string, as in JSON"),
            "else" => Some("put `if C: A else: B` written on one line on lines of their own"),
            _ => None,
        })
        .collect();
    match said.as_slice() {
        [] => "mended what Python could not read".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

/// Why a file was given the imports it lacked: `added at its top the
/// import it lacked: \`import unittest\``.
fn added_why(added: &[String]) -> String {
    let lines: Vec<String> = added.iter().map(|l| format!("`{l}`")).collect();
    match lines.as_slice() {
        [one] => format!("added at its top the import it lacked: {one}"),
        _ => format!(
            "added at its top the imports it lacked: {}",
            lines.join(", ")
        ),
    }
}

/// `, and added ...` after another mend's reason, when imports were added.
fn also_added(added: &[String]) -> String {
    match added.is_empty() {
        true => String::new(),
        false => format!("; and {}", added_why(added)),
    }
}

/// The script that calls a function on the goal's examples (see
/// [`Language::examples_command`]).
const EXAMPLES_SCRIPT: &str = concat!(include_str!("calls.py"), include_str!("examples.py"));

/// The script that calls a function written again from the goal's words
/// on the goal's examples (see [`Language::written_command`]).
const WRITTEN_SCRIPT: &str = concat!(
    include_str!("calls.py"),
    include_str!("written.py"),
    include_str!("examples.py")
);

/// The script that runs a program written apart in place of the
/// workspace's (see [`Language::written_program_command`]).
const PROGRAM_SCRIPT: &str = include_str!("program.py");

/// `python3 -c SCRIPT FIRST NAME EXAMPLES`: `script` (one of
/// [`EXAMPLES_SCRIPT`] and [`WRITTEN_SCRIPT`]) on the calls of `examples`
/// and the values they should return, as JSON.
fn examples_script(
    script: &str,
    first: &str,
    name: &str,
    examples: &[crate::lang::examples::Example],
) -> Option<String> {
    let examples: Vec<(&str, &[String])> = examples
        .iter()
        .map(|example| (example.call.as_str(), example.returns.as_slice()))
        .collect();
    let examples = serde_json::to_string(&examples).ok()?;
    Some(shell_words::join([
        "python3", "-c", script, first, name, &examples,
    ]))
}

/// The script that prints the lines one call of a function runs (see
/// [`Language::trace_command`]).
const TRACE_SCRIPT: &str = concat!(include_str!("calls.py"), include_str!("trace.py"));

/// The script that runs the tests against changed copies of the functions
/// they test (see [`Language::mutants_command`]).
const MUTANTS_SCRIPT: &str = include_str!("mutants.py");

impl Language for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn owns(&self, path: &str) -> bool {
        path.ends_with(".py")
    }

    /// A file pytest collects: `test_*.py` or `*_test.py`.
    fn is_test(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        name.ends_with(".py") && (name.starts_with("test_") || name.ends_with("_test.py"))
    }

    /// pytest collects `test_` functions: a method's test is named by
    /// the method (`Inventory.remove` -> `def test_remove():`).
    fn test_head(&self, name: &str) -> Option<String> {
        let leaf = name.rsplit('.').next().filter(|leaf| !leaf.is_empty())?;
        Some(format!("def test_{}():", leaf.trim_start_matches('_')))
    }

    fn test_path(&self, module: &str) -> Option<String> {
        if !self.owns(module) || self.is_test(module) {
            return None;
        }
        let (dir, name) = module.rsplit_once('/').unwrap_or(("", module));
        // A package's `__init__.py` is the package: `mathx/test_mathx.py`
        // (d1's package plan wrote its tests as `mathx/test___init__.py`).
        let package = dir.rsplit('/').next().filter(|_| name == "__init__.py");
        Some(match (dir, package) {
            ("", _) => format!("test_{name}"),
            (dir, Some(package)) if !package.is_empty() => format!("{dir}/test_{package}.py"),
            (dir, _) => format!("{dir}/test_{name}"),
        })
    }

    fn named_subject(&self, test: &str) -> Option<String> {
        let bare = test
            .strip_prefix("test_")
            .or_else(|| test.strip_prefix("test"))?;
        (!bare.is_empty()).then(|| bare.to_string())
    }

    fn subjects(&self, test: &str) -> Vec<String> {
        if !self.is_test(test) {
            return Vec::new();
        }
        let (dir, name) = test.rsplit_once('/').unwrap_or(("", test));
        let stem = name.trim_end_matches(".py");
        let stem = stem
            .strip_prefix("test_")
            .or_else(|| stem.strip_suffix("_test"))
            .unwrap_or(stem);
        let module = format!("{stem}.py");
        let mut places = super::places_of_module(dir, &module);
        // `mathx/test_mathx.py` tests the package, `mathx/__init__.py`.
        if dir.rsplit('/').next() == Some(stem) {
            places.push(format!("{dir}/__init__.py"));
        }
        places
    }

    fn check_command(&self, _root: &Path, files: &[String]) -> Option<String> {
        files
            .iter()
            .any(|f| self.is_test(f))
            .then(|| "python3 -m pytest -q".to_string())
    }

    fn definitions(&self, files: &[(String, String)]) -> Vec<Vec<Definition>> {
        self.parsed_definitions(files)
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect()
    }

    fn parsed_definitions(&self, files: &[(String, String)]) -> Vec<Option<Vec<Definition>>> {
        per_file(files, |facts| facts.defs)
    }

    fn unpassed(&self, files: &[(String, String)]) -> Vec<Option<Vec<Unpassed>>> {
        per_file(files, |facts| facts.unpassed)
    }

    fn ignored(&self, files: &[(String, String)]) -> Vec<Option<Vec<Ignored>>> {
        per_file(files, |facts| facts.ignored)
    }

    fn called(&self, files: &[(String, String)]) -> Vec<Option<Vec<String>>> {
        per_file(files, |facts| facts.called)
    }

    fn valueless(&self, files: &[(String, String)]) -> Vec<Option<Vec<String>>> {
        per_file(files, |facts| facts.valueless)
    }

    fn public(&self, files: &[(String, String)]) -> Vec<Option<Vec<(String, String)>>> {
        per_file(files, |facts| facts.public)
    }

    fn shapes(&self, files: &[(String, String)]) -> Vec<Option<Vec<(String, String)>>> {
        per_file(files, |facts| facts.shapes)
    }

    fn tests_called(&self, files: &[(String, String)]) -> Vec<Option<Vec<crate::lang::TestCalls>>> {
        per_file(files, |facts| {
            facts
                .tests
                .into_iter()
                .map(|test| {
                    let id = match test.class {
                        Some(class) => format!("{class}::{}", test.name),
                        None => test.name,
                    };
                    (id, test.called)
                })
                .collect()
        })
    }

    fn review(&self, path: &str, content: &str, workspace: &dyn Workspace) -> Review {
        if !self.owns(path) {
            return Review::Accept;
        }
        let is_test = self.is_test(path);
        // The workspace's modules at the top of the folder (what a test
        // imports), and conftest.py: one python3 start reads them all.
        let mut others: Vec<(String, String)> = workspace
            .files()
            .into_iter()
            .filter(|p| p != path && self.owns(p) && !self.is_test(p) && module_name(p).is_some())
            .filter_map(|p| {
                let text = workspace.text(&p)?;
                (text.len() <= MAX_MODULE_BYTES).then_some((p, text))
            })
            .take(MAX_MODULES)
            .collect();
        others.sort();
        others.dedup();
        // The file as it is, last in the batch: what the write makes worse
        // is refused, not what it keeps.
        let now = workspace.text(path);
        let failed = workspace.failed_output();
        let failing = failed
            .as_deref()
            .map(|output| lines_pointed_at(output, path))
            .unwrap_or_default();
        // Of a test file the run wrote: the project's own tests say what
        // the code must do, and are not written to what it does.
        let kept = workspace.kept_code();
        let done = match is_test && !kept.is_empty() && !workspace.existed(path) {
            true => failed.as_deref().map(pytest::done).unwrap_or_default(),
            false => Vec::new(),
        };
        let current = now
            .as_deref()
            .filter(|_| is_test)
            .map(|text| facts::Current {
                text,
                failing: &failing,
                done: &done,
                kept: &kept,
            });
        let mut batch: Vec<(&str, &str)> = vec![(path, content)];
        batch.extend(others.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        batch.extend(now.as_deref().map(|text| (path, text)));
        let Some(answer) = facts::ask(&batch, current, is_test) else {
            return Review::Accept;
        };
        let mut files = answer.files.into_iter();
        let original = files.next().unwrap_or_default();
        let mut facts: Vec<Facts> = files.collect();
        let had_tests = now.as_deref().is_some_and(|text| text.contains("def test"));
        let was = match now {
            Some(_) => facts.pop(),
            None => None,
        };
        let modules: Vec<Module> = others
            .iter()
            .zip(&facts)
            .filter_map(|((p, _), facts)| {
                Some(Module {
                    name: module_name(p)?,
                    path: p,
                    facts,
                })
            })
            .collect();
        let written: Vec<String> = workspace
            .written()
            .into_iter()
            .filter(|p| self.owns(p) && !self.is_test(p))
            .filter_map(|p| module_name(&p))
            .collect();
        let conftest = modules
            .iter()
            .find(|m| m.name == "conftest")
            .map(|m| m.facts);
        let repaired = answer.repaired.as_ref().map(|r| repaired_why(&r.mended));
        let (text, facts, why) = match (&answer.merged, &answer.repaired, &answer.wrapped) {
            (Some(m), _, _) => (
                m.text.as_str(),
                &m.facts,
                "asserts written alone (or in their test function given again) replace the \
                 asserts of the same call in the test file"
                    .to_string(),
            ),
            (None, Some(r), _) => (r.text.as_str(), &r.facts, repaired.unwrap_or_default()),
            // The imports a file lacks where what to import is certain
            // (see `imports_added` in facts.py), alone.
            (None, None, Some(w)) if w.alone => (w.text.as_str(), &w.facts, added_why(&w.added)),
            // The asserts of code that stays as it is that failed at the
            // last run, written to expect what that code did.
            (None, None, Some(w)) if is_test && !answer.as_done.is_empty() => (
                w.text.as_str(),
                &w.facts,
                format!(
                    "{} {} as it is, so a test of it expects what it does: the asserts of \
                     calls that did otherwise at the last run are written to expect what they \
                     did there: {}{}",
                    kept.join(", "),
                    if kept.len() == 1 { "stays" } else { "stay" },
                    answer
                        .as_done
                        .iter()
                        .map(|line| format!("`{}`", line.replace('\n', " ")))
                        .collect::<Vec<_>>()
                        .join(", "),
                    also_added(&w.added)
                ),
            ),
            // A test file pytest would not run as written, mended where the
            // mend loses nothing: a script (pytest imports it and finds no
            // test) and top-level tests that take `self` and never use it
            // (Qwen2.5-Coder 1.5B wrote each again and again, refused each
            // time with what to change); asserts that contradict each other,
            // which cannot all pass, dropped where each test keeps one.
            (None, None, Some(w)) if is_test => (
                w.text.as_str(),
                &w.facts,
                format!(
                    "a test file pytest would not run: a module called as its function imported \
                     as that function, an assert comparing a call with the error it is to raise \
                     written as `with pytest.raises(...):` around the call, a copy of a module's \
                     function imported from the module instead, `self` left out of test functions that do not use it, a test \
                     function defined twice renamed, the asserts of a call that expect two \
                     results of it dropped, a script's statements moved into one test \
                     function, or asserts outside the test functions moved into one of their \
                     own{}",
                    also_added(&w.added)
                ),
            ),
            // A module importing from itself (w1's fizzbuzz.py: `from
            // fizzbuzz import fizzbuzz` above its own `def fizzbuzz`): a
            // circular import that fails every importer, and the names are
            // there without it.
            (None, None, Some(w)) => (
                w.text.as_str(),
                &w.facts,
                format!(
                    "left out its import from itself or from a module that imports from it (a \
                     circular import): the file defines what it imported{}",
                    also_added(&w.added)
                ),
            ),
            (None, None, None) => (content, &original, String::new()),
        };
        let examples = workspace.goal_examples();
        let write = Write {
            path,
            content: text,
            facts,
            is_test,
            had_tests,
            modules: &modules,
            written: &written,
            conftest,
            was: was.as_ref(),
            was_text: now.as_deref(),
            existed: workspace.existed(path),
            examples: &examples,
        };
        match review::problem(&write) {
            Some((reason, instead)) => Review::Refuse(Refusal { reason, instead }),
            None if text != content => Review::Repair {
                content: text.to_string(),
                why,
            },
            None => Review::Accept,
        }
    }

    /// pytest's `E   ...` lines of its first failure (the one naming an
    /// error first; see [`first_failure`]) at the place
    /// its summary gives (`test_a.py:2: NameError`).
    fn failures(&self, output: &str) -> Vec<Problem> {
        let errors: Vec<&str> = first_failure(output)
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("E "))
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let message = errors
            .iter()
            .find(|l| l.contains("Error") || l.contains("Exception"))
            .or(errors.first());
        let Some(message) = message else {
            return Vec::new();
        };
        let located = |l: &str| {
            let (path, rest) = l.trim().split_once(".py:")?;
            let line: u32 = rest.split(':').next()?.parse().ok()?;
            Some((format!("{path}.py"), line))
        };
        // The place pytest gives after the message's own `E` line (the
        // section of that failure), else the last one: with two failing
        // tests, the last place was the second test's line, and the first
        // one's message was shown against it.
        let lines: Vec<&str> = output.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.trim_start().strip_prefix("E ").map(str::trim) == Some(*message));
        let place = at
            .and_then(|at| lines[at..].iter().find_map(|l| located(l)))
            .or_else(|| lines.iter().rev().find_map(|l| located(l)));
        // The frame before it in the same failure, in another file: pytest
        // ends each frame's lines with its place (`tests/test_inv.py:11: `),
        // and a test whose call raised inside the code it tests shows its
        // own line first. A failure's section starts at its `____ name
        // ____` line.
        let caller = at.zip(place.as_ref()).and_then(|(at, (path, _))| {
            lines[..at]
                .iter()
                .rev()
                .take_while(|l| !(l.starts_with("____") && l.ends_with("____")))
                .filter_map(|l| located(l))
                .find(|(other, _)| other != path)
        });
        // An assert with a message of its own (`assert f(1) == 2, 'Test 4
        // failed'`) shows that message first and pytest's comparison under
        // it: both are the failure (t93's rps showed only "Test 4 failed",
        // and what the call returned was never read).
        let compared = errors
            .iter()
            .position(|l| l == message)
            .filter(|_| message.starts_with("AssertionError: "))
            .and_then(|at| errors.get(at + 1))
            .filter(|l| l.starts_with("assert "));
        let message = match compared {
            Some(compared) => format!("{message}: {compared}"),
            None => message.to_string(),
        };
        vec![Problem {
            path: place.as_ref().map(|(p, _)| p.clone()).unwrap_or_default(),
            line: place.map(|(_, l)| l),
            message,
            caller,
        }]
    }

    /// pytest's `raises` for an exception's name (`ValueError: ...`).
    fn expecting_error(&self, message: &str) -> Option<String> {
        let name = message.split(':').next()?.trim();
        let named = (name.ends_with("Error") || name.ends_with("Exception"))
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        (named && name != "AssertionError").then(|| {
            format!(
                "`with pytest.raises({name}):` with the call in its block, after `import pytest`"
            )
        })
    }

    fn failed_checks(&self, output: &str) -> Vec<super::FailedCheck> {
        pytest::failed_checks(output)
    }

    /// Hyphens and spaces in the stem become underscores.
    fn plan_path(&self, path: &str) -> String {
        let Some(stem) = path.strip_suffix(".py") else {
            return path.to_string();
        };
        let (dir, name) = match stem.rsplit_once('/') {
            Some((dir, name)) => (format!("{dir}/"), name),
            None => (String::new(), stem),
        };
        format!("{dir}{}.py", name.replace(['-', ' '], "_"))
    }

    fn run_command(&self, path: &str) -> String {
        format!("python3 {path}")
    }

    /// `mathx/__init__.py` with `mathx/add.py` and `mathx/mul.py` planned:
    /// a line per module that gives its names (`from .add import *`), so
    /// that `from mathx import add` works as a goal's "package with add"
    /// means it to.
    fn package_hint(&self, path: &str, planned: &[String]) -> Option<String> {
        let package = self.package_of(path)?;
        let imports: Vec<String> = planned
            .iter()
            .filter_map(|other| {
                let name = other
                    .strip_prefix(package.as_str())?
                    .strip_prefix('/')?
                    .strip_suffix(".py")?;
                let module = !name.contains('/') && !name.starts_with("__") && !self.is_test(other);
                module.then(|| format!("`from .{name} import *`"))
            })
            .collect();
        if imports.is_empty() {
            return None;
        }
        let dotted = package.replace('/', ".");
        Some(format!(
            ". It makes the package give what its modules define, so that `from {dotted} import \
             ...` works: {}",
            imports.join(" and ")
        ))
    }

    fn package_file(&self, name: &str) -> Option<String> {
        Some(format!("{name}/__init__.py"))
    }

    fn package_of(&self, path: &str) -> Option<String> {
        path.strip_suffix("/__init__.py").map(str::to_string)
    }

    fn module_for_package(&self, name: &str, files: &[String]) -> Option<String> {
        let module = format!("{name}.py");
        let package = format!("{name}/__init__.py");
        (files.contains(&module) && !files.contains(&package)).then_some(module)
    }

    fn is_entry(&self, path: &str) -> bool {
        path == "__main__.py" || path.ends_with("/__main__.py")
    }

    /// A module in a package, run by its path (`python3 mathx/cli.py`),
    /// sees its own folder and not the package: its `from mathx import
    /// add` (or `from . import add`) fails. Run from the workspace's root
    /// as a module of the package (`python3 -m mathx.cli`; a package's
    /// `__main__.py` as `python3 -m mathx`), as Python runs such code. A
    /// model's plan checked `python3 mathx/__main__.py`; it failed on the
    /// import while `python3 -m mathx` printed what the goal asked. Only a
    /// module that imports its package is changed: one that imports a
    /// sibling by its bare name runs only by its path.
    fn as_run(&self, command: &str, text: &dyn Fn(&str) -> Option<String>) -> Option<RunAs> {
        let words = shell_words::split(command).ok()?;
        let [program, path, rest @ ..] = words.as_slice() else {
            return None;
        };
        if !matches!(program.as_str(), "python3" | "python") {
            return None;
        }
        let path = path.strip_prefix("./").unwrap_or(path);
        let (dir, name) = path.strip_suffix(".py")?.rsplit_once('/')?;
        module_name(path)?;
        let folders: Vec<&str> = dir.split('/').collect();
        let packaged = (1..=folders.len())
            .all(|depth| text(&format!("{}/__init__.py", folders[..depth].join("/"))).is_some());
        if !packaged {
            return None;
        }
        // Asked of Python's parser only for a file inside a package: a
        // command of any other shape costs no python3 start.
        let package = folders[0];
        let source = text(path)?;
        let answer = facts::ask(&[(path, &source)], None, false)?;
        let facts = answer.files.first()?;
        let imports_package = facts.relative
            || facts
                .imported
                .iter()
                .any(|module| module == package || module.starts_with(&format!("{package}.")));
        if !imports_package {
            return None;
        }
        let module = match name {
            "__main__" => dir.replace('/', "."),
            name => format!("{}.{name}", dir.replace('/', ".")),
        };
        let mut run = vec![program.clone(), "-m".into(), module.clone()];
        run.extend(rest.iter().cloned());
        Some(RunAs {
            command: shell_words::join(&run),
            why: format!(
                "{path} imports from its package {package}, which a file run by its path does \
                 not see; it runs as a module of it (`-m {module}`)"
            ),
        })
    }

    fn runs_tests(&self, command: &str) -> bool {
        command.contains("pytest")
    }

    fn test_file_hint(&self, program: &str) -> String {
        // A package's `__init__.py` is imported as the package.
        let program = program.strip_suffix("/__init__.py").unwrap_or(program);
        let module = program.trim_end_matches(".py").replace('/', ".");
        format!(
            ". It imports from {module} (`from {module} import ...`) and has 3 to 5 short test_ \
             functions, each calling it and asserting what it returns"
        )
    }

    /// pytest's exit code 5, "no tests ran": the test file is missing or
    /// has no test in it.
    fn no_tests(&self, what: &str) -> Option<String> {
        (self.runs_tests(what) && what.contains("exit code 5")).then(|| {
            "pytest found no test: write the test file (test_NAME.py) with test_ functions that \
             import the code and assert what it returns."
                .to_string()
        })
    }

    /// A `NameError` for a module of the standard library: the program
    /// uses it without importing it (`print(count(sys.argv[1]))` and no
    /// `import sys`), and a small model told only the error renamed the
    /// module to a name defined nowhere.
    fn failure_hint(&self, what: &str, path: &str) -> Option<String> {
        // t91's rps tested `play_game()`, which asked for a move with
        // `input()`, and wrote the same test again four times.
        if what.contains(TYPED_IN_TEST) {
            return Some(
                "The code this line calls reads the keyboard (`input()`), and a test cannot \
                 type: test the functions that take their inputs as arguments and return their \
                 results, and call none that reads input() from a test (or make it take that \
                 input as an argument)."
                    .into(),
            );
        }
        let name = what.split("NameError: name '").nth(1)?.split('\'').next()?;
        STANDARD_MODULES.contains(&name).then(|| {
            format!(
                "`{name}` is a module of Python's standard library that {path} uses without \
                 importing it: add `import {name}` at the top of {path}."
            )
        })
    }

    /// t98's columns-field declared `--field` with `type=int` and no
    /// default, ran without it, and `args.field - 1` raised TypeError on
    /// None, eleven rounds; the model never gave the option a default.
    fn option_unset(&self, what: &str, line: &str, path: &str, text: &str) -> Option<String> {
        what.contains("'NoneType'").then_some(())?;
        let facts = facts::ask(&[(path, text)], None, false)?
            .files
            .into_iter()
            .next()?;
        let unset = facts.unset_options.into_iter().find(|unset| {
            line.match_indices(&format!(".{}", unset.dest))
                .any(|(at, found)| {
                    !line[at + found.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
        })?;
        let (option, dest, at) = (unset.option, unset.dest, unset.line);
        Some(format!(
            "`{option}` was not given, so `{dest}` is None there: its `add_argument` (line {at} \
             of {path}) has no default. Give it the value it stands for without the option, as \
             `default=...` in that call."
        ))
    }

    /// t93's rps tested `rock_paper_scissors()`, which took no parameter
    /// and read the player's move with `input()`: told to fix the test,
    /// the model wrote the same call again.
    fn keyboard_in_test(&self, what: &str, name: &str, module: &str, text: &str) -> Option<String> {
        what.contains(TYPED_IN_TEST).then_some(())?;
        let facts = facts::ask(&[(module, text)], None, false)?
            .files
            .into_iter()
            .next()?;
        facts.keyboard.iter().any(|reader| reader == name).then(|| {
            format!(
                "`{name}` in {module} reads the keyboard itself (`input()`), so no test can call \
                 it: a test cannot type. The fix is in {module}: give `{name}` what it reads as \
                 parameters and have it return its result, and call input() only in a `main()` \
                 that passes what it reads to `{name}`, run under `if __name__ == \"__main__\":`."
            )
        })
    }

    fn import_failed(&self, what: &str) -> Option<(String, Vec<String>)> {
        let rest = what.split("cannot import name '").nth(1)?;
        let (name, rest) = rest.split_once('\'')?;
        let module = rest.strip_prefix(" from '")?.split('\'').next()?;
        let file = module.replace('.', "/");
        Some((
            name.to_string(),
            vec![format!("{file}.py"), format!("{file}/__init__.py")],
        ))
    }

    fn unexported(&self, files: &[(String, String)]) -> Vec<Unexported> {
        let text_of = |path: &str| files.iter().find(|(p, _)| p == path).map(|(_, t)| t);
        let mut found = Vec::new();
        for (path, text) in files {
            let Some((package, file)) = path.rsplit_once('/') else {
                continue;
            };
            let Some(name) = file.strip_suffix(".py") else {
                continue;
            };
            if name == "__init__" || self.is_test(path) || !self.defines(text, name) {
                continue;
            }
            let binder = format!("{package}/__init__.py");
            let init = text_of(&binder);
            let package = package.replace('/', ".");
            let binds = |init: &String| {
                self.defines(init, name)
                    || imports(init, name)
                    || imports_all(init, &format!("{package}.{name}"), name)
            };
            if init.is_some_and(binds) {
                continue;
            }
            found.push(Unexported {
                package,
                name: name.to_string(),
                module: path.clone(),
                binder,
                binding: format!("from .{name} import {name}"),
            });
        }
        found
    }

    fn merge(&self, current: &str, fragment: &str) -> Option<String> {
        facts::merge_definitions(current, fragment, false)
    }

    fn put_in(&self, current: &str, fragment: &str) -> Option<String> {
        facts::merge_definitions(current, fragment, true)
    }

    fn tests_put_back(
        &self,
        old: &str,
        new: &str,
        failed: &[String],
    ) -> Option<(String, Vec<String>)> {
        facts::put_back(old, new, failed)
    }

    fn same_value(&self, written: &str, shown: &str) -> bool {
        pytest::as_shown(written) == pytest::as_shown(shown)
    }

    fn no_value(&self, shown: &str) -> bool {
        shown.trim() == "None"
    }

    fn arguments_at(&self) -> Option<&'static str> {
        Some("sys.argv")
    }

    fn first_argument(&self) -> Option<&'static str> {
        Some("`sys.argv[1]` (after `import sys`)")
    }

    /// Its quoted strings, in `'` or `"`, cut at an f-string's or a
    /// `str.format`'s fields (`{...}`) and at `%` formats (`%s`, `%.2f`).
    fn literal_pieces(&self, line: &str) -> Vec<String> {
        super::quoted_pieces(line, &['"', '\''])
    }

    fn reading_option(&self, option: &str) -> Option<String> {
        Some(format!(
            "`{}` is True when {option} is given, and `[arg for arg in sys.argv[1:] if not \
             arg.startswith('-')]` are the other arguments",
            self.option_given(option)?
        ))
    }

    fn reading_options_anew(&self, flags: &[String], valued: &[String]) -> Option<String> {
        let attribute = |option: &str| option.trim_start_matches('-').replace('-', "_");
        let read: Vec<String> = flags
            .iter()
            .map(|option| {
                format!(
                    "`parser.add_argument('{option}', action='store_true')` makes `args.{}` \
                     True when {option} is given",
                    attribute(option)
                )
            })
            .chain(valued.iter().map(|option| {
                let name = attribute(option);
                format!(
                    "`parser.add_argument('{option}')` makes `args.{name}` the text given after \
                     {option} (None when it is absent; `int(args.{name})` when it is a number)"
                )
            }))
            .collect();
        (!read.is_empty()).then(|| {
            format!(
                "With argparse, {}, and `parser.add_argument('rest', nargs='*')` gives the other \
                 arguments as the list `args.rest`",
                read.join(", ")
            )
        })
    }

    fn options_left_out(&self, text: &str) -> Option<crate::lang::Edit> {
        per_file(&[(String::from("cli.py"), text.to_string())], |facts| {
            facts.positional
        })
        .pop()
        .flatten()
        .flatten()
    }

    fn own_path_left_out(&self, text: &str) -> Option<crate::lang::Edit> {
        per_file(&[(String::from("cli.py"), text.to_string())], |facts| {
            facts.own_path
        })
        .pop()
        .flatten()
        .flatten()
    }

    fn option_given(&self, option: &str) -> Option<String> {
        Some(format!("'{option}' in sys.argv[1:]"))
    }

    /// Its usage printed first (`Usage: fizzbuzz.py N`, argparse's
    /// `usage:` line), or a traceback whose error is an `IndexError` raised
    /// at a line that reads `argv`, or an `EOFError` at one that calls
    /// `input(`.
    fn wants_arguments(&self, output: &str) -> bool {
        let lines: Vec<&str> = output.lines().collect();
        let usage = lines.iter().enumerate().any(|(at, line)| {
            line.starts_with("--- std")
                && lines[at + 1..]
                    .iter()
                    .find(|line| !line.trim().is_empty())
                    .is_some_and(|first| first.trim().to_lowercase().starts_with("usage"))
        });
        if usage {
            return true;
        }
        raised_reading(output, "IndexError", "argv") || self.waits_for_keyboard(output)
    }

    /// An `EOFError` raised at a line that calls `input(`.
    fn waits_for_keyboard(&self, output: &str) -> bool {
        raised_reading(output, "EOFError", "input(")
    }

    /// The one `input(...)` of the file, on `line`, as `sys.argv[1]` (the
    /// write of it gets `import sys` from the review when it lacks one).
    fn argument_for_keyboard(&self, text: &str, line: u32) -> Option<crate::lang::Edit> {
        let calls: Vec<(usize, usize)> = text
            .match_indices("input(")
            .filter(|(at, _)| begins_name(text, *at, true))
            .map(|(at, _)| (at, text[..at].matches('\n').count() + 1))
            .collect();
        let [(at, on)] = calls.as_slice() else {
            return None;
        };
        if *on != usize::try_from(line).ok()? {
            return None;
        }
        let end = call_end(text, at + "input".len())?;
        let start = text[..*at].rfind('\n').map_or(0, |n| n + 1);
        let stop = text[end..].find('\n').map_or(text.len(), |n| end + n);
        let old = &text[start..stop];
        let new = format!("{}sys.argv[1]{}", &text[start..*at], &text[end..stop]);
        Some(crate::lang::Edit {
            line,
            old: old.to_string(),
            new,
        })
    }

    fn reads_input(&self, text: &str) -> bool {
        const READERS: [&str; 10] = [
            "argv",
            "argparse",
            "optparse",
            "getopt",
            "click",
            "typer",
            "fire",
            "fileinput",
            "stdin",
            "input(",
        ];
        READERS.iter().any(|reader| text.contains(reader))
    }

    /// `stdin`, `fileinput`, or a call of the builtin `input(`.
    fn reads_stdin(&self, text: &str) -> bool {
        text.contains("stdin")
            || text.contains("fileinput")
            || text
                .match_indices("input(")
                .any(|(at, _)| begins_name(text, at, true))
    }

    /// `open(` (not `Popen(`), `fileinput`, or a `Path`'s `read_text(` /
    /// `read_bytes(`.
    fn reads_files(&self, text: &str) -> bool {
        const OPENERS: [&str; 4] = ["open(", "fileinput", "read_text(", "read_bytes("];
        OPENERS.iter().any(|opener| {
            text.match_indices(opener)
                .any(|(at, _)| begins_name(text, at, false))
        })
    }

    /// `python3 -c SCRIPT MODULE NAME EXAMPLES` (`examples.py`): the module
    /// imported as its tests import it, from the root, by its dotted path.
    fn examples_command(
        &self,
        module: &str,
        name: &str,
        examples: &[crate::lang::examples::Example],
    ) -> Option<String> {
        let dotted = self.dotted(module)?;
        examples_script(EXAMPLES_SCRIPT, &dotted, name, examples)
    }

    /// `python3 -c SCRIPT SOURCE NAME EXAMPLES` (`written.py`): `SOURCE`
    /// run as a module of its own.
    fn written_command(
        &self,
        source: &str,
        name: &str,
        examples: &[crate::lang::examples::Example],
    ) -> Option<String> {
        examples_script(WRITTEN_SCRIPT, source, name, examples)
    }

    fn program_in(&self, command: &str) -> Option<String> {
        let before = crate::tools::input_file(command).map_or(command, |(before, _)| before);
        let words = shell_words::split(before).ok()?;
        let [program, path, ..] = words.as_slice() else {
            return None;
        };
        let path = path.strip_prefix("./").unwrap_or(path);
        (matches!(program.as_str(), "python3" | "python") && self.owns(path) && !self.is_test(path))
            .then(|| path.to_string())
    }

    /// `python3 -c SCRIPT SOURCE PATH ARGS... [< INPUT]` (`program.py`).
    fn written_program_command(&self, source: &str, command: &str) -> Option<String> {
        let path = self.program_in(command)?;
        let (before, input) = match crate::tools::input_file(command) {
            Some((before, input)) => (before, Some(input)),
            None => (command, None),
        };
        let words = shell_words::split(before).ok()?;
        let mut run = vec!["python3", "-c", PROGRAM_SCRIPT, source, &path];
        run.extend(words[2..].iter().map(String::as_str));
        let run = shell_words::join(run);
        Some(match input {
            Some(input) => format!("{run} < {}", shell_words::quote(&input)),
            None => run,
        })
    }

    /// `python3 -c SCRIPT MODULE NAME CALL` (`trace.py`), the module
    /// imported as [`Language::examples_command`] imports it.
    fn trace_command(&self, module: &str, name: &str, call: &str) -> Option<String> {
        let dotted = self.dotted(module)?;
        Some(shell_words::join([
            "python3",
            "-c",
            TRACE_SCRIPT,
            &dotted,
            name,
            call,
        ]))
    }

    /// `python3 -c SCRIPT MODULE NAMES TESTS` (`mutants.py`).
    fn mutants_command(&self, module: &str, names: &[String], tests: &[String]) -> Option<String> {
        if !self.owns(module) || self.is_test(module) || names.is_empty() || tests.is_empty() {
            return None;
        }
        Some(shell_words::join([
            "python3",
            "-c",
            MUTANTS_SCRIPT,
            module,
            &serde_json::to_string(names).ok()?,
            &serde_json::to_string(tests).ok()?,
        ]))
    }

    fn defines(&self, text: &str, name: &str) -> bool {
        text.lines().any(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("async ").unwrap_or(line);
            let named = |rest: Option<&str>| {
                rest.is_some_and(|rest| {
                    rest.strip_prefix(name)
                        .is_some_and(|after| after.starts_with(['(', ':', ' ']))
                })
            };
            named(line.strip_prefix("def "))
                || named(line.strip_prefix("class "))
                || line.strip_prefix(name).is_some_and(|after| {
                    after.trim_start().starts_with('=') && !after.trim_start().starts_with("==")
                })
        })
    }

    fn asserts(&self, line: &str) -> bool {
        let line = line.trim_start();
        line.strip_prefix("assert")
            .is_some_and(|rest| rest.starts_with([' ', '(']))
            || line.contains("self.assert")
            || line.contains("pytest.raises(")
    }

    fn assertion(&self, line: &str) -> Option<(String, String)> {
        self.assertions(&[line.to_string()]).pop().flatten()
    }

    fn assertions_on(&self, line: &str) -> Vec<(String, String)> {
        let Some(answer) = facts::ask(&[("line.py", line.trim())], None, false) else {
            return Vec::new();
        };
        let Some(facts) = answer.files.into_iter().next() else {
            return Vec::new();
        };
        match facts.asserts.is_empty() {
            false => facts
                .asserts
                .into_iter()
                .map(|assert| (assert.call, assert.expected))
                .collect(),
            true => facts
                .equals
                .into_iter()
                .map(|equal| (equal.first, equal.second))
                .collect(),
        }
    }

    fn assertions(&self, lines: &[String]) -> Vec<Option<(String, String)>> {
        let files: Vec<(&str, &str)> = lines.iter().map(|l| ("line.py", l.trim())).collect();
        let Some(answer) = facts::ask(&files, None, false) else {
            return vec![None; lines.len()];
        };
        let mut found: Vec<Option<(String, String)>> = answer
            .files
            .into_iter()
            .map(|facts| match facts.asserts.into_iter().next() {
                Some(assert) => Some((assert.call, assert.expected)),
                None => {
                    let equal = facts.equals.into_iter().next()?;
                    Some((equal.first, equal.second))
                }
            })
            .collect();
        found.resize(lines.len(), None);
        found
    }

    fn asserted_calls(&self, tests: &[(String, String)]) -> Vec<(String, String)> {
        let files: Vec<(&str, &str)> = tests
            .iter()
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .collect();
        let Some(answer) = facts::ask(&files, None, false) else {
            return Vec::new();
        };
        let mut found: Vec<(String, String)> = Vec::new();
        for facts in answer.files {
            let equal = facts
                .asserts
                .into_iter()
                .chain(facts.equal_calls)
                .filter(|assert| assert.literal)
                .filter_map(|assert| Some((assert.plain?, assert.expected)));
            let truth = facts
                .truth_calls
                .into_iter()
                .map(|truth| (truth.call, truth.expected));
            for (call, expected) in equal.chain(truth) {
                if !found.iter().any(|(seen, _)| *seen == call) {
                    found.push((call, expected));
                }
            }
        }
        found
    }

    fn assert_equal(&self, call: &str, value: &str) -> Option<String> {
        Some(format!("assert {call} == {value}"))
    }

    fn runs_nothing(&self, text: &str, arguments: bool) -> Option<String> {
        let answer = facts::ask(&[("program.py", text)], None, false)?;
        let facts = answer.files.into_iter().next()?;
        let defines = facts.error.is_none() && !facts.defs.is_empty();
        // Said only when the goal gives arguments: r4's hello, told to
        // read "the arguments the goal gives it" of a goal that gives
        // none, printed `sys.argv[1]`, was checked with an argument of its
        // own, and the run ended "Goal achieved".
        let reading = match arguments {
            true => " (reading the command-line arguments the goal gives it from sys.argv)",
            false => "",
        };
        (defines && !facts.runs_something).then(|| {
            format!(
                "End it with `if __name__ == \"__main__\":` and, under it, the call that does \
                 what the goal asks{reading}"
            )
        })
    }

    /// t95's validate-tests asserted `self.assertFalse(validate.is_valid_username("user_"))`
    /// of code that stays as it is, was told only the line, and wrote the
    /// same test again until the round cap.
    fn truth_failed(&self, line: &str, what: &str) -> Option<crate::lang::TruthFailed> {
        let line = line.trim();
        let shown = |marker: &str| {
            let (before, _) = what.split_once(marker)?;
            let value = before.rsplit(": ").next()?.trim();
            (!value.is_empty()).then(|| value.to_string())
        };
        // unittest: `self.assertTrue(CALL[, MSG])`, "X is not true".
        for (method, other, expected, marker) in [
            ("assertTrue(", "assertFalse(", "True", " is not true"),
            ("assertFalse(", "assertTrue(", "False", " is not false"),
        ] {
            let Some(at) = line.find(method) else {
                continue;
            };
            let inner = line[at + method.len()..].strip_suffix(')')?;
            let call = first_argument(inner);
            return Some(crate::lang::TruthFailed {
                call: call.trim().to_string(),
                actual: shown(marker)?,
                expected: expected.into(),
                corrected: format!("{}{other}{}", &line[..at], &line[at + method.len()..]),
            });
        }
        // pytest: `assert [not ]CALL[, MSG]`, "assert [not ]X".
        let rest = line.strip_prefix("assert ")?;
        let message = &rest[first_argument(rest).len()..];
        let asserted = first_argument(rest).trim();
        let (call, negated) = match asserted.strip_prefix("not ") {
            Some(call) => (call.trim(), true),
            None => (asserted, false),
        };
        // One call, whose `(` the last `)` closes: not `f(1) == g(2)`.
        let is_call = call.split_once('(').is_some_and(|(name, arguments)| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && top_level(arguments, ')').is_some_and(|at| at + 1 == arguments.len())
        });
        if !is_call {
            return None;
        }
        let (_, failed) = what.rsplit_once("assert ")?;
        let actual = match (negated, failed.strip_prefix("not ")) {
            (true, shown) => shown?,
            (false, None) => failed,
            (false, Some(_)) => return None,
        };
        let actual = actual.split_whitespace().next()?.to_string();
        let (expected, corrected) = match negated {
            true => ("False", format!("assert {call}{message}")),
            false => ("True", format!("assert not {call}{message}")),
        };
        Some(crate::lang::TruthFailed {
            call: call.to_string(),
            actual,
            expected: expected.into(),
            corrected,
        })
    }

    fn compared(&self, what: &str) -> Option<(String, String)> {
        let (left, right) = match what.rsplit_once("assert ") {
            Some((_, shown)) => shown.split_once(" == ")?,
            None => what.rsplit_once("AssertionError: ")?.1.split_once(" != ")?,
        };
        Some((left.trim().to_string(), right.trim().to_string()))
    }
}

impl Python {
    /// `module` (a source file, not a test) as Python imports it from the
    /// root, by its dotted path, a package's `__init__.py` by the
    /// package's (t100's pricing-package defined both of the goal's
    /// functions in `pricing/__init__.py`, and none of the goal's examples
    /// was ever tried: a `format_cents(350)` that gave '$350' for the
    /// goal's '$3.50' said "Goal achieved"); `None` when it cannot be
    /// imported so.
    fn dotted(&self, module: &str) -> Option<String> {
        let dotted = module
            .strip_suffix(".py")
            .filter(|_| !self.is_test(module))?
            .replace('/', ".");
        let dotted = dotted
            .strip_suffix(".__init__")
            .map_or(dotted.clone(), str::to_string);
        let importable = dotted.split('.').all(|part| {
            part.starts_with(|c: char| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
        (importable && !dotted.ends_with("__init__") && !dotted.ends_with("__main__"))
            .then_some(dotted)
    }
}

/// The first argument of an argument list `inner` (up to its first comma
/// outside brackets and strings), or all of it.
fn first_argument(inner: &str) -> &str {
    top_level(inner, ',').map_or(inner, |at| &inner[..at])
}

/// Where `wanted` first occurs in `text` outside strings and outside the
/// brackets that open in `text` (a `)` that closes one opened before it
/// is at the top).
fn top_level(text: &str, wanted: char) -> Option<usize> {
    let (mut depth, mut quote) = (0i32, None::<char>);
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match quote {
            Some(q) => match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, c) if c == q => quote = None,
                _ => {}
            },
            None if c == wanted && depth == 0 => return Some(at),
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            },
        }
    }
    None
}

/// `pick` of the facts of each of `files` (path and text), in order, from
/// one python3 start; `None` for a file that does not parse, and for all
/// when python3 cannot be run.
fn per_file<T>(files: &[(String, String)], pick: impl Fn(Facts) -> T) -> Vec<Option<T>> {
    let batch: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let mut all: Vec<Option<T>> = match facts::ask(&batch, None, false) {
        Some(answer) => answer
            .files
            .into_iter()
            .map(|f| f.error.is_none().then(|| pick(f)))
            .collect(),
        None => Vec::new(),
    };
    all.resize_with(files.len(), || None);
    all
}

/// The lines of `path` that `output` (a test run's, as Python and pytest
/// print a traceback: `test_inv.py:12: AssertionError`, `File
/// "/abs/test_inv.py", line 12`) points at, each once.
fn lines_pointed_at(output: &str, path: &str) -> Vec<u32> {
    let mut found: Vec<u32> = Vec::new();
    let named = |before: &str| {
        before == path
            || before.ends_with(&format!("/{path}"))
            || before.ends_with(&format!("\\{path}"))
    };
    for line in output.lines() {
        let line = line.trim();
        let place = line
            .split_once(".py:")
            .and_then(|(before, rest)| {
                let number = rest.split(':').next()?.parse().ok()?;
                Some((format!("{before}.py"), number))
            })
            .or_else(|| {
                let rest = line.strip_prefix("File \"")?;
                let (file, rest) = rest.split_once('"')?;
                let number = rest
                    .strip_prefix(", line ")?
                    .split(',')
                    .next()?
                    .trim()
                    .parse()
                    .ok()?;
                Some((file.to_string(), number))
            });
        if let Some((file, number)) = place
            && named(file.trim())
            && !found.contains(&number)
        {
            found.push(number);
        }
    }
    found
}

/// The name `path` is imported by from the top of the workspace:
/// `game.py` is `game`, `mathx/mul.py` is `mathx.mul`, `mathx/__init__.py`
/// is `mathx`; `None` when a part is not a name Python imports.
fn module_name(path: &str) -> Option<String> {
    let stem = path.strip_suffix(".py")?;
    let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
    let parts: Vec<&str> = stem.split('/').collect();
    let names = parts.iter().all(|part| {
        part.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_alphanumeric() || c == '_')
    });
    names.then(|| parts.join("."))
}

/// Whether `text`, a package's `__init__.py`, imports everything of its
/// module `module` (`mathx.add`, named `stem` in the package):
/// `from .add import *` or `from mathx.add import *`.
fn imports_all(text: &str, module: &str, stem: &str) -> bool {
    let relative = format!(".{stem}");
    text.lines().any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        matches!(words.as_slice(), ["from", from, "import", "*"] if *from == module || *from == relative)
    })
}

/// Whether `text` binds `name` by an import at its top: `from .add import
/// add`, `from mathx.add import add as add`, `import add`.
fn imports(text: &str, name: &str) -> bool {
    text.lines().any(|line| {
        let Some((_, names)) = line.split_once("import ") else {
            return false;
        };
        if !(line.starts_with("from ") || line.starts_with("import ")) {
            return false;
        }
        names
            .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
            .split(',')
            .map(|n| n.split(" as ").last().unwrap_or(n).trim())
            .any(|n| n == name)
    })
}

/// Whether a name starts at byte `at` of `text`: no letter, digit or `_`
/// before it, nor, for a `plain` name (not an attribute), a `.`
/// (`reader.input(` is no call of the builtin `input(`).
fn begins_name(text: &str, at: usize, plain: bool) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || (plain && c == '.'))
}

/// Whether the traceback that ends `output` is of `error`, raised at a line
/// whose source holds `reads`.
fn raised_reading(output: &str, error: &str, reads: &str) -> bool {
    let lines: Vec<&str> = output.lines().collect();
    let Some(last) = lines.iter().rposition(|line| !line.trim().is_empty()) else {
        return false;
    };
    if lines[last].trim().split(':').next() != Some(error) {
        return false;
    }
    let Some(frame) = lines[..last]
        .iter()
        .rposition(|line| line.trim_start().starts_with("File \""))
    else {
        return false;
    };
    lines
        .get(frame + 1)
        .is_some_and(|source| source.contains(reads))
}

/// The end (past its `)`) of the call whose `(` is at `open`, on its line,
/// strings skipped; `None` when it does not close there.
fn call_end(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (at, c) in text[open..].char_indices() {
        match (quote, c) {
            (_, '\n') => return None,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The section of pytest's output of its first failure that has `E` lines
/// (from its `____ name ____` line to the next one, or to the summary),
/// or the whole output when it has no sections: the message a failure is
/// told by is that failure's. t35's money-fix: the first failure's `E
/// assert 25 == 250` names no error, and the second's `E AssertionError:
/// ...` was told against a nested call of the wrong function.
fn first_failure(output: &str) -> &str {
    let header = |l: &str| {
        let l = l.trim_end();
        (l.starts_with("____") && l.ends_with("____"))
            || (l.starts_with("====") && l.ends_with("===="))
    };
    let mut start = None;
    let mut offset = 0;
    for line in output.split_inclusive('\n') {
        if header(line) {
            if let Some((at, true)) = start {
                return &output[at..offset];
            }
            start = Some((offset, false));
        } else if line.trim_start().starts_with("E ")
            && let Some((at, _)) = start
        {
            start = Some((at, true));
        }
        offset += line.len();
    }
    match start {
        Some((at, true)) => &output[at..],
        _ => output,
    }
}
