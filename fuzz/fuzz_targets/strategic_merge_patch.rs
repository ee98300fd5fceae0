//! Strategic merge patch of any JSON never panics nor runs away: the input is a stream of two
//! JSON values, the object and the patch, applied with Go's test type `MergeItem` and with the
//! published schema of a Deployment. Also checked: an empty patch changes nothing, the outcome
//! does not depend on the run, and every error has an HTTP answer.
#![no_main]

use crdkit_patch::{Limits, LookupPatchMeta, OpenApiPatchMeta, strategic_merge_patch};
use serde_json::{Map, Value, json};

fn check<S: LookupPatchMeta>(object: &Map<String, Value>, patch: &Map<String, Value>, schema: &S) {
    let limits = Limits::default();
    let once = strategic_merge_patch(object.clone(), patch.clone(), schema, limits);
    let again = strategic_merge_patch(object.clone(), patch.clone(), schema, limits);
    assert_eq!(once, again);
    if let Err(e) = &once {
        assert!(matches!(e.code(), 400 | 422 | 500));
        assert_eq!(e.status().is_none(), e.is_panic());
    }
    let unchanged = strategic_merge_patch(object.clone(), Map::new(), schema, limits);
    assert_eq!(unchanged.as_ref().ok(), Some(object));
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut values = serde_json::Deserializer::from_slice(data).into_iter::<Value>();
    let (Some(Ok(Value::Object(object))), Some(Ok(Value::Object(patch)))) = (values.next(), values.next()) else {
        return;
    };
    let item = json!({"allOf": [{"$ref": "#/components/schemas/MergeItem"}]});
    let merge_item = json!({"MergeItem": {"type": "object", "properties": {
        "name": {"type": "string"}, "value": {"type": "string"},
        "mergingList": {"type": "array", "items": item,
            "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"},
        "nonMergingList": {"type": "array", "items": item},
        "mergingIntList": {"type": "array", "items": {"type": "integer"}, "x-kubernetes-patch-strategy": "merge"},
        "mergeItemPtr": {"allOf": [{"$ref": "#/components/schemas/MergeItem"}],
            "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"},
        "simpleMap": {"type": "object", "additionalProperties": {"type": "string"}},
        "replacingItem": {"type": "object", "x-kubernetes-patch-strategy": "replace"},
        "retainKeysMergingList": {"type": "array", "items": item,
            "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge,retainKeys"},
    }}});
    check(&object, &patch, &OpenApiPatchMeta::new(merge_item.as_object().unwrap(), "MergeItem").unwrap());
    static KUBERNETES: &str = include_str!("../../crates/patch/tests/data/kubernetes-apps-v1.json");
    let kubernetes: Value = serde_json::from_str(KUBERNETES).unwrap();
    let deployment = OpenApiPatchMeta::new(kubernetes.as_object().unwrap(), "io.k8s.api.apps.v1.Deployment").unwrap();
    check(&object, &patch, &deployment);
});
