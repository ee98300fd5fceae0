//! The lists extension, version 3 (Kubernetes 1.34): mirrors cel-go `ext/lists.go` (`slice`,
//! `flatten`, `distinct`, `lists.range`, `reverse`, `sort`, and `@sortByAssociatedKeys` behind
//! the `sortBy` macro) with its cost trackers (`trackAllocatingListCall`,
//! `trackListSelfCompare`).

use std::sync::Arc;

use super::{Env, FnDef, TRAVERSAL, actual_size};
use crate::value::{EvalError, EvalResult, equal, list};
use crate::value::{List, ListKind, Value};

fn items<'a>(v: &Value<'a>) -> Result<Vec<Value<'a>>, EvalError> {
    match v {
        Value::List(l) => list::iter(l).collect(),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn out<'a>(v: Vec<Value<'a>>) -> Value<'a> {
    Value::List(List::Owned(Arc::new(v), ListKind::Plain))
}

fn int(a: &[Value<'_>], i: usize) -> Result<i64, EvalError> {
    match a.get(i) {
        Some(Value::Int(n)) => Ok(*n),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn slice<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    let (s, e) = (int(a, 1)?, int(a, 2)?);
    if s < 0 || e < 0 {
        return Err(EvalError::other(format!(
            "cannot slice({s}, {e}), negative indexes not supported"
        )));
    }
    if s > e {
        return Err(EvalError::other(format!(
            "cannot slice({s}, {e}), start index must be less than or equal to end index"
        )));
    }
    if (xs.len() as i64) < e {
        return Err(EvalError::other(format!(
            "cannot slice({s}, {e}), list is length {}",
            xs.len()
        )));
    }
    Ok(out(xs[s as usize..e as usize].to_vec()))
}

fn flatten_into<'a>(
    xs: Vec<Value<'a>>,
    depth: i64,
    acc: &mut Vec<Value<'a>>,
) -> Result<(), EvalError> {
    for x in xs {
        match x {
            Value::List(l) if depth > 0 => {
                flatten_into(list::iter(&l).collect::<Result<_, _>>()?, depth - 1, acc)?;
            }
            other => acc.push(other),
        }
    }
    Ok(())
}

fn flatten<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    let depth = if a.len() == 2 { int(a, 1)? } else { 1 };
    if depth < 0 {
        return Err(EvalError::other("level must be non-negative"));
    }
    let mut acc = Vec::new();
    flatten_into(xs, depth.min(1 << 20), &mut acc)?;
    Ok(out(acc))
}

fn distinct<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    let mut uniq: Vec<Value<'a>> = Vec::with_capacity(xs.len());
    let mut seen = std::collections::HashSet::new();
    for x in xs {
        if let Some(k) = list::hash_key(&x)
            && !matches!(x, Value::Double(_) | Value::Uint(_))
        {
            if seen.insert(k) {
                uniq.push(x);
            }
            continue;
        }
        if !uniq.iter().any(|u| equal::equals(&x, u).unwrap_or(false)) {
            uniq.push(x);
        }
    }
    Ok(out(uniq))
}

/// The largest list `lists.range` builds (the cost limit stops far smaller ones).
const MAX_RANGE: i64 = 1 << 22;

fn range<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let n = int(a, 0)?;
    if n > MAX_RANGE {
        return Err(EvalError::other(format!("lists.range({n}) is too large")));
    }
    Ok(out((0..n.max(0)).map(Value::Int).collect()))
}

fn reverse<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let mut xs = items(&a[0])?;
    xs.reverse();
    Ok(out(xs))
}

fn sort_by_keys<'a>(xs: Vec<Value<'a>>, keys: &[Value<'a>]) -> EvalResult<'a> {
    if xs.len() != keys.len() {
        return Err(EvalError::other(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            xs.len(),
            keys.len()
        )));
    }
    let Some(first) = keys.first() else {
        return Ok(out(xs));
    };
    if !matches!(
        first,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    ) {
        return Err(EvalError::other("list elements must be comparable"));
    }
    let ty = first.type_of();
    if keys.iter().any(|k| k.type_of() != ty) {
        return Err(EvalError::other("list elements must have the same type"));
    }
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&i, &j| equal::compare(&keys[i], &keys[j]).unwrap_or(std::cmp::Ordering::Equal));
    Ok(out(idx.into_iter().map(|i| xs[i].clone()).collect()))
}

fn sort<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    let keys = xs.clone();
    sort_by_keys(xs, &keys)
}

fn sort_by_associated_keys<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let xs = items(&a[0])?;
    let keys = items(&a[1])?;
    sort_by_keys(xs, &keys)
}

/// `trackAllocatingListCall`: size·factor (truncated) + 1 + `ListCreateBaseCost`.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn allocating(factor: f64, size: u64) -> u64 {
    ((size as f64 * factor) as u64).saturating_add(1 + crate::cost::LIST_CREATE_BASE_COST)
}

fn cost_output<'a>(_: &[Value<'a>], r: &Value<'a>) -> u64 {
    allocating(1.0, actual_size(r))
}

#[allow(clippy::cast_precision_loss)]
fn cost_flatten<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    let depth = match a.get(1) {
        Some(Value::Int(d)) => *d as f64,
        _ => 1.0,
    };
    allocating(depth, actual_size(&a[0]))
}

fn self_compare(l: &Value<'_>) -> u64 {
    let sz = actual_size(l);
    let mut factor = 2.0;
    if let Value::List(l) = l
        && sz > 0
        && let Ok(Value::String(_) | Value::Bytes(_)) = list::at(l, 0)
    {
        factor += TRAVERSAL;
    }
    allocating(factor, sz.saturating_mul(sz))
}

fn cost_self_compare<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    self_compare(&a[0])
}

fn cost_sort_by<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    self_compare(&a[1])
}

/// The lists extension, version 3.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("slice", true, 3, slice)
        .since(1, 34)
        .cost(cost_output),
    FnDef::new("flatten", true, 1, flatten)
        .arity(1, 2)
        .since(1, 34)
        .cost(cost_flatten),
    FnDef::new("distinct", true, 1, distinct)
        .since(1, 34)
        .cost(cost_self_compare),
    FnDef::new("lists.range", false, 1, range)
        .since(1, 34)
        .cost(cost_output),
    FnDef::new("reverse", true, 1, reverse)
        .since(1, 34)
        .cost(cost_output),
    FnDef::new("sort", true, 1, sort)
        .since(1, 34)
        .cost(cost_self_compare),
    FnDef::new("@sortByAssociatedKeys", true, 2, sort_by_associated_keys)
        .since(1, 34)
        .cost(cost_sort_by),
];
