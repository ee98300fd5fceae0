//! `net/url.Parse`: the parts of a URL, or Go's error.
//!
//! Mirrors Go's `net/url` `Parse` (`parse`, `getScheme`, `parseAuthority`, `parseHost`,
//! `unescape`), which the API server's webhook checks run on `clientConfig.url`. Newer Go
//! versions also check the address inside `[..]` hosts; that check is not made here.

use crate::gofmt;

/// A URL as Go's `url.Parse` splits it (the fields the webhook checks read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Url {
    /// `Scheme`, lowercased.
    pub scheme: String,
    /// `Opaque`: what follows `scheme:` when it does not start with `/`.
    pub opaque: String,
    /// `User`: the user information, as Go's `Userinfo.String()` writes it.
    pub user: Option<String>,
    /// `Host`: host or `host:port`, unescaped.
    pub host: String,
    /// `Path`, unescaped.
    pub path: String,
    /// `RawQuery`: after `?`, as written.
    pub raw_query: String,
    /// `Fragment`: after `#`, unescaped.
    pub fragment: String,
}

/// Go's `*url.Error` of `url.Parse`: `parse "<url>": <reason>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlError {
    /// The URL the error is about (without its fragment when the rest failed).
    pub url: String,
    /// Go's reason (`missing protocol scheme`, `invalid port ":x" after host`, ...).
    pub reason: String,
}

impl std::fmt::Display for UrlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "parse {}: {}", gofmt::quote(&self.url), self.reason)
    }
}

impl std::error::Error for UrlError {}

/// Go's `url.Parse`.
///
/// # Errors
/// Go's error for the URL: a control character, a scheme that starts with `:`, a colon in the
/// first segment of a relative path, a bad port, bad `%` escapes, bad characters in the host or
/// the user information.
pub fn parse(raw: &str) -> Result<Url, UrlError> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse_no_fragment(u).map_err(|reason| UrlError {
        url: u.to_owned(),
        reason,
    })?;
    if !frag.is_empty() {
        url.fragment = unescape(frag, Mode::Fragment).map_err(|reason| UrlError {
            url: raw.to_owned(),
            reason,
        })?;
    }
    Ok(url)
}

fn parse_no_fragment(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = "*".to_owned();
        return Ok(url);
    }
    let (scheme, rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        // `ForceQuery`: an empty query.
        &rest[..rest.len() - 1]
    } else {
        let (r, q) = rest.split_once('?').unwrap_or((rest, ""));
        url.raw_query = q.to_owned();
        r
    };
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless path (RFC 3986): opaque.
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    let mut path = rest;
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, p) = authority
            .find('/')
            .map_or((authority, ""), |i| (&authority[..i], &authority[i..]));
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        path = p;
    }
    url.path = unescape(path, Mode::Path)?;
    Ok(url)
}

// getScheme
fn scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok(("", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".to_owned());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn parse_authority(authority: &str) -> Result<(Option<String>, String), String> {
    let at = authority.rfind('@');
    let host = parse_host(at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    let valid = userinfo
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c));
    if !valid {
        return Err("net/url: invalid userinfo".to_owned());
    }
    let user = match userinfo.split_once(':') {
        None => escape_user(&unescape(userinfo, Mode::UserPassword)?),
        Some((name, password)) => format!(
            "{}:{}",
            escape_user(&unescape(name, Mode::UserPassword)?),
            escape_user(&unescape(password, Mode::UserPassword)?)
        ),
    };
    Ok((Some(user), host))
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".to_owned());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!(
                "invalid port {} after host",
                gofmt::quote(colon_port)
            ));
        }
        if let Some(zone) = host[..i].find("%25") {
            return Ok(format!(
                "{}{}{}",
                unescape(&host[..zone], Mode::Host)?,
                unescape(&host[zone..i], Mode::Zone)?,
                unescape(&host[i..], Mode::Host)?
            ));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!(
                "invalid port {} after host",
                gofmt::quote(colon_port)
            ));
        }
    }
    unescape(host, Mode::Host)
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

/// Go's `shouldEscape` for hosts and zones: what may appear unescaped in a host.
fn host_byte_ok(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c)
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

// unescape: `%` escapes must be well formed; hosts take `%` only for non-ASCII bytes (and `%25`).
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(hi), Some(lo)) = (
                    b.get(i + 1).copied().and_then(hex),
                    b.get(i + 2).copied().and_then(hex),
                ) else {
                    let end = (i + 3).min(b.len());
                    let bad = String::from_utf8_lossy(&b[i..end]);
                    return Err(format!("invalid URL escape {}", gofmt::quote(&bad)));
                };
                let esc = &s[i..i + 3];
                if mode == Mode::Host && hi < 8 && esc != "%25" {
                    return Err(format!("invalid URL escape {}", gofmt::quote(esc)));
                }
                let v = hi << 4 | lo;
                if mode == Mode::Zone && esc != "%25" && v != b' ' && v < 0x80 && !host_byte_ok(v) {
                    return Err(format!("invalid URL escape {}", gofmt::quote(esc)));
                }
                out.push(v);
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && !host_byte_ok(c) {
                    let bad = String::from_utf8_lossy(&b[i..=i]);
                    return Err(format!(
                        "invalid character {} in host name",
                        gofmt::quote(&bad)
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Go's `escape(s, encodeUserPassword)`: what `Userinfo.String()` writes.
fn escape_user(s: &str) -> String {
    let mut out = String::new();
    for &c in s.as_bytes() {
        let keep = c.is_ascii_alphanumeric() || b"-_.~$&+,;=".contains(&c);
        if keep {
            out.push(char::from(c));
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn err(url: &str) -> String {
        parse(url).unwrap_err().to_string()
    }

    #[test]
    fn splits_a_webhook_url() {
        let u = parse("https://my-webhook.example.com:9443/my-webhook-path").unwrap();
        assert_eq!(
            (u.scheme.as_str(), u.host.as_str(), u.path.as_str()),
            ("https", "my-webhook.example.com:9443", "/my-webhook-path")
        );
        let u = parse("HTTPS://user:pa%21ss@host/p?q=1#frag%20x").unwrap();
        assert_eq!(u.scheme, "https");
        assert_eq!(u.user.as_deref(), Some("user:pa%21ss"));
        assert_eq!(
            (u.raw_query.as_str(), u.fragment.as_str()),
            ("q=1", "frag x")
        );
        let u = parse("https:opaque").unwrap();
        assert_eq!((u.opaque.as_str(), u.host.as_str()), ("opaque", ""));
        assert_eq!(parse("https://h/?").unwrap().raw_query, "");
        assert_eq!(parse("//h/p").unwrap().host, "h");
    }

    /// Go's `net/url` errors (url_test.go `parseRequestURLTests`/`TestParseErrors` forms).
    #[test]
    fn go_errors() {
        assert_eq!(err(":foo"), "parse \":foo\": missing protocol scheme");
        assert_eq!(
            err("https://a:b/"),
            "parse \"https://a:b/\": invalid port \":b\" after host"
        );
        assert_eq!(
            err("my host:443/x"),
            "parse \"my host:443/x\": first path segment in URL cannot contain colon"
        );
        assert_eq!(
            err("https://[::1/"),
            "parse \"https://[::1/\": missing ']' in host"
        );
        assert_eq!(
            err("https://a b/"),
            "parse \"https://a b/\": invalid character \" \" in host name"
        );
        assert_eq!(
            err("https://h/%zz"),
            "parse \"https://h/%zz\": invalid URL escape \"%zz\""
        );
        assert_eq!(
            err("https://h/%4"),
            "parse \"https://h/%4\": invalid URL escape \"%4\""
        );
        assert_eq!(
            err("https://h/#%x"),
            "parse \"https://h/#%x\": invalid URL escape \"%x\""
        );
        assert_eq!(
            err("https://%41/"),
            "parse \"https://%41/\": invalid URL escape \"%41\""
        );
        assert_eq!(
            err("https://u\"s@h/"),
            "parse \"https://u\\\"s@h/\": net/url: invalid userinfo"
        );
        assert_eq!(
            err("https://h/\u{7f}"),
            "parse \"https://h/\\x7f\": net/url: invalid control character in URL"
        );
    }
}
