//! `kubernetes.URL`: mirrors apiserver `pkg/cel/url.go` with the parts of Go's `net/url` the URL
//! library relies on (`ParseRequestURI` to validate, `Parse` for the value, `Hostname`, `Port`,
//! `EscapedPath`, `Query`).

/// A parsed URL (Go's `url.URL`, the parts the library exposes).
#[derive(Clone, Debug, PartialEq)]
pub struct Url {
    pub raw: String,
    pub scheme: String,
    pub host: String,
    pub path: String,
    pub raw_query: String,
}

fn valid_scheme(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic())
        && c.all(|x| x.is_ascii_alphanumeric() || matches!(x, '+' | '-' | '.'))
}

pub(crate) fn unescape(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let h = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(h, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Go's `url.parse(raw, viaRequest)` for the cases the library meets.
pub(crate) fn parse(raw: &str, via_request: bool) -> Result<Url, String> {
    let fail = |m: &str| format!("parse {raw:?}: {m}");
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err(fail("net/url: invalid control character in URL"));
    }
    if raw.is_empty() && via_request {
        return Err(fail("empty url"));
    }
    let mut rest = raw;
    if !via_request && let Some((r, _frag)) = rest.split_once('#') {
        rest = r;
    }
    let mut scheme = String::new();
    if let Some(i) = rest.find(':') {
        let cand = &rest[..i];
        if i == 0 {
            return Err(fail("missing protocol scheme"));
        }
        if valid_scheme(cand) {
            scheme = cand.to_ascii_lowercase();
            rest = &rest[i + 1..];
        } else if cand
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        {
            return Err(fail("first path segment in URL cannot contain colon"));
        }
    }
    let mut raw_query = String::new();
    if let Some((r, q)) = rest.split_once('?') {
        raw_query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !scheme.is_empty() {
            return Ok(Url {
                raw: raw.to_string(),
                scheme,
                host: String::new(),
                path: String::new(),
                raw_query,
            });
        }
        if via_request {
            return Err(fail("invalid URI for request"));
        }
    }
    let mut host = String::new();
    if (!scheme.is_empty() || !via_request) && rest.starts_with("//") && !rest.starts_with("///") {
        let auth_end = rest[2..].find('/').map_or(rest.len(), |i| i + 2);
        let authority = &rest[2..auth_end];
        rest = &rest[auth_end..];
        let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if let Some(h) = hostport.strip_prefix('[') {
            let Some(end) = h.find(']') else {
                return Err(fail("missing ']' in host"));
            };
            let after = &h[end + 1..];
            if !after.is_empty() && !after.starts_with(':') {
                return Err(fail(&format!("invalid port {after:?} after host")));
            }
        } else if let Some((_, port)) = hostport.rsplit_once(':')
            && !port.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(fail(&format!("invalid port \":{port}\" after host")));
        }
        host = unescape(hostport).ok_or_else(|| fail("invalid URL escape"))?;
    }
    let path = unescape(rest).ok_or_else(|| fail("invalid URL escape"))?;
    Ok(Url {
        raw: raw.to_string(),
        scheme,
        host,
        path,
        raw_query,
    })
}

impl Url {
    pub(crate) fn hostname(&self) -> &str {
        let h = &self.host;
        if let Some(r) = h.strip_prefix('[') {
            return r.find(']').map_or(r, |i| &r[..i]);
        }
        h.rsplit_once(':').map_or(h, |(a, _)| a)
    }

    pub(crate) fn port(&self) -> &str {
        let h = &self.host;
        let tail = match h.find(']') {
            Some(i) => &h[i + 1..],
            None => h,
        };
        match tail.rsplit_once(':') {
            Some((_, p)) if p.bytes().all(|b| b.is_ascii_digit()) => p,
            _ => "",
        }
    }

    pub(crate) fn escaped_path(&self) -> String {
        let mut out = String::new();
        for b in self.path.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.~/!$&'()*+,;=:@".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }
}
