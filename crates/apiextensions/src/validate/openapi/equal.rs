//! Equality of decoded JSON as Go sees it: `reflect.DeepEqual` (`uniqueItems`) and the enum
//! comparison after `reflect.Value.Convert`.

use serde_json::Value;

use crate::compiled::number::Num;

/// Go's `reflect.DeepEqual` of decoded JSON (integers and floats are different types).
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (Num::of(x), Num::of(y)) {
            (Num::Int(i), Num::Int(j)) => i == j,
            (Num::Float(f), Num::Float(g)) => f == g,
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| deep_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| deep_equal(a, b)))
        }
        _ => a == b,
    }
}

/// Whether `data` equals `e` after Go's `reflect.Value.Convert` to the enum value's type.
pub(crate) fn enum_matches(data: &Value, e: &Value) -> bool {
    match (data, e) {
        (Value::Number(x), Value::Number(y)) => match (Num::of(x), Num::of(y)) {
            (Num::Int(i), Num::Int(j)) => i == j,
            #[allow(clippy::cast_precision_loss)]
            (Num::Int(i), Num::Float(g)) => i as f64 == g,
            (Num::Float(f), Num::Int(j)) => crate::compiled::number::go_f64_to_i64(f) == j,
            (Num::Float(f), Num::Float(g)) => f == g,
        },
        // Go converts an integer to the string of that code point.
        (Value::Number(x), Value::String(s)) => match Num::of(x) {
            Num::Int(i) => {
                let c = u32::try_from(i)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{fffd}');
                s.chars().eq(std::iter::once(c))
            }
            Num::Float(_) => false,
        },
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => {
            deep_equal(data, e)
        }
        _ => false,
    }
}
