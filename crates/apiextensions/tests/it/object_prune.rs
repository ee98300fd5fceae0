//! Pruning and defaulting, transcribed from apiextensions-apiserver
//! `pkg/apiserver/schema/pruning/algorithm_test.go` (`TestPrune`),
//! `defaulting/algorithm_test.go` (`TestDefault`) and `defaulting/prunenulls_test.go`; and the
//! decoding of a created object end to end (`CompiledSchema::prune_and_default`) from
//! `test/integration/defaulting_test.go` `TestCustomResourceDefaultingOfMetaFields`, in
//! `data/defaulting_meta_fields.json`.

use crate::common;

use common::{compiled, schema};
use crdkit_apiextensions::default::{apply_defaults, prune_non_nullable_nulls_without_defaults};
use crdkit_apiextensions::prune::{PruneOptions, prune};
use crdkit_schema::Structural;
use serde_json::{Value, json};

fn parse(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

fn prune_case(name: &str, input: &str, s: Option<Value>, root: bool, want: &str, pruned: &[&str]) {
    let s = s.map_or_else(Structural::default, schema);
    let mut v = parse(input);
    let got = prune(&mut v, &s, root, &PruneOptions::warnings());
    assert_eq!(v, parse(want), "{name}");
    assert_eq!(got, pruned, "{name}");
    // Go then prunes again without tracking: the same object, nothing returned.
    let mut again = parse(input);
    let silent = prune(&mut again, &s, root, &PruneOptions::silent());
    assert_eq!(again, parse(want), "{name} (silent)");
    assert!(silent.is_empty(), "{name} (silent)");
}

#[test]
fn prune_table() {
    prune_case("empty", "null", None, false, "null", &[]);
    prune_case("scalar", "4", Some(json!({})), false, "4", &[]);
    prune_case(
        "scalar array",
        "[1,2]",
        Some(json!({"items": {}})),
        false,
        "[1,2]",
        &[],
    );
    prune_case(
        "object array",
        r#"[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]"#,
        Some(json!({"items": {"properties": {"a": {}, "c": {}}}})),
        false,
        r#"[{"a":1},{},{"a":1,"c":3}]"#,
        &["[1].b", "[2].b"],
    );
    prune_case(
        "object array object",
        r#"{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}"#,
        Some(json!({"properties": {
            "array": {"items": {"properties": {"a": {}, "c": {}}}},
            "specified": {"properties": {"a": {}, "c": {}}}}})),
        false,
        r#"{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}"#,
        &["array[1].b", "array[2].b", "specified.b", "unspecified"],
    );
    prune_case(
        "nested x-kubernetes-preserve-unknown-fields",
        r#"{
          "unspecified":"bar", "alpha": "abc", "beta": 42.0, "unspecifiedObject": {"unspecified": "bar"},
          "pruning": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"}, "pruning": {"unspecified": "bar"},
             "apiVersion": "unknown", "preserving": {"unspecified": "bar"}},
          "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"}, "pruning": {"unspecified": "bar"},
             "preserving": {"unspecified": "bar"}, "preservingUnknownType": [{"foo":true},{"bar":true}]},
          "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {"foo": {"specified": {"unspecified":"bar"}, "unspecified": "bar"}},
          "preservingAdditionalPropertiesKeyPruneValues": {"foo": {"specified": {"unspecified":"bar"}, "unspecified": "bar"}}
        }"#,
        Some(
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
            "alpha": {"type": "string"},
            "beta": {"type": "number"},
            "pruning": {"type": "object", "properties": {
                "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "pruning": {"type": "object"}}},
            "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
                "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "preservingUnknownType": {"x-kubernetes-preserve-unknown-fields": true},
                "pruning": {"type": "object"}}},
            "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {
                "type": "object", "x-kubernetes-preserve-unknown-fields": true,
                "additionalProperties": {"type": "object", "properties": {"specified": {"type": "object"}}}},
            "preservingAdditionalPropertiesKeyPruneValues": {"type": "object",
                "additionalProperties": {"type": "object", "properties": {"specified": {"type": "object"}}}}}}),
        ),
        false,
        r#"{
          "unspecified":"bar", "alpha": "abc", "beta": 42.0, "unspecifiedObject": {"unspecified": "bar"},
          "pruning": {"pruning": {}, "preserving": {"unspecified": "bar"}},
          "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"}, "pruning": {},
             "preserving": {"unspecified": "bar"}, "preservingUnknownType": [{"foo":true},{"bar":true}]},
          "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {"foo": {"specified": {}}},
          "preservingAdditionalPropertiesKeyPruneValues": {"foo": {"specified": {}}}
        }"#,
        &[
            "preserving.pruning.unspecified",
            "preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified",
            "preservingAdditionalPropertiesKeyPruneValues.foo.unspecified",
            "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified",
            "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified",
            "pruning.apiVersion",
            "pruning.pruning.unspecified",
            "pruning.unspecified",
            "pruning.unspecifiedObject",
        ],
    );
    prune_case(
        "additionalProperties with schema",
        r#"{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}"#,
        Some(json!({"properties": {"a": {}, "c": {"additionalProperties": {"type": "integer"}}}})),
        false,
        r#"{"a":1,"c":{"a":1,"b":2,"c":{}}}"#,
        &["b", "c.c.a"],
    );
    prune_case(
        "x-kubernetes-embedded-resource at the root",
        r#"{"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "instance", "unspecified": "bar"}, "unspecified": "bar",
            "pruned": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}},
            "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}}}"#,
        Some(json!({"type": "object", "properties": {
            "pruned": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}},
            "preserving": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}})),
        true,
        r#"{"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "instance", "unspecified": "bar"},
            "pruned": {"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {}},
            "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", "metadata": {"name": "instance", "unspecified": "bar"}, "spec": {"unspecified": "bar"}}}"#,
        &[
            "pruned.spec.unspecified",
            "pruned.unspecified",
            "unspecified",
        ],
    );
    prune_case(
        "object array with nil schema",
        r#"[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]"#,
        None,
        false,
        "[{},{},{}]",
        &["[0].a", "[1].b", "[2].a", "[2].b", "[2].c"],
    );
    prune_case(
        "additionalProperties with bool",
        r#"{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1, "apiVersion": "unknown"}}}"#,
        Some(json!({"properties": {"a": {}, "c": {"additionalProperties": false}}})),
        false,
        r#"{"a":1,"c":{"a":1,"b":2,"c":{}}}"#,
        &["b", "c.c.a", "c.c.apiVersion"],
    );
    let embedded_meta = |extra: Value| {
        let mut m = json!({"name": "instance", "unspecified": "bar"});
        for (k, v) in extra.as_object().unwrap() {
            m[k] = v.clone();
        }
        m
    };
    for (root, extra) in [
        (false, json!({})),
        (true, json!({"namespace": "myns", "labels": {"foo": "bar"}})),
    ] {
        let meta = embedded_meta(extra);
        let leaf = json!({"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar",
            "metadata": meta, "spec": {"unspecified": "bar"}});
        let mut nested = leaf.clone();
        nested["spec"]["embedded"] = leaf.clone();
        let input = json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": meta,
            "unspecified": "bar", "pruned": leaf, "preserving": leaf, "nested": nested});
        let pruned_leaf =
            json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": meta, "spec": {}});
        let mut want = json!({"pruned": pruned_leaf, "preserving": leaf,
            "nested": {"apiVersion": "foo/v1", "kind": "Foo", "metadata": meta,
                "spec": {"embedded": pruned_leaf}}});
        let obj = |props: Value| {
            let mut o = json!({"type": "object"});
            if !props.is_null() {
                o["properties"] = props;
            }
            o
        };
        let mut embedded = obj(json!({"spec": obj(Value::Null)}));
        embedded["x-kubernetes-embedded-resource"] = json!(true);
        let mut props = json!({
            "pruned": embedded.clone(),
            "preserving": {"type": "object", "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true},
            "nested": {"type": "object", "x-kubernetes-embedded-resource": true,
                "properties": {"spec": obj(json!({"embedded": embedded}))}}});
        if root {
            // The root keeps its apiVersion, kind and metadata; the Go case also declares
            // `metadata` at the root and in `pruned` and `nested.spec.embedded`.
            for (k, v) in [("apiVersion", "foo/v1"), ("kind", "Foo")] {
                want[k] = json!(v);
            }
            want["metadata"] = meta.clone();
            props["metadata"] = obj(Value::Null);
            props["pruned"]["properties"]["metadata"] = obj(Value::Null);
            props["nested"]["properties"]["spec"]["properties"]["embedded"]["properties"]["metadata"] =
                obj(Value::Null);
        }
        prune_case(
            &format!("x-kubernetes-embedded-resource, root={root}"),
            &input.to_string(),
            Some(obj(props)),
            root,
            &want.to_string(),
            &[
                "nested.spec.embedded.spec.unspecified",
                "nested.spec.embedded.unspecified",
                "nested.spec.unspecified",
                "nested.unspecified",
                "pruned.spec.unspecified",
                "pruned.unspecified",
                "unspecified",
            ],
        );
    }
    prune_case(
        "meta fields below the root are pruned and reported",
        r#"{"x": {"apiVersion": "v1", "kind": "K", "metadata": {}}}"#,
        Some(json!({"type": "object", "properties": {"x": {"type": "object"}}})),
        true,
        r#"{"x": {}}"#,
        &["x.apiVersion", "x.kind", "x.metadata"],
    );
}

fn default_case(name: &str, input: &str, s: Option<Value>, want: &str) {
    let s = s.map_or_else(Structural::default, schema);
    let mut v = parse(input);
    apply_defaults(&mut v, &s);
    assert_eq!(v, parse(want), "{name}");
}

#[test]
fn default_table() {
    default_case("empty", "null", None, "null");
    default_case("scalar", "4", Some(json!({"default": "foo"})), "4");
    default_case(
        "scalar array",
        "[1,2]",
        Some(json!({"items": {"default": "foo"}})),
        "[1,2]",
    );
    default_case(
        "object array",
        r#"[{"a":1},{"b":1},{"c":1}]"#,
        Some(
            json!({"items": {"properties": {"a": {"default": "A"}, "b": {"default": "B"}, "c": {"default": "C"}}}}),
        ),
        r#"[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]"#,
    );
    default_case(
        "object array object",
        r#"{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}"#,
        Some(json!({"properties": {
            "array": {"items": {"properties": {"a": {"default": "A"}, "b": {"default": "B"}}}},
            "object": {"properties": {"a": {"default": "N"}, "b": {"default": "O"}}},
            "additionalProperties": {"additionalProperties": {"properties": {"a": {"default": "alpha"}, "b": {"default": "beta"}}}},
            "foo": {"default": "bar"}}})),
        r#"{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}"#,
    );
    default_case(
        "empty and null",
        r#"[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]"#,
        Some(json!({"items": {"properties": {"a": {"default": "A"}}}})),
        r#"[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]"#,
    );
    default_case(
        "null in nullable list",
        "[null]",
        Some(json!({"nullable": true, "items": {"properties": {"a": {"default": "A"}}}})),
        "[null]",
    );
    default_case(
        "null in non-nullable list",
        "[null]",
        Some(json!({"nullable": false, "items": {"default": "A"}})),
        r#"["A"]"#,
    );
    default_case(
        "null in nullable object",
        r#"{"a": null}"#,
        Some(json!({"properties": {"a": {"nullable": true, "default": "A"}}})),
        r#"{"a": null}"#,
    );
    default_case(
        "null in non-nullable object",
        r#"{"a": null}"#,
        Some(json!({"properties": {"a": {"nullable": false, "default": "A"}}})),
        r#"{"a": "A"}"#,
    );
    default_case(
        "null in nullable object with additionalProperties",
        r#"{"a": null}"#,
        Some(json!({"additionalProperties": {"nullable": true, "default": "A"}})),
        r#"{"a": null}"#,
    );
    default_case(
        "null in non-nullable object with additionalProperties",
        r#"{"a": null}"#,
        Some(json!({"additionalProperties": {"nullable": false, "default": "A"}})),
        r#"{"a": "A"}"#,
    );
    default_case(
        "null unknown field",
        r#"{"a": null}"#,
        Some(json!({"additionalProperties": true})),
        r#"{"a": null}"#,
    );
    default_case(
        "defaults inside defaults, deep-copied",
        "{}",
        Some(json!({"properties": {"o": {"default": {}, "properties": {"x": {"default": [1]}}}}})),
        r#"{"o": {"x": [1]}}"#,
    );
}

fn nulls_case(name: &str, input: &str, s: Option<Value>, want: &str) {
    let s = s.map_or_else(Structural::default, schema);
    let mut v = parse(input);
    prune_non_nullable_nulls_without_defaults(&mut v, &s);
    assert_eq!(v, parse(want), "{name}");
}

#[test]
fn prune_nulls_table() {
    nulls_case("empty", "null", None, "null");
    nulls_case("scalar", "4", Some(json!({"default": "foo"})), "4");
    nulls_case("scalar array", "[1,null]", None, "[1,null]");
    nulls_case(
        "object array",
        r#"[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]"#,
        Some(
            json!({"items": {"properties": {"a": {"default": "A"}, "b": {"nullable": true}, "c": {"default": "C", "nullable": true}, "d": {}}}}),
        ),
        r#"[{"a":null},{"b":null},{"c":null},{},{"e":null}]"#,
    );
}

/// `TestCustomResourceDefaultingOfMetaFields`: embedded resources defaulted whole, by their
/// `metadata` default or field by field, with and without `x-kubernetes-preserve-unknown-fields`;
/// the unknown field every default puts into `metadata` is gone from the stored object.
#[test]
fn defaulting_of_meta_fields() {
    let path = format!(
        "{}/tests/data/defaulting_meta_fields.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let s = compiled(data["schema"].clone());
    let mut obj = data["instance"].clone();
    let sets = data["set"].as_array().unwrap();
    for set in sets {
        if set[1].is_null() {
            continue;
        }
        let mut at = &mut obj;
        for k in set[0].as_array().unwrap() {
            at = at
                .as_object_mut()
                .unwrap()
                .entry(k.as_str().unwrap())
                .or_insert(json!({}));
        }
        *at = set[1].clone();
    }
    let unknown = s.prune_and_default(&mut obj).unwrap();
    // The defaults' unknown fields are dropped on the way to storage, without a warning.
    assert!(unknown.is_empty(), "{unknown:?}");
    for set in sets {
        let path: Vec<&str> = set[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        let got = path.iter().fold(&obj, |v, k| &v[*k]);
        assert_eq!(got, &data["expected"], "{}", path.join("."));
    }
    assert!(s.validate(&obj).is_empty());
}

/// A `metadata` default at the root (which the CRD check forbids, `must not be set in
/// top-level metadata`): its unknown fields do not reach storage either, as the root's
/// `ObjectMeta` is decoded again there.
#[test]
fn root_metadata_default_unknown_fields_dropped() {
    let s = compiled(json!({"type": "object", "properties": {
        "metadata": {"type": "object", "default": {"name": "foo", "unknown": 42}},
        "spec": {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}}}));
    let mut obj = json!({"apiVersion": "tests.example.com/v1", "kind": "Bar", "spec": {}});
    let unknown = s.prune_and_default(&mut obj).unwrap();
    assert!(unknown.is_empty(), "{unknown:?}");
    assert_eq!(
        obj,
        json!({"apiVersion": "tests.example.com/v1", "kind": "Bar",
            "metadata": {"name": "foo"}, "spec": {"a": "x"}})
    );
    // Unknown fields sent in `metadata` are still pruned with a warning.
    let mut obj = json!({"metadata": {"name": "a", "bogus": 1}});
    let unknown = s.prune_and_default(&mut obj).unwrap();
    assert_eq!(unknown, ["metadata.bogus"]);
    assert_eq!(obj["metadata"], json!({"name": "a"}));
}
