//! Type conversions `int()`, `uint()`, `double()`, `string()`, `bytes()`, `bool()`,
//! `duration()`, `timestamp()`, `type()` and `dyn()`: mirrors the `ConvertToType` methods of
//! cel-go `common/types` and the checked conversions of `overflow.go`.

use super::error::{EvalError, EvalResult};
use super::time;
use crate::value::{Type, Value};

fn conversion_error(from: &Value<'_>, to: Type) -> EvalError {
    EvalError::other(format!(
        "type conversion error from '{}' to '{}'",
        from.type_name(),
        to.0
    ))
}

fn no_overload(f: &str, v: &Value<'_>) -> EvalError {
    EvalError::new(
        super::EvalErrorKind::NoSuchOverload,
        format!("no such overload: {f}({})", v.type_name()),
    )
}

/// cel-go `doubleToInt64Checked`.
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
pub(crate) fn double_to_int(d: f64) -> Option<i64> {
    (d.is_finite() && d > i64::MIN as f64 && d < i64::MAX as f64).then_some(d as i64)
}

/// cel-go `doubleToUint64Checked`.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) fn double_to_uint(d: f64) -> Option<u64> {
    (0.0..18_446_744_073_709_551_616.0)
        .contains(&d)
        .then_some(d as u64)
}

/// An int equal to the double, if any.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn double_to_int_lossless(d: f64) -> Option<i64> {
    double_to_int(d).filter(|&i| i as f64 == d)
}

/// A uint equal to the double, if any.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn double_to_uint_lossless(d: f64) -> Option<u64> {
    double_to_uint(d).filter(|&u| u as f64 == d)
}

/// Go's `strconv.ParseInt(s, 10, 64)` syntax: an optional sign and decimal digits.
fn parse_go_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Go's `strconv.ParseFloat(s, 64)` for the forms Rust shares with Go.
fn parse_go_float(s: &str) -> Option<f64> {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = t.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return s.to_ascii_lowercase().parse().ok();
    }
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    s.parse().ok()
}

/// `int(v)`.
pub(crate) fn to_int<'a>(v: &Value<'a>) -> EvalResult<'a> {
    Ok(Value::Int(match v {
        Value::Int(i) => *i,
        Value::Uint(u) => i64::try_from(*u).map_err(|_| EvalError::int_overflow())?,
        Value::Double(d) => double_to_int(*d).ok_or_else(EvalError::int_overflow)?,
        Value::String(s) => parse_go_int(s).ok_or_else(|| conversion_error(v, Type::INT))?,
        Value::Duration(d) => d.0,
        Value::Timestamp(t) => t.secs,
        _ => return Err(no_overload("int", v)),
    }))
}

/// `uint(v)`.
pub(crate) fn to_uint<'a>(v: &Value<'a>) -> EvalResult<'a> {
    Ok(Value::Uint(match v {
        Value::Uint(u) => *u,
        Value::Int(i) => u64::try_from(*i).map_err(|_| EvalError::uint_overflow())?,
        Value::Double(d) => double_to_uint(*d).ok_or_else(EvalError::uint_overflow)?,
        Value::String(s) => {
            let ok = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            ok.then(|| s.parse().ok())
                .flatten()
                .ok_or_else(|| conversion_error(v, Type::UINT))?
        }
        _ => return Err(no_overload("uint", v)),
    }))
}

/// `double(v)`.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn to_double<'a>(v: &Value<'a>) -> EvalResult<'a> {
    Ok(Value::Double(match v {
        Value::Double(d) => *d,
        Value::Int(i) => *i as f64,
        Value::Uint(u) => *u as f64,
        Value::String(s) => parse_go_float(s).ok_or_else(|| conversion_error(v, Type::DOUBLE))?,
        _ => return Err(no_overload("double", v)),
    }))
}

/// `string(v)`.
pub(crate) fn to_string<'a>(v: &Value<'a>) -> EvalResult<'a> {
    Ok(match v {
        Value::String(_) => v.clone(),
        Value::Int(i) => Value::string(i.to_string()),
        Value::Uint(u) => Value::string(u.to_string()),
        Value::Double(d) => Value::string(crdkit_apimachinery::gofmt::format_float(*d)),
        Value::Bool(b) => Value::string(b.to_string()),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Value::string(s),
            Err(_) => {
                return Err(EvalError::other(
                    "invalid UTF-8 in bytes, cannot convert to string",
                ));
            }
        },
        Value::Duration(d) => Value::string(time::format_duration(*d)),
        Value::Timestamp(t) => Value::string(time::format_rfc3339_nano(t)),
        Value::Ext(e) => match e.to_cel_string() {
            Some(s) => Value::string(s),
            None => return Err(no_overload("string", v)),
        },
        _ => return Err(no_overload("string", v)),
    })
}

/// `bytes(v)`.
pub(crate) fn to_bytes<'a>(v: &Value<'a>) -> EvalResult<'a> {
    match v {
        Value::Bytes(_) => Ok(v.clone()),
        Value::String(s) => Ok(Value::bytes(s.as_bytes())),
        _ => Err(no_overload("bytes", v)),
    }
}

/// `bool(v)`: Go's `strconv.ParseBool`.
pub(crate) fn to_bool<'a>(v: &Value<'a>) -> EvalResult<'a> {
    match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::String(s) => match s.as_str() {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(Value::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(Value::Bool(false)),
            _ => Err(conversion_error(v, Type::BOOL)),
        },
        _ => Err(no_overload("bool", v)),
    }
}

/// `duration(v)`.
pub(crate) fn to_duration<'a>(v: &Value<'a>) -> EvalResult<'a> {
    match v {
        Value::Duration(_) => Ok(v.clone()),
        Value::String(s) => time::parse_go_duration(s)
            .map(Value::Duration)
            .ok_or_else(|| conversion_error(v, Type::DURATION)),
        _ => Err(no_overload("duration", v)),
    }
}

/// `timestamp(v)`.
pub(crate) fn to_timestamp<'a>(v: &Value<'a>) -> EvalResult<'a> {
    match v {
        Value::Timestamp(_) => Ok(v.clone()),
        Value::String(s) => match time::parse_rfc3339(s) {
            Some(r) => r.map(Value::Timestamp),
            None => Err(conversion_error(v, Type::TIMESTAMP)),
        },
        Value::Int(i) => time::Timestamp::new(*i, 0)
            .map(Value::Timestamp)
            .ok_or_else(time::timestamp_overflow),
        _ => Err(no_overload("timestamp", v)),
    }
}
