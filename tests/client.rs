//! The fake server against ollama-rs's own client: what the fake sends is
//! what ollama-rs (and so Ollama's format) expects, streaming and not.

use ollama_rs::Ollama;
use ollama_rs::generation::chat::ChatMessage;
use ollama_rs::generation::chat::request::ChatMessageRequest;

use crate::support::FakeOllama;

#[tokio::test]
async fn ollama_rs_reads_the_fake_server() {
    let server = FakeOllama::from_fixture("hello");
    let ollama = Ollama::try_new(format!("{}/", server.url())).unwrap();
    let models = ollama.list_local_models().await.unwrap();
    assert_eq!(models[0].name, server.model());
    let info = ollama
        .show_model_info(server.model().to_string())
        .await
        .unwrap();
    assert!(info.capabilities.contains(&"tools".to_string()));

    let context = "GOAL: g\nACTIVE SUBTASK: Write hello.py (subtask 1/1)\nFILES CREATED: (none)";
    let request = ChatMessageRequest::new(
        server.model().to_string(),
        vec![ChatMessage::user(context.into())],
    );
    let reply = ollama.send_chat_messages(request.clone()).await.unwrap();
    assert_eq!(reply.message.tool_calls[0].function.name, "write_file");
    assert!(reply.done);
    assert!(reply.final_data.unwrap().prompt_eval_count > 0);

    use futures_util::StreamExt;
    let mut stream = ollama.send_chat_messages_stream(request).await.unwrap();
    let mut calls = Vec::new();
    let mut done = false;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.unwrap();
        calls.extend(chunk.message.tool_calls);
        done |= chunk.done;
    }
    assert!(done);
    assert_eq!(calls.len(), 1);
}
