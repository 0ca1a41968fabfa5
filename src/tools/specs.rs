//! The schemas of the tools, as the model is shown them.

use serde_json::{Value, json};

use crate::chat::ToolSpec;

/// The schemas of the tools, as data for the model client.
pub fn specs() -> &'static [ToolSpec] {
    static SPECS: std::sync::LazyLock<Vec<ToolSpec>> = std::sync::LazyLock::new(build_specs);
    &SPECS
}

fn build_specs() -> Vec<ToolSpec> {
    let string = |description: &str| json!({ "type": "string", "description": description });
    vec![
        ToolSpec {
            name: "list_dir",
            description: "List the files and folders at a path of the workspace.",
            parameters: object(
                json!({ "path": string("folder relative to the workspace, e.g. \".\"") }),
                &["path"],
            ),
        },
        ToolSpec {
            name: "read_file",
            description: "Read a text file of the workspace.",
            parameters: object(
                json!({
                    "path": string("file relative to the workspace"),
                    "max_bytes": { "type": "integer", "description": "read at most this many bytes (default 20000)" }
                }),
                &["path"],
            ),
        },
        ToolSpec {
            name: "write_file",
            description: "Create or overwrite a file of the workspace with the full content given.",
            parameters: object(
                json!({
                    "path": string("file relative to the workspace, e.g. \"hello.py\""),
                    "content": string("the whole new content of the file"),
                    "create_dirs": { "type": "boolean", "description": "create missing parent folders (default true)" }
                }),
                &["path", "content"],
            ),
        },
        ToolSpec {
            name: "edit_file",
            description: "Change part of an existing file: replace the one passage `old` (quoted exactly as read_file shows it, a few lines) with `new`. The rest of the file stays as it is.",
            parameters: object(
                json!({
                    "path": string("file relative to the workspace"),
                    "old": string("the lines to replace, exactly as they are in the file; they must occur once"),
                    "new": string("the lines to put in their place")
                }),
                &["path", "old", "new"],
            ),
        },
        ToolSpec {
            name: "search",
            description: "Find the lines of the workspace's files that match a regular expression; answers `path:line: text`.",
            parameters: object(
                json!({
                    "pattern": string("a regular expression, e.g. \"def average\""),
                    "path": string("folder or file to search in (default \".\", the whole workspace)")
                }),
                &["pattern"],
            ),
        },
        ToolSpec {
            name: "run_cmd",
            description: "Run a program in the workspace, e.g. \"python3 hello.py\" or \"python3 -m pytest -q\". No shell: pipes, && and ; do not work. Allowed programs: python, python3, pytest, ruff, pip, pip3.",
            parameters: object(
                json!({
                    "cmd": string("the command line"),
                    "timeout_sec": { "type": "integer", "description": "seconds before the command is killed (default 120)" }
                }),
                &["cmd"],
            ),
        },
        ToolSpec {
            name: "mark_subtask_complete",
            description: "Say that the ACTIVE SUBTASK is done (success=true) or cannot be done (success=false), with the reason.",
            parameters: object(
                json!({
                    "success": { "type": "boolean", "description": "true when the subtask is done" },
                    "reason": string("what was done, or why it cannot be done")
                }),
                &["success", "reason"],
            ),
        },
        ToolSpec {
            name: "note",
            description: "Keep a short fact for later rounds (shown under NOTES).",
            parameters: object(json!({ "text": string("the fact to keep") }), &["text"]),
        },
    ]
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required })
}

/// The names of the tools, for messages that list them.
pub fn names() -> Vec<&'static str> {
    specs().iter().map(|spec| spec.name).collect()
}
