//! Reading and writing the metadata of objects kept as JSON (the server's `unstructured`).
//!
//! Mirrors the accessors of apimachinery `pkg/apis/meta/v1/unstructured/unstructured.go`:
//! absent, `null` or mistyped fields read as empty.

use serde_json::{Map, Value};

/// `metadata` of `obj`, created (and `obj` made an object) when missing.
pub fn metadata_mut(obj: &mut Value) -> &mut Map<String, Value> {
    if !obj.is_object() {
        *obj = Value::Object(Map::new());
    }
    let Value::Object(map) = obj else {
        unreachable!("made an object above")
    };
    let meta = map
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    match meta {
        Value::Object(m) => m,
        _ => unreachable!("made an object above"),
    }
}

/// A string field of `metadata`.
#[must_use]
pub fn meta_str<'a>(obj: &'a Value, field: &str) -> Option<&'a str> {
    obj.get("metadata")?.get(field)?.as_str()
}

/// `metadata.name` (empty when absent).
#[must_use]
pub fn name(obj: &Value) -> &str {
    meta_str(obj, "name").unwrap_or("")
}

/// `metadata.namespace` (empty when absent).
#[must_use]
pub fn namespace(obj: &Value) -> &str {
    meta_str(obj, "namespace").unwrap_or("")
}

/// `metadata.uid` (empty when absent).
#[must_use]
pub fn uid(obj: &Value) -> &str {
    meta_str(obj, "uid").unwrap_or("")
}

/// `metadata.resourceVersion` (empty when absent).
#[must_use]
pub fn resource_version(obj: &Value) -> &str {
    meta_str(obj, "resourceVersion").unwrap_or("")
}

/// `metadata.generation` (0 when absent).
#[must_use]
pub fn generation(obj: &Value) -> i64 {
    obj.get("metadata")
        .and_then(|m| m.get("generation"))
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

/// `metadata.finalizers`, the strings among them.
#[must_use]
pub fn finalizers(obj: &Value) -> Vec<String> {
    obj.get("metadata")
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Sets `metadata.finalizers`; an empty list removes the field.
pub fn set_finalizers(obj: &mut Value, finalizers: &[String]) {
    let meta = metadata_mut(obj);
    if finalizers.is_empty() {
        meta.remove("finalizers");
    } else {
        meta.insert(
            "finalizers".to_owned(),
            Value::Array(finalizers.iter().cloned().map(Value::String).collect()),
        );
    }
}

/// Whether `metadata.deletionTimestamp` is set.
#[must_use]
pub fn is_deleting(obj: &Value) -> bool {
    meta_str(obj, "deletionTimestamp").is_some_and(|s| !s.is_empty())
}

/// The labels, the string values among them.
#[must_use]
pub fn labels(obj: &Value) -> std::collections::BTreeMap<String, String> {
    obj.get("metadata")
        .and_then(|m| m.get("labels"))
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                .collect()
        })
        .unwrap_or_default()
}

/// Sets a `metadata` field; `None` removes it.
pub fn set_meta(obj: &mut Value, field: &str, value: Option<Value>) {
    let meta = metadata_mut(obj);
    match value {
        Some(v) => {
            meta.insert(field.to_owned(), v);
        }
        None => {
            meta.remove(field);
        }
    }
}

/// The value at a simple JSON path (`.spec.replicas`, `.metadata.labels.app`), as a
/// `selectableFields` path or a scale path names it.
#[must_use]
pub fn at_path<'a>(obj: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = obj;
    for part in path.trim_start_matches('.').split('.') {
        if part.is_empty() {
            continue;
        }
        cur = cur.get(part)?;
    }
    Some(cur)
}

/// Sets the value at a simple JSON path, creating objects on the way.
pub fn set_path(obj: &mut Value, path: &str, value: Value) {
    let parts: Vec<&str> = path
        .trim_start_matches('.')
        .split('.')
        .filter(|p| !p.is_empty())
        .collect();
    let mut cur = obj;
    for (i, part) in parts.iter().enumerate() {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Value::Object(map) = cur else {
            unreachable!("made an object above")
        };
        if i + 1 == parts.len() {
            map.insert((*part).to_owned(), value);
            return;
        }
        cur = map
            .entry((*part).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accessors_tolerate_odd_shapes() {
        let obj = json!({"metadata": {"name": 5, "finalizers": ["a", 1, "b"], "labels": {"x": "y", "n": 1}}});
        assert_eq!(name(&obj), "");
        assert_eq!(finalizers(&obj), ["a", "b"]);
        assert_eq!(labels(&obj).len(), 1);
        let mut v = json!("not an object");
        set_meta(&mut v, "name", Some(json!("a")));
        assert_eq!(v, json!({"metadata": {"name": "a"}}));
    }

    #[test]
    fn paths() {
        let mut obj = json!({"spec": {"replicas": 3}});
        assert_eq!(at_path(&obj, ".spec.replicas"), Some(&json!(3)));
        set_path(&mut obj, ".status.replicas", json!(2));
        assert_eq!(obj["status"]["replicas"], 2);
        set_finalizers(&mut obj, &[]);
        assert!(obj["metadata"].get("finalizers").is_none());
    }
}
