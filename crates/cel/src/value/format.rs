//! Printing values as Go prints cel-go values: `%v` in error messages (`no such key: %v`),
//! `%g` for `string(double)` (cel-go `common/types/double.go`), `'f'` shortest for durations,
//! and a JSON rendering used by tests.

use std::fmt;

use crdkit_apimachinery::gofmt;

use crate::value::Value;

/// Writes `%v` of the value as cel-go's `ref.Val` prints in messages.
pub(crate) fn write_go(v: &Value<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match v {
        Value::Null => f.write_str("NULL_VALUE"),
        Value::Bool(b) => write!(f, "{b}"),
        Value::Int(i) => write!(f, "{i}"),
        Value::Uint(u) => write!(f, "{u}"),
        Value::Double(d) => f.write_str(&gofmt::format_float(*d)),
        Value::String(s) => f.write_str(s),
        Value::Bytes(b) => {
            f.write_str("[")?;
            for (i, x) in b.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{x}")?;
            }
            f.write_str("]")
        }
        Value::Duration(d) => f.write_str(&super::time::format_duration(*d)),
        Value::Timestamp(t) => f.write_str(&super::time::format_rfc3339_nano(t)),
        Value::List(l) => {
            f.write_str("[")?;
            for (i, x) in super::list::iter(l).enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                match x {
                    Ok(x) => write_go(&x, f)?,
                    Err(e) => write!(f, "{e}")?,
                }
            }
            f.write_str("]")
        }
        Value::Map(m) => {
            f.write_str("{")?;
            for (i, (k, x)) in super::map::entries(m).into_iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_go(&k, f)?;
                f.write_str(": ")?;
                match x {
                    Ok(x) => write_go(&x, f)?,
                    Err(e) => write!(f, "{e}")?,
                }
            }
            f.write_str("}")
        }
        Value::Optional(Some(x)) => {
            f.write_str("optional(")?;
            write_go(x, f)?;
            f.write_str(")")
        }
        Value::Optional(None) => f.write_str("optional.none()"),
        Value::Type(t) => f.write_str(t.0),
        Value::Ext(e) => write!(f, "{e}"),
        Value::Unknown(j) => write!(f, "{j}"),
    }
}

/// A JSON rendering: bytes as base64, durations and timestamps as strings, types as names.
pub(crate) fn to_json(v: &Value<'_>) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Uint(u) => J::from(*u),
        Value::Double(d) => serde_json::Number::from_f64(*d).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.to_string()),
        Value::Bytes(b) => J::String(crdkit_apimachinery::gobase64::encode(b)),
        Value::Duration(d) => J::String(super::time::format_duration(*d)),
        Value::Timestamp(t) => J::String(super::time::format_rfc3339_nano(t)),
        Value::List(l) => J::Array(
            super::list::iter(l)
                .map(|x| x.map_or(J::Null, |x| to_json(&x)))
                .collect(),
        ),
        Value::Map(m) => J::Object(
            super::map::entries(m)
                .into_iter()
                .map(|(k, x)| {
                    let key = match &k {
                        Value::String(s) => s.to_string(),
                        other => other.to_string(),
                    };
                    (key, x.map_or(J::Null, |x| to_json(&x)))
                })
                .collect(),
        ),
        Value::Optional(Some(x)) => to_json(x),
        Value::Optional(None) => J::Null,
        Value::Type(t) => J::String(t.0.to_string()),
        Value::Ext(e) => J::String(e.to_string()),
        Value::Unknown(j) => (*j).clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_g() {
        assert_eq!(gofmt::format_float(123.456), "123.456");
        assert_eq!(gofmt::format_float(-4.5e-3), "-0.0045");
        assert_eq!(gofmt::format_float(1e6), "1e+06");
        assert_eq!(gofmt::format_float(123_456.0), "123456");
        assert_eq!(gofmt::format_float(1.5e-7), "1.5e-07");
        assert_eq!(gofmt::format_float(1e100), "1e+100");
    }
}
