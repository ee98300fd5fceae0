//! Arithmetic and relational operators: mirrors cel-go `common/types` (`Add`, `Subtract`,
//! `Multiply`, `Divide`, `Modulo`, `Negate`, `Compare` on each type), the checked integer
//! arithmetic of `overflow.go`, and the operator bindings of `common/stdlib/standard.go`
//! (whose error wording depends on whether the left operand has the operator's trait).

use std::cmp::Ordering;
use std::sync::Arc;

use super::Env;
use crate::value::time;
use crate::value::{Bytes, Value};
use crate::value::{EvalError, EvalErrorKind, EvalResult};

fn overload_or<'a>(has_trait: bool, op: &str) -> EvalResult<'a> {
    Err(if has_trait {
        EvalError::no_such_overload()
    } else {
        EvalError::no_such_overload_fn(op)
    })
}

fn div_zero() -> EvalError {
    EvalError::new(EvalErrorKind::DivisionByZero, "division by zero")
}

fn mod_zero() -> EvalError {
    EvalError::new(EvalErrorKind::DivisionByZero, "modulus by zero")
}

/// `_+_`
pub(crate) fn add<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(match (&a[0], &a[1]) {
        (Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_add(*y).ok_or_else(EvalError::int_overflow)?)
        }
        (Value::Uint(x), Value::Uint(y)) => {
            Value::Uint(x.checked_add(*y).ok_or_else(EvalError::uint_overflow)?)
        }
        (Value::Double(x), Value::Double(y)) => Value::Double(x + y),
        (Value::String(x), Value::String(y)) => {
            if x.is_empty() {
                return Ok(a[1].clone());
            }
            if y.is_empty() {
                return Ok(a[0].clone());
            }
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Value::string(s)
        }
        (Value::Bytes(x), Value::Bytes(y)) => {
            let mut b = Vec::with_capacity(x.len() + y.len());
            b.extend_from_slice(x);
            b.extend_from_slice(y);
            Value::Bytes(Bytes::Shared(Arc::from(b)))
        }
        (Value::List(x), Value::List(y)) => return crate::value::list::add(x, y),
        (Value::Duration(x), Value::Duration(y)) => Value::Duration(time::Duration(
            x.0.checked_add(y.0).ok_or_else(EvalError::int_overflow)?,
        )),
        (Value::Duration(d), Value::Timestamp(t)) | (Value::Timestamp(t), Value::Duration(d)) => {
            Value::Timestamp(time::add(*t, *d)?)
        }
        (l, _) => {
            let t = matches!(
                l,
                Value::Int(_)
                    | Value::Uint(_)
                    | Value::Double(_)
                    | Value::String(_)
                    | Value::Bytes(_)
                    | Value::List(_)
                    | Value::Duration(_)
                    | Value::Timestamp(_)
            ) || matches!(l, Value::Ext(e) if e.is_adder());
            return overload_or(t, "_+_");
        }
    })
}

/// `_-_`
pub(crate) fn sub<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(match (&a[0], &a[1]) {
        (Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_sub(*y).ok_or_else(EvalError::int_overflow)?)
        }
        (Value::Uint(x), Value::Uint(y)) => {
            Value::Uint(x.checked_sub(*y).ok_or_else(EvalError::uint_overflow)?)
        }
        (Value::Double(x), Value::Double(y)) => Value::Double(x - y),
        (Value::Duration(x), Value::Duration(y)) => Value::Duration(time::Duration(
            x.0.checked_sub(y.0).ok_or_else(EvalError::int_overflow)?,
        )),
        (Value::Timestamp(t), Value::Duration(d)) => Value::Timestamp(time::sub(*t, *d)?),
        (Value::Timestamp(x), Value::Timestamp(y)) => Value::Duration(time::diff(*x, *y)?),
        (l, _) => {
            let t = matches!(
                l,
                Value::Int(_)
                    | Value::Uint(_)
                    | Value::Double(_)
                    | Value::Duration(_)
                    | Value::Timestamp(_)
            );
            return overload_or(t, "_-_");
        }
    })
}

fn numeric_trait(v: &Value<'_>) -> bool {
    matches!(v, Value::Int(_) | Value::Uint(_) | Value::Double(_))
}

/// `_*_`
pub(crate) fn mul<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(match (&a[0], &a[1]) {
        (Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_mul(*y).ok_or_else(EvalError::int_overflow)?)
        }
        (Value::Uint(x), Value::Uint(y)) => {
            Value::Uint(x.checked_mul(*y).ok_or_else(EvalError::uint_overflow)?)
        }
        (Value::Double(x), Value::Double(y)) => Value::Double(x * y),
        (l, _) => return overload_or(numeric_trait(l), "_*_"),
    })
}

/// `_/_`
pub(crate) fn div<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(match (&a[0], &a[1]) {
        (Value::Int(_), Value::Int(0)) | (Value::Uint(_), Value::Uint(0)) => {
            return Err(div_zero());
        }
        (Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_div(*y).ok_or_else(EvalError::int_overflow)?)
        }
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x / y),
        (Value::Double(x), Value::Double(y)) => Value::Double(x / y),
        (l, _) => return overload_or(numeric_trait(l), "_/_"),
    })
}

/// `_%_`
pub(crate) fn rem<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(match (&a[0], &a[1]) {
        (Value::Int(_), Value::Int(0)) | (Value::Uint(_), Value::Uint(0)) => {
            return Err(mod_zero());
        }
        (Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_rem(*y).ok_or_else(EvalError::int_overflow)?)
        }
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x % y),
        (l, _) => return overload_or(matches!(l, Value::Int(_) | Value::Uint(_)), "_%_"),
    })
}

/// `-_`
pub(crate) fn neg<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(match &a[0] {
        Value::Int(x) => Value::Int(x.checked_neg().ok_or_else(EvalError::int_overflow)?),
        Value::Double(x) => Value::Double(-x),
        Value::Duration(d) => Value::Duration(time::Duration(
            d.0.checked_neg().ok_or_else(EvalError::int_overflow)?,
        )),
        Value::Bool(_) => return Err(EvalError::no_such_overload()),
        Value::Uint(_) => return Err(EvalError::no_such_overload_fn("-_")),
        _ => return Err(EvalError::no_such_overload_fn("-_")),
    })
}

/// `!_`
pub(crate) fn not<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::Bool(b) => Ok(Value::Bool(!b)),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn comparer(v: &Value<'_>) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    ) || matches!(v, Value::Ext(e) if e.is_comparer())
}

fn relation<'a>(a: &[Value<'a>], op: &str, ok: fn(Ordering) -> bool) -> EvalResult<'a> {
    if !comparer(&a[0]) {
        return Err(EvalError::no_such_overload_fn(op));
    }
    crate::value::equal::compare(&a[0], &a[1]).map(|o| Value::Bool(ok(o)))
}

/// `_<_`
pub(crate) fn lt<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    relation(a, "_<_", Ordering::is_lt)
}

/// `_<=_`
pub(crate) fn le<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    relation(a, "_<=_", Ordering::is_le)
}

/// `_>_`
pub(crate) fn gt<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    relation(a, "_>_", Ordering::is_gt)
}

/// `_>=_`
pub(crate) fn ge<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    relation(a, "_>=_", Ordering::is_ge)
}

/// `@in`
pub(crate) fn in_op<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[1] {
        Value::List(l) => crate::value::equal::contains(l, &a[0]).map(Value::Bool),
        Value::Map(m) => crate::value::map::contains(m, &a[0]).map(Value::Bool),
        _ => Err(EvalError::no_such_overload()),
    }
}

/// `size(x)` and `x.size()`.
pub(crate) fn size<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let n = match &a[0] {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => crate::value::list::len(l),
        Value::Map(m) => crate::value::map::len(m),
        _ => return Err(EvalError::no_such_overload_fn("size")),
    };
    Ok(Value::Int(i64::try_from(n).unwrap_or(i64::MAX)))
}
