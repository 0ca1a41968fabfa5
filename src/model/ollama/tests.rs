use super::*;
use crate::chat::{ToolCall, Usage};
use crate::model::{Options, RetryPolicy, runaway};

fn client() -> OllamaClient {
    OllamaClient::new(ClientConfig {
        base_url: "http://127.0.0.1:9/".into(),
        model: "m".into(),
        retry: RetryPolicy::default(),
        timeout: Duration::from_secs(1),
    })
    .unwrap()
}

#[test]
fn the_request_carries_tools_options_format_and_tool_names() {
    let request = ChatRequest {
        messages: vec![
            Message::user("hi"),
            Message::assistant(
                "",
                vec![ToolCall {
                    name: "list_dir".into(),
                    arguments: json!({"path": "."}),
                }],
            ),
            Message::tool("list_dir", "a.py"),
        ],
        tools: vec![ToolSpec {
            name: "list_dir",
            description: "lists",
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        format: Some(json!({"type": "object"})),
        options: Options {
            temperature: 0.25,
            num_ctx: 8192,
            num_predict: Some(512),
        },
    };
    let body = client().wire_request(&request).unwrap();
    assert_eq!(body["stream"], json!(true));
    assert_eq!(body["options"]["num_ctx"], json!(8192));
    assert_eq!(body["options"]["temperature"], json!(0.25));
    assert_eq!(body["options"]["num_predict"], json!(512));
    assert_eq!(body["format"], json!({"type": "object"}));
    assert_eq!(body["tools"][0]["function"]["name"], json!("list_dir"));
    assert_eq!(
        body["messages"][1]["tool_calls"][0]["function"]["arguments"]["path"],
        json!(".")
    );
    assert_eq!(body["messages"][2]["role"], json!("tool"));
    assert_eq!(body["messages"][2]["tool_name"], json!("list_dir"));
    assert!(body["messages"][0].get("tool_name").is_none());
}

#[test]
fn errors_are_classified_by_status_and_body() {
    let c = client();
    let body = |m: &str| json!({ "error": m }).to_string();
    assert!(matches!(
        c.classify(Some(404), &body("model 'm' not found")),
        ModelError::NotFound { .. }
    ));
    assert!(matches!(
        c.classify(
            Some(400),
            &body("registry.ollama.ai/library/gemma3:1b does not support tools")
        ),
        ModelError::NoTools { .. }
    ));
    assert!(matches!(
        c.classify(Some(500), &body("error parsing tool call: raw='{'")),
        ModelError::ToolParse { .. }
    ));
    assert!(
        c.classify(Some(500), &body("llama runner crashed"))
            .is_transient()
    );
    assert!(c.classify(Some(503), "<html>busy</html>").is_transient());
    assert!(
        !c.classify(Some(400), &body("invalid options"))
            .is_transient()
    );
    assert!(c.classify(None, &body("runner terminated")).is_transient());
}

#[test]
fn a_stream_is_put_together_and_its_errors_surface() {
    let mut reply = Reply::default();
    let lines = [
        r#"{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hel"},"done":false}"#,
        r#"{"model":"m","created_at":"t","message":{"role":"assistant","content":"lo","tool_calls":[{"function":{"name":"note","arguments":{"text":"x"}}}]},"done":false}"#,
        r#"{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"length","prompt_eval_count":12,"eval_count":3}"#,
    ];
    assert_eq!(reply.feed(lines[0].as_bytes()), Ok(false));
    assert_eq!(reply.feed(lines[1].as_bytes()), Ok(false));
    assert_eq!(reply.feed(lines[2].as_bytes()), Ok(true));
    let reply = reply.finish();
    assert_eq!(reply.content, "Hello");
    assert_eq!(reply.tool_calls[0].name, "note");
    assert_eq!(reply.done_reason.as_deref(), Some("length"));
    assert_eq!(
        reply.usage,
        Usage {
            prompt_tokens: 12,
            completion_tokens: 3,
            ..Usage::default()
        }
    );

    let mut broken = Reply::default();
    let err = broken
        .feed(br#"{"error":"an error was encountered while running the model"}"#)
        .unwrap_err();
    assert!(err.contains("while running the model"));
}

#[test]
fn a_stream_that_repeats_itself_ends_where_the_repetition_is_plain() {
    let piece = |text: &str| {
        json!({"model": "m", "created_at": "t", "done": false,
               "message": {"role": "assistant", "content": text}})
        .to_string()
    };
    let mut reply = Reply::default();
    let mut fed = 0;
    let lines = std::iter::once("import calc\n\n".to_string()).chain(std::iter::repeat_n(
        "assert calc.add(1, 2) == 3\n".to_string(),
        400,
    ));
    for line in lines {
        fed += 1;
        if reply.feed(piece(&line).as_bytes()) == Ok(true) {
            break;
        }
    }
    // Eight copies of the line (eight line breaks after the first line of
    // the loop), not the four hundred the model would have written.
    assert_eq!(fed, 9);
    let reply = reply.finish();
    assert_eq!(reply.done_reason.as_deref(), Some(runaway::REPEATING));
    assert_eq!(reply.usage.completion_tokens, 9);
    assert_eq!(reply.usage.prompt_tokens, 0, "Ollama's count never came");
    assert!(reply.content.starts_with("import calc\n\nassert calc.add"));
}
