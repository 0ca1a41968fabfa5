//! Where the runner's own files lie in a workspace: `.agent_context/` and
//! the files in it.

use std::path::{Path, PathBuf};

/// The folder of the runner's own files inside a workspace.
pub const CONTEXT_DIR: &str = ".agent_context";

/// Paths of the files in `.agent_context/`.
#[derive(Debug, Clone)]
pub struct Paths {
    pub dir: PathBuf,
}

impl Paths {
    pub fn new(workspace: &Path) -> Paths {
        Paths {
            dir: workspace.join(CONTEXT_DIR),
        }
    }
    pub fn history(&self) -> PathBuf {
        self.dir.join("history.jsonl")
    }
    pub fn state(&self) -> PathBuf {
        self.dir.join("state.json")
    }
    pub fn state_tmp(&self) -> PathBuf {
        self.dir.join("state.json.tmp")
    }
    pub fn ledger(&self) -> PathBuf {
        self.dir.join("ledger.log")
    }
    pub fn loops(&self) -> PathBuf {
        self.dir.join("loops.json")
    }
    pub fn memory(&self) -> PathBuf {
        self.dir.join("memory.json")
    }
    pub fn lock(&self) -> PathBuf {
        self.dir.join("lock")
    }
    pub fn archive(&self) -> PathBuf {
        self.dir.join("archive")
    }
    /// The temp files of atomic replacements; one left behind is stale.
    pub fn temps(&self) -> Vec<PathBuf> {
        ["state.json.tmp", "loops.json.tmp", "memory.json.tmp"]
            .iter()
            .map(|name| self.dir.join(name))
            .collect()
    }
}
