//! String extension functions, version 2 (Kubernetes 1.29; `reverse` is version 3 and absent):
//! mirrors cel-go `ext/strings.go` (code-point indexes, Go `strings` semantics for `replace`,
//! `split` and `trim`) with the costs of apiserver `library/cost.go`.

use std::sync::Arc;

use super::{Env, FnDef, TRAVERSAL, actual_size, ceil_factor, cost_traverse0};
use crate::value::{EvalError, EvalResult};
use crate::value::{List, ListKind, Value};

fn range_err(i: i64) -> EvalError {
    EvalError::other(format!("index out of range: {i}"))
}

fn s<'v>(a: &'v [Value<'_>], i: usize) -> Result<&'v str, EvalError> {
    a.get(i)
        .and_then(Value::as_str)
        .ok_or_else(EvalError::no_such_overload)
}

fn int(a: &[Value<'_>], i: usize) -> Result<i64, EvalError> {
    match a.get(i) {
        Some(Value::Int(n)) => Ok(*n),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn char_at<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (st, i) = (s(a, 0)?, int(a, 1)?);
    let runes: Vec<char> = st.chars().collect();
    if i < 0 || i as u64 > runes.len() as u64 {
        return Err(range_err(i));
    }
    Ok(Value::string(
        runes
            .get(i as usize)
            .map(char::to_string)
            .unwrap_or_default(),
    ))
}

fn find_runes(hay: &[char], needle: &[char], from: usize) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    (from..=hay.len() - needle.len()).find(|&i| hay[i..i + needle.len()] == *needle)
}

fn index_of<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    if let (Value::List(_), 2) = (&a[0], a.len()) {
        return super::k8s_lists::index_of(a);
    }
    let (st, sub) = (s(a, 0)?, s(a, 1)?);
    let off = if a.len() == 3 { int(a, 2)? } else { 0 };
    if off < 0 {
        return Err(range_err(off));
    }
    let runes: Vec<char> = st.chars().collect();
    let n = runes.len() as i64;
    if sub.is_empty() {
        return Ok(Value::Int(off.min(n)));
    }
    if off >= n {
        return Ok(Value::Int(-1));
    }
    let subr: Vec<char> = sub.chars().collect();
    Ok(Value::Int(
        find_runes(&runes, &subr, off as usize).map_or(-1, |i| i as i64),
    ))
}

fn last_index_of<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    if let (Value::List(_), 2) = (&a[0], a.len()) {
        return super::k8s_lists::last_index_of(a);
    }
    let (st, sub) = (s(a, 0)?, s(a, 1)?);
    let runes: Vec<char> = st.chars().collect();
    let n = runes.len() as i64;
    let off = if a.len() == 3 {
        int(a, 2)?
    } else {
        if sub.is_empty() {
            return Ok(Value::Int(n));
        }
        if st.len() < sub.len() {
            return Ok(Value::Int(-1));
        }
        n - 1
    };
    if off < 0 {
        return Err(range_err(off));
    }
    if sub.is_empty() {
        return Ok(Value::Int(off.min(n)));
    }
    if off >= n {
        return Ok(Value::Int(-1));
    }
    let subr: Vec<char> = sub.chars().collect();
    let m = subr.len() as i64;
    let mut i = off.min(n - m);
    while i >= 0 {
        let u = i as usize;
        if runes[u..u + subr.len()] == *subr {
            return Ok(Value::Int(i));
        }
        i -= 1;
    }
    Ok(Value::Int(-1))
}

fn lower_ascii<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::string(s(a, 0)?.to_ascii_lowercase()))
}

fn upper_ascii<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::string(s(a, 0)?.to_ascii_uppercase()))
}

/// Results larger than this are refused (a hostile `s.replace('', big)` would otherwise
/// allocate len(s)·len(big) bytes).
const MAX_RESULT: usize = 64 << 20;

fn replace<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (st, old, new) = (s(a, 0)?, s(a, 1)?, s(a, 2)?);
    let n = if a.len() == 4 { int(a, 3)? } else { -1 };
    if new.len() > old.len() {
        let count = if old.is_empty() {
            st.chars().count() + 1
        } else {
            st.matches(old).count()
        };
        let count = if n >= 0 { count.min(n as usize) } else { count };
        if count
            .saturating_mul(new.len() - old.len())
            .saturating_add(st.len())
            > MAX_RESULT
        {
            return Err(EvalError::other("string replacement result too large"));
        }
    }
    Ok(Value::string(if n < 0 {
        st.replace(old, new)
    } else {
        st.replacen(old, new, usize::try_from(n).unwrap_or(usize::MAX))
    }))
}

/// Go's `strings.SplitN` (n < 0: all; n == 0: none; "" separates code points).
pub(crate) fn go_split(st: &str, sep: &str, n: i64) -> Vec<String> {
    if n == 0 {
        return Vec::new();
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    if sep.is_empty() {
        let chars: Vec<char> = st.chars().collect();
        let mut out = Vec::new();
        for (i, c) in chars.iter().enumerate() {
            if out.len() + 1 == limit {
                out.push(chars[i..].iter().collect());
                return out;
            }
            out.push(c.to_string());
        }
        return out;
    }
    st.splitn(limit, sep).map(str::to_string).collect()
}

fn split<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (st, sep) = (s(a, 0)?, s(a, 1)?);
    let n = if a.len() == 3 { int(a, 2)? } else { -1 };
    let out = go_split(st, sep, n)
        .into_iter()
        .map(Value::string)
        .collect();
    Ok(Value::List(List::Owned(Arc::new(out), ListKind::Plain)))
}

fn substring<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let st = s(a, 0)?;
    let runes: Vec<char> = st.chars().collect();
    let l = runes.len() as i64;
    let start = int(a, 1)?;
    let end = if a.len() == 3 { int(a, 2)? } else { l };
    if a.len() == 3 && start > end {
        return Err(EvalError::other(format!(
            "invalid substring range. start: {start}, end: {end}"
        )));
    }
    if start < 0 || start > l {
        return Err(range_err(start));
    }
    if end < 0 || end > l {
        return Err(range_err(end));
    }
    Ok(Value::string(
        runes[start as usize..end as usize]
            .iter()
            .collect::<String>(),
    ))
}

fn trim<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::string(s(a, 0)?.trim()))
}

fn join<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let Value::List(l) = &a[0] else {
        return Err(EvalError::no_such_overload());
    };
    let sep = if a.len() == 2 { s(a, 1)? } else { "" };
    let mut out = String::new();
    for (i, x) in crate::value::list::iter(l).enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match x? {
            Value::String(x) => out.push_str(&x),
            other => return Err(EvalError::other(format!("join: invalid input: {other}"))),
        }
    }
    Ok(Value::string(out))
}

fn quote<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let st = s(a, 0)?;
    let mut out = String::with_capacity(st.len() + 2);
    out.push('"');
    for c in st.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(Value::string(out))
}

/// apiserver `traversalCost` for `indexOf`/`lastIndexOf` on strings (bytes, truncated).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn cost_index<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    super::k8s_lists::traversal_cost(&a[0])
}

fn cost_replace<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    ceil_factor(actual_size(&a[0]), 2.0 * TRAVERSAL)
}

fn cost_join<'a>(_: &[Value<'a>], r: &Value<'a>) -> u64 {
    ceil_factor(actual_size(r), 2.0 * TRAVERSAL)
}

/// The strings extension, version 2.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("charAt", true, 2, char_at),
    FnDef::new("indexOf", true, 2, index_of)
        .arity(2, 3)
        .cost(cost_index),
    FnDef::new("lastIndexOf", true, 2, last_index_of)
        .arity(2, 3)
        .cost(cost_index),
    FnDef::new("lowerAscii", true, 1, lower_ascii).cost(cost_traverse0),
    FnDef::new("upperAscii", true, 1, upper_ascii).cost(cost_traverse0),
    FnDef::new("replace", true, 3, replace)
        .arity(3, 4)
        .cost(cost_replace),
    FnDef::new("split", true, 2, split)
        .arity(2, 3)
        .cost(cost_replace),
    FnDef::new("substring", true, 2, substring)
        .arity(2, 3)
        .cost(cost_traverse0),
    FnDef::new("trim", true, 1, trim).cost(cost_traverse0),
    FnDef::new("join", true, 1, join)
        .arity(1, 2)
        .cost(cost_join),
    FnDef::new("strings.quote", false, 1, quote)
        .since(1, 29)
        .cost(cost_traverse0),
];
