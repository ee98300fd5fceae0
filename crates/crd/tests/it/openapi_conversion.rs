//! The v2 schema conversion, transcribed from apiextensions-apiserver
//! `pkg/controller/openapi/v2/conversion_test.go` (Kubernetes 1.36):
//! `Test_ConvertJSONSchemaPropsToOpenAPIv2Schema`, `Test_ConvertJSONSchemaPropsToOpenAPIv2SchemaByType`
//! (the inputs in their CRD wire form), `TestFilterOut` (through `required` next to nullable
//! properties) and `TestKubeOpenapiRejectionFiltering` (as a property: what the conversion
//! leaves is what kubectl's v2 model reads).

use proptest::prelude::*;
use serde_json::{Value, json};

use crdkit_crd::openapi::schema::convert;
use crdkit_schema::props::JsonSchemaProps;

fn props(v: Value) -> JsonSchemaProps {
    serde_json::from_value(v).expect("schema JSON")
}

#[test]
fn convert_json_schema_props_to_openapi_v2_schema() {
    let out = convert(&props(foo_crd_schema()), true).expect("converts");
    assert!(out["properties"].get("spec").is_some(), "spec not found");
    assert!(
        out["properties"].get("status").is_some(),
        "status not found"
    );
    // Nothing here is lossy: the v2 form is the v3 form.
    assert_eq!(out, convert(&props(foo_crd_schema()), false).unwrap());
}

/// The test's "Foo CRD for Testing" schema (YAML in Go), as JSON.
fn foo_crd_schema() -> Value {
    json!({
        "description": "Foo CRD for Testing", "type": "object",
        "properties": {
            "spec": {"description": "Specification of Foo", "type": "object", "properties": {
                "bars": {"description": "List of Bars and their specs.", "type": "array", "items": {
                    "type": "object", "required": ["name"], "properties": {
                        "name": {"description": "Name of Bar.", "type": "string"},
                        "age": {"description": "Age of Bar.", "type": "string"},
                        "bazs": {"description": "List of Bazs.", "items": {"type": "string"}, "type": "array"}}}}}},
            "status": {"description": "Status of Foo", "type": "object", "properties": {
                "bars": {"description": "List of Bars and their statuses.", "type": "array", "items": {
                    "type": "object", "properties": {
                        "name": {"description": "Name of Bar.", "type": "string"},
                        "available": {"description": "Whether the Bar is installed.", "type": "boolean"},
                        "quxType": {"description": "Indicates to external qux type.", "pattern": "in-tree|out-of-tree", "type": "string"}}}}}}
        }
    })
}

/// `Test_ConvertJSONSchemaPropsToOpenAPIv2SchemaByType`: `None` where Go expects
/// `NewStructural` to fail.
fn by_type_cases() -> Vec<(&'static str, Value, Option<Value>)> {
    let b = json!({"type": "boolean"});
    let s = json!({"type": "string"});
    let nested = json!([{"not": b}, {"anyOf": [b, s]}, {"oneOf": [b, s]}, s]);
    vec![
        ("id", json!({"id": "test"}), None),
        ("$schema", json!({"$schema": "test"}), None),
        ("$ref", json!({"$ref": "test"}), None),
        (
            "description",
            json!({"description": "test"}),
            Some(json!({"description": "test"})),
        ),
        (
            "type and format",
            json!({"type": "test", "format": "test2"}),
            Some(json!({"type": "test", "format": "test2"})),
        ),
        (
            "nullable",
            json!({"type": "object", "nullable": true}),
            Some(json!({})),
        ),
        (
            "nullable required",
            json!({"type": "object", "properties": {
                "a": {"nullable": true, "type": "string"},
                "b": {"nullable": true, "type": "string"},
                "c": {"type": "string"}},
                "required": ["a", "c"]}),
            Some(
                json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {"type": "string"}},
                "required": ["c"]}),
            ),
        ),
        (
            "nullable required additionalProperties",
            json!({"type": "object", "additionalProperties": {"nullable": true, "type": "string"},
                "required": ["a", "c"]}),
            Some(json!({"type": "object", "additionalProperties": {}})),
        ),
        (
            "title",
            json!({"title": "test"}),
            Some(json!({"title": "test"})),
        ),
        (
            "default",
            json!({"default": "test"}),
            Some(json!({"default": "test"})),
        ),
        (
            "maximum and exclusiveMaximum",
            json!({"maximum": 6.4, "exclusiveMaximum": true}),
            Some(json!({"maximum": 6.4, "exclusiveMaximum": true})),
        ),
        (
            "minimum and exclusiveMinimum",
            json!({"minimum": 6.4, "exclusiveMinimum": true}),
            Some(json!({"minimum": 6.4, "exclusiveMinimum": true})),
        ),
        (
            "maxLength",
            json!({"maxLength": 64}),
            Some(json!({"maxLength": 64})),
        ),
        (
            "minLength",
            json!({"minLength": 64}),
            Some(json!({"minLength": 64})),
        ),
        (
            "pattern",
            json!({"pattern": "test"}),
            Some(json!({"pattern": "test"})),
        ),
        (
            "maxItems",
            json!({"maxItems": 64}),
            Some(json!({"maxItems": 64})),
        ),
        (
            "minItems",
            json!({"minItems": 64}),
            Some(json!({"minItems": 64})),
        ),
        (
            "uniqueItems",
            json!({"uniqueItems": true}),
            Some(json!({"uniqueItems": true})),
        ),
        (
            "multipleOf",
            json!({"multipleOf": 6.4}),
            Some(json!({"multipleOf": 6.4})),
        ),
        (
            "enum",
            json!({"enum": ["test", "test2"]}),
            Some(json!({"enum": ["test", "test2"]})),
        ),
        (
            "maxProperties",
            json!({"maxProperties": 64}),
            Some(json!({"maxProperties": 64})),
        ),
        (
            "minProperties",
            json!({"minProperties": 64}),
            Some(json!({"minProperties": 64})),
        ),
        (
            "required",
            json!({"required": ["test", "test2"]}),
            Some(json!({"required": ["test", "test2"]})),
        ),
        (
            "items single props",
            json!({"items": {"type": "boolean"}}),
            Some(json!({"items": {"type": "boolean"}})),
        ),
        (
            "items array props",
            json!({"items": [{"type": "boolean"}, {"type": "string"}]}),
            None,
        ),
        // Junctors are not published in v2.
        ("allOf", json!({"allOf": [b, s]}), Some(json!({}))),
        ("oneOf", json!({"oneOf": [b, s]}), Some(json!({}))),
        ("anyOf", json!({"anyOf": [b, s]}), Some(json!({}))),
        ("not", json!({"not": b}), Some(json!({}))),
        (
            "nested logic",
            json!({"allOf": nested, "anyOf": nested, "oneOf": nested,
                "not": {"not": b, "anyOf": [b, s], "oneOf": [b, s]}}),
            Some(json!({})),
        ),
        (
            "properties",
            json!({"properties": {"test": {"type": "boolean"}}}),
            Some(json!({"properties": {"test": {"type": "boolean"}}})),
        ),
        (
            "additionalProperties schema",
            json!({"additionalProperties": {"type": "boolean"}}),
            Some(json!({"additionalProperties": {"type": "boolean"}})),
        ),
        (
            "additionalProperties bool",
            json!({"additionalProperties": true}),
            Some(json!({"additionalProperties": true})),
        ),
        (
            "patternProperties",
            json!({"patternProperties": {"test": {"type": "boolean"}}}),
            None,
        ),
        (
            "dependencies schema",
            json!({"dependencies": {"test": {"type": "boolean"}}}),
            None,
        ),
        (
            "dependencies string array",
            json!({"dependencies": {"test": ["test2"]}}),
            None,
        ),
        (
            "additionalItems",
            json!({"additionalItems": {"type": "boolean"}}),
            None,
        ),
        (
            "definitions",
            json!({"definitions": {"test": {"type": "boolean"}}}),
            None,
        ),
        // Published since Kubernetes 1.36 (in 1.35 these were the two expected differences).
        (
            "externalDocs",
            json!({"externalDocs": {"description": "test", "url": "test2"}}),
            Some(json!({"externalDocs": {"description": "test", "url": "test2"}})),
        ),
        (
            "example",
            json!({"example": "test"}),
            Some(json!({"example": "test"})),
        ),
        (
            "preserve-unknown-fields in arrays",
            json!({"x-kubernetes-preserve-unknown-fields": true, "type": "array",
                "items": {"type": "string"}}),
            Some(json!({"x-kubernetes-preserve-unknown-fields": true})),
        ),
        (
            "preserve-unknown-fields in objects",
            json!({"x-kubernetes-preserve-unknown-fields": true, "type": "object",
                "properties": {"foo": {"type": "string"}}}),
            Some(json!({"x-kubernetes-preserve-unknown-fields": true})),
        ),
    ]
}

#[test]
fn convert_json_schema_props_to_openapi_v2_schema_by_type() {
    let cases = by_type_cases();
    assert_eq!(cases.len(), 42);
    for (name, input, want) in cases {
        let got = convert(&props(input), true);
        match want {
            None => assert!(
                got.is_err(),
                "{name}: expected NewStructural to fail, got {got:?}"
            ),
            Some(want) => assert_eq!(got, Ok(want), "{name}"),
        }
    }
}

/// `TestFilterOut`: the names of nullable properties leave `required` (all their occurrences,
/// the rest in order); an empty result is no `required` at all.
#[test]
fn nullable_properties_leave_required() {
    type Case<'a> = (&'a str, Option<Vec<&'a str>>, &'a str, Option<Vec<&'a str>>);
    let cases: [Case<'_>; 6] = [
        ("nil", None, "foo", None),
        ("empty", Some(vec![]), "foo", None),
        ("foo", Some(vec!["foo"]), "foo", None),
        ("aaa", Some(vec!["a", "a", "a"]), "a", None),
        ("abc", Some(vec!["a", "b", "c"]), "c", Some(vec!["a", "b"])),
        (
            "abbbcc",
            Some(vec!["a", "b", "b", "b", "c", "c"]),
            "b",
            Some(vec!["a", "c", "c"]),
        ),
    ];
    for (name, input, x, want) in cases {
        let mut schema =
            json!({"type": "object", "properties": {x: {"type": "string", "nullable": true}}});
        if let Some(r) = input {
            schema["required"] = json!(r);
        }
        let got = convert(&props(schema), true).unwrap();
        assert_eq!(
            got.get("required"),
            want.map(|w| json!(w)).as_ref(),
            "{name}"
        );
        assert_eq!(got["properties"][x], json!({}), "{name}");
    }
}

/// Schemas as Go's fuzzer draws them for `TestKubeOpenapiRejectionFiltering`: any of the six
/// types or none, `items` exactly for arrays, properties, `additionalProperties`, junctors,
/// `nullable`, `x-kubernetes-preserve-unknown-fields`, `required`, defaults and enums.
fn arb_schema() -> impl Strategy<Value = Value> {
    let ty = prop_oneof![
        Just(None),
        Just(Some("object")),
        Just(Some("array")),
        Just(Some("boolean")),
        Just(Some("string")),
        Just(Some("integer")),
        Just(Some("number")),
    ];
    let leaf = (ty, any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(ty, nullable, preserve, dflt)| {
            let mut m = serde_json::Map::new();
            if let Some(t) = ty {
                m.insert("type".into(), json!(t));
                if t == "array" {
                    m.insert("items".into(), json!({}));
                }
            }
            if nullable {
                m.insert("nullable".into(), json!(true));
            }
            if preserve {
                m.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
            }
            if dflt {
                m.insert("default".into(), json!("42"));
                m.insert("enum".into(), json!(["42"]));
            }
            Value::Object(m)
        },
    );
    leaf.prop_recursive(3, 24, 3, |inner| {
        (
            inner.clone(),
            prop::collection::btree_map("[a-c]", inner.clone(), 0..3),
            prop::option::of(inner.clone()),
            prop::collection::vec(inner.clone(), 0..2),
            prop::option::of(inner),
            prop::collection::vec("[a-d]", 0..3),
        )
            .prop_map(|(base, properties, additional, all_of, items, required)| {
                let mut m = base.as_object().cloned().unwrap_or_default();
                if m.get("type") == Some(&json!("array")) {
                    m.insert("items".into(), items.unwrap_or_else(|| json!({})));
                } else if !properties.is_empty() {
                    m.insert("properties".into(), json!(properties));
                } else if let Some(a) = additional {
                    m.insert("additionalProperties".into(), a);
                }
                if !all_of.is_empty() {
                    m.insert("allOf".into(), json!(all_of));
                    m.insert("not".into(), json!({"type": "string"}));
                }
                if !required.is_empty() {
                    m.insert("required".into(), json!(required));
                }
                Value::Object(m)
            })
    })
}

/// What kube-openapi's `proto` model (kubectl's v2 reader) rejects, checked on every node:
/// an array without `items`, junctors, `nullable`, and `properties` or `items` or `type: object`
/// beside `x-kubernetes-preserve-unknown-fields`.
fn readable_by_v2_clients(v: &Value) -> Result<(), String> {
    let Value::Object(m) = v else {
        return Ok(());
    };
    for k in ["allOf", "anyOf", "oneOf", "not", "nullable"] {
        if m.contains_key(k) {
            return Err(format!("{k} left in {v}"));
        }
    }
    if m.get("type") == Some(&json!("array")) && !m.contains_key("items") {
        return Err(format!("array without items: {v}"));
    }
    if m.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true))
        && (m.contains_key("properties")
            || m.contains_key("items")
            || m.get("type") == Some(&json!("object")))
    {
        return Err(format!("unknown fields kept beside a structure: {v}"));
    }
    if let Some(Value::Object(p)) = m.get("properties") {
        for c in p.values() {
            readable_by_v2_clients(c)?;
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(c) = m.get(k) {
            readable_by_v2_clients(c)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn kube_openapi_rejection_filtering(schema in arb_schema()) {
        let out = convert(&props(schema), true).expect("no unsupported fields drawn");
        prop_assert_eq!(readable_by_v2_clients(&out), Ok(()));
    }
}
