//! Go's zero values over JSON: what "unset" means for each kind of Go field, and the writes
//! defaulting makes. A field of the wrong JSON type is left alone (the schema rejects it).

use serde_json::{Map, Value};

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

/// Whether a Go pointer or slice field is nil: absent or `null`.
pub(crate) fn is_nil(m: &Obj, k: &str) -> bool {
    m.get(k).is_none_or(Value::is_null)
}

/// Whether a Go string field is `""`: absent, `null` or empty.
pub(crate) fn str_empty(m: &Obj, k: &str) -> bool {
    match m.get(k) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    }
}

/// Whether a Go number field is 0: absent, `null` or zero.
pub(crate) fn num_zero(m: &Obj, k: &str) -> bool {
    match m.get(k) {
        None | Some(Value::Null) => true,
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        Some(_) => false,
    }
}

/// Whether a Go map or slice is empty: absent, `null`, `{}` or `[]`.
pub(crate) fn is_empty(m: &Obj, k: &str) -> bool {
    match m.get(k) {
        None | Some(Value::Null) => true,
        Some(Value::Object(o)) => o.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    }
}

/// The string at `k`, `""` when unset or not a string.
pub(crate) fn str_of<'a>(m: &'a Obj, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

/// `if obj.K == "" { obj.K = v }`.
pub(crate) fn default_str(m: &mut Obj, k: &str, v: &str) {
    if str_empty(m, k) {
        m.insert(k.to_owned(), Value::from(v));
    }
}

/// `if obj.K == nil { obj.K = &v }`.
pub(crate) fn default_ptr(m: &mut Obj, k: &str, v: impl Into<Value>) {
    if is_nil(m, k) {
        m.insert(k.to_owned(), v.into());
    }
}

/// `if obj.K == 0 { obj.K = v }`.
pub(crate) fn default_num(m: &mut Obj, k: &str, v: i64) {
    if num_zero(m, k) {
        m.insert(k.to_owned(), Value::from(v));
    }
}

/// The object at `k`, created (`{}`) when nil; `None` when it holds another type.
pub(crate) fn ensure_obj<'a>(m: &'a mut Obj, k: &str) -> Option<&'a mut Obj> {
    if is_nil(m, k) {
        m.insert(k.to_owned(), Value::Object(Obj::new()));
    }
    m.get_mut(k).and_then(Value::as_object_mut)
}

/// The object at `k` when it is one.
pub(crate) fn obj_mut<'a>(m: &'a mut Obj, k: &str) -> Option<&'a mut Obj> {
    m.get_mut(k).and_then(Value::as_object_mut)
}

/// The objects of the array at `k`.
pub(crate) fn items_mut<'a>(m: &'a mut Obj, k: &str) -> impl Iterator<Item = &'a mut Obj> {
    m.get_mut(k)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}
