//! Cases transcribed from apiextensions-apiserver `pkg/apiserver/schema/validation_test.go`
//! (`TestValidateStructuralCompleteness`, `TestValidateStructuralMetadataInvariants`,
//! `TestValidateNestedValueValidationComplete`) plus the rules of `validation.go` one by one.

use serde_json::{Value, json};

use super::*;
use crdkit_apimachinery::field::ErrorType;

fn props(v: Value) -> JsonSchemaProps {
    serde_json::from_value(v).unwrap()
}

fn run(v: Value, opts: StructuralOptions) -> Vec<String> {
    validate_structural_props(&FieldPath::nil(), &props(v), opts)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn errs(v: Value) -> Vec<String> {
    run(v, StructuralOptions::default())
}

// TestValidateStructuralCompleteness: (name, schema, options, expected error or "").
#[test]
fn completeness() {
    let ap_structure = json!({"additionalProperties": {"type": "object", "properties": {"bar": {"type": "string"}}},
                              "allOf": [{"properties": {"foo": {"minLength": 2}}}]});
    let allow_ap = StructuralOptions {
        allow_validation_properties_with_additional_properties: true,
        ..Default::default()
    };
    let cases: Vec<(&str, Value, StructuralOptions, &str)> = vec![
        (
            "allowed properties valuevalidation, additional properties structure",
            ap_structure.clone(),
            allow_ap,
            "",
        ),
        (
            "disallowed properties valuevalidation, additional properties structure",
            ap_structure,
            StructuralOptions::default(),
            "properties[foo]: Required value: because it is defined in allOf[0].properties[foo]",
        ),
        (
            "disallowed additionalproperties valuevalidation, properties structure",
            json!({"properties": {"bar": {"type": "string"}}, "allOf": [{"additionalProperties": {"minLength": 2}}]}),
            StructuralOptions {
                allow_nested_additional_properties: true,
                ..Default::default()
            },
            "additionalProperties: Required value: because it is defined in allOf[0].additionalProperties",
        ),
        (
            "allowed property in valuevalidation, and in structure",
            json!({"properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"foo": {"minLength": 2}}}]}),
            StructuralOptions::default(),
            "",
        ),
        (
            "disallowed property in valuevalidation, and in structure",
            json!({"properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"notfoo": {"minLength": 2}}}]}),
            StructuralOptions::default(),
            "properties[notfoo]: Required value: because it is defined in allOf[0].properties[notfoo]",
        ),
        (
            "allowed items in valuevalidation, and in structure",
            json!({"type": "array", "items": {"type": "string"}, "allOf": [{"items": {"minLength": 2}}]}),
            StructuralOptions::default(),
            "",
        ),
        (
            "disallowed items in valuevalidation, and not in structure",
            json!({"type": "object", "properties": {"foo": {"type": "string"}}, "allOf": [{"items": {"minLength": 2}}]}),
            StructuralOptions::default(),
            "items: Required value: because it is defined in allOf[0].items",
        ),
    ];
    for (name, schema, opts, want) in cases {
        let mut w_errs = Vec::new();
        let mut w = Walk {
            opts,
            errs: &mut w_errs,
        };
        w.completeness(&props(schema), &FieldPath::nil());
        let got: Vec<String> = w_errs.iter().map(ToString::to_string).collect();
        if want.is_empty() {
            assert!(got.is_empty(), "{name}: {got:?}");
        } else {
            assert!(
                got.iter().any(|g| g.contains(want)),
                "{name}: want {want}, got {got:?}"
            );
        }
    }
}

// TestValidateStructuralCompleteness again, through the public `ValidateStructuralWithOptions`:
// the completeness errors are exactly Go's (the invariants add their own, e.g. a root without
// `type`, which Go's test does not look at).
#[test]
fn completeness_through_validate_structural() {
    let allow_ap = StructuralOptions {
        allow_validation_properties_with_additional_properties: true,
        ..Default::default()
    };
    let nested_ap = StructuralOptions {
        allow_nested_additional_properties: true,
        ..Default::default()
    };
    let ap = json!({"additionalProperties": {"type": "object", "properties": {"bar": {"type": "string"}}},
        "allOf": [{"properties": {"foo": {"minLength": 2}}}]});
    let cases: Vec<(Value, StructuralOptions, Option<&str>)> = vec![
        (ap.clone(), allow_ap, None),
        (
            ap,
            StructuralOptions::default(),
            Some(
                "properties[foo]: Required value: because it is defined in allOf[0].properties[foo]",
            ),
        ),
        (
            json!({"properties": {"bar": {"type": "string"}}, "allOf": [{"additionalProperties": {"minLength": 2}}]}),
            nested_ap,
            Some(
                "additionalProperties: Required value: because it is defined in allOf[0].additionalProperties",
            ),
        ),
        (
            json!({"properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"foo": {"minLength": 2}}}]}),
            StructuralOptions::default(),
            None,
        ),
        (
            json!({"properties": {"foo": {"type": "string"}}, "allOf": [{"properties": {"notfoo": {"minLength": 2}}}]}),
            StructuralOptions::default(),
            Some(
                "properties[notfoo]: Required value: because it is defined in allOf[0].properties[notfoo]",
            ),
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "allOf": [{"items": {"minLength": 2}}]}),
            StructuralOptions::default(),
            None,
        ),
        (
            json!({"type": "object", "properties": {"foo": {"type": "string"}}, "allOf": [{"items": {"minLength": 2}}]}),
            StructuralOptions::default(),
            Some("items: Required value: because it is defined in allOf[0].items"),
        ),
    ];
    for (schema, opts, want) in cases {
        let got: Vec<String> = run(schema.clone(), opts)
            .into_iter()
            .filter(|e| e.contains("because it is defined in"))
            .collect();
        assert_eq!(got, want.into_iter().collect::<Vec<_>>(), "{schema}");
    }
}

// Go's `validateStructuralCompleteness` looks at the junctors of the root only (`complete.go`):
// below it, a junctor may name what the structure lacks, and the API server accepts the CRD.
#[test]
fn completeness_is_checked_at_the_root_only() {
    let got = errs(json!({"type": "object", "properties": {"spec": {
        "type": "object", "properties": {"foo": {"type": "string"}},
        "allOf": [{"items": {"minLength": 2}}, {"properties": {"notfoo": {"minLength": 2}}}]}}}));
    assert!(got.is_empty(), "{got:?}");
}

// TestValidateStructuralMetadataInvariants
#[test]
fn metadata_invariants() {
    for ty in ["object", "array", "number", "integer", "boolean", "string"] {
        let got = errs(json!({"type": "object", "properties": {"metadata": {"type": ty}}}));
        let meta: Vec<&String> = got
            .iter()
            .filter(|e| e.starts_with("properties[metadata]"))
            .collect();
        assert_eq!(meta.is_empty(), ty == "object", "{ty}: {got:?}");
    }
    for field in [
        "name",
        "generateName",
        "namespace",
        "labels",
        "annotations",
        "uid",
    ] {
        let got = errs(
            json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": {field: {"type": "string"}}}}}),
        );
        let forbidden = got
            .iter()
            .any(|e| e.starts_with("properties[metadata]: Forbidden"));
        assert_eq!(
            forbidden,
            field != "name" && field != "generateName",
            "{field}: {got:?}"
        );
    }
    // name and generateName, both restricted, and nothing else: allowed, defaults included.
    let ok = json!({"type": "object", "properties": {"metadata": {"type": "object", "default": {},
        "properties": {"name": {"type": "string", "pattern": "^a"}, "generateName": {"type": "string", "maxLength": 3}}}}});
    assert!(errs(ok).is_empty());
    for extra in [
        json!({"description": "d"}),
        json!({"nullable": true}),
        json!({"maxProperties": 3}),
        json!({"x-kubernetes-preserve-unknown-fields": true}),
        json!({"example": {}}),
        json!({"additionalProperties": {"type": "string"}}),
        json!({"x-kubernetes-validations": [{"rule": "true"}]}),
    ] {
        let mut m = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        for (k, v) in extra.as_object().unwrap() {
            m[k] = v.clone();
        }
        let got = errs(json!({"type": "object", "properties": {"metadata": m}}));
        assert!(
            got.contains(&"properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified".to_owned()),
            "{extra}: {got:?}"
        );
    }
    // Only at the root: an embedded resource's metadata must merely be an object.
    let embedded = json!({"type": "object", "properties": {"e": {"type": "object", "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object", "properties": {"labels": {"type": "object"}}}, "kind": {"type": "integer"}}}}});
    assert_eq!(
        errs(embedded),
        ["properties[e].properties[kind].type: Invalid value: \"integer\": must be string"]
    );
}

// TestValidateNestedValueValidationComplete: every forbidden generic and extension is reported.
#[test]
fn nested_forbidden() {
    let cases = [
        (
            json!({"type": "string"}),
            "allOf[0].type: Forbidden: must be empty to be structural",
        ),
        (
            json!({"default": 42}),
            "allOf[0].default: Forbidden: must be undefined to be structural",
        ),
        (
            json!({"title": "t"}),
            "allOf[0].title: Forbidden: must be empty to be structural",
        ),
        (
            json!({"description": "d"}),
            "allOf[0].description: Forbidden: must be empty to be structural",
        ),
        (
            json!({"nullable": true}),
            "allOf[0].nullable: Forbidden: must be false to be structural",
        ),
        (
            json!({"x-kubernetes-preserve-unknown-fields": true}),
            "allOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural",
        ),
        (
            json!({"x-kubernetes-embedded-resource": true}),
            "allOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural",
        ),
        (
            json!({"x-kubernetes-int-or-string": true}),
            "allOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural",
        ),
        (
            json!({"x-kubernetes-list-map-keys": ["a"]}),
            "allOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural",
        ),
        (
            json!({"x-kubernetes-list-type": "bogus"}),
            "allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
        ),
        (
            json!({"x-kubernetes-map-type": "atomic"}),
            "allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural",
        ),
        (
            json!({"x-kubernetes-validations": [{"rule": "true"}]}),
            "allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural",
        ),
        (
            json!({"additionalProperties": true}),
            "allOf[0].additionalProperties: Forbidden: must be undefined to be structural",
        ),
        (
            json!({"properties": {"metadata": {}}}),
            "allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context",
        ),
    ];
    for (branch, want) in cases {
        let got = errs(
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "allOf": [branch]}),
        );
        assert!(got.contains(&want.to_owned()), "{want}: {got:?}");
    }
    // Nothing forbidden: no error (additionalProperties: false is dropped in junctors, as in Go).
    assert!(errs(json!({"type": "object", "allOf": [{"additionalProperties": false, "maxProperties": 3}]})).is_empty());
    // allOf may carry rules when the option allows them; anyOf never.
    let opts = StructuralOptions {
        allow_nested_x_validations: true,
        ..Default::default()
    };
    let rules = json!([{"rule": "true"}]);
    assert!(
        run(
            json!({"type": "object", "allOf": [{"x-kubernetes-validations": rules}]}),
            opts
        )
        .is_empty()
    );
    assert_eq!(
        run(
            json!({"type": "object", "anyOf": [{"x-kubernetes-validations": rules}]}),
            opts
        ),
        ["anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"]
    );
}

#[test]
fn invariants() {
    // The two IntOrString exceptions and what breaks them.
    let any_of = json!([{"type": "integer"}, {"type": "string"}]);
    assert!(errs(json!({"type": "object", "properties": {"x": {"x-kubernetes-int-or-string": true, "anyOf": any_of}}})).is_empty());
    assert!(
        errs(
            json!({"type": "object", "properties": {"x": {"x-kubernetes-int-or-string": true,
        "allOf": [{"anyOf": any_of}, {"maximum": 3}]}}})
        )
        .is_empty()
    );
    assert_eq!(
        errs(
            json!({"type": "object", "properties": {"x": {"x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]}}})
        ),
        [
            "properties[x].anyOf[0].type: Forbidden: must be empty to be structural",
            "properties[x].anyOf[1].type: Forbidden: must be empty to be structural",
        ]
    );
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (
            json!({}),
            vec!["type: Required value: must not be empty at the root"],
        ),
        (
            json!({"type": "array", "items": {"type": "string"}}),
            vec![r#"type: Invalid value: "array": must be object at the root"#],
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "array"}}}),
            vec!["properties[a].items: Required value: must be specified"],
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "array", "items": {}}}}),
            vec![
                "properties[a].items.type: Required value: must not be empty for specified array items",
            ],
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            vec!["additionalProperties: Forbidden: must not be used at the root"],
        ),
        (
            json!({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true,
                                                           "x-kubernetes-embedded-resource": true}}}),
            vec![
                "properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true",
                "properties[a].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
                "properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
            ],
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string", "x-kubernetes-embedded-resource": true}}}),
            vec![
                r#"properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"#,
                r#"properties[a].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true"#,
            ],
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "(abc"}}}),
            vec![
                "properties[a].pattern: Invalid value: \"(abc\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(abc`",
            ],
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "[a-"}}}),
            vec![
                "properties[a].pattern: Invalid value: \"[a-\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[a-`",
            ],
        ),
        (
            json!({"type": "object", "properties": {"kind": {"type": "integer"}}}),
            vec![r#"properties[kind].type: Invalid value: "integer": must be string"#],
        ),
    ];
    for (schema, want) in cases {
        assert_eq!(errs(schema.clone()), want, "{schema}");
    }
}

#[test]
fn structural_model_entry_and_errors() {
    let s =
        Structural::from_props(&props(json!({"type": "object", "properties": {"a": {}}}))).unwrap();
    let got = validate_structural(&FieldPath::new("spec").child("validation"), &s);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].error_type, ErrorType::Required);
    assert_eq!(
        got[0].field.to_string(),
        "spec.validation.properties[a].type"
    );
    assert_eq!(
        new_structural_error(&props(json!({"$ref": "#/x"}))).as_deref(),
        Some("OpenAPIV3Schema '$ref' is not supported")
    );
    assert_eq!(
        new_structural_error(&props(json!({"properties": {"a": {"items": [{}]}}}))).as_deref(),
        Some("OpenAPIV3Schema 'items' must be a schema, but is an array")
    );
    assert_eq!(
        new_structural_error(&props(
            json!({"x-kubernetes-preserve-unknown-fields": false})
        ))
        .as_deref(),
        Some("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
    );
    assert_eq!(
        new_structural_error(&props(json!({"type": "object"}))),
        None
    );
}

#[test]
fn depth_is_bounded() {
    let mut p = JsonSchemaProps {
        ty: "string".into(),
        ..Default::default()
    };
    for _ in 0..(MAX_SCHEMA_DEPTH + 10) {
        let mut parent = JsonSchemaProps {
            ty: "object".into(),
            ..Default::default()
        };
        parent.properties.insert("a".into(), p);
        p = parent;
    }
    let got = validate_structural_props(&FieldPath::nil(), &p, StructuralOptions::default());
    assert_eq!(got.len(), 1);
    assert!(
        got[0]
            .to_string()
            .ends_with("Forbidden: must not be nested more than 256 levels deep")
    );
    assert!(new_structural_error(&p).is_some());
}

#[test]
fn go_regexp_errors() {
    assert!(check_go_regexp("^[a-z]+(-[a-z]+)*$").is_ok());
    assert_eq!(
        check_go_regexp("a)").unwrap_err().to_string(),
        "error parsing regexp: unexpected ): `a)`"
    );
    assert_eq!(
        check_go_regexp("*a").unwrap_err().to_string(),
        "error parsing regexp: missing argument to repetition operator: `*`"
    );
    assert_eq!(
        check_go_regexp("a\\").unwrap_err().to_string(),
        "error parsing regexp: trailing backslash at end of expression: ``"
    );
}
