//! Optional values (Kubernetes 1.28, `cel.OptionalTypes()`): mirrors cel-go `cel/library.go`
//! (`optional.of`, `optional.ofNonZeroValue`, `optional.none`, `hasValue`, `value`, `first`,
//! `last`, `optional.unwrap`/`unwrapOpt`). `or` and `orValue` short-circuit and are planned as
//! nodes of their own, as cel-go's `decorateOptionalOr` does.

use std::sync::Arc;

use super::{Env, FnDef};
use crate::value::{EvalError, EvalResult};
use crate::value::{List, ListKind, Value, list, map};

fn of<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::optional_of(a[0].clone()))
}

/// cel-go `IsZeroValue` of each type.
pub(crate) fn is_zero(v: &Value<'_>) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::Duration(d) => d.0 == 0,
        // Go's zero time.Time: 0001-01-01T00:00:00Z.
        Value::Timestamp(t) => t.secs == crate::value::time::MIN_UNIX && t.nanos == 0,
        Value::List(l) => list::len(l) == 0,
        Value::Map(m) => map::len(m) == 0,
        Value::Optional(o) => o.is_none(),
        _ => false,
    }
}

fn of_non_zero<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(if is_zero(&a[0]) {
        Value::Optional(None)
    } else {
        Value::optional_of(a[0].clone())
    })
}

fn none<'a>(_: &Env, _: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Optional(None))
}

fn has_value<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::Optional(o) => Ok(Value::Bool(o.is_some())),
        _ => super::no_overload("hasValue", a),
    }
}

fn value<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::Optional(Some(v)) => Ok((**v).clone()),
        Value::Optional(None) => Err(EvalError::other("optional.none() dereference")),
        _ => super::no_overload("value", a),
    }
}

fn first<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::List(l) => {
            let n = crate::value::list::len(l);
            if n == 0 {
                Ok(Value::Optional(None))
            } else {
                crate::value::list::at(l, 0).map(Value::optional_of)
            }
        }
        _ => super::no_overload("first", a),
    }
}

fn last<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::List(l) => {
            let n = crate::value::list::len(l);
            if n == 0 {
                Ok(Value::Optional(None))
            } else {
                crate::value::list::at(l, n - 1).map(Value::optional_of)
            }
        }
        _ => super::no_overload("last", a),
    }
}

fn unwrap<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let Value::List(l) = &a[0] else {
        return super::no_overload("optional.unwrap", a);
    };
    let mut out = Vec::new();
    for x in crate::value::list::iter(l) {
        match x? {
            Value::Optional(Some(v)) => out.push((*v).clone()),
            Value::Optional(None) => {}
            other => {
                return Err(EvalError::other(format!("value {other} is not optional")));
            }
        }
    }
    Ok(Value::List(List::Owned(Arc::new(out), ListKind::Plain)))
}

/// The optional library (all versions, as Kubernetes enables `OptionalTypes()` unversioned).
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("optional.of", false, 1, of).since(1, 28),
    FnDef::new("optional.ofNonZeroValue", false, 1, of_non_zero).since(1, 28),
    FnDef::new("optional.none", false, 0, none).since(1, 28),
    FnDef::new("hasValue", true, 1, has_value).since(1, 28),
    FnDef::new("value", true, 1, value).since(1, 28),
    FnDef::new("first", true, 1, first).since(1, 28),
    FnDef::new("last", true, 1, last).since(1, 28),
    FnDef::new("optional.unwrap", false, 1, unwrap).since(1, 28),
    FnDef::new("unwrapOpt", true, 1, unwrap).since(1, 28),
    // Declared so that lookups succeed; planned as `Node::OptOr`.
    FnDef::new("or", true, 2, value).since(1, 28),
    FnDef::new("orValue", true, 2, value).since(1, 28),
];
