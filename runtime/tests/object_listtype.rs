//! `x-kubernetes-list-type` set/map uniqueness, cases from apiextensions-apiserver
//! `pkg/apiserver/schema/listtype/validation_test.go` (paths from `field.NewPath("root")`).

#[path = "object_common.rs"]
mod common;

use common::schema;
use crdkit_runtime::field::FieldPath;
use crdkit_runtime::validate::list_type::validate_list_sets_and_maps;
use serde_json::{Value, json};

fn errs(s: Value, obj: Value) -> Vec<String> {
    validate_list_sets_and_maps(&FieldPath::new("root"), &schema(s), &obj)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn set_schema() -> Value {
    json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}})
}

#[test]
fn sets() {
    assert!(errs(set_schema(), json!({"array": ["a", "b"]})).is_empty());
    assert_eq!(
        errs(set_schema(), json!({"array": ["a", "a"]})),
        [r#"root.array[1]: Duplicate value: "a""#]
    );
    assert_eq!(
        errs(
            set_schema(),
            json!({"array": ["a", "a", "b", "c", "d", "c"]})
        ),
        [
            r#"root.array[1]: Duplicate value: "a""#,
            r#"root.array[5]: Duplicate value: "c""#
        ]
    );
    assert_eq!(
        errs(set_schema(), json!({"array": ["a", "b", "a"]})),
        [r#"root.array[2]: Duplicate value: "a""#]
    );
    let normal = json!({"type": "object", "properties": {"array": {"type": "array", "items": {"type": "string"}}}});
    assert!(errs(normal, json!({"array": ["a", "b", "a"]})).is_empty());
    let ap = json!({"type": "object", "additionalProperties": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}});
    assert_eq!(
        errs(ap, json!({"array": ["a", "b", "a"]})),
        [r#"root[array][2]: Duplicate value: "a""#]
    );
    let nested = json!({"type": "object", "properties": {"array": {"type": "array", "items": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}});
    assert_eq!(
        errs(nested, json!({"array": [["a", "b", "a"], ["b", "b", "a"]]})),
        [
            r#"root.array[0][2]: Duplicate value: "a""#,
            r#"root.array[1][1]: Duplicate value: "b""#
        ]
    );
    // Compound items compare by their JSON; integers and floats are different scalars.
    let any = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "set",
        "items": {"x-kubernetes-preserve-unknown-fields": true}}}});
    assert_eq!(
        errs(
            any.clone(),
            json!({"array": [{"a": 1, "b": [1]}, {"b": [1], "a": 1}]})
        ),
        [r#"root.array[1]: Duplicate value: {"a":1,"b":[1]}"#]
    );
    assert!(errs(any, json!({"array": [1, 1.5, "1", null, true]})).is_empty());
}

#[test]
fn maps() {
    let one = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}}}});
    assert!(
        errs(
            one.clone(),
            json!({"array": [{"k": "a", "v": 1}, {"k": "b", "v": 1}]})
        )
        .is_empty()
    );
    assert_eq!(
        errs(
            one.clone(),
            json!({"array": [{"k": "a", "v": 1}, {"k": "a", "v": 2}]})
        ),
        [r#"root.array[1]: Duplicate value: {"k":"a"}"#]
    );
    assert_eq!(
        errs(one.clone(), json!({"array": [{"v": 1}, {"v": 2}]})),
        ["root.array[1]: Duplicate value: {}"]
    );
    assert_eq!(
        errs(one.clone(), json!({"array": [null, {"v": 2}]})),
        ["root.array[1]: Duplicate value: {}"]
    );
    assert_eq!(
        errs(one, json!({"array": [{"k": "a"}, "x"]})),
        [r#"root.array[1]: Invalid value: "x": must be an object for an array of list-type map"#]
    );
    let two = json!({"type": "object", "properties": {"array": {"type": "array", "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k1", "k2"], "items": {"type": "object", "properties": {"k1": {"type": "string"}, "k2": {"type": "integer"}}}}}});
    assert!(
        errs(
            two.clone(),
            json!({"array": [{"k1": "a", "k2": 1}, {"k1": "a", "k2": 2}]})
        )
        .is_empty()
    );
    assert_eq!(
        errs(
            two,
            json!({"array": [{"k1": "a", "k2": 1}, {"k1": "a", "k2": 1, "x": 0}, {"k1": "a", "k2": 1}]})
        ),
        [r#"root.array[1]: Duplicate value: {"k1":"a","k2":1}"#]
    );
}
