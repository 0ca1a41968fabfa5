//! Small text helpers shared by the terminal and the views, and output that
//! never panics: a closed stdout or stderr (`runner … | head`) must not end a
//! run, so a failed write to either is ignored.

use std::io::Write;

/// A path or word as a shell word.
pub fn shell_quote(text: &str) -> String {
    shell_words::quote(text).into_owned()
}

/// Whether `text` has `word` as a word of its own: a run of letters,
/// digits and `_` (`add` in "add and mul", not in "address").
pub fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// `text` with each whole-word `word` (not a part of a path: `add.py`,
/// `mathx/add`) put as `with`.
pub fn replace_word(text: &str, word: &str, with: &str) -> String {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + word.len()..];
        let mut next = after.chars();
        let follows = next.next();
        let in_path = before == Some('/')
            || (matches!(follows, Some('.' | '/')) && next.next().is_some_and(part));
        let whole = !before.is_some_and(part) && !follows.is_some_and(part) && !in_path;
        out.push_str(&rest[..at]);
        out.push_str(if whole { with } else { word });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The names `text` gives in code form, each once: a name alone in
/// backticks (`` `add_item` ``), or called (`add_item(name)`, in
/// backticks or not). Paths, commands and expressions in backticks are
/// not names.
pub fn code_names(text: &str) -> Vec<String> {
    let identifier = |word: &str| {
        word.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && word.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let quoted = text
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::trim)
        .filter(|quoted| identifier(quoted))
        .map(str::to_string);
    let mut names: Vec<String> = Vec::new();
    for name in quoted.chain(crate::lang::called_names(text)) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Whether `text` names the file `path`: as a word of path characters
/// (letters, digits, `_./-`; a sentence's last `.` and a leading `./`
/// aside), the path itself or, for a path in a folder, its whole.
pub fn names_path(text: &str, path: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || "_./-".contains(c)))
        .map(|word| word.trim_end_matches('.').trim_start_matches("./"))
        .any(|word| word == path)
}

/// The first line of `text`, cut to `max` characters.
pub fn shorten(text: &str, max: usize) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if line.chars().count() <= max {
        return line.to_string();
    }
    let cut: String = line.chars().take(max).collect();
    format!("{cut}…")
}

/// Writes to stdout; a closed pipe is not an error worth stopping for.
pub fn out(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_fmt(args);
    let _ = out.flush();
}

/// Writes to stderr; a closed pipe is not an error worth stopping for.
pub fn err(args: std::fmt::Arguments) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `println!` that ignores a closed stdout.
#[macro_export]
macro_rules! outln {
    () => { $crate::text::out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::text::out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` that ignores a closed stdout.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::text::out(format_args!($($arg)*)) };
}

/// `eprintln!` that ignores a closed stderr.
#[macro_export]
macro_rules! errln {
    () => { $crate::text::err(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::text::err(format_args!("{}\n", format_args!($($arg)*))) };
}

#[cfg(test)]
mod tests {
    use super::{code_names, names_path, replace_word, shorten};

    #[test]
    fn names_in_code_form_are_those_quoted_alone_or_called() {
        assert_eq!(
            code_names(
                "Add a class `Inventory` with a method `add_item` (see `add_item(name)`), \
                 run `python3 -m pytest -q`, keep `inventory.py`; fix average(numbers) and \
                 the total (of it)"
            ),
            ["Inventory", "add_item", "average"]
        );
    }

    #[test]
    fn a_word_is_replaced_where_it_is_a_word_of_its_own() {
        assert_eq!(
            replace_word(
                "Fix `add` in calc.py; add.py, mathx/add, adder and add.",
                "add",
                "avg"
            ),
            "Fix `avg` in calc.py; add.py, mathx/add, adder and avg."
        );
    }

    #[test]
    fn a_text_names_a_path_as_a_word_of_its_own() {
        assert!(names_path("Change greet.py so that it shouts.", "greet.py"));
        assert!(names_path("`python3 ./greet.py --shout`", "greet.py"));
        assert!(names_path("see mathx/add.py", "mathx/add.py"));
        assert!(!names_path("see mathx/add.py", "add.py"));
        assert!(!names_path("greet.pyc", "greet.py"));
        assert!(!names_path("the greeting", "greet.py"));
    }

    #[test]
    fn shorten_keeps_the_first_line_and_cuts_it() {
        assert_eq!(shorten("\n  \nabcdef\nzz", 3), "abc…");
        assert_eq!(shorten("ab", 3), "ab");
    }
}
