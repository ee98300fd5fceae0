//! What the API server checks and restores in each object a conversion webhook returns.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/webhook_converter.go`:
//! `validateConvertedObject` (kind, `metadata.name`, `metadata.namespace` and `metadata.uid`
//! must not change) and `restoreObjectMeta` (the rest of `metadata` is put back from the
//! original; `labels` and `annotations` are taken from the converted object, and validated as
//! labels and annotations when they changed). The messages are Go's, so that a webhook built
//! here fails with the words the API server would have used.

use serde_json::{Map, Value};

use crdkit_apimachinery::field::{FieldError, FieldPath, aggregate};
use crdkit_apimachinery::gofmt;
use crdkit_apimachinery::names;

/// The bytes all annotations may take together (apimachinery `TotalAnnotationSizeLimitB`).
const ANNOTATIONS_MAX: usize = 256 * 1024;

/// `u.GetKind()`, `u.GetName()`, ...: a string at `path`, `""` when missing or not a string.
fn nested_str<'a>(obj: &'a Map<String, Value>, path: &[&str]) -> &'a str {
    let mut cur = obj;
    for (i, k) in path.iter().enumerate() {
        match cur.get(*k) {
            Some(Value::String(s)) if i + 1 == path.len() => return s,
            Some(Value::Object(m)) => cur = m,
            _ => return "",
        }
    }
    ""
}

/// `validateConvertedObject`: kind, name, namespace and uid are those of the original.
///
/// # Errors
/// `must have the same name: local-crontab != other` and the like.
pub fn validate_converted_object(
    original: &Map<String, Value>,
    converted: &Map<String, Value>,
) -> Result<(), String> {
    let checks: [(&str, &[&str]); 4] = [
        ("kind", &["kind"]),
        ("name", &["metadata", "name"]),
        ("namespace", &["metadata", "namespace"]),
        ("UID", &["metadata", "uid"]),
    ];
    for (what, path) in checks {
        let (e, a) = (nested_str(original, path), nested_str(converted, path));
        if e != a {
            return Err(format!("must have the same {what}: {e} != {a}"));
        }
    }
    Ok(())
}

/// `restoreObjectMeta`: `metadata` of `converted` becomes a copy of the original's, with the
/// converted object's `labels` and `annotations` (missing or `null` ones removed).
///
/// # Errors
/// Go's messages: `missing metadata in converted object`, `invalid metadata.labels of type
/// string in converted object`, `metadata.annotations[a] must be a string, but is int64 in
/// converted object`, or the label and annotation validation errors (aggregated).
pub fn restore_object_meta(
    original: &Map<String, Value>,
    converted: &mut Map<String, Value>,
) -> Result<(), String> {
    let response_meta = match converted.get("metadata") {
        None => return Err("missing metadata in converted object".to_owned()),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in converted object",
                gofmt::type_name(other)
            ));
        }
    };
    let mut meta = match original.get("metadata") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in input object",
                gofmt::type_name(other)
            ));
        }
    };
    for field in ["labels", "annotations"] {
        let response_field = match response_meta.get(field) {
            None | Some(Value::Null) => {
                meta.remove(field);
                continue;
            }
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(format!(
                    "invalid metadata.{field} of type {} in converted object",
                    gofmt::type_name(other)
                ));
            }
        };
        let original_field = match meta.get(field) {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                return Err(format!(
                    "invalid metadata.{field} of type {} in original object",
                    gofmt::type_name(other)
                ));
            }
        };
        let mut changed = original_field.map_or(0, Map::len) != response_field.len();
        for (k, v) in response_field {
            if !v.is_string() {
                return Err(format!(
                    "metadata.{field}[{k}] must be a string, but is {} in converted object",
                    gofmt::type_name(v)
                ));
            }
            if original_field.and_then(|m| m.get(k)) != Some(v) {
                changed = true;
            }
        }
        if changed {
            let errs = if field == "labels" {
                validate_labels(response_field)
            } else {
                validate_annotations(response_field)
            };
            if !errs.is_empty() {
                return Err(aggregate(&errs));
            }
        }
        meta.insert(field.to_owned(), Value::Object(response_field.clone()));
    }
    converted.insert("metadata".to_owned(), Value::Object(meta));
    Ok(())
}

/// apimachinery `metav1validation.ValidateLabels` at `metadata.labels`.
fn validate_labels(labels: &Map<String, Value>) -> Vec<FieldError> {
    let path = FieldPath::new("metadata").child("labels");
    let mut errs = Vec::new();
    for (k, v) in labels {
        for msg in names::label_key(k) {
            errs.push(FieldError::invalid(&path, k.as_str(), msg));
        }
        let v = v.as_str().unwrap_or("");
        for msg in names::label_value(v) {
            errs.push(FieldError::invalid(&path, v, msg));
        }
    }
    errs
}

/// apimachinery `apivalidation.ValidateAnnotations`, at the path the webhook converter passes
/// it: `metadata.annotation` (singular, as in Go).
fn validate_annotations(annotations: &Map<String, Value>) -> Vec<FieldError> {
    let path = FieldPath::new("metadata").child("annotation");
    let mut errs = Vec::new();
    let mut size = 0usize;
    for (k, v) in annotations {
        for msg in names::label_key(&k.to_lowercase()) {
            errs.push(FieldError::invalid(&path, k.as_str(), msg));
        }
        size += k.len() + v.as_str().map_or(0, str::len);
    }
    if size > ANNOTATIONS_MAX {
        errs.push(FieldError::too_long(&path, 256 * 1024));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!("test objects are objects"),
        }
    }

    fn original() -> Map<String, Value> {
        obj(json!({
            "kind": "CronTab", "apiVersion": "example.com/v1beta1",
            "metadata": {"name": "a", "namespace": "default", "uid": "u1", "resourceVersion": "143",
                         "labels": {"app": "x"}}
        }))
    }

    #[test]
    fn identity_fields_must_not_change() {
        let o = original();
        for (field, value, want) in [
            (
                "kind",
                json!("Other"),
                "must have the same kind: CronTab != Other",
            ),
            ("name", json!("b"), "must have the same name: a != b"),
            (
                "namespace",
                json!("kube-system"),
                "must have the same namespace: default != kube-system",
            ),
            ("uid", json!("u2"), "must have the same UID: u1 != u2"),
        ] {
            let mut c = o.clone();
            if field == "kind" {
                c.insert("kind".into(), value);
            } else {
                c["metadata"][field] = value;
            }
            assert_eq!(validate_converted_object(&o, &c).unwrap_err(), want);
        }
        assert_eq!(validate_converted_object(&o, &o), Ok(()));
    }

    #[test]
    fn other_metadata_is_restored_labels_and_annotations_kept() {
        let o = original();
        let mut c = obj(json!({
            "kind": "CronTab", "apiVersion": "example.com/v1",
            "metadata": {"name": "a", "namespace": "default", "uid": "u1", "resourceVersion": "999",
                         "generation": 7, "labels": {"app": "y"}, "annotations": {"note": "n"}}
        }));
        restore_object_meta(&o, &mut c).unwrap();
        assert_eq!(
            c["metadata"],
            json!({"name": "a", "namespace": "default", "uid": "u1", "resourceVersion": "143",
                   "labels": {"app": "y"}, "annotations": {"note": "n"}})
        );
        // Labels missing from the answer are removed.
        let mut c = obj(json!({"metadata": {}}));
        restore_object_meta(&o, &mut c).unwrap();
        assert!(c["metadata"].get("labels").is_none());
    }

    #[test]
    fn malformed_metadata_is_reported_in_go_words() {
        let o = original();
        let cases = [
            (json!({}), "missing metadata in converted object"),
            (
                json!({"metadata": "x"}),
                "invalid metadata of type string in converted object",
            ),
            (
                json!({"metadata": {"labels": []}}),
                "invalid metadata.labels of type []interface {} in converted object",
            ),
            (
                json!({"metadata": {"annotations": {"a": 1}}}),
                "metadata.annotations[a] must be a string, but is int64 in converted object",
            ),
        ];
        for (c, want) in cases {
            let mut c = obj(c);
            assert_eq!(restore_object_meta(&o, &mut c).unwrap_err(), want);
        }
    }

    #[test]
    fn changed_labels_and_annotations_are_validated() {
        let o = original();
        let mut c = obj(json!({"metadata": {"labels": {"app": "-bad"}}}));
        let err = restore_object_meta(&o, &mut c).unwrap_err();
        assert!(
            err.starts_with("metadata.labels: Invalid value: \"-bad\": a valid label must be"),
            "{err}"
        );
        let mut c = obj(json!({"metadata": {"annotations": {"a/b/c": "x"}}}));
        let err = restore_object_meta(&o, &mut c).unwrap_err();
        assert!(
            err.starts_with("metadata.annotation: Invalid value: \"a/b/c\""),
            "{err}"
        );
        let big = "x".repeat(ANNOTATIONS_MAX);
        let mut c = obj(json!({"metadata": {"annotations": {"a": big}}}));
        assert_eq!(
            restore_object_meta(&o, &mut c).unwrap_err(),
            "metadata.annotation: Too long: may not be more than 262144 bytes"
        );
        // Unchanged labels are not validated again (the original's are taken as they are).
        let o = obj(json!({"metadata": {"labels": {"app": "-bad"}}}));
        let mut c = o.clone();
        assert_eq!(restore_object_meta(&o, &mut c), Ok(()));
    }
}
