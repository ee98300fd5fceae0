//! Semantic versions (Kubernetes 1.33): mirrors apiserver `pkg/cel/library/semverlib.go`
//! (`semver`, `isSemver`, the normalising version 1 overloads, `major`/`minor`/`patch`); the type
//! is [`crate::value::ext::semver`].

use std::sync::Arc;

use super::{Env, FnDef, cost_traverse0};
use crate::value::ext::ExtValue;
use crate::value::ext::semver::{Semver, normalize_and_parse, parse};
use crate::value::{EvalError, EvalResult, Value};

fn parse_args(a: &[Value<'_>]) -> Result<Result<Semver, String>, EvalError> {
    let Value::String(s) = &a[0] else {
        return Err(EvalError::no_such_overload());
    };
    let normalize = match a.get(1) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(EvalError::no_such_overload()),
    };
    Ok(if normalize {
        normalize_and_parse(s)
    } else {
        parse(s)
    })
}

fn semver<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    parse_args(a)?
        .map(|v| Value::Ext(Arc::new(ExtValue::Semver(v))))
        .map_err(EvalError::other)
}

fn is_semver<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Bool(parse_args(a)?.is_ok()))
}

fn field<'a>(a: &[Value<'a>], f: fn(&Semver) -> u64) -> EvalResult<'a> {
    match &a[0] {
        Value::Ext(e) => match &**e {
            ExtValue::Semver(v) => Ok(Value::Int(f(v) as i64)),
            _ => Err(EvalError::no_such_overload()),
        },
        _ => Err(EvalError::no_such_overload()),
    }
}

fn major<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    field(a, |v| v.major)
}

fn minor<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    field(a, |v| v.minor)
}

fn patch<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    field(a, |v| v.patch)
}

/// The semver library (comparisons are shared with quantities in `quantity.rs`).
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("semver", false, 1, semver)
        .arity(1, 2)
        .since(1, 33)
        .cost(cost_traverse0),
    FnDef::new("isSemver", false, 1, is_semver)
        .arity(1, 2)
        .since(1, 33)
        .cost(cost_traverse0),
    FnDef::new("major", true, 1, major).since(1, 33),
    FnDef::new("minor", true, 1, minor).since(1, 33),
    FnDef::new("patch", true, 1, patch).since(1, 33),
];
