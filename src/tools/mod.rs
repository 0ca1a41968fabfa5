//! The tools the model gets, behind one registry: their schemas, the checking
//! of their arguments, and their execution inside the workspace.
//!
//! A refusal (bad path, command not allowed, bad arguments) is an answer for
//! the model, never an error of the run.

mod args;
mod command;
#[cfg(unix)]
mod confined;
#[cfg(not(unix))]
#[path = "confined_portable.rs"]
mod confined;
pub(crate) mod env;
mod files;
mod output;
pub mod paths;
mod policy;
pub mod process;
#[cfg(target_os = "linux")]
mod sandbox;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::chat::ToolCall;
use crate::guard;
use crate::model::ToolSpec;
use crate::state::ActionOutcome;
use crate::stop::Stop;
pub use command::DEFAULT_ALLOWED;
pub use files::sha256_hex;
pub use output::HeadTail;
pub use process::{Limits, become_subreaper};

/// Calls of one reply that run; the rest are refused. A model that emits
/// more is usually repeating itself.
pub const MAX_CALLS_PER_REPLY: usize = 10;
/// The largest content `write_file` accepts.
pub const MAX_WRITE_BYTES: usize = 10 * 1024 * 1024;

/// What the tools may do.
#[derive(Debug, Clone)]
pub struct ToolConfig {
    /// Programs `run_cmd` may start, by name.
    pub allowed: Vec<String>,
    /// Allow `python -c CODE`.
    pub allow_inline_python: bool,
    /// Confine commands with the OS sandbox where available.
    pub sandbox: bool,
    /// Timeout of a command when the model gives none.
    pub default_timeout: Duration,
    /// Bytes of a command's output the model is shown (head and tail).
    pub output_limit: usize,
    /// Resource limits of a command's processes.
    pub limits: Limits,
}

impl Default for ToolConfig {
    fn default() -> Self {
        ToolConfig {
            allowed: command::default_allowed(),
            allow_inline_python: false,
            sandbox: true,
            default_timeout: Duration::from_secs(120),
            output_limit: 8 * 1024,
            limits: Limits::default(),
        }
    }
}

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
            Action::RunCmd { cmd, .. } => json!({ "cmd": cmd }),
        };
        guard::signature(self.tool(), &args)
    }

    /// Changes nothing: safe to run again after a crash.
    pub fn is_read_only(&self) -> bool {
        matches!(self, Action::ListDir { .. } | Action::ReadFile { .. })
    }
}

/// The tools of one workspace.
#[derive(Debug, Clone)]
pub struct Toolbox {
    root: PathBuf,
    config: ToolConfig,
    /// The commands' own temp folder (their TMPDIR, writable in the
    /// sandbox), removed when the last clone of the toolbox goes.
    tmp: Option<Arc<tempfile::TempDir>>,
}

impl Toolbox {
    pub fn new(root: &Path, config: ToolConfig) -> Toolbox {
        let tmp = tempfile::Builder::new()
            .prefix("runner-tmp-")
            .tempdir()
            .ok()
            .map(Arc::new);
        Toolbox {
            root: root.to_path_buf(),
            config,
            tmp,
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> &ToolConfig {
        &self.config
    }

    /// Checks a call's name and arguments. `Err` is the message for the
    /// model: what was wrong and what is expected.
    pub fn parse(&self, call: &ToolCall) -> Result<Call, String> {
        args::parse(call, &self.config)
    }

    /// Runs an action. Never fails: what went wrong is in the outcome. A
    /// stop request ends a running command.
    pub async fn execute(&self, action: &Action, stop: &Stop) -> ActionOutcome {
        match action {
            Action::ListDir { path } => files::list_dir(&self.root, path),
            Action::ReadFile { path, max_bytes } => files::read_file(&self.root, path, *max_bytes),
            Action::WriteFile {
                path,
                content,
                create_dirs,
            } => files::write_file(&self.root, path, content, *create_dirs),
            Action::RunCmd { cmd, timeout } => {
                let tmp = self.tmp.as_deref().map(tempfile::TempDir::path);
                command::run(&self.root, cmd, *timeout, &self.config, tmp, stop).await
            }
        }
    }

    /// SHA-256 of a workspace file now, `None` when it does not exist or
    /// cannot be read (used to reconcile an interrupted write).
    pub fn hash_of(&self, path: &str) -> Option<String> {
        files::contents(&self.root, path).map(|bytes| sha256_hex(&bytes))
    }

    /// The current bytes of a workspace file, `None` when it does not exist.
    pub fn contents(&self, path: &str) -> Option<Vec<u8>> {
        files::contents(&self.root, path)
    }

    /// A workspace file as text in about `max` bytes, its head and tail
    /// when it is longer, read without loading the rest.
    pub fn excerpt(&self, path: &str, max: usize) -> Option<String> {
        files::excerpt(&self.root, path, max)
    }

    /// Whether a file the runner wrote still exists.
    pub fn exists(&self, path: &str) -> bool {
        files::exists(&self.root, path)
    }
}

/// Confined file operations for the runner's own commands (rollback, diff,
/// reconciling an interrupted write): the same path rules as the model's
/// tools, so a path from the log cannot lead out of the workspace either.
pub mod workspace {
    pub use super::files::{read, remove, remove_stale_temps, replace};
}

/// A line for the user when commands will run without the OS sandbox
/// although it was asked for; `None` when they are confined or the user
/// turned the sandbox off.
pub fn sandbox_notice(config: &ToolConfig, root: &Path) -> Option<String> {
    if !config.sandbox {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        sandbox::notice(root)
    }
    #[cfg(not(target_os = "linux"))]
    let _ = root;
    #[cfg(not(target_os = "linux"))]
    Some(
        "sandbox: there is no OS sandbox for commands on this system yet; only run_cmd's checks \
         stand between them and your files"
            .into(),
    )
}

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

/// The key that stands for arguments too large to keep: a call whose
/// arguments exceed [`MAX_ARGUMENTS_BYTES`] is logged with only their size,
/// and refused when it is checked. The log and the state never hold a
/// 50 MB argument, and the refusal is the same after a resume.
pub const TOO_LARGE: &str = "__too_large";
/// The largest arguments kept: the largest write and some room for the rest.
pub const MAX_ARGUMENTS_BYTES: usize = MAX_WRITE_BYTES + 64 * 1024;

/// The call as the runner logs it: its arguments replaced by their size when
/// they are too large to keep.
pub fn bounded(call: ToolCall) -> ToolCall {
    let size = match &call.arguments {
        Value::String(text) => text.len(),
        other => serde_json::to_vec(other).map_or(0, |bytes| bytes.len()),
    };
    if size <= MAX_ARGUMENTS_BYTES {
        return call;
    }
    // Small fields (a path) stay, so the log still says what was asked.
    let mut kept = serde_json::Map::new();
    if let Value::Object(fields) = &call.arguments {
        for (key, value) in fields {
            if value.as_str().is_none_or(|text| text.len() <= 1024) && !value.is_object() {
                kept.insert(key.clone(), value.clone());
            }
        }
    }
    kept.insert(TOO_LARGE.into(), size.into());
    ToolCall {
        name: call.name,
        arguments: Value::Object(kept),
    }
}

/// The names of the tools, for messages that list them.
pub fn names() -> Vec<&'static str> {
    specs().iter().map(|spec| spec.name).collect()
}
