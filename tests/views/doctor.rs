//! `runner doctor` against the fake server: ready, a model not pulled, a
//! model without tools, a server that is down.

use crate::support::Test;

fn doctor_line<'a>(stdout: &'a str, level: &str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|line| line.starts_with(level) && line[6..].starts_with(name))
        .unwrap_or_else(|| panic!("no `{level} {name}` line in\n{stdout}"))
}

#[test]
fn doctor_says_ready_when_everything_is_there() {
    let test = Test::new().script("hello");
    let run = test.run_with(&["doctor"]);
    run.assert_code(0);
    assert!(doctor_line(&run.stdout, "ok", "server").contains("Ollama 0.12.6"));
    assert!(doctor_line(&run.stdout, "ok", "model").contains("fake-coder:1b is pulled"));
    doctor_line(&run.stdout, "ok", "tools");
    assert!(doctor_line(&run.stdout, "ok", "context").contains("takes 32768 tokens"));
    doctor_line(&run.stdout, "ok", "workspace");
    doctor_line(&run.stdout, "ok", "python3");
    doctor_line(&run.stdout, "ok", "pytest");
    assert!(run.stdout.contains("Ready"), "{}", run.stdout);
    assert!(!run.stdout.contains("fail"), "{}", run.stdout);
    let left: Vec<_> = std::fs::read_dir(&test.workspace).unwrap().collect();
    assert!(left.is_empty(), "doctor leaves nothing behind");
}

#[test]
fn doctor_fails_on_a_model_that_is_not_pulled() {
    let test = Test::new()
        .script("hello")
        .env("OLLAMA_MODEL", "qwen9:404b");
    let run = test.run_with(&["doctor"]);
    run.assert_code(3);
    doctor_line(&run.stdout, "ok", "server");
    let line = doctor_line(&run.stdout, "fail", "model");
    assert!(line.contains("ollama pull qwen9:404b"), "{line}");
    assert!(
        line.contains("fake-coder:1b"),
        "names what is pulled: {line}"
    );
    doctor_line(&run.stdout, "skip", "tools");
    assert!(run.stdout.contains("Not ready"), "{}", run.stdout);
}

#[test]
fn doctor_fails_on_a_model_without_tools() {
    let test = Test::new().script("no_tools");
    let run = test.run_with(&["doctor", "--num-ctx", "16384"]);
    run.assert_code(3);
    doctor_line(&run.stdout, "ok", "model");
    assert!(doctor_line(&run.stdout, "fail", "tools").contains("does not support tools"));
    let context = doctor_line(&run.stdout, "warn", "context");
    assert!(context.contains("pass --num-ctx 8192"), "{context}");
}

#[test]
fn doctor_fails_when_the_server_is_down() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let test = Test::new().env("OLLAMA_HOST", &format!("127.0.0.1:{port}"));
    let run = test.run_with(&["doctor"]);
    run.assert_code(3);
    assert!(doctor_line(&run.stdout, "fail", "server").contains("ollama serve"));
    doctor_line(&run.stdout, "skip", "model");
    doctor_line(&run.stdout, "ok", "python3");
}
