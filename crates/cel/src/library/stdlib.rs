//! The standard function library: mirrors cel-go `common/stdlib/standard.go` (operators,
//! `size`, string predicates, `matches`, conversions, timestamp and duration accessors) with
//! the runtime costs of `interpreter/runtimecost.go`.
//!
//! Differs from cel-go v0.28 in one cost on purpose: `startsWith`/`endsWith` are charged by
//! the size of the prefix or suffix, as cel-go since v0.29 (pull request 1351) and the
//! Kubernetes cost tables (`celcoststability_test.go`) do.

use super::ops;
use super::{
    CostFn, Env, FnDef, REGEX_FACTOR, TRAVERSAL, actual_size, ceil_factor, cost_traverse0,
};
use crate::value::Value;
use crate::value::convert;
use crate::value::time;
use crate::value::{EvalError, EvalResult};

fn both_str_or_bytes(a: &[Value<'_>]) -> bool {
    matches!(
        (&a[0], &a[1]),
        (Value::String(_), Value::String(_)) | (Value::Bytes(_), Value::Bytes(_))
    )
}

/// `AddString`, `AddBytes`: O(m+n); other additions cost 1.
fn cost_add<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    if both_str_or_bytes(a) {
        ceil_factor(actual_size(&a[0]) + actual_size(&a[1]), TRAVERSAL)
    } else {
        1
    }
}

/// String and bytes relations: O(min(m, n)).
fn cost_relation<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    if both_str_or_bytes(a) {
        ceil_factor(actual_size(&a[0]).min(actual_size(&a[1])), TRAVERSAL)
    } else {
        1
    }
}

/// `InList`: the list size; `InMap` and others: 1.
fn cost_in<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    match &a[1] {
        Value::List(_) => actual_size(&a[1]),
        _ => 1,
    }
}

fn cost_contains<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    if both_str_or_bytes(a) {
        ceil_factor(actual_size(&a[0]), TRAVERSAL) * ceil_factor(actual_size(&a[1]), TRAVERSAL)
    } else {
        1
    }
}

fn cost_prefix<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    if both_str_or_bytes(a) {
        ceil_factor(actual_size(&a[1]), TRAVERSAL)
    } else {
        1
    }
}

/// `MatchesString` (the member form only; the global `matches(s, re)` costs 1 in cel-go).
pub(crate) fn cost_matches<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    if both_str_or_bytes(a) {
        ceil_factor(1 + actual_size(&a[0]), TRAVERSAL)
            * ceil_factor(actual_size(&a[1]), REGEX_FACTOR)
    } else {
        1
    }
}

/// `StringToBytes`, `BytesToString`.
fn cost_str_bytes<'a>(a: &[Value<'a>], r: &Value<'a>) -> u64 {
    match (&a[0], r) {
        (Value::String(_), Value::Bytes(_)) | (Value::Bytes(_), Value::String(_)) => {
            cost_traverse0(a, r)
        }
        _ => 1,
    }
}

fn string_pred<'a>(a: &[Value<'a>], f: fn(&str, &str) -> bool) -> EvalResult<'a> {
    match (&a[0], &a[1]) {
        (Value::String(s), Value::String(p)) => Ok(Value::Bool(f(s, p))),
        _ => Err(EvalError::no_such_overload()),
    }
}

fn contains<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    string_pred(a, |s, p| s.contains(p))
}

fn starts_with<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    string_pred(a, |s, p| s.starts_with(p))
}

fn ends_with<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    string_pred(a, |s, p| s.ends_with(p))
}

/// `matches` with a pattern known only at run time (constant patterns are compiled once by
/// the planner, as cel-go's `MatchesRegexOptimization`).
fn matches<'a>(env: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match (&a[0], &a[1]) {
        (Value::String(s), Value::String(p)) => {
            let re = env.regexes.get(p)?;
            Ok(Value::Bool(re.is_match(s)))
        }
        (Value::String(_), _) => Err(EvalError::no_such_overload()),
        _ => Err(EvalError::no_such_overload_fn("matches")),
    }
}

macro_rules! unary {
    ($name:ident, $f:path) => {
        fn $name<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
            $f(&a[0])
        }
    };
}

unary!(to_int, convert::to_int);
unary!(to_uint, convert::to_uint);
unary!(to_double, convert::to_double);
unary!(to_string, convert::to_string);
unary!(to_bytes, convert::to_bytes);
unary!(to_bool, convert::to_bool);
unary!(to_duration, convert::to_duration);
unary!(to_timestamp, convert::to_timestamp);

fn type_of<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(Value::Type(a[0].type_of()))
}

fn dyn_<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    Ok(a[0].clone())
}

/// `cel.@mapInsert(m, k, v)` / `cel.@mapInsert(m, {k: v})` of the two-variable
/// comprehension macros (cel-go `ext/comprehensions.go`, `types.InsertMapKeyValue`).
fn map_insert<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    use crate::value::Map;
    let Value::Map(m) = &a[0] else {
        return super::no_overload("cel.@mapInsert", a);
    };
    let mut out = match m {
        Map::Owned(o) => (**o).clone(),
        Map::Json(_) => {
            let mut o = crate::value::map::OwnedMap::new();
            for (k, v) in crate::value::map::entries(m) {
                o.insert(k, v?)?;
            }
            o
        }
    };
    let pairs: Vec<(Value<'a>, Value<'a>)> = match a {
        [_, k, v] => vec![(k.clone(), v.clone())],
        [_, Value::Map(u)] => crate::value::map::entries(u)
            .into_iter()
            .map(|(k, v)| v.map(|v| (k, v)))
            .collect::<Result<_, _>>()?,
        _ => return super::no_overload("cel.@mapInsert", a),
    };
    for (k, v) in pairs {
        if out.find(&k).is_some() {
            return Err(EvalError::other(format!(
                "insert failed: key {k} already exists"
            )));
        }
        out.insert(k, v)?;
    }
    Ok(Value::Map(Map::Owned(std::sync::Arc::new(out))))
}

const SIZE_COST: CostFn = super::cost_one;

/// Operators and functions of the standard library.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("_+_", false, 2, ops::add).cost(cost_add),
    FnDef::new("_-_", false, 2, ops::sub),
    FnDef::new("_*_", false, 2, ops::mul),
    FnDef::new("_/_", false, 2, ops::div),
    FnDef::new("_%_", false, 2, ops::rem),
    FnDef::new("-_", false, 1, ops::neg),
    FnDef::new("!_", false, 1, ops::not),
    FnDef::new("_<_", false, 2, ops::lt).cost(cost_relation),
    FnDef::new("_<=_", false, 2, ops::le).cost(cost_relation),
    FnDef::new("_>_", false, 2, ops::gt).cost(cost_relation),
    FnDef::new("_>=_", false, 2, ops::ge).cost(cost_relation),
    FnDef::new("@in", false, 2, ops::in_op).cost(cost_in),
    FnDef::new("size", false, 1, ops::size).cost(SIZE_COST),
    FnDef::new("size", true, 1, ops::size).cost(SIZE_COST),
    FnDef::new("contains", true, 2, contains).cost(cost_contains),
    FnDef::new("startsWith", true, 2, starts_with).cost(cost_prefix),
    FnDef::new("endsWith", true, 2, ends_with).cost(cost_prefix),
    FnDef::new("matches", true, 2, matches).cost(cost_matches),
    FnDef::new("matches", false, 2, matches),
    FnDef::new("int", false, 1, to_int),
    FnDef::new("uint", false, 1, to_uint),
    FnDef::new("double", false, 1, to_double),
    FnDef::new("string", false, 1, to_string).cost(cost_str_bytes),
    FnDef::new("bytes", false, 1, to_bytes).cost(cost_str_bytes),
    FnDef::new("bool", false, 1, to_bool),
    FnDef::new("duration", false, 1, to_duration),
    FnDef::new("timestamp", false, 1, to_timestamp),
    FnDef::new("type", false, 1, type_of),
    FnDef::new("dyn", false, 1, dyn_),
    FnDef::new("cel.@mapInsert", false, 2, map_insert)
        .arity(2, 3)
        .since(1, 32),
];

/// Whether a function is a type conversion (folded when its argument is constant, as cel-go's
/// `OptOptimize` does).
pub(crate) fn is_conversion(name: &str) -> bool {
    matches!(
        name,
        "int"
            | "uint"
            | "double"
            | "string"
            | "bytes"
            | "bool"
            | "duration"
            | "timestamp"
            | "type"
            | "dyn"
    )
}

fn in_zone<'a>(a: &[Value<'a>]) -> Result<time::Civil, EvalError> {
    let Value::Timestamp(t) = &a[0] else {
        return Err(EvalError::no_such_overload());
    };
    let offset = match a.get(1) {
        None => 0,
        Some(Value::String(tz)) => time::zone_offset(t, tz)?,
        Some(_) => return Err(EvalError::no_such_overload()),
    };
    Ok(time::civil(t, offset))
}

macro_rules! time_getter {
    ($name:ident, $civil:expr, $dur:expr) => {
        fn $name<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
            if let (Value::Duration(d), 1) = (&a[0], a.len()) {
                let f: Option<fn(i64) -> i64> = $dur;
                return match f {
                    Some(f) => Ok(Value::Int(f(d.0))),
                    None => Err(EvalError::no_such_overload()),
                };
            }
            let c = in_zone(a)?;
            let f: fn(&time::Civil) -> i64 = $civil;
            Ok(Value::Int(f(&c)))
        }
    };
}

time_getter!(get_full_year, |c| c.year, None);
time_getter!(get_month, |c| c.month - 1, None);
time_getter!(get_day_of_year, |c| c.yday, None);
time_getter!(get_day_of_month, |c| c.day - 1, None);
time_getter!(get_date, |c| c.day, None);
time_getter!(get_day_of_week, |c| c.weekday, None);
time_getter!(get_hours, |c| c.hour, Some(|d| d / 3_600_000_000_000));
time_getter!(get_minutes, |c| c.minute, Some(|d| d / 60_000_000_000));
time_getter!(get_seconds, |c| c.second, Some(|d| d / 1_000_000_000));

fn get_milliseconds<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    match &a[0] {
        Value::Duration(d) if a.len() == 1 => Ok(Value::Int(d.0 / 1_000_000)),
        Value::Timestamp(t) => {
            in_zone(a)?;
            Ok(Value::Int(i64::from(t.nanos / 1_000_000)))
        }
        _ => Err(EvalError::no_such_overload()),
    }
}

/// Timestamp and duration accessors.
pub(crate) static TIME_FUNCTIONS: &[FnDef] = &[
    FnDef::new("getFullYear", true, 1, get_full_year).arity(1, 2),
    FnDef::new("getMonth", true, 1, get_month).arity(1, 2),
    FnDef::new("getDayOfYear", true, 1, get_day_of_year).arity(1, 2),
    FnDef::new("getDayOfMonth", true, 1, get_day_of_month).arity(1, 2),
    FnDef::new("getDate", true, 1, get_date).arity(1, 2),
    FnDef::new("getDayOfWeek", true, 1, get_day_of_week).arity(1, 2),
    FnDef::new("getHours", true, 1, get_hours).arity(1, 2),
    FnDef::new("getMinutes", true, 1, get_minutes).arity(1, 2),
    FnDef::new("getSeconds", true, 1, get_seconds).arity(1, 2),
    FnDef::new("getMilliseconds", true, 1, get_milliseconds).arity(1, 2),
];
