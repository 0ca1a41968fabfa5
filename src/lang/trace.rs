//! The lines one call of a function ran, as a language's
//! [`super::Language::trace_command`] prints them, and what a model is
//! told of them: the way a failing test's call went through the function,
//! each test of an `if` with the way it went. Told only that `letter(90)`
//! returned 'B' where its test expects 'A', Qwen2.5-Coder 1.5B wrote
//! `letter` back unchanged, round after round (t23's grades-fix).

use serde::Deserialize;

/// One line the call ran: its number, its text, and for a test of an `if`
/// or a loop, whether its block ran next.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Step(pub u32, pub String, pub Option<bool>);

/// What the command printed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Trace {
    #[serde(default)]
    pub steps: Vec<Step>,
    pub returned: Option<String>,
    pub raised: Option<String>,
    /// The call ran more lines than `steps` holds: the last step is not
    /// where it returned.
    #[serde(default)]
    pub cut: bool,
}

/// The trace in `printed` (its first line that reads as one); `None` when
/// the call could not be made or ran no line.
pub fn read(printed: &str) -> Option<Trace> {
    printed
        .lines()
        .find_map(|line| serde_json::from_str::<Trace>(line.trim()).ok())
        .filter(|trace| !trace.steps.is_empty())
}

/// `call` (of a function of `module`) as its trace tells it, in a sentence
/// a small model can follow line by line.
pub fn told(trace: &Trace, call: &str, module: &str) -> String {
    let steps: Vec<String> = trace
        .steps
        .iter()
        .map(|Step(line, text, took)| {
            let way = match took {
                Some(true) => " (true: its block ran)",
                Some(false) => " (false: its block was skipped)",
                None => "",
            };
            format!("line {line} `{text}`{way}")
        })
        .collect();
    let end = match (&trace.returned, &trace.raised) {
        (Some(value), _) => format!(", and returned {value}"),
        (None, Some(error)) => format!(", and raised {error}"),
        (None, None) => String::new(),
    };
    // t25's grades-fix answered with `if score == 90: return "A"` put
    // after the `return "B"` the call reached, three times.
    let last = trace.steps.last().map(|Step(line, ..)| line);
    let last = last.filter(|_| !trace.cut);
    let more = match trace.cut {
        true => "; and more lines after these",
        false => "",
    };
    let after = match (last, &trace.returned, &trace.raised) {
        (Some(line), Some(_), _) => format!(
            " It returned at line {line}: code put after that line is not reached by `{call}`, \
             so it cannot change what it returns."
        ),
        (Some(line), None, Some(_)) => format!(
            " It raised at line {line}: code put after that line is not reached by `{call}`."
        ),
        _ => String::new(),
    };
    format!(
        "Run as the test runs it, `{call}` went through these lines of {module}, in order: \
         {}{more}{end}.{after}",
        steps.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_is_told_line_by_line_with_the_way_each_test_went() {
        let printed = "{\"steps\": [[3, \"if score > 90:\", false], [5, \"if score > 80:\", \
                       true], [6, \"return \\\"B\\\"\", null]], \"returned\": \"'B'\"}\n";
        let trace = read(printed).expect("a trace");
        assert_eq!(
            told(&trace, "letter(90)", "grades.py"),
            "Run as the test runs it, `letter(90)` went through these lines of grades.py, in \
             order: line 3 `if score > 90:` (false: its block was skipped); line 5 `if score > \
             80:` (true: its block ran); line 6 `return \"B\"`, and returned 'B'. It returned \
             at line 6: code put after that line is not reached by `letter(90)`, so it cannot \
             change what it returns."
        );
        // Cut short, the last line shown is not where it returned.
        let cut = read(&printed.replace("\"returned\"", "\"cut\": true, \"returned\"")).unwrap();
        assert_eq!(
            told(&cut, "letter(90)", "grades.py"),
            "Run as the test runs it, `letter(90)` went through these lines of grades.py, in \
             order: line 3 `if score > 90:` (false: its block was skipped); line 5 `if score > \
             80:` (true: its block ran); line 6 `return \"B\"`; and more lines after these, and \
             returned 'B'."
        );
        assert_eq!(read("{\"unusable\": \"ImportError: x\"}\n"), None);
        assert_eq!(read("{\"steps\": [], \"returned\": \"1\"}\n"), None);
        assert_eq!(read("nothing\n"), None);
    }
}
