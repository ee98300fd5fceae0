//! The sets extension (Kubernetes 1.29): mirrors cel-go `ext/sets.go` (`sets.contains`,
//! `sets.equivalent`, `sets.intersects` with CEL equality) and its cost trackers
//! (1 + |a|·|b|, doubled for `equivalent`).

use super::{Env, FnDef, actual_size};
use crate::value::{EvalError, EvalResult, equal, list};
use crate::value::{List, Value};

fn lists<'v, 'a>(a: &'v [Value<'a>]) -> Result<(&'v List<'a>, &'v List<'a>), EvalError> {
    match (&a[0], &a[1]) {
        (Value::List(x), Value::List(y)) => Ok((x, y)),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn contains_all(l: &List<'_>, sub: &List<'_>) -> Result<bool, EvalError> {
    for x in list::iter(sub) {
        if !equal::contains(l, &x?)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn contains<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (l, sub) = lists(a)?;
    contains_all(l, sub).map(Value::Bool)
}

fn equivalent<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (x, y) = lists(a)?;
    Ok(Value::Bool(contains_all(x, y)? && contains_all(y, x)?))
}

fn intersects<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (x, y) = lists(a)?;
    for v in list::iter(x) {
        if equal::contains(y, &v?)? {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

fn cost1<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    1u64.saturating_add(actual_size(&a[0]).saturating_mul(actual_size(&a[1])))
}

fn cost2<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    1u64.saturating_add(
        actual_size(&a[0])
            .saturating_mul(actual_size(&a[1]))
            .saturating_mul(2),
    )
}

/// The sets extension.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("sets.contains", false, 2, contains)
        .since(1, 29)
        .cost(cost1),
    FnDef::new("sets.equivalent", false, 2, equivalent)
        .since(1, 29)
        .cost(cost2),
    FnDef::new("sets.intersects", false, 2, intersects)
        .since(1, 29)
        .cost(cost1),
];
