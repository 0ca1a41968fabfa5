//! The files that were in the workspace when the run began, so that the
//! probe reports those the run changed or deleted, as it reports its own
//! writes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A file as it was when the run began.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineFile {
    pub path: String,
    pub size: u64,
    /// Modification time, nanoseconds since the epoch: the probe hashes a
    /// file again only when its size or this changed.
    pub modified: u64,
    /// SHA-256 of the content, `None` when the file was too large to hash
    /// (it is then judged by size and time alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// The baseline of the run (set once, by `baseline_recorded`) and what the
/// last probe found of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub recorded: bool,
    pub files: BTreeMap<String, BaselineFile>,
    /// Files there were that the baseline does not hold (over its bound).
    #[serde(default)]
    pub left_out: u64,
    /// Files of the baseline the run changed, as the last probe found them.
    #[serde(default)]
    pub changed: Vec<String>,
    /// Files of the baseline that are gone, as the last probe found them.
    #[serde(default)]
    pub deleted: Vec<String>,
}
