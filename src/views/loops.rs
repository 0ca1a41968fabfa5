//! `runner loops`: the loops the guard blocked (`loops.json`), as a table.

use std::path::Path;

use serde_json::Value;

use super::{Paint, shorten};
use crate::error::{AppError, Exit};
use crate::state::guard::canonical_json;
use crate::store::{Paths, StoreError};

pub fn loops(workspace: &Path, json: bool) -> Result<Exit, AppError> {
    let path = Paths::new(workspace).loops();
    let entries: Vec<Value> = match fs_err::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            AppError::Usage(format!(
                "{} is not a JSON array of loops ({e}); look at it with a text editor",
                path.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => return Err(StoreError::Io { path, source }.into()),
    };
    if json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&entries).unwrap_or_default()
        );
    } else if entries.is_empty() {
        crate::outln!("No loops detected in {}.", workspace.display());
    } else {
        crate::out!("{}", render_loops(&entries, &Paint::stdout()));
    }
    Ok(Exit::Achieved)
}

/// The table: when (record and round), the pattern, the tool, its arguments.
pub fn render_loops(entries: &[Value], paint: &Paint) -> String {
    let mut out = format!(
        "{}\n",
        paint.bold.apply_to(format!(
            "{:>6}  {:>5}  {:<9}  {:<10}  {}",
            "RECORD", "ROUND", "PATTERN", "TOOL", "ARGUMENTS"
        ))
    );
    for entry in entries {
        let number = |key: &str| entry[key].as_u64().map_or("-".into(), |n| n.to_string());
        let text = |key: &str| entry[key].as_str().unwrap_or("-").to_string();
        let args = match &entry["args"] {
            Value::Null => text("signature"),
            args => canonical_json(args),
        };
        out.push_str(&format!(
            "{:>6}  {:>5}  {:<9}  {:<10}  {}\n",
            number("seq"),
            number("round"),
            text("pattern"),
            text("tool"),
            shorten(&args, 100)
        ));
    }
    out.push_str(&format!(
        "{}\n",
        paint.dim.apply_to(format!(
            "{} loops blocked; `runner history` shows them in context",
            entries.len()
        ))
    ));
    out
}
