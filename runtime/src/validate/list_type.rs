//! `x-kubernetes-list-type: set` and `map` uniqueness.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/listtype/validation.go`
//! (`ValidateListSetsAndMaps`): the second and later occurrences of a set element or map key are
//! reported once each (`Duplicate value`), map lists must hold objects (or nulls), and a missing
//! key counts as a key value of its own. What differs from Go: object keys are visited in order.

use serde_json::{Map, Value};

use crate::field::{BadValue, FieldError, FieldPath, go_json};
use crate::prune::{MAX_DEPTH, additional};
use crate::schema::{ListType, Structural};

/// Validates the list-type invariants below the object `obj` (whose schema is `s`).
pub fn validate_list_sets_and_maps(
    path: &FieldPath,
    s: &Structural,
    obj: &Value,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Value::Object(map) = obj {
        object(path, s, map, &mut errs, 0);
    }
    errs
}

fn object(
    path: &FieldPath,
    s: &Structural,
    obj: &Map<String, Value>,
    errs: &mut Vec<FieldError>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(Some(ap)) = additional(s) {
        for (k, v) in obj {
            value(&path.key(k), ap, v, errs, depth + 1);
        }
    }
    for (k, v) in obj {
        if let Some(sub) = s.properties.get(k) {
            value(&path.child(k), sub, v, errs, depth + 1);
        }
    }
}

fn value(path: &FieldPath, s: &Structural, v: &Value, errs: &mut Vec<FieldError>, depth: usize) {
    match v {
        Value::Array(items) => array(path, s, items, errs, depth),
        Value::Object(map) => object(path, s, map, errs, depth),
        _ => {}
    }
}

fn array(
    path: &FieldPath,
    s: &Structural,
    items: &[Value],
    errs: &mut Vec<FieldError>,
    depth: usize,
) {
    match s.extensions.list_type {
        Some(ListType::Set) => {
            for i in non_unique(items.iter().map(Some)) {
                errs.push(FieldError::duplicate(
                    &path.index(i),
                    BadValue::from(&items[i]),
                ));
            }
        }
        Some(ListType::Map) => errs.extend(list_map(path, s, items)),
        _ => {}
    }
    if let Some(item) = s.items.as_deref() {
        for (i, v) in items.iter().enumerate() {
            value(&path.index(i), item, v, errs, depth + 1);
        }
    }
}

/// A set element as Go keys it: scalars by type and value, compounds by their JSON, and a missing
/// map key (Go's `unspecifiedKeyValue{}`) as a value of its own.
fn key_of(v: Option<&Value>) -> String {
    use super::number::Num;
    match v {
        None => "u".to_owned(),
        Some(v @ (Value::Object(_) | Value::Array(_))) => format!("c{}", go_json(v)),
        Some(Value::Null) => "n".to_owned(),
        Some(Value::Bool(b)) => format!("b{b}"),
        Some(Value::String(s)) => format!("s{s}"),
        Some(Value::Number(n)) => match Num::of(n) {
            Num::Int(i) => format!("i{i}"),
            Num::Float(f) => format!("f{}", if f == 0.0 { 0 } else { f.to_bits() }),
        },
    }
}

/// The indices of the second occurrence of each repeated element (`validateListSet`).
fn non_unique<'a>(items: impl Iterator<Item = Option<&'a Value>>) -> Vec<usize> {
    let items: Vec<Option<&Value>> = items.collect();
    if items.len() <= 1 {
        return Vec::new();
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (i, v) in items.into_iter().enumerate() {
        let times = seen.entry(key_of(v)).or_insert(0);
        *times += 1;
        if *times == 2 {
            out.push(i);
        }
    }
    out
}

fn list_map(path: &FieldPath, s: &Structural, items: &[Value]) -> Vec<FieldError> {
    for (i, x) in items.iter().enumerate() {
        if !x.is_null() && !x.is_object() {
            return vec![FieldError::invalid(
                &path.index(i),
                BadValue::from(x),
                "must be an object for an array of list-type map",
            )];
        }
    }
    if items.len() <= 1 {
        return Vec::new();
    }
    let keys = &s.extensions.list_map_keys;
    if let [key] = keys.as_slice() {
        let vals: Vec<Option<&Value>> = items
            .iter()
            .map(|x| x.as_object().and_then(|m| m.get(key)))
            .collect();
        return non_unique(vals.iter().copied())
            .into_iter()
            .map(|i| {
                let mut m = Map::new();
                if let Some(v) = vals[i] {
                    m.insert(key.clone(), v.clone());
                }
                FieldError::duplicate(&path.index(i), BadValue::Json(Value::Object(m)))
            })
            .collect();
    }
    let composite: Vec<Value> = items
        .iter()
        .map(|x| {
            let mut m = Map::new();
            if let Some(obj) = x.as_object() {
                for k in keys {
                    if let Some(v) = obj.get(k) {
                        m.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(m)
        })
        .collect();
    non_unique(composite.iter().map(Some))
        .into_iter()
        .map(|i| FieldError::duplicate(&path.index(i), BadValue::Json(composite[i].clone())))
        .collect()
}

/// Validates the list-type invariants of any value (an object or a list) whose schema is `s`.
pub(crate) fn validate_value(path: &FieldPath, s: &Structural, v: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    value(path, s, v, &mut errs, 0);
    errs
}
