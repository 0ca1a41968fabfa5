//! The tools the model gets, behind one registry: their schemas, the checking
//! of their arguments, and their execution inside the workspace.
//!
//! A refusal (bad path, command not allowed, bad arguments) is an answer for
//! the model, never an error of the run.

mod args;
mod call;
mod command;
#[cfg(unix)]
mod confined;
#[cfg(not(unix))]
#[path = "confined_portable.rs"]
mod confined;
mod edit;
pub(crate) mod env;
mod files;
#[cfg(target_os = "linux")]
mod namespace;
mod network;
mod output;
pub mod paths;
mod policy;
pub mod process;
#[cfg(unix)]
mod readable;
pub mod refusal;
#[cfg(test)]
mod refusal_tests;
mod removal;
#[cfg(target_os = "linux")]
mod sandbox;
mod search;
mod specs;
mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::chat::ToolCall;
use crate::state::ActionOutcome;
use crate::stop::Stop;
pub use call::{Action, Call};
pub use command::{DEFAULT_ALLOWED, printed};
pub use edit::{
    apply as apply_edit, last_lines, made_before as edit_made_before, smallest as smallest_edit,
};
pub use files::sha256_hex;
pub use output::HeadTail;
pub use policy::input_file;
pub use process::{Limits, become_subreaper};
pub use refusal::{Refusal, RefusalKind};
pub use removal::lost_definitions;
pub use specs::{names, specs};
pub use write::{NOTE, keep_final_newline};

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
    /// Paths commands may read besides the workspace, the system and the
    /// allowed programs' installations (`--allow-read`).
    pub allow_read: Vec<PathBuf>,
    /// Let commands reach the network (`--allow-net`).
    pub allow_net: bool,
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
            allow_read: Vec::new(),
            allow_net: false,
            default_timeout: Duration::from_secs(120),
            output_limit: 8 * 1024,
            limits: Limits::default(),
        }
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
    /// What commands may read besides the workspace and the temp folder,
    /// found at the first command and kept for the run.
    reads: Arc<tokio::sync::OnceCell<Vec<PathBuf>>>,
    /// The languages that name what a write removed; none: lines only.
    languages: Option<Arc<crate::lang::Languages>>,
}

impl Toolbox {
    pub fn new(root: &Path, config: ToolConfig) -> Toolbox {
        let tmp = tempfile::Builder::new()
            .prefix("runner-tmp-")
            .tempdir_in(env::temp_root())
            .map_err(|error| tracing::warn!(%error, "no temp folder for the commands"))
            .ok()
            .map(Arc::new);
        Toolbox {
            root: root.to_path_buf(),
            config,
            tmp,
            reads: Arc::default(),
            languages: None,
        }
    }

    /// The same tools over another folder, `root` (a copy of the
    /// workspace an answer is tried in before it is written): the same
    /// whitelist, sandbox and limits, a temp folder of its own.
    pub fn elsewhere(&self, root: &Path) -> Toolbox {
        Toolbox::new(root, self.config.clone())
    }

    /// The same tools, with `languages` to say which definitions a write
    /// or an edit removed.
    pub fn with_languages(self, languages: crate::lang::Languages) -> Toolbox {
        let languages = Some(Arc::new(languages));
        Toolbox { languages, ..self }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> &ToolConfig {
        &self.config
    }

    /// Checks a call's name and arguments. `Err` is the refusal the model
    /// is told: what was wrong and what is expected.
    pub fn parse(&self, call: &ToolCall) -> Result<Call, Refusal> {
        args::parse(call, &self.config)
    }

    /// The limits of a command the runner makes itself: the model's, but
    /// its program may be given inline (`python3 -c`), which the model's
    /// may not (the model is told to write its code to a file, where it is
    /// reviewed and kept; the runner's command only looks at the work).
    fn own_config(&self) -> ToolConfig {
        ToolConfig {
            allow_inline_python: true,
            ..self.config.clone()
        }
    }

    /// Runs an action. Never fails: what went wrong is in the outcome. A
    /// stop request ends a running command.
    pub async fn execute(&self, action: &Action, stop: &Stop) -> ActionOutcome {
        self.execute_over(action, None, stop).await
    }

    /// [`Toolbox::execute`], a write or an edit over `prior`, the file's
    /// bytes as the caller read them (`Some(None)`: no file), so that one
    /// write reads its file once.
    pub async fn execute_over(
        &self,
        action: &Action,
        prior: Option<Option<Vec<u8>>>,
        stop: &Stop,
    ) -> ActionOutcome {
        self.execute_with(action, prior, &self.config, stop).await
    }

    /// [`Toolbox::execute`] of an action of the runner's own: a command
    /// runs within its limits (see `own_config`).
    pub async fn execute_own(&self, action: &Action, stop: &Stop) -> ActionOutcome {
        self.execute_with(action, None, &self.own_config(), stop)
            .await
    }

    async fn execute_with(
        &self,
        action: &Action,
        prior: Option<Option<Vec<u8>>>,
        config: &ToolConfig,
        stop: &Stop,
    ) -> ActionOutcome {
        match action {
            Action::ListDir { path } => files::list_dir(&self.root, path),
            Action::ReadFile { path, max_bytes } => files::read_file(&self.root, path, *max_bytes),
            Action::WriteFile {
                path,
                content,
                create_dirs,
            } => write::write_over(
                &self.root,
                path,
                content,
                *create_dirs,
                self.languages(),
                prior,
            ),
            Action::EditFile { path, old, new } => {
                edit::edit_over(&self.root, path, old, new, self.languages(), prior)
            }
            Action::Search { pattern, path } => search::search(&self.root, pattern, path),
            Action::RunCmd { cmd, timeout } => {
                let place = self.place().await;
                let text = |path: &str| String::from_utf8(files::contents(&self.root, path)?).ok();
                // A language's run of the program, its input file after.
                let (program, input) = match policy::input_file(cmd) {
                    Some((program, path)) => (program, Some(path)),
                    None => (cmd.as_str(), None),
                };
                let as_run = self.languages().and_then(|l| l.as_run(program, &text));
                match as_run.map(|mut run_as| {
                    if let Some(path) = &input {
                        let path = shell_words::quote(path);
                        run_as.command = format!("{} < {path}", run_as.command);
                    }
                    run_as
                }) {
                    Some(run_as) => {
                        let outcome =
                            command::run(&place, &run_as.command, *timeout, config, stop).await;
                        command::ran_as(outcome, cmd, &run_as)
                    }
                    None => command::run(&place, cmd, *timeout, config, stop).await,
                }
            }
        }
    }

    /// Runs a command the runner made itself (a language's
    /// [`crate::lang::Language::examples_command`]), confined and limited
    /// as the model's commands are; it may give its program inline
    /// (`python3 -c`), which the model may not.
    pub async fn run_own(&self, cmd: &str, timeout: Duration, stop: &Stop) -> ActionOutcome {
        let place = self.place().await;
        command::run(&place, cmd, timeout, &self.own_config(), stop).await
    }

    /// [`Toolbox::run_own`] in a folder of its own that holds only
    /// `files` (paths relative to it, and their content), not in the
    /// workspace: a program the runner had written apart runs on copies of
    /// the workspace's samples, and what it writes goes with the folder.
    /// A folder that cannot be made is a refusal, as a command that cannot
    /// start is.
    pub async fn run_own_apart(
        &self,
        cmd: &str,
        files: &[(String, String)],
        timeout: Duration,
        stop: &Stop,
    ) -> ActionOutcome {
        let tmp = self.tmp.as_deref().map(tempfile::TempDir::path);
        let made = tempfile::Builder::new()
            .prefix("apart-")
            .tempdir_in(tmp.map_or_else(env::temp_root, Path::to_path_buf))
            .and_then(|dir| {
                for (path, content) in files {
                    let to = dir.path().join(path);
                    if let Some(parent) = to.parent() {
                        fs_err::create_dir_all(parent)?;
                    }
                    fs_err::write(to, content)?;
                }
                Ok(dir)
            });
        let dir = match made {
            Ok(dir) => dir,
            Err(error) => {
                return ActionOutcome::refused(
                    RefusalKind::CommandNotAllowed,
                    format!("no folder to run `{cmd}` apart in: {error}"),
                );
            }
        };
        let place = command::Place {
            root: dir.path(),
            tmp,
            reads: self.reads().await,
        };
        command::run(&place, cmd, timeout, &self.own_config(), stop).await
    }

    /// Where a command runs: the workspace, its temp folder, what it may
    /// read besides.
    async fn place(&self) -> command::Place<'_> {
        command::Place {
            root: &self.root,
            tmp: self.tmp.as_deref().map(tempfile::TempDir::path),
            reads: self.reads().await,
        }
    }

    fn languages(&self) -> Option<&crate::lang::Languages> {
        self.languages.as_deref()
    }

    /// What confined commands may read besides the workspace and the temp
    /// folder: the system, the allowed programs' installations (asked once
    /// per run) and `--allow-read`. Empty without the sandbox.
    async fn reads(&self) -> &[PathBuf] {
        self.reads
            .get_or_init(|| async {
                if !self.config.sandbox {
                    return Vec::new();
                }
                #[cfg(unix)]
                {
                    let env = env::child_env(self.tmp.as_deref().map(tempfile::TempDir::path));
                    let mut reads = readable::system();
                    reads.extend(
                        readable::installations(&self.config.allowed, &env, &self.root).await,
                    );
                    reads.extend(self.config.allow_read.iter().cloned());
                    reads
                }
                #[cfg(not(unix))]
                Vec::new()
            })
            .await
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

    /// The current text of a workspace file, `None` when it does not exist
    /// or is not UTF-8.
    pub fn text(&self, path: &str) -> Option<String> {
        String::from_utf8(self.contents(path)?).ok()
    }

    /// A workspace file as text in about `max` bytes, its head and tail
    /// when it is longer, read without loading the rest.
    pub fn excerpt(&self, path: &str, max: usize) -> Option<String> {
        files::excerpt(&self.root, path, max)
    }

    /// The path of a workspace file as the tools name it, `None` when it
    /// is refused.
    pub fn shown_path(&self, path: &str) -> Option<String> {
        files::shown_path(&self.root, path)
    }

    /// Whether a file the runner wrote still exists.
    pub fn exists(&self, path: &str) -> bool {
        files::exists(&self.root, path)
    }
}

/// The content a file would have after `action` when it writes one, given
/// its bytes `prior`: the whole content of a `write_file`, the edited text
/// of an `edit_file` that applies; `None` otherwise.
pub fn content_after(action: &Action, prior: Option<&[u8]>) -> Option<String> {
    match action {
        Action::WriteFile { content, .. } => Some(content.clone()),
        Action::EditFile { path, old, new } => {
            let text = std::str::from_utf8(prior?).ok()?;
            edit::apply(text, old, new, path).ok()
        }
        _ => None,
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
        sandbox::notice(root, config.allow_net)
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

/// What the OS sandbox does for commands, in a few words (for `doctor`,
/// when [`sandbox_notice`] has nothing to say).
pub fn sandbox_summary(config: &ToolConfig, root: &Path) -> String {
    #[cfg(target_os = "linux")]
    {
        sandbox::summary(root, config.allow_net)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (config, root);
        "there is no OS sandbox for commands on this system".into()
    }
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

/// The call as its tool takes it: an `edit_file` with a `content` and
/// neither `old` nor `new` is the write of a whole file it says it is
/// (v1's bank-tests made its test file so, which did not exist, and was
/// refused for a missing `old`). Reviewed and checked as any write: a
/// file the model has not seen is not written over.
pub fn plain(call: ToolCall) -> ToolCall {
    let Value::Object(fields) = &call.arguments else {
        return call;
    };
    let whole = call.name == "edit_file"
        && fields.get("content").is_some_and(Value::is_string)
        && !fields.contains_key("old")
        && !fields.contains_key("new");
    match whole {
        true => ToolCall {
            name: "write_file".into(),
            arguments: call.arguments,
        },
        false => call,
    }
}

#[cfg(test)]
mod plain_tests {
    use super::{ToolCall, plain};
    use serde_json::{Value, json};

    fn call(name: &str, arguments: Value) -> ToolCall {
        ToolCall {
            name: name.into(),
            arguments,
        }
    }

    #[test]
    fn an_edit_with_only_a_content_is_the_write_it_says() {
        let whole = json!({"path": "test_bank.py", "content": "def test_a():\n    pass\n"});
        assert_eq!(
            plain(call("edit_file", whole.clone())),
            call("write_file", whole)
        );
        for kept in [
            json!({"path": "a.py", "old": "x = 1", "new": "x = 2"}),
            json!({"path": "a.py", "old": "x = 1", "content": "x = 2"}),
            json!({"path": "a.py", "new": "x = 2", "content": "x = 2"}),
            json!({"path": "a.py", "content": 3}),
        ] {
            assert_eq!(
                plain(call("edit_file", kept.clone())),
                call("edit_file", kept)
            );
        }
        let read = json!({"path": "a.py", "content": "x"});
        assert_eq!(
            plain(call("read_file", read.clone())),
            call("read_file", read)
        );
    }
}
