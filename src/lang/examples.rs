//! The goal's own examples of what a function returns, and what the
//! function returned when called on them (see
//! [`super::Language::examples_command`]): the model's tests can hold its
//! own wrong belief (a fizzbuzz run's one test asserted `fizzbuzz(100) ==
//! '1'`, and passed), the goal's words cannot.

use serde::{Deserialize, Serialize};

/// A call the goal's words decide the result of, in the language of the
/// file that defines the function: `fizzbuzz(15)` and `'FizzBuzz'`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The call, with literal arguments.
    pub call: String,
    /// The value each answer of the model said it returns, as a literal;
    /// the example counts only when they agree.
    pub returns: Vec<String>,
    /// The values are what two writings of the function of their own,
    /// from the goal's words alone, returned on the call, and agreed on
    /// (see `complete::examples`): held as the goal's own word is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written: bool,
    /// The call is an example of the goal's own with its digits changed
    /// (see [`variants`]), its value what writings of the function that
    /// return the goal's own values there agreed on: called apart from the
    /// goal's examples, and held only where the function returns a value
    /// of the same kind (the changed arguments may be outside what the
    /// function takes) and the model, asked which of the two the call
    /// returns, chooses this one both times (the goal's words may not
    /// decide it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub variant: bool,
}

impl Example {
    /// The name the call calls: `fizzbuzz` of `fizzbuzz(15)`.
    pub fn name(&self) -> Option<&str> {
        call_name(&self.call)
    }
}

/// The name `call` calls, when it is a call of a plain name and nothing
/// else: `fizzbuzz` of `fizzbuzz(15)`, `None` of `x.f(1)` or `f(1) + 1`.
pub fn call_name(call: &str) -> Option<&str> {
    let call = call.trim();
    let (name, _) = call.split_once('(')?;
    let plain = name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (plain && call.ends_with(')')).then_some(name)
}

/// Up to `count` calls that are `call` (with literal arguments) with each
/// digit of its arguments changed, each different, in an order that is
/// the same each time: a number keeps its length and never starts with a
/// 0 it did not have (`to_cents('1.15')` of `to_cents('3.50')`). None when
/// its arguments have no digit, or a backslash (a digit of an escape is
/// no number's). The goal's examples say what a function returns where
/// the goal gives a value; a function can return those and be wrong a
/// digit away (t101's pricing-package: `int(float(text) * 100)` gives 350
/// for '3.50' and 114 for '1.15', and its tests asserted what it gave).
pub fn variants(call: &str, count: usize) -> Vec<String> {
    let Some(open) = call.find('(') else {
        return Vec::new();
    };
    let arguments: Vec<char> = call[open..].chars().collect();
    if arguments.contains(&'\\') || !arguments.iter().any(char::is_ascii_digit) {
        return Vec::new();
    }
    let digit = |at: usize| arguments.get(at).is_some_and(char::is_ascii_digit);
    // A digit that begins a whole number of two digits or more.
    let leading = |at: usize| {
        let first = at == 0 || !digit(at - 1) && arguments[at - 1] != '.';
        first && digit(at + 1)
    };
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut found: Vec<String> = Vec::new();
    for _ in 0..count * 4 {
        if found.len() == count {
            break;
        }
        let changed: String = (arguments.iter().enumerate())
            .map(|(at, &c)| {
                if !c.is_ascii_digit() {
                    return c;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let drawn = (seed >> 33) as u32;
                let d = match leading(at) {
                    true => 1 + drawn % 9,
                    false => drawn % 10,
                };
                char::from_digit(d, 10).unwrap_or(c)
            })
            .collect();
        let variant = format!("{}{changed}", &call[..open]);
        if !same_call(&variant, call) && !found.contains(&variant) {
            found.push(variant);
        }
    }
    found
}

/// The kind of value `literal` is, as a literal shows it: a string, a
/// number, a list, a tuple, a mapping, or the word it is (`True`,
/// `None`): two values of different kinds are no two answers to one
/// question.
pub fn literal_kind(literal: &str) -> String {
    let literal = literal.trim();
    match literal.chars().next() {
        Some('\'' | '"' | '`') => "string".into(),
        Some(c) if c.is_ascii_digit() || c == '-' || c == '.' => "number".into(),
        Some('[') => "list".into(),
        Some('(') => "tuple".into(),
        Some('{') => "mapping".into(),
        _ => literal.to_string(),
    }
}

/// How a test's call is told to return `got` where the test expects
/// `wanted`, a line of its own of a list (read back by
/// [`read_returned`]).
pub fn returned_where_expected(call: &str, got: &str, wanted: &str) -> String {
    format!("`{call}` returns {got}, where a test expects {wanted}")
}

/// Each call, value and expected value [`returned_where_expected`] told
/// in `text`, a line of a list each.
pub fn read_returned(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter_map(|line| {
            let told = line.trim().strip_prefix("- `")?;
            let (call, rest) = told.split_once("` returns ")?;
            let (got, wanted) = rest.rsplit_once(", where a test expects ")?;
            Some((call.to_string(), got.to_string(), wanted.to_string()))
        })
        .collect()
}

/// What one example gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tried {
    pub call: String,
    /// The value the goal's words say, as the language shows it.
    pub wanted: String,
    /// The value it returned (as the language shows it), or what it
    /// raised or why it did not finish.
    pub got: Result<String, String>,
    /// It returned the value wanted.
    pub same: bool,
}

impl Tried {
    /// `call gave got, wanted wanted` (or what it raised, or why it did
    /// not finish, in place of `gave got`).
    pub fn said(&self) -> String {
        match &self.got {
            Ok(got) => format!("{} gave {got}, wanted {}", self.call, self.wanted),
            Err(why) => format!("{} {why}, wanted {}", self.call, self.wanted),
        }
    }
}

/// What a run of an examples command printed: `None` when the function
/// could not be called as its users would (its module did not import, or
/// only its file alone did, its package not: the tests and the checks
/// judge that), else each example that could be tried, in order, and how
/// many lines were printed for examples (tried or not), so that a run that
/// did not finish names the one that hung.
pub fn read(printed: &str) -> Option<(Vec<Tried>, usize)> {
    read_loaded(printed, false)
}

/// [`read`], and what the function returned when only its file could be
/// loaded, its package not (its `__init__` imports a module not written
/// yet): what a fix of the function is asked from, never what a check
/// counts (t32's textcase: `snake` was never asked of while `kebab.py`
/// was missing).
pub fn read_alone(printed: &str) -> Option<(Vec<Tried>, usize)> {
    read_loaded(printed, true)
}

fn read_loaded(printed: &str, alone_too: bool) -> Option<(Vec<Tried>, usize)> {
    let mut lines = printed
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line.trim()).ok());
    let first = lines.next()?;
    if first.get("imported").and_then(serde_json::Value::as_bool) != Some(true)
        || (first.get("alone").is_some() && !alone_too)
    {
        return None;
    }
    let (mut tried, mut seen) = (Vec::new(), 0);
    for line in lines {
        let text = |key: &str| line.get(key).and_then(serde_json::Value::as_str);
        let Some(call) = text("call") else {
            continue;
        };
        seen += 1;
        let Some(wanted) = text("wanted") else {
            continue;
        };
        let got = match (text("got"), text("raised")) {
            (Some(got), _) => Ok(got.to_string()),
            (None, Some(raised)) => Err(format!("raised {raised}")),
            (None, None) => continue,
        };
        tried.push(Tried {
            call: call.to_string(),
            wanted: wanted.to_string(),
            same: got.is_ok()
                && line.get("same").and_then(serde_json::Value::as_bool) == Some(true),
            got,
        });
    }
    Some((tried, seen))
}

/// Whether `value` (a literal, as the language shows it) is one the
/// goal's words give: a string's text that stands in `goal` as it is, or
/// a number or name that is a word of it (`'Fizz'` of "returns 'Fizz' for
/// multiples of 3"). Any other value the model worked out itself
/// (`count_vowels('python')` is 2): its belief, as its own tests are,
/// not the goal's word.
pub fn given_by(goal: &str, value: &str) -> bool {
    let value = value.trim();
    let quoted = ['\'', '"', '`']
        .into_iter()
        .find_map(|quote| value.strip_prefix(quote)?.strip_suffix(quote));
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '-';
    match quoted {
        Some(text) => !text.is_empty() && goal.contains(text),
        None if value.chars().all(word) => goal
            .split(|c: char| !word(c))
            .any(|w| w.trim_end_matches('.') == value.trim_end_matches('.') && !w.is_empty()),
        None => goal.contains(value),
    }
}

/// Whether the goal's words give every literal argument of `call` (see
/// [`given_by`]): each string's text stands in `goal`, each number is a
/// word of it. A call without literal arguments (`f()`) has none the model
/// made up.
pub fn arguments_given(goal: &str, call: &str) -> bool {
    let Some(open) = call.find('(') else {
        return false;
    };
    let close = call
        .rfind(')')
        .filter(|close| *close > open)
        .unwrap_or(call.len());
    literals(&call[open + 1..close])
        .iter()
        .all(|literal| given_by(goal, literal))
}

/// The literals of `code`: its strings with their quotes (`'a'`) and its
/// numbers (`-2.5`); names (`True`, `x1`) are skipped whole.
fn literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let (mut found, mut at) = (Vec::new(), 0);
    while at < chars.len() {
        let c = chars[at];
        let start = at;
        at += 1;
        if ['\'', '"', '`'].contains(&c) {
            while at < chars.len() && chars[at] != c {
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at = (at + 1).min(chars.len());
            found.push(chars[start..at].iter().collect());
        } else if c.is_alphabetic() || c == '_' {
            while at < chars.len() && (chars[at].is_alphanumeric() || chars[at] == '_') {
                at += 1;
            }
        } else if c.is_ascii_digit() {
            while at < chars.len() && (chars[at].is_ascii_alphanumeric() || chars[at] == '.') {
                at += 1;
            }
            found.push(chars[start..at].iter().collect());
        }
    }
    found
}

/// Whether two calls are the same but for white space: `f(1, 2)` and
/// `f(1,2)`.
pub fn same_call(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
        || a.chars()
            .filter(|c| !c.is_whitespace())
            .eq(b.chars().filter(|c| !c.is_whitespace()))
}

/// `value` without one pair of quotes around it: `1:02:05` of `'1:02:05'`.
fn unquoted(value: &str) -> &str {
    let value = value.trim();
    ['\'', '"']
        .into_iter()
        .find_map(|quote| value.strip_prefix(quote)?.strip_suffix(quote))
        .unwrap_or(value)
}

/// Where string `actual` differs from string `expected` (both as the
/// language shows them, quoted), when they differ in one short stretch
/// and not in capital letters alone: `'01:02:05' has `0` at its start,
/// where '1:02:05' has nothing`. Shown both whole, t32's add-duration
/// model answered the fix question three times without seeing the
/// leading zero its `{hours:02d}` gave.
pub fn difference(actual: &str, expected: &str) -> Option<String> {
    const MAX_STRETCH: usize = 12;
    fn quoted(value: &str) -> Option<&str> {
        let value = value.trim();
        let inner = unquoted(value);
        (inner.len() + 2 == value.len()).then_some(inner)
    }
    let (a, e) = (quoted(actual)?, quoted(expected)?);
    if a == e || a.to_lowercase() == e.to_lowercase() {
        return None;
    }
    let (a, e): (Vec<char>, Vec<char>) = (a.chars().collect(), e.chars().collect());
    let prefix = a.iter().zip(&e).take_while(|(x, y)| x == y).count();
    let room = a.len().min(e.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(e.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    // Nothing in common at either end: the two are simply other strings.
    if prefix == 0 && suffix == 0 {
        return None;
    }
    let stretch =
        |chars: &[char]| -> String { chars[prefix..chars.len() - suffix].iter().collect() };
    let (has, instead) = (stretch(&a), stretch(&e));
    if has.chars().count() > MAX_STRETCH || instead.chars().count() > MAX_STRETCH {
        return None;
    }
    let shown = |text: &str| match text.is_empty() {
        true => "nothing".to_string(),
        false => format!("`{text}`"),
    };
    let at = match (prefix, suffix) {
        (0, _) => "at its start".to_string(),
        (_, 0) => "at its end".to_string(),
        _ => {
            let before: String = a[prefix.saturating_sub(MAX_STRETCH)..prefix]
                .iter()
                .collect();
            format!("after `{before}`")
        }
    };
    Some(format!(
        "{} has {} {at}, where {} has {}",
        actual.trim(),
        shown(&has),
        expected.trim(),
        shown(&instead)
    ))
}

/// The goal's word on what calls return: each example both answers gave
/// the same value for (quotes aside: the second answer may give the value
/// bare) whose value the goal's words give (see [`given_by`]), or that two
/// writings of the function from those words agreed on
/// ([`Example::written`]), but on a call of no answer's (a
/// [`Example::variant`]), as the call and the value as the first answer
/// wrote it. What a test of such a call must expect, and what the code
/// must return, whatever the model believes: t26's add-duration wrote a
/// test of `format_duration(3725) == '01:02:05'` in the cycle that was to
/// make it '1:02:05', as the goal says.
pub fn goal_given(goal: &str, examples: &[Example]) -> Vec<(String, String)> {
    examples
        .iter()
        .filter_map(|example| {
            let (first, rest) = example.returns.split_first()?;
            let agreed = rest.iter().all(|other| unquoted(other) == unquoted(first));
            let said = example.written || given_by(goal, first);
            (agreed && example.name().is_some() && said && !example.variant)
                .then(|| (example.call.trim().to_string(), first.trim().to_string()))
        })
        .collect()
}

/// What the goal says `call` returns, of `given` (see [`goal_given`]),
/// called by its name alone or through its module (`timeutil.
/// format_duration(3725)`: t30's add-duration test, fitted to the code
/// unrefused until the call was read so).
pub fn goal_says<'a>(given: &'a [(String, String)], call: &str) -> Option<&'a str> {
    goal_example(given, call).map(|(_, value)| value)
}

/// The example of `given` (see [`goal_given`]) that `call` makes, by its
/// name alone or through its module: the call as the goal's example gives
/// it (its name alone) and the value.
pub fn goal_example<'a>(given: &'a [(String, String)], call: &str) -> Option<(&'a str, &'a str)> {
    let call = call.trim();
    let plain = match call.find('(').and_then(|open| call[..open].rfind('.')) {
        Some(dot) => &call[dot + 1..],
        None => call,
    };
    given
        .iter()
        .find(|(known, _)| same_call(known, call) || same_call(known, plain))
        .map(|(known, value)| (known.as_str(), value.as_str()))
}

/// Whether `written`, a value as a test writes it, is `value`: the same
/// text quotes aside, or the same to `language` (see
/// [`super::Language::same_value`]).
pub fn same_value(language: &dyn super::Language, written: &str, value: &str) -> bool {
    unquoted(written) == unquoted(value) || language.same_value(written, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_change_the_digits_of_the_arguments_alone() {
        let prices = variants("to_cents('3.50')", 12);
        assert_eq!(prices.len(), 12, "{prices:?}");
        for price in &prices {
            let inner = price
                .strip_prefix("to_cents('")
                .and_then(|p| p.strip_suffix("')"))
                .unwrap_or_else(|| panic!("{price}"));
            let shape: String = inner
                .chars()
                .map(|c| if c.is_ascii_digit() { 'd' } else { c })
                .collect();
            assert_eq!(shape, "d.dd", "{price}");
        }
        assert_eq!(
            prices,
            variants("to_cents('3.50')", 12),
            "the same each time"
        );
        // Digits of the name stay; a whole number never gains a leading 0.
        let numbers = variants("to_base64(30, 7)", 20);
        assert!(numbers.len() >= 10, "{numbers:?}");
        for call in &numbers {
            let (name, rest) = call.split_once('(').unwrap();
            assert_eq!(name, "to_base64");
            assert!(!rest.starts_with('0'), "{call}");
        }
        assert!(variants("initials('ada lovelace')", 12).is_empty());
        assert!(variants("count('a\\n1')", 12).is_empty());
        // A single digit has ten values, and the call's own is none of them.
        let one = variants("fib(5)", 12);
        assert_eq!(one.len(), 9, "{one:?}");
        assert!(!one.contains(&"fib(5)".to_string()));
    }

    #[test]
    fn a_literal_s_kind_is_what_its_first_character_shows() {
        assert_eq!(literal_kind("'1:02:05'"), literal_kind("\"2:11:33\""));
        assert_eq!(literal_kind("734"), literal_kind("-2.5"));
        assert_ne!(literal_kind("734"), literal_kind("'734'"));
        assert_ne!(literal_kind("None"), literal_kind("30"));
        assert_eq!(literal_kind("True"), "True");
    }

    #[test]
    fn two_strings_are_told_where_they_differ() {
        assert_eq!(
            difference("'01:02:05'", "'1:02:05'").as_deref(),
            Some("'01:02:05' has `0` at its start, where '1:02:05' has nothing")
        );
        assert_eq!(
            difference("'hello world'", "'hello_world'").as_deref(),
            Some("'hello world' has ` ` after `hello`, where 'hello_world' has `_`")
        );
        assert_eq!(
            difference("'1:2:05'", "'1:02:05'").as_deref(),
            Some("'1:2:05' has nothing after `1:`, where '1:02:05' has `0`")
        );
        assert_eq!(
            difference("'abc'", "'abcd'").as_deref(),
            Some("'abc' has nothing at its end, where 'abcd' has `d`")
        );
        // Capital letters alone are told otherwise; numbers are no text;
        // a long stretch says nothing a reader does not see.
        assert_eq!(difference("'Hello_World'", "'hello_world'"), None);
        assert_eq!(difference("12", "13"), None);
        assert_eq!(difference("'3'", "'Fizz'"), None);
        assert_eq!(
            difference("'the quick brown fox'", "'a slow red dog jumps'"),
            None
        );
    }

    #[test]
    fn a_value_is_the_goals_when_its_words_give_it() {
        let goal = "Write fizzbuzz(n) that returns 'Fizz' for multiples of 3, \"Buzz\" for 5, \
                    and True when n is 7.";
        assert!(given_by(goal, "'Fizz'"));
        assert!(given_by(goal, "'Buzz'"));
        assert!(given_by(goal, "3"));
        assert!(given_by(goal, "7"));
        assert!(given_by(goal, "True"));
        assert!(!given_by(goal, "'FizzBuzz'"));
        assert!(!given_by(goal, "'6'"));
        assert!(!given_by(goal, "6"));
        assert!(!given_by(goal, "''"));
        assert!(!given_by(goal, "False"));
        let counted = "Add count_vowels(text) that returns how many vowels the text has";
        assert!(!given_by(counted, "2"));
        assert!(given_by("returns [1, 2] for 2", "[1, 2]"));
    }

    #[test]
    fn the_goals_word_is_an_example_both_answers_agree_on_whose_value_it_gives() {
        let goal = "Give timeutil.py a format_duration(seconds) that returns the time as \
                    H:MM:SS, for example 3725 gives 1:02:05";
        let example = |call: &str, returns: &[&str]| Example {
            call: call.into(),
            returns: returns.iter().map(|r| r.to_string()).collect(),
            written: false,
            variant: false,
        };
        let examples = [
            // The second answer gave the value bare: it agrees.
            example("format_duration(3725)", &["'1:02:05'", "1:02:05"]),
            // Worked out by the model: not the goal's word.
            example("format_duration(60)", &["'0:01:00'", "'0:01:00'"]),
            // The answers disagree.
            example("format_duration(7)", &["'1:02:05'", "'0:00:07'"]),
            // No plain call.
            example("t.format_duration(3725)", &["'1:02:05'", "'1:02:05'"]),
        ];
        let given = goal_given(goal, &examples);
        assert_eq!(
            given,
            [("format_duration(3725)".to_string(), "'1:02:05'".to_string())]
        );
        assert_eq!(
            goal_says(&given, "format_duration( 3725 )"),
            Some("'1:02:05'")
        );
        assert_eq!(goal_says(&given, "format_duration(60)"), None);
        assert_eq!(
            goal_says(&given, "timeutil.format_duration(3725)"),
            Some("'1:02:05'")
        );
        assert_eq!(goal_says(&given, "format_duration(f(3725))"), None);
        assert!(same_call("f(1, 2)", "f(1,2)"));
        assert!(!same_call("f(1, 2)", "f(12)"));
    }

    #[test]
    fn a_calls_arguments_are_the_goals_when_its_words_give_each_literal() {
        let goal = "Add oldest(people) to people.py; oldest([]) is 'nobody', and 30 is an age";
        assert!(arguments_given(goal, "oldest([])"));
        assert!(arguments_given(goal, "f()"));
        assert!(
            arguments_given(goal, "oldest([{'age': 30}])"),
            "'age' and 30 are words of it"
        );
        assert!(!arguments_given(goal, "oldest(['Alice', 'Bob'])"));
        assert!(!arguments_given(goal, "oldest([{'age': 31}])"));
        assert!(
            arguments_given(goal, "oldest(x30)"),
            "a name is not a literal"
        );
        assert!(!arguments_given(goal, "oldest"), "not a call");
        assert_eq!(
            literals(r#"f('a\'b', "c", -2.5, True, x1)"#),
            ["'a\\'b'", "\"c\"", "2.5"]
        );
    }

    #[test]
    fn a_call_names_what_it_calls_only_when_it_is_a_plain_call() {
        assert_eq!(call_name(" fizzbuzz(15) "), Some("fizzbuzz"));
        assert_eq!(call_name("count_vowels('a, b')"), Some("count_vowels"));
        assert_eq!(call_name("x.f(1)"), None);
        assert_eq!(call_name("f(1) + 1"), None);
        assert_eq!(call_name("3"), None);
    }

    #[test]
    fn what_a_run_printed_is_read_line_by_line() {
        let printed = "{\"imported\": true}\n\
            {\"call\": \"f(3)\", \"wanted\": \"'Fizz'\", \"got\": \"'3'\", \"same\": false}\n\
            {\"call\": \"f(x)\", \"unusable\": \"ValueError: malformed node\"}\n\
            {\"call\": \"f(5)\", \"wanted\": \"'Buzz'\", \"raised\": \"TypeError: no\"}\n\
            {\"call\": \"f(1)\", \"wanted\": \"'1'\", \"got\": \"'1'\", \"same\": true}\n";
        let (tried, seen) = read(printed).unwrap();
        assert_eq!(seen, 4);
        assert_eq!(tried.len(), 3);
        assert_eq!(tried[0].got, Ok("'3'".into()));
        assert!(!tried[0].same);
        assert_eq!(tried[1].got, Err("raised TypeError: no".into()));
        assert!(!tried[1].same);
        assert!(tried[2].same);
        assert_eq!(read("{\"unusable\": \"importing f: SystemExit\"}"), None);
        assert_eq!(read(""), None);
    }
}
