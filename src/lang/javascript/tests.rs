//! JavaScript through node (the project's CI installs it).

use super::*;

struct Nothing;

impl Workspace for Nothing {
    fn text(&self, _: &str) -> Option<String> {
        None
    }
    fn files(&self) -> Vec<String> {
        Vec::new()
    }
    fn written(&self) -> Vec<String> {
        Vec::new()
    }
    fn existed(&self, _: &str) -> bool {
        false
    }
}

#[test]
fn test_files_are_those_node_test_runs() {
    for test in [
        "add.test.js",
        "test/add.js",
        "lib/add_test.mjs",
        "test-add.cjs",
    ] {
        assert!(JavaScript.is_test(test), "{test}");
    }
    for source in ["add.js", "testing.js", "contest.js", "test_add.py"] {
        assert!(!JavaScript.is_test(source), "{source}");
    }
}

#[test]
fn a_file_node_cannot_compile_is_refused_in_nodes_words() {
    let Review::Refuse(refusal) = JavaScript.review("add.js", "function (a) {\n", &Nothing) else {
        panic!("a file node cannot compile is refused");
    };
    assert_eq!(
        refusal.reason,
        "node cannot read add.js at line 1 (`function (a) {`): SyntaxError: Function statements \
         require a function name. Give the whole file with that fixed."
    );
    for fine in [
        "const add = (a, b) => a + b;\nmodule.exports = { add };\n",
        "import { add } from './add.js';\nexport const twice = (a) => add(a, a);\n",
    ] {
        assert_eq!(
            JavaScript.review("add.js", fine, &Nothing),
            Review::Accept,
            "{fine}"
        );
    }
    assert_eq!(
        JavaScript.review("notes.md", "function (", &Nothing),
        Review::Accept
    );
}

#[test]
fn top_level_declarations_are_the_definitions() {
    let defs = JavaScript.parsed_definitions(&[
        (
            "game.js".into(),
            "function play(a, b) {\n  function inner() {}\n  return a;\n}\nclass Game extends Base {}\nexport const score = async (x) => x;\n".into(),
        ),
        ("broken.js".into(), "function (\n".into()),
    ]);
    assert_eq!(
        defs[1], None,
        "a file node cannot compile has no definitions"
    );
    let found: Vec<(&str, u32)> = defs[0]
        .iter()
        .flatten()
        .map(|d| (d.signature.as_str(), d.line))
        .collect();
    assert_eq!(
        found,
        [("play(a, b)", 1), ("Game extends Base", 5), ("score(x)", 6)]
    );
}

#[test]
fn a_failed_node_test_points_at_its_file_and_line() {
    let output = "TAP version 13\n# Subtest: adds\nnot ok 1 - adds\n  ---\n  duration_ms: 8.1\n  location: '/w/add.test.js:2:1'\n  failureType: 'testCodeFailure'\n  error: |-\n    Expected values to be strictly equal:\n    \n    -1 !== 3\n  code: 'ERR_ASSERTION'\n  ...\n1..1\n# pass 0\n# fail 1\n";
    assert_eq!(
        JavaScript.failures(output),
        [Problem {
            path: "add.test.js".into(),
            line: Some(2),
            message: "Expected values to be strictly equal:".into(),
            caller: None,
        }]
    );
    assert!(JavaScript.failures("ok 1 - adds\n").is_empty());
}

#[test]
fn the_text_a_line_prints_as_it_is_is_its_strings_outside_their_fields() {
    assert_eq!(
        JavaScript.literal_pieces("  console.log(`Hello, ${name}!`);"),
        ["Hello, ", "!"]
    );
    assert_eq!(
        JavaScript.literal_pieces("console.log('Total: ' + n);"),
        ["Total: "]
    );
    assert!(JavaScript.literal_pieces("const n = 1;").is_empty());
}
