//! Cases transcribed from apiextensions-apiserver `pkg/apis/apiextensions/validation/validation_test.go`
//! (`TestValidateCustomResourceDefinition`, `TestValidateCustomResourceDefinitionValidation`,
//! `TestSelectableFields`, `Test_validateDeprecationWarning`), with the internal-type inputs
//! written as the v1 JSON that converts to them. Like Go's tables they compare the multiset of
//! (type, field); a few cases also pin the full message.

mod go_table;
mod go_update;

use serde_json::{Value, json};

use super::openapi::{self, SchemaOpts};
use super::*;
use crdkit_apimachinery::field::ErrorType::{
    self, Duplicate, Forbidden, Invalid, NotSupported, Required, TooMany,
};
use crdkit_schema::crd::CustomResourceValidation;

const NONE: SchemaOpts<'static> = SchemaOpts {
    allow_defaults: false,
    valid_type: false,
    structural: false,
    pruned_defaults: false,
    atomic_set: false,
    map_list_keys: false,
    suppress_cost: false,
    preexisting: None,
};
const STRUCTURAL: SchemaOpts<'static> = SchemaOpts {
    structural: true,
    ..NONE
};

fn assert_errors(name: &str, got: &[FieldError], want: &[(ErrorType, &str)]) {
    let mut got_keys: Vec<(ErrorType, String)> = got
        .iter()
        .map(|e| (e.error_type, e.field.to_string()))
        .collect();
    let mut missing = Vec::new();
    for (t, f) in want {
        match got_keys.iter().position(|(gt, gf)| gt == t && gf == f) {
            Some(i) => {
                got_keys.remove(i);
            }
            None => missing.push(format!("{t:?} {f}")),
        }
    }
    let all: Vec<String> = got.iter().map(ToString::to_string).collect();
    assert!(
        missing.is_empty() && got_keys.is_empty(),
        "{name}: missing {missing:?}, unexpected {got_keys:?}\nall: {all:#?}"
    );
}

fn validation_case(
    name: &str,
    schema: Value,
    status: bool,
    so: SchemaOpts,
    want: &[(ErrorType, &str)],
) {
    let crv = CustomResourceValidation {
        open_api_v3_schema: Some(serde_json::from_value(schema).unwrap()),
    };
    let got = openapi::validation(
        &crv,
        status,
        &FieldPath::new("spec").child("validation"),
        so,
        &CheckOptions::default(),
    );
    assert_errors(name, &got, want);
}

const ROOT: &str = "spec.validation.openAPIV3Schema";

// TestValidateCustomResourceDefinitionValidation
#[test]
#[allow(clippy::too_many_lines)]
fn validation_table() {
    let p = |s: &str| {
        if s.is_empty() {
            ROOT.to_owned()
        } else {
            format!("{ROOT}.{s}")
        }
    };
    type Case = (
        &'static str,
        Value,
        bool,
        SchemaOpts<'static>,
        Vec<(ErrorType, String)>,
    );
    let cases: Vec<Case> = vec![
        (
            "root type without status",
            json!({"type": "string"}),
            false,
            NONE,
            vec![],
        ),
        (
            "root type having invalid value, with status",
            json!({"type": "string"}),
            true,
            NONE,
            vec![(Invalid, p("type"))],
        ),
        (
            "non-allowed root field with status",
            json!({"anyOf": [{"description": "First schema"}, {"description": "Second schema"}]}),
            true,
            NONE,
            vec![(Invalid, p(""))],
        ),
        (
            "all allowed fields at the root of the schema with status",
            json!({"description": "d", "type": "object", "format": "f", "title": "t", "maximum": 3, "exclusiveMaximum": true,
                   "minimum": 1, "exclusiveMinimum": true, "maxLength": 3, "minLength": 1, "pattern": "^[a-z]+$",
                   "maxItems": 3, "minItems": 1, "multipleOf": 2, "required": ["spec"],
                   "properties": {"spec": {"type": "object"}}, "externalDocs": {"description": "d"},
                   "example": {"spec": {}}, "x-kubernetes-preserve-unknown-fields": true,
                   "x-kubernetes-validations": [{"rule": "has(self.spec)"}]}),
            true,
            NONE,
            vec![],
        ),
        (
            "null type",
            json!({"properties": {"null": {"type": "null"}}}),
            false,
            NONE,
            vec![(Forbidden, p("properties[null].type"))],
        ),
        (
            "nullable at the root",
            json!({"type": "object", "nullable": true}),
            false,
            NONE,
            vec![(Forbidden, p("nullable"))],
        ),
        (
            "nullable without type",
            json!({"properties": {"nullable": {"nullable": true}}}),
            false,
            NONE,
            vec![],
        ),
        (
            "must be structural, but isn't",
            json!({}),
            false,
            STRUCTURAL,
            vec![(Required, p("type"))],
        ),
        (
            "must be structural",
            json!({"type": "object"}),
            false,
            STRUCTURAL,
            vec![],
        ),
        (
            "require valid types, invalid (null)",
            json!({"type": "null"}),
            false,
            SchemaOpts {
                valid_type: true,
                ..STRUCTURAL
            },
            vec![
                (NotSupported, p("type")),
                (Forbidden, p("type")),
                (Invalid, p("type")),
            ],
        ),
        (
            "require valid types, invalid (bogus)",
            json!({"type": "bogus"}),
            false,
            SchemaOpts {
                valid_type: true,
                ..STRUCTURAL
            },
            vec![(NotSupported, p("type")), (Invalid, p("type"))],
        ),
        (
            "invalid type with list type extension set",
            json!({"type": "object", "x-kubernetes-list-type": "set"}),
            false,
            NONE,
            vec![(Invalid, p("type"))],
        ),
        (
            "unset type with list type extension set",
            json!({"x-kubernetes-list-type": "set"}),
            false,
            NONE,
            vec![(Required, p("type"))],
        ),
        (
            "invalid list type extension",
            json!({"type": "array", "x-kubernetes-list-type": "invalid"}),
            false,
            NONE,
            vec![(NotSupported, p("x-kubernetes-list-type"))],
        ),
        (
            "invalid list type extension with list map keys extension non-empty",
            json!({"type": "array", "x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["key"]}),
            false,
            NONE,
            vec![(Invalid, p("x-kubernetes-list-type"))],
        ),
        (
            "unset list type extension with list map keys extension non-empty",
            json!({"x-kubernetes-list-map-keys": ["key"]}),
            false,
            NONE,
            vec![(Required, p("x-kubernetes-list-type"))],
        ),
        (
            "empty list map keys extension with list type extension map",
            json!({"type": "array", "x-kubernetes-list-type": "map"}),
            false,
            NONE,
            vec![
                (Required, p("x-kubernetes-list-map-keys")),
                (Required, p("items")),
            ],
        ),
        (
            "multiple schema items with list type extension map",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
                   "items": [{"type": "string"}, {"type": "integer"}]}),
            false,
            NONE,
            vec![(Forbidden, p("items")), (Invalid, p("items"))],
        ),
        (
            "non object item with list type extension map",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"], "items": {"type": "string"}}),
            false,
            NONE,
            vec![(Invalid, p("items.type"))],
        ),
        (
            "items with key missing from properties with list type extension map",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"], "items": {"type": "object"}}),
            false,
            NONE,
            vec![(Invalid, p("x-kubernetes-list-map-keys"))],
        ),
        (
            "items with non scalar key property type with list type extension map",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
                   "items": {"type": "object", "properties": {"key": {"type": "object"}}}}),
            false,
            NONE,
            vec![(Invalid, p("items.properties[key].type"))],
        ),
        (
            "duplicate map keys with list type extension map",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key", "key"],
                   "items": {"type": "object", "properties": {"key": {"type": "string"}}}}),
            false,
            NONE,
            vec![(Invalid, p("x-kubernetes-list-map-keys"))],
        ),
        (
            "invalid list-type set with non-atomic map items",
            json!({"type": "array", "x-kubernetes-list-type": "set",
                   "items": {"type": "object", "x-kubernetes-map-type": "granular", "properties": {"foo": {"type": "string"}}}}),
            false,
            SchemaOpts {
                atomic_set: true,
                ..NONE
            },
            vec![(Invalid, p("items.x-kubernetes-map-type"))],
        ),
        (
            "invalid list-type set with unspecified map-type for map items",
            json!({"type": "array", "x-kubernetes-list-type": "set",
                   "items": {"type": "object", "properties": {"foo": {"type": "string"}}}}),
            false,
            SchemaOpts {
                atomic_set: true,
                ..NONE
            },
            vec![(Invalid, p("items.x-kubernetes-map-type"))],
        ),
        (
            "allowed list-type set with atomic map items",
            json!({"type": "array", "x-kubernetes-list-type": "set",
                   "items": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"foo": {"type": "string"}}}}),
            false,
            SchemaOpts {
                atomic_set: true,
                ..NONE
            },
            vec![],
        ),
        (
            "invalid list-type set with with non-atomic list items",
            json!({"type": "array", "x-kubernetes-list-type": "set",
                   "items": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}),
            false,
            SchemaOpts {
                atomic_set: true,
                ..NONE
            },
            vec![(Invalid, p("items.x-kubernetes-list-type"))],
        ),
        (
            "invalid type with map type extension (granular)",
            json!({"type": "array", "x-kubernetes-map-type": "granular"}),
            false,
            NONE,
            vec![(Invalid, p("type"))],
        ),
        (
            "unset type with map type extension (atomic)",
            json!({"x-kubernetes-map-type": "atomic"}),
            false,
            NONE,
            vec![(Required, p("type"))],
        ),
        (
            "invalid map type",
            json!({"type": "object", "x-kubernetes-map-type": "invalid"}),
            false,
            NONE,
            vec![(NotSupported, p("x-kubernetes-map-type"))],
        ),
        (
            "invalid map with non-required key and no default",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
                   "items": {"type": "object", "properties": {"key": {"type": "string"}}}}),
            false,
            SchemaOpts {
                map_list_keys: true,
                ..NONE
            },
            vec![(Required, p("items.properties[key].default"))],
        ),
        (
            "allowed map with required key and no default",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
                   "items": {"type": "object", "required": ["key"], "properties": {"key": {"type": "string"}}}}),
            false,
            SchemaOpts {
                map_list_keys: true,
                ..NONE
            },
            vec![],
        ),
        (
            "invalid map with nullable key",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
                   "items": {"type": "object", "required": ["key"], "properties": {"key": {"type": "string", "nullable": true}}}}),
            false,
            SchemaOpts {
                map_list_keys: true,
                ..NONE
            },
            vec![(Forbidden, p("items.properties[key].nullable"))],
        ),
        (
            "invalid set with nullable items",
            json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string", "nullable": true}}),
            false,
            SchemaOpts {
                map_list_keys: true,
                ..NONE
            },
            vec![(Forbidden, p("items.nullable"))],
        ),
        (
            "rule is empty or not specified",
            json!({"type": "object", "properties": {"value": {"type": "integer",
                   "x-kubernetes-validations": [{"rule": "", "message": "something"}, {"rule": "   ", "message": "something"}]}}}),
            false,
            NONE,
            vec![
                (
                    Required,
                    p("properties[value].x-kubernetes-validations[0].rule"),
                ),
                (
                    Required,
                    p("properties[value].x-kubernetes-validations[1].rule"),
                ),
            ],
        ),
        (
            "multiline rule with message",
            json!({"type": "object", "properties": {"value": {"type": "integer",
                   "x-kubernetes-validations": [{"rule": "self >= 0 &&\nself <= 100", "message": "value must be between 0 and 100 (inclusive)"}]}}}),
            false,
            NONE,
            vec![],
        ),
        (
            "invalid and required messages",
            json!({"type": "object", "properties": {"value": {"type": "integer", "x-kubernetes-validations": [
                {"rule": "self >= 0 &&\nself <= 100"},
                {"rule": "self == 50", "message": "value requirements:\nmust be >= 0\nmust be <= 100 "},
                {"rule": "self == 50", "message": " "}]}}}),
            false,
            NONE,
            vec![
                (
                    Required,
                    p("properties[value].x-kubernetes-validations[0].message"),
                ),
                (
                    Invalid,
                    p("properties[value].x-kubernetes-validations[1].message"),
                ),
                (
                    Invalid,
                    p("properties[value].x-kubernetes-validations[2].message"),
                ),
            ],
        ),
        (
            "x-kubernetes-validations rule invalidated by messageExpression being only empty spaces",
            json!({"type": "object", "x-kubernetes-validations": [{"rule": "true", "messageExpression": " "}]}),
            false,
            STRUCTURAL,
            vec![(Required, p("x-kubernetes-validations[0].messageExpression"))],
        ),
        (
            "unsupported map type on an element makes its map type unsupported",
            json!({"type": "object", "properties": {"value": {"type": "object", "x-kubernetes-map-type": "future",
                   "properties": {"subfield": {"type": "string", "maxLength": 10, "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}}}),
            false,
            STRUCTURAL,
            vec![(NotSupported, p("properties[value].x-kubernetes-map-type"))],
        ),
    ];
    for (name, schema, status, so, want) in cases {
        let want: Vec<(ErrorType, &str)> = want.iter().map(|(t, f)| (*t, f.as_str())).collect();
        validation_case(name, schema, status, so, &want);
    }
}

// The x-kubernetes-validations cases of TestValidateCustomResourceDefinition.
#[test]
fn validation_rule_strings() {
    let create = SchemaOpts::CREATE;
    validation_case(
        "x-kubernetes-validations should have valid reason and fieldPath",
        json!({"type": "object", "properties": {"value": {"type": "object", "properties": {"subfield": {"type": "string"}},
               "x-kubernetes-validations": [{"rule": "self.subfield == 'x'", "reason": "InternalError", "fieldPath": ".a"}]}}}),
        false,
        create,
        &[
            (
                NotSupported,
                "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].reason",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].fieldPath",
            ),
        ],
    );
    validation_case(
        "x-kubernetes-validations have invalid fieldPath",
        json!({"type": "object", "properties": {"value": {"type": "object", "properties": {"subfield": {"type": "string"}},
               "x-kubernetes-validations": [
                   {"rule": "true", "fieldPath": ".subfield", "reason": "FieldValueRequired"},
                   {"rule": "true", "fieldPath": ".subfield\n"},
                   {"rule": "true", "fieldPath": "   "},
                   {"rule": "true", "fieldPath": "['subfield']"}]}}}),
        false,
        create,
        &[
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[1].fieldPath",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[1].fieldPath",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[2].fieldPath",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[2].fieldPath",
            ),
        ],
    );
    validation_case(
        "x-kubernetes-validations should be forbidden under oneOf/anyOf/allOf/not, structural schema",
        json!({"type": "object", "properties": {"a": {"type": "number",
               "not": {"x-kubernetes-validations": [{"rule": "should be forbidden"}]},
               "anyOf": [{"x-kubernetes-validations": [{"rule": "should be forbidden"}]}],
               "allOf": [{"x-kubernetes-validations": [{"rule": "should be forbidden"}]}],
               "oneOf": [{"x-kubernetes-validations": [{"rule": "should be forbidden"}]}]}}}),
        false,
        create,
        &[
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[a].not.x-kubernetes-validations",
            ),
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[a].allOf[0].x-kubernetes-validations",
            ),
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[a].anyOf[0].x-kubernetes-validations",
            ),
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[a].oneOf[0].x-kubernetes-validations",
            ),
        ],
    );
}

fn crd(spec_overrides: Value) -> Value {
    let mut base = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group.com"},
        "spec": {
            "group": "group.com",
            "scope": "Namespaced",
            "names": {"plural": "plural", "singular": "singular", "kind": "Plural", "listKind": "PluralList"},
            "versions": [{"name": "version", "served": true, "storage": true,
                          "schema": {"openAPIV3Schema": {"type": "object"}}}]
        }
    });
    if let Value::Object(o) = spec_overrides {
        for (k, v) in o {
            if k == "metadata" {
                base["metadata"] = v;
            } else {
                base["spec"][k] = v;
            }
        }
    }
    base
}

fn with_schema(schema: Value) -> Value {
    crd(
        json!({"versions": [{"name": "version", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]}),
    )
}

fn crd_case(name: &str, input: Value, want: &[(ErrorType, &str)]) -> Vec<FieldError> {
    let crd: CustomResourceDefinition =
        serde_json::from_value(input).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got = check_crd(&crd);
    assert_errors(name, &got, want);
    got
}

// TestValidateCustomResourceDefinition
#[test]
#[allow(clippy::too_many_lines)]
fn crd_table() {
    crd_case("valid", crd(json!({})), &[]);
    crd_case(
        "no_storage_version",
        crd(
            json!({"versions": [{"name": "version", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}},
                                 {"name": "version2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}]}),
        ),
        &[
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
        ],
    );
    crd_case(
        "multiple_storage_version",
        crd(
            json!({"versions": [{"name": "version", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
                                 {"name": "version2", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}),
        ),
        &[
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
        ],
    );
    crd_case(
        "mismatched name",
        json!({"metadata": {"name": "something.wrong"}, "spec": {"group": "group.com", "scope": "", "names": {"plural": "plural", "kind": ""},
               "versions": [{"name": "version", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}),
        &[
            (Invalid, "metadata.name"),
            (Required, "spec.scope"),
            (Required, "spec.names.singular"),
            (Required, "spec.names.kind"),
            (Required, "spec.names.listKind"),
        ],
    );
    crd_case(
        "missing values",
        json!({"metadata": {"name": "plural.group.com"}, "spec": {"group": "", "scope": "", "names": {"plural": "", "kind": ""}, "versions": []}}),
        &[
            (Invalid, "metadata.name"),
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
            (Required, "spec.group"),
            (Required, "spec.scope"),
            (Required, "spec.names.plural"),
            (Required, "spec.names.singular"),
            (Required, "spec.names.kind"),
            (Required, "spec.names.listKind"),
        ],
    );
    crd_case(
        "bad names 01",
        json!({"metadata": {"name": "plural.group"}, "spec": {"group": "group", "scope": "foo",
               "names": {"plural": "pl.ural", "singular": "sin.gular", "kind": "Plu.ral", "listKind": "Plu.ral"},
               "versions": [{"name": "ve()*rsion", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}),
        &[
            (Invalid, "metadata.name"),
            (Invalid, "spec.group"),
            (NotSupported, "spec.scope"),
            (Invalid, "spec.names.plural"),
            (Invalid, "spec.names.singular"),
            (Invalid, "spec.names.kind"),
            (Invalid, "spec.names.listKind"),
            (Invalid, "spec.names.listKind"),
            (Invalid, "spec.versions[0].name"),
            (Invalid, "spec.version"),
        ],
    );
    crd_case(
        "additionalProperties and properties forbidden",
        with_schema(
            json!({"type": "object", "properties": {"foo": {"type": "object", "properties": {"bar": {"type": "string"}},
                                                                    "additionalProperties": false}}}),
        ),
        &[(
            Forbidden,
            "spec.validation.openAPIV3Schema.properties[foo].additionalProperties",
        )],
    );
    crd_case(
        "additionalProperties without properties allowed (map[string]string)",
        with_schema(
            json!({"type": "object", "properties": {"foo": {"type": "object", "additionalProperties": {"type": "string"}}}}),
        ),
        &[],
    );
    crd_case(
        "x-kubernetes-preserve-unknown-field: false",
        with_schema(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": false})),
        &[(
            Invalid,
            "spec.validation.openAPIV3Schema.x-kubernetes-preserve-unknown-fields",
        )],
    );
    crd_case(
        "schema is required",
        crd(json!({"versions": [{"name": "version", "served": true, "storage": true}]})),
        &[(Required, "spec.versions[0].schema.openAPIV3Schema")],
    );
    crd_case(
        "preserveUnknownFields: true",
        crd(json!({"preserveUnknownFields": true})),
        &[(Invalid, "spec.preserveUnknownFields")],
    );
    crd_case(
        "labelSelectorPath outside of .spec and .status",
        crd(json!({"versions": [
            {"name": "version0", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}},
             "subresources": {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".spec.labelSelector"}}},
            {"name": "version1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}},
             "subresources": {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.labelSelector"}}},
            {"name": "version2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}},
             "subresources": {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".labelSelector"}}}]})),
        &[(
            Invalid,
            "spec.versions[2].subresources.scale.labelSelectorPath",
        )],
    );
    crd_case(
        "x-kubernetes-embedded-resource with pruning and empty properties",
        with_schema(json!({"type": "object", "properties": {
            "nil": {"type": "object", "x-kubernetes-embedded-resource": true},
            "empty": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {}}}})),
        &[
            (
                Required,
                "spec.validation.openAPIV3Schema.properties[empty].properties",
            ),
            (
                Required,
                "spec.validation.openAPIV3Schema.properties[nil].properties",
            ),
        ],
    );
    crd_case(
        "x-kubernetes-embedded-resource inside resource meta",
        with_schema(
            json!({"type": "object", "properties": {"embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "metadata": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
            "apiVersion": {"type": "string", "properties": {"foo": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}},
            "kind": {"type": "string", "properties": {"foo": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}}}}}}),
        ),
        &[
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[embedded].properties[metadata].x-kubernetes-embedded-resource",
            ),
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[embedded].properties[apiVersion].properties[foo].x-kubernetes-embedded-resource",
            ),
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[embedded].properties[kind].properties[foo].x-kubernetes-embedded-resource",
            ),
        ],
    );
    crd_case(
        "additionalProperties at resource root",
        with_schema(json!({"type": "object", "properties": {
            "embedded1": {"type": "object", "x-kubernetes-embedded-resource": true, "additionalProperties": {"type": "string"}},
            "embedded2": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
                          "additionalProperties": {"type": "string"}}}})),
        &[
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[embedded1].additionalProperties",
            ),
            (
                Required,
                "spec.validation.openAPIV3Schema.properties[embedded1].properties",
            ),
            (
                Forbidden,
                "spec.validation.openAPIV3Schema.properties[embedded2].additionalProperties",
            ),
        ],
    );
    crd_case(
        "top-level metadata default",
        with_schema(
            json!({"type": "object", "properties": {"metadata": {"type": "object", "default": {"name": "foo"}}}}),
        ),
        &[(
            Forbidden,
            "spec.validation.openAPIV3Schema.properties[metadata].default",
        )],
    );
    crd_case(
        "default inside additionalSchema of embedded metadata",
        with_schema(
            json!({"type": "object", "properties": {"embedded": {"type": "object", "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {"type": "object", "properties": {"annotations": {"type": "object",
                "additionalProperties": {"type": "string", "default": "abc"}}}}}}}}),
        ),
        &[(
            Forbidden,
            "spec.validation.openAPIV3Schema.properties[embedded].properties[metadata].properties[annotations].additionalProperties.default",
        )],
    );
    crd_case(
        "invalid defaults: unknown fields are not pruned",
        with_schema(
            json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}},
                                                                 "default": {"x": "1", "y": 2}}}}),
        ),
        &[(
            Invalid,
            "spec.validation.openAPIV3Schema.properties[a].default",
        )],
    );
    crd_case(
        "contradicting meta field types",
        with_schema(json!({"type": "object", "properties": {
            "apiVersion": {"type": "number"}, "kind": {"type": "number"},
            "metadata": {"type": "number", "properties": {"name": {"type": "string", "pattern": "abc"},
                                                           "generateName": {"type": "string", "pattern": "def"}}},
            "valid": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"type": "object", "properties": {"name": {"type": "string", "pattern": "abc"},
                                                               "generateName": {"type": "string", "pattern": "def"}}}}},
            "invalid": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                "apiVersion": {"type": "number"}, "kind": {"type": "number"},
                "metadata": {"type": "number", "properties": {"name": {"type": "string", "pattern": "abc"},
                                                               "generateName": {"type": "string", "pattern": "def"}}}}}}})),
        &[
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[apiVersion].type",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[kind].type",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[metadata].type",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[invalid].properties[apiVersion].type",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[invalid].properties[kind].type",
            ),
            (
                Invalid,
                "spec.validation.openAPIV3Schema.properties[invalid].properties[metadata].type",
            ),
        ],
    );
    crd_case(
        "webhookconfig: invalid port 0",
        crd(
            json!({"conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1beta1"],
                   "clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 0}}}}}),
        ),
        &[(Invalid, "spec.conversion.webhookClientConfig.service.port")],
    );
    crd_case(
        "webhookconfig: both service and URL provided",
        crd(
            json!({"conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1beta1"],
                   "clientConfig": {"url": "https://example.com/webhook", "service": {"name": "n", "namespace": "ns"}}}}}),
        ),
        &[(Required, "spec.conversion.webhookClientConfig")],
    );
    crd_case(
        "webhookconfig: invalid ConversionReviewVersion",
        crd(
            json!({"conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["invalid-version"],
                   "clientConfig": {"url": "https://example.com/webhook"}}}}),
        ),
        &[(Invalid, "spec.conversion.conversionReviewVersions")],
    );
    crd_case(
        "webhookconfig: duplicate ConversionReviewVersion",
        crd(
            json!({"conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1beta1", "v1beta1"],
                   "clientConfig": {"url": "https://example.com/webhook"}}}}),
        ),
        &[(Invalid, "spec.conversion.conversionReviewVersions[1]")],
    );
    crd_case(
        "invalid_conversion_strategy",
        crd(json!({"conversion": {"strategy": "non_existing_conversion"}})),
        &[(NotSupported, "spec.conversion.strategy")],
    );
    crd_case(
        "protected group without approval",
        json!({"metadata": {"name": "plural.group.k8s.io"}, "spec": {"group": "group.k8s.io", "scope": "Cluster",
               "names": {"plural": "plural", "kind": "Plural"},
               "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}),
        &[(Required, "metadata.annotations[api-approved.kubernetes.io]")],
    );
}

// TestSelectableFields
#[test]
fn selectable_fields() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "color": {"type": "string"}, "quantity": {"type": "integer"}, "obj": {"type": "object"},
        "enum": {"type": "string", "enum": ["a"]}}}, "status": {"type": "object"}}});
    let fields =
        |paths: &[&str]| -> Value { paths.iter().map(|p| json!({"jsonPath": p})).collect() };
    let version = |fs: Value| {
        json!({"versions": [{"name": "version", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": schema.clone()}, "selectableFields": fs}]})
    };
    crd_case(
        "valid",
        crd(version(fields(&[
            ".spec.color",
            ".spec.quantity",
            ".spec.enum",
        ]))),
        &[],
    );
    crd_case(
        "do not refer to a field in the schema",
        crd(version(fields(&[
            ".spec.nope",
            "spec.color",
            ".metadata.name",
        ]))),
        &[
            (Invalid, "spec.selectableFields[0].jsonPath"),
            (Invalid, "spec.selectableFields[1].jsonPath"),
            (Invalid, "spec.selectableFields[2].jsonPath"),
        ],
    );
    crd_case(
        "not scalar",
        crd(version(fields(&[".spec.obj"]))),
        &[(Invalid, "spec.selectableFields[0].jsonPath")],
    );
    crd_case(
        "duplicate",
        crd(version(fields(&[".spec.color", ".spec.color"]))),
        &[(Duplicate, "spec.selectableFields[1].jsonPath")],
    );
    let mut props = serde_json::Map::new();
    let mut paths = Vec::new();
    for i in 0..9 {
        props.insert(format!("f{i}"), json!({"type": "string"}));
        paths.push(format!(".spec.f{i}"));
    }
    let many = json!({"versions": [{"name": "version", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": props}}}},
        "selectableFields": paths.iter().map(|p| json!({"jsonPath": p})).collect::<Value>()}]});
    crd_case(
        "too many selectableFields are not allowed",
        crd(many),
        &[(TooMany, "spec.selectableFields")],
    );
    // Per-version selectable fields whose schema moved to the top level: Go's own wording.
    let two = json!({"versions": [
        {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema.clone()}, "selectableFields": fields(&[".spec.color"])},
        {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": schema.clone()}, "selectableFields": fields(&[".spec.quantity"])}]});
    crd_case(
        "per-version fields, shared schema",
        crd(two),
        &[
            (Invalid, "spec.versions[0].selectableFields"),
            (Invalid, "spec.versions[1].selectableFields"),
        ],
    );
}

#[test]
fn per_version_paths() {
    let two = crd(json!({"versions": [
        {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"a": {}}}}},
        {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}]}));
    crd_case(
        "different schemas stay per version",
        two,
        &[(
            Required,
            "spec.versions[0].schema.openAPIV3Schema.properties[a].type",
        )],
    );
    let same = crd(json!({"versions": [
        {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"default": null}}}}},
        {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"a": {}}}}}]}));
    crd_case(
        "identical schemas move to spec.validation",
        same,
        &[(
            Required,
            "spec.validation.openAPIV3Schema.properties[a].type",
        )],
    );
}

#[test]
fn messages() {
    let got = crd_case(
        "multiple storage versions",
        crd(
            json!({"versions": [{"name": "v1", "served": true, "storage": true}, {"name": "v2", "served": true, "storage": true}]}),
        ),
        &[
            (Required, "spec.versions[0].schema.openAPIV3Schema"),
            (Required, "spec.versions[1].schema.openAPIV3Schema"),
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
        ],
    );
    let texts: Vec<String> = got.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts[2],
        r#"spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v2","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version"#
    );
    assert_eq!(
        texts[3],
        r#"status.storedVersions: Invalid value: ["v1"]: must have the storage version v2"#
    );

    let got = crd_case(
        "bad names",
        crd(
            json!({"scope": "Global", "names": {"plural": "Plurals", "kind": "Plural", "listKind": "Plural"}, "metadata": {"name": "plural.group.com"}}),
        ),
        &[
            (Invalid, "metadata.name"),
            (NotSupported, "spec.scope"),
            (Invalid, "spec.names.plural"),
            (Invalid, "spec.names.listKind"),
        ],
    );
    let texts: Vec<String> = got.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts[0],
        r#"metadata.name: Invalid value: "plural.group.com": must be spec.names.plural+"."+spec.group"#
    );
    assert_eq!(
        texts[1],
        r#"spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced""#
    );
    assert_eq!(
        texts[3],
        r#"spec.names.listKind: Invalid value: "Plural": kind and listKind may not be the same"#
    );

    let got = crd_case(
        "list map keys",
        with_schema(
            json!({"type": "object", "properties": {"ports": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"], "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}),
        ),
        &[(
            Required,
            "spec.validation.openAPIV3Schema.properties[ports].items.properties[name].default",
        )],
    );
    assert_eq!(
        got[0].to_string(),
        "spec.validation.openAPIV3Schema.properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
    );
    let got = crd_case(
        "unpruned default",
        with_schema(
            json!({"type": "object", "properties": {"a": {"type": "object", "default": {"b": 1}}}}),
        ),
        &[(
            Invalid,
            "spec.validation.openAPIV3Schema.properties[a].default",
        )],
    );
    assert_eq!(
        got[0].to_string(),
        r#"spec.validation.openAPIV3Schema.properties[a].default: Invalid value: {"b":1}: must not have unknown fields"#
    );
    let got = crd_case(
        "nested type",
        with_schema(
            json!({"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"type": "string"}]}}}),
        ),
        &[(
            Forbidden,
            "spec.validation.openAPIV3Schema.properties[a].anyOf[0].type",
        )],
    );
    assert_eq!(got[0].body(), "Forbidden: must be empty to be structural");
}

#[test]
fn hooks_are_called() {
    use std::cell::RefCell;
    struct Rec(RefCell<Vec<String>>);
    impl CelRuleChecker for Rec {
        fn check_rules(&self, node: &CelNode<'_>) -> Vec<FieldError> {
            self.0.borrow_mut().push(format!(
                "{} {:?}",
                node.path,
                node.uncorrelatable.map(ToString::to_string)
            ));
            Vec::new()
        }
        fn finish_schema(&self, root_path: &FieldPath) -> Vec<FieldError> {
            self.0.borrow_mut().push(format!("finish {root_path}"));
            Vec::new()
        }
    }
    impl DefaultValidator for Rec {
        fn validate_default(&self, node: &DefaultNode<'_>) -> Vec<FieldError> {
            self.0
                .borrow_mut()
                .push(format!("default {} {}", node.path, node.inside_meta));
            Vec::new()
        }
    }
    let rec = Rec(RefCell::new(Vec::new()));
    let input = with_schema(
        json!({"type": "object", "properties": {"list": {"type": "array", "items": {
        "type": "string", "default": "x", "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}}),
    );
    let crd: CustomResourceDefinition = serde_json::from_value(input).unwrap();
    let errs = check_crd_with(
        &crd,
        &CheckOptions {
            default_validator: Some(&rec),
            cel: Some(&rec),
        },
    );
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(
        *rec.0.borrow(),
        [
            "default spec.validation.openAPIV3Schema.properties[list].items false",
            "spec.validation.openAPIV3Schema.properties[list].items Some(\"spec.validation.openAPIV3Schema.properties[list]\")",
            "finish spec.validation.openAPIV3Schema",
        ]
    );
}

#[test]
fn deep_schemas_do_not_overflow() {
    let mut schema = json!({"type": "string"});
    for _ in 0..300 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    // serde_json's own recursion limit stops such input when parsed from text; build it directly.
    let props: crdkit_schema::JsonSchemaProps = {
        let mut p = crdkit_schema::JsonSchemaProps {
            ty: "string".into(),
            ..Default::default()
        };
        for _ in 0..300 {
            let mut parent = crdkit_schema::JsonSchemaProps {
                ty: "object".into(),
                ..Default::default()
            };
            parent.properties.insert("a".into(), p);
            p = parent;
        }
        p
    };
    drop(schema);
    let crv = CustomResourceValidation {
        open_api_v3_schema: Some(props),
    };
    let errs = openapi::validation(
        &crv,
        false,
        &FieldPath::new("spec").child("validation"),
        SchemaOpts::CREATE,
        &CheckOptions::default(),
    );
    assert!(
        errs.iter().any(|e| e.detail.contains("nested more than")),
        "{errs:?}"
    );
}

/// The webhook client configuration as `validateCustomResourceConversion` checks it, messages in
/// full: Go's URL parse errors, what the versioning page forbids (scheme, user information,
/// query, fragment), and Go's swapped service name and namespace.
#[test]
fn webhook_client_config_messages() {
    let conv = |client: Value| {
        crd(json!({"conversion": {"strategy": "Webhook", "webhook": {
            "conversionReviewVersions": ["v1"], "clientConfig": client}}}))
    };
    let texts = |name: &str, input: Value, want: &[(ErrorType, &str)]| -> Vec<String> {
        crd_case(name, input, want)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let url = "spec.conversion.webhookClientConfig.url";
    assert_eq!(
        texts(
            "user, query and fragment",
            conv(json!({"url": "https://user:password@my-webhook.example.com:9443/p?a=1#f"})),
            &[(Invalid, url), (Invalid, url), (Invalid, url)],
        ),
        [
            "spec.conversion.webhookClientConfig.url: Invalid value: \"user:password\": user information is not permitted in the URL",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"f\": fragments are not permitted in the URL",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"a=1\": query parameters are not permitted in the URL",
        ]
    );
    assert_eq!(
        texts(
            "http",
            conv(json!({"url": "http://my-webhook.example.com/p"})),
            &[(Invalid, url)]
        ),
        [
            "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"
        ]
    );
    assert_eq!(
        texts(
            "unparsable",
            conv(json!({"url": "https://h:port/"})),
            &[(Required, url)]
        ),
        [
            "spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse \"https://h:port/\": invalid port \":port\" after host; desired format: https://host[/path]"
        ]
    );
    let svc = "spec.conversion.webhookClientConfig.service";
    assert_eq!(
        texts(
            "no namespace",
            conv(
                json!({"service": {"name": "example-conversion-webhook-server", "path": "/crdconvert"}})
            ),
            &[(Required, &format!("{svc}.name"))],
        ),
        [
            "spec.conversion.webhookClientConfig.service.name: Required value: service name is required"
        ]
    );
    assert_eq!(
        texts(
            "bad path and port",
            conv(
                json!({"service": {"namespace": "default", "name": "s", "path": "crd//convert", "port": 70000}})
            ),
            &[
                (Invalid, &format!("{svc}.port")),
                (Invalid, &format!("{svc}.path")),
                (Invalid, &format!("{svc}.path")),
            ],
        ),
        [
            "spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
            "spec.conversion.webhookClientConfig.service.path: Invalid value: \"crd//convert\": must start with a '/'",
            "spec.conversion.webhookClientConfig.service.path: Invalid value: \"crd//convert\": segment[1] may not be empty",
        ]
    );
    texts(
        "the page's service",
        conv(
            json!({"service": {"namespace": "default", "name": "example-conversion-webhook-server",
                                "path": "/crdconvert"}, "caBundle": "Ci0tLS0tQk"}),
        ),
        &[],
    );
}
