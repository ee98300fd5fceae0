//! Reading Go fields out of JSON: an absent, `null` or mistyped field reads as Go's zero value
//! (the schema has rejected mistyped ones before validation runs).

use std::sync::LazyLock;

use serde_json::{Map, Value};

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

static EMPTY: LazyLock<Obj> = LazyLock::new(Obj::new);

/// The object at `k`, if any.
pub(crate) fn obj<'a>(m: &'a Obj, k: &str) -> Option<&'a Obj> {
    m.get(k).and_then(Value::as_object)
}

/// The object at `k`, or an empty one.
pub(crate) fn obj_or_empty<'a>(m: &'a Obj, k: &str) -> &'a Obj {
    obj(m, k).unwrap_or(&*EMPTY)
}

/// The string at `k`, `""` when unset.
pub(crate) fn str_of<'a>(m: &'a Obj, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The string at `k` when set (a Go `*string`).
pub(crate) fn opt_str<'a>(m: &'a Obj, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str)
}

/// The integer at `k` when set (a Go pointer).
pub(crate) fn opt_int(m: &Obj, k: &str) -> Option<i64> {
    m.get(k).and_then(Value::as_i64)
}

/// The integer at `k`, 0 when unset.
pub(crate) fn int_of(m: &Obj, k: &str) -> i64 {
    opt_int(m, k).unwrap_or(0)
}

/// The boolean at `k`, `false` when unset.
pub(crate) fn bool_of(m: &Obj, k: &str) -> bool {
    m.get(k).and_then(Value::as_bool).unwrap_or(false)
}

/// Whether the pointer, slice or map at `k` is set (`null` is not).
pub(crate) fn is_set(m: &Obj, k: &str) -> bool {
    m.get(k).is_some_and(|v| !v.is_null())
}

/// The array at `k`, empty when unset.
pub(crate) fn arr<'a>(m: &'a Obj, k: &str) -> &'a [Value] {
    m.get(k)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

/// The objects of the array at `k`, with their indices (a non-object item reads as empty).
pub(crate) fn items<'a>(m: &'a Obj, k: &str) -> impl Iterator<Item = (usize, &'a Obj)> {
    arr(m, k)
        .iter()
        .enumerate()
        .map(|(i, v)| (i, v.as_object().unwrap_or(&*EMPTY)))
}

/// The strings of the array at `k`.
pub(crate) fn strs<'a>(m: &'a Obj, k: &str) -> impl Iterator<Item = &'a str> {
    arr(m, k).iter().map(|v| v.as_str().unwrap_or(""))
}

/// The entries of the `map[string]string` at `k`.
pub(crate) fn str_map<'a>(m: &'a Obj, k: &str) -> impl Iterator<Item = (&'a str, &'a str)> {
    obj(m, k)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
}

/// Whether two optional JSON values are equal, `null` and absent alike (Go's `DeepEqual` of
/// the decoded fields).
pub(crate) fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    fn norm(v: Option<&Value>) -> Option<&Value> {
        v.filter(|v| !v.is_null())
    }
    norm(a) == norm(b)
}
