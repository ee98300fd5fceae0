//! ObjectMeta coercion: what decoding `metadata` into Go's `metav1.ObjectMeta` and back does.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/objectmeta/coerce.go`
//! (`GetObjectMetaWithOptions`, `SetObjectMeta`) and `algorithm.go` (`CoerceWithOptions`): the
//! API server round-trips the root `metadata` (in `unstructuredSchemaCoercer.apply`) and that of
//! every `x-kubernetes-embedded-resource` (in `Coerce`) through the typed struct, so unknown
//! fields inside `metadata` disappear even under `x-kubernetes-preserve-unknown-fields`, empty
//! fields are dropped (`omitempty`), timestamps are rewritten as RFC 3339 UTC seconds, and a field
//! of the wrong type is an error (`json: cannot unmarshal number into Go struct field
//! ObjectMeta.name of type string`) — or, with `drop_invalid`, silently dropped.
//!
//! The round trip changes nothing in `metadata` that is already in its decoded form
//! (`is_decoded`); callers skip it then, which spares the copy.
//!
//! What differs from Go: a zero `creationTimestamp` is dropped at the root too (the API server
//! keeps `null` there until it sets the creation time).

mod coerce;
mod decode;

use serde_json::{Map, Value};

use self::decode::{DecodeError, decode, json_kind, sorted};
use crdkit_apimachinery::field::FieldPath;
use crdkit_apimachinery::gofmt;

pub use self::coerce::coerce;
pub(crate) use self::coerce::coerce_with;

/// What decoding `metadata` gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMeta {
    /// `metadata` as `ToUnstructured` writes it back.
    pub value: Map<String, Value>,
    /// Paths of the fields `metav1.ObjectMeta` does not have (`metadata.foo`).
    pub unknown_fields: Vec<String>,
}

/// Why `metadata` does not decode as `metav1.ObjectMeta`: Go's `encoding/json` message
/// (`json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectMetaError {
    /// Go's decoding message.
    pub message: String,
}

impl std::fmt::Display for ObjectMetaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ObjectMetaError {}

impl From<String> for ObjectMetaError {
    fn from(message: String) -> ObjectMetaError {
        ObjectMetaError { message }
    }
}

/// Decodes `metadata` as `GetObjectMetaWithOptions` does. `parent` is the path of the object
/// holding it (nil at the root). Errors are Go's decoding messages.
///
/// # Errors
/// The first field of the wrong type (unless `drop_invalid`), or a non-object `metadata`.
pub fn get_object_meta(
    metadata: &Value,
    parent: &FieldPath,
    drop_invalid: bool,
) -> Result<ObjectMeta, ObjectMetaError> {
    let Value::Object(map) = metadata else {
        if metadata.is_null() {
            return Ok(ObjectMeta::default());
        }
        let err = format!(
            "json: cannot unmarshal {} into Go value of type v1.ObjectMeta",
            json_kind(metadata)
        );
        if drop_invalid {
            return Err(ObjectMetaError::from(format!(
                "invalid metadata: expected object, got {}",
                gofmt::type_name(metadata)
            )));
        }
        return Err(err.into());
    };
    let mut out = ObjectMeta::default();
    let mut first_err = None;
    for (k, v) in sorted(map) {
        let Some(kind) = decode::kind_of(k) else {
            let prefix = parent.child("metadata");
            out.unknown_fields.push(format!("{prefix}.{k}"));
            continue;
        };
        match decode(kind, v, "ObjectMeta", k) {
            Ok(Some(x)) => {
                out.value.insert(k.clone(), x);
            }
            Ok(None) => {}
            Err(DecodeError::Fatal(e)) if !drop_invalid => return Err(e.into()),
            Err(DecodeError::Saved(e)) if !drop_invalid => {
                first_err.get_or_insert(e);
            }
            Err(_) => {}
        }
    }
    match first_err {
        Some(e) => Err(e.into()),
        None => Ok(out),
    }
}

/// Decodes field `name` of `metadata` on its own as [`get_object_meta`] does: `Ok(None)` when
/// it is left out (empty, or unknown).
pub(crate) fn decode_field(name: &str, v: &Value) -> Result<Option<Value>, String> {
    let Some(kind) = decode::kind_of(name) else {
        return Ok(None);
    };
    decode(kind, v, "ObjectMeta", name).map_err(|(DecodeError::Saved(e) | DecodeError::Fatal(e))| e)
}

/// Whether `metadata` is already what [`get_object_meta`] makes of it: an object with only known,
/// non-empty fields of the right types, in order, timestamps in RFC 3339 UTC seconds. Decoding
/// it then succeeds, reports no unknown field and gives it back unchanged. Owner references and
/// managed fields are never taken as decoded (their entries are rebuilt).
pub(crate) fn is_decoded(metadata: &Value) -> bool {
    let Value::Object(map) = metadata else {
        return false;
    };
    let mut prev: Option<&str> = None;
    map.iter().all(|(k, v)| {
        let in_order = prev.is_none_or(|p| p < k.as_str());
        prev = Some(k);
        in_order && is_decoded_field(k, v)
    })
}

/// Whether field `k` of `metadata` is known and `v` in its decoded form (see [`is_decoded`]).
pub(crate) fn is_decoded_field(k: &str, v: &Value) -> bool {
    decode::kind_of(k).is_some_and(|kind| decode::is_decoded(kind, v))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn decoded_forms() {
        let decoded = [
            json!({"name": "a", "labels": {"app": "x", "tier": ""}}),
            json!({"creationTimestamp": "2017-05-31T12:56:35Z", "generation": 2}),
            json!({"deletionGracePeriodSeconds": 0, "finalizers": ["a/b"], "uid": "u"}),
            json!({}),
            json!({"ownerReferences": [
                {"apiVersion": "v1", "kind": "ConfigMap", "name": "a", "uid": "u"},
                {"apiVersion": "", "blockOwnerDeletion": false, "controller": true, "kind": "", "name": "", "uid": ""},
            ]}),
            json!({"managedFields": [
                {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}},
                    "manager": "m", "operation": "Update", "time": "2017-05-31T12:56:35Z"},
                {"manager": "m", "subresource": "status"},
                {},
            ]}),
        ];
        let not_decoded = [
            Value::Null,
            json!({"name": "a", "namespace": ""}),
            json!({"creationTimestamp": "2017-05-31T14:56:35+02:00"}),
            json!({"creationTimestamp": "2017-05-31T12:56:35.5Z"}),
            json!({"generation": 1.0}),
            json!({"generation": 0}),
            json!({"labels": {}}),
            json!({"labels": {"a": null}}),
            json!({"finalizers": []}),
            json!({"ownerReferences": []}),
            json!({"name": 1}),
            json!({"bogus": "x"}),
            json!({"ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "a"}]}),
            json!({"ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "a", "uid": "u", "x": 1}]}),
            json!({"ownerReferences": [{"apiVersion": "v1", "controller": null, "kind": "K", "name": "a", "uid": "u"}]}),
            json!({"ownerReferences": [null]}),
            json!({"managedFields": []}),
            json!({"managedFields": [{"manager": ""}]}),
            json!({"managedFields": [{"manager": "m", "fieldsV1": null}]}),
            json!({"managedFields": [{"manager": "m", "time": "2017-05-31T14:56:35+02:00"}]}),
            json!({"managedFields": [{"manager": "m", "bogus": "x"}]}),
            json!({"managedFields": [{"manager": 1}]}),
        ];
        for m in decoded {
            assert!(is_decoded(&m), "{m}");
            let got = get_object_meta(&m, &FieldPath::nil(), false).unwrap();
            assert_eq!(Value::Object(got.value), m);
            assert!(got.unknown_fields.is_empty());
        }
        for m in not_decoded {
            assert!(!is_decoded(&m), "{m}");
            // Each is one that decoding changes, refuses or reports an unknown field of.
            if let Ok(got) = get_object_meta(&m, &FieldPath::nil(), false) {
                assert!(
                    Value::Object(got.value) != m || !got.unknown_fields.is_empty(),
                    "{m}"
                );
            }
        }
    }
}
