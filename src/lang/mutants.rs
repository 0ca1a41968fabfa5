//! Tests that pass on broken code (see
//! [`super::Language::mutants_command`]): a goal that asks for tests of a
//! project's code is met by tests that fail when that code is wrong, not by
//! tests that pass. stack-tests (z1c, z2, z3) ended "Goal achieved" on
//! tests that each pushed one item: a `push` that put items at the bottom
//! passed them all, and so (z3) did every function made to return None or
//! to do nothing, hence the mutants of single expressions too.

use serde_json::Value;

/// How a function was changed for the tests to catch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutant {
    /// Each `return VALUE` evaluates VALUE and returns nothing.
    ReturnsNothing,
    /// Its body does nothing (a function that returns no value).
    DoesNothing,
    /// One expression's arithmetic swapped: `+` and `-`, `*` and `/`; or
    /// a number added to what came before, alone (`x + 1` made `1`).
    Arithmetic { was: String, now: String },
    /// One expression working on the other end of a list: `append(x)` and
    /// `insert(0, x)`, `pop()` and `pop(0)`, `[-1]` and `[0]`.
    Order { was: String, now: String },
    /// One bound of `min` or `max` of two values dropped: `max(low, x)`
    /// made `x` or `low`.
    Bound { was: String, now: String },
    /// A loop (its first line, `was`) stopped after its first pass.
    Once { was: String },
}

impl Mutant {
    fn read(line: &Value) -> Option<Self> {
        let text = |key: &str| line.get(key).and_then(Value::as_str).map(str::to_string);
        match text("mutant")?.as_str() {
            "returns None" => Some(Self::ReturnsNothing),
            "does nothing" => Some(Self::DoesNothing),
            "arithmetic" => Some(Self::Arithmetic {
                was: text("was")?,
                now: text("now")?,
            }),
            "order" => Some(Self::Order {
                was: text("was")?,
                now: text("now")?,
            }),
            "bound" => Some(Self::Bound {
                was: text("was")?,
                now: text("now")?,
            }),
            "once" => Some(Self::Once { was: text("was")? }),
            _ => None,
        }
    }
}

/// A function whose mutant the tests passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Survivor {
    /// As shown: `add`, `Stack.pop`.
    pub name: String,
    pub mutant: Mutant,
    /// A call whose value the mutant changes, when one was found.
    pub example: Option<Catching>,
}

/// A call of a function whose value its mutant changes: a test that
/// asserts `call == value` catches the mutant. Each as the language writes
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catching {
    /// `hottest([30, 32, 37])`.
    pub call: String,
    /// What the function gives: `37`.
    pub value: String,
    /// What the mutant gives, or `raises TypeError`.
    pub changed: String,
}

impl Catching {
    fn read(line: &Value) -> Option<Catching> {
        let example = line.get("example")?;
        let text = |key: &str| Some(example.get(key)?.as_str()?.to_string());
        Some(Catching {
            call: text("call")?,
            value: text("value")?,
            changed: text("changed")?,
        })
    }
}

/// What a run of a mutants command printed: the mutants the tests did not
/// catch, in order. `None` when it says nothing of the tests: they did not
/// pass as they are, or the mutants could not be run (no pytest, no fork,
/// a file that does not parse). A mutant that could not be run, or whose
/// code the tests never loaded, is no survivor.
pub fn read(printed: &str) -> Option<Vec<Survivor>> {
    let mut lines = printed
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line.trim()).ok());
    let first = lines.next()?;
    if first.get("baseline").and_then(Value::as_i64) != Some(0) {
        return None;
    }
    Some(
        lines
            .filter(|line| line.get("killed").and_then(Value::as_bool) == Some(false))
            .filter_map(|line| {
                Some(Survivor {
                    name: line.get("name")?.as_str()?.to_string(),
                    mutant: Mutant::read(&line)?,
                    example: Catching::read(&line),
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutant_survives_only_when_the_tests_ran_and_passed_with_it() {
        let printed = "{\"baseline\": 0, \"seconds\": 0.2}\n\
            {\"name\": \"Stack.push\", \"mutant\": \"does nothing\", \"killed\": true}\n\
            {\"name\": \"Stack.pop\", \"mutant\": \"returns None\", \"killed\": false}\n\
            {\"name\": \"Stack.peek\", \"mutant\": \"returns None\", \"unusable\": \"out of time\"}\n\
            {\"name\": \"Stack.push\", \"mutant\": \"order\", \"was\": \"s.append(x)\", \
             \"now\": \"s.insert(0, x)\", \"killed\": false}\n\
            {\"name\": \"Stack.size\", \"mutant\": \"arithmetic\", \"was\": \"n + 1\", \
             \"now\": \"n - 1\", \"killed\": true}\n\
            {\"name\": \"Stack.clear\", \"mutant\": \"does nothing\", \"killed\": false}\n\
            {\"name\": \"clamp\", \"mutant\": \"bound\", \"was\": \"max(lo, x)\", \
             \"now\": \"x\", \"example\": {\"call\": \"clamp(0, 5, 15)\", \"value\": \"5\", \
             \"changed\": \"0\"}, \"killed\": false}\n\
            {\"name\": \"Stack.top\", \"mutant\": \"order\", \"killed\": false}\n";
        assert_eq!(
            read(printed),
            Some(vec![
                Survivor {
                    name: "Stack.pop".into(),
                    mutant: Mutant::ReturnsNothing,
                    example: None
                },
                Survivor {
                    name: "Stack.push".into(),
                    mutant: Mutant::Order {
                        was: "s.append(x)".into(),
                        now: "s.insert(0, x)".into()
                    },
                    example: None
                },
                Survivor {
                    name: "Stack.clear".into(),
                    mutant: Mutant::DoesNothing,
                    example: None
                },
                Survivor {
                    name: "clamp".into(),
                    mutant: Mutant::Bound {
                        was: "max(lo, x)".into(),
                        now: "x".into()
                    },
                    example: Some(Catching {
                        call: "clamp(0, 5, 15)".into(),
                        value: "5".into(),
                        changed: "0".into()
                    })
                },
            ]),
            "a change that does not say what it changed is left out"
        );
        assert_eq!(read("{\"baseline\": 0, \"seconds\": 0.2}\n"), Some(vec![]));
        assert_eq!(read("{\"baseline\": 1, \"seconds\": 0.2}\n"), None);
        assert_eq!(
            read("{\"unusable\": \"pytest: No module named 'pytest'\"}"),
            None
        );
        assert_eq!(read(""), None);
    }
}
