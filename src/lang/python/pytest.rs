//! What pytest's report of a failed test says it checked: the section of
//! each failure under `FAILURES`, read for the test's line that failed
//! (`>`) and the value the code gave (`E  +  where -32.0 = f(0)`).

use super::Python;
use crate::lang::{FailedCheck, Language};

/// Each failed test of pytest's `output` with the line of it that failed
/// and, when pytest says it, what the call it checks returned. A section's
/// header is the test's name between rules of `_`; its first `>` line is
/// the test's own statement (the frames after it are the code's). Tests
/// whose section has no `>` line (another `--tb` style) are left out.
pub fn failed_checks(output: &str) -> Vec<FailedCheck> {
    let Some((_, failures)) = output.split_once(" FAILURES ") else {
        return Vec::new();
    };
    let failures = failures
        .split("= short test summary info =")
        .next()
        .unwrap_or(failures);
    let mut found: Vec<FailedCheck> = Vec::new();
    let mut current: Option<FailedCheck> = None;
    for line in failures.lines() {
        if let Some(test) = header(line) {
            found.extend(current.take().filter(|c| !c.statement.is_empty()));
            current = Some(FailedCheck {
                test: test.to_string(),
                statement: String::new(),
                got: None,
            });
            continue;
        }
        let Some(check) = current.as_mut() else {
            continue;
        };
        if check.statement.is_empty() {
            if let Some(statement) = line.strip_prefix('>') {
                check.statement = statement.trim().to_string();
            }
            continue;
        }
        if check.got.is_none()
            && let Some(error) = line.strip_prefix('E')
        {
            let error = error.trim();
            // `+  where -32.0 = celsius_to_fahrenheit(0)`: what the call
            // returned; else the error itself (`ZeroDivisionError: ...`),
            // which the first `E` line of a plain assert does not give
            // beyond the statement.
            match error.strip_prefix('+').map(str::trim) {
                Some(where_) => {
                    if let Some((value, call)) = where_
                        .strip_prefix("where ")
                        .and_then(|w| w.split_once(" = "))
                    {
                        check.got = Some(returned(&check.statement, call.trim(), value.trim()));
                    }
                }
                None if !error.starts_with("assert ") && !error.is_empty() => {
                    check.got = Some(error.to_string());
                }
                None => {}
            }
        }
    }
    found.extend(current.filter(|c| !c.statement.is_empty()));
    found
}

/// What each failed test of pytest's `output` (see [`failed_checks`]) found
/// its call did, where the report says it: the error it raised (a name
/// ending in `Error` or `Exception`, not `AssertionError`), the value it
/// returned, or the values its assert compared. Then what the runner told
/// after the output of calls the tests make of code that stays as it is
/// (see [`crate::lang::examples::read_returned`]): what they returned
/// where an assert expects otherwise, though that assert did not fail
/// (a test stops at its first).
pub fn done(output: &str) -> Vec<crate::lang::python::facts::Done> {
    let told = crate::lang::examples::read_returned(output)
        .into_iter()
        .map(|(call, got, wanted)| crate::lang::python::facts::Done {
            statement: format!("assert {call} == {wanted}"),
            raises: None,
            returned: Some(got),
            compared: None,
        });
    failed_checks(output)
        .into_iter()
        .filter_map(|check| {
            let got = check.got?;
            let name = got.split(':').next().unwrap_or_default().trim();
            let name = name.rsplit('.').next().unwrap_or(name);
            // Raised inside the code the test calls, not at the test's own
            // line (a call with too few arguments raises `TypeError` there).
            let raised = (name.ends_with("Error") || name.ends_with("Exception"))
                && name != "AssertionError"
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && raised_in(output, &check.test).is_some_and(|path| !Python.is_test(&path));
            // pytest 9 begins an assert's line with its error's name.
            let compared = got
                .trim_start_matches("AssertionError: ")
                .starts_with("assert ")
                .then(|| got.trim_start_matches("AssertionError: ").to_string());
            // An assert that a call is true or false shows what it gave.
            let truth = match got.trim_start_matches("AssertionError: ").trim() {
                "True is not false" | "assert not True" => Some("True"),
                "False is not true" | "assert False" => Some("False"),
                _ => None,
            };
            let (raises, returned) = match (raised, &compared) {
                (true, _) => (Some(name.to_string()), None),
                (false, _) if truth.is_some() => (None, truth.map(str::to_string)),
                (false, Some(_)) => (None, None),
                (false, None) => {
                    let said = got
                        .rsplit_once(", the test says ")
                        .map_or(got.as_str(), |(s, _)| s);
                    let (_, value) = said.rsplit_once(" returned ")?;
                    (None, Some(value.trim().to_string()))
                }
            };
            Some(crate::lang::python::facts::Done {
                statement: check.statement,
                raises,
                returned,
                compared: compared.filter(|_| truth.is_none()),
            })
        })
        .chain(told)
        .collect()
}

/// The file where the error of failed test `test`'s section of pytest's
/// `output` was raised: its last `path.py:N: Error` line.
fn raised_in(output: &str, test: &str) -> Option<String> {
    let (_, failures) = output.split_once(" FAILURES ")?;
    let mut section = false;
    let mut last = None;
    for line in failures.lines() {
        if line.contains("= short test summary info =") {
            break;
        }
        if let Some(name) = header(line) {
            if section {
                break;
            }
            section = name == test;
            continue;
        }
        if section
            && let Some((path, rest)) = line.trim().split_once(".py:")
            && rest
                .split_once(": ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        {
            last = Some(format!("{path}.py"));
        }
    }
    last
}

/// What `call` returned, and what the test's `statement` compares it to
/// when it is one side of an `==`: `f(0) returned -32.0, the test says
/// 32`. Told only "where f(0) returned -32.0", t2's temp-fix model took
/// -32.0 for an input and special-cased it.
fn returned(statement: &str, call: &str, value: &str) -> String {
    let compared = statement
        .strip_prefix("assert ")
        .and_then(|s| s.split_once(" == "))
        .and_then(|(left, right)| match (left.trim(), right.trim()) {
            (left, right) if left == call => Some(right),
            (left, right) if right == call => Some(left),
            _ => None,
        });
    match compared {
        Some(expected) => format!("{call} returned {value}, the test says {expected}"),
        None => format!("{call} returned {value}"),
    }
}

/// `____ test_freezing ____` → `test_freezing` (`TestA.test_b`,
/// `test_c[1-2]` as pytest writes them).
fn header(line: &str) -> Option<&str> {
    let inner = line.strip_prefix("___")?.strip_suffix("___")?;
    let name = inner.trim_matches('_').trim();
    (!name.is_empty() && !name.contains(' ')).then_some(name)
}

/// A literal of Python source as pytest's report shows a value: each
/// string between single quotes (between double quotes only when it holds
/// a single one and no double one, as `repr` does), nothing between the
/// items but their separators. `["z", "y"]` is `['z','y']`, as pytest's
/// `['z', 'y']` is. Not a parser: a literal it cannot read is kept as it
/// is, and then only the same text is the same value.
pub fn as_shown(literal: &str) -> String {
    let mut shown = String::new();
    let mut chars = literal.trim().chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\'' && c != '"' {
            if !c.is_whitespace() {
                shown.push(c);
            }
            continue;
        }
        // The string's characters as written, escapes kept but that of
        // its own quote.
        let mut inner = String::new();
        let mut closed = false;
        while let Some(d) = chars.next() {
            match d {
                '\\' => match chars.next() {
                    Some(e) if e == c => inner.push(e),
                    Some(e) => {
                        inner.push('\\');
                        inner.push(e);
                    }
                    None => break,
                },
                d if d == c => {
                    closed = true;
                    break;
                }
                d => inner.push(d),
            }
        }
        if !closed {
            return literal.trim().to_string();
        }
        let quote = match inner.contains('\'') && !inner.contains('"') {
            true => '"',
            false => '\'',
        };
        let inner = match quote {
            '\'' => inner.replace('\'', "\\'"),
            _ => inner,
        };
        shown.push(quote);
        shown.push_str(&inner);
        shown.push(quote);
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each failed assert's call did: the error raised inside the
    /// code it calls; not one raised at the test's own line (a call with
    /// too few arguments).
    #[test]
    fn an_error_is_what_a_call_did_when_the_code_raised_it() {
        let output = r#"FF                                                                       [100%]
=================================== FAILURES ===================================
___________________________________ test_one ___________________________________

    def test_one():
>       assert clamp(5) == 5
               ^^^^^^^^
E       TypeError: clamp() missing 2 required positional arguments: 'low' and 'high'

test_bounds.py:5: TypeError
___________________________________ test_two ___________________________________

    def test_two():
>       assert clamp(1, 5, 0) == 1
               ^^^^^^^^^^^^^^

test_bounds.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

value = 1, low = 5, high = 0

    def clamp(value, low, high):
        if low > high:
>           raise ValueError("low above high")
E           ValueError: low above high

bounds.py:3: ValueError
=========================== short test summary info ============================
FAILED test_bounds.py::test_one - TypeError: clamp() missing 2 required posit...
FAILED test_bounds.py::test_two - ValueError: low above high
2 failed in 0.04s
"#;
        let done = super::done(output);
        assert_eq!(done.len(), 1, "{done:?}");
        assert_eq!(done[0].statement, "assert clamp(1, 5, 0) == 1");
        assert_eq!(done[0].raises.as_deref(), Some("ValueError"));
    }

    const CONVERT: &str = "\
$ python3 -m pytest -q
exit code 1
--- stdout ---
FF.                                                                      [100%]
=================================== FAILURES ===================================
________________________________ test_freezing _________________________________

    def test_freezing():
>       assert celsius_to_fahrenheit(0) == 32
E       assert -32.0 == 32
E        +  where -32.0 = celsius_to_fahrenheit(0)

test_convert.py:5: AssertionError
_________________________________ test_boiling _________________________________

    def test_boiling():
>       assert celsius_to_fahrenheit(100) == 212
E       assert 148.0 == 212
E        +  where 148.0 = celsius_to_fahrenheit(100)

test_convert.py:9: AssertionError
=========================== short test summary info ============================
FAILED test_convert.py::test_freezing - assert -32.0 == 32
FAILED test_convert.py::test_boiling - assert 148.0 == 212
2 failed, 1 passed in 0.04s
";

    fn check(test: &str, statement: &str, got: Option<&str>) -> FailedCheck {
        FailedCheck {
            test: test.into(),
            statement: statement.into(),
            got: got.map(Into::into),
        }
    }

    #[test]
    fn each_failed_test_gives_its_statement_and_what_the_call_returned() {
        assert_eq!(
            failed_checks(CONVERT),
            [
                check(
                    "test_freezing",
                    "assert celsius_to_fahrenheit(0) == 32",
                    Some("celsius_to_fahrenheit(0) returned -32.0, the test says 32")
                ),
                check(
                    "test_boiling",
                    "assert celsius_to_fahrenheit(100) == 212",
                    Some("celsius_to_fahrenheit(100) returned 148.0, the test says 212")
                ),
            ]
        );
    }

    #[test]
    fn an_error_in_the_code_is_what_the_test_got() {
        let output = "\
=================================== FAILURES ===================================
_________________________________ test_average _________________________________

    def test_average():
>       assert average([]) == 0

test_calc.py:5: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

    def average(xs):
>       return sum(xs) / len(xs)
E       ZeroDivisionError: division by zero

calc.py:2: ZeroDivisionError
=========================== short test summary info ============================
FAILED test_calc.py::test_average - ZeroDivisionError: division by zero
";
        assert_eq!(
            failed_checks(output),
            [check(
                "test_average",
                "assert average([]) == 0",
                Some("ZeroDivisionError: division by zero")
            )]
        );
    }

    #[test]
    fn a_plain_assert_and_a_report_without_failures_give_what_they_have() {
        let output = "\
=================================== FAILURES ===================================
______________________________ TestStack.test_pop ______________________________

self = <test_stack.TestStack object at 0x7f>

    def test_pop(self):
>       assert 1 == 2
E       assert 1 == 2

test_stack.py:9: AssertionError
";
        assert_eq!(
            failed_checks(output),
            [check("TestStack.test_pop", "assert 1 == 2", None)]
        );
        assert!(failed_checks("3 passed in 0.01s\n").is_empty());
    }

    #[test]
    fn the_value_a_test_compares_the_call_to_is_said_beside_what_it_returned() {
        assert_eq!(
            returned("assert 32 == f(0)", "f(0)", "-32.0"),
            "f(0) returned -32.0, the test says 32"
        );
        assert_eq!(
            returned("assert is_leap(1900) is False", "is_leap(1900)", "True"),
            "is_leap(1900) returned True"
        );
        assert_eq!(
            returned("assert g(f(0)) == 1", "f(0)", "2"),
            "f(0) returned 2"
        );
        assert!(failed_checks("FAILED t.py::test_a - assert 1 == 2\n").is_empty());
    }

    #[test]
    fn a_literal_as_written_is_the_value_as_pytest_shows_it() {
        let same = |written: &str, shown: &str| as_shown(written) == as_shown(shown);
        assert!(same(r#"["z", "y"]"#, "['z', 'y']"));
        assert!(same(r#""it's""#, r#""it's""#));
        assert!(same(r"'it\'s'", r#""it's""#));
        assert!(same(r#"{"a": 1}"#, "{'a': 1}"));
        assert!(!same(r#"["z", "y"]"#, "['y', 'z']"));
        assert!(!same(r#""a b""#, "'ab'"));
        assert!(!same("'open", "'open'"));
    }
}
