//! Quantity functions (Kubernetes 1.28): mirrors apiserver `pkg/cel/library/quantity.go`.
//! Parsing, comparison and addition are apimachinery's `resource.Quantity`
//! (`crdkit_apimachinery::quantity`, the one home of `ParseQuantity`).

use std::cmp::Ordering;
use std::sync::Arc;

use crdkit_apimachinery::quantity::Quantity;

use super::{Env, FnDef, cost_traverse0};
use crate::value::ext::ExtValue;
use crate::value::{EvalError, EvalResult, Value};

/// apimachinery `ParseQuantity`.
pub(crate) fn parse(s: &str) -> Result<Quantity, &'static str> {
    Quantity::parse(s)
}

fn overflow() -> EvalError {
    EvalError::other("quantity overflow")
}

fn q_arg(v: &Value<'_>) -> Result<Quantity, EvalError> {
    match v {
        Value::Ext(e) => match &**e {
            ExtValue::Quantity(q) => Ok(q.clone()),
            _ => Err(EvalError::no_such_overload()),
        },
        _ => Err(EvalError::no_such_overload()),
    }
}

fn ext<'a>(q: Quantity) -> Value<'a> {
    Value::Ext(Arc::new(ExtValue::Quantity(q)))
}

fn quantity<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::String(s) => parse(s).map(ext).map_err(EvalError::other),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn is_quantity<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::String(s) => Ok(Value::Bool(parse(s).is_ok())),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn is_integer<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Bool(q_arg(&a[0])?.as_i64().is_some()))
}

fn as_integer<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    q_arg(&a[0])?
        .as_i64()
        .map(Value::Int)
        .ok_or_else(|| EvalError::other("cannot convert value to integer"))
}

fn as_approximate_float<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Double(q_arg(&a[0])?.approx()))
}

fn sign<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Int(i64::from(q_arg(&a[0])?.sign())))
}

fn other_q(v: &Value<'_>) -> Result<Quantity, EvalError> {
    match v {
        Value::Int(i) => Ok(Quantity::int(i128::from(*i))),
        other => q_arg(other),
    }
}

fn add<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    q_arg(&a[0])?
        .checked_add(&other_q(&a[1])?)
        .map(ext)
        .ok_or_else(overflow)
}

fn sub<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let mut o = other_q(&a[1])?;
    o.coef = -o.coef;
    q_arg(&a[0])?.checked_add(&o).map(ext).ok_or_else(overflow)
}

/// `compareTo` and friends also serve semver values (shared function names).
fn compare(a: &[Value<'_>]) -> Result<Ordering, EvalError> {
    if let (Value::Ext(x), Value::Ext(y)) = (&a[0], &a[1])
        && let (ExtValue::Semver(x), ExtValue::Semver(y)) = (&**x, &**y)
    {
        return Ok(x.cmp_precedence(y));
    }
    Ok(q_arg(&a[0])?.cmp(&q_arg(&a[1])?))
}

fn is_greater_than<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Bool(compare(a)? == Ordering::Greater))
}

fn is_less_than<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Bool(compare(a)? == Ordering::Less))
}

fn compare_to<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Int(compare(a)? as i64))
}

/// The quantity library (`isGreaterThan`, `isLessThan`, `compareTo` shared with semver).
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("quantity", false, 1, quantity)
        .since(1, 28)
        .cost(cost_traverse0),
    FnDef::new("isQuantity", false, 1, is_quantity)
        .since(1, 28)
        .cost(cost_traverse0),
    FnDef::new("isInteger", true, 1, is_integer).since(1, 28),
    FnDef::new("asInteger", true, 1, as_integer).since(1, 28),
    FnDef::new("asApproximateFloat", true, 1, as_approximate_float).since(1, 28),
    FnDef::new("sign", true, 1, sign).since(1, 28),
    FnDef::new("add", true, 2, add).since(1, 28),
    FnDef::new("sub", true, 2, sub).since(1, 28),
    FnDef::new("isGreaterThan", true, 2, is_greater_than).since(1, 28),
    FnDef::new("isLessThan", true, 2, is_less_than).since(1, 28),
    FnDef::new("compareTo", true, 2, compare_to).since(1, 28),
];
