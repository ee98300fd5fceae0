//! The Kubernetes list library: mirrors apiserver `pkg/cel/library/lists.go` (`isSorted`,
//! `sum`, `min`, `max`, `indexOf`, `lastIndexOf`, and `includes` from version 1, Kubernetes
//! 1.37), with the traversal costs of `library/cost.go`.
//!
//! `sum()` starts from the zero of the checked overload's element type (`duration('0')` for
//! `list_duration_sum_duration`, [`sum_overload`]); a parsed-only program, or a call the checker
//! left to dynamic dispatch, starts from the zero of the first element's type (an empty list
//! sums to `0`), as cel-go's dispatch picks the first overload that accepts the list.

use super::{Env, FnDef, TRAVERSAL};
use crate::value::Value;
use crate::value::{EvalError, EvalResult, equal, list};

/// apiserver `traversalCost`: string and bytes length·0.1 (truncated), lists and maps summed
/// over their elements (and keys), anything else 1.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
pub(crate) fn traversal_cost(v: &Value<'_>) -> u64 {
    match v {
        Value::String(s) => (s.len() as f64 * TRAVERSAL) as u64,
        Value::Bytes(b) => (b.len() as f64 * TRAVERSAL) as u64,
        Value::List(l) => list::iter(l)
            .map(|x| x.map_or(1, |x| traversal_cost(&x)))
            .fold(0u64, u64::saturating_add),
        Value::Map(m) => crate::value::map::entries(m)
            .into_iter()
            .map(|(k, x)| traversal_cost(&k) + x.map_or(1, |x| traversal_cost(&x)))
            .fold(0u64, u64::saturating_add),
        _ => 1,
    }
}

fn cost_traversal<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    a.first().map_or(0, traversal_cost)
}

fn items<'a>(v: &Value<'a>) -> Result<Vec<Value<'a>>, EvalError> {
    match v {
        Value::List(l) => list::iter(l).collect(),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn comparable(v: &Value<'_>) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    )
}

fn is_sorted<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    for x in &xs {
        if !comparable(x) {
            return Err(EvalError::no_such_overload());
        }
    }
    for w in xs.windows(2) {
        if matches!(
            equal::compare(&w[0], &w[1]),
            Ok(std::cmp::Ordering::Greater)
        ) {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn sum<'a>(e: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    let zero = match xs.first() {
        Some(Value::Uint(_)) => Value::Uint(0),
        Some(Value::Double(_)) => Value::Double(0.0),
        Some(Value::Duration(_)) => Value::Duration(crate::value::time::Duration(0)),
        _ => Value::Int(0),
    };
    sum_from(e, xs, zero)
}

fn sum_int<'a>(e: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    sum_from(e, items(&a[0])?, Value::Int(0))
}

fn sum_uint<'a>(e: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    sum_from(e, items(&a[0])?, Value::Uint(0))
}

fn sum_double<'a>(e: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    sum_from(e, items(&a[0])?, Value::Double(0.0))
}

fn sum_duration<'a>(e: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let zero = Value::Duration(crate::value::time::Duration(0));
    sum_from(e, items(&a[0])?, zero)
}

/// The implementation of a `sum` overload (lists.go `zeroValuesOfSummableTypes`).
pub(crate) fn sum_overload(id: &str) -> Option<super::Impl> {
    Some(match id {
        "list_int_sum_int" => sum_int,
        "list_uint_sum_uint" => sum_uint,
        "list_double_sum_double" => sum_double,
        "list_duration_sum_duration" => sum_duration,
        _ => return None,
    })
}

fn sum_from<'a>(e: &Env, xs: Vec<Value<'a>>, zero: Value<'a>) -> EvalResult<'a> {
    let mut acc = zero;
    for x in xs {
        if !matches!(
            x,
            Value::Int(_) | Value::Uint(_) | Value::Double(_) | Value::Duration(_)
        ) {
            return Err(EvalError::no_such_overload());
        }
        acc = super::ops::add(e, &[acc, x])?;
    }
    Ok(acc)
}

fn pick<'a>(a: &[Value<'a>], name: &str, prefer: std::cmp::Ordering) -> EvalResult<'a> {
    let mut best: Option<Value<'a>> = None;
    for x in items(&a[0])? {
        if !comparable(&x) {
            return Err(EvalError::no_such_overload());
        }
        best = match best {
            None => Some(x),
            Some(b) => {
                if equal::compare(&b, &x).ok() == Some(prefer) {
                    Some(x)
                } else {
                    Some(b)
                }
            }
        };
    }
    best.ok_or_else(|| EvalError::other(format!("{name} called on empty list")))
}

fn min<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    pick(a, "min", std::cmp::Ordering::Greater)
}

fn max<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    pick(a, "max", std::cmp::Ordering::Less)
}

/// `<list>.indexOf(x)` (the string form is in `strings.rs` and dispatches here for lists).
pub(crate) fn index_of<'a>(a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    Ok(Value::Int(
        xs.iter()
            .position(|x| equal::equals(x, &a[1]).unwrap_or(false))
            .map_or(-1, |i| i as i64),
    ))
}

/// `<list>.lastIndexOf(x)`.
pub(crate) fn last_index_of<'a>(a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    Ok(Value::Int(
        xs.iter()
            .rposition(|x| equal::equals(x, &a[1]).unwrap_or(false))
            .map_or(-1, |i| i as i64),
    ))
}

fn includes<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::List(l) => {
            for x in list::iter(l) {
                if equal::equals(&x?, &a[1]).unwrap_or(false) {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        other => Ok(Value::Bool(equal::equals(other, &a[1]).unwrap_or(false))),
    }
}

/// The Kubernetes list library.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("isSorted", true, 1, is_sorted).cost(cost_traversal),
    FnDef::new("sum", true, 1, sum).cost(cost_traversal),
    FnDef::new("min", true, 1, min).cost(cost_traversal),
    FnDef::new("max", true, 1, max).cost(cost_traversal),
    FnDef::new("includes", true, 2, includes)
        .since(1, 37)
        .cost(cost_traversal),
];
