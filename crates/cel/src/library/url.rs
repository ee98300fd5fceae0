//! URL functions: mirrors apiserver `pkg/cel/library/urls.go` (`url`, `isURL` and the
//! accessors) with the parts of Go's `net/url` they rely on (`ParseRequestURI` to validate,
//! `Parse` for the value, `Hostname`, `Port`, `EscapedPath`, `Query`).

use std::sync::Arc;

use super::ext::ExtValue;
use super::{Env, FnDef, cost_traverse0};
use crate::eval::{EvalError, EvalResult};
use crate::value::{List, ListKind, Map, Value};

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

fn unescape(s: &str) -> Option<String> {
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
    fn hostname(&self) -> &str {
        let h = &self.host;
        if let Some(r) = h.strip_prefix('[') {
            return r.find(']').map_or(r, |i| &r[..i]);
        }
        h.rsplit_once(':').map_or(h, |(a, _)| a)
    }

    fn port(&self) -> &str {
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

    fn escaped_path(&self) -> String {
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

fn arg_url(v: &Value<'_>) -> Result<Url, EvalError> {
    match v {
        Value::Ext(e) => match &**e {
            ExtValue::Url(u) => Ok(u.clone()),
            _ => Err(EvalError::no_such_overload()),
        },
        _ => Err(EvalError::no_such_overload()),
    }
}

fn url<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let Value::String(s) = &a[0] else {
        return Err(EvalError::no_such_overload());
    };
    let err = |e: String| {
        EvalError::other(format!(
            "URL parse error during conversion from string: {e}"
        ))
    };
    parse(s, true).map_err(err)?;
    let u = parse(s, false).map_err(err)?;
    Ok(Value::Ext(Arc::new(ExtValue::Url(u))))
}

fn is_url<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::String(s) => Ok(Value::Bool(parse(s, true).is_ok())),
        _ => Err(EvalError::no_such_overload()),
    }
}

macro_rules! accessor {
    ($name:ident, $f:expr) => {
        fn $name<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
            let u = arg_url(&a[0])?;
            let f: fn(&Url) -> String = $f;
            Ok(Value::string(f(&u)))
        }
    };
}

accessor!(get_scheme, |u| u.scheme.clone());
accessor!(get_host, |u| u.host.clone());
accessor!(get_hostname, |u| u.hostname().to_string());
accessor!(get_port, |u| u.port().to_string());
accessor!(get_escaped_path, Url::escaped_path);

fn get_query<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let u = arg_url(&a[0])?;
    let mut keys: Vec<String> = Vec::new();
    let mut vals: Vec<Vec<Value<'a>>> = Vec::new();
    for part in u.raw_query.split('&') {
        if part.is_empty() || part.contains(';') {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let (Some(k), Some(v)) = (
            unescape(&k.replace('+', " ")),
            unescape(&v.replace('+', " ")),
        ) else {
            continue;
        };
        match keys.iter().position(|x| *x == k) {
            Some(i) => vals[i].push(Value::string(v)),
            None => {
                keys.push(k);
                vals.push(vec![Value::string(v)]);
            }
        }
    }
    let mut m = crate::eval::map::OwnedMap::new();
    for (k, v) in keys.into_iter().zip(vals) {
        m.insert(
            Value::string(k),
            Value::List(List::Owned(Arc::new(v), ListKind::Plain)),
        )?;
    }
    Ok(Value::Map(Map::Owned(Arc::new(m))))
}

/// The URL library.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("url", false, 1, url).cost(cost_traverse0),
    FnDef::new("isURL", false, 1, is_url),
    FnDef::new("getScheme", true, 1, get_scheme),
    FnDef::new("getHost", true, 1, get_host),
    FnDef::new("getHostname", true, 1, get_hostname),
    FnDef::new("getPort", true, 1, get_port),
    FnDef::new("getEscapedPath", true, 1, get_escaped_path),
    FnDef::new("getQuery", true, 1, get_query),
];
