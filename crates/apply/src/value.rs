//! Values as structured-merge-diff sees decoded JSON: its total order, its equality and its
//! printing.
//!
//! Mirrors structured-merge-diff `value/value.go`, `value/fields.go`, `value/list.go`,
//! `value/map.go` and `value/scalar.go` over [`serde_json::Value`]. A number is an `int64` when it
//! fits one and a `float64` otherwise, as apimachinery decodes JSON; ints and floats compare and
//! equal numerically. Maps have no order of their own: comparisons walk keys sorted.

use crdkit_apimachinery::gofmt;
use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

/// The kind of a value in structured-merge-diff's order: floats, ints, strings, booleans, lists,
/// maps, then null.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Float,
    Int,
    String,
    Bool,
    List,
    Map,
    Null,
}

fn int_of(n: &Number) -> Option<i64> {
    n.as_i64()
}

fn float_of(n: &Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

fn rank(v: &Value) -> Rank {
    match v {
        Value::Number(n) if int_of(n).is_some() => Rank::Int,
        Value::Number(_) => Rank::Float,
        Value::String(_) => Rank::String,
        Value::Bool(_) => Rank::Bool,
        Value::Array(_) => Rank::List,
        Value::Object(_) => Rank::Map,
        Value::Null => Rank::Null,
    }
}

fn float_cmp(a: f64, b: f64) -> Ordering {
    // Go's FloatCompare: neither greater nor less (NaN included) is equal.
    if a > b {
        Ordering::Greater
    } else if a < b {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// `value.Compare`: a total order over values of any kinds.
#[must_use]
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (int_of(x), int_of(y)) {
            (Some(i), Some(j)) => i.cmp(&j),
            // A float against an int (or two floats) compares numerically.
            #[allow(clippy::cast_precision_loss)]
            (Some(i), None) => float_cmp(i as f64, float_of(y)),
            #[allow(clippy::cast_precision_loss)]
            (None, Some(j)) => float_cmp(float_of(x), j as f64),
            (None, None) => float_cmp(float_of(x), float_of(y)),
        },
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => compare_lists(x, y),
        (Value::Object(x), Value::Object(y)) => compare_maps(x, y),
        (Value::Null, Value::Null) => Ordering::Equal,
        _ => rank(a).cmp(&rank(b)),
    }
}

fn compare_lists(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match compare(x, y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// `MapCompareUsing`: keys are zipped in lexical order; at the i-th key, the map that has run out
/// of keys is less, else the map missing that key is greater.
fn compare_maps(a: &Map<String, Value>, b: &Map<String, Value>) -> Ordering {
    if a.is_empty() && b.is_empty() {
        return Ordering::Equal;
    }
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for (i, key) in keys.into_iter().enumerate() {
        let c = if i == a.len() {
            Ordering::Less
        } else if i == b.len() {
            Ordering::Greater
        } else {
            match (a.get(key), b.get(key)) {
                (None, _) => Ordering::Greater,
                (_, None) => Ordering::Less,
                (Some(x), Some(y)) => compare(x, y),
            }
        };
        if c != Ordering::Equal {
            return c;
        }
    }
    Ordering::Equal
}

/// `value.Equals`: ints and floats equal numerically, maps regardless of key order.
#[must_use]
pub fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (int_of(x), int_of(y)) {
            (Some(i), Some(j)) => i == j,
            #[allow(clippy::cast_precision_loss, clippy::float_cmp)]
            (Some(i), None) => i as f64 == float_of(y),
            #[allow(clippy::cast_precision_loss, clippy::float_cmp)]
            (None, Some(j)) => float_of(x) == j as f64,
            #[allow(clippy::float_cmp)]
            (None, None) => float_of(x) == float_of(y),
        },
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equals(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w)))
        }
        (Value::Null, Value::Null) => true,
        _ => false,
    }
}

/// `value.ToString`: how path elements print values (`"a"`, `1`, `[1,2]`, `k=v`).
#[must_use]
pub fn to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Number(n) => match int_of(n) {
            Some(i) => i.to_string(),
            None => gofmt::format_float(float_of(n)),
        },
        Value::String(s) => gofmt::quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(to_string).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(m) => {
            // Go iterates an unstructured map in random order; sorted keys are one of its orders.
            let mut items: Vec<(&String, &Value)> = m.iter().collect();
            items.sort_by(|a, b| a.0.cmp(b.0));
            items
                .into_iter()
                .map(|(k, v)| format!("{k}={}", to_string(v)))
                .collect()
        }
    }
}

/// Go's `%v` of the `interface{}` an unstructured value holds (`abc`, `1`, `map[a:1]`, `[1 2]`).
fn go_v(v: &Value) -> String {
    crdkit_apimachinery::gofmt::sprint(v)
}

/// Go's `%#v` of the `interface{}` an unstructured value holds.
fn go_sharp_v(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match int_of(n) {
            Some(i) => i.to_string(),
            None => gofmt::format_float(float_of(n)),
        },
        Value::String(s) => gofmt::quote(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_sharp_v).collect();
            format!("[]interface {{}}{{{}}}", items.join(", "))
        }
        Value::Object(m) => {
            let mut items: Vec<(&String, &Value)> = m.iter().collect();
            items.sort_by(|a, b| a.0.cmp(b.0));
            let items: Vec<String> = items
                .into_iter()
                .map(|(k, v)| format!("{}:{}", gofmt::quote(k), go_sharp_v(v)))
                .collect();
            format!("map[string]interface {{}}{{{}}}", items.join(", "))
        }
    }
}

/// `%v` of a `value.Value` (a pointer to `valueUnstructured`): `&{abc}`.
pub(crate) fn go_value_v(v: &Value) -> String {
    format!("&{{{}}}", go_v(v))
}

/// `%#v` of a `value.Value`: `&value.valueUnstructured{Value:"abc"}`.
pub(crate) fn go_value_sharp_v(v: &Value) -> String {
    format!("&value.valueUnstructured{{Value:{}}}", go_sharp_v(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn order_across_kinds() {
        let ordered = [
            json!(1.5),
            json!(2),
            json!("a"),
            json!(false),
            json!([1]),
            json!({"a": 1}),
            Value::Null,
        ];
        for w in ordered.windows(2) {
            assert_eq!(compare(&w[0], &w[1]), Ordering::Less, "{:?}", w);
        }
        assert_eq!(compare(&json!(1), &json!(1.0)), Ordering::Equal);
        assert!(equals(&json!(1), &json!(1.0)));
        assert_eq!(compare(&json!(1), &json!(1.5)), Ordering::Less);
    }

    #[test]
    fn maps_compare_by_sorted_keys() {
        assert_eq!(
            compare(&json!({"a": 1}), &json!({"a": 1, "b": 1})),
            Ordering::Less
        );
        // The map missing the first key is the greater one.
        assert_eq!(
            compare(&json!({"b": 1}), &json!({"a": 1})),
            Ordering::Greater
        );
        assert_eq!(
            compare(&json!({"a": 2}), &json!({"a": 1})),
            Ordering::Greater
        );
        assert_eq!(compare(&json!({}), &json!({})), Ordering::Equal);
    }

    #[test]
    fn go_printing() {
        assert_eq!(to_string(&json!({"b": "x", "a": 1})), "a=1b=\"x\"");
        assert_eq!(
            go_value_sharp_v(&json!(5)),
            "&value.valueUnstructured{Value:5}"
        );
        assert_eq!(go_value_v(&json!("abc")), "&{abc}");
        assert_eq!(
            go_value_sharp_v(&json!({"a": [1, "x"]})),
            "&value.valueUnstructured{Value:map[string]interface {}{\"a\":[]interface {}{1, \"x\"}}}"
        );
    }
}
