//! Shared by the tests: the schema of Go's test type `MergeItem` written as OpenAPI v3, and Go's
//! `sortMergeListsByName`, which Go's test harness applies to its YAML cases.

use crdkit_patch::{Limits, LookupPatchMeta, OpenApiPatchMeta, PatchError, strategic_merge_patch};
use serde_json::{Map, Value, json};

/// `MergeItem` and `RetainKeysMergeItem` of patch_test.go, their struct tags as OpenAPI
/// extensions (`patchStrategy:"merge" patchMergeKey:"name"`), as the API server publishes them.
pub fn merge_item_schemas() -> Value {
    let item = json!({"allOf": [{"$ref": "#/components/schemas/io.k8s.test.MergeItem"}]});
    json!({
        "io.k8s.test.MergeItem": {"type": "object", "properties": {
            "name": {"type": "string"},
            "value": {"type": "string"},
            "other": {"type": "string"},
            "mergingList": {"type": "array", "items": item,
                "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"},
            "nonMergingList": {"type": "array", "items": item},
            "mergingIntList": {"type": "array", "items": {"type": "integer", "format": "int32"},
                "x-kubernetes-patch-strategy": "merge"},
            "nonMergingIntList": {"type": "array", "items": {"type": "integer", "format": "int32"}},
            "mergeItemPtr": {"allOf": [{"$ref": "#/components/schemas/io.k8s.test.MergeItem"}],
                "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"},
            "simpleMap": {"type": "object", "additionalProperties": {"type": "string"}},
            "replacingItem": {
                "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"}],
                "x-kubernetes-patch-strategy": "replace"},
            // Go: an anonymous `struct{ Raw []byte }`.
            "jsonItem": {},
            "retainKeysMap": {
                "allOf": [{"$ref": "#/components/schemas/io.k8s.test.RetainKeysMergeItem"}],
                "x-kubernetes-patch-strategy": "retainKeys"},
            "retainKeysMergingList": {"type": "array", "items": item,
                "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge,retainKeys"},
        }},
        "io.k8s.test.RetainKeysMergeItem": {"type": "object", "properties": {
            "name": {"type": "string"},
            "value": {"type": "string"},
            "other": {"type": "string"},
            "simpleMap": {"type": "object", "additionalProperties": {"type": "string"}},
            "mergingIntList": {"type": "array", "items": {"type": "integer", "format": "int32"},
                "x-kubernetes-patch-strategy": "merge"},
            "mergingList": {"type": "array", "items": item,
                "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"},
            "nonMergingList": {"type": "array", "items": item},
        }},
        "io.k8s.apimachinery.pkg.runtime.RawExtension": {"type": "object"},
    })
}

/// The root of [`merge_item_schemas`].
pub fn merge_item(schemas: &Value) -> OpenApiPatchMeta<'_> {
    OpenApiPatchMeta::new(schemas.as_object().unwrap(), "io.k8s.test.MergeItem").unwrap()
}

/// Applies `patch` to `original` (both JSON objects; `null` is `{}`) with default limits.
pub fn apply<S: LookupPatchMeta>(
    original: &Value,
    patch: &Value,
    schema: &S,
) -> Result<Value, PatchError> {
    strategic_merge_patch(object(original), object(patch), schema, Limits::default())
        .map(Value::Object)
}

pub fn object(v: &Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        v => panic!("not an object: {v}"),
    }
}

/// Go's `sortMergeListsByName`: merge lists sorted by merge key (Go's `%v` of it), lists of
/// scalars deduplicated and sorted, recursively, so that Go's YAML cases compare in one order.
pub fn sort_merge_lists<S: LookupPatchMeta>(v: &Value, schema: &S) -> Value {
    let Value::Object(map) = v else {
        return v.clone();
    };
    let mut out = Map::new();
    for (k, v) in map {
        let sorted = if k == "$retainKeys" || k.starts_with("$deleteFromPrimitiveList") {
            Value::Array(sort_scalars(v.as_array().unwrap().clone()))
        } else if k.starts_with("$setElementOrder") || k == "$patch" {
            v.clone()
        } else {
            match v {
                Value::Object(_) => {
                    let (sub, _) = schema.lookup_struct(k).unwrap();
                    sort_merge_lists(v, &sub)
                }
                Value::Array(items) => {
                    let (sub, meta) = schema.lookup_slice(k).unwrap();
                    if meta.strategy().unwrap().1 == "merge" {
                        Value::Array(sort_array(items, &sub, &meta.merge_key))
                    } else {
                        v.clone()
                    }
                }
                v => v.clone(),
            }
        };
        out.insert(k.clone(), sorted);
    }
    Value::Object(out)
}

fn sort_array<S: LookupPatchMeta>(items: &[Value], schema: &S, merge_key: &str) -> Vec<Value> {
    if !items.iter().any(Value::is_object) {
        let mut unique: Vec<Value> = Vec::new();
        for v in items {
            if !unique.contains(v) {
                unique.push(v.clone());
            }
        }
        return sort_scalars(unique);
    }
    let mut out: Vec<Value> = items.iter().map(|v| sort_merge_lists(v, schema)).collect();
    out.sort_by_key(|v| go_v(&v[merge_key]));
    out
}

fn sort_scalars(mut items: Vec<Value>) -> Vec<Value> {
    items.sort_by_key(go_v);
    items
}

/// Go's `%v` of a scalar.
fn go_v(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}
