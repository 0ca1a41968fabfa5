//! Cases the goal does not name. The assessment is told that a case the
//! goal's words do not name (an empty file, a wrong input, an error to
//! handle) is no requirement; a small model lists them anyway, finds them
//! unmet by its own runs, and the cycles that follow change a program
//! that met the goal. t5's countdown ("given a number as its argument, it
//! prints the numbers from there down to 1") printed 10 to 1 at its first
//! write; the assessment added "handle the case where the argument is a
//! floating-point number", held unmet by `python3 countdown.py 3.14`, and
//! the cycle's edits made it print each number twice.
//!
//! Only a goal whose words name no case at all is read so (no "if", "not",
//! "otherwise", "error", "empty", ...): a goal that names any keeps every
//! requirement, since its cases may be said in words this list lacks. And
//! a requirement is taken as a case only by words of cases of its own
//! (empty, invalid, negative, floating-point, an error, "the case where"),
//! whose like the goal lacks. What the goal does ask of it (its function,
//! its output, its tests) the other requirements and the runner's own
//! holds keep.

use super::verdict::Requirement;

/// Words that, in a goal, name a case or a condition: a goal with any of
/// them may ask for what happens in a case, and no requirement is taken
/// from it here.
const GOAL_CASES: &[&str] = &[
    "if",
    "unless",
    "otherwise",
    "else",
    "except",
    "exception",
    "exceptions",
    "error",
    "errors",
    "raise",
    "raises",
    "invalid",
    "valid",
    "empty",
    "blank",
    "missing",
    "absent",
    "exist",
    "exists",
    "negative",
    "zero",
    "none",
    "null",
    "nothing",
    "wrong",
    "bad",
    "malformed",
    "fail",
    "fails",
    "failing",
    "reject",
    "rejects",
    "refuse",
    "refuses",
    "ignore",
    "ignores",
    "ignoring",
    "skip",
    "skips",
    "skipping",
    "without",
    "not",
    "no",
    "never",
    "only",
    "edge",
    "case",
    "cases",
    "float",
    "floats",
    "floating",
    "decimal",
    "handle",
    "handles",
    "handling",
];

/// Words that make a requirement about a case.
const REQUIREMENT_CASES: &[&str] = &[
    "empty",
    "blank",
    "missing",
    "absent",
    "nonexistent",
    "invalid",
    "malformed",
    "wrong",
    "bad",
    "negative",
    "zero",
    "float",
    "floats",
    "floating",
    "decimal",
    "decimals",
    "error",
    "errors",
    "exception",
    "exceptions",
    "raise",
    "raises",
    "crash",
    "crashes",
];

/// Phrases that make a requirement about a case.
const REQUIREMENT_PHRASES: &[&str] = &[
    "the case where",
    "the case when",
    "the case of",
    "cases where",
    "edge case",
    "not a number",
    "non-",
];

/// The words of `text`, lower case: runs of letters, digits and `'`.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether the words of `goal` name a case or a condition of any kind.
pub fn names_cases(goal: &str) -> bool {
    words(goal)
        .iter()
        .any(|w| GOAL_CASES.contains(&w.as_str()) || w.ends_with("n't"))
}

/// The case `requirement` is about, by its words: the first word or
/// phrase of a case it has, if any.
pub fn case_of(requirement: &str) -> Option<String> {
    let lower = requirement.to_lowercase();
    if let Some(phrase) = REQUIREMENT_PHRASES.iter().find(|p| lower.contains(**p)) {
        return Some(phrase.trim_end_matches('-').to_string());
    }
    words(requirement)
        .into_iter()
        .find(|w| REQUIREMENT_CASES.contains(&w.as_str()))
}

/// Whether `goal` names `case` by a value rather than a word: zero by a
/// 0 (add-factorial's "factorial(0) is 1"), a floating-point number by
/// one (`2.5`), a negative number by one (`-3`).
fn written_in(case: &str, goal: &str) -> bool {
    let numbers: Vec<&str> = goal
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .map(|n| n.trim_end_matches('.'))
        .filter(|n| n.chars().any(|c| c.is_ascii_digit()))
        .collect();
    match case {
        "zero" => numbers.iter().any(|n| n.trim_start_matches('-') == "0"),
        "float" | "floats" | "floating" | "decimal" | "decimals" => {
            numbers.iter().any(|n| n.contains('.'))
        }
        "negative" => numbers.iter().any(|n| n.starts_with('-')),
        _ => false,
    }
}

/// The requirements of the assessment with each one about a case that
/// `goal` does not name made no requirement: met, with nothing to run
/// and the reason as its evidence, so `status` shows what was set aside.
/// A goal that names any case keeps them all, and so does a requirement
/// about tests (the tests the goal asks for are held by the runner's
/// own checks).
pub fn not_named(goal: &str, requirements: Vec<Requirement>) -> Vec<Requirement> {
    aside(goal, requirements, |_| true)
}

/// [`not_named`] again at the end of the assessment's holds, for the
/// requirements of the model's own answer (`answered`, their texts) only:
/// a hold that judges by a requirement's words put back what `not_named`
/// set aside. t50's cli-flag: "handle the case where the --shout flag is
/// provided with no arguments" names an option, so it was held as output
/// again, found unmet with "no command was given that shows it", and a
/// cycle spent the rest of a right run's rounds on it.
pub fn still_not_named(
    goal: &str,
    requirements: Vec<Requirement>,
    answered: &[String],
) -> Vec<Requirement> {
    aside(goal, requirements, |r| answered.contains(&r.requirement))
}

/// The requirements `among` picks that are about a case `goal` does not
/// name, set aside (see [`not_named`]).
fn aside(
    goal: &str,
    mut requirements: Vec<Requirement>,
    among: impl Fn(&Requirement) -> bool,
) -> Vec<Requirement> {
    if names_cases(goal) {
        return requirements;
    }
    for requirement in &mut requirements {
        if requirement.about_tests || !among(requirement) {
            continue;
        }
        let Some(case) = case_of(&requirement.requirement) else {
            continue;
        };
        if written_in(&case, goal) {
            continue;
        }
        tracing::info!(requirement = %requirement.requirement, %case, "a case the goal does not name");
        requirement.met = true;
        requirement.about_output = false;
        requirement.shown_by = None;
        requirement.evidence = format!(
            "not a requirement of the goal: it is about a case (\"{case}\") and the goal's words \
             name no case"
        );
    }
    requirements
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requirement(text: &str, met: bool) -> Requirement {
        Requirement {
            requirement: text.to_string(),
            met,
            evidence: "the assessment's".to_string(),
            about_tests: false,
            about_output: true,
            shown_by: Some(super::super::verdict::ShownBy {
                command: "python3 countdown.py 3.14".to_string(),
                expects: "3".to_string(),
            }),
            file: None,
        }
    }

    #[test]
    fn a_case_the_goal_does_not_name_is_no_requirement() {
        // t5's countdown.
        let goal = "Write countdown.py: given a number as its argument, it prints the numbers \
                    from there down to 1, one per line";
        let kept = requirement("The program prints the numbers from N down to 1", true);
        let float = requirement(
            "The program should handle the case where the argument is a floating-point number.",
            false,
        );
        let negative = requirement("It prints nothing for a negative number", false);
        let mut tests = requirement("The tests raise no error", false);
        tests.about_tests = true;
        let judged = not_named(
            goal,
            vec![kept.clone(), float.clone(), negative, tests.clone()],
        );
        assert_eq!(judged[0], kept);
        assert!(judged[1].met && judged[1].shown_by.is_none() && !judged[1].about_output);
        assert!(
            judged[1].evidence.contains("(\"the case where\")"),
            "{}",
            judged[1].evidence
        );
        assert!(judged[2].met);
        assert!(
            judged[2].evidence.contains("(\"negative\")"),
            "{}",
            judged[2].evidence
        );
        assert_eq!(judged[3], tests, "about tests: kept");
        // A goal that names a case, in whatever words, keeps them all.
        for goal in [
            "Write countdown.py: it prints the numbers down to 1, or an error if the argument \
             is not a number",
            "Write is_palindrome(word): True when it reads the same backwards, False otherwise",
            "Write sum.py that sums the numbers of a file, skipping lines that aren't numbers",
            "Write avg(xs) that returns the average, and None for an empty list",
        ] {
            let judged = not_named(goal, vec![float.clone()]);
            assert_eq!(judged, vec![float.clone()], "{goal}");
        }
    }

    #[test]
    fn a_case_set_aside_stays_aside_whatever_a_hold_made_of_it() {
        // t50's cli-flag: the case names the goal's option.
        let goal = "Change greet.py so that it takes an optional --shout flag that prints the \
                    greeting in capitals";
        let case = requirement(
            "The program should handle the case where the --shout flag is provided with no \
             arguments",
            false,
        );
        let mut held = not_named(goal, vec![case.clone()]);
        assert!(held[0].met);
        // What a hold of output made of it: unmet, nothing shows it.
        held[0].met = false;
        held[0].evidence = "no command was given that shows it when it runs".to_string();
        let added = requirement(
            "the program takes --shout and handles the case where",
            false,
        );
        held.push(added.clone());
        let judged = still_not_named(goal, held, std::slice::from_ref(&case.requirement));
        assert!(judged[0].met, "{}", judged[0].evidence);
        assert!(
            judged[0]
                .evidence
                .starts_with("not a requirement of the goal")
        );
        assert_eq!(judged[1], added, "not of the model's answer: kept");
    }

    #[test]
    fn a_requirement_is_about_a_case_by_words_of_cases_only() {
        assert_eq!(
            case_of("It handles non-numeric input").as_deref(),
            Some("non")
        );
        assert_eq!(
            case_of("count_vowels('') returns 0 for an empty string").as_deref(),
            Some("empty")
        );
        assert_eq!(case_of("factorial(n) returns n!"), None);
        assert_eq!(case_of("greet.py takes an optional --shout flag"), None);
        assert_eq!(
            case_of("The program prints the numbers down to 1, one per line"),
            None
        );
        let factorial = "numutil.py should also offer factorial(n), which returns n! \
                         (factorial(0) is 1)";
        assert!(!names_cases(factorial));
        let zero = requirement("factorial returns 1 for zero", false);
        assert_eq!(
            not_named(factorial, vec![zero.clone()]),
            vec![zero],
            "named by its 0"
        );
        assert!(written_in("floating", "round(x) of 2.5 is 2"));
        assert!(!written_in("floating", "countdown from 10. Then stop"));
        assert!(written_in("negative", "abs(-3) is 3"));
        assert!(names_cases("Fix it so that the tests don't fail"));
    }
}
