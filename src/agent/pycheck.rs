//! Mistakes in a Python test file that make every test of it fail before it
//! tests anything, found before the file is written. A small model makes
//! them, and does not understand pytest's words for them ("fixture 'self'
//! not found", "cannot import name", "'module' object is not callable"):
//! Qwen2.5-Coder 1.5B wrote the same file again four times after one. Told
//! in its own terms what to change, it changes it.
//!
//! The checks read lines, not a syntax tree, and say nothing when unsure:
//! a name counts as defined by a module when the module's text has it as a
//! word anywhere. Python whose string its own quote ends (`'It's'`) is
//! repaired where the meaning is plain, and refused where it is not.

use crate::chat::ToolCall;

/// Why `content`, a test file, should not be written as it is. `module`
/// gives the text of the workspace's module of a name (`game` →
/// `game.py`), when there is one; `modules` are the names of the modules
/// the run wrote (not tests).
pub fn test_file_problem(
    content: &str,
    module: impl Fn(&str) -> Option<String>,
    modules: &[String],
) -> Option<String> {
    if let Some(line) = content
        .lines()
        .find(|line| line.starts_with("def test") && takes_self(line))
    {
        let fixed = line.replacen("(self, ", "(", 1).replacen("(self)", "()", 1);
        return Some(format!(
            "`{}` is not inside a class, so pytest has no `self` to give it (\"fixture 'self' \
             not found\"): write `{}`",
            line.trim_end(),
            fixed.trim_end()
        ));
    }
    if let Some(problem) = contradiction(content)
        .or_else(|| unittest_asserts(content))
        .or_else(|| unprovided_arguments(content, module("conftest").as_deref()))
    {
        return Some(problem);
    }
    let imports = imports(content);
    for import in &imports {
        let Import::From {
            module: name,
            names,
        } = import
        else {
            continue;
        };
        let Some(text) = module(name) else {
            continue;
        };
        let missing: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| *n != "*" && !has_word(&text, n))
            .collect();
        if !missing.is_empty() {
            return Some(format!(
                "{name}.py has no {}: it defines {}. Import what it defines: `from {name} import \
                 {}`",
                missing.join(", "),
                list(&defined(&text)),
                defined(&text).join(", ")
            ));
        }
    }
    for name in modules {
        let Some(text) = module(name) else {
            continue;
        };
        let functions = defined(&text);
        let plain = imports
            .iter()
            .any(|i| matches!(i, Import::Module(m) if m == name));
        let from = imports
            .iter()
            .any(|i| matches!(i, Import::From { module, .. } if module == name));
        if plain && functions.contains(name) && calls(content, name) {
            return Some(format!(
                "`import {name}` gives the module {name}, so `{name}(...)` calls a module (\"'module' \
                 object is not callable\"): write `from {name} import {}`",
                functions.join(", ")
            ));
        }
        if !plain && !from {
            let own = defined(content);
            let used: Vec<&String> = functions
                .iter()
                .filter(|f| calls(content, f) && !own.contains(f))
                .collect();
            if let Some(first) = used.first() {
                return Some(format!(
                    "it calls {first} but does not import it from {name}.py: begin it with `from \
                     {name} import {}`",
                    functions.join(", ")
                ));
            }
        }
    }
    None
}

/// A line of Python `source` where a string in single or double quotes does
/// not end (`'It's a tie!'`: the quote in "It's" ends the string, and the
/// one after `!` opens a new one), as Python's "unterminated string
/// literal": the file cannot even be imported. f-strings are not judged
/// (since Python 3.12 they may hold their own quotes).
pub fn unclosed_string(source: &str) -> Option<String> {
    let (at, quote) = unclosed_line(source)?;
    let line = source.lines().nth(at)?;
    Some(format!(
        "line {} (`{}`) has a string that does not end on its line: a {quote} inside a string \
         in {quote}...{quote} ends it. Write such a string in the other quotes (\"It's\" or 'say \
         \"hi\"')",
        at + 1,
        line.trim()
    ))
}

/// A `write_file` call of a Python file with its apostrophes repaired (see
/// [`repair_apostrophes`]); any other call as it is. Done to the reply's
/// calls before they are logged, so the log holds what was written.
pub fn repair_call(mut call: ToolCall) -> ToolCall {
    if call.name != "write_file"
        || !call.arguments["path"]
            .as_str()
            .is_some_and(|p| p.ends_with(".py"))
    {
        return call;
    }
    if let Some(repaired) = call.arguments["content"]
        .as_str()
        .and_then(repair_apostrophes)
    {
        tracing::info!("escaped apostrophes that ended strings early in a Python file");
        call.arguments["content"] = serde_json::Value::String(repaired);
    }
    call
}

/// `current`, a test file, with its asserts replaced by those of
/// `fragment` that assert the same thing (`assert f(1) == 2` for
/// `assert f(1) == 3`), when `fragment` is nothing but such asserts and
/// each replaces exactly one line. Told which assert failed, Qwen2.5-Coder
/// 1.5B wrote the corrected line alone as the whole test file; written so
/// the file would lose its tests, refused it would be written whole again
/// with the mistake kept. `None` when `fragment` is anything else.
pub fn merge_asserts(current: &str, fragment: &str) -> Option<String> {
    let asserted = |line: &str| assert_parts(line).map(|(call, _)| call.trim().to_string());
    let mut lines: Vec<String> = current.split('\n').map(str::to_string).collect();
    let mut replaced = false;
    for new in fragment.lines().filter(|line| !line.trim().is_empty()) {
        let call = asserted(new)?;
        let mut same = lines
            .iter()
            .enumerate()
            .filter(|(_, old)| asserted(old).as_deref() == Some(call.as_str()));
        let (at, old) = same.next()?;
        if same.next().is_some() {
            return None;
        }
        let indent = &old[..old.len() - old.trim_start().len()];
        let line = format!("{indent}{}", new.trim());
        replaced |= line != *old;
        lines[at] = line;
    }
    replaced.then(|| lines.join("\n"))
}

/// `source` with the apostrophes inside words of its single-quoted strings
/// escaped (`'It's a tie'` → `'It\'s a tie'`), when that makes every string
/// end on its line: the string such a line was meant to hold is plain, and
/// a small model told of the quote writes the same line again (Qwen2.5-Coder
/// 1.5B did, twice). `None` when there is nothing to repair, or the repair
/// does not make the file readable.
pub fn repair_apostrophes(source: &str) -> Option<String> {
    let mut lines: Vec<String> = source.split('\n').map(str::to_string).collect();
    let mut repaired = false;
    while let Some((at, _)) = unclosed_line(&lines.join("\n")) {
        let line = &lines[at];
        if line.contains("'''") || line.contains("\"\"\"") {
            return None;
        }
        let escaped = escape_apostrophes(line);
        if escaped == *line {
            return None;
        }
        lines[at] = escaped;
        repaired = true;
    }
    repaired.then(|| lines.join("\n"))
}

/// `line` with each `'` that has a letter on both sides, inside a string in
/// single quotes, escaped.
fn escape_apostrophes(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 4);
    let mut open: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match open {
            None if c == '#' => {
                out.extend(&chars[i..]);
                break;
            }
            None => {
                if c == '\'' || c == '"' {
                    open = Some(c);
                }
                out.push(c);
            }
            Some(_) if c == '\\' => {
                out.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    out.push(next);
                    i += 1;
                }
            }
            Some(quote) if c == quote => {
                let inside_word = i > 0
                    && chars[i - 1].is_alphabetic()
                    && chars.get(i + 1).is_some_and(|n| n.is_alphabetic());
                if quote == '\'' && inside_word {
                    out.push('\\');
                } else {
                    open = None;
                }
                out.push(c);
            }
            Some(_) => out.push(c),
        }
        i += 1;
    }
    out
}

/// The first line of `source` (its index) where a string in single or
/// double quotes does not end, and that string's quote.
fn unclosed_line(source: &str) -> Option<(usize, char)> {
    // The quotes of a triple-quoted string open across lines.
    let mut triple: Option<&str> = None;
    for (number, line) in source.lines().enumerate() {
        let mut rest = line;
        loop {
            if let Some(quotes) = triple {
                match rest.find(quotes) {
                    Some(end) if !escaped(&rest[..end]) => {
                        rest = &rest[end + 3..];
                        triple = None;
                    }
                    Some(end) => rest = &rest[end + 1..],
                    None => break,
                }
                continue;
            }
            let Some(start) = rest.find(['\'', '"', '#']) else {
                break;
            };
            if rest[start..].starts_with('#') {
                break;
            }
            let quote = &rest[start..start + 1];
            let prefix: String = rest[..start]
                .chars()
                .rev()
                .take_while(|c| c.is_alphabetic())
                .collect();
            let after = &rest[start..];
            if after.starts_with(&quote.repeat(3)) {
                triple = Some(if quote == "'" { "'''" } else { "\"\"\"" });
                rest = &after[3..];
                continue;
            }
            match closing(&after[1..], quote) {
                Some(end) => rest = &after[1 + end + 1..],
                None if line.ends_with('\\') || prefix.to_lowercase().contains('f') => break,
                None => return Some((number, if quote == "'" { '\'' } else { '"' })),
            }
        }
    }
    None
}

/// Where the string whose opening `quote` came just before `text` ends.
fn closing(text: &str, quote: &str) -> Option<usize> {
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        if c == '\\' {
            chars.next();
        } else if text[at..].starts_with(quote) {
            return Some(at);
        }
    }
    None
}

/// Whether `before` ends in an odd number of backslashes.
fn escaped(before: &str) -> bool {
    (before.len() - before.trim_end_matches('\\').len()) % 2 == 1
}

/// The first lines of a test file for module `name` (its `text`): the
/// import of what it defines and one test to fill in. `None` when it
/// defines no function or class.
pub fn test_start(name: &str, text: &str) -> Option<String> {
    let names = defined(text);
    let first = names.first()?;
    let test = first.to_lowercase();
    let call = match text
        .lines()
        .any(|l| l.starts_with(&format!("class {first}")))
    {
        true => format!("{first}()"),
        false => format!("{first}(ARGUMENTS)"),
    };
    Some(format!(
        "from {name} import {}\n\n\ndef test_{test}():\n    assert {call} == EXPECTED",
        names.join(", ")
    ))
}

/// `self.assertEqual(...)` in a test class that is not a
/// `unittest.TestCase` (`class TestGame:`): pytest collects it, and every
/// test fails with "object has no attribute 'assertEqual'".
fn unittest_asserts(content: &str) -> Option<String> {
    let plain_class = content.lines().find_map(|line| {
        let rest = line.strip_prefix("class Test")?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].trim_end();
        matches!(after, ":" | "():" | "(object):").then(|| format!("Test{name}"))
    })?;
    let line = content
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("self.assert"))?;
    let example = line
        .strip_prefix("self.assertEqual(")
        .and_then(|rest| rest.strip_suffix(')'))
        .and_then(|arguments| {
            let (a, b) = split_top_comma(arguments)?;
            Some(format!(": write `assert {} == {}`", a.trim(), b.trim()))
        })
        .unwrap_or_else(|| ": write plain `assert` statements".into());
    Some(format!(
        "class {plain_class} is not a unittest.TestCase, so it has no `{}` (\"object has no \
         attribute\"). Use pytest's plain asserts{example}",
        line.split('(').next().unwrap_or(line)
    ))
}

/// `a, b` split at its first comma outside brackets and quotes.
fn split_top_comma(text: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => return Some((&text[..at], &text[at + 1..])),
                _ => {}
            },
        }
    }
    None
}

/// Two asserts of the same call with literal arguments that expect
/// different literal results: one of them fails whatever the code does.
/// Qwen2.5-Coder 1.5B writes a block of asserts, then the block again with
/// the results changed, and cannot find which line to drop.
fn contradiction(content: &str) -> Option<String> {
    let literal = |text: &str| {
        let text = text.trim();
        text.starts_with(['\'', '"'])
            || text.parse::<f64>().is_ok()
            || matches!(text, "True" | "False" | "None")
    };
    let unquoted = |text: &str| text.trim().trim_matches(['\'', '"']).replace("\\'", "'");
    let mut seen: Vec<(usize, &str, &str)> = Vec::new();
    for (number, line) in content.lines().enumerate() {
        let Some((call, expected)) = assert_parts(line) else {
            continue;
        };
        let Some((_, arguments)) = call.split_once('(') else {
            continue;
        };
        let arguments = arguments.strip_suffix(')').unwrap_or(arguments);
        let pure = arguments.split(',').all(literal) && !call.contains("random");
        if !pure || !literal(expected) {
            continue;
        }
        if let Some((before, _, other)) = seen
            .iter()
            .find(|(_, c, e)| *c == call && unquoted(e) != unquoted(expected))
        {
            return Some(format!(
                "line {} and line {} both assert `{call}`, expecting {} and {}: it returns one \
                 thing, so one of them fails whatever the code does. Keep the right one and \
                 drop the other",
                before + 1,
                number + 1,
                other.trim(),
                expected.trim()
            ));
        }
        seen.push((number, call, expected));
    }
    None
}

/// `assert CALL == EXPECTED` (a line, indented or not) as CALL and
/// EXPECTED.
pub fn assert_parts(line: &str) -> Option<(&str, &str)> {
    line.trim().strip_prefix("assert ")?.rsplit_once(" == ")
}

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

/// A top-level test function with parameters that nothing provides: no
/// `@pytest.fixture` of that name here or in `conftest`, no
/// `parametrize` on it, not one of pytest's own. pytest fails it with
/// "fixture 'a' not found". Qwen2.5-Coder 1.5B wrote
/// `def test_play(player1, player2)` for a `play(player1, player2)`.
fn unprovided_arguments(content: &str, conftest: Option<&str>) -> Option<String> {
    let lines: Vec<&str> = content.lines().collect();
    let decorators = |at: usize| {
        lines[..at]
            .iter()
            .rev()
            .take_while(|line| line.starts_with('@'))
            .copied()
            .collect::<Vec<&str>>()
    };
    let fixtures: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(at, _)| decorators(*at).iter().any(|d| d.contains("fixture")))
        .filter_map(|(_, line)| line.strip_prefix("def ")?.split('(').next())
        .map(str::trim)
        .collect();
    for (at, line) in lines.iter().enumerate() {
        let Some((name, rest)) = line
            .strip_prefix("def ")
            .filter(|def| def.starts_with("test"))
            .and_then(|def| def.split_once('('))
        else {
            continue;
        };
        if decorators(at)
            .iter()
            .any(|d| d.contains("parametrize") || d.contains("fixture"))
        {
            continue;
        }
        let Some((parameters, _)) = rest.split_once(')') else {
            continue;
        };
        let missing: Vec<&str> = parameters
            .split(',')
            .map(|p| p.split([':', '=']).next().unwrap_or("").trim())
            .filter(|p| !p.is_empty() && !p.starts_with('*'))
            .filter(|p| {
                !fixtures.contains(p)
                    && !PYTEST_FIXTURES.contains(p)
                    && !conftest.is_some_and(|text| has_word(text, p))
            })
            .collect();
        if missing.is_empty() || missing.contains(&"self") {
            continue;
        }
        let (them, names) = match missing.len() {
            1 => ("it", "that name"),
            _ => ("them", "those names"),
        };
        return Some(format!(
            "`{}` takes {} but nothing gives {them}: pytest looks for fixtures of {names} and \
             fails (\"fixture '{}' not found\"). A test takes no arguments: write `def {}():` \
             and write the values into the calls in its body",
            line.trim_end(),
            missing.join(", "),
            missing[0],
            name.trim()
        ));
    }
    None
}

/// `def test_x(self...)`.
fn takes_self(line: &str) -> bool {
    line.split_once('(').is_some_and(|(_, args)| {
        args.trim_start()
            .strip_prefix("self")
            .is_some_and(|rest| !rest.starts_with(is_word_char))
    })
}

enum Import {
    /// `import a` (or `import a as b`: still `a` to look up).
    Module(String),
    /// `from a import b, c`.
    From { module: String, names: Vec<String> },
}

/// The imports at the top level of `source` (lines that start with them).
fn imports(source: &str) -> Vec<Import> {
    let mut out = Vec::new();
    for line in source.lines() {
        let line = line.split('#').next().unwrap_or("").trim_end();
        if let Some(rest) = line.strip_prefix("from ") {
            let Some((module, names)) = rest.split_once(" import ") else {
                continue;
            };
            let names = names
                .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
                .split(',')
                .map(|n| n.split(" as ").next().unwrap_or("").trim().to_string())
                .filter(|n| !n.is_empty())
                .collect();
            out.push(Import::From {
                module: module.trim().to_string(),
                names,
            });
        } else if let Some(rest) = line.strip_prefix("import ") {
            for name in rest.split(',') {
                let name = name.split(" as ").next().unwrap_or("").trim();
                if !name.is_empty() {
                    out.push(Import::Module(name.to_string()));
                }
            }
        }
    }
    out
}

/// The functions and classes `source` defines at its top level.
fn defined(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("def ")
                .or_else(|| line.strip_prefix("async def "))
                .or_else(|| line.strip_prefix("class "))?;
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

fn list(names: &[String]) -> String {
    match names {
        [] => "no function".into(),
        names => names.join(", "),
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where `word` stands in `text` as a word of its own.
fn word_at(text: &str, word: &str) -> Vec<usize> {
    text.match_indices(word)
        .map(|(at, _)| at)
        .filter(|&at| {
            !text[..at].chars().next_back().is_some_and(is_word_char)
                && !text[at + word.len()..]
                    .chars()
                    .next()
                    .is_some_and(is_word_char)
        })
        .collect()
}

fn has_word(text: &str, word: &str) -> bool {
    !word_at(text, word).is_empty()
}

/// Whether `source` calls `name` (`name(`), not as an attribute (`m.name(`).
fn calls(source: &str, name: &str) -> bool {
    word_at(source, name).into_iter().any(|at| {
        source[at + name.len()..].starts_with('(')
            && !source[..at].ends_with('.')
            && !source[..at].trim_end().ends_with("def")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "import random\n\ndef play(a, b):\n    return a\n\nclass Game:\n    pass\n";

    fn problem(test: &str) -> Option<String> {
        let module = |name: &str| (name == "game").then(|| GAME.to_string());
        test_file_problem(test, module, &["game".to_string()])
    }

    #[test]
    fn a_test_function_that_takes_self_outside_a_class() {
        assert_eq!(
            problem("from game import play\n\ndef test_play(self):\n    assert play(1, 2) == 1\n")
                .unwrap(),
            "`def test_play(self):` is not inside a class, so pytest has no `self` to give it \
             (\"fixture 'self' not found\"): write `def test_play():`"
        );
        // A method of a class, and a parameter that only starts with self,
        // are fine.
        assert_eq!(
            problem(
                "from game import play\n\nclass TestPlay:\n    def test_play(self):\n        assert play(1, 2) == 1\n"
            ),
            None
        );
        assert!(
            problem(
                "import pytest\nfrom game import play\n\n@pytest.fixture\ndef selfish():\n    return 1\n\ndef test_play(selfish):\n    assert play(1, 2) == 1\n"
            )
            .is_none()
        );
    }

    #[test]
    fn an_import_of_a_name_the_module_does_not_have() {
        assert_eq!(
            problem(
                "from game import play_game\n\ndef test_play():\n    assert play_game(1, 2) == 1\n"
            )
            .unwrap(),
            "game.py has no play_game: it defines play, Game. Import what it defines: `from \
             game import play, Game`"
        );
        // What the module has, and modules the workspace does not hold.
        assert_eq!(
            problem(
                "from game import play, random\nfrom math import tau\n\ndef test_play():\n    assert play(1, 2) == 1\n"
            ),
            None
        );
    }

    #[test]
    fn a_string_its_own_quote_ends() {
        let qwen = "def test_tie():\n    assert play('rock', 'rock') == 'It's a tie!'\n";
        assert_eq!(
            unclosed_string(qwen).unwrap(),
            "line 2 (`assert play('rock', 'rock') == 'It's a tie!'`) has a string that does not \
             end on its line: a ' inside a string in '...' ends it. Write such a string in the \
             other quotes (\"It's\" or 'say \"hi\"')"
        );
        for fine in [
            r#"x = "It's"  # it's fine"#,
            r#"x = 'It\'s'; y = "a\\""#,
            "doc = \"\"\"It's\nmany 'lines\n\"\"\"\nz = '''a\n'b\n'''\n",
            "s = 'a' \\\n    'b'\n",
            "f = f'{d['k']}'\n",
            "print(\"hello\")\n",
        ] {
            assert_eq!(unclosed_string(fine), None, "{fine}");
        }
        assert!(unclosed_string("x = \"open\n").is_some());
        assert!(unclosed_string("x = 'a\\'\n").is_some());
    }

    #[test]
    fn apostrophes_inside_words_are_escaped_when_that_makes_the_file_readable() {
        let qwen = "def t():\n    assert p('rock') == 'It's a tie'\n    assert p('a') == 'P1'\n    assert x == \"a\", 'don't'  # done\n";
        assert_eq!(
            repair_apostrophes(qwen).unwrap(),
            r#"def t():
    assert p('rock') == 'It\'s a tie'
    assert p('a') == 'P1'
    assert x == "a", 'don\'t'  # done
"#
        );
        // Readable files, and lines the repair does not make readable, are
        // left alone.
        assert_eq!(repair_apostrophes("x = 'It\\'s'\ny = \"it's\"\n"), None);
        assert_eq!(repair_apostrophes("x = 'open\n"), None);
        assert_eq!(repair_apostrophes("x = 'a' + 'it's\n"), None);
    }

    #[test]
    fn a_test_file_begins_with_the_import_of_what_the_module_defines() {
        assert_eq!(
            test_start("game", GAME).unwrap(),
            "from game import play, Game\n\n\ndef test_play():\n    assert play(ARGUMENTS) == EXPECTED"
        );
        assert_eq!(test_start("empty", "x = 1\n"), None);
    }

    #[test]
    fn two_asserts_of_one_call_that_expect_different_results() {
        let qwen = "from game import play\n\ndef test_play():\n    assert play('rock', 'paper') == 'P2'\n    assert play('rock', 'rock') == \"tie\"\n    assert play('rock', 'rock') == 'tie'\n    assert play('rock', 'paper') == 'P1'\n";
        assert_eq!(
            problem(qwen).unwrap(),
            "line 4 and line 7 both assert `play('rock', 'paper')`, expecting 'P2' and 'P1': it \
             returns one thing, so one of them fails whatever the code does. Keep the right one \
             and drop the other"
        );
        // Calls with arguments that are not literals may differ.
        let stateful = "from game import play\n\ndef test_play():\n    assert play(x) == 1\n    assert play(x) == 2\n";
        assert_eq!(problem(stateful), None);
    }

    #[test]
    fn unittest_asserts_in_a_class_that_is_not_a_test_case() {
        let qwen = "from game import Game\n\nclass TestGame:\n    def test_play(self):\n        game = Game()\n        self.assertEqual(game.play('rock', 'scissors'), 'P1')\n";
        assert_eq!(
            problem(qwen).unwrap(),
            "class TestGame is not a unittest.TestCase, so it has no `self.assertEqual` (\"object \
             has no attribute\"). Use pytest's plain asserts: write `assert game.play('rock', \
             'scissors') == 'P1'`"
        );
        let case = qwen.replace("class TestGame:", "class TestGame(unittest.TestCase):");
        assert_eq!(problem(&format!("import unittest\n{case}")), None);
    }

    #[test]
    fn test_arguments_that_no_fixture_gives() {
        assert_eq!(
            problem(
                "from game import play\n\ndef test_play(player1, player2):\n    assert play(player1, player2) == player1\n"
            )
            .unwrap(),
            "`def test_play(player1, player2):` takes player1, player2 but nothing gives them: \
             pytest looks for fixtures of those names and fails (\"fixture 'player1' not \
             found\"). A test takes no arguments: write `def test_play():` and write the values \
             into the calls in its body"
        );
        // Given by a fixture, parametrize, pytest itself or conftest.py.
        for fine in [
            "import pytest\nfrom game import play\n\n@pytest.fixture\ndef move():\n    return 1\n\ndef test_play(move):\n    assert play(move, 2) == 1\n",
            "import pytest\nfrom game import play\n\n@pytest.mark.parametrize(\"a\", [1])\ndef test_play(a):\n    assert play(a, 2) == a\n",
            "from game import play\n\ndef test_play(tmp_path, capsys):\n    assert play(1, 2) == 1\n",
            "from game import play\n\ndef test_play(board):\n    assert play(board, 2) == board\n",
        ] {
            let module = |name: &str| match name {
                "game" => Some(GAME.to_string()),
                "conftest" => {
                    Some("import pytest\n\n@pytest.fixture\ndef board():\n    return 1\n".into())
                }
                _ => None,
            };
            assert_eq!(
                test_file_problem(fine, module, &["game".to_string()]),
                None,
                "{fine}"
            );
        }
        // Without conftest.py, `board` is given by nothing.
        assert!(
            problem("from game import play\n\ndef test_play(board):\n    assert play(board, 2) == board\n")
                .unwrap()
                .contains("fixture 'board' not found")
        );
    }

    #[test]
    fn asserts_written_alone_replace_the_asserts_of_the_same_call() {
        let current = "from game import play\n\ndef test_play():\n    assert play('rock', 'paper') == 'rock'\n    assert play('paper', 'rock') == 'rock'\n";
        assert_eq!(
            merge_asserts(current, "assert play('rock', 'paper') == 'paper'\n").unwrap(),
            "from game import play\n\ndef test_play():\n    assert play('rock', 'paper') == 'paper'\n    assert play('paper', 'rock') == 'rock'\n"
        );
        assert_eq!(
            merge_asserts(
                current,
                "\nassert play('rock', 'paper') == 'paper'\n  assert play('paper', 'rock') == 'paper'"
            )
            .unwrap(),
            "from game import play\n\ndef test_play():\n    assert play('rock', 'paper') == 'paper'\n    assert play('paper', 'rock') == 'paper'\n"
        );
        // Anything else is not a fix of lines.
        for fragment in [
            "assert play('rock', 'rock') == 'tie'",
            "from game import play\nassert play('rock', 'paper') == 'paper'",
            "assert play('rock', 'paper') == 'rock'",
            "",
        ] {
            assert_eq!(merge_asserts(current, fragment), None, "{fragment:?}");
        }
        // A call asserted twice: which line is meant is not plain.
        let twice = "def test_a():\n    assert f(1) == 1\n\ndef test_b():\n    assert f(1) == 1\n";
        assert_eq!(merge_asserts(twice, "assert f(1) == 2"), None);
    }

    #[test]
    fn a_module_called_as_a_function() {
        let module =
            |name: &str| (name == "rps").then(|| "def rps(a, b):\n    return a\n".to_string());
        let test = "import rps\n\ndef test_rps():\n    assert rps('rock', 'rock') == 'rock'\n";
        assert_eq!(
            test_file_problem(test, module, &["rps".into()]).unwrap(),
            "`import rps` gives the module rps, so `rps(...)` calls a module (\"'module' object \
             is not callable\"): write `from rps import rps`"
        );
        let fine = "import rps\n\ndef test_rps():\n    assert rps.rps('rock', 'rock') == 'rock'\n";
        assert_eq!(test_file_problem(fine, module, &["rps".into()]), None);
    }

    #[test]
    fn a_function_called_but_never_imported() {
        assert_eq!(
            problem("def test_play():\n    assert play(1, 2) == 1\n").unwrap(),
            "it calls play but does not import it from game.py: begin it with `from game import \
             play, Game`"
        );
        // A test that runs the program instead imports nothing from it.
        assert_eq!(
            problem(
                "import subprocess\n\ndef test_run():\n    assert subprocess.run(['python3', 'game.py']).returncode == 0\n"
            ),
            None
        );
    }
}
