//! After a run of the tests that failed, in a goal of tests of code that
//! stays as it is (see `Agent::under_test`): what that code returns for
//! each call a test asserts equal to a literal, where it returns something
//! else, goes into the run's result. The code is what the tests are of,
//! so a test that expects another value is the one that is wrong. t4's
//! slug-tests asserted `truncate('Hello, World!', 10) == 'hello...'`;
//! pytest's diff showed `Hello, ...`, and the model sent the same
//! expectation back twice without reading it.

use std::time::Duration;

use super::Agent;
use crate::lang::examples::{self, Example};

/// How long the calls of one function may take together.
const CALLS_TIMEOUT: Duration = Duration::from_secs(10);
/// Calls of one function tried, and calls told, at most: the first calls
/// of a file are as often right as not (t5's slug-tests: the wrong one was
/// the twelfth of an `and` of asserts), and one process makes them all.
const MAX_CALLS: usize = 40;
/// t96's validate-tests had nine wrong asserts: each told is one the review
/// of the next write of the tests mends (see `as_kept_code_does`).
const MAX_TOLD: usize = 12;

impl Agent<'_> {
    /// What the code under test returns where the tests expect otherwise,
    /// after a run of `command` that failed: a paragraph after a line
    /// break, or empty (nothing under test, no such assert, a stop).
    pub(super) async fn returned_instead(&mut self, command: &str) -> String {
        let state = self.state();
        let paths = super::focus::known_paths(state);
        let mut commands: Vec<(String, String)> = Vec::new();
        for language in self.languages.iter().filter(|l| l.runs_tests(command)) {
            // The code kept first: in any other goal nothing is read.
            let kept: Vec<(&String, String)> = paths
                .iter()
                .filter(|path| language.owns(path) && !language.is_test(path))
                .filter(|path| self.under_test(path).is_some())
                .filter_map(|path| Some((path, self.tools.text(path)?)))
                .collect();
            if kept.is_empty() {
                continue;
            }
            let tests: Vec<(String, String)> = paths
                .iter()
                .filter(|path| language.is_test(path))
                .filter_map(|path| Some((path.clone(), self.tools.text(path)?)))
                .collect();
            let asserted = match tests.is_empty() {
                true => Vec::new(),
                false => language.asserted_calls(&tests),
            };
            for (module, text) in kept {
                let mut names: Vec<&str> = Vec::new();
                for (call, _) in asserted.iter() {
                    if let Some(name) = examples::call_name(call)
                        && !names.contains(&name)
                        && language.defines(&text, name)
                    {
                        names.push(name);
                    }
                }
                for name in names {
                    let own: Vec<Example> = asserted
                        .iter()
                        .filter(|(call, _)| examples::call_name(call) == Some(name))
                        .take(MAX_CALLS)
                        .map(|(call, expected)| Example {
                            call: call.clone(),
                            returns: vec![expected.clone()],
                            written: false,
                            variant: false,
                        })
                        .collect();
                    if let Some(run) = language.examples_command(module, name, &own) {
                        commands.push((module.clone(), run));
                    }
                }
            }
        }
        let mut told: Vec<(String, String)> = Vec::new();
        for (module, run) in commands {
            let outcome = self.tools.run_own(&run, CALLS_TIMEOUT, &self.stop).await;
            if self.stop.is_requested() {
                return String::new();
            }
            let printed = crate::tools::printed(&outcome.result);
            let Some((tried, _)) = examples::read(&printed) else {
                continue;
            };
            for tried in tried.into_iter().filter(|t| !t.same) {
                let said = match tried.got {
                    // An assert that a call is true passes on any true
                    // value: only a truth value contradicts it.
                    Ok(got) if is_truth(&tried.wanted) && !is_truth(&got) => continue,
                    Ok(got) => examples::returned_where_expected(&tried.call, &got, &tried.wanted),
                    Err(why) => format!("`{}` {why}", tried.call),
                };
                told.push((module.clone(), said));
            }
        }
        said_of(told)
    }
}

/// The paragraph of [`Agent::returned_instead`] from what each call of
/// code under test (its file, and what it gave) came to.
fn said_of(mut told: Vec<(String, String)>) -> String {
    if told.is_empty() {
        return String::new();
    }
    let mut modules: Vec<String> = told.iter().map(|(module, _)| module.clone()).collect();
    modules.dedup();
    told.truncate(MAX_TOLD);
    let said: Vec<String> = told.into_iter().map(|(_, said)| said).collect();
    let (modules, stays) = match modules.as_slice() {
        [one] => (one.clone(), "stays as it is"),
        more => (more.join(" and "), "stay as they are"),
    };
    let said: String = said.iter().map(|said| format!("\n- {said}")).collect();
    format!(
        "\n\n{modules} {stays}: the tests are of what it does, so a test that expects \
         something else is the one to change. Called as the tests call it:{said}\nChange each \
         such assert to expect what the code returns."
    )
}

/// Python's and most languages' spelling of a truth value.
fn is_truth(value: &str) -> bool {
    matches!(value.trim(), "True" | "False" | "true" | "false")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_code_returns_is_said_of_each_call_a_test_expects_otherwise() {
        assert_eq!(said_of(Vec::new()), "");
        let one = |call: &str| {
            (
                "slug.py".to_string(),
                format!("`{call}` returns 'x', where a test expects 'y'"),
            )
        };
        let said = said_of(vec![one("f(1)"), one("f(2)")]);
        assert!(said.starts_with("\n\nslug.py stays as it is: "), "{said}");
        assert!(said.contains("\n- `f(1)` returns 'x', where a test expects 'y'\n- `f(2)`"));
        let many: Vec<_> = (0..14).map(|n| one(&format!("f({n})"))).collect();
        let said = said_of(many);
        assert!(said.contains("f(11)") && !said.contains("f(12)"), "{said}");
        // What is told is read back as it was said (see `as_kept_code_does`).
        let read = examples::read_returned(&said);
        assert_eq!(read.len(), MAX_TOLD);
        assert_eq!(read[3], ("f(3)".into(), "'x'".into(), "'y'".into()));
        let two = said_of(vec![one("f(1)"), ("b.py".into(), "`g()` raised E".into())]);
        assert!(
            two.starts_with("\n\nslug.py and b.py stay as they are"),
            "{two}"
        );
    }
}
