//! A command a reply gives as text instead of a `run_cmd` call: the one
//! line of its only code block (```` ```bash ````, or any block when the line
//! is the active check's command). Qwen2.5-Coder 1.5B, told to run the
//! check, answered with the command alone in a ```` ```python ```` block four
//! times in a row; none was taken, and the subtask ended stuck. A reply
//! with no code block that quotes the active check's command inline
//! (`` `python3 -m pytest -q` ``) is a run of it too: told to run the check,
//! the same model answered "you can call the `run_cmd` function with the
//! command `python3 -m pytest -q`" three times, and the run stopped.

use crate::chat::ToolCall;

/// Languages of a block that holds commands.
const SHELLS: [&str; 7] = ["", "bash", "sh", "shell", "console", "zsh", "shell-session"];

/// The `run_cmd` call a reply's text gives: its only fenced block holds one
/// line, a command of an `allowed` program, in a shell's block or equal to
/// `check`, the command the active subtask runs.
pub fn fenced_command(text: &str, allowed: &[String], check: Option<&str>) -> Option<ToolCall> {
    let blocks = blocks(text);
    if blocks.is_empty() {
        return quoted_check(text, check?);
    }
    let [(language, body)] = blocks.as_slice() else {
        return None;
    };
    let mut lines = body.lines().map(str::trim).filter(|line| !line.is_empty());
    let line = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    let cmd = line.strip_prefix("$ ").unwrap_or(line).trim();
    let words = shell_words::split(cmd).ok()?;
    if !allowed.iter().any(|program| Some(program) == words.first()) {
        return None;
    }
    let is_check = check.is_some_and(|check| check.split_whitespace().eq(cmd.split_whitespace()));
    if !(SHELLS.contains(&language.to_ascii_lowercase().as_str()) || is_check) {
        return None;
    }
    Some(ToolCall {
        name: "run_cmd".into(),
        arguments: serde_json::json!({ "cmd": cmd }),
    })
}

/// The run of `check` when `text` quotes it inline, between single
/// backquotes.
fn quoted_check(text: &str, check: &str) -> Option<ToolCall> {
    let quoted = text
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|span| span.split_whitespace().eq(check.split_whitespace()))?;
    Some(ToolCall {
        name: "run_cmd".into(),
        arguments: serde_json::json!({ "cmd": quoted.trim() }),
    })
}

/// The fenced blocks of `text`: the language after the opening fence, and
/// the body.
pub fn blocks(text: &str) -> Vec<(&str, &str)> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(line_end) = after.find('\n') else {
            break;
        };
        let body = &after[line_end + 1..];
        let Some(close) = body.find("```") else {
            break;
        };
        blocks.push((after[..line_end].trim(), &body[..close]));
        rest = &body[close + 3..];
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed() -> Vec<String> {
        vec!["python3".into(), "node".into()]
    }

    fn cmd(text: &str, check: Option<&str>) -> Option<String> {
        fenced_command(text, &allowed(), check)
            .map(|call| call.arguments["cmd"].as_str().unwrap_or("").to_string())
    }

    #[test]
    fn the_one_command_of_a_shell_block_is_a_call() {
        let pytest = Some("python3 -m pytest -q".to_string());
        assert_eq!(
            cmd("Run it:\n```bash\n$ python3 -m pytest -q\n```", None),
            pytest
        );
        assert_eq!(cmd("```\npython3 -m pytest -q\n```\n", None), pytest);
        // Any block, when it is the check the subtask runs.
        assert_eq!(
            cmd(
                "```python\npython3  -m pytest -q\n```",
                Some("python3 -m pytest -q")
            ),
            Some("python3  -m pytest -q".to_string())
        );
    }

    #[test]
    fn code_and_programs_not_allowed_are_not_commands() {
        assert_eq!(cmd("```python\npython3 -m pytest -q\n```", None), None);
        assert_eq!(
            cmd("```python\nprint('hi')\n```", Some("python3 a.py")),
            None
        );
        assert_eq!(cmd("```bash\nrm -rf build\n```", None), None);
        assert_eq!(cmd("```bash\npython3 a.py\npython3 b.py\n```", None), None);
        assert_eq!(
            cmd(
                "```bash\npython3 a.py\n```\nthen\n```bash\npython3 b.py\n```",
                None
            ),
            None
        );
        assert_eq!(cmd("python3 a.py", Some("python3 a.py")), None);
    }

    #[test]
    fn the_check_quoted_inline_in_prose_is_a_call() {
        let prose = "To run the `pytest` command again, you can call the `run_cmd` function with \
                     the command `python3 -m pytest -q`.";
        assert_eq!(
            cmd(prose, Some("python3 -m pytest -q")),
            Some("python3 -m pytest -q".to_string())
        );
        // Another command quoted, or no check: nothing.
        assert_eq!(cmd(prose, Some("python3 calc.py")), None);
        assert_eq!(cmd(prose, None), None);
    }
}
