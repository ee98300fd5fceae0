//! No loss across round trips: what a conversion drops is kept in an annotation and put back
//! when the object comes back to the version it had.
//!
//! The API server converts an object each time it is read or written at a version other than
//! the stored one, so a field that only one version has is lost on `v2 -> v1 -> v2` unless the
//! `v1` object carries it (the versioning page: "webhook conversions should follow the
//! Kubernetes API conventions", which ask that round trips lose nothing). Cluster API and
//! controller-runtime keep the hub object in the `cluster.x-k8s.io/conversion-data` annotation;
//! this does the same for any converter, without code per type:
//!
//! - after converting an object from `X` to `Y`, the result is converted back to `X`; when that
//!   does not give the original's fields (everything but `apiVersion`, `kind`, `metadata`), the
//!   original's fields are stored in the result's annotation [`DATA_ANNOTATION`], as a JSON
//!   object keyed by apiVersion: `{"example.com/v2": {"spec": {...}}}`;
//! - when an object carrying an entry for `Y` is converted to `Y`, the entry is consumed: the
//!   fields are merged three ways, the base being the entry converted `Y -> X -> Y` (what the
//!   conversion would give if nobody had changed the object since), "theirs" the entry and "ours"
//!   the fresh conversion. Where ours equals the base, the stored value comes back; where someone
//!   changed the object at `X`, their change wins. Lists are compared whole.
//!
//! The annotation is written only when something would be lost, and removed when consumed (with
//! the `annotations` map itself when it is left empty: the API server drops empty maps from
//! stored metadata anyway, as `ObjectMeta` omits them).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

/// The annotation holding the fields a conversion could not carry:
/// `{"<apiVersion>": {<fields other than apiVersion, kind, metadata>}}`.
pub const DATA_ANNOTATION: &str = "crdkit.io/conversion-data";

/// The entries of the annotation, by apiVersion.
pub(crate) type Entries = BTreeMap<String, Map<String, Value>>;

/// Removes the annotation `key` from `obj` and returns its entries. A value that does not parse
/// (edited by hand) is dropped: it cannot be merged, and failing every read would be worse.
pub(crate) fn take(obj: &mut Map<String, Value>, key: &str) -> Entries {
    let Some(Value::Object(meta)) = obj.get_mut("metadata") else {
        return Entries::new();
    };
    let Some(Value::Object(annotations)) = meta.get_mut("annotations") else {
        return Entries::new();
    };
    let Some(raw) = annotations.remove(key) else {
        return Entries::new();
    };
    if annotations.is_empty() {
        meta.remove("annotations");
    }
    raw.as_str()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default()
}

/// Writes `entries` into the annotation `key` of `obj` (nothing when there are none).
pub(crate) fn put(obj: &mut Map<String, Value>, key: &str, entries: &Entries) {
    if entries.is_empty() {
        return;
    }
    let text = serde_json::to_string(entries).unwrap_or_default();
    let meta = obj
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        return;
    }
    let annotations = &mut meta["annotations"];
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    annotations[key] = Value::String(text);
}

/// The fields of an object other than `apiVersion`, `kind` and `metadata`.
pub(crate) fn body(obj: &Map<String, Value>) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !matches!(k.as_str(), "apiVersion" | "kind" | "metadata"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Whether two objects have the same fields other than `apiVersion`, `kind` and `metadata`.
pub(crate) fn same_body(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    let fields = |m: &Map<String, Value>| {
        m.keys()
            .filter(|k| !matches!(k.as_str(), "apiVersion" | "kind" | "metadata"))
            .count()
    };
    fields(a) == fields(b)
        && a.iter()
            .filter(|(k, _)| !matches!(k.as_str(), "apiVersion" | "kind" | "metadata"))
            .all(|(k, v)| b.get(k) == Some(v))
}

/// Replaces the body of `ours` with the three-way merge of `base`, `theirs` and `ours`.
pub(crate) fn merge_body(
    ours: &mut Map<String, Value>,
    base: &Map<String, Value>,
    theirs: &Map<String, Value>,
) {
    let mut meta: Vec<(String, Value)> = Vec::new();
    for k in ["apiVersion", "kind", "metadata"] {
        if let Some(v) = ours.remove(k) {
            meta.push((k.to_owned(), v));
        }
    }
    let merged = merge3(
        Some(&Value::Object(body(base))),
        Some(&Value::Object(theirs.clone())),
        Some(Value::Object(std::mem::take(ours))),
    );
    if let Some(Value::Object(m)) = merged {
        *ours = m;
    }
    ours.extend(meta);
}

/// Three-way merge of one value: unchanged since `base` gives `theirs`; objects merge key by
/// key; anything else changed gives `ours`. `None` stands for a missing key.
pub(crate) fn merge3(
    base: Option<&Value>,
    theirs: Option<&Value>,
    ours: Option<Value>,
) -> Option<Value> {
    if ours.as_ref() == base {
        return theirs.cloned();
    }
    match (base, theirs, ours) {
        (Some(Value::Object(b)), Some(Value::Object(t)), Some(Value::Object(mut o))) => {
            let keys: BTreeSet<String> =
                b.keys().chain(t.keys()).chain(o.keys()).cloned().collect();
            let mut out = Map::new();
            for k in keys {
                if let Some(v) = merge3(b.get(&k), t.get(&k), o.remove(&k)) {
                    out.insert(k, v);
                }
            }
            Some(Value::Object(out))
        }
        (_, _, ours) => ours,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!("test objects are objects"),
        }
    }

    #[test]
    fn unchanged_parts_come_back_changed_parts_win() {
        let base = json!({"host": "a", "list": [1]});
        let theirs = json!({"host": "a", "tz": "UTC", "list": [1, 2]});
        // Nothing changed: the stored value whole.
        assert_eq!(
            merge3(Some(&base), Some(&theirs), Some(base.clone())),
            Some(theirs.clone())
        );
        // `host` changed at the other version: the change wins, `tz` and the list come back.
        let ours = json!({"host": "b", "list": [1]});
        assert_eq!(
            merge3(Some(&base), Some(&theirs), Some(ours)),
            Some(json!({"host": "b", "tz": "UTC", "list": [1, 2]}))
        );
        // `host` removed: stays removed.
        let ours = json!({"list": [1]});
        assert_eq!(
            merge3(Some(&base), Some(&theirs), Some(ours)),
            Some(json!({"tz": "UTC", "list": [1, 2]}))
        );
        // A list changed: taken whole.
        let ours = json!({"host": "a", "list": [3]});
        assert_eq!(
            merge3(Some(&base), Some(&theirs), Some(ours)),
            Some(json!({"host": "a", "tz": "UTC", "list": [3]}))
        );
    }

    #[test]
    fn take_and_put_leave_no_trace() {
        let mut obj = m(json!({"metadata": {"name": "a"}, "spec": {}}));
        let before = obj.clone();
        let mut entries = Entries::new();
        entries.insert("example.com/v2".into(), m(json!({"spec": {"tz": "UTC"}})));
        put(&mut obj, DATA_ANNOTATION, &entries);
        assert_eq!(
            obj["metadata"]["annotations"][DATA_ANNOTATION],
            json!(r#"{"example.com/v2":{"spec":{"tz":"UTC"}}}"#)
        );
        assert_eq!(take(&mut obj, DATA_ANNOTATION), entries);
        assert_eq!(obj, before);
        // Other annotations stay; an unreadable value is dropped.
        let mut obj = m(json!({"metadata": {"annotations": {"a": "b", DATA_ANNOTATION: "{"}}}));
        assert!(take(&mut obj, DATA_ANNOTATION).is_empty());
        assert_eq!(obj, m(json!({"metadata": {"annotations": {"a": "b"}}})));
    }

    #[test]
    fn bodies_ignore_type_and_object_meta() {
        let a = m(json!({"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "a"}, "spec": 1}));
        let b = m(json!({"apiVersion": "x/v2", "kind": "K", "spec": 1}));
        assert!(same_body(&a, &b));
        let c = m(json!({"spec": 1, "status": {}}));
        assert!(!same_body(&a, &c));
        assert_eq!(body(&a), m(json!({"spec": 1})));
    }
}
