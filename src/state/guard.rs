//! The loop guard: refuses an action that repeats what was just tried.
//!
//! An action's signature is its tool and its arguments as canonical JSON.
//! The window holds the actions since the last write that changed a file,
//! because running the same command after the files changed is work, not a
//! loop.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{LoopPattern, RecentAction};

/// Actions the guard looks back over (DESIGN.md: the recent window).
pub const LOOP_WINDOW: usize = 10;
/// A signature longer than this is shortened and made unique by a hash, so
/// that a large `write_file` does not fill the state and the prompt.
const SIGNATURE_MAX: usize = 160;

/// The signature of a call: `tool {canonical json}`.
pub fn signature(tool: &str, arguments: &Value) -> String {
    let canonical = canonical_json(arguments);
    if canonical.len() <= SIGNATURE_MAX {
        return format!("{tool} {canonical}");
    }
    let digest = Sha256::digest(canonical.as_bytes());
    let cut = floor_char_boundary(&canonical, SIGNATURE_MAX - 40);
    format!(
        "{tool} {}… #{}",
        &canonical[..cut],
        crate::digest::hex(&digest[..6])
    )
}

/// A signature as the model is shown it: the tool and what it was
/// pointed at (a path, a command, a pattern, or why it was refused), never
/// the arguments' text or the hash of a long one. t10's textkit was shown
/// `blocked a loop: write_file {"refused":"… print('Testing…\"hello… #5d8c9ea6a559`
/// three times in a row, and wrote that line, hash and count, into its
/// `__main__.py`.
pub fn shown(signature: &str) -> String {
    let (tool, arguments) = signature.split_once(' ').unwrap_or((signature, ""));
    if !arguments.starts_with('{') {
        return signature.to_string();
    }
    let field = |key: &str| -> Option<String> {
        match serde_json::from_str::<Value>(arguments) {
            Ok(value) => match &value[key] {
                Value::String(text) => Some(text.clone()),
                Value::Null => None,
                other => Some(other.to_string()),
            },
            // Cut short: the field's text up to its closing quote, when
            // it is there whole.
            Err(_) => {
                let start = arguments.find(&format!("\"{key}\":\""))? + key.len() + 4;
                let rest = &arguments[start..];
                let end = rest.find(['"', '\\', '…'])?;
                (rest[end..].starts_with('"') || key == "refused").then(|| rest[..end].to_string())
            }
        }
    };
    let of = if let Some(reason) = field("refused") {
        // Up to the code it quotes, which the model would copy.
        let reason = reason.split(['`', '…']).next().unwrap_or_default();
        let reason = crate::text::shorten(reason.trim_end_matches([' ', '(']), 100);
        format!("(refused: {reason})")
    } else if let Some(target) = ["cmd", "pattern", "path"].iter().find_map(|key| field(key)) {
        crate::text::shorten(&target, 100)
    } else {
        "(the same arguments)".to_string()
    };
    format!("{tool} {of}")
}

/// JSON with object keys sorted at every level and no insignificant spaces.
pub fn canonical_json(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|key| {
                    format!(
                        "{}:{}",
                        Value::from(key.as_str()),
                        canonical_json(&map[key])
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// Whether running `signature` now would be a loop, given the window.
pub fn check(recent: &[&RecentAction], signature: &str) -> Option<LoopPattern> {
    let window = &recent[recent.len().saturating_sub(LOOP_WINDOW)..];
    let repeats = window.iter().filter(|a| a.signature == signature).count();
    if repeats >= 2 {
        return Some(LoopPattern::Repeat);
    }
    if let [.., a, b, c] = window
        && a.signature == c.signature
        && b.signature == signature
        && a.signature != signature
    {
        return Some(LoopPattern::Alternate);
    }
    None
}

/// The largest index ≤ `at` that is a char boundary of `text`.
pub fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn window(signatures: &[&str]) -> Vec<RecentAction> {
        signatures
            .iter()
            .map(|s| RecentAction {
                signature: s.to_string(),
                tool: "run_cmd".into(),
            })
            .collect()
    }

    fn verdict(signatures: &[&str], next: &str) -> Option<LoopPattern> {
        let recent = window(signatures);
        check(&recent.iter().collect::<Vec<_>>(), next)
    }

    #[test]
    fn signatures_ignore_key_order_and_spacing() {
        let a = signature("run_cmd", &json!({"cmd": "pytest", "timeout_sec": 30}));
        let b = signature("run_cmd", &json!({"timeout_sec": 30, "cmd": "pytest"}));
        assert_eq!(a, b);
        assert_eq!(a, r#"run_cmd {"cmd":"pytest","timeout_sec":30}"#);
        assert_ne!(a, signature("run_cmd", &json!({"cmd": "pytest -x"})));
    }

    #[test]
    fn long_signatures_are_short_and_still_distinct() {
        let a = signature(
            "write_file",
            &json!({"path": "a.py", "content": "x".repeat(5000)}),
        );
        let b = signature(
            "write_file",
            &json!({"path": "a.py", "content": "x".repeat(5001)}),
        );
        assert!(a.len() < 200, "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn a_signature_is_shown_by_what_it_points_at_never_its_text_or_hash() {
        let short = signature("run_cmd", &json!({"cmd": "python3 -m pytest -q"}));
        assert_eq!(shown(&short), "run_cmd python3 -m pytest -q");
        let write = signature(
            "write_file",
            &json!({"path": "a.py", "content": "print('x')\n".repeat(500)}),
        );
        assert!(write.contains('#'), "{write}");
        assert_eq!(shown(&write), "write_file (the same arguments)");
        let small = signature("write_file", &json!({"path": "a.py", "content": "x = 1"}));
        assert_eq!(shown(&small), "write_file a.py");
        let refused = signature(
            "write_file",
            &json!({"refused": format!(
                "not written: Python cannot read t.py: line 11 (`    print('Testing: \"hello\" -> {}`)",
                "x".repeat(300)
            )}),
        );
        assert!(refused.contains("hello"), "{refused}");
        let seen = shown(&refused);
        assert_eq!(
            seen,
            "write_file (refused: not written: Python cannot read t.py: line 11)"
        );
        let search = signature("search", &json!({"pattern": "def \\w+", "path": null}));
        assert_eq!(shown(&search), "search def \\w+");
    }

    #[test]
    fn the_third_repeat_is_blocked_not_the_second() {
        assert_eq!(verdict(&["A"], "A"), None);
        assert_eq!(verdict(&["A", "A"], "A"), Some(LoopPattern::Repeat));
        assert_eq!(
            verdict(&["A", "B", "C", "A"], "A"),
            Some(LoopPattern::Repeat)
        );
    }

    #[test]
    fn repeats_outside_the_window_do_not_count() {
        let mut old = vec!["A", "A"];
        old.extend(["x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9"]);
        assert_eq!(verdict(&old, "A"), None);
        old.remove(2);
        assert_eq!(verdict(&old, "A"), Some(LoopPattern::Repeat));
    }

    #[test]
    fn an_alternation_is_blocked_on_its_fourth_step() {
        assert_eq!(verdict(&["A", "B"], "A"), None);
        assert_eq!(verdict(&["A", "B", "A"], "B"), Some(LoopPattern::Alternate));
        assert_eq!(verdict(&["A", "B", "C"], "B"), None);
        assert_eq!(verdict(&["A", "A", "A"], "B"), None);
    }
}
