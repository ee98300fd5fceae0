//! What the custom resource registry checks besides the schema, from apiextensions-apiserver
//! `pkg/registry/customresource/validator.go` (`ValidateScaleSpec`, `ValidateScaleStatus`),
//! on create and on update; and its `validator_test.go` `TestValidateCustomResourceName`.
//! (`TestGetObjectMeta` there is the decoding of `metadata`, covered by `object_meta.rs`.)

use crate::common;

use common::compiled;
use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
use crdkit_schema::crd::CustomResourceSubresourceScale;
use serde_json::{Value, json};

fn schema() -> CompiledSchema {
    compiled(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})).with_scale(
        Some(CustomResourceSubresourceScale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: Some(".status.selector".into()),
        }),
    )
}

fn errs(obj: &Value) -> Vec<String> {
    let mut obj = obj.clone();
    obj["metadata"] = json!({"name": "a"});
    let s = schema();
    let create: Vec<String> = s.validate(&obj).iter().map(ToString::to_string).collect();
    let update: Vec<String> = s
        .validate_update(&obj, &obj)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(create, update, "{obj}");
    create
}

#[test]
fn scale_paths() {
    assert!(errs(&json!({})).is_empty());
    assert!(errs(&json!({"spec": null, "status": {"replicas": 0, "selector": "a=b"}})).is_empty());
    assert!(errs(&json!({"spec": {"replicas": 2_147_483_647}})).is_empty());
    assert_eq!(
        errs(&json!({"spec": {"replicas": -1}, "status": {"replicas": 2_147_483_648_i64}})),
        [
            ".spec.replicas: Invalid value: -1: should be a non-negative integer",
            ".status.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647",
        ]
    );
    assert_eq!(
        errs(&json!({"spec": {"replicas": "3"}, "status": {"replicas": 1.5}})),
        [
            ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64",
            ".status.replicas: Invalid value: 0: .status.replicas accessor error: 1.5 is of the type float64, expected int64",
        ]
    );
    assert_eq!(
        errs(&json!({"spec": "x", "status": {"selector": {"a": [1, true]}}})),
        [
            r".spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface{}",
            r#".status.selector: Invalid value: "": .status.selector accessor error: map[a:[1 true]] is of the type map[string]interface {}, expected string"#,
        ]
    );
}

/// `TestValidateCustomResourceName`: the DNS-1123 subdomain rule on `metadata.name` holds
/// whatever the schema says of the name, the schema's own rule holds too, and the length bound
/// CEL assumes for `generateName` (252) is no value constraint.
#[test]
fn custom_resource_name() {
    let s = compiled(
        json!({"type": "object", "properties": {"metadata": {"type": "object",
        "properties": {"name": {"type": "string", "pattern": "^[A-Za-z]+$"}}}}}),
    )
    .with_resource(ResourceInfo {
        api_version: "example.com/v1".into(),
        kind: "Foo".into(),
        namespaced: Some(false),
    });
    let cases = [
        (json!({"name": "foo"}), ""),
        (json!({"name": "Foo"}), "RFC 1123 subdomain"),
        (json!({"name": "foo123"}), "should match"),
        (json!({"name": "foo", "generateName": "a".repeat(253)}), ""),
    ];
    for (meta, want) in cases {
        let obj = json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": meta});
        let got = crdkit_apimachinery::field::aggregate(&s.validate(&obj));
        if want.is_empty() {
            assert!(got.is_empty(), "{meta}: {got}");
        } else {
            assert!(got.contains(want), "{meta}: {got}");
        }
    }
}
