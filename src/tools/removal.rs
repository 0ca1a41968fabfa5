//! What a write took out of a file's previous content, for the model to
//! see what it lost: how many lines, and which top-level definitions are
//! gone. The definitions come from the language seam, compared by name and
//! kind, and only when the language parsed both versions (a file that did
//! not parse had no definitions to lose; one that does not parse now has
//! not lost them, it is broken, and its review or check says so). Without
//! languages, or for a file no language owns, lines only.

use similar::{ChangeTag, TextDiff};

use crate::lang::{Definition, Languages};

/// Names of lost definitions a result shows; the rest are counted, so a
/// rewrite that drops a whole module still gets a short result.
const NAMES_SHOWN: usize = 8;

/// What a write removed from the previous content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// Lines of the previous content the new one does not keep.
    pub lines: usize,
    /// The first of them, without its line end.
    pub first: String,
    /// The top-level definitions gone, by name, in the previous order.
    pub definitions: Vec<String>,
}

/// What writing `new` over `old` at `path` removes; `None` when no line of
/// `old` goes.
pub fn removal(path: &str, old: &str, new: &str, languages: Option<&Languages>) -> Option<Removal> {
    // A last line without its line end is the same line: a model that
    // writes a file back unchanged but for the final newline removed
    // nothing (told it removed the line, it went looking for a bug there).
    let ended = |text: &str| match text.ends_with('\n') || text.is_empty() {
        true => text.to_string(),
        false => format!("{text}\n"),
    };
    let (old_lines, new_lines) = (ended(old), ended(new));
    let diff = TextDiff::from_lines(&old_lines, &new_lines);
    let mut gone = diff
        .iter_all_changes()
        .filter(|change| change.tag() == ChangeTag::Delete);
    let first = gone.next()?.value().trim_end().to_string();
    let lines = 1 + gone.count();
    let definitions = languages
        .map(|languages| lost_definitions(languages, path, old, new))
        .unwrap_or_default();
    Some(Removal {
        lines,
        first,
        definitions,
    })
}

impl Removal {
    /// The tail of a write's result:
    /// `; it removed N line(s) of the previous content (first: "..."); the
    /// definition add is gone: ...`.
    pub fn describe(&self) -> String {
        format!(
            "; it removed {} line(s) of the previous content (first: {:?}){}",
            self.lines,
            self.first,
            lost(&self.definitions)
        )
    }
}

/// `; the definitions a, b are gone: ...` naming at most [`NAMES_SHOWN`],
/// or nothing when none is gone.
pub fn lost(names: &[String]) -> String {
    let (shown, more) = names.split_at(names.len().min(NAMES_SHOWN));
    let mut listed = shown.join(", ");
    if !more.is_empty() {
        listed.push_str(&format!(" and {} more", more.len()));
    }
    let (what, are) = match names.len() {
        0 => return String::new(),
        1 => ("definition", "is"),
        _ => ("definitions", "are"),
    };
    format!(
        "; the {what} {listed} {are} gone: if the goal did not ask for that, put {} back",
        if names.len() == 1 { "it" } else { "them" }
    )
}

/// The definitions of `old` that `new` no longer has, when the language of
/// `path` parsed both (one toolchain run for the two).
/// The top-level definitions of `old` that `new` no longer has, by name,
/// when the language of `path` parses both.
pub fn lost_definitions(languages: &Languages, path: &str, old: &str, new: &str) -> Vec<String> {
    let Some(language) = languages.for_path(path) else {
        return Vec::new();
    };
    let versions = [
        (path.to_string(), old.to_string()),
        (path.to_string(), new.to_string()),
    ];
    match language.parsed_definitions(&versions).as_slice() {
        [Some(before), Some(after)] => gone(before, after),
        _ => Vec::new(),
    }
}

/// The names of `before`'s definitions with no definition of the same name
/// and kind in `after`, each once.
fn gone(before: &[Definition], after: &[Definition]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for definition in before {
        let kept = after
            .iter()
            .any(|d| d.name == definition.name && d.kind == definition.kind);
        if !kept && !names.contains(&definition.name) {
            names.push(definition.name.clone());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defined(items: &[(&str, &str)]) -> Vec<Definition> {
        items
            .iter()
            .map(|(kind, name)| Definition {
                kind: kind.to_string(),
                name: name.to_string(),
                signature: format!("{name}()"),
                line: 1,
            })
            .collect()
    }

    #[test]
    fn a_definition_is_gone_when_no_one_of_its_name_and_kind_is_left() {
        let before = defined(&[("def", "add"), ("def", "average"), ("class", "Calc")]);
        let after = defined(&[("def", "average"), ("def", "Calc")]);
        assert_eq!(gone(&before, &after), ["add", "Calc"]);
        let twice = defined(&[("def", "f"), ("def", "f")]);
        assert_eq!(gone(&twice, &[]), ["f"]);
        assert!(gone(&before, &before).is_empty());
    }

    #[test]
    fn the_names_are_few_and_the_rest_counted() {
        assert_eq!(lost(&[]), "");
        assert_eq!(
            lost(&["add".into()]),
            "; the definition add is gone: if the goal did not ask for that, put it back"
        );
        let many: Vec<String> = (1..=11).map(|n| format!("f{n}")).collect();
        assert_eq!(
            lost(&many),
            "; the definitions f1, f2, f3, f4, f5, f6, f7, f8 and 3 more are gone: if the goal \
             did not ask for that, put them back"
        );
    }

    #[test]
    fn without_languages_a_removal_is_lines_only() {
        let lines_only = removal("calc.py", "def add():\n    pass\nx = 1\n", "x = 1\n", None);
        assert_eq!(
            lines_only,
            Some(Removal {
                lines: 2,
                first: "def add():".into(),
                definitions: Vec::new(),
            })
        );
        assert_eq!(removal("calc.py", "x = 1\n", "x = 1\ny = 2\n", None), None);
    }

    /// One python3 start a case (both versions in one): the only test here
    /// that runs the parser.
    #[test]
    fn python_names_the_lost_def_unless_a_version_did_not_parse() {
        let languages = Languages::default();
        let old = "def add(a, b):\n    return a + b\n\n\nclass Calc:\n    pass\n\n\ndef average(xs):\n    return sum(xs) / len(xs)\n";
        let new = "def average(xs):\n    return sum(xs) / len(xs)\n";
        let named = removal("calc.py", old, new, Some(&languages)).unwrap();
        assert_eq!(named.definitions, ["add", "Calc"]);
        assert!(
            named.describe().ends_with(
                "; the definitions add, Calc are gone: if the goal did not ask for that, put \
                 them back"
            ),
            "{}",
            named.describe()
        );
        let broken = "def add(a, b)\n    return a + b\n\n\ndef average(xs):\n    return 0\n";
        let unparsed = removal("calc.py", broken, new, Some(&languages)).unwrap();
        assert_eq!(
            (unparsed.lines, unparsed.definitions),
            (5, Vec::<String>::new()),
            "a file that did not parse had no definitions to lose"
        );
        let breaking = removal("calc.py", old, "def average(xs)\n", Some(&languages)).unwrap();
        assert_eq!(
            breaking.definitions,
            Vec::<String>::new(),
            "a file that does not parse now is broken, not emptied"
        );
    }

    #[test]
    fn a_missing_final_newline_removes_nothing() {
        let old = "def add(a, b):\n    return a + b\n";
        assert_eq!(removal("calc.py", old, old.trim_end(), None), None);
        let removed = removal("calc.py", old, "def add(a, b):", None).unwrap();
        assert_eq!(
            (removed.lines, removed.first.as_str()),
            (1, "    return a + b")
        );
    }
}
