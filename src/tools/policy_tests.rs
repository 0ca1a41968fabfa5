//! What run_cmd accepts and refuses.

use super::*;

fn refusal(cmd: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    check(cmd, &root, &ToolConfig::default())
        .err()
        .unwrap_or_else(|| format!("ACCEPTED: {cmd}"))
}

fn accepted(cmd: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join("tests")).unwrap();
    check(cmd, &root, &ToolConfig::default()).is_ok()
}

#[test]
fn the_whitelist_and_the_shell() {
    assert!(accepted("python3 -m pytest -q"));
    assert!(accepted("pytest -k 'a or b' tests/"));
    assert!(accepted("python3 x.py 'a;b' '$x' \"a|b\" 'it''s' a=b"));
    assert!(refusal("python3 \"$HOME/x\"").contains("not expanded"));
    assert!(refusal("bash -c id").contains("not an allowed program"));
    assert!(refusal("./python x.py").contains("by name"));
    assert!(refusal("/tmp/x/python x.py").contains("by name"));
    assert!(refusal("/bin/sh -c id").contains("by name"));
    assert!(refusal("pytest && curl x").contains("without a shell"));
    assert!(refusal("python3 x.py; touch ../y").contains("\";\""));
    assert!(refusal("python3 x.py|tee y").contains("without a shell"));
    assert!(refusal("python3 $(echo x)").contains("$"));
    assert!(refusal("python3 x.py $1").contains("not expanded"));
    assert!(accepted("python3 x.py '$1' costs$"));
    assert!(refusal("python3 \"`id`\"").contains("substitution"));
    assert!(refusal("python3 a.py\nrm -rf b").contains("line break"));
    assert!(refusal("python3 'unbalanced").contains("cannot split"));
    assert!(refusal("").contains("empty"));
}

#[test]
fn inline_python_is_refused_however_it_is_spelled() {
    for cmd in [
        "python3 -c 'import os'",
        "python -Ic 'import os'",
        "python3 -B -c pass",
        "python3 -W ignore -c pass",
    ] {
        assert!(refusal(cmd).contains("python -c"), "{cmd}");
    }
    assert!(accepted("python3 -m pytest -c tests/pytest.ini"));
    assert!(accepted("python3 script.py -c x"));
    let dir = tempfile::tempdir().unwrap();
    let config = ToolConfig {
        allow_inline_python: true,
        ..ToolConfig::default()
    };
    assert!(check("python3 -c pass", dir.path(), &config).is_ok());
    let mut config = ToolConfig::default();
    config.allowed.push("python3.12".into());
    let why = check("python3.12 -c pass", dir.path(), &config).unwrap_err();
    assert!(why.contains("python -c"), "{why}");
}

#[test]
fn options_that_write_outside_are_refused() {
    for cmd in [
        "pytest --basetemp=/home/u",
        "pytest --basetemp /tmp/x",
        "python3 -m pytest --junitxml=../r.xml",
        "pytest --junit-xml ../r.xml",
        "pytest -c /etc/pytest.ini",
        "pytest -c/etc/pytest.ini",
        "pytest -p evil_plugin",
        "pytest -qp evil",
        "pytest --rootdir=/",
        "pytest -o cache_dir=/tmp/c",
        "pytest -ocache_dir=../c",
        "pytest --override-ini=cache_dir=/tmp/c",
        "pytest -o addopts=--basetemp=/x",
        "pytest --cov-report=html:/tmp/h",
        "pytest --debug=/tmp/d.log",
        "pytest --log-file /tmp/l",
        "pytest --basetemp=.git/x",
        "ruff check --output-file /tmp/o .",
        "ruff check -o ../o",
        "ruff check --config /etc/ruff.toml",
        "ruff check --config \"cache-dir = '/tmp'\"",
        "ruff check --cache-dir=/tmp/r",
        "pip install --target /usr/lib/x requests",
        "pip3 install -t/tmp/x requests",
        "pip install --targ /tmp/x requests",
        "pip install --prefix=/usr/local x",
        "pip install --root / x",
        "pip install --user x",
        "pip install --src /tmp/s x",
        "python3 -m pip install --user x",
        "pip download -d /tmp/d x",
    ] {
        let why = refusal(cmd);
        assert!(
            why.contains("refused") || why.contains("outside"),
            "{cmd}: {why}"
        );
    }
    for cmd in [
        "pytest --basetemp=tmp/pt -q",
        "pytest -p no:cacheprovider",
        "pytest -o cache_dir=.cache",
        "pytest -k 'not slow' -x tests",
        "pytest --debug",
        "ruff check --config 'line-length = 100' .",
        "ruff check --output-file out.txt .",
        "pip install --pre -r requirements.txt",
        "pip install --target vendor requests",
        "pip install -e .",
    ] {
        assert!(accepted(cmd), "{cmd} was refused");
    }
}

#[cfg(unix)]
#[test]
fn an_option_path_through_a_symlink_out_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
    let why = check("pytest --basetemp=out/t", &root, &ToolConfig::default()).unwrap_err();
    assert!(why.contains("outside"), "{why}");
}

#[test]
fn a_last_word_after_an_unquoted_less_than_is_the_input_file() {
    assert_eq!(
        input_file("python3 vowels.py < line.txt"),
        Some(("python3 vowels.py", "line.txt".to_string()))
    );
    assert_eq!(
        input_file("python3 v.py<'in put.txt'"),
        Some(("python3 v.py", "in put.txt".to_string()))
    );
    // Quoted, it is an argument; a heredoc, two words or more syntax after
    // it are not a file to read.
    assert_eq!(input_file("python3 v.py '<' a"), None);
    assert_eq!(input_file("python3 v.py \"a < b\""), None);
    assert_eq!(input_file("python3 v.py << EOF"), None);
    assert_eq!(input_file("python3 v.py < a b"), None);
    assert_eq!(input_file("python3 v.py < a > b"), None);
    assert_eq!(input_file("python3 v.py <"), None);
    assert!(refusal("python3 v.py << EOF").contains("without a shell"));
}
