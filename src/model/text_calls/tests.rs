//! Tool calls written as text: the replies of real models, word for word
//! or shortened.

use super::*;
use serde_json::json;

const KNOWN: [&str; 3] = ["write_file", "run_cmd", "mark_subtask_complete"];

fn names(text: &str) -> Vec<(String, Value)> {
    extract(text, &KNOWN)
        .into_iter()
        .map(|c| (c.name, c.arguments))
        .collect()
}

#[test]
fn a_bare_object_with_prose_around_it() {
    let text = r#"I will write it now. {"name": "write_file", "arguments": {"path": "a.py", "content": "x = {1: 2}"}} Done."#;
    assert_eq!(
        names(text),
        [(
            "write_file".into(),
            json!({"path": "a.py", "content": "x = {1: 2}"})
        )]
    );
}

#[test]
fn a_fenced_function_object_with_parameters() {
    let text = "```json\n{\"type\": \"function\", \"function\": {\"name\": \"run_cmd\", \"parameters\": {\"cmd\": \"python3 a.py\"}}}\n```";
    assert_eq!(
        names(text),
        [("run_cmd".into(), json!({"cmd": "python3 a.py"}))]
    );
}

#[test]
fn several_calls_in_one_message_and_in_an_array() {
    let text = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": \"\"}}\n{\"name\": \"run_cmd\", \"arguments\": {\"cmd\": \"ls\"}}";
    assert_eq!(names(text).len(), 2);
    let array = r#"[{"name": "run_cmd", "arguments": {"cmd": "a"}}, {"name": "run_cmd", "arguments": {"cmd": "b"}}]"#;
    assert_eq!(names(array).len(), 2);
}

#[test]
fn qwen_tags_and_llama_functions() {
    let qwen = "<tool_call>\n{\"name\": \"mark_subtask_complete\", \"arguments\": {\"success\": true, \"reason\": \"ok\"}}\n</tool_call>";
    assert_eq!(names(qwen)[0].0, "mark_subtask_complete");
    let llama = "<function=run_cmd>{\"cmd\": \"pytest\"}</function>";
    assert_eq!(names(llama), [("run_cmd".into(), json!({"cmd": "pytest"}))]);
}

#[test]
fn arguments_as_a_string_and_doubled_braces_are_kept_for_the_parser() {
    let text = r#"{"name": "run_cmd", "arguments": "{\"cmd\": \"ls\"}"}"#;
    assert_eq!(
        names(text),
        [("run_cmd".into(), json!("{\"cmd\": \"ls\"}"))]
    );
    let doubled = r#"{{"name": "run_cmd", "arguments": {{"cmd": "ls"}}}}"#;
    assert_eq!(names(doubled), [("run_cmd".into(), json!({"cmd": "ls"}))]);
}

#[test]
fn calls_written_as_code() {
    // Qwen2.5-Coder 1.5B after a tool result, word for word.
    let qwen = r#"Mark_subtask_complete({"success": true, "reason": "Wrote hello_world.py and ran it successfully."})"#;
    assert_eq!(
        names(qwen),
        [(
            "mark_subtask_complete".into(),
            json!({"success": true, "reason": "Wrote hello_world.py and ran it successfully."})
        )]
    );
    let python = "Now: run_cmd(cmd='python3 a.py', timeout_sec=30)";
    assert_eq!(
        names(python),
        [(
            "run_cmd".into(),
            json!({"cmd": "python3 a.py", "timeout_sec": 30})
        )]
    );
    let keywords = r#"mark_subtask_complete(success=True, reason="it's done")"#;
    assert_eq!(
        names(keywords),
        [(
            "mark_subtask_complete".into(),
            json!({"success": true, "reason": "it's done"})
        )]
    );
    let after = "write_file: {\"path\": \"a.py\", \"content\": \"x\"}";
    assert_eq!(
        names(after),
        [("write_file".into(), json!({"path": "a.py", "content": "x"}))]
    );
    // A name in another case inside a JSON call.
    let cased = r#"{"name": "Write_File", "arguments": {"path": "a", "content": ""}}"#;
    assert_eq!(names(cased)[0].0, "write_file");
    // Words that only contain a name, or a name in prose, are no call.
    assert!(names("Call mark_subtask_complete when done.").is_empty());
    assert!(names("my_run_cmd(x=1)").is_empty());
    assert!(names("run_cmd(cmd=python3)").is_empty());
}

#[test]
fn python_strings_and_raw_line_breaks_are_repaired() {
    // Qwen2.5-Coder 1.5B, shortened: the content as a """ string.
    let qwen = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"test_a.py\",\n    \"content\": \"\"\"\nfrom a import f\n\ndef test_f():\n    assert f('x') == 'y'\n    \"\"\",\n    \"create_dirs\": true\n  }\n}\n```";
    assert_eq!(
        names(qwen),
        [(
            "write_file".into(),
            json!({"path": "test_a.py", "content": "from a import f\n\ndef test_f():\n    assert f('x') == 'y'\n    ", "create_dirs": true})
        )]
    );
    let raw = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.py\", \"content\": \"a = 1\n\tb = \\\"2\\\"\n\"}}";
    assert_eq!(
        names(raw),
        [(
            "write_file".into(),
            json!({"path": "a.py", "content": "a = 1\n\tb = \"2\"\n"})
        )]
    );
}

#[test]
fn a_raw_python_string_is_read_as_one() {
    // t98's textstats-tests, five times: `r"""` for each of an edit's texts.
    let qwen = "```json\n{\n  \"name\": \"edit_file\",\n  \"arguments\": {\n    \"path\": \"t.py\",\n    \"old\": r\"\"\"\n    x = 1\n    \"\"\",\n    \"new\": r\"\"\"\n    x = 2\n    \"\"\"\n  }\n}\n```";
    assert_eq!(
        names(qwen),
        [(
            "edit_file".into(),
            json!({"path": "t.py", "old": "    x = 1\n    ", "new": "    x = 2\n    "})
        )]
    );
    // A key or a string value that begins with r is no raw string.
    let plain = "{\"name\": \"run_cmd\", \"arguments\": {\"cmd\": \"rm -f x\"}}";
    assert_eq!(
        names(plain),
        [("run_cmd".into(), json!({"cmd": "rm -f x"}))]
    );
}

#[test]
fn a_backslash_before_a_typed_line_break_is_pythons_line_continuation() {
    // t34's rps, twice in a row: `or \` ends a line of the content, the
    // break after it typed, not written `\n`.
    let qwen = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"game.py\",\n    \"content\": \"def win(a, b):\\n    return (a == 'rock' and b == 'scissors') or \\\n         (a == 'paper' and b == 'rock')\\n\",\n    \"create_dirs\": true\n  }\n}\n```";
    assert_eq!(
        names(qwen),
        [(
            "write_file".into(),
            json!({"path": "game.py", "content": "def win(a, b):\n    return (a == 'rock' and b == 'scissors') or \\\n         (a == 'paper' and b == 'rock')\n", "create_dirs": true})
        )]
    );
}

#[test]
fn a_docstring_inside_a_python_string_does_not_end_it() {
    // Qwen2.5-Coder 1.5B adding count_vowels, nine times in a row.
    let qwen = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"textutil.py\",\n    \"content\": \"\"\"\ndef count_vowels(text):\n    \"\"\"The number of vowels.\"\"\"\n    return sum(1 for c in text if c in 'aeiou')\n    \"\"\"\n  }\n}\n```";
    assert_eq!(
        names(qwen),
        [(
            "write_file".into(),
            json!({"path": "textutil.py", "content": "def count_vowels(text):\n    \"\"\"The number of vowels.\"\"\"\n    return sum(1 for c in text if c in 'aeiou')\n    "})
        )]
    );
    // Two such strings, the comma between them left out.
    let edit = "{\"name\": \"edit_file\", \"arguments\": {\"path\": \"a.py\", \"old\": \"\"\"x = 1\"\"\"\n    \"new\": \"\"\"def f():\n    \"\"\"Doc.\"\"\"\n    return 2\n\"\"\"}}";
    assert_eq!(
        names(edit),
        [(
            "edit_file".into(),
            json!({"path": "a.py", "old": "x = 1", "new": "def f():\n    \"\"\"Doc.\"\"\"\n    return 2\n"})
        )]
    );
}

#[test]
fn a_docstring_inside_a_json_string_is_the_files_own() {
    // Qwen2.5-Coder 1.5B, as a real run wrote it eleven times in a row.
    let qwen = r#"```json
{"name": "write_file", "arguments": {"path": "textutil.py", "content": "def count_vowels(text):\n    """The number of vowels.\n    """\n    return sum(1 for c in text if c in 'aeiou')", "create_dirs": true}}
```"#;
    assert_eq!(
        names(qwen),
        [(
            "write_file".into(),
            json!({"path": "textutil.py", "content": "def count_vowels(text):\n    \"\"\"The number of vowels.\n    \"\"\"\n    return sum(1 for c in text if c in 'aeiou')", "create_dirs": true})
        )]
    );
    // A docstring that ends the content: its quotes, then the string's.
    let end = r#"{"name": "write_file", "arguments": {"path": "a.py", "content": "def f():\n    """Doc.""""}}"#;
    assert_eq!(
        names(end),
        [(
            "write_file".into(),
            json!({"path": "a.py", "content": "def f():\n    \"\"\"Doc.\"\"\""})
        )]
    );
}

#[test]
fn a_quote_of_the_content_left_unescaped_is_the_files_own() {
    // Qwen2.5-Coder 1.5B (u2's add-function run, `--api openai`), word for
    // word: `"!"` written `\'!"` (and a docstring's quotes unescaped),
    // five replies in a row.
    let qwen = r#"```json
{
  "name": "write_file",
  "arguments": {
    "path": "textutil.py",
    "content": "def reverse(text):\n    """The text backwards."""\n    return text[::-1]\n\n\ndef shout(text):\n    return text.upper() + \'!"\n\n\n"
  }
}
```"#;
    assert_eq!(
        names(qwen),
        [(
            "write_file".into(),
            json!({"path": "textutil.py", "content": "def reverse(text):\n    \"\"\"The text backwards.\"\"\"\n    return text[::-1]\n\n\ndef shout(text):\n    return text.upper() + '!\"\n\n\n"})
        )]
    );
    // Quotes of code: a dict, a call with two strings, a dict's value.
    let code = r#"{"name": "edit_file", "arguments": {"path": "a.py", "old": "x = 1", "new": "d = {"a": 1, "b": "c"}\nprint("x", "y")"}}"#;
    assert_eq!(
        names(code),
        [(
            "edit_file".into(),
            json!({"path": "a.py", "old": "x = 1", "new": "d = {\"a\": 1, \"b\": \"c\"}\nprint(\"x\", \"y\")"})
        )]
    );
}

#[test]
fn comments_in_the_json_are_not_its_values() {
    // Qwen2.5-Coder 1.5B (w1's cli-flag, `--api ollama`), word for word:
    // read as JSON, `old` ran on to the end of the call.
    let qwen = r#"```json
{
  "name": "edit_file",
  "arguments": {
    "path": "greet.py",
    "old": "return f'HELLO, {name}!'", // the line to replace
    "new": "return f'{name.upper()}!'" // the lines to put in their place
  }
}
```"#;
    assert_eq!(
        names(qwen),
        [(
            "edit_file".into(),
            json!({"path": "greet.py", "old": "return f'HELLO, {name}!'", "new": "return f'{name.upper()}!'"})
        )]
    );
    // Inside a string, `//` is the content's own.
    let url = r#"{"name": "write_file", "arguments": {"path": "u.py", "content": "u = 'http://x' // 2"}}"#;
    assert_eq!(names(url)[0].1["content"], "u = 'http://x' // 2");
}

#[test]
fn backslashes_that_start_no_escape_are_read_as_meant() {
    // Qwen2.5-Coder 1.5B, word for word at the end of a module.
    let qwen = r#"{"name": "write_file", "arguments": {"path": "g.py", "content": "    print(result)\n\if __name__ == '__main__':\n    main()"}}"#;
    assert_eq!(
        names(qwen)[0].1["content"],
        "    print(result)\n\nif __name__ == '__main__':\n    main()"
    );
    // Elsewhere a lone backslash is one, as in Python: a regex.
    let regex =
        r#"{"name": "write_file", "arguments": {"path": "r.py", "content": "p = r'\d+'\n"}}"#;
    assert_eq!(names(regex)[0].1["content"], "p = r'\\d+'\n");
    // Valid escapes are untouched.
    let valid =
        r#"{"name": "write_file", "arguments": {"path": "v.py", "content": "a\\b\t\"c\"\u00e9"}}"#;
    assert_eq!(names(valid)[0].1["content"], "a\\b\t\"c\"é");
}

#[test]
fn a_string_left_open_at_the_closing_fence_is_closed_there() {
    // Qwen2.5-Coder 1.5B, shortened: the file typed into the string,
    // then the fence, then prose.
    let qwen = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \"g.py\",\n    \"content\": \"def play(a, b):\n    return a\n```\n\nMark subtask complete.";
    assert_eq!(
        names(qwen),
        [(
            "write_file".into(),
            json!({"path": "g.py", "content": "def play(a, b):\n    return a"})
        )]
    );
    // A fence inside a string that is closed is content.
    let closed = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"R.md\", \"content\": \"a\n```\nb\"}}";
    assert_eq!(names(closed)[0].1["content"], "a\n```\nb");
}

#[test]
fn a_call_missing_its_last_brace_is_closed() {
    // Qwen2.5-Coder 1.5B, shortened: the outer object is never closed.
    let qwen = r#"{"name": "write_file", "arguments": {"path": "t.py", "content": "x = 1\n"}"#;
    assert!(names(qwen).is_empty());
    let calls = extract_unclosed(qwen, &KNOWN);
    assert_eq!(calls.len(), 1);
    assert_eq!(
        calls[0].arguments,
        json!({"path": "t.py", "content": "x = 1\n"})
    );
    assert!(extract_unclosed("no call here {", &KNOWN).is_empty());
    // In a fence: the outer object is open where the fence closes (l3's
    // add-function, six replies in a row, the run stopped for want of a
    // call), with a docstring's quotes left unescaped in one of them.
    let fenced = "```json\n{\n  \"name\": \"mark_subtask_complete\",\n  \"arguments\": {\n    \
                  \"success\": true,\n    \"reason\": \"ran it\"\n}\n```";
    let calls = extract_unclosed(fenced, &KNOWN);
    assert_eq!(calls.len(), 1, "{fenced}");
    assert_eq!(
        calls[0].arguments,
        json!({"success": true, "reason": "ran it"})
    );
    assert_eq!(
        names(fenced),
        [("mark_subtask_complete".into(), calls[0].arguments.clone())]
    );
    let docstring = "```json\n{\n  \"name\": \"write_file\",\n  \"arguments\": {\n    \"path\": \
                     \"t.py\",\n    \"content\": \"def f():\\n    \"\"\"Doc.\"\"\"\\n    return 1\"\n}\n```";
    let calls = extract_unclosed(docstring, &KNOWN);
    assert_eq!(calls.len(), 1, "{docstring}");
    assert_eq!(
        calls[0].arguments["content"],
        "def f():\n    \"\"\"Doc.\"\"\"\n    return 1"
    );
}

#[test]
fn a_file_repeated_until_the_cap_is_cut_where_the_repetition_began() {
    // Qwen2.5-Coder 1.5B, shortened: a block of asserts written again
    // and again until the 1024-token cap cut the reply mid-line.
    let head =
        "from g import play\n\ndef test_play():\n    assert play('rock', 'scissors') == 'P1'\n";
    let block = "    assert play('rock', 'rock') == 'Tie'\n    assert play('rock', 'paper') == 'P2'\n    assert play('paper', 'scissors') == 'P2'\n";
    let file = format!("{head}{}{}    assert play('ro", block, block.repeat(3));
    let qwen = format!(
        "```json\n{{\n  \"name\": \"write_file\",\n  \"arguments\": {{\n    \"path\": \"test_g.py\",\n    \"content\": \"\"\"\n{file}"
    );
    assert!(names(&qwen).is_empty(), "a cut call is not a call");
    let (calls, dropped) = cut_repetition(&qwen, &KNOWN).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].arguments["path"], "test_g.py");
    assert_eq!(calls[0].arguments["content"], format!("{head}{block}"));
    assert_eq!(dropped, 9);
    // The same, written as a JSON string cut after a backslash.
    let escaped =
        serde_json::to_string(&format!("{head}{}{}    x = '\\", block, block.repeat(2))).unwrap();
    let escaped = format!(
        "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"test_g.py\", \"content\": {}",
        &escaped[..escaped.len() - 2]
    );
    let (calls, dropped) = cut_repetition(&escaped, &KNOWN).unwrap();
    assert_eq!(calls[0].arguments["content"], format!("{head}{block}"));
    assert_eq!(dropped, 6);
    // A file only cut short, or ending in a few repeated lines, is not
    // written.
    let short = format!(
        "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"a.py\", \"content\": \"{}",
        "x = 1\\n".to_string() + "def f():\\n    return 1\\n    \\n    return 1\\n"
    );
    assert_eq!(cut_repetition(&short, &KNOWN), None);
    assert_eq!(cut_repetition("All done, no call.", &KNOWN), None);
    // Tests alike but for their names (u1's package run, to the cap six
    // times): the first of them is the file.
    let alike = crate::model::runaway::alike_tests(6);
    let qwen = format!(
        "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"mathx/test_add.py\", \"content\": \"from mathx.add import add\\n\\n{alike}def test_add_fo"
    );
    let (calls, dropped) = cut_repetition(&qwen, &KNOWN).unwrap();
    assert_eq!(
        calls[0].arguments["content"],
        "from mathx.add import add\n\ndef test_add(a, b):\n    assert add(a, b) == a + b\n\n"
    );
    assert_eq!(dropped, 15);
    // One line again and again with other numbers (x3's package run, to
    // the cap seven times): its first six lines are the test meant.
    let head = "import mathx\n\ndef test_add():\n";
    let counting = |n: usize| -> String {
        (0..n)
            .map(|i| {
                // Signed every other line, as x3's model wrote them.
                let x = 10i64.pow(i as u32) * if i % 2 == 1 { -1 } else { 1 };
                format!("    assert mathx.add({x}, {x}) == {}\n", 2 * x)
            })
            .collect()
    };
    let cut = |lines: &str| {
        let file = serde_json::to_string(&format!("{head}{lines}    assert mathx.add(1")).unwrap();
        format!(
            "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"test_mathx.py\", \"content\": {}",
            &file[..file.len() - 1]
        )
    };
    let (calls, dropped) = cut_repetition(&cut(&counting(14)), &KNOWN).unwrap();
    assert_eq!(
        calls[0].arguments["content"],
        format!("{head}{}", counting(6))
    );
    assert_eq!(dropped, 8);
    let triple = format!(
        "```json\n{{\n  \"name\": \"write_file\",\n  \"arguments\": {{\n    \"path\": \"test_mathx.py\",\n    \"content\": \"\"\"\n{head}{}    assert mathx.add(1",
        counting(15)
    );
    let (calls, _) = cut_repetition(&triple, &KNOWN).unwrap();
    assert_eq!(
        calls[0].arguments["content"],
        format!("{head}{}", counting(6))
    );
    // Fewer in a row, or lines that differ in more than their numbers: a
    // file cut short, not written.
    assert_eq!(cut_repetition(&cut(&counting(11)), &KNOWN), None);
    let named: String = (0..14)
        .map(|i| format!("    assert mathx.add{i}({i}, {i}) == f{i}\n"))
        .collect();
    assert_eq!(cut_repetition(&cut(&named), &KNOWN), None);
}

#[test]
fn template_markers_around_a_files_content_are_dropped() {
    let qwen = r#"{"name": "write_file", "arguments": {"path": "t.py", "content": "<|start-of-content|>\nimport pytest\n<|end-of-content|>"}}"#;
    assert_eq!(names(qwen)[0].1["content"], "import pytest\n");
    let python = r#"{"name": "write_file", "arguments": {"path": "t.py", "content": "<|python|>from m import f\n\nf()\n<|python|>"}}"#;
    assert_eq!(names(python)[0].1["content"], "from m import f\n\nf()\n");
    // Inside the content, and with other text on the line, they stay.
    let kept =
        r#"{"name": "write_file", "arguments": {"path": "t.md", "content": "a\n<|x|>\nb <|y|>"}}"#;
    assert_eq!(names(kept)[0].1["content"], "a\n<|x|>\nb <|y|>");
}

#[test]
fn files_given_as_code_blocks_become_writes() {
    // Qwen2.5-Coder 1.5B, shortened: the fix in a block, then a run.
    let qwen = "To fix the syntax error in `test_g.py`, close the strings. Here's the corrected content of `test_g.py`:\n\n```python\nfrom g import play\n\ndef test_tie():\n    assert play('rock', 'rock') == 'It\\'s a tie!'\n```\n\nAfter making this change, run the command again:\n\n```python\n{\"name\": \"run_cmd\", \"arguments\": {\"cmd\": \"python3 -m pytest -q\"}}\n```";
    let paths = ["g.py".to_string(), "test_g.py".to_string()];
    let old =
        "from g import play\n\ndef test_tie():\n    assert play('rock', 'rock') == 'It's a tie!'\n";
    let current = |path: &str| (path == "test_g.py").then(|| old.to_string());
    let writes = fenced_files(qwen, &paths, current, |_, _| false);
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert_eq!(writes[0].arguments["path"], "test_g.py");
    assert_eq!(
        writes[0].arguments["content"],
        "from g import play\n\ndef test_tie():\n    assert play('rock', 'rock') == 'It\\'s a tie!'\n"
    );
    // A block no file is named before, a snippet of a longer file, and
    // a file the run does not know are left alone.
    let unnamed = "Here's the corrected code:\n\n```python\nx = 1\n```";
    assert!(fenced_files(unnamed, &paths, current, |_, _| false).is_empty());
    let long = "a\n".repeat(40);
    let snippet = "In `test_g.py` change:\n```python\nx = 1\n```";
    assert!(fenced_files(snippet, &paths, |_| Some(long.clone()), |_, _| false).is_empty());
    // ... unless it is a part the file's language takes.
    let taken = fenced_files(
        snippet,
        &paths,
        |_| Some(long.clone()),
        |path, code| path == "test_g.py" && code == "x = 1\n",
    );
    assert_eq!(taken.len(), 1, "{taken:?}");
    let other = "In `other.py`:\n```python\nx = 1\n```";
    assert!(fenced_files(other, &paths, current, |_, _| false).is_empty());
}

#[test]
fn a_broken_call_is_diagnosed() {
    let cut = r#"{"name": "write_file", "arguments": {"path": "a.py", "content": "x = "#;
    let why = diagnose(cut, &KNOWN).unwrap();
    assert!(
        why.starts_with("it looks like a write_file call, but it is not valid JSON (EOF"),
        "{why}"
    );
    let unquoted = r#"{"name": "run_cmd", "arguments": {"cmd": python3 a.py}}"#;
    assert!(
        diagnose(unquoted, &KNOWN)
            .unwrap()
            .contains("a run_cmd call")
    );
    assert_eq!(diagnose("I wrote it. {\"ok\": tru", &KNOWN), None);
    assert_eq!(diagnose("All done!", &KNOWN), None);
}

#[test]
fn data_that_is_not_a_call_is_left_alone() {
    assert!(names(r#"The config is {"name": "Alice", "age": 3}."#).is_empty());
    assert!(names("no json here").is_empty());
    assert!(names("{broken").is_empty());
    // An unknown tool with arguments is a call (the loop corrects it).
    assert_eq!(
        names(r#"{"name": "delete_all", "arguments": {}}"#)[0].0,
        "delete_all"
    );
}

/// q2's add-palindrome (Ollama API): a write of strutil.py whose content,
/// after three lines, is line breaks alone to the token cap, three replies
/// in a row. The file up to them is written; a few blank lines at a cut
/// file's end are no repetition.
#[test]
fn blank_lines_to_the_cap_are_cut_where_they_began() {
    let reply = include_str!("../../../fixtures/replies/blank_lines_to_the_cap.txt");
    let (calls, dropped) = cut_repetition(reply, &KNOWN).unwrap();
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert!(dropped >= 100, "{dropped}");
    assert!(
        content.starts_with("def is_palindrome(word):\n")
            && content
                .trim_end()
                .ends_with("return word.lower() == word[::-1]"),
        "{content:?}"
    );
    assert!(!content.ends_with("\n\n\n"), "{content:?}");
    let short = "{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.py\", \"content\": \"x = 1\\n\\n\\n\\ndef f():\\n    return";
    assert_eq!(cut_repetition(short, &KNOWN), None);
}

/// t98's textstats-tests (Ollama API): a unittest file whose last asserts
/// are the same call of longer and longer strings, stopped by the runner
/// as they began to repeat, three times in a row. The file before the
/// repetition is written: the runner's own reading of where it began.
#[test]
fn a_reply_stopped_as_it_began_to_repeat_writes_its_file_up_to_there() {
    let reply = include_str!("../../../fixtures/replies/alike_asserts_stopped.txt");
    // Its asserts of longer and longer strings, of one shape, are cut by
    // the rules of a reply cut at the cap too, after the first six.
    let (calls, _) = cut_repetition(reply, &KNOWN).expect("lines of one shape");
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert_eq!(
        content
            .matches("self.assertEqual(textstats.longest_word(")
            .count(),
        6,
        "{content}"
    );
    let at = crate::model::runaway::repetition_start(reply).expect("repeating");
    let calls = super::cut_before(reply, at, &KNOWN).expect("a write");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].arguments["path"], "tests/test_textstats.py");
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert!(
        content.starts_with(
            "class TestTextStats(unittest.TestCase):\n    def test_count_lines(self):\n"
        ),
        "{content}"
    );
    assert!(
        content.contains("    def test_longest_word(self):\n"),
        "{content}"
    );
    assert!(content.ends_with(")\n"), "{content}");
    // Shorter than the reply's file, and every line of it whole.
    assert!(content.lines().count() < 21, "{content}");
    // Nothing before the repetition but prose: no write.
    assert_eq!(super::cut_before("I will write it.", 8, &KNOWN), None);
}

/// z5's add-tests (Ollama API): a test file's statements said for one fruit
/// after another, to the token cap. The file up to the listing and its
/// first lines is written.
#[test]
fn a_listing_of_the_same_statements_for_other_values_to_the_cap_is_cut() {
    let reply = include_str!("../../../fixtures/replies/listing_to_the_cap.txt");
    let (calls, dropped) = cut_repetition(reply, &KNOWN).unwrap();
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert!(dropped >= 40, "{dropped}");
    let last: Vec<&str> = content.lines().rev().take(7).collect();
    assert_eq!(last[6], "    inv = Inventory()", "{content}");
    assert!(
        last[..6]
            .iter()
            .all(|l| l.starts_with("    inv.") || l.starts_with("    assert inv.count(")),
        "{content}"
    );
    // The same statements for other values, fewer in a row, or more
    // shapes than a listing has: a file cut short, not written.
    let listing = |n: usize, shapes: usize| -> String {
        let text: String = (0..n)
            .map(|i| match i % shapes {
                0 => format!("    inv.add('fruit{i}', {i})\\n"),
                1 => format!("    assert inv.count('fruit{i}') == {i}\\n"),
                2 => format!("    inv.remove('fruit{i}', 1)\\n"),
                3 => format!("    assert inv.total() == {}\\n", i - 1),
                k => format!("    x{k} = {i}\\n"),
            })
            .collect();
        format!(
            "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"t.py\", \"content\": \"def test_f():\\n    inv = Inventory()\\n{text}    inv.ad"
        )
    };
    let (calls, _) = cut_repetition(&listing(30, 4), &KNOWN).unwrap();
    // `def test_f():` and `inv = Inventory()` (a fifth shape), then the
    // listing's first six lines.
    assert_eq!(
        calls[0].arguments["content"]
            .as_str()
            .unwrap()
            .lines()
            .count(),
        8
    );
    assert_eq!(cut_repetition(&listing(20, 4), &KNOWN), None);
    assert_eq!(cut_repetition(&listing(30, 5), &KNOWN), None);
}

/// t106's temps-tests (Ollama API): a test file's block of a comment, a
/// list, an assert and a blank line, written again with the numbers
/// counting on (`# Test 19`, `above(readings, -10)`), to the token cap
/// nine replies in a row. The file up to the blocks and their first two
/// is written.
#[test]
fn blocks_alike_but_for_their_numbers_to_the_cap_are_cut() {
    let reply = include_str!("../../../fixtures/replies/counted_blocks_to_the_cap.txt");
    let (calls, dropped) = cut_repetition(reply, &KNOWN).unwrap();
    assert_eq!(calls[0].arguments["path"], "tests/test_temps.py");
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert!(dropped >= 60, "{dropped}");
    assert!(
        content.starts_with("from temps import hottest, above\n\n# Test 1: hottest\n"),
        "{content}"
    );
    assert_eq!(content.matches("assert above(").count(), 2, "{content}");
    assert!(content.ends_with("\n"), "{content}");
    // Blocks that differ in a word, or too few of them: a file cut short,
    // not written.
    let blocks = |n: usize, named: bool| -> String {
        let text: String = (0..n)
            .map(|i| {
                let name = if named { format!("f{i}") } else { "f".into() };
                format!("# Test {i}\\nx = [{i}, 2]\\nassert {name}(x, {i}) == 0\\n\\n")
            })
            .collect();
        format!(
            "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"t.py\", \"content\": \"from m import f\\n\\n{text}# Test"
        )
    };
    let (calls, _) = cut_repetition(&blocks(6, false), &KNOWN).unwrap();
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert_eq!(content.matches("assert f(").count(), 2, "{content}");
    assert_eq!(cut_repetition(&blocks(3, false), &KNOWN), None);
    assert_eq!(cut_repetition(&blocks(8, true), &KNOWN), None);
}

/// t109's temps-tests (Ollama API): asserts of `hottest` on a list one item
/// longer each time, then reversed, to the token cap twice in a row. The
/// file up to them and their first six is written.
#[test]
fn lines_of_longer_and_longer_lists_to_the_cap_are_cut() {
    let reply = include_str!("../../../fixtures/replies/growing_lists_to_the_cap.txt");
    let (calls, dropped) = cut_repetition(reply, &KNOWN).unwrap();
    assert_eq!(calls[0].arguments["path"], "test_temps.py");
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert!(dropped >= 10, "{dropped}");
    assert!(
        content.starts_with("import temps\n\n# Test hottest function\n"),
        "{content}"
    );
    assert_eq!(
        content.matches("assert temps.hottest(").count(),
        6,
        "{content}"
    );
    // Fewer in a row, or lines of other shapes: a file cut short.
    let lines = |n: usize, other: bool| -> String {
        let text: String = (1..=n)
            .map(|i| {
                let items: Vec<String> = (1..=i).map(|x| x.to_string()).collect();
                let name = if other && i % 2 == 0 { "g" } else { "f" };
                format!("assert {name}([{}]) == {i}\\n", items.join(", "))
            })
            .collect();
        format!(
            "{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"t.py\", \"content\": \"from m import f, g\\n\\n{text}assert f(["
        )
    };
    let (calls, _) = cut_repetition(&lines(14, false), &KNOWN).unwrap();
    let content = calls[0].arguments["content"].as_str().unwrap();
    assert_eq!(content.matches("assert f(").count(), 6, "{content}");
    assert_eq!(cut_repetition(&lines(10, false), &KNOWN), None);
    assert_eq!(cut_repetition(&lines(14, true), &KNOWN), None);
}
