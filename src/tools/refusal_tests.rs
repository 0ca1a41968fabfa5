//! A tool that refuses to act says why in a typed kind beside its message;
//! a tool that tried and failed has none.

use std::time::Duration;

use super::{Action, RefusalKind, ToolConfig, Toolbox};

fn write(path: &str, content: &str) -> Action {
    Action::WriteFile {
        path: path.into(),
        content: content.into(),
        create_dirs: false,
    }
}

fn run(cmd: &str) -> Action {
    Action::RunCmd {
        cmd: cmd.into(),
        timeout: Duration::from_secs(10),
    }
}

#[tokio::test]
async fn each_refusal_while_a_tool_runs_has_its_kind() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join("pkg")).unwrap();
    std::fs::write(root.join("a.py"), "x = 1\n").unwrap();
    let config = ToolConfig {
        allowed: vec!["python3".into(), "no-such-program-here".into()],
        ..ToolConfig::default()
    };
    let tools = Toolbox::new(&root, config);
    let stop = crate::stop::channel().1;
    let cases = [
        (write("../out.py", "x"), RefusalKind::PathRefused),
        (write(".agent_context/a", "x"), RefusalKind::PathRefused),
        (write("pkg", "x"), RefusalKind::NotAFile),
        (write("new/b.py", "x"), RefusalKind::NoSuchPath),
        (
            Action::ReadFile {
                path: "/etc/passwd".into(),
                max_bytes: 100,
            },
            RefusalKind::PathRefused,
        ),
        (
            Action::ListDir {
                path: "missing".into(),
            },
            RefusalKind::NoSuchPath,
        ),
        (
            Action::ReadFile {
                path: "missing.py".into(),
                max_bytes: 100,
            },
            RefusalKind::NoSuchPath,
        ),
        (
            Action::EditFile {
                path: "a.py".into(),
                old: "y = 2".into(),
                new: "y = 3".into(),
            },
            RefusalKind::EditNoMatch,
        ),
        (
            Action::EditFile {
                path: "b.py".into(),
                old: "y".into(),
                new: "z".into(),
            },
            RefusalKind::NoSuchPath,
        ),
        (
            Action::EditFile {
                path: "../a.py".into(),
                old: "y".into(),
                new: "z".into(),
            },
            RefusalKind::PathRefused,
        ),
        (
            Action::Search {
                pattern: "(".into(),
                path: ".".into(),
            },
            RefusalKind::BadPattern,
        ),
        (run("rm -rf pkg"), RefusalKind::CommandNotAllowed),
        (run("python3 a.py | cat"), RefusalKind::CommandNotAllowed),
        (run("no-such-program-here"), RefusalKind::NotInstalled),
    ];
    for (action, kind) in cases {
        let outcome = tools.execute(&action, &stop).await;
        assert!(!outcome.ok, "{action:?}: {}", outcome.result);
        assert_eq!(
            outcome.refusal,
            Some(kind),
            "{action:?}: {}",
            outcome.result
        );
        assert!(outcome.result.starts_with("Error: "), "{}", outcome.result);
    }
    // Nothing was written or removed.
    assert!(root.join("pkg").is_dir());
    assert_eq!(
        std::fs::read_to_string(root.join("a.py")).unwrap(),
        "x = 1\n"
    );
}

#[tokio::test]
async fn what_acted_or_failed_has_no_refusal_kind() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let tools = Toolbox::new(&root, ToolConfig::default());
    let stop = crate::stop::channel().1;
    let wrote = tools
        .execute(&write("a.py", "import sys\nsys.exit(3)\n"), &stop)
        .await;
    assert!(wrote.ok && wrote.refusal.is_none(), "{wrote:?}");
    // A command that ran and failed is a failure, not a refusal.
    let ran = tools.execute(&run("python3 a.py"), &stop).await;
    assert_eq!((ran.ok, ran.exit_code, ran.refusal), (false, Some(3), None));
}

#[test]
fn a_refusal_kind_survives_the_log_and_an_older_outcome_has_none() {
    let outcome = crate::state::ActionOutcome::refused(RefusalKind::NotInstalled, "x".into());
    let text = serde_json::to_string(&outcome).unwrap();
    assert!(text.contains("\"refusal\":\"not_installed\""), "{text}");
    let back: crate::state::ActionOutcome = serde_json::from_str(&text).unwrap();
    assert_eq!(back, outcome);
    let old: crate::state::ActionOutcome =
        serde_json::from_str(r#"{"ok":false,"result":"Error: x","error":"x"}"#).unwrap();
    assert_eq!(old.refusal, None);
}
