//! Files a reply gives as fenced code blocks instead of a `write_file`
//! call, and where a path is named in a text.

use crate::chat::ToolCall;

/// Files a reply gives as fenced code blocks instead of a `write_file` call
/// ("Here is the corrected content of `game.py`:" then ```` ```python ````):
/// small models fix a file so and then call only `run_cmd`. A block counts
/// when the text since the block before it names one of `paths` (the last
/// one named is the file); a block that is a tool call, or much shorter than
/// the file it would replace (`current` gives its text; a snippet, not the
/// file), does not, unless `part` takes it (path and block: a part the
/// file's language puts in beside what it holds).
pub fn fenced_files(
    text: &str,
    paths: &[String],
    current: impl Fn(&str) -> Option<String>,
    part: impl Fn(&str, &str) -> bool,
) -> Vec<ToolCall> {
    let mut writes: Vec<ToolCall> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let before = &rest[..open];
        let after_fence = &rest[open + 3..];
        let Some(line_end) = after_fence.find('\n') else {
            break;
        };
        let language = after_fence[..line_end].trim();
        let body = &after_fence[line_end + 1..];
        let Some(close) = body.find("```") else {
            break;
        };
        let code = &body[..close];
        rest = &body[close + 3..];
        let named = paths
            .iter()
            .filter_map(|path| mentions(before, path, false).last().map(|&at| (at, path)))
            .max();
        let Some((_, path)) = named else {
            continue;
        };
        let code = code.trim_end_matches([' ', '\t']);
        let looks_like_call = language == "json" || code.trim_start().starts_with('{');
        if code.trim().is_empty() || looks_like_call {
            continue;
        }
        let whole = current(path).is_none_or(|old| code.lines().count() * 2 >= old.lines().count());
        if whole || part(path, code) {
            writes.retain(|w| w.arguments["path"] != path.as_str());
            writes.push(ToolCall {
                name: "write_file".into(),
                arguments: serde_json::json!({ "path": path, "content": code }),
            });
        }
    }
    writes
}

/// Where `path` is named in `text` as a name of its own: not the end of a
/// longer name (`a.py` in `test_a.py`, and in `src/a.py` unless
/// `after_folder`, as in a traceback's `/work/a.py`).
pub fn mentions(text: &str, path: &str, after_folder: bool) -> Vec<usize> {
    text.match_indices(path)
        .map(|(at, _)| at)
        .filter(|&at| {
            text[..at].chars().next_back().is_none_or(|c| {
                !(c.is_alphanumeric() || c == '_' || c == '.' || (c == '/' && !after_folder))
            })
        })
        .collect()
}
