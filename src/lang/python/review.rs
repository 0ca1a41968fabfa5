//! The review of a Python write, decided from the parser's facts (see
//! `facts.py`): mistakes that make every test of a file fail before it
//! tests anything, told in the model's own terms. A small model does not
//! understand pytest's words for them ("fixture 'self' not found", "cannot
//! import name", "'module' object is not callable"): Qwen2.5-Coder 1.5B
//! wrote the same file again four times after one. Told what to change, it
//! changes it.

use super::facts::{Facts, Test};

/// Fixtures pytest itself gives a test function by name.
const PYTEST_FIXTURES: [&str; 16] = [
    "cache",
    "capfd",
    "capfdbinary",
    "caplog",
    "capsys",
    "capsysbinary",
    "doctest_namespace",
    "monkeypatch",
    "pytestconfig",
    "record_property",
    "record_testsuite_property",
    "record_xml_attribute",
    "recwarn",
    "request",
    "tmp_path",
    "tmpdir",
];

/// A module of the workspace as the review reads it: its name (`game`)
/// and facts.
pub struct Module<'a> {
    /// As it is imported: `game`, `mathx.mul`.
    pub name: String,
    pub path: &'a str,
    pub facts: &'a Facts,
}

/// What a review reads: the write and the workspace's modules.
pub struct Write<'a> {
    pub path: &'a str,
    pub content: &'a str,
    pub facts: &'a Facts,
    pub is_test: bool,
    /// The file as it is now defines tests (`def test...`).
    pub had_tests: bool,
    /// The modules the file may import (`game` for `game.py`).
    pub modules: &'a [Module<'a>],
    /// The names of the modules this run wrote: a test calling what they
    /// define must import it.
    pub written: &'a [String],
    pub conftest: Option<&'a Facts>,
    /// The facts of the file as it is, when it is there.
    pub was: Option<&'a Facts>,
    /// Its text.
    pub was_text: Option<&'a str>,
    /// The file was there before the run (the user's, not a draft of the
    /// run's own).
    pub existed: bool,
    /// The calls the goal's words give the value of (see
    /// [`crate::lang::Workspace::goal_examples`]).
    pub examples: &'a [(String, String)],
}

/// For CPython's "expected an indented block after ... on line N": that
/// line, and where the lines of its block go. r1's add-tests wrote each
/// `def test_...` indented as far as its body, three writes in a row, told
/// only the line after it.
fn opened_block(content: &str, message: &str) -> Option<String> {
    let rest = message.strip_prefix("expected an indented block after ")?;
    let number: u32 = rest.rsplit_once("on line ")?.1.trim().parse().ok()?;
    let opener = line(content, number);
    let indent = opener.len() - opener.trim_start().len();
    let placed = match indent {
        0 => String::new(),
        n => format!(
            "; or, when it is not meant to be inside the block above it, start it {n} \
             spaces to the left"
        ),
    };
    Some(format!(
        " (line {number}, `{}`, opens a block: indent the lines of its body more than it{placed})",
        opener.trim()
    ))
}

/// A module of a package that imports from itself (`from .words import *`
/// at the top of `words.py`), which the file as it is does not: it is to
/// define what it holds, and that import gives it nothing. t8's textkit
/// wrote its `__init__.py`'s two imports as the whole of
/// `textkit/reverse_words.py`, and no file defined `reverse_words`.
fn from_itself(write: &Write) -> Option<String> {
    let path = write.path;
    let file = path.rsplit('/').next()?;
    let stem = file.strip_suffix(".py")?;
    let own = write.facts.siblings.iter().find(|s| s.module == stem)?;
    let had = write
        .was
        .is_some_and(|was| was.siblings.iter().any(|s| s.module == stem));
    (!had).then(|| {
        format!(
            "{path} imports from itself: line {} (`{}`) reads {file}'s own names, which gives it \
             nothing. The imports of the package's modules go in its __init__.py; give the whole \
             of {file} with the code it is to hold (its functions, each with `def`).",
            own.line,
            line(write.content, own.line).trim(),
        )
    })
}

/// A package's own file that imports from the package, names it does not
/// define (`from wordplay import is_anagram` as `wordplay/__init__.py`):
/// `import wordplay` finds the folder, so the file reads itself, and the
/// import fails ("cannot import name ... from partially initialized
/// module"). t83's wordplay and distance wrote it where a module of the
/// package's name was there too (`wordplay.py`). A file that had such an
/// import before is the project's.
fn from_its_package(write: &Write) -> Option<String> {
    let path = write.path;
    let package = path.strip_suffix("/__init__.py")?.replace('/', ".");
    let defined = |name: &String| write.facts.defs.iter().any(|d| d.name == *name);
    let import = write.facts.imports.iter().find(|import| {
        import.module == package
            && import
                .names
                .as_ref()
                .is_some_and(|names| !names.iter().all(defined))
    })?;
    let had = write
        .was
        .is_some_and(|was| was.imports.iter().any(|i| i.module == package));
    let names = import.names.as_ref()?.join(", ");
    (!had).then(|| {
        format!(
            "{path} is the package {package} itself: `from {package} import {names}` in it reads \
             the package from itself, which gives it nothing (`import {package}` finds the \
             folder, not a module beside it). Give the whole of {path} with the code it is to \
             give (its functions, each with `def`), or import them from a module inside the \
             folder (`from .name import ...`)."
        )
    })
}

/// Why the write should not happen, with what to write instead when known.
pub fn problem(write: &Write) -> Option<(String, Option<String>)> {
    let path = write.path;
    if let Some(error) = &write.facts.error {
        let hint = if error.message.starts_with("unterminated string") {
            " (a ' inside a string in '...' ends it: write such a string in the other quotes, \
             \"It's\" or 'say \"hi\"')"
                .to_string()
        } else if error.message.contains("cannot include a backslash") {
            // t57's show-numbers: `f'{i}: {line.rstrip("\n")}'` in seven
            // answers, refused each time with CPython's words alone.
            " (this Python cannot have a backslash inside an f-string's {...}: set a variable \
             to that value on the line before, and put the variable in the braces)"
                .to_string()
        } else {
            opened_block(write.content, &error.message).unwrap_or_default()
        };
        return Some((
            format!(
                "Python cannot read {path}: line {} (`{}`): {}{hint}. Give the whole file with \
                 that line fixed.",
                error.line,
                line(write.content, error.line),
                error.message
            ),
            None,
        ));
    }
    if let Some(own) = from_itself(write).or_else(|| from_its_package(write)) {
        return Some((own, None));
    }
    let had = write.was.map_or(0, |was| was.unreachable.len());
    if write.facts.unreachable.len() > had
        && let Some(dead) = write.facts.unreachable.first()
    {
        return Some((
            format!(
                "line {} of {path} (`{}`) can never run: it comes after the `{}` on line {} \
                 (`{}`) in the same block. Remove it, or put it where it can run; when the code \
                 already does what you meant, it needs no change.",
                dead.line,
                line(write.content, dead.line).trim(),
                dead.word,
                dead.after,
                line(write.content, dead.after).trim(),
            ),
            None,
        ));
    }
    let had = write.was.map_or(0, |was| was.first_pass.len());
    if write.facts.first_pass.len() > had
        && let Some(once) = write.facts.first_pass.first()
    {
        return Some((
            format!(
                "in {path}, the loop on line {} (`{}`) returns on every path of its body, so it \
                 never goes past its first pass: `{}` is only ever {}. A value the function is \
                 given needs no loop over a range; a loop that goes through the range must let \
                 the passes that are not done go on, and return after it.",
                once.line,
                line(write.content, once.line).trim(),
                once.name,
                once.start,
            ),
            None,
        ));
    }
    if let Some(stray) = stray_method(write) {
        return Some((stray, None));
    }
    // A name the file as it is already leaves undefined is the project's.
    if let Some(missing) = write.facts.undefined.iter().find(|u| {
        write
            .was
            .is_none_or(|was| !was.undefined.iter().any(|w| w.name == u.name))
    }) {
        let dropped = write.was.is_some_and(|was| {
            was.imports
                .iter()
                .any(|i| i.names.is_none() && i.module.split('.').next() == Some(&missing.name))
        });
        // A name the file as it is sets (a test's `inv = Inventory()`)
        // is no module to import: p2's add-tests model, told to begin its
        // file with `import inv`, wrote a test of a module `inv`.
        let set = (!dropped)
            .then(|| {
                let assigned = format!("{} = ", missing.name);
                write
                    .was_text?
                    .lines()
                    .map(str::trim)
                    .find(|l| l.starts_with(&assigned))
            })
            .flatten();
        // A module of the workspace, or one python3 can import.
        let module = missing.module
            || write
                .modules
                .iter()
                .any(|m| m.name.split('.').next() == Some(missing.name.as_str()));
        let fix = match set {
            Some(set) => format!(
                "The file as it is sets it (`{set}`): keep the line that sets it before the \
                 lines that read it; to change one assert, give the whole test function it is in"
            ),
            None if module || dropped => format!(
                "Begin the file with {}",
                begin_with(write.content, &format!("import {}", missing.name))
            ),
            None => format!(
                "No module is named `{name}`, so importing it would fail too: set `{name}` \
                 before that line (`{name} = ...`), or read what the file already has",
                name = missing.name
            ),
        };
        return Some((
            format!(
                "`{name}` is not defined in {path}: line {} (`{}`) reads from it, and nothing in \
                 the file imports or sets `{name}`{}, so that line raises NameError. {fix}.",
                missing.line,
                line(write.content, missing.line).trim(),
                match dropped {
                    true => format!(" (this write drops the `import {}` it had)", missing.name),
                    false => String::new(),
                },
                name = missing.name,
            ),
            None,
        ));
    }
    // A name the file as it is already leaves so is the project's, and a
    // function a module of the workspace defines is the import checks'.
    if let Some(unset) = write.facts.unset.iter().find(|u| {
        write.was.is_none_or(|was| {
            !was.unset
                .iter()
                .any(|w| w.name == u.name && w.function == u.function)
        }) && !write.modules.iter().any(|m| m.facts.defines(&u.name))
    }) {
        let name = &unset.name;
        let (place, nothing) = match &unset.function {
            Some(function) => (
                format!(" in {function}"),
                format!("nothing in {function}, nor at the top of the file, sets it"),
            ),
            None => (String::new(), "nothing in the file sets it".to_string()),
        };
        // The line of the file as it is that set it there, which this
        // write leaves out.
        let kept = write
            .was
            .zip(write.was_text)
            .and_then(|(was, text)| {
                let set = was
                    .assigns
                    .iter()
                    .find(|a| a.name == *name && a.function == unset.function)?;
                Some(format!(
                    " The file as it is sets it{place} at line {} (`{}`): keep that line.",
                    set.line,
                    line(text, set.line).trim()
                ))
            })
            .unwrap_or_else(|| format!(" Set `{name}` before that line."));
        return Some((
            format!(
                "`{name}` is never set{place} in {path}: line {} (`{}`) reads it, and {nothing}, \
                 so that line raises NameError.{kept}",
                unset.line,
                line(write.content, unset.line).trim(),
            ),
            None,
        ));
    }
    // A name the file as it is already leaves so is the project's.
    if let Some(unset) = write.facts.unbound.iter().find(|u| {
        write.was.is_none_or(|was| {
            !was.unbound
                .iter()
                .any(|w| w.name == u.name && w.function == u.function)
        })
    }) {
        return Some((
            format!(
                "in {path}, `{name}` is set only when the `if` on line {} holds (`{}`), and \
                 line {} reads it: when it does not hold, `{}` raises UnboundLocalError. Give \
                 `{name}` its value for that case before the `if` (or in an `else`).",
                unset.line,
                line(write.content, unset.line).trim(),
                unset.read,
                unset.function,
                name = unset.name,
            ),
            None,
        ));
    }
    // A name the file as it is already reads so is the project's.
    if let Some(first) = write.facts.read_first.iter().find(|r| {
        write.was.is_none_or(|was| {
            !was.read_first
                .iter()
                .any(|w| w.name == r.name && w.function == r.function)
        })
    }) {
        let (name, function) = (&first.name, &first.function);
        let shown = line(write.content, first.line).trim();
        return Some((
            match first.aug {
                true => format!(
                    "in {path}, line {} (`{shown}`) adds to `{name}` in {function} before \
                     anything in {function} sets it, so it raises UnboundLocalError. Set \
                     `{name}` in {function} before that line (`{name} = 0`, or what it starts \
                     from).",
                    first.line,
                ),
                false => format!(
                    "in {path}, line {} (`{shown}`) reads `{name}` in the line that sets it in \
                     {function}: Python takes `{name}` there for {function}'s own, not set yet \
                     (not the `{name}` of the file's top), so the line raises \
                     UnboundLocalError. Give the variable a name of its own (not `{name}`) \
                     and use that name after it.",
                    first.line,
                ),
            },
            None,
        ));
    }
    let entry = write.was.and_then(|was| {
        let entry = was
            .runs
            .iter()
            .find(|name| write.facts.defines(name.as_str()))?;
        Some((entry, was.main_block.as_deref()))
    });
    // Nothing runs, or something else runs and the entry is called nowhere
    // (a cli-flag run replaced `if __name__ == "__main__": main(sys.argv)`
    // with `greeting('world', shout=True)`: the program printed nothing).
    // Of a file there before the run only: a draft of the run's own may
    // drop what ran it (a fizzbuzz run's change from printing to returning
    // dropped its `__main__` block, and was refused until the rounds ran
    // out).
    if !write.is_test
        && write.existed
        && let Some((entry, block)) = entry
        && (!write.facts.runs_something || !write.facts.calls.contains(entry))
    {
        let keep = match block {
            Some(block) => format!("end {path} with the lines that run it now:\n{block}"),
            None => {
                format!("end {path} with `if __name__ == \"__main__\":` and the call of {entry}.")
            }
        };
        let would = match write.facts.runs_something {
            true => format!("would no longer run {entry}"),
            false => "would do nothing when it runs".to_string(),
        };
        return Some((
            format!(
                "{path} {would}: the file as it is calls `{entry}()` at its top, and this \
                 content defines {entry} but never calls it. Keep what runs it: {keep}"
            ),
            None,
        ));
    }
    let had = write.was.map_or(0, |was| was.redefined.len());
    if write.facts.redefined.len() > had
        && let Some(again) = write.facts.redefined.first()
    {
        return Some((
            format!(
                "{path} would define `{}` twice (lines {} and {}): the second replaces the \
                 first. Keep one `{}`, and each other definition once.",
                again.name, again.first, again.line, again.name
            ),
            None,
        ));
    }
    // A nesting the file had is the project's; only a new one is refused.
    if let Some(inner) = write.facts.nested.iter().find(|inner| {
        write.was.is_none_or(|was| {
            !was.nested
                .iter()
                .any(|w| w.name == inner.name && w.within == inner.within)
        })
    }) {
        let (name, within) = (&inner.name, &inner.within);
        return Some((
            format!(
                "{path} would define `{name}` again inside `{within}` (line {}), where the file \
                 defines `{name}` at its top (line {}): the copy inside `{within}` is not the one \
                 the file uses, and its lines would be in the file twice. Keep the one `{name}` \
                 at the top and change it there; an edit's `new` holds only the lines that take \
                 the place of its `old`, and goes in at their indentation.",
                inner.line, inner.first,
            ),
            None,
        ));
    }
    // A method called on what `print` returns; one the file had is the
    // project's.
    if let Some(edit) = &write.facts.printed_on
        && write.was.is_none_or(|was| was.printed_on.is_none())
    {
        return Some((
            format!(
                "line {} of {path} calls a method on what `print(...)` returns, and print \
                 returns None (AttributeError: 'NoneType' object has no attribute ...): call it \
                 inside the print. Write that line as:\n{}",
                edit.line,
                edit.new.trim_start()
            ),
            None,
        ));
    }
    // A call whose value is thrown away; one the file had is the project's.
    if let Some(edit) = &write.facts.discarded
        && write.was.is_none_or(|was| was.discarded.is_none())
    {
        return Some((
            format!(
                "line {} of {path} (`{}`) throws away what the call returns: that method \
                 returns a new value and leaves what it is called on as it was. Keep the value. \
                 Write that line as:\n{}",
                edit.line,
                edit.old.trim(),
                edit.new.trim_start()
            ),
            None,
        ));
    }
    // A copy the file had is the project's; only a new one is refused.
    if !write.is_test
        && let Some(copy) = write.facts.copies.iter().find(|copy| {
            write
                .was
                .is_none_or(|was| !was.copies.iter().any(|c| c.name == copy.name))
        })
    {
        return Some((
            format!(
                "`{}` (line {} of {path}) would do exactly what `{}` (line {}) does: its body is \
                 a copy of `{}`'s. Give `{}` the body that does what it must, and keep `{}` as \
                 it is.",
                copy.name, copy.line, copy.of, copy.first, copy.of, copy.name, copy.of
            ),
            None,
        ));
    }
    // The same across files: t37's mathkit wrote `lcm` in mathkit/lcm.py
    // with the body of `gcd` in mathkit/gcd.py, and tests that expected
    // the gcd's values of it.
    if !write.is_test
        && let Some((body, module, of)) = write.facts.bodies.iter().find_map(|body| {
            let had = write.was.is_some_and(|was| {
                was.bodies
                    .iter()
                    .any(|b| b.name == body.name && b.key == body.key)
            });
            (!had).then_some(())?;
            write
                .modules
                .iter()
                .filter(|module| module.path != path)
                .find_map(|module| {
                    let of = module
                        .facts
                        .bodies
                        .iter()
                        .find(|b| b.key == body.key && b.name != body.name)?;
                    Some((body, module, of))
                })
        })
    {
        return Some((
            format!(
                "`{}` (line {} of {path}) would do exactly what `{}` (line {} of {}) does: its \
                 body is a copy of `{}`'s. Give `{}` the body that does what it must, and keep \
                 `{}` as it is.",
                body.name, body.line, of.name, of.line, module.path, of.name, body.name, of.name
            ),
            None,
        ));
    }
    if !write.is_test && !write.had_tests && !write.facts.tests.is_empty() {
        let name = path.rsplit('/').next().unwrap_or(path);
        let stem = name.trim_end_matches(".py");
        return Some((
            format!(
                "{path} is not a test file: pytest collects tests only from files named \
                 test_*.py or *_test.py, so its {} test function(s) would never run. Keep {path} \
                 for the code, without tests, and write the tests in test_{stem}.py, which \
                 imports what it tests from {stem}.",
                write.facts.tests.len()
            ),
            None,
        ));
    }
    if write.is_test && write.facts.tests.is_empty() {
        // The module the file is named for (`inventory` of
        // test_inventory.py) first, whether this run wrote it or not: p1's
        // add-tests model wrote inventory.py's class into its tests five
        // times, told only to write functions named test_...
        let subjects = crate::lang::Language::subjects(&super::Python, path);
        let is_subject = |m: &&Module| subjects.iter().any(|s| s == m.path);
        let mut modules: Vec<&Module> = write.modules.iter().filter(|m| is_subject(m)).collect();
        modules.extend(
            write
                .modules
                .iter()
                .filter(|m| write.written.contains(&m.name) && !is_subject(m)),
        );
        let copied = modules.iter().find_map(|m| copied_from(write, m));
        // A function of its own that is no test by its name: t27's
        // textcase wrote `def snake_test_suite():` over a list of cases,
        // four times, told only that the file defines no test.
        let unnamed = write
            .facts
            .defs
            .iter()
            .find(|d| d.kind == "def" && !modules.iter().any(|m| m.facts.defines(&d.name)))
            .map(|d| {
                format!(
                    " `{}` is no test to pytest: only functions whose names begin with test_ \
                     are.",
                    d.name
                )
            });
        return Some((
            format!(
                "{path} is a test file but defines no test, so pytest would find nothing in it.{} \
                 Write functions named test_... that import what they test and assert what it \
                 returns.{}",
                unnamed.unwrap_or_default(),
                copied.unwrap_or_default()
            ),
            modules
                .iter()
                .find_map(|m| test_start(&m.name, m.facts, write.examples)),
        ));
    }
    if write.is_test
        && let Some(problem) = test_problem(write)
    {
        return Some((
            format!("in {path}, {problem}. Give the whole file with that changed."),
            None,
        ));
    }
    let facts = write.facts;
    if facts.functions > 0 && facts.stubs == facts.functions {
        return Some((
            format!(
                "every function in {path} is a placeholder (its body is only `pass`, `...` or a \
                 comment). Write the code that does the work{}.",
                match write.is_test {
                    true => ": call the functions under test and assert what they return",
                    false => "",
                }
            ),
            None,
        ));
    }
    None
}

/// The first lines of a test file for module `name`: the import of what it
/// defines and one test to fill in, or, for a function the goal's words
/// give calls of (`examples`, see [`crate::lang::Workspace::goal_examples`]),
/// one that asserts them. `None` when it defines nothing.
pub fn test_start(name: &str, module: &Facts, examples: &[(String, String)]) -> Option<String> {
    let of = |def: &str| -> Vec<String> {
        examples
            .iter()
            .filter(|(call, _)| crate::lang::examples::call_name(call) == Some(def))
            .take(2)
            .map(|(call, value)| format!("    assert {call} == {value}"))
            .collect()
    };
    let given = module
        .defs
        .iter()
        .filter(|d| d.kind == "def")
        .find_map(|d| Some((d, Some(of(&d.name)).filter(|a| !a.is_empty())?)));
    let (first, asserts) = match given {
        Some((def, asserts)) => (def, Some(asserts.join("\n"))),
        None => (module.defs.first()?, None),
    };
    let test = match (first.kind.as_str(), asserts) {
        (_, Some(asserts)) => asserts,
        ("class", None) => {
            let object = first.name.to_lowercase();
            format!(
                "    {object} = {}()\n    assert {object}.METHOD(ARGUMENTS) == EXPECTED",
                first.name
            )
        }
        (_, None) => format!("    assert {}(ARGUMENTS) == EXPECTED", first.name),
    };
    Some(format!(
        "from {name} import {}\n\n\ndef test_{}():\n{test}",
        module.names().join(", "),
        first.name.to_lowercase()
    ))
}

/// ` It defines `Inventory` again, as inventory.py does: import it ...`
/// when the test file `write` defines a name module `m` defines.
fn copied_from(write: &Write, m: &Module) -> Option<String> {
    let names: Vec<String> = write
        .facts
        .defs
        .iter()
        .filter(|d| m.facts.defs.iter().any(|def| def.name == d.name))
        .map(|d| format!("`{}`", d.name))
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            " It defines {} again, as {} does: import {} from {} instead of copying it.",
            names.join(", "),
            m.path,
            if names.len() == 1 { "it" } else { "them" },
            m.name
        )
    })
}

/// A test file that defines again a function of the code it tests (the
/// module it is named for, or one this run wrote) and calls it: its tests
/// call that copy, and pass whatever the code does. t85's wordplay wrote
/// `is_anagram` and `reverse_words` into test_wordplay.py above its
/// tests; pytest passed, and a cycle was spent on tests that call the
/// package. A copy the file had is the project's.
fn copies_under_test(write: &Write) -> Option<String> {
    let subjects = crate::lang::Language::subjects(&super::Python, write.path);
    let tested = |m: &&Module| {
        m.path != write.path
            && (subjects.iter().any(|s| s == m.path) || write.written.contains(&m.name))
    };
    let had = |name: &str| {
        write
            .was
            .is_some_and(|was| was.defs.iter().any(|d| d.name == name))
    };
    write
        .modules
        .iter()
        .filter(tested)
        .filter(|m| {
            write.facts.defs.iter().any(|d| {
                d.kind == "def"
                    && !had(&d.name)
                    && m.facts.defines(&d.name)
                    && write.facts.calls.contains(&d.name)
            })
        })
        .find_map(|m| copied_from(write, m))
        .map(|copied| {
            format!(
                "its tests would call its own copy, not the code, and pass whatever the code \
                 does.{}",
                copied.trim_end_matches('.')
            )
        })
}

/// A function new at the top level of a source file, below a class,
/// whose first parameter is `self`: a method written outside its class.
/// t90's add-method edited `def perimeter(self):` in at the left margin
/// under `class Rectangle`; `Rectangle(3, 4).perimeter()` raised
/// AttributeError, and the run spent its rounds on tests of it.
fn stray_method(write: &Write) -> Option<String> {
    if write.is_test {
        return None;
    }
    let defs = &write.facts.defs;
    let had = |name: &str| write.was.is_some_and(|was| was.defines(name));
    let selfish = |signature: &str| {
        let (_, parameters) = signature.split_once('(')?;
        let first = parameters.split([',', ')', ':', '=']).next()?.trim();
        Some(first == "self")
    };
    defs.iter()
        .filter(|d| d.kind == "def" && !had(&d.name) && selfish(&d.signature) == Some(true))
        .find_map(|stray| {
            let class = defs
                .iter()
                .rfind(|d| d.kind == "class" && d.line < stray.line)?;
            Some(format!(
                "in {path}, `{}` (line {}) is at the top level, outside the class {class}: with \
                 `self` first it is meant as a method of {class}, and `{class}(...).{name}()` \
                 would raise AttributeError. Indent the whole `def {name}` under the class, as \
                 its other methods are, and give the whole file.",
                line(write.content, stray.line).trim(),
                stray.line,
                path = write.path,
                class = class.name,
                name = stray.name,
            ))
        })
}

/// What keeps a test file from testing anything.
fn test_problem(write: &Write) -> Option<String> {
    let facts = write.facts;
    if let Some(test) = facts
        .tests
        .iter()
        .find(|t| t.class.is_none() && t.args.first().is_some_and(|a| a == "self"))
    {
        let line = line(write.content, test.line);
        let fixed = line.replacen("(self, ", "(", 1).replacen("(self)", "()", 1);
        return Some(format!(
            "`{}` is not inside a class, so pytest has no `self` to give it (\"fixture 'self' \
             not found\"): write `{}`",
            line.trim(),
            fixed.trim()
        ));
    }
    contradiction(facts)
        .or_else(|| copies_under_test(write))
        .or_else(|| unittest_asserts(facts))
        .or_else(|| unprovided_arguments(write))
        .or_else(|| missing_imports(write))
        .or_else(|| unimported_calls(write))
        .or_else(|| asserts_nothing(write))
}

/// `assert f(...) == None` of a function of the workspace that gives no
/// value: it passes whatever `f` does. A fizzbuzz run whose `fizzbuzz`
/// printed instead of returning had its tests made `assert fizzbuzz(1) ==
/// None`, pytest passed, and the run said "Goal achieved".
fn asserts_nothing(write: &Write) -> Option<String> {
    write.facts.asserts.iter().find_map(|assert| {
        if assert.value.as_deref() != Some("None") {
            return None;
        }
        let name = assert.call.split('(').next()?.trim();
        if write.facts.defs.iter().any(|d| d.name == name) {
            return None;
        }
        let module = write
            .modules
            .iter()
            .find(|m| m.facts.valueless.iter().any(|v| v == name))?;
        Some(format!(
            "line {} asserts `{} == None`, but {name} in {} gives no value (no `return` with \
             one), so the assert passes whatever it does and tests nothing. Assert the value \
             the goal says {name} gives, and make {name} return it",
            assert.line, assert.call, module.path
        ))
    })
}

/// Two asserts of the same call with literal arguments that expect
/// different literal results: one of them fails whatever the code does.
/// Qwen2.5-Coder 1.5B writes a block of asserts, then the block again with
/// the results changed, and cannot find which line to drop.
fn contradiction(facts: &Facts) -> Option<String> {
    let pure: Vec<_> = facts
        .asserts
        .iter()
        .filter(|a| a.pure && a.literal)
        .collect();
    for (at, later) in pure.iter().enumerate() {
        if let Some(before) = pure[..at]
            .iter()
            .find(|b| b.call == later.call && b.value != later.value)
        {
            return Some(format!(
                "line {} and line {} both assert `{}`, expecting {} and {}: it returns one \
                 thing, so one of them fails whatever the code does. Keep the right one and \
                 drop the other",
                before.line, later.line, later.call, before.expected, later.expected
            ));
        }
    }
    None
}

/// `self.assertEqual(...)` in a test class that is not a
/// `unittest.TestCase`: every test fails with "object has no attribute".
fn unittest_asserts(facts: &Facts) -> Option<String> {
    let call = facts.unittest_calls.first()?;
    let example = match (call.method.as_str(), call.args.as_slice()) {
        ("self.assertEqual", [a, b]) => format!(": write `assert {a} == {b}`"),
        _ => ": write plain `assert` statements".into(),
    };
    Some(format!(
        "class {} is not a unittest.TestCase, so it has no `{}` (\"object has no attribute\"). \
         Use pytest's plain asserts{example}",
        call.class, call.method
    ))
}

/// A top-level test function with parameters that nothing provides (no
/// fixture of that name here or in conftest.py, no `parametrize`, not one
/// of pytest's own): "fixture 'a' not found". Qwen2.5-Coder 1.5B wrote
/// `def test_play(player1, player2)` for a `play(player1, player2)`.
fn unprovided_arguments(write: &Write) -> Option<String> {
    let given = |name: &str| {
        write.facts.fixtures.iter().any(|f| f == name)
            || PYTEST_FIXTURES.contains(&name)
            || write
                .conftest
                .is_some_and(|c| c.fixtures.iter().any(|f| f == name))
    };
    let missing =
        |test: &Test| -> Vec<String> { test.args.iter().filter(|a| !given(a)).cloned().collect() };
    let (test, missing) = write
        .facts
        .tests
        .iter()
        .filter(|t| t.class.is_none() && !t.given)
        .map(|t| (t, missing(t)))
        .find(|(_, missing)| !missing.is_empty() && !missing.iter().any(|m| m == "self"))?;
    let (them, names) = match missing.len() {
        1 => ("it", "that name"),
        _ => ("them", "those names"),
    };
    Some(format!(
        "`{}` takes {} but nothing gives {them}: pytest looks for fixtures of {names} and fails \
         (\"fixture '{}' not found\"). A test takes no arguments: write `def {}():` and write the \
         values into the calls in its body",
        line(write.content, test.line).trim(),
        missing.join(", "),
        missing[0],
        test.name
    ))
}

/// `from game import x` where game.py binds no `x`: "cannot import name".
fn missing_imports(write: &Write) -> Option<String> {
    write.facts.imports.iter().find_map(|import| {
        let names = import.names.as_ref()?;
        let module = write.modules.iter().find(|m| m.name == import.module)?;
        // `from .add import *` may bind anything: a package's
        // `__init__.py` so written (the runner's own package hint) gave a
        // test's `from mathx import add` as missing.
        if module.facts.bound.iter().any(|b| b == "*") {
            return None;
        }
        let missing: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| *n != "*" && !module.facts.bound.iter().any(|b| b == n))
            .collect();
        if missing.is_empty() {
            return None;
        }
        let defined = module.facts.names();
        // Where the first missing name is defined, when another module has it.
        let elsewhere = write
            .modules
            .iter()
            .find(|m| m.name != module.name && m.facts.defines(missing[0]))
            .map(|m| {
                format!(
                    " {} is in {}: `from {} import {}`.",
                    missing[0], m.path, m.name, missing[0]
                )
            })
            .unwrap_or_default();
        Some(format!(
            "{} has no {}: it defines {}.{elsewhere} Import what it defines: `from {} import {}`",
            module.path,
            missing.join(", "),
            match defined.is_empty() {
                true => "no function".to_string(),
                false => defined.join(", "),
            },
            module.name,
            defined.join(", ")
        ))
    })
}

/// A module of the run called as a function (`import rps` then `rps(...)`),
/// or its functions called without an import.
fn unimported_calls(write: &Write) -> Option<String> {
    let facts = write.facts;
    for module in write.modules {
        if !write.written.contains(&module.name) {
            continue;
        }
        let name = module.name.as_str();
        let functions = module.facts.names();
        let plain = facts
            .imports
            .iter()
            .any(|i| i.module == name && i.names.is_none());
        let from = facts
            .imports
            .iter()
            .any(|i| i.module == name && i.names.is_some());
        if plain && module.facts.defines(name) && facts.calls(name) {
            return Some(format!(
                "`import {name}` gives the module {name}, so `{name}(...)` calls a module (\"'module' \
                 object is not callable\"): write `from {name} import {}`",
                functions.join(", ")
            ));
        }
        // A star import (`from mathx import *`) may give any name: what
        // it gives is the other module's matter (d1's package was refused
        // six times for a test that imported the package's star).
        let starred = facts.bound.iter().any(|b| b == "*");
        if !plain
            && !from
            && !starred
            && let Some(first) = functions
                .iter()
                .find(|f| facts.calls(f) && !facts.bound.contains(f))
        {
            return Some(format!(
                "it calls {first} but does not import it from {}: begin it with {}",
                module.path,
                begin_with(
                    write.content,
                    &format!("from {name} import {}", functions.join(", "))
                )
            ));
        }
    }
    None
}

/// How a file is told to begin with `import`: the line alone, or, when
/// the file imports other things, the line and those imports as the
/// file's first lines. Told only "begin the file with `import unittest`",
/// Qwen2.5-Coder 1.5B put it in place of its `from fizzbuzz import
/// fizzbuzz`, was refused for that, and went back and forth between the
/// two until the loop guard failed the subtask (k1's fizzbuzz).
fn begin_with(content: &str, import: &str) -> String {
    let kept: Vec<&str> = content
        .lines()
        .map(str::trim_end)
        .filter(|l| (l.starts_with("import ") || l.starts_with("from ")) && *l != import)
        .collect();
    if kept.is_empty() {
        return format!("`{import}`");
    }
    // `from __future__` must stay the first statement.
    let (future, rest): (Vec<&str>, Vec<&str>) =
        kept.iter().partition(|l| l.starts_with("from __future__ "));
    let lines: Vec<&str> = future.into_iter().chain([import]).chain(rest).collect();
    let lines: Vec<String> = lines.iter().map(|l| format!("`{l}`")).collect();
    format!(
        "`{import}` and keep the imports it has, so that its first lines are {}",
        lines.join(" then ")
    )
}

/// Line `number` (1-based) of `text`, without its end.
fn line(text: &str, number: u32) -> &str {
    text.lines()
        .nth((number as usize).saturating_sub(1))
        .unwrap_or("")
        .trim_end()
}
