//! Commands that try to outlive their command: ignoring SIGTERM, escaping
//! with setsid, forking exponentially. None may survive, none may stay a
//! zombie of the runner.

use super::{adversarial, assert_canary, outcome, outcomes};
use crate::support::Test;

const STUBBORN_PY: &str = r#"import os, signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
pids = [os.getpid()]
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    pids.append(pid)
with open('pids_stubborn.txt', 'w') as f:
    f.write(' '.join(map(str, pids)))
print('ignoring SIGTERM', flush=True)
time.sleep(120)
"#;
const SETSID_PY: &str = r#"import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open('pids_setsid.tmp', 'w') as f:
            f.write(str(os.getpid()))
        os.rename('pids_setsid.tmp', 'pids_setsid.txt')
        time.sleep(120)
        os._exit(0)
    os._exit(0)
while not os.path.exists('pids_setsid.txt'):
    time.sleep(0.01)
print('an escapee is running', flush=True)
"#;
/// Exponential forking, capped at 512 processes so that the machine is safe
/// even if the runner's limits failed; the runner allows 256 at once.
const BOMB_PY: &str = r#"import os, time
for _ in range(9):
    try:
        os.fork()
    except OSError:
        pass
time.sleep(20)
"#;
/// Lists the processes of the earlier commands still there (alive or
/// zombie), and the runner's zombie children.
const CHECK_PY: &str = r#"import os
def stat(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        with open(f'/proc/{pid}/cmdline') as f:
            return fields[0], int(fields[1]), f.read()
    except (OSError, IndexError):
        return None
found = []
for name in ('pids_stubborn.txt', 'pids_setsid.txt'):
    for pid in open(name).read().split():
        if stat(pid):
            found.append(name + ':' + pid)
runner = os.getppid()
for pid in filter(str.isdigit, os.listdir('/proc')):
    s = stat(pid)
    if s and ('bomb.py' in s[2] or (s[0] == 'Z' and s[1] == runner)):
        found.append('left:' + pid + ':' + s[0])
print('survivors:', ', '.join(found) if found else 'none')
"#;

/// The pids in the workspace's pid files that are still there.
fn still_there(test: &Test) -> Vec<String> {
    let mut left = Vec::new();
    for name in ["pids_stubborn.txt", "pids_setsid.txt"] {
        let pids = std::fs::read_to_string(test.workspace.join(name)).unwrap_or_default();
        for pid in pids.split_whitespace() {
            let cmdline =
                std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if cmdline.contains("stubborn.py") || cmdline.contains("setsid.py") {
                left.push(format!("{name}:{pid}"));
            }
        }
    }
    left
}

#[test]
fn no_process_outlives_its_command() {
    let (test, outside) = adversarial("adversarial_processes");
    let test = test
        .file("stubborn.py", STUBBORN_PY)
        .file("setsid.py", SETSID_PY)
        .file("bomb.py", BOMB_PY)
        .file("check.py", CHECK_PY);
    let run = test.run();
    // Whatever happened, nothing of this test may stay on the machine.
    let left = still_there(&test);
    run.assert_code(0);
    let all = outcomes(&test);

    let stubborn = outcome(&all, "stubborn.py");
    assert!(
        !stubborn.ok && stubborn.text.contains("timed out after 1 s"),
        "{}",
        stubborn.text
    );
    assert!(
        stubborn.text.contains("ignoring SIGTERM"),
        "{}",
        stubborn.text
    );

    let setsid = outcome(&all, "setsid.py");
    assert!(setsid.ok, "{}", setsid.text);
    assert!(
        setsid
            .text
            .contains("processes it left running were killed"),
        "{}",
        setsid.text
    );

    let bomb = outcome(&all, "bomb.py");
    assert!(!bomb.ok, "{}", bomb.text);
    // Killed by the runner's count (root is exempt from RLIMIT_NPROC), or
    // stopped by RLIMIT_NPROC, or at worst by the timeout: never ok.
    assert!(
        ["more than 256 processes", "exit code", "timed out"]
            .iter()
            .any(|s| bomb.text.contains(s)),
        "{}",
        bomb.text
    );

    let check = outcome(&all, "check.py");
    assert!(check.text.contains("survivors: none"), "{}", check.text);
    assert_eq!(left, Vec::<String>::new(), "processes outlived the runner");
    assert_canary(&outside);
}
