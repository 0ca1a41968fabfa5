//! Confinement of the file tools, symlinks and races included.

use super::*;
use std::os::unix::fs::symlink;

fn shown(root: &Path, given: &str) -> Result<String, String> {
    match resolve(root, given, false) {
        Ok(target) => Ok(target.shown().to_string()),
        Err(PathError::Refused(m)) => Err(m),
        Err(e) => Err(format!("{e:?}")),
    }
}

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    (dir, root)
}

#[test]
fn paths_stay_inside_the_workspace() {
    let (_dir, root) = workspace();
    std::fs::create_dir(root.join("a")).unwrap();
    assert_eq!(shown(&root, "a/b.py").unwrap(), "a/b.py");
    assert_eq!(shown(&root, "./a/../b.py").unwrap(), "b.py");
    assert_eq!(shown(&root, ".").unwrap(), "");
    let inside = root.join("c.py");
    assert_eq!(shown(&root, inside.to_str().unwrap()).unwrap(), "c.py");
    for bad in [
        "../x",
        "a/../../x",
        "/etc/passwd",
        ".agent_context/state.json",
        ".git/hooks/pre-commit",
        ".GIT/config",
        "a\0b",
    ] {
        assert!(shown(&root, bad).is_err(), "{bad} was let through");
    }
    assert!(matches!(
        resolve(&root, "nope/x.py", false),
        Err(PathError::MissingFolder)
    ));
    assert_eq!(
        resolve(&root, "new/deep/x.py", true).unwrap().shown(),
        "new/deep/x.py"
    );
    assert!(root.join("new/deep").is_dir());
}

#[test]
fn a_symlink_leading_outside_is_refused_at_any_component() {
    let outside = tempfile::tempdir().unwrap();
    let (_dir, root) = workspace();
    symlink(outside.path(), root.join("out")).unwrap();
    std::fs::create_dir_all(root.join("in/sub")).unwrap();
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    symlink(root.join("in"), root.join("alias")).unwrap();
    symlink("sub/../..", root.join("in/up")).unwrap();
    symlink("../../..", root.join("in/sub/way_up")).unwrap();
    symlink(".git/hooks", root.join("hooks")).unwrap();
    symlink("loop", root.join("loop")).unwrap();
    assert!(shown(&root, "out/new.py").unwrap_err().contains("symlink"));
    assert!(shown(&root, "out").is_err());
    assert!(shown(&root, "in/sub/way_up/x").is_err());
    assert!(
        shown(&root, "hooks/pre-commit")
            .unwrap_err()
            .contains("off limits")
    );
    assert!(shown(&root, "loop/x").unwrap_err().contains("too many"));
    assert_eq!(shown(&root, "alias/x.py").unwrap(), "in/x.py");
    assert_eq!(shown(&root, "in/up/x.py").unwrap(), "x.py");
    assert!(
        resolve(&root, "out/a/b.py", true).is_err(),
        "no folder is created through a link that leads out"
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[test]
fn a_hardlink_to_a_file_outside_is_replaced_not_written_through() {
    let outside = tempfile::tempdir_in(std::env::temp_dir()).unwrap();
    let (_dir, root) = workspace();
    let canary = outside.path().join("canary.txt");
    std::fs::write(&canary, "untouched").unwrap();
    if std::fs::hard_link(&canary, root.join("hl.txt")).is_err() {
        return; // another file system: no hardlink possible, nothing to test
    }
    resolve(&root, "hl.txt", false)
        .unwrap()
        .replace(b"new")
        .unwrap();
    assert_eq!(std::fs::read_to_string(&canary).unwrap(), "untouched");
    assert_eq!(std::fs::read_to_string(root.join("hl.txt")).unwrap(), "new");
}

#[test]
fn a_fifo_is_not_opened_as_a_file() {
    let (_dir, root) = workspace();
    let fifo = std::ffi::CString::new(root.join("pipe").as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let target = resolve(&root, "pipe", false).unwrap();
    assert!(target.open_file().is_err());
    assert_eq!(target.kind().unwrap(), Some(Kind::Other));
}

/// A folder is swapped with a symlink to a folder outside while files
/// are written into it: every write lands inside or is refused.
#[test]
fn a_symlink_swapped_in_during_writes_never_leads_out() {
    let outside = tempfile::tempdir().unwrap();
    let (_dir, root) = workspace();
    std::fs::create_dir(root.join("sub")).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (root, outside, stop) = (root.clone(), outside.path().to_path_buf(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::rename(root.join("sub"), root.join("real"));
                let _ = symlink(&outside, root.join("sub"));
                let _ = std::fs::remove_file(root.join("sub"));
                let _ = std::fs::rename(root.join("real"), root.join("sub"));
            }
        })
    };
    for i in 0..2000 {
        if let Ok(target) = resolve(&root, "sub/f.txt", false) {
            let _ = target.replace(format!("{i}").as_bytes());
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    let leaked: Vec<_> = std::fs::read_dir(outside.path()).unwrap().collect();
    assert!(leaked.is_empty(), "written outside: {leaked:?}");
    // How many writes got through depends on the machine's load; that the
    // path works once the swapping stops does not.
    let target = resolve(&root, "sub/f.txt", false).unwrap();
    target.replace(b"last").unwrap();
    assert_eq!(std::fs::read(root.join("sub/f.txt")).unwrap(), b"last");
}
