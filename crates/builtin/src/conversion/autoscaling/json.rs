//! Reading and writing the JSON of Go structs: absent and `null` fields, Go's zero values.

use serde_json::{Map, Value, json};

pub(super) fn get<'a>(v: &'a Value, k: &str) -> Option<&'a Value> {
    v.get(k).filter(|v| !v.is_null())
}

pub(super) fn or<'a>(v: &'a Value, k: &str, default: &'a Value) -> &'a Value {
    get(v, k).unwrap_or(default)
}

/// Copies `from[src]` to `to[dst]` when set.
pub(super) fn copy(to: &mut Map<String, Value>, dst: &str, from: &Value, src: &str) {
    if let Some(v) = get(from, src) {
        to.insert(dst.to_owned(), v.clone());
    }
}

/// A Go non-pointer `resource.Quantity`: the zero value marshals as `"0"`.
pub(super) fn quantity(from: &Value, k: &str) -> Value {
    get(from, k).cloned().unwrap_or_else(|| json!("0"))
}

pub(super) fn string(from: &Value, k: &str) -> Value {
    get(from, k).cloned().unwrap_or_else(|| json!(""))
}

/// `CrossVersionObjectReference`: kind, name, apiVersion (omitted when empty).
pub(super) fn reference(r: &Value) -> Value {
    let mut out = Map::new();
    out.insert("kind".to_owned(), string(r, "kind"));
    out.insert("name".to_owned(), string(r, "name"));
    copy(&mut out, "apiVersion", r, "apiVersion");
    Value::Object(out)
}
