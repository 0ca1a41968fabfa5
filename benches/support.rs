//! What the benchmarks run against: a zero-latency scripted model (in-process,
//! behind the same `Model` trait as the real clients), the same model served
//! over HTTP in Ollama's format, and a disk that records what the store does
//! so a bare loop can do exactly the same.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use runner::chat::{ToolCall, Usage};
use runner::model::{BoxFuture, ChatReply, ChatRequest, Failure, Model, ModelError, ModelInfo};
use runner::store::{Disk, RealDisk};
use serde_json::{Value, json};

/// A model that answers at once: a plan of two subtasks, then `write_file`
/// (three of four calls, over `files` files in turn, so the state stays the
/// same size) and `read_file`, never finishing; the round cap ends the run.
pub struct Scripted {
    pub files: usize,
    /// Bytes of each file written.
    pub content: usize,
    calls: AtomicUsize,
    /// Bytes of the prompt at rounds 20 and 200 (measuring every round
    /// would add its own cost to the runner's).
    pub prompt_bytes: Mutex<Vec<(usize, usize)>>,
    /// Also print 300 MB from a command: the first call writes the script,
    /// the second runs it.
    pub loud: bool,
}

impl Scripted {
    pub fn new(files: usize) -> Scripted {
        Scripted {
            files,
            content: 400,
            calls: AtomicUsize::new(0),
            prompt_bytes: Mutex::new(Vec::new()),
            loud: false,
        }
    }

    /// The reply to a request, as data (the HTTP server uses it too).
    pub fn reply(&self, request: &ChatRequest) -> ChatReply {
        let format = request.format.as_ref();
        if format.is_some_and(|f| f["properties"].get("tasks").is_some()) {
            let plan = json!({"tasks": [{"description": "bench", "subtasks": ["write files", "write more files"]}]});
            return ChatReply {
                content: plan.to_string(),
                ..ChatReply::default()
            };
        }
        if format.is_some() {
            return ChatReply {
                content: json!({"worked": [], "failed": [], "next": []}).to_string(),
                ..ChatReply::default()
            };
        }
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        if n + 1 == 20 || n + 1 == 200 {
            let size = request.size();
            self.prompt_bytes.lock().expect("sizes").push((n + 1, size));
        }
        let call = self.call(n);
        ChatReply {
            content: String::new(),
            tool_calls: vec![call],
            usage: Usage {
                prompt_tokens: 1000,
                completion_tokens: 40,
                ..Usage::default()
            },
            done_reason: Some("stop".into()),
            retries: 0,
            notices: Vec::new(),
        }
    }

    fn call(&self, n: usize) -> ToolCall {
        if self.loud && n == 0 {
            let script = "import sys\nline = 'x' * 1023 + '\\n'\nfor _ in range(300 * 1024):\n    sys.stdout.write(line)\n";
            return tool("write_file", json!({"path": "loud.py", "content": script}));
        }
        if self.loud && n == 1 {
            return tool(
                "run_cmd",
                json!({"cmd": "python3 loud.py", "timeout_sec": 600}),
            );
        }
        let file = format!("f{}.txt", n % self.files);
        if n % 4 == 3 {
            return tool(
                "read_file",
                json!({"path": format!("f{}.txt", (n - 1) % self.files)}),
            );
        }
        let line = format!("line {n}\n");
        let content = line.repeat(self.content / line.len() + 1);
        tool("write_file", json!({"path": file, "content": content}))
    }
}

fn tool(name: &str, arguments: Value) -> ToolCall {
    ToolCall {
        name: name.into(),
        arguments,
    }
}

impl Model for Scripted {
    fn chat<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatReply, Failure>> {
        Box::pin(async move { Ok(self.reply(request)) })
    }

    fn info(&self) -> BoxFuture<'_, Result<ModelInfo, ModelError>> {
        Box::pin(async {
            Ok(ModelInfo {
                capabilities: vec!["tools".into()],
                context_length: Some(1 << 20),
            })
        })
    }
}

/// One operation of the store on its disk.
#[derive(Debug, Clone)]
pub enum Op {
    Append(PathBuf, usize),
    Sync(PathBuf),
    Write(PathBuf, usize),
    Rename(PathBuf, PathBuf),
    SyncDir(PathBuf),
}

/// The real disk, recording what is done to it (paths relative to `root`).
pub struct Recording {
    pub inner: RealDisk,
    pub root: PathBuf,
    pub ops: Arc<Mutex<Vec<Op>>>,
}

impl Recording {
    fn push(&self, op: Op) {
        self.ops.lock().expect("ops").push(op);
    }

    fn rel(&self, path: &Path) -> PathBuf {
        path.strip_prefix(&self.root).unwrap_or(path).to_path_buf()
    }
}

impl Disk for Recording {
    fn read(&mut self, path: &Path) -> std::io::Result<Option<Vec<u8>>> {
        self.inner.read(path)
    }
    fn read_from(&mut self, path: &Path, offset: u64) -> std::io::Result<Vec<u8>> {
        self.inner.read_from(path, offset)
    }
    fn append(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        self.push(Op::Append(self.rel(path), bytes.len()));
        self.inner.append(path, bytes)
    }
    fn sync(&mut self, path: &Path) -> std::io::Result<()> {
        self.push(Op::Sync(self.rel(path)));
        self.inner.sync(path)
    }
    fn write(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        self.push(Op::Write(self.rel(path), bytes.len()));
        self.inner.write(path, bytes)
    }
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        self.push(Op::Rename(self.rel(from), self.rel(to)));
        self.inner.rename(from, to)
    }
    fn sync_dir(&mut self, path: &Path) -> std::io::Result<()> {
        self.push(Op::SyncDir(self.rel(path)));
        self.inner.sync_dir(path)
    }
    fn truncate(&mut self, path: &Path, len: u64) -> std::io::Result<()> {
        self.inner.truncate(path, len)
    }
    fn remove(&mut self, path: &Path) -> std::io::Result<()> {
        self.inner.remove(path)
    }
}

/// The real disk without its syncs: for figures where the device's flush
/// latency, which swings tenfold on a shared machine, would hide what is
/// measured (the runner's own work as the log or the workspace grows).
#[derive(Default)]
pub struct NoSync(pub RealDisk);

impl Disk for NoSync {
    fn read(&mut self, path: &Path) -> std::io::Result<Option<Vec<u8>>> {
        self.0.read(path)
    }
    fn read_from(&mut self, path: &Path, offset: u64) -> std::io::Result<Vec<u8>> {
        self.0.read_from(path, offset)
    }
    fn append(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        self.0.append(path, bytes)
    }
    fn sync(&mut self, _: &Path) -> std::io::Result<()> {
        Ok(())
    }
    fn write(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        self.0.write(path, bytes)
    }
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        self.0.rename(from, to)
    }
    fn sync_dir(&mut self, _: &Path) -> std::io::Result<()> {
        Ok(())
    }
    fn truncate(&mut self, path: &Path, len: u64) -> std::io::Result<()> {
        self.0.truncate(path, len)
    }
    fn remove(&mut self, path: &Path) -> std::io::Result<()> {
        self.0.remove(path)
    }
}

/// Serves `Scripted` as Ollama's `/api/chat` (NDJSON stream) and `/api/show`
/// on 127.0.0.1, so the real client's own cost per call can be measured.
pub struct Server {
    pub url: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn start(model: Arc<Scripted>) -> Server {
        use axum::routing::post;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}/", listener.local_addr().expect("address"));
        let app = axum::Router::new()
            .route(
                "/api/show",
                post(|| async { axum::Json(json!({"capabilities": ["tools"], "model_info": {"x.context_length": 1 << 20}})) }),
            )
            .route(
                "/api/chat",
                post(move |body: axum::body::Bytes| {
                    let model = model.clone();
                    async move { chat(&model, &body) }
                }),
            );
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                tokio::select! {
                    _ = axum::serve(listener, app) => {}
                    _ = rx => {}
                }
            });
        });
        Server {
            url,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Ollama's wire request turned back into a `ChatRequest` (what the
/// scripted model looks at), and its reply as Ollama's stream.
fn chat(model: &Scripted, body: &[u8]) -> String {
    use runner::chat::Message;
    let wire: Value = serde_json::from_slice(body).unwrap_or_default();
    let messages = wire["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|m| Message::user(m["content"].as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    let request = ChatRequest {
        messages,
        tools: Vec::new(),
        format: wire.get("format").filter(|f| !f.is_null()).cloned(),
        options: runner::model::Options {
            temperature: 0.2,
            num_ctx: 16384,
            num_predict: None,
        },
    };
    let reply = model.reply(&request);
    let calls: Vec<Value> = reply
        .tool_calls
        .iter()
        .map(|c| json!({"function": {"name": c.name, "arguments": c.arguments}}))
        .collect();
    let chunk = json!({"model": "bench", "created_at": "t", "message": {"role": "assistant", "content": reply.content, "tool_calls": calls}, "done": false});
    let done = json!({"model": "bench", "created_at": "t", "message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop", "prompt_eval_count": reply.usage.prompt_tokens, "eval_count": 40});
    format!("{chunk}\n{done}\n")
}
