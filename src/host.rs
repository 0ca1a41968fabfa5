//! `OLLAMA_HOST` as the ollama CLI reads it, turned into a base URL that ends
//! in `/` (ollama-rs appends `api/chat` to the URL as a string, so
//! `https://h/prefix` would become `https://h/prefixapi/chat`, and a host
//! without a scheme does not parse at all).

/// The port Ollama listens on when none is given.
const DEFAULT_PORT: u16 = 11434;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot use {given:?} as the Ollama host: {why}. Give it as the ollama CLI takes it, \
     e.g. 127.0.0.1:11434, localhost:11434 or http://host:11434 (--host or OLLAMA_HOST)"
)]
pub struct HostError {
    given: String,
    why: String,
}

/// Parses a host the way `ollama` does (`envconfig.Host`): the scheme defaults
/// to http; the port to 11434 without a scheme, 80 with http:// and 443 with
/// https://; a path is kept as a prefix. A bind-all address (0.0.0.0, ::) means
/// this machine, so it is reached on the loopback address.
pub fn parse(given: &str) -> Result<String, HostError> {
    let error = |why: &str| HostError {
        given: given.to_string(),
        why: why.to_string(),
    };
    let text = given.trim();
    let (scheme, rest, default_port) = match text.split_once("://") {
        None => ("http", text, DEFAULT_PORT),
        Some(("http", rest)) => ("http", rest, 80),
        Some(("https", rest)) => ("https", rest, 443),
        Some((other, _)) => {
            return Err(error(&format!("the scheme {other:?} is not http or https")));
        }
    };
    let (authority, path) = match rest.split_once('/') {
        Some((authority, path)) => (authority, path.trim_matches('/')),
        None => (rest, ""),
    };
    if authority.contains('@') || authority.contains('?') || authority.contains('#') {
        return Err(error(
            "credentials, queries and fragments are not supported",
        ));
    }
    let (host, port) = split_host_port(authority).map_err(|why| error(&why))?;
    if let Some(bad) = host
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || ".-_:[]%".contains(*c)))
    {
        return Err(error(&format!(
            "a host name cannot hold {bad:?}; it is a name or an address, such as localhost"
        )));
    }
    let host = match host.as_str() {
        "" | "0.0.0.0" => "127.0.0.1".to_string(),
        "::" | "[::]" => "[::1]".to_string(),
        _ => host,
    };
    let port = port.unwrap_or(default_port);
    let path = if path.is_empty() {
        String::new()
    } else {
        format!("{path}/")
    };
    Ok(format!("{scheme}://{host}:{port}/{path}"))
}

fn split_host_port(authority: &str) -> Result<(String, Option<u16>), String> {
    let parse_port = |port: &str| {
        port.parse::<u16>()
            .map_err(|_| format!("the port {port:?} is not a number from 0 to 65535"))
    };
    if let Some(rest) = authority.strip_prefix('[') {
        let (ip, after) = rest
            .split_once(']')
            .ok_or_else(|| "an IPv6 address lacks its closing ]".to_string())?;
        let port = match after.strip_prefix(':') {
            Some(port) => Some(parse_port(port)?),
            None if after.is_empty() => None,
            None => return Err(format!("unexpected {after:?} after the address")),
        };
        return Ok((format!("[{ip}]"), port));
    }
    match authority.matches(':').count() {
        0 => Ok((authority.to_string(), None)),
        1 => {
            let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
            Ok((host.to_string(), Some(parse_port(port)?)))
        }
        // A bare IPv6 address such as ::1 or ::.
        _ => Ok((format!("[{authority}]"), None)),
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn the_forms_the_ollama_cli_accepts() {
        let cases = [
            ("127.0.0.1:11434", "http://127.0.0.1:11434/"),
            ("localhost:11434", "http://localhost:11434/"),
            ("localhost", "http://localhost:11434/"),
            ("0.0.0.0", "http://127.0.0.1:11434/"),
            ("0.0.0.0:8080", "http://127.0.0.1:8080/"),
            ("", "http://127.0.0.1:11434/"),
            ("http://h:9/", "http://h:9/"),
            ("http://h", "http://h:80/"),
            ("https://h/prefix", "https://h:443/prefix/"),
            ("https://h:8443/a/b/", "https://h:8443/a/b/"),
            ("  example.com:1234  ", "http://example.com:1234/"),
            ("[::1]:11434", "http://[::1]:11434/"),
            ("::1", "http://[::1]:11434/"),
            ("::", "http://[::1]:11434/"),
        ];
        for (given, want) in cases {
            assert_eq!(parse(given).as_deref(), Ok(want), "for {given:?}");
        }
    }

    #[test]
    fn bad_hosts_are_refused_with_what_to_do() {
        for bad in [
            "ftp://h",
            "h:99999",
            "h:port",
            "http://u:p@h",
            "[::1",
            "not a url",
            "http://a b:1",
        ] {
            let err = parse(bad).unwrap_err().to_string();
            assert!(err.contains("OLLAMA_HOST"), "{err}");
        }
    }
}
