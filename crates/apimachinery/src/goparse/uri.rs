//! `net/url.ParseRequestURI`.

/// `url.ParseRequestURI` succeeds.
pub fn parse_request_uri(s: &str) -> bool {
    if s.bytes().any(|b| b < 0x20 || b == 0x7f) || s.is_empty() {
        return false;
    }
    if s == "*" {
        return true;
    }
    let (scheme, rest) = match scheme(s) {
        Err(()) => return false,
        Ok(x) => x,
    };
    let rest = match rest.strip_suffix('?') {
        Some(r) if rest.matches('?').count() == 1 => r,
        _ => rest.split_once('?').map_or(rest, |(p, _)| p),
    };
    if !rest.starts_with('/') {
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty() && rest.starts_with("//") {
        let auth = &rest[2..];
        let (authority, p) = auth
            .find('/')
            .map_or((auth, ""), |i| (&auth[..i], &auth[i..]));
        if !parse_authority(authority) {
            return false;
        }
        path = p;
    }
    unescape_ok(path, false)
}

fn scheme(s: &str) -> Result<(&str, &str), ()> {
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err(()),
            b':' => return Ok((&s[..i], &s[i + 1..])),
            _ => return Ok(("", s)),
        }
    }
    Ok(("", s))
}

fn parse_authority(a: &str) -> bool {
    let (user, host) = a.rsplit_once('@').map_or((None, a), |(u, h)| (Some(u), h));
    if let Some(u) = user
        && !u
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&b))
    {
        return false;
    }
    if let Some(h) = host.strip_prefix('[') {
        let Some(end) = h.find(']') else { return false };
        let port = &h[end + 1..];
        if !port.is_empty() && !valid_port(port) {
            return false;
        }
        return unescape_ok(&h[..end], true);
    }
    if let Some(i) = host.rfind(':')
        && !valid_port(&host[i..])
    {
        return false;
    }
    unescape_ok(host, true)
}

fn valid_port(p: &str) -> bool {
    p.strip_prefix(':')
        .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

/// `url.unescape` succeeds: `%` escapes are well-formed and, in hosts, no byte needs escaping.
fn unescape_ok(s: &str, host: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return false;
                }
                i += 3;
                continue;
            }
            c if host && c < 0x80 => {
                let ok = c.is_ascii_alphanumeric() || b"-_.~!$&'()*+,;=:[]<>\"".contains(&c);
                if !ok {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}
