//! Equality of decoded JSON as Go sees it: `reflect.DeepEqual` (`uniqueItems`) and the enum
//! comparison after `reflect.Value.Convert`.

use serde_json::Value;

use crate::compiled::number::Num;
use crate::compiled::properties::sorted_maps;

/// `==` of decoded JSON as serde_json has it (integers and floats differ, as in Go's
/// `reflect.DeepEqual` of `int64` and `float64`), faster on the short keys and strings of
/// Kubernetes objects: comparing an unchanged object with its old self is most of an update.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => str_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && if sorted_maps() {
                    x.iter()
                        .zip(y)
                        .all(|((k, a), (l, b))| str_eq(k, l) && json_eq(a, b))
                } else {
                    x.iter()
                        .all(|(k, a)| y.get(k).is_some_and(|b| json_eq(a, b)))
                }
        }
        _ => a == b,
    }
}

/// `a == b` without a call to `memcmp` for strings of up to 16 bytes: two overlapping loads.
#[inline]
pub(crate) fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
        let mut w = [0; N];
        w.copy_from_slice(&s[at..at + N]);
        w
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        8..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

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
