//! The languages the runner knows, and which one owns a path.

use std::path::Path;

use super::{JavaScript, Language, Python};

/// Every language, in the order a workspace's check is looked for.
pub struct Languages {
    all: Vec<Box<dyn Language>>,
}

impl Default for Languages {
    fn default() -> Self {
        Languages {
            all: vec![Box::new(Python), Box::new(JavaScript)],
        }
    }
}

/// The languages by name (the tools that hold a registry are `Debug`).
impl std::fmt::Debug for Languages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.all().map(|l| l.name()))
            .finish()
    }
}

impl Languages {
    /// Every language, as the workspace map takes them.
    pub fn boxed(&self) -> &[Box<dyn Language>] {
        &self.all
    }

    pub fn all(&self) -> impl Iterator<Item = &dyn Language> {
        self.all.iter().map(|l| l.as_ref())
    }

    /// The language whose source `path` is.
    pub fn for_path(&self, path: &str) -> Option<&dyn Language> {
        self.all().find(|l| l.owns(path))
    }

    /// Whether `path` is a test file of any language.
    pub fn is_test(&self, path: &str) -> bool {
        self.for_path(path).is_some_and(|l| l.is_test(path))
    }

    /// The command that checks a workspace holding `files`: that of the
    /// language most of its test files are in, else of the first language
    /// with something to check.
    pub fn check_command(&self, root: &Path, files: &[String]) -> Option<String> {
        let tests = |l: &dyn Language| files.iter().filter(|f| l.is_test(f)).count();
        let mut languages: Vec<&dyn Language> = self.all().collect();
        languages.sort_by_key(|l| std::cmp::Reverse(tests(*l)));
        languages
            .into_iter()
            .find_map(|l| l.check_command(root, files))
    }
}

/// The check of a plan that writes `files` (the plan's own `check` as
/// given): with test files planned, the command that runs them (small
/// models give `pytest game.py`, which collects nothing); without them, a
/// test run or no check becomes a run of the last program planned.
impl Languages {
    /// `command` as the language of the file it runs must run it (see
    /// [`Language::as_run`]).
    pub fn as_run(
        &self,
        command: &str,
        text: &dyn Fn(&str) -> Option<String>,
    ) -> Option<super::RunAs> {
        self.all().find_map(|l| l.as_run(command, text))
    }

    pub fn plan_check(&self, files: &[String], check: &str) -> String {
        if let Some(tests) = self.check_command(Path::new("."), files) {
            return tests;
        }
        if let Some(check) = filled(check, files)
            && is_command(&check)
            && !self.all().any(|l| l.runs_tests(&check))
        {
            return check;
        }
        files
            .iter()
            .rev()
            .find_map(|f| Some(self.for_path(f)?.run_command(f)))
            .unwrap_or_default()
    }
}

/// `check` with each placeholder of a file (`<path-to-file>`, `<input
/// file>`, `<data.csv>`) made a sample input, `sample.txt` (of the
/// placeholder's extension when it has one), when the command runs one of
/// the planned `files`: the plan then writes that sample before the check
/// (see `decompose::inputs_of_checks`), and the check runs the program on
/// data. `None` when another placeholder, or a shell's `<` or `>`, is
/// left: such a check cannot run (`run_cmd` starts one program, without a
/// shell). A small model planned `python3 word_count.py <path-to-file>`,
/// and its check subtask and its cycle ran it, refused, until the run
/// ended; filled with the program itself, it ran on its own source, and
/// the model wrote the count of that file into the program.
fn filled(check: &str, files: &[String]) -> Option<String> {
    if !check.contains(['<', '>']) {
        return Some(check.to_string());
    }
    let words = shell_words::split(check).ok()?;
    words.iter().find(|word| files.contains(word))?;
    let filled: Vec<String> = words
        .iter()
        .map(
            |word| match word.strip_prefix('<').and_then(|w| w.strip_suffix('>')) {
                Some(inner) => sample(inner),
                None if word.contains(['<', '>']) => None,
                None => Some(word.clone()),
            },
        )
        .collect::<Option<_>>()?;
    Some(shell_words::join(filled))
}

/// The sample input that stands for a placeholder of a file (`inner` is
/// what is between `<` and `>`), or `None` for a placeholder of anything
/// else (`<number>`).
fn sample(inner: &str) -> Option<String> {
    let lower = inner.to_lowercase();
    let extension = lower
        .rsplit_once('.')
        .map(|(_, extension)| extension)
        .filter(|e| !e.is_empty() && e.len() <= 5 && e.chars().all(|c| c.is_ascii_alphanumeric()));
    if extension.is_none() && !lower.contains("file") && !lower.contains("path") {
        return None;
    }
    Some(format!("sample.{}", extension.unwrap_or("txt")))
}

/// Whether a planned check reads as a command: it splits into words as a
/// shell would, and its first word is a program's name or path (lower
/// case). A small model gave "Run the project's tests to ensure the
/// count_vowels function works as expected." as the check, and the check
/// subtask went on running it.
fn is_command(check: &str) -> bool {
    let Ok(words) = shell_words::split(check) else {
        return false;
    };
    words.first().is_some_and(|program| {
        program.chars().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-' | '/')
        }) && program.chars().any(|c| c.is_ascii_lowercase())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_in_prose_is_not_a_command() {
        let languages = Languages::default();
        let files = ["textutil.py".to_string()];
        let prose =
            "Run the project's tests to ensure the count_vowels function works as expected.";
        assert_eq!(languages.plan_check(&files, prose), "python3 textutil.py");
        assert_eq!(
            languages.plan_check(&files, "Run textutil.py"),
            "python3 textutil.py"
        );
        assert_eq!(
            languages.plan_check(&files, "python3 textutil.py --shout 'Ann'"),
            "python3 textutil.py --shout 'Ann'"
        );
        assert_eq!(languages.plan_check(&files, "./run.sh"), "./run.sh");
    }

    #[test]
    fn a_placeholder_of_a_file_in_a_check_is_a_sample_input() {
        let languages = Languages::default();
        let files = ["word_count.py".to_string()];
        assert_eq!(
            languages.plan_check(&files, "python3 word_count.py <path-to-file>"),
            "python3 word_count.py sample.txt"
        );
        assert_eq!(
            languages.plan_check(&files, "python3 word_count.py '<input file>' --top 3"),
            "python3 word_count.py sample.txt --top 3"
        );
        assert_eq!(
            languages.plan_check(&files, "python3 word_count.py <data.csv>"),
            "python3 word_count.py sample.csv"
        );
        // Any other placeholder, or a shell's redirection: the program's
        // own run.
        for check in [
            "python3 word_count.py <number>",
            "python3 word_count.py < notes.txt",
            "python3 word_count.py > out.txt",
        ] {
            assert_eq!(
                languages.plan_check(&files, check),
                "python3 word_count.py",
                "{check}"
            );
        }
    }

    #[test]
    fn a_path_belongs_to_the_language_of_its_kind() {
        let languages = Languages::default();
        assert_eq!(
            languages.for_path("a/game.py").map(|l| l.name()),
            Some("python")
        );
        assert_eq!(
            languages.for_path("game.js").map(|l| l.name()),
            Some("javascript")
        );
        assert!(languages.for_path("notes.txt").is_none());
        assert!(languages.is_test("test_game.py"));
        assert!(languages.is_test("test/game.js"));
        assert!(!languages.is_test("game.js"));
    }

    #[test]
    fn the_check_is_that_of_the_language_the_tests_are_in() {
        let languages = Languages::default();
        let root = Path::new(".");
        let files = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            languages.check_command(root, &files(&["game.py", "test_game.py"])),
            Some("python3 -m pytest -q".into())
        );
        assert_eq!(
            languages.check_command(root, &files(&["setup.py", "game.js", "game.test.js"])),
            Some("node --test".into())
        );
        assert_eq!(languages.check_command(root, &files(&["game.py"])), None);
    }

    #[test]
    fn a_plan_is_checked_by_its_tests_else_by_running_its_program() {
        let languages = Languages::default();
        let files = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            languages.plan_check(&files(&["add.js", "add.test.js"]), "npm test"),
            "node --test"
        );
        assert_eq!(
            languages.plan_check(&files(&["add.js"]), "node --test"),
            "node add.js"
        );
        assert_eq!(
            languages.plan_check(&files(&["hi.py"]), ""),
            "python3 hi.py"
        );
        assert_eq!(languages.plan_check(&files(&["hi.py"]), "make"), "make");
        assert_eq!(languages.plan_check(&files(&["notes.md"]), ""), "");
    }
}
