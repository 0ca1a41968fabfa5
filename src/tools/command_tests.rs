//! Commands run for real, in temp workspaces.

use super::*;
use crate::tools::{Action, Toolbox};

fn toolbox(config: ToolConfig) -> (tempfile::TempDir, Toolbox) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    (dir, Toolbox::new(&root, config))
}

async fn run_py(tools: &Toolbox, script: &str, timeout: u64) -> ActionOutcome {
    std::fs::write(tools.root().join("t.py"), script).unwrap();
    let stop = crate::stop::channel().1;
    tools
        .execute(
            &Action::RunCmd {
                cmd: "python3 t.py".into(),
                timeout: Duration::from_secs(timeout),
            },
            &stop,
        )
        .await
}

#[tokio::test]
async fn stdin_is_empty_and_output_is_head_and_tail() {
    let (_dir, tools) = toolbox(ToolConfig::default());
    let out = run_py(&tools, "input()", 30).await;
    assert!(out.result.contains("EOFError"), "{}", out.result);
    let out = run_py(
        &tools,
        "import sys\nprint('START')\nfor i in range(20000): print('x' * 50)\nprint('\\x1b[31mEND\\x1b[0m')",
        30,
    )
    .await;
    assert!(out.ok, "{}", out.result);
    assert!(out.result.contains("START") && out.result.contains("END"));
    assert!(
        out.result.contains("bytes cut from the middle"),
        "{}",
        out.result
    );
    assert!(!out.result.contains('\u{1b}'));
}

#[tokio::test]
async fn what_a_program_printed_is_its_output_without_the_command_line() {
    let (_dir, tools) = toolbox(ToolConfig::default());
    let out = run_py(
        &tools,
        "import sys\nprint('out')\nprint('err', file=sys.stderr)",
        30,
    )
    .await;
    assert_eq!(printed(&out.result), "out\nerr", "{}", out.result);
    let out = run_py(&tools, "pass", 30).await;
    assert_eq!(printed(&out.result), "", "{}", out.result);
    assert!(out.result.starts_with("$ python3 t.py\nexit code 0"));
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_sandbox_keeps_writes_inside() {
    if super::super::sandbox::landlock_abi().is_none() {
        eprintln!("no Landlock on this kernel: the sandbox is not tested here");
        return;
    }
    let outside = tempfile::tempdir().unwrap();
    let (_dir, tools) = toolbox(ToolConfig::default());
    std::fs::create_dir_all(tools.root().join(".git/hooks")).unwrap();
    let script = format!(
        "import os, tempfile\n\
         def attempt(path):\n\
         \x20   try:\n\
         \x20       open(path, 'w').write('x')\n\
         \x20       return 'wrote'\n\
         \x20   except OSError as e:\n\
         \x20       return type(e).__name__\n\
         print('outside', attempt({:?}))\n\
         print('git', attempt('.git/hooks/pre-commit'))\n\
         print('inside', attempt('sub.txt'))\n\
         print('tmp', attempt(os.path.join(tempfile.gettempdir(), 't')))\n",
        outside.path().join("x").to_str().unwrap()
    );
    let out = run_py(&tools, &script, 30).await;
    assert!(
        out.result.contains("outside PermissionError"),
        "{}",
        out.result
    );
    assert!(!outside.path().join("x").exists());
    assert!(out.result.contains("inside wrote"), "{}", out.result);
    assert!(out.result.contains("tmp wrote"), "{}", out.result);
    assert!(
        !tools.root().join(".git/hooks/pre-commit").exists(),
        "{}",
        out.result
    );
    let (_dir2, open) = toolbox(ToolConfig {
        sandbox: false,
        ..ToolConfig::default()
    });
    assert_eq!(
        crate::tools::sandbox_notice(open.config(), open.root()),
        None,
        "no notice when the user turned the sandbox off"
    );
    let out = run_py(&open, &script, 30).await;
    assert!(out.result.contains("outside wrote"), "{}", out.result);
}

#[cfg(unix)]
#[tokio::test]
async fn the_resource_limits_hold() {
    let (_dir, tools) = toolbox(ToolConfig {
        limits: crate::tools::Limits {
            file_size: 1 << 20,
            processes: 8,
            address_space: 1 << 30,
        },
        ..ToolConfig::default()
    });
    let out = run_py(
        &tools,
        "try:\n    open('big.bin', 'wb').write(b'x' * (2 << 20))\nexcept OSError as e:\n    print('write:', e.strerror)\n\
         try:\n    b = bytearray(2 << 30)\nexcept MemoryError:\n    print('memory: refused')\n",
        30,
    )
    .await;
    assert!(
        out.result.contains("write: File too large"),
        "{}",
        out.result
    );
    assert!(out.result.contains("memory: refused"), "{}", out.result);
    let out = run_py(
        &tools,
        "import os, time\nfor _ in range(30):\n    try:\n        if os.fork() == 0:\n            time.sleep(30)\n            os._exit(0)\n    except OSError:\n        pass\ntime.sleep(30)\n",
        20,
    )
    .await;
    assert!(!out.ok, "{}", out.result);
    assert!(
        out.result.contains("more than 8 processes") || out.result.contains("exit code"),
        "{}",
        out.result
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_command_leaves_nothing_behind_in_its_group() {
    let (_dir, tools) = toolbox(ToolConfig::default());
    let out = run_py(
        &tools,
        "import os, time\npid = os.fork()\nif pid == 0:\n    time.sleep(60)\n    os._exit(0)\nopen('child.pid', 'w').write(str(pid))\nprint('parent done')\n",
        30,
    )
    .await;
    assert!(out.ok, "{}", out.result);
    assert!(
        out.result
            .contains("1 processes it left running were killed"),
        "{}",
        out.result
    );
    let pid = std::fs::read_to_string(tools.root().join("child.pid")).unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(
        stat.is_empty() || stat.contains(") Z "),
        "the child still runs: {stat}"
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_sandbox_keeps_reads_and_the_network_inside() {
    if super::super::sandbox::landlock_abi().is_none() {
        eprintln!("no Landlock on this kernel: reads and the network are not confined here");
        return;
    }
    let secret = tempfile::tempdir().unwrap();
    let shared = tempfile::tempdir().unwrap();
    std::fs::write(secret.path().join("key"), "SECRET").unwrap();
    std::fs::write(shared.path().join("data"), "SHARED").unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let script = format!(
        "import socket\n\
         def attempt(fn):\n\
         \x20   try:\n\
         \x20       return fn()\n\
         \x20   except OSError as e:\n\
         \x20       return type(e).__name__\n\
         print('secret', attempt(lambda: open({:?}).read()))\n\
         print('shared', attempt(lambda: open({:?}).read()))\n\
         print('tcp', attempt(lambda: socket.create_connection(('127.0.0.1', {}), timeout=5) and 'CONNECTED'))\n",
        secret.path().join("key").to_str().unwrap(),
        shared.path().join("data").to_str().unwrap(),
        listener.local_addr().unwrap().port()
    );
    let config = ToolConfig {
        allow_read: vec![shared.path().to_path_buf()],
        ..ToolConfig::default()
    };
    let (_dir, tools) = toolbox(config);
    let out = run_py(&tools, &script, 30).await;
    assert!(
        out.result.contains("secret PermissionError"),
        "{}",
        out.result
    );
    assert!(out.result.contains("shared SHARED"), "{}", out.result);
    assert!(!out.result.contains("tcp CONNECTED"), "{}", out.result);
    assert!(
        listener.accept().is_err(),
        "the command reached the listener"
    );

    let (_dir, tools) = toolbox(ToolConfig {
        allow_net: true,
        ..ToolConfig::default()
    });
    let out = run_py(&tools, &script, 30).await;
    assert!(out.result.contains("tcp CONNECTED"), "{}", out.result);
    assert!(
        out.result.contains("secret PermissionError"),
        "{}",
        out.result
    );
}

/// A module of a package that imports from it runs as a module of the
/// package (Python's language says how): run by its path it cannot find
/// its package. The result keeps the command given and says how it ran.
#[tokio::test]
async fn a_module_of_a_package_runs_as_a_module_of_it() {
    let (_dir, tools) = toolbox(ToolConfig::default());
    let root = tools.root().to_path_buf();
    std::fs::create_dir(root.join("mathx")).unwrap();
    std::fs::write(
        root.join("mathx/__init__.py"),
        "from mathx.ops import add\n",
    )
    .unwrap();
    std::fs::write(
        root.join("mathx/ops.py"),
        "def add(a, b):\n    return a + b\n",
    )
    .unwrap();
    std::fs::write(
        root.join("mathx/__main__.py"),
        "import sys\nfrom mathx import add\nprint(add(int(sys.argv[1]), int(sys.argv[2])))\n",
    )
    .unwrap();
    std::fs::write(
        root.join("mathx/solo.py"),
        "import ops\nprint(ops.add(1, 1))\n",
    )
    .unwrap();
    let stop = crate::stop::channel().1;
    let run = |tools: &Toolbox, cmd: &str| {
        let action = Action::RunCmd {
            cmd: cmd.into(),
            timeout: Duration::from_secs(30),
        };
        let tools = tools.clone();
        let stop = stop.clone();
        async move { tools.execute(&action, &stop).await }
    };

    let plain = run(&tools, "python3 mathx/__main__.py 2 3").await;
    assert!(
        !plain.ok && plain.result.contains("No module named 'mathx'"),
        "{}",
        plain.result
    );

    let tools = tools.with_languages(crate::lang::Languages::default());
    let out = run(&tools, "python3 mathx/__main__.py 2 3").await;
    assert!(out.ok, "{}", out.result);
    assert_eq!(printed(&out.result), "5", "{}", out.result);
    assert!(
        out.result.contains(
            "(run as `python3 -m mathx 2 3`: mathx/__main__.py imports from its package mathx"
        ),
        "{}",
        out.result
    );
    assert_eq!(
        out.command.as_deref(),
        Some("python3 mathx/__main__.py 2 3")
    );

    // Its input file stays its input.
    std::fs::write(
        root.join("mathx/sum.py"),
        "import sys\nfrom mathx import add\na, b = sys.stdin.read().split()\nprint(add(int(a), int(b)))\n",
    )
    .unwrap();
    std::fs::write(root.join("nums.txt"), "2 3\n").unwrap();
    let out = run(&tools, "python3 mathx/sum.py < nums.txt").await;
    assert!(out.ok, "{}", out.result);
    assert_eq!(printed(&out.result), "5", "{}", out.result);
    assert!(
        out.result
            .contains("(run as `python3 -m mathx.sum < nums.txt`"),
        "{}",
        out.result
    );

    // One that imports a sibling by its bare name runs only by its path.
    let out = run(&tools, "python3 mathx/solo.py").await;
    assert!(out.ok, "{}", out.result);
    assert!(!out.result.contains("run as"), "{}", out.result);
}

#[tokio::test]
async fn input_comes_from_the_workspace_file_after_a_less_than() {
    let (_dir, tools) = toolbox(ToolConfig::default());
    let root = tools.root().to_path_buf();
    std::fs::write(root.join("t.py"), "print(input().upper())").unwrap();
    std::fs::write(root.join("line.txt"), "hello there\n").unwrap();
    let stop = crate::stop::channel().1;
    let run = |cmd: &str| Action::RunCmd {
        cmd: cmd.into(),
        timeout: Duration::from_secs(30),
    };
    let out = tools.execute(&run("python3 t.py < line.txt"), &stop).await;
    assert!(out.ok, "{}", out.result);
    assert_eq!(printed(&out.result), "HELLO THERE");
    assert_eq!(out.command.as_deref(), Some("python3 t.py < line.txt"));
    let out = tools
        .execute(&run("python3 t.py < missing.txt"), &stop)
        .await;
    assert_eq!(out.refusal, Some(RefusalKind::NoSuchPath), "{out:?}");
    assert!(out.result.contains("write it first"), "{}", out.result);
    for outside in ["../x.txt", "/etc/passwd", ".agent_context/state.json"] {
        let out = tools
            .execute(&run(&format!("python3 t.py < {outside}")), &stop)
            .await;
        assert_eq!(
            out.refusal,
            Some(RefusalKind::PathRefused),
            "{outside}: {out:?}"
        );
    }
    std::fs::create_dir(root.join("d")).unwrap();
    let out = tools.execute(&run("python3 t.py < d"), &stop).await;
    assert_eq!(out.refusal, Some(RefusalKind::NotAFile), "{out:?}");
}
