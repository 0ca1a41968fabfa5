//! A tool call once its arguments are checked: what it does, in the
//! runner's own terms.

use std::time::Duration;

use serde_json::json;

use crate::state::guard;

/// A call whose arguments were checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// A tool that acts on the workspace.
    Action(Action),
    /// `mark_subtask_complete`.
    Complete { success: bool, reason: String },
    /// `note`.
    Note { text: String },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    ListDir {
        path: String,
    },
    ReadFile {
        path: String,
        max_bytes: usize,
    },
    WriteFile {
        path: String,
        content: String,
        create_dirs: bool,
    },
    EditFile {
        path: String,
        old: String,
        new: String,
    },
    Search {
        pattern: String,
        path: String,
    },
    RunCmd {
        cmd: String,
        timeout: Duration,
    },
}

impl Action {
    pub fn tool(&self) -> &'static str {
        match self {
            Action::ListDir { .. } => "list_dir",
            Action::ReadFile { .. } => "read_file",
            Action::WriteFile { .. } => "write_file",
            Action::EditFile { .. } => "edit_file",
            Action::Search { .. } => "search",
            Action::RunCmd { .. } => "run_cmd",
        }
    }

    /// One line for people: `write_file hello.py (42 bytes)`.
    pub fn summary(&self) -> String {
        match self {
            Action::ListDir { path } => format!("list_dir {path}"),
            Action::ReadFile { path, .. } => format!("read_file {path}"),
            Action::WriteFile { path, content, .. } => {
                format!("write_file {path} ({} bytes)", content.len())
            }
            Action::EditFile { path, old, new } => format!(
                "edit_file {path} ({} lines -> {} lines)",
                old.lines().count(),
                new.lines().count()
            ),
            Action::Search { pattern, path } => format!("search {pattern:?} in {path}"),
            Action::RunCmd { cmd, .. } => format!("run_cmd {cmd}"),
        }
    }

    /// The loop guard's signature, from the checked arguments (so that the
    /// same call written two ways is the same action).
    pub fn signature(&self) -> String {
        let args = match self {
            Action::ListDir { path } => json!({ "path": path }),
            Action::ReadFile { path, max_bytes } => json!({ "path": path, "max_bytes": max_bytes }),
            Action::WriteFile { path, content, .. } => json!({ "path": path, "content": content }),
            Action::EditFile { path, old, new } => {
                json!({ "path": path, "old": old, "new": new })
            }
            Action::Search { pattern, path } => json!({ "pattern": pattern, "path": path }),
            Action::RunCmd { cmd, .. } => json!({ "cmd": cmd }),
        };
        guard::signature(self.tool(), &args)
    }

    /// Changes nothing: safe to run again after a crash.
    pub fn is_read_only(&self) -> bool {
        matches!(
            self,
            Action::ListDir { .. } | Action::ReadFile { .. } | Action::Search { .. }
        )
    }
}
