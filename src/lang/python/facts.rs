//! The facts `facts.py` (Python's `ast`) returns of Python files.

use serde::Deserialize;

use crate::lang::{Definition, Ignored, Unpassed, toolchain};

/// The script, run as `python3 -c`: one start for all the files of a review.
const SCRIPT: &str = include_str!("facts.py");

/// What the parser found in one file.
#[derive(Debug, Default, Deserialize)]
pub struct Facts {
    /// CPython's `SyntaxError`, when the file does not parse.
    pub error: Option<SyntaxError>,
    /// Top-level functions and classes.
    pub defs: Vec<Definition>,
    pub imports: Vec<Import>,
    /// Every module imported, at any depth (`import a.b`, `from a import
    /// x`), and whether any import is relative (`from . import x`).
    #[serde(default)]
    pub imported: Vec<String>,
    #[serde(default)]
    pub relative: bool,
    /// The top-level imports from a module beside it in its package
    /// (`from .add import add`): the module's name and the line.
    #[serde(default)]
    pub siblings: Vec<Sibling>,
    /// Test functions pytest collects: top-level `test*` and methods
    /// `test*` of classes.
    pub tests: Vec<Test>,
    /// Top-level functions decorated as fixtures.
    pub fixtures: Vec<String>,
    /// `assert LEFT == RIGHT`, anywhere.
    pub asserts: Vec<Assert>,
    /// unittest's `self.assertEqual(FIRST, SECOND)`, anywhere.
    #[serde(default)]
    pub equals: Vec<Equal>,
    /// Each `assertEqual` as an assert of its call (on either side) and the
    /// value it expects.
    #[serde(default)]
    pub equal_calls: Vec<Assert>,
    /// Asserts that a call is true or false (`assert f(1)`, `assert not
    /// f(1)`, `assertTrue`, `assertFalse`) of a call with literal
    /// arguments.
    #[serde(default)]
    pub truth_calls: Vec<TruthCall>,
    /// Names called as plain names (`f(...)`, not `m.f(...)`).
    pub calls: Vec<String>,
    /// Names called, plain or as an attribute (`f(...)`, `m.f(...)`).
    #[serde(default)]
    pub called: Vec<String>,
    /// Functions at any depth, and how many of them are placeholders.
    pub functions: usize,
    pub stubs: usize,
    /// `self.assert...(...)` in a `Test*` class with no base.
    pub unittest_calls: Vec<UnittestCall>,
    /// The names called by the statements at the top that do something
    /// when the file runs (`main` of an `if __name__ == "__main__":` block).
    #[serde(default)]
    pub runs: Vec<String>,
    /// A statement at the top does something when the file runs, not only
    /// definitions, imports and assignments without a call.
    #[serde(default)]
    pub runs_something: bool,
    /// The top-level functions that read the keyboard themselves: they
    /// call `input()`, at any depth of their body.
    #[serde(default)]
    pub keyboard: Vec<String>,
    /// argparse options added with no default (nor `required`, nor a
    /// flag's action): without the option they read None.
    #[serde(default)]
    pub unset_options: Vec<UnsetOption>,
    /// What a test of the file would call (see [`crate::lang::Language::public`]).
    #[serde(default)]
    pub public: Vec<(String, String)>,
    /// What a write changed of the file (see
    /// [`crate::lang::Language::shapes`]).
    #[serde(default)]
    pub shapes: Vec<(String, String)>,
    /// The source of its `if __name__ == "__main__":` block.
    #[serde(default)]
    pub main_block: Option<String>,
    /// Every name the top level binds: definitions, imports, assignments.
    pub bound: Vec<String>,
    /// Statements after a `return`, `raise`, `continue` or `break` in the
    /// same block.
    #[serde(default)]
    pub unreachable: Vec<Unreachable>,
    /// Loops over a range that return on every path of their first pass.
    #[serde(default)]
    pub first_pass: Vec<FirstPass>,
    /// Names a function sets only under an `if` with no `else` and reads
    /// after it.
    #[serde(default)]
    pub unbound: Vec<Unbound>,
    /// Names a function reads in the statement that first sets them.
    #[serde(default)]
    pub read_first: Vec<ReadFirst>,
    /// Names whose attribute is read that nothing in the file binds
    /// (`sys.argv` without `import sys`).
    #[serde(default)]
    pub undefined: Vec<Undefined>,
    /// Plain names read where Python finds nothing bound to them (a
    /// function's `name` no line of it sets), by scope.
    #[serde(default)]
    pub unset: Vec<NameAt>,
    /// Where the file assigns plain names, the first of each name and
    /// function.
    #[serde(default)]
    pub assigns: Vec<NameAt>,
    /// Top-level functions and classes defined again further down.
    #[serde(default)]
    pub redefined: Vec<Redefined>,
    /// Top-level functions that give no value: no `return` with one, no
    /// `yield`.
    #[serde(default)]
    pub valueless: Vec<String>,
    /// The first statement that reads the command line's arguments by
    /// position, and the edit that leaves the options out of them.
    #[serde(default)]
    pub positional: Option<crate::lang::Edit>,
    /// The one call of an argument parser given the whole command line,
    /// the program's own path first, and the edit that passes the
    /// arguments after it.
    #[serde(default)]
    pub own_path: Option<crate::lang::Edit>,
    /// The first method called on what `print(...)` returns (None), and
    /// the line with the call inside the print instead.
    #[serde(default)]
    pub printed_on: Option<crate::lang::Edit>,
    /// The first statement that only calls a method returning a new value
    /// (`s.upper()`, `parser.parse_args()`), whose value is lost, and the
    /// line that keeps it.
    #[serde(default)]
    pub discarded: Option<crate::lang::Edit>,
    /// Parameters with a default that no call in the file gives.
    #[serde(default)]
    pub unpassed: Vec<Unpassed>,
    /// Functions that never read a parameter of theirs.
    #[serde(default)]
    pub ignored: Vec<Ignored>,
    /// Functions whose body is another's (see [`Copy`]).
    #[serde(default)]
    pub copies: Vec<Copy>,
    /// Each top-level function with a body of its own, and a digest of
    /// that body (its own name written alike), for copies across files.
    #[serde(default)]
    pub bodies: Vec<Body>,
    /// Definitions inside a top-level function under the name of a
    /// top-level definition (see [`Nested`]).
    #[serde(default)]
    pub nested: Vec<Nested>,
}

/// A function or class defined inside a top-level function under the name
/// of one the file defines at its top: a copy pasted into the function.
#[derive(Debug, Deserialize)]
pub struct Nested {
    pub name: String,
    pub line: u32,
    /// The top-level function it sits in.
    pub within: String,
    /// The line of the top-level definition of that name.
    pub first: u32,
}

/// A function whose body, docstring aside, is that of one defined before
/// it in the same block.
#[derive(Debug, Deserialize)]
pub struct Copy {
    pub name: String,
    pub line: u32,
    /// The function it copies, and its line.
    pub of: String,
    pub first: u32,
}

/// A top-level function's body, as a digest (see [`Facts::bodies`]).
#[derive(Debug, Deserialize)]
pub struct Body {
    pub name: String,
    pub line: u32,
    pub key: String,
}

/// A top-level definition given a second time: the second replaces the
/// first when the module runs.
#[derive(Debug, Deserialize)]
pub struct Redefined {
    pub name: String,
    pub line: u32,
    pub first: u32,
}

/// A name set only when an `if` holds, read after it: unbound when it
/// does not.
#[derive(Debug, Deserialize)]
pub struct Unbound {
    pub name: String,
    pub function: String,
    /// The line of the `if`, and of the read.
    pub line: u32,
    pub read: u32,
}

/// A name a function reads in the statement that first sets it (nothing
/// binds it before in the function): `stack = stack.Stack()`, or `total +=
/// n` (`aug`). The line raises UnboundLocalError.
#[derive(Debug, Deserialize)]
pub struct ReadFirst {
    pub name: String,
    pub function: String,
    pub line: u32,
    pub aug: bool,
}

/// A `for` loop over a `range(...)` whose body returns or raises on every
/// path: it never goes past its first pass.
#[derive(Debug, Deserialize)]
pub struct FirstPass {
    pub line: u32,
    /// The loop's name (`i`) and the range's start (`1`), as written.
    pub name: String,
    pub start: String,
}

/// A name whose attribute the file reads, bound nowhere in it: the first
/// line that reads it.
#[derive(Debug, Deserialize)]
pub struct Undefined {
    pub name: String,
    pub line: u32,
    /// `import NAME` can work: a module of the standard library, or one
    /// python3 finds.
    #[serde(default)]
    pub module: bool,
}

/// A plain name at a line, in a function (`None`: at the file's top, or
/// in a scope of no name of its own).
#[derive(Debug, Deserialize)]
pub struct NameAt {
    pub name: String,
    pub line: u32,
    pub function: Option<String>,
}

/// A statement that can never run.
#[derive(Debug, Deserialize)]
pub struct Unreachable {
    pub line: u32,
    /// The line of the statement that ends the block before it, and its
    /// word (`return`).
    pub after: u32,
    pub word: String,
}

#[derive(Debug, Deserialize)]
pub struct SyntaxError {
    pub line: u32,
    pub message: String,
}

#[derive(Debug, Deserialize)]
pub struct Import {
    pub module: String,
    /// The names of `from module import a, b`; `None` for `import module`.
    pub names: Option<Vec<String>>,
}

/// `from .module import ...` at the top of a file.
#[derive(Debug, Deserialize)]
pub struct Sibling {
    pub module: String,
    pub line: u32,
}

#[derive(Debug, Deserialize)]
pub struct Test {
    pub name: String,
    pub line: u32,
    pub args: Vec<String>,
    /// The class it is a method of.
    pub class: Option<String>,
    /// Decorated with `parametrize` or `fixture`: its arguments are given.
    pub given: bool,
    /// The names it calls, plainly or as an attribute.
    #[serde(default)]
    pub called: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub struct Assert {
    pub line: u32,
    /// The source of the left side and of the right side.
    pub call: String,
    pub expected: String,
    /// The left side is a call whose arguments are all literals.
    pub pure: bool,
    /// The left side as a call of its function's name (`f(1)` of
    /// `module.f(1)`, of a module imported whole), when it is a call of a
    /// function with literal arguments.
    #[serde(default)]
    pub plain: Option<String>,
    /// The right side is a literal; `value` is its Python `repr`.
    pub literal: bool,
    pub value: Option<String>,
}

/// An argparse option added with no default: `--field`, read as
/// `field`, at line `line`.
#[derive(Debug, Deserialize)]
pub struct UnsetOption {
    pub option: String,
    pub dest: String,
    pub line: u32,
}

/// An assert that a call is true or false: the call as one of its
/// function's name (see [`Assert::plain`]) and `True` or `False`.
#[derive(Debug, Deserialize)]
pub struct TruthCall {
    pub call: String,
    pub expected: String,
}

/// An `assertEqual` call: the source of its two first arguments.
#[derive(Debug, Deserialize)]
pub struct Equal {
    pub first: String,
    pub second: String,
}

#[derive(Debug, Deserialize)]
pub struct UnittestCall {
    pub class: String,
    pub method: String,
    pub args: Vec<String>,
}

/// A text the script mended, and its facts.
#[derive(Debug, Deserialize)]
pub struct Mended {
    pub text: String,
    pub facts: Facts,
    /// What a repair mended (`apostrophes`, `else`).
    #[serde(default)]
    pub mended: Vec<String>,
    /// The import lines a mend put at the file's top (`import unittest`).
    #[serde(default)]
    pub added: Vec<String>,
    /// Those imports are all the mend changed.
    #[serde(default)]
    pub alone: bool,
}

/// The script's answer.
#[derive(Debug, Default, Deserialize)]
pub struct Answer {
    pub files: Vec<Facts>,
    /// The first file mended where Python could not read it (its
    /// apostrophes escaped, `if C: A else: B` split), when that makes it
    /// parse.
    pub repaired: Option<Mended>,
    /// `current` with its asserts replaced by the first file's, when the
    /// first file is only such asserts and the result parses.
    pub merged: Option<Mended>,
    /// The first file, a test file pytest would not run as written, mended
    /// (`self` left out of top-level tests that do not use it; a script's
    /// statements in one test function), when asked for (see [`ask`]); a
    /// module that imports from itself, without that import.
    #[serde(default)]
    pub wrapped: Option<Mended>,
    /// `current` with the first file's definitions put in, when asked for
    /// (see [`merge_definitions`]).
    #[serde(default)]
    pub definitions: Option<String>,
    /// The asserts of `wrapped` written to expect what code that stays as
    /// it is did (see [`Current::done`]), as they are now.
    #[serde(default)]
    pub as_done: Vec<String>,
}

impl Facts {
    /// The names the file defines at its top level.
    pub fn names(&self) -> Vec<String> {
        self.defs.iter().map(|d| d.name.clone()).collect()
    }

    pub fn defines(&self, name: &str) -> bool {
        self.defs.iter().any(|d| d.name == name)
    }

    pub fn calls(&self, name: &str) -> bool {
        self.calls.iter().any(|c| c == name)
    }
}

/// The text a write's first file replaces, for merging asserts, and the
/// lines of it the last failed test run pointed at; of a test file, what
/// the asserts that failed there found the calls did (see [`Done`]), and
/// the files that stay as they are whose calls those are.
#[derive(Debug, Clone, Copy)]
pub struct Current<'a> {
    pub text: &'a str,
    pub failing: &'a [u32],
    pub done: &'a [Done],
    pub kept: &'a [String],
}

/// A failed assert of the last test run (its statement as the test runner
/// showed it) and what its call did there: raised the error named
/// `raises`, returned `returned` (as Python writes the value), or gave
/// what the values the assert compared show (`compared`: `assert
/// 'Hello, ...' == 'Hello, World!'`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Done {
    pub statement: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raises: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared: Option<String>,
}

/// Asks Python's parser about `files` (path and text); `current` is what
/// the first file replaces (see [`Current`]); `test`: the first file is a
/// test file (a script of asserts is wrapped into a test). `None` when
/// `python3` is missing or fails.
pub fn ask(files: &[(&str, &str)], current: Option<Current<'_>>, test: bool) -> Option<Answer> {
    let files: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, text)| serde_json::json!({ "path": path, "text": text }))
        .collect();
    let request = serde_json::json!({
        "files": files,
        "current": current.map(|c| c.text),
        "failing": current.map_or(&[][..], |c| c.failing),
        "done": current.map_or(&[][..], |c| c.done),
        "kept": current.map_or(&[][..], |c| c.kept),
        "test": test,
    });
    answered(&request, "read the files; judging nothing")
}

/// `new`, a test file's text written over `old`, with the tests of `old`
/// it no longer defines and whose names are not in `failed` put back (top-
/// level ones with the fixtures they take, methods into their class, and
/// the imports they need), and the names put back; `None` when none is, or
/// Python cannot read either.
pub fn put_back(old: &str, new: &str, failed: &[String]) -> Option<(String, Vec<String>)> {
    #[derive(serde::Deserialize)]
    struct PutBack {
        text: String,
        names: Vec<String>,
    }
    #[derive(serde::Deserialize)]
    struct Answered {
        put_back: Option<PutBack>,
    }
    let request = serde_json::json!({
        "put_back": { "old": old, "new": new, "failed": failed },
    });
    let answer: Answered = answered(&request, "put the tests back")?;
    answer.put_back.map(|p| (p.text, p.names))
}

/// The script's answer to `request`, read as `T`; `None`, with a warning
/// that says what it could not do (`what`), when Python fails or its
/// answer does not read.
fn answered<T: serde::de::DeserializeOwned>(request: &serde_json::Value, what: &str) -> Option<T> {
    let output = toolchain::run("python3", &["-I", "-c", SCRIPT], None, &request.to_string())?;
    if !output.success {
        tracing::warn!(stderr = %output.stderr, "python3 could not {what}");
        return None;
    }
    serde_json::from_str(&output.stdout)
        .map_err(|error| tracing::warn!(%error, "python3's answer did not read ({what})"))
        .ok()
}

/// `current` with the definitions `fragment` gives put in: one of the same
/// name replaced where it is, a new one after the last definition, a new
/// import after the imports. `None` unless `fragment` is nothing but
/// definitions and imports and `current` defines something it does not or
/// runs something when it runs (a `__main__` block: a whole file, it would
/// lose that), or when the result does not parse;
/// `current` itself when the definitions are those it has. With `whole`,
/// also when `fragment` gives every definition of `current` (the new text
/// of an edit). A definition given again with only its docstrings left
/// out stays as it is; one `fragment` gives twice counts as its last.
pub fn merge_definitions(current: &str, fragment: &str, whole: bool) -> Option<String> {
    let request = serde_json::json!({
        "files": [{ "path": "", "text": fragment }],
        "current": current,
        "definitions": if whole { serde_json::json!("whole") } else { serde_json::json!(true) },
    });
    let answer: Answer = answered(&request, "merge the definitions")?;
    answer.definitions
}
