//! How many tests a check ran, read from the summary its test runner
//! prints: pytest (`3 passed, 1 failed in 0.02s`), unittest (`Ran 4
//! tests` then `OK` or `FAILED (failures=1)`), node's test runner (`# pass
//! 3`, `# fail 1`). `None` when the output has no such summary: then no
//! test is known to have run.

use crate::state::Tally;

/// The tests a check's output says failed, as its test runner names them:
/// pytest's short summary (`FAILED test_calc.py::test_add - assert ...`,
/// `ERROR ...`), node's TAP lines (`not ok 2 - adds`). Empty when it names
/// none.
pub fn failed_tests(output: &str) -> Vec<String> {
    failed_with_why(output)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// [`failed_tests`] with what the runner said of each (pytest's words
/// after ` - `; empty when it said nothing on that line).
pub fn failed_with_why(output: &str) -> Vec<(String, String)> {
    let mut failed: Vec<(String, String)> = Vec::new();
    for line in output.lines().map(str::trim) {
        let named = line
            .strip_prefix("FAILED ")
            .or_else(|| line.strip_prefix("ERROR "))
            .map(|rest| match rest.split_once(" - ") {
                Some((name, why)) => (name.trim(), why.trim()),
                None => (rest.trim(), ""),
            })
            .or_else(|| {
                let rest = line.strip_prefix("not ok ")?;
                Some((rest.split_once(" - ")?.1.trim(), ""))
            });
        if let Some((name, why)) = named.filter(|(n, _)| !n.is_empty())
            && !failed.iter().any(|(f, _)| f == name)
        {
            failed.push((name.to_string(), why.to_string()));
        }
    }
    failed
}

pub fn tally(output: &str) -> Option<Tally> {
    pytest(output)
        .or_else(|| unittest(output))
        .or_else(|| node(output))
}

/// The number before `word` in `line`: `3 passed` → 3.
fn count_before(line: &str, word: &str) -> Option<u32> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .find(|pair| pair[1].trim_end_matches(['.', ';']) == word)
        .and_then(|pair| pair[0].parse().ok())
}

/// pytest's last line: `===== 2 failed, 3 passed in 0.05s =====`, or with
/// `-q`, `2 failed, 3 passed in 0.05s`; `no tests ran` counts as none.
fn pytest(output: &str) -> Option<Tally> {
    output.lines().rev().find_map(|line| {
        let line = line.trim().trim_matches('=').trim();
        if line.starts_with("no tests ran") {
            return Some(Tally::default());
        }
        if !line.contains(" in ") {
            return None;
        }
        let passed = count_before(line, "passed");
        let failed = count_before(line, "failed");
        let errors = count_before(line, "error").or_else(|| count_before(line, "errors"));
        (passed.is_some() || failed.is_some() || errors.is_some()).then(|| Tally {
            passed: passed.unwrap_or(0),
            failed: failed.unwrap_or(0) + errors.unwrap_or(0),
        })
    })
}

fn unittest(output: &str) -> Option<Tally> {
    let ran = output.lines().find_map(|line| {
        line.strip_prefix("Ran ").and_then(|rest| {
            count_before(&format!("{rest} "), "tests").or_else(|| count_before(rest, "test"))
        })
    })?;
    let failed_line = output
        .lines()
        .rev()
        .find(|line| line.starts_with("FAILED ("));
    let failed = failed_line
        .map(|line| {
            ["failures", "errors"]
                .iter()
                .filter_map(|key| {
                    let at = line.find(&format!("{key}="))? + key.len() + 1;
                    line[at..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect::<String>()
                        .parse::<u32>()
                        .ok()
                })
                .sum()
        })
        .unwrap_or(0);
    Some(Tally {
        passed: ran.saturating_sub(failed),
        failed,
    })
}

fn node(output: &str) -> Option<Tally> {
    let value = |label: &str| {
        output.lines().find_map(|line| {
            line.trim()
                .strip_prefix(label)
                .and_then(|rest| rest.trim().parse::<u32>().ok())
        })
    };
    let passed = value("# pass")?;
    Some(Tally {
        passed,
        failed: value("# fail").unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn t(passed: u32, failed: u32) -> Option<Tally> {
        Some(Tally { passed, failed })
    }

    #[test]
    fn pytest_summaries() {
        assert_eq!(tally("..F\n1 failed, 2 passed in 0.03s\n"), t(2, 1));
        assert_eq!(tally("....\n4 passed in 0.01s"), t(4, 0));
        assert_eq!(
            tally("=================== 3 passed, 1 error in 0.12s ===================="),
            t(3, 1)
        );
        assert_eq!(tally("\nno tests ran in 0.00s\n"), t(0, 0));
        assert_eq!(tally("1 error in 0.05s"), t(0, 1));
    }

    #[test]
    fn unittest_summaries() {
        assert_eq!(tally("....\n----\nRan 4 tests in 0.001s\n\nOK\n"), t(4, 0));
        assert_eq!(
            tally("Ran 3 tests in 0.001s\n\nFAILED (failures=1, errors=1)\n"),
            t(1, 2)
        );
        assert_eq!(tally("Ran 1 test in 0.000s\n\nOK"), t(1, 0));
    }

    #[test]
    fn node_test_runner_summaries() {
        assert_eq!(
            tally("# tests 3\n# suites 0\n# pass 2\n# fail 1\n"),
            t(2, 1)
        );
    }

    #[test]
    fn output_without_a_summary_ran_no_known_test() {
        assert_eq!(tally("Hello, World!\n"), None);
        assert_eq!(tally("I passed the ball in the park"), None);
    }

    #[test]
    fn the_failed_tests_are_named_as_their_runner_names_them() {
        let pytest = "FFF\n=== short test summary info ===\nFAILED test_calc.py::test_add - assert 6 == 5\nFAILED test_calc.py::test_average - assert 3.0 == 4\nERROR test_x.py\n2 failed, 1 passed in 0.02s\n";
        assert_eq!(
            failed_tests(pytest),
            [
                "test_calc.py::test_add",
                "test_calc.py::test_average",
                "test_x.py"
            ]
        );
        assert_eq!(
            failed_tests("not ok 2 - adds\nok 1 - subtracts\n"),
            ["adds"]
        );
        assert!(failed_tests("3 passed in 0.01s").is_empty());
    }
}
