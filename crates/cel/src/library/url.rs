//! URL functions: mirrors apiserver `pkg/cel/library/urls.go` (`url`, `isURL` and the
//! accessors); the type is [`crate::value::ext::url`].

use std::sync::Arc;

use super::{Env, FnDef, cost_traverse0};
use crate::value::ext::ExtValue;
use crate::value::ext::url::{Url, parse, unescape};
use crate::value::{EvalError, EvalResult, List, ListKind, Map, Value};

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
    let mut m = crate::value::map::OwnedMap::new();
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
