//! A completion written as a sentence: "Mark subtask complete with
//! success=false and the reason "..."". Qwen2.5-Coder 1.5B, told to call
//! `mark_subtask_complete`, wrote the call's words as prose four rounds
//! in a row, and the run stopped for want of a call. Only a reply that
//! begins with the call's words and gives `success` is read so: a reply
//! that explains something first is prose.

use serde_json::json;

use crate::chat::ToolCall;

/// Longest reply read as a completion in prose.
const MAX_LEN: usize = 600;

/// The `mark_subtask_complete` call a reply writes as a sentence, when it
/// begins with the tool's words ("Mark the subtask complete", "mark
/// subtask complete", `mark_subtask_complete`) and says `success=true` or
/// `success=false`; its reason is the quoted text after "reason", or
/// the sentence itself.
pub fn completion_in_prose(text: &str) -> Option<ToolCall> {
    let text = text.trim();
    if text.len() > MAX_LEN {
        return None;
    }
    // ASCII only, so that a byte offset in it is one in `text`.
    let lower = text.to_ascii_lowercase().replace('_', " ");
    // "Mark [the] subtask [as] complete[d]": z1b's fizzbuzz wrote "Mark
    // the subtask as complete with success=true and the reason ..." four
    // times, and the run stopped for want of a call.
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '=')
        .filter(|w| !w.is_empty())
        .take(5)
        .filter(|w| !matches!(*w, "the" | "as"))
        .take(3)
        .collect();
    let begins = matches!(
        words.as_slice(),
        ["mark", "subtask", "complete" | "completed"]
    );
    if !begins {
        return None;
    }
    let success = success_of(&lower)?;
    let reason = lower
        .find("reason")
        .and_then(|at| {
            let rest = &text[at..];
            let open = rest.find('"')?;
            let inner = &rest[open + 1..];
            let close = inner.find('"').unwrap_or(inner.len());
            Some(inner[..close].trim().to_string())
        })
        .filter(|reason| !reason.is_empty())
        .unwrap_or_else(|| text.to_string());
    Some(ToolCall {
        name: "mark_subtask_complete".into(),
        arguments: json!({ "success": success, "reason": reason }),
    })
}

/// `success=true`, `success: false`, `success true` in `lower`.
fn success_of(lower: &str) -> Option<bool> {
    let at = lower.find("success")?;
    let rest = lower[at + "success".len()..].trim_start();
    let rest = rest
        .strip_prefix('=')
        .or_else(|| rest.strip_prefix(':'))
        .unwrap_or(rest)
        .trim_start()
        .trim_start_matches(['"', '\'', '`']);
    if rest.starts_with("true") {
        Some(true)
    } else if rest.starts_with("false") {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_written_as_a_sentence_is_read() {
        let call = completion_in_prose(
            "Mark subtask complete with success=false and the reason \"The error is at \
             word_count.py line 7.\"",
        )
        .unwrap();
        assert_eq!(call.name, "mark_subtask_complete");
        assert_eq!(
            call.arguments,
            json!({"success": false, "reason": "The error is at word_count.py line 7."})
        );
        let call = completion_in_prose("Mark the subtask complete with success=true.").unwrap();
        assert_eq!(call.arguments["success"], json!(true));
        assert_eq!(
            call.arguments["reason"],
            json!("Mark the subtask complete with success=true.")
        );
        let call = completion_in_prose(
            "Mark the subtask as complete with success=true and the reason \"The code was \
             written and the command was run successfully.\"",
        )
        .unwrap();
        assert_eq!(call.arguments["success"], json!(true));
        let call = completion_in_prose("Mark subtask as completed, success=false").unwrap();
        assert_eq!(call.arguments["success"], json!(false));
        let call = completion_in_prose("mark_subtask_complete success: True").unwrap();
        assert_eq!(call.arguments["success"], json!(true));
        // Letters whose lower case is longer do not move the reason.
        let call =
            completion_in_prose("Mark subtask complete İİİİİİİİ success=false reason \"gone\"")
                .unwrap();
        assert_eq!(call.arguments["reason"], json!("gone"));
    }

    #[test]
    fn prose_that_does_not_begin_with_the_call_or_gives_no_success_is_not_a_call() {
        assert!(
            completion_in_prose("Mark the subtask complete with success and what you did.")
                .is_none()
        );
        assert!(
            completion_in_prose(
                "To fix the error, change line 7. Then mark the subtask complete with success=true."
            )
            .is_none()
        );
        assert!(completion_in_prose("Mark subtask complete").is_none());
        assert!(completion_in_prose("Mark the test as failing: success=false").is_none());
        assert!(
            completion_in_prose(&format!(
                "Mark subtask complete success=true {}",
                "x".repeat(700)
            ))
            .is_none()
        );
    }
}
