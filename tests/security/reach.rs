//! Commands that try to read what is not theirs (above the workspace, in
//! `$HOME`, another user's file, through a symlink they plant or through
//! `/proc/<pid>/root`) or to reach the network (TCP, UDP and DNS to
//! listeners this test starts on the loopback, `pip install`), directly,
//! from a child process or from a pytest `conftest.py`. Nothing they read
//! may reach the model, and the listeners must get nothing.

use std::net::{TcpListener, UdpSocket};
use std::path::Path;

use super::{adversarial, assert_canary, outcome, outcomes, refused, sent};
use crate::support::Test;

/// Secrets outside the workspace, by path under `$HOME` or beside it.
const SECRETS: [(&str, &str); 4] = [
    (".ssh/id_ed25519", "SSH-KEY-CANARY-5f1c"),
    (".aws/credentials", "AWS-CANARY-88d0"),
    (".config/gh/hosts.yml", "GH-CONFIG-CANARY-31aa"),
    ("../other/secret.txt", "OTHER-USER-CANARY-7e42"),
];

const ATTEMPT_PY: &str = r#"import os, sys
HOME = os.environ['HOME']
def read(path):
    with open(path) as f:
        return f.read()
def attempt(name, fn):
    try:
        print(name, 'READ', fn())
    except OSError as e:
        print(name, 'refused:' + type(e).__name__)
"#;
const READS_PY: &str = r#"from attempt import *
attempt('above', lambda: read('../outside/canary.txt'))
attempt('ssh', lambda: read(HOME + '/.ssh/id_ed25519'))
attempt('aws', lambda: read(HOME + '/.aws/credentials'))
attempt('config', lambda: read(HOME + '/.config/gh/hosts.yml'))
attempt('home-list', lambda: os.listdir(HOME))
attempt('other-user', lambda: read('../other/secret.txt'))
attempt('proc-root-runner', lambda: read('/proc/%d/root%s/.ssh/id_ed25519' % (os.getppid(), HOME)))
attempt('proc-root-init', lambda: read('/proc/1/root%s/.aws/credentials' % HOME))
attempt('shadow', lambda: read('/etc/shadow'))
attempt('system', lambda: read('/etc/passwd').split(':')[0])
"#;
const PLANTED_PY: &str = r#"from attempt import *
os.symlink('../outside/canary.txt', 'planted_canary')
os.symlink(HOME + '/.ssh', 'planted_ssh')
attempt('planted-canary', lambda: read('planted_canary'))
attempt('planted-ssh', lambda: read('planted_ssh/id_ed25519'))
"#;
const SPAWN_PY: &str = r#"import subprocess, sys
subprocess.run([sys.executable, 'reads.py'])
"#;
const CONFTEST_PY: &str = r#"import os
try:
    RESULT = open(os.environ['HOME'] + '/.aws/credentials').read()
except OSError as e:
    RESULT = 'refused:' + type(e).__name__
"#;
const TEST_CONFTEST_PY: &str = r#"from conftest import RESULT
def test_the_plugin_could_not_read():
    assert RESULT.startswith('refused:'), RESULT
"#;
const TCP_PY: &str = r#"import socket
try:
    s = socket.create_connection(('127.0.0.1', {PORT}), timeout=5)
    s.sendall(b'LEAK')
    s.close()
    print('tcp CONNECTED')
except OSError as e:
    print('tcp refused:' + type(e).__name__)
"#;
const UDP_PY: &str = r#"import socket
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b'LEAK', ('127.0.0.1', {PORT}))
    print('udp SENT')
except OSError as e:
    print('udp refused:' + type(e).__name__)
"#;
/// A query for `example.com`, type A, to a resolver on the loopback.
const DNS_PY: &str = r#"import socket, struct
query = struct.pack('>HHHHHH', 0x1234, 0x0100, 1, 0, 0, 0)
query += b''.join(bytes([len(p)]) + p for p in (b'example', b'com')) + b'\x00'
query += struct.pack('>HH', 1, 1)
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    s.sendto(query, ('127.0.0.1', {PORT}))
    print('dns SENT')
    print('dns answer', s.recv(512))
except OSError as e:
    print('dns refused:' + type(e).__name__)
"#;
const SPAWN_NET_PY: &str = r#"import subprocess, sys
out = subprocess.run([sys.executable, 'tcp.py'], capture_output=True, text=True).stdout
print('child', out.strip())
"#;

/// What the kernel can do here, as the runner sees it.
enum Kernel {
    NoLandlock,
    /// Landlock; `udp` when a network namespace cuts UDP and DNS too.
    Landlock {
        udp: bool,
    },
}

fn kernel(workspace: &Path) -> Kernel {
    let config = runner::tools::ToolConfig::default();
    if runner::tools::sandbox_notice(&config, workspace).is_some_and(|n| n.contains("no Landlock"))
    {
        return Kernel::NoLandlock;
    }
    let summary = runner::tools::sandbox_summary(&config, workspace);
    Kernel::Landlock {
        udp: summary.contains("network namespace"),
    }
}

/// Listeners on the loopback that must get nothing.
struct Listeners {
    tcp: TcpListener,
    udp: UdpSocket,
    dns: UdpSocket,
}

impl Listeners {
    fn start() -> Listeners {
        let listeners = Listeners {
            tcp: TcpListener::bind("127.0.0.1:0").unwrap(),
            udp: UdpSocket::bind("127.0.0.1:0").unwrap(),
            dns: UdpSocket::bind("127.0.0.1:0").unwrap(),
        };
        listeners.tcp.set_nonblocking(true).unwrap();
        listeners.udp.set_nonblocking(true).unwrap();
        listeners.dns.set_nonblocking(true).unwrap();
        listeners
    }

    fn port(&self, which: &str) -> String {
        match which {
            "tcp" => self.tcp.local_addr(),
            "udp" => self.udp.local_addr(),
            _ => self.dns.local_addr(),
        }
        .unwrap()
        .port()
        .to_string()
    }

    fn tcp_got(&self) -> bool {
        self.tcp.accept().is_ok()
    }

    fn udp_got(socket: &UdpSocket) -> bool {
        socket.recv(&mut [0u8; 512]).is_ok()
    }
}

fn with_secrets(test: Test) -> Test {
    for (path, secret) in SECRETS {
        let path = test.home.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, secret).unwrap();
    }
    let other = test.home.join(SECRETS[3].0);
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(&other, Some(65534), Some(65534)).unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o600)).unwrap();
    test
}

fn assert_nothing_leaked(test: &Test) {
    let sent = sent(test);
    for (path, secret) in SECRETS {
        assert!(!sent.contains(secret), "{path} reached the model");
    }
    assert!(
        !sent.contains("CANARY: nobody"),
        "the canary above the workspace reached the model"
    );
}

#[test]
fn commands_cannot_read_secrets_nor_reach_the_network() {
    let listeners = Listeners::start();
    let (test, outside) = adversarial("adversarial_reach");
    let test = with_secrets(test)
        .file("attempt.py", ATTEMPT_PY)
        .file("reads.py", READS_PY)
        .file("planted.py", PLANTED_PY)
        .file("spawn.py", SPAWN_PY)
        .file("conftest.py", CONFTEST_PY)
        .file("test_conftest_reads.py", TEST_CONFTEST_PY)
        .file("tcp.py", &TCP_PY.replace("{PORT}", &listeners.port("tcp")))
        .file("udp.py", &UDP_PY.replace("{PORT}", &listeners.port("udp")))
        .file("dns.py", &DNS_PY.replace("{PORT}", &listeners.port("dns")))
        .file("spawn_net.py", SPAWN_NET_PY)
        // The probes are not work to check: the workspace's own pytest run
        // (its probe test among the rest) is not what this test is about.
        .args(["--max-cycles", "0"]);
    let run = test.run();
    assert!(matches!(run.code, Some(0 | 1)), "{}", run.stderr);
    let all = outcomes(&test);

    // Refused by the runner on every kernel: it never starts.
    refused(&all, "\"pip install requests\"", "--allow-net");
    refused(&all, "-m pip install", "--allow-net");

    let udp_cut = match kernel(&test.workspace) {
        Kernel::NoLandlock => {
            eprintln!("no Landlock on this kernel: reads and the network are not confined here");
            assert!(run.stderr.contains("no Landlock"), "{}", run.stderr);
            return;
        }
        Kernel::Landlock { udp } => udp,
    };

    let reads = outcome(&all, "python3 reads.py");
    let spawned = outcome(&all, "python3 spawn.py");
    for name in [
        "above",
        "ssh",
        "aws",
        "config",
        "home-list",
        "other-user",
        "proc-root-runner",
        "proc-root-init",
        "shadow",
    ] {
        for o in [&reads, &spawned] {
            assert!(
                o.text.contains(&format!("{name} refused:")),
                "{name}: {}",
                o.text
            );
        }
    }
    // The system stays readable: the refusals above are the sandbox's.
    assert!(reads.text.contains("system READ root"), "{}", reads.text);

    let planted = outcome(&all, "planted.py");
    for name in ["planted-canary", "planted-ssh"] {
        assert!(
            planted.text.contains(&format!("{name} refused:")),
            "{name}: {}",
            planted.text
        );
    }

    let conftest = outcome(&all, "test_conftest_reads.py");
    assert!(
        conftest.ok && conftest.text.contains("1 passed"),
        "{}",
        conftest.text
    );

    let tcp = outcome(&all, "python3 tcp.py");
    assert!(tcp.text.contains("tcp refused:"), "{}", tcp.text);
    let child = outcome(&all, "spawn_net.py");
    assert!(child.text.contains("child tcp refused:"), "{}", child.text);
    assert!(!listeners.tcp_got(), "a command reached the TCP listener");

    let udp = outcome(&all, "udp.py");
    let dns = outcome(&all, "dns.py");
    if udp_cut {
        assert!(udp.text.contains("udp refused:"), "{}", udp.text);
        assert!(dns.text.contains("dns refused:"), "{}", dns.text);
        assert!(
            !Listeners::udp_got(&listeners.udp),
            "UDP reached the listener"
        );
        assert!(
            !Listeners::udp_got(&listeners.dns),
            "DNS reached the listener"
        );
    } else {
        eprintln!("no network namespaces here: only TCP is cut (Landlock), UDP and DNS are not");
        assert!(run.stderr.contains("UDP and DNS"), "{}", run.stderr);
    }

    assert_nothing_leaked(&test);
    assert_canary(&outside);
}

#[test]
fn allow_read_and_allow_net_open_what_they_name() {
    let listeners = Listeners::start();
    let shared = tempfile::tempdir().unwrap();
    std::fs::write(shared.path().join("shared.txt"), "SHARED-OK").unwrap();
    let (test, outside) = adversarial("adversarial_reach_allowed");
    let test = with_secrets(test)
        .file("attempt.py", ATTEMPT_PY)
        .file(
            "allowed.py",
            &format!(
                "from attempt import *\nattempt('shared', lambda: read({:?}))\nattempt('ssh', lambda: read(HOME + '/.ssh/id_ed25519'))\n",
                shared.path().join("shared.txt").to_str().unwrap()
            ),
        )
        .file("tcp.py", &TCP_PY.replace("{PORT}", &listeners.port("tcp")))
        .args([
            "--allow-net",
            "--allow-read",
            shared.path().to_str().unwrap(),
        ]);
    let run = test.run();
    run.assert_code(0);
    let all = outcomes(&test);
    let allowed = outcome(&all, "allowed.py");
    assert!(
        allowed.text.contains("shared READ SHARED-OK"),
        "{}",
        allowed.text
    );
    if let Kernel::Landlock { .. } = kernel(&test.workspace) {
        assert!(allowed.text.contains("ssh refused:"), "{}", allowed.text);
    }
    let tcp = outcome(&all, "tcp.py");
    assert!(tcp.text.contains("tcp CONNECTED"), "{}", tcp.text);
    assert!(
        listeners.tcp_got(),
        "the listener got nothing with --allow-net"
    );
    assert_nothing_leaked(&test);
    assert_canary(&outside);
}
