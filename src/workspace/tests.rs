//! The map's ranking and bounds, with a test double of a language: `.py`
//! files, tests named `test_*.py`, definitions read from `def ` lines (the
//! double's own stand-in for a parser).

use std::path::Path;

use super::*;
use crate::lang::{Definition, Language, Problem, Review, Workspace};

struct Snake;

impl Language for Snake {
    fn name(&self) -> &'static str {
        "snake"
    }
    fn owns(&self, path: &str) -> bool {
        path.ends_with(".py")
    }
    fn is_test(&self, path: &str) -> bool {
        path.rsplit('/')
            .next()
            .is_some_and(|f| f.starts_with("test_"))
            && self.owns(path)
    }
    fn check_command(&self, _root: &Path, files: &[String]) -> Option<String> {
        files
            .iter()
            .any(|f| self.is_test(f))
            .then(|| "python3 -m pytest -q".to_string())
    }
    fn run_command(&self, path: &str) -> String {
        format!("python3 {path}")
    }
    fn test_path(&self, module: &str) -> Option<String> {
        (self.owns(module) && !self.is_test(module)).then(|| format!("test_{module}"))
    }
    fn runs_tests(&self, command: &str) -> bool {
        command.contains("pytest")
    }
    fn test_file_hint(&self, _program: &str) -> String {
        String::new()
    }
    fn definitions(&self, files: &[(String, String)]) -> Vec<Vec<Definition>> {
        files
            .iter()
            .map(|(_, text)| {
                text.lines()
                    .enumerate()
                    .filter_map(|(i, line)| {
                        let signature = line.strip_prefix("def ")?.trim_end_matches(':');
                        Some(Definition {
                            kind: "def".into(),
                            name: signature.split('(').next()?.to_string(),
                            signature: signature.to_string(),
                            line: i as u32 + 1,
                        })
                    })
                    .collect()
            })
            .collect()
    }
    fn review(&self, _: &str, _: &str, _: &dyn Workspace) -> Review {
        Review::Accept
    }
    fn failures(&self, _: &str) -> Vec<Problem> {
        Vec::new()
    }
}

fn languages() -> Vec<Box<dyn Language>> {
    vec![Box::new(Snake)]
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const CALC: &str = "def add(a, b):\n    return a + b\n\ndef average(numbers):\n    return 0\n";
const TEST_CALC: &str = "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n";

#[test]
fn the_map_names_files_sizes_definitions_tests_and_the_check() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "calc.py", CALC);
    write(dir.path(), "test_calc.py", TEST_CALC);
    write(dir.path(), "README.md", "calc\n");
    let map = Map::build(dir.path(), &languages(), "Fix the bug in calc.py");
    pretty_assertions::assert_eq!(
        map.text(),
        "WORKSPACE (3 files already in the folder; path, size, [test], top-level definitions):\n\
         calc.py (68 B): def add(a, b), def average(numbers)\n\
         test_calc.py (64 B) [test]: def test_add()\n\
         README.md (5 B)\n\
         The project's tests run with: `python3 -m pytest -q`"
    );
    assert_eq!(map.left_out(), 0);
    assert!(map.names_a_file("Fix average in calc.py"));
    assert!(map.names_a_file("run the calc tests"));
    assert!(!map.names_a_file("Write hello.py"));
}

#[test]
fn a_project_without_tests_is_told_where_they_go() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "README.md", "inventory\n");
    write(dir.path(), "inventory.py", CALC);
    let map = Map::build(
        dir.path(),
        &languages(),
        "Add pytest tests for inventory.py",
    );
    assert!(
        map.text().ends_with(
            "No tests yet: tests go in a file of their own, named so the test runner finds \
             them: test_inventory.py for inventory.py"
        ),
        "{}",
        map.text()
    );
    // With tests, nothing is said of where they go.
    write(dir.path(), "test_inventory.py", TEST_CALC);
    let map = Map::build(dir.path(), &languages(), "anything");
    assert!(!map.text().contains("No tests yet"), "{}", map.text());
}

#[test]
fn an_empty_folder_has_an_empty_map() {
    let dir = tempfile::tempdir().unwrap();
    let map = Map::build(dir.path(), &languages(), "Write hello.py");
    assert!(map.is_empty());
    assert_eq!(map.text(), "");
}

#[test]
fn gitignored_files_are_not_in_the_map() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "calc.py", CALC);
    write(dir.path(), "venv/lib/site.py", CALC);
    write(dir.path(), ".gitignore", "venv/\n");
    let map = Map::build(dir.path(), &languages(), "anything");
    assert!(!map.text().contains("venv"), "{}", map.text());
    assert!(map.text().contains("calc.py"));
}

#[test]
fn ten_thousand_files_fit_the_budget_with_the_named_and_the_tests_first() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..10_000 {
        write(
            dir.path(),
            &format!("pkg{}/module_{i:05}.py", i % 20),
            "def f(x):\n    return x\n",
        );
    }
    write(dir.path(), "deep/er/target_module.py", CALC);
    write(dir.path(), "deep/er/test_things.py", TEST_CALC);
    let map = Map::build(dir.path(), &languages(), "Change average in target_module");
    let text = map.text();
    assert!(text.len() <= MAP_BUDGET, "{} bytes", text.len());
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].starts_with("deep/er/target_module.py"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("def average(numbers)"));
    assert!(
        lines[2].starts_with("deep/er/test_things.py"),
        "{}",
        lines[2]
    );
    assert!(map.left_out() > 9_000);
    assert!(text.contains(&format!("({} more files not shown)", map.left_out())));
    assert!(map.names_a_file("edit pkg3/module_00003.py"));
}

#[test]
fn a_long_line_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let many: String = (0..100)
        .map(|i| format!("def function_{i}(a, b):\n    pass\n"))
        .collect();
    write(dir.path(), "big.py", &many);
    let map = Map::build(dir.path(), &languages(), "");
    let line = map.text().lines().nth(1).unwrap();
    assert!(line.len() <= 240 && line.ends_with(" ..."), "{line}");
}
