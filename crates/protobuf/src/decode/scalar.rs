//! Scalars as Go's encoding/json writes them: strings (invalid UTF-8 replaced), base64 bytes,
//! integral float64s without a fraction, zero values and their `omitempty` emptiness.

use base64::Engine as _;
use serde_json::{Number, Value};

use crate::descriptor::{Field, Scalar};
use crate::error::DecodeError;
use crate::wire::Reader;

pub(super) fn base64(bytes: &[u8]) -> Value {
    Value::String(base64::engine::general_purpose::STANDARD.encode(bytes))
}

pub(super) fn string(bytes: &[u8]) -> Value {
    Value::String(String::from_utf8_lossy(bytes).into_owned())
}

/// Go writes an integral float64 without a fraction, which reads back as an integer.
pub(super) fn float(v: f64, field: &Field) -> Result<Value, DecodeError> {
    if !v.is_finite() {
        return Err(DecodeError::InvalidJson {
            field: field.json.unwrap_or("-").to_owned(),
            detail: format!("json: unsupported value: {v}"),
        });
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::float_cmp,
        clippy::cast_precision_loss
    )]
    if v.fract() == 0.0 && v.abs() < 9.007_199_254_740_992e15 {
        return Ok(Value::from(v as i64));
    }
    Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
}

/// `RawExtension.guessContentType`: what JSON can start with.
pub(super) fn looks_like_json(b: &[u8]) -> bool {
    matches!(
        b[0],
        b'\t' | b'\r' | b'\n' | b' ' | b'{' | b'[' | b'n' | b't' | b'f' | b'"' | b'-' | b'0'..=b'9'
    )
}

pub(super) fn parse_json(b: &[u8], field: &str) -> Result<Value, DecodeError> {
    serde_json::from_slice(b).map_err(|e| DecodeError::InvalidJson {
        field: field.to_owned(),
        detail: e.to_string(),
    })
}

pub(super) fn scalar(r: &mut Reader<'_>, s: Scalar, f: &Field) -> Result<Value, DecodeError> {
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    Ok(match s {
        Scalar::String => string(r.bytes()?),
        Scalar::Bytes => base64(r.bytes()?),
        Scalar::Bool => Value::Bool(r.varint()? != 0),
        Scalar::Int32 => Value::from(r.varint()? as i32),
        Scalar::Int64 => Value::from(r.varint()? as i64),
        Scalar::Uint32 => Value::from(r.varint()? as u32),
        Scalar::Uint64 => Value::from(r.varint()?),
        Scalar::Double => float(f64::from_bits(r.fixed64()?), f)?,
        Scalar::Float => float(f64::from(f32::from_bits(r.fixed32()?)), f)?,
    })
}

pub(super) fn zero(s: Scalar) -> Value {
    match s {
        Scalar::String => Value::String(String::new()),
        Scalar::Bool => Value::Bool(false),
        Scalar::Bytes => Value::Null,
        _ => Value::from(0),
    }
}

/// Go's `omitempty` emptiness of a scalar.
pub(super) fn is_zero(v: &Value) -> bool {
    match v {
        Value::String(s) => s.is_empty(),
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Null => true,
        _ => false,
    }
}
