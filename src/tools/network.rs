//! Commands that cannot work without the network, refused up front with
//! what to do when commands have none, rather than left to fail after
//! their retries with an error that does not say why.

/// Why a command needs the network, for the model (and the user), or
/// `None`. `pip install` fetches from the package index unless told
/// `--no-index`; `python -m pip install` is the same command.
pub fn needs_network(words: &[String]) -> Option<String> {
    let name = words.first()?.rsplit('/').next()?;
    let rest: &[String] = if name.starts_with("pip") {
        words.get(1..)?
    } else if name.starts_with("python") {
        let at = words.iter().position(|w| w == "-m")?;
        if words.get(at + 1).map(String::as_str) != Some("pip") {
            return None;
        }
        words.get(at + 2..)?
    } else {
        return None;
    };
    let installs = rest
        .iter()
        .find(|w| !w.starts_with('-'))
        .is_some_and(|w| w == "install" || w == "download");
    let offline = rest.iter().any(|w| w == "--no-index");
    (installs && !offline).then(|| {
        format!(
            "`{}` needs the network to reach the package index, and commands have no network: \
             the user can run the runner with --allow-net to let them (`--no-index` installs \
             from local files only)",
            words.join(" ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(cmd: &str) -> Vec<String> {
        cmd.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn pip_install_needs_the_network_unless_offline() {
        for cmd in [
            "pip install requests",
            "pip3 -q install requests",
            "python3 -m pip install -r requirements.txt",
            "pip download x",
        ] {
            let why = needs_network(&words(cmd));
            assert!(
                why.as_deref().is_some_and(|w| w.contains("--allow-net")),
                "{cmd}"
            );
        }
        for cmd in [
            "pip install --no-index ./dist/x.whl",
            "pip list",
            "python3 -m pytest -q",
            "python3 install.py",
            "pytest -k install",
        ] {
            assert_eq!(needs_network(&words(cmd)), None, "{cmd}");
        }
    }
}
