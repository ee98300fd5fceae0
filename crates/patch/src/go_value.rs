//! How Go's strategicpatch sees a decoded JSON value: its `reflect.Type`, `==` between two
//! `interface{}` values (a run-time panic for two maps or two slices), its use as a map key (a
//! panic for a map or a slice), and the `%s` verb of `fmt`.
//!
//! Numbers decode as apimachinery `pkg/util/json` decodes them: an integer that fits is an
//! `int64`, anything else a `float64`, so `1` and `1.0` are different values of different types.

use std::collections::HashMap;
use std::fmt::Write as _;

use crdkit_apimachinery::gofmt::{format_float as go_format_float, sprint as go_sprint};
use serde_json::{Map, Value};

use crate::error::{GoPanic, PatchError};

/// `reflect.TypeOf` of a decoded JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoType {
    Nil,
    Bool,
    Int64,
    Float64,
    String,
    Slice,
    Map,
}

/// `%s` of `reflect.TypeOf(x)`, as in `expected a %s, but received a %s`.
pub(crate) const MAP_TYPE: &str = "map[string]interface {}";
pub(crate) const SLICE_TYPE: &str = "[]interface {}";

impl GoType {
    pub(crate) fn of(v: &Value) -> GoType {
        match v {
            Value::Null => GoType::Nil,
            Value::Bool(_) => GoType::Bool,
            Value::Number(n) if n.is_i64() => GoType::Int64,
            Value::Number(_) => GoType::Float64,
            Value::String(_) => GoType::String,
            Value::Array(_) => GoType::Slice,
            Value::Object(_) => GoType::Map,
        }
    }

    /// `%s` of the type; a nil `reflect.Type` prints as a bad verb.
    pub(crate) fn name(self) -> &'static str {
        match self {
            GoType::Nil => "%!s(<nil>)",
            GoType::Bool => "bool",
            GoType::Int64 => "int64",
            GoType::Float64 => "float64",
            GoType::String => "string",
            GoType::Slice => SLICE_TYPE,
            GoType::Map => MAP_TYPE,
        }
    }
}

/// A comparable and hashable Go value (`nil`, a bool, a number or a string).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Scalar {
    Nil,
    Bool(bool),
    Int(i64),
    /// The bits of a `float64`, with `-0` folded into `0` (Go's `==` says they are equal).
    Float(u64),
    Str(Box<str>),
}

/// A value as `==` and map keys see it: a scalar, or a map or slice, which Go cannot compare.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Scalar(Scalar),
    Map,
    Slice,
}

impl Key {
    /// The key of a value; `None` (a missing map entry) is Go's `nil`.
    pub(crate) fn of(v: Option<&Value>) -> Key {
        let Some(v) = v else {
            return Key::Scalar(Scalar::Nil);
        };
        Key::Scalar(match v {
            Value::Null => Scalar::Nil,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Scalar::Int(i)
                } else {
                    let f = n.as_f64().unwrap_or_default();
                    Scalar::Float(if f == 0.0 { 0 } else { f.to_bits() })
                }
            }
            Value::String(s) => Scalar::Str(s.as_str().into()),
            Value::Array(_) => return Key::Slice,
            Value::Object(_) => return Key::Map,
        })
    }

    /// The panic of comparing this key with another of the same uncomparable type.
    pub(crate) fn uncomparable(&self) -> Option<GoPanic> {
        match self {
            Key::Scalar(_) => None,
            Key::Map => Some(GoPanic::Uncomparable(MAP_TYPE)),
            Key::Slice => Some(GoPanic::Uncomparable(SLICE_TYPE)),
        }
    }

    /// The panic of using this key in a Go map.
    pub(crate) fn unhashable(&self) -> Option<GoPanic> {
        match self {
            Key::Scalar(_) => None,
            Key::Map => Some(GoPanic::Unhashable(MAP_TYPE)),
            Key::Slice => Some(GoPanic::Unhashable(SLICE_TYPE)),
        }
    }
}

/// Go's `a == b` on two `interface{}` values.
pub(crate) fn go_eq(a: Option<&Value>, b: Option<&Value>) -> Result<bool, PatchError> {
    let (a, b) = (Key::of(a), Key::of(b));
    if a == b {
        if let Some(p) = a.uncomparable() {
            return Err(PatchError::Panic(p));
        }
        return Ok(true);
    }
    Ok(false)
}

/// The first position of each key in a list, for lookups that Go does by scanning with `==`.
#[derive(Debug, Default)]
pub(crate) struct Positions {
    first: HashMap<Scalar, usize>,
    first_map: Option<usize>,
    first_slice: Option<usize>,
}

impl Positions {
    pub(crate) fn push(&mut self, key: Key, at: usize) {
        match key {
            Key::Scalar(s) => {
                self.first.entry(s).or_insert(at);
            }
            Key::Map => {
                self.first_map.get_or_insert(at);
            }
            Key::Slice => {
                self.first_slice.get_or_insert(at);
            }
        }
    }

    /// Where a scan with `==` for `key` stops: at the first equal entry, or at the first
    /// entry that panics (one of the same uncomparable type), or nowhere.
    pub(crate) fn scan(&self, key: &Key) -> Scan {
        match key {
            Key::Scalar(s) => self.first.get(s).map_or(Scan::End, |&i| Scan::Found(i)),
            Key::Map => self.first_map.map_or(Scan::End, |i| {
                Scan::Panic(i, GoPanic::Uncomparable(MAP_TYPE))
            }),
            Key::Slice => self.first_slice.map_or(Scan::End, |i| {
                Scan::Panic(i, GoPanic::Uncomparable(SLICE_TYPE))
            }),
        }
    }
}

/// The outcome of a linear scan with `==`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scan {
    Found(usize),
    Panic(usize, GoPanic),
    End,
}

impl Scan {
    pub(crate) fn position(self) -> Option<usize> {
        match self {
            Scan::Found(i) | Scan::Panic(i, _) => Some(i),
            Scan::End => None,
        }
    }

    /// As Go's `index`: the position, `None` (Go's -1), or the panic.
    pub(crate) fn index(self) -> Result<Option<usize>, GoPanic> {
        match self {
            Scan::Found(i) => Ok(Some(i)),
            Scan::Panic(_, p) => Err(p),
            Scan::End => Ok(None),
        }
    }
}

/// Go's `%v` of a list (`[a b]`), without building a `Value`.
pub(crate) fn sprint_list(list: &[Value]) -> String {
    let items: Vec<String> = list.iter().map(go_sprint).collect();
    format!("[{}]", items.join(" "))
}

/// Go's `%v` of a map.
pub(crate) fn sprint_map(map: &Map<String, Value>) -> String {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    let items: Vec<String> = keys
        .into_iter()
        .map(|k| format!("{k}:{}", go_sprint(&map[k])))
        .collect();
    format!("map[{}]", items.join(" "))
}

/// Go's `%s` of an `interface{}` holding a decoded JSON value: strings as they are, other
/// scalars as bad verbs (`%!s(int64=1)`), lists and maps element by element.
pub(crate) fn sprint_s(v: &Value) -> String {
    let mut out = String::new();
    write_s(v, &mut out);
    out
}

fn write_s(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("%!s(<nil>)"),
        Value::Bool(b) => {
            let _ = write!(out, "%!s(bool={b})");
        }
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                let _ = write!(out, "%!s(int64={i})");
            } else {
                let f = go_format_float(n.as_f64().unwrap_or_default());
                let _ = write!(out, "%!s(float64={f})");
            }
        }
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_s(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push_str("map[");
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                write_s(&map[k], out);
            }
            out.push(']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_typed_as_go_decodes_them() {
        assert_eq!(GoType::of(&json!(1)), GoType::Int64);
        assert_eq!(GoType::of(&json!(1.0)), GoType::Float64);
        assert_eq!(GoType::of(&json!(u64::MAX)), GoType::Float64);
        assert_ne!(Key::of(Some(&json!(1))), Key::of(Some(&json!(1.0))));
        assert_eq!(Key::of(Some(&json!(0.0))), Key::of(Some(&json!(-0.0))));
        assert_eq!(Key::of(None), Key::of(Some(&Value::Null)));
    }

    #[test]
    fn eq_panics_only_for_two_maps_or_two_slices() {
        assert_eq!(go_eq(Some(&json!("a")), Some(&json!("a"))), Ok(true));
        assert_eq!(go_eq(Some(&json!({})), Some(&json!([]))), Ok(false));
        assert_eq!(go_eq(Some(&json!({})), Some(&json!("a"))), Ok(false));
        assert_eq!(
            go_eq(Some(&json!({})), Some(&json!({}))),
            Err(PatchError::Panic(GoPanic::Uncomparable(MAP_TYPE)))
        );
    }

    #[test]
    fn percent_s() {
        assert_eq!(sprint_s(&json!("merge")), "merge");
        assert_eq!(sprint_s(&json!(1)), "%!s(int64=1)");
        assert_eq!(sprint_s(&json!(1.5)), "%!s(float64=1.5)");
        assert_eq!(sprint_s(&json!(true)), "%!s(bool=true)");
        assert_eq!(sprint_s(&Value::Null), "%!s(<nil>)");
        assert_eq!(
            sprint_s(&json!({"b": 1, "a": ["x"]})),
            "map[a:[x] b:%!s(int64=1)]"
        );
        assert_eq!(
            sprint_map(json!({"b": 1, "a": null}).as_object().unwrap()),
            "map[a:<nil> b:1]"
        );
        assert_eq!(sprint_list(&[json!(1), json!("a")]), "[1 a]");
    }
}
