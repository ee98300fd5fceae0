//! OpenAPI validation, transcribed from apiextensions-apiserver
//! `pkg/apiserver/validation/validation_test.go` (`TestValidateCustomResource`,
//! `TestItemsProperty`), compared as sets as the Go test does; plus keyword cases.

use crate::common;

use common::{compiled, openapi_errors, sorted};
use serde_json::{Value, json};

struct Case {
    name: &'static str,
    schema: Value,
    valid: Vec<Value>,
    invalid: Vec<(Value, Vec<&'static str>)>,
}

fn run(cases: Vec<Case>) {
    for c in cases {
        let s = compiled(c.schema);
        for v in &c.valid {
            assert_eq!(
                openapi_errors(&s, v),
                Vec::<String>::new(),
                "{}: {v}",
                c.name
            );
        }
        for (v, want) in &c.invalid {
            assert_eq!(openapi_errors(&s, v), sorted(want), "{}: {v}", c.name);
        }
    }
}

fn field(props: Value) -> Value {
    json!({"type": "object", "properties": {"field": props}})
}

#[test]
fn validate_custom_resource() {
    run(vec![
        Case {
            name: "!nullable",
            schema: field(json!({"type": "object", "nullable": false})),
            valid: vec![json!({}), json!({"field": {}})],
            invalid: vec![
                (
                    json!({"field": "foo"}),
                    vec![
                        r#"field: Invalid value: "string": field in body must be of type object: "string""#,
                    ],
                ),
                (
                    json!({"field": 42}),
                    vec![
                        r#"field: Invalid value: "integer": field in body must be of type object: "integer""#,
                    ],
                ),
                (
                    json!({"field": true}),
                    vec![
                        r#"field: Invalid value: "boolean": field in body must be of type object: "boolean""#,
                    ],
                ),
                (
                    json!({"field": 1.2}),
                    vec![
                        r#"field: Invalid value: "number": field in body must be of type object: "number""#,
                    ],
                ),
                (
                    json!({"field": []}),
                    vec![
                        r#"field: Invalid value: "array": field in body must be of type object: "array""#,
                    ],
                ),
                (
                    json!({"field": null}),
                    vec![
                        r#"field: Invalid value: "null": field in body must be of type object: "null""#,
                    ],
                ),
            ],
        },
        Case {
            name: "nullable",
            schema: field(json!({"type": "object", "nullable": true})),
            valid: vec![json!({}), json!({"field": {}}), json!({"field": null})],
            invalid: vec![
                (
                    json!({"field": "foo"}),
                    vec![
                        r#"field: Invalid value: "string": field in body must be of type object: "string""#,
                    ],
                ),
                (
                    json!({"field": 42}),
                    vec![
                        r#"field: Invalid value: "integer": field in body must be of type object: "integer""#,
                    ],
                ),
                (
                    json!({"field": true}),
                    vec![
                        r#"field: Invalid value: "boolean": field in body must be of type object: "boolean""#,
                    ],
                ),
                (
                    json!({"field": 1.2}),
                    vec![
                        r#"field: Invalid value: "number": field in body must be of type object: "number""#,
                    ],
                ),
                (
                    json!({"field": []}),
                    vec![
                        r#"field: Invalid value: "array": field in body must be of type object: "array""#,
                    ],
                ),
            ],
        },
        Case {
            name: "nullable and no type",
            schema: field(json!({"nullable": true})),
            valid: vec![
                json!({}),
                json!({"field": {}}),
                json!({"field": null}),
                json!({"field": "foo"}),
                json!({"field": 42}),
                json!({"field": true}),
                json!({"field": 1.2}),
                json!({"field": []}),
            ],
            invalid: vec![],
        },
        Case {
            name: "x-kubernetes-int-or-string",
            schema: field(json!({"x-kubernetes-int-or-string": true})),
            valid: vec![json!({}), json!({"field": 42}), json!({"field": "foo"})],
            invalid: vec![
                (
                    json!({"field": null}),
                    vec![
                        r#"field: Invalid value: "null": field in body must be of type integer,string: "null""#,
                    ],
                ),
                (
                    json!({"field": true}),
                    vec![
                        r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                    ],
                ),
                (
                    json!({"field": 1.2}),
                    vec![
                        r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                    ],
                ),
                (
                    json!({"field": {}}),
                    vec![
                        r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                    ],
                ),
                (
                    json!({"field": []}),
                    vec![
                        r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                    ],
                ),
            ],
        },
        Case {
            name: "nullable and x-kubernetes-int-or-string",
            schema: field(json!({"x-kubernetes-int-or-string": true, "nullable": true})),
            valid: vec![
                json!({}),
                json!({"field": 42}),
                json!({"field": "foo"}),
                json!({"field": null}),
            ],
            invalid: vec![
                (
                    json!({"field": true}),
                    vec![
                        r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                    ],
                ),
                (
                    json!({"field": 1.2}),
                    vec![
                        r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                    ],
                ),
                (
                    json!({"field": {}}),
                    vec![
                        r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                    ],
                ),
                (
                    json!({"field": []}),
                    vec![
                        r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                    ],
                ),
            ],
        },
        Case {
            name: "nullable, x-kubernetes-int-or-string and user-provided anyOf",
            schema: field(
                json!({"x-kubernetes-int-or-string": true, "nullable": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}),
            ),
            valid: vec![
                json!({}),
                json!({"field": null}),
                json!({"field": 42}),
                json!({"field": "foo"}),
            ],
            invalid: vec![
                (
                    json!({"field": true}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                        r#"field: Invalid value: "boolean": field in body must be of type integer: "boolean""#,
                    ],
                ),
                (
                    json!({"field": 1.2}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                        r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
                        r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in field"#,
                    ],
                ),
                (
                    json!({"field": {}}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                        r#"field: Invalid value: "object": field in body must be of type integer: "object""#,
                    ],
                ),
                (
                    json!({"field": []}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                        r#"field: Invalid value: "array": field in body must be of type integer: "array""#,
                    ],
                ),
            ],
        },
        Case {
            name: "nullable, x-kubernetes-int-or-string and user-provider allOf",
            schema: field(
                json!({"x-kubernetes-int-or-string": true, "nullable": true, "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]}),
            ),
            valid: vec![
                json!({}),
                json!({"field": null}),
                json!({"field": 42}),
                json!({"field": "foo"}),
            ],
            invalid: vec![
                (
                    json!({"field": true}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                        r#"field: Invalid value: "boolean": field in body must be of type integer: "boolean""#,
                    ],
                ),
                (
                    json!({"field": 1.2}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                        r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
                        r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in field"#,
                    ],
                ),
                (
                    json!({"field": []}),
                    vec![
                        r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                        r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                        r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                        r#"field: Invalid value: "array": field in body must be of type integer: "array""#,
                    ],
                ),
            ],
        },
        Case {
            name: "invalid regex",
            schema: field(json!({"type": "string", "pattern": "+"})),
            valid: vec![],
            invalid: vec![(
                json!({"field": "foo"}),
                vec![
                    "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
                ],
            )],
        },
        Case {
            name: "required field",
            schema: json!({"type": "object", "required": ["field"], "properties": {"field": {"type": "object", "required": ["nested"], "properties": {"nested": {}}}}}),
            valid: vec![],
            invalid: vec![
                (json!({"test": "a"}), vec!["field: Required value"]),
                (json!({"field": {}}), vec!["field.nested: Required value"]),
            ],
        },
        Case {
            name: "enum",
            schema: field(
                json!({"type": "object", "required": ["nestedint", "nestedstring"], "properties": {
                "nestedint": {"type": "integer", "enum": [1, 2]},
                "nestedstring": {"type": "string", "enum": ["a", "b"]}}}),
            ),
            valid: vec![],
            invalid: vec![
                (
                    json!({"field": {}}),
                    vec![
                        "field.nestedint: Required value",
                        "field.nestedstring: Required value",
                    ],
                ),
                (
                    json!({"field": {"nestedint": "x", "nestedstring": true}}),
                    vec![
                        r#"field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string""#,
                        r#"field.nestedint: Unsupported value: "x": supported values: "1", "2""#,
                        r#"field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean""#,
                        r#"field.nestedstring: Unsupported value: true: supported values: "a", "b""#,
                    ],
                ),
            ],
        },
        Case {
            name: "maxProperties",
            schema: json!({"type": "object", "properties": {"fieldX": {"type": "object", "maxProperties": 2}}}),
            valid: vec![],
            invalid: vec![(
                json!({"fieldX": {"a": true, "b": true, "c": true}}),
                vec!["fieldX: Too many: 3: must have at most 2 items"],
            )],
        },
        Case {
            name: "maxItems",
            schema: json!({"type": "object", "properties": {"fieldX": {"type": "array", "maxItems": 2}}}),
            valid: vec![],
            invalid: vec![(
                json!({"fieldX": ["a", "b", "c"]}),
                vec!["fieldX: Too many: 3: must have at most 2 items"],
            )],
        },
        Case {
            name: "maxLength",
            schema: json!({"type": "object", "properties": {"fieldX": {"type": "string", "maxLength": 2}}}),
            valid: vec![],
            invalid: vec![(
                json!({"fieldX": "abc"}),
                vec!["fieldX: Too long: may not be more than 2 bytes"],
            )],
        },
        Case {
            name: "k8sLongName",
            schema: json!({"type": "object", "properties": {"fieldX": {"type": "string", "format": "k8s-long-name"}}}),
            valid: vec![],
            invalid: vec![(
                json!({"fieldX": "a.-"}),
                vec![
                    r#"fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-""#,
                ],
            )],
        },
        Case {
            name: "k8sShortName",
            schema: json!({"type": "object", "properties": {"fieldX": {"type": "string", "format": "k8s-short-name"}}}),
            valid: vec![],
            invalid: vec![(
                json!({"fieldX": "a-"}),
                vec![
                    r#"fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-""#,
                ],
            )],
        },
        Case {
            name: "numeric formats valid",
            schema: json!({"type": "object", "properties": {
                "intThirtyTwo": {"type": "integer", "format": "int32"},
                "intSixtyFour": {"type": "integer", "format": "int64"},
                "floatThreeTwo": {"type": "number", "format": "float"},
                "floatSixFour": {"type": "number", "format": "double"}}}),
            valid: vec![
                json!({"intThirtyTwo": i32::MIN, "intSixtyFour": i64::MIN, "floatThreeTwo": -f64::from(f32::MAX), "floatSixFour": -f64::MAX}),
                json!({"intThirtyTwo": 0, "intSixtyFour": 0, "floatThreeTwo": 0.0, "floatSixFour": 0.0}),
                json!({"intThirtyTwo": i32::MAX, "intSixtyFour": i64::MAX, "floatThreeTwo": f64::from(f32::MAX), "floatSixFour": f64::MAX}),
            ],
            invalid: vec![],
        },
        Case {
            name: "numeric formats invalid",
            schema: json!({"type": "object", "properties": {
                "intThirtyTwo": {"type": "integer", "format": "int32"},
                "intSixtyFour": {"type": "integer", "format": "int64"},
                "floatThreeTwo": {"type": "number", "format": "float"},
                "floatSixFour": {"type": "number", "format": "double"}}}),
            valid: vec![],
            invalid: vec![
                (
                    json!({"intThirtyTwo": i64::from(i32::MAX) + 1}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo"#,
                    ],
                ),
                (
                    json!({"intThirtyTwo": i64::from(i32::MIN) - 1}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo"#,
                    ],
                ),
                #[allow(clippy::cast_precision_loss)]
                (
                    json!({"intSixtyFour": i64::MAX as f64 * 1.1}),
                    vec![
                        r#"intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64""#,
                        r#"<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour"#,
                    ],
                ),
                #[allow(clippy::cast_precision_loss)]
                (
                    json!({"intSixtyFour": i64::MIN as f64 * 1.1}),
                    vec![
                        r#"intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64""#,
                        r#"<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour"#,
                    ],
                ),
                (
                    json!({"floatThreeTwo": f64::from(f32::MAX) * 1.1}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo"#,
                    ],
                ),
                (
                    json!({"floatThreeTwo": -f64::from(f32::MAX) * 1.1}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo"#,
                    ],
                ),
            ],
        },
        // TestItemsProperty.
        Case {
            name: "items in object",
            schema: json!({"properties": {"spec": {"properties": {"replicas": {"type": "integer"}}}}}),
            valid: vec![json!({"spec": {"replicas": 1, "items": ["1", "2"]}})],
            invalid: vec![],
        },
        Case {
            name: "items in array",
            schema: json!({"properties": {"secrets": {"type": "array", "items": {"type": "string"}}}}),
            valid: vec![json!({"secrets": ["1", "2"]})],
            invalid: vec![],
        },
    ]);
}

#[test]
fn keywords() {
    run(vec![
        Case {
            name: "minimum, exclusive bounds, multipleOf",
            schema: json!({"type": "object", "properties": {
                "i": {"type": "integer", "minimum": 1, "exclusiveMaximum": true, "maximum": 10, "multipleOf": 3},
                "n": {"type": "number", "minimum": 0.5, "exclusiveMinimum": true, "multipleOf": 0.25}}}),
            valid: vec![json!({"i": 3, "n": 0.75}), json!({"i": 9})],
            invalid: vec![
                (
                    json!({"i": -1}),
                    vec![
                        "i: Invalid value: -1: i in body should be a multiple of 3",
                        "i: Invalid value: -1: i in body should be greater than or equal to 1",
                    ],
                ),
                (
                    json!({"i": 12}),
                    vec!["i: Invalid value: 12: i in body should be less than 10"],
                ),
                (
                    json!({"n": 0.5}),
                    vec!["n: Invalid value: 0.5: n in body should be greater than 0.5"],
                ),
                (
                    json!({"n": 0.6}),
                    vec!["n: Invalid value: 0.6: n in body should be a multiple of 0.25"],
                ),
            ],
        },
        Case {
            name: "strings",
            schema: json!({"type": "object", "properties": {
                "s": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^a"},
                "d": {"type": "string", "format": "date-time"}}}),
            valid: vec![
                json!({"s": "ab", "d": "2017-05-31T12:56:35Z"}),
                json!({"s": "aöü"}),
            ],
            invalid: vec![
                (
                    json!({"s": "a"}),
                    vec![r#"s: Invalid value: "a": s in body should be at least 2 chars long"#],
                ),
                (
                    json!({"s": "bcd"}),
                    vec![r#"s: Invalid value: "bcd": s in body should match '^a'"#],
                ),
                (
                    json!({"s": "abcd"}),
                    vec!["s: Too long: may not be more than 3 bytes"],
                ),
                (
                    json!({"d": "yesterday"}),
                    vec![
                        r#"d: Invalid value: "yesterday": d in body must be of type date-time: "yesterday""#,
                    ],
                ),
            ],
        },
        Case {
            name: "arrays and objects",
            schema: json!({"type": "object", "properties": {
                "l": {"type": "array", "minItems": 1, "items": {"type": "integer"}},
                "m": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}}}}),
            valid: vec![json!({"l": [1], "m": {"a": "b"}})],
            invalid: vec![
                (
                    json!({"l": []}),
                    vec!["l: Invalid value: 0: l in body should have at least 1 items"],
                ),
                (
                    json!({"l": ["x"]}),
                    vec![
                        r#"l[0]: Invalid value: "string": l[0] in body must be of type integer: "string""#,
                    ],
                ),
                (
                    json!({"m": {}}),
                    vec!["m: Invalid value: 0: m in body should have at least 1 properties"],
                ),
                (
                    json!({"m": {"app": 1}}),
                    vec![
                        r#"m.app: Invalid value: "integer": m.app in body must be of type string: "integer""#,
                    ],
                ),
            ],
        },
        Case {
            name: "oneOf and not",
            schema: json!({"type": "object", "properties": {"f": {"type": "integer",
                "oneOf": [{"minimum": 5}, {"maximum": 10}], "not": {"enum": [7]}}}}),
            valid: vec![json!({"f": 1}), json!({"f": 11})],
            invalid: vec![
                (
                    json!({"f": 6}),
                    vec![
                        r#"<nil>: Invalid value: "": "f" must validate one and only one schema (oneOf). Found 2 valid alternatives"#,
                    ],
                ),
                (
                    json!({"f": 7}),
                    vec![
                        r#"<nil>: Invalid value: "": "f" must validate one and only one schema (oneOf). Found 2 valid alternatives"#,
                        r#"<nil>: Invalid value: "": "f" must not validate the schema (not)"#,
                    ],
                ),
            ],
        },
        // kube-openapi `validate/schema_test.go` `TestNumericFormatEnforcement` (a format that
        // does not fit the type is stripped by `StripUnsupportedFormatsPostProcessor`).
        Case {
            name: "numeric format enforcement",
            schema: json!({"type": "object", "properties": {
                "i32": {"type": "integer", "format": "int32"},
                "i64": {"type": "integer", "format": "int64"},
                "f": {"type": "number", "format": "float"},
                "d": {"type": "number", "format": "double"},
                "nInt32": {"type": "number", "format": "int32"},
                "iFloat": {"type": "integer", "format": "float"}}}),
            valid: vec![
                json!({"i32": 123, "i64": i64::MAX, "f": 1.23, "d": 1.23}),
                json!({"i32": i32::MAX, "d": f64::MAX}),
                json!({"i32": i32::MIN}),
                json!({"nInt32": f64::from(i32::MAX) + 1.0, "iFloat": i64::from(i32::MAX) * 2}),
            ],
            invalid: vec![
                (
                    json!({"i32": 2_147_483_648_i64}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i32"#,
                    ],
                ),
                (
                    json!({"i32": -2_147_483_649_i64}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i32"#,
                    ],
                ),
                (
                    json!({"f": f64::from(f32::MAX) * 1.1}),
                    vec![
                        r#"<nil>: Invalid value: "": Checked value must be of type number with format float in f"#,
                    ],
                ),
            ],
        },
        // kube-openapi `validate/object_validator_test.go`
        // `TestMinPropertiesMaxPropertiesDontShortCircuit`, without `additionalProperties` (a
        // CRD cannot have it next to `properties`).
        Case {
            name: "minProperties and maxProperties do not short-circuit",
            schema: json!({"type": "object", "properties": {"o": {"type": "object",
                "minProperties": 20, "maxProperties": 0, "required": ["requiredField"],
                "properties": {"intField": {"type": "integer"}, "requiredField": {"type": "string"}}}}}),
            valid: vec![],
            invalid: vec![
                (
                    json!({"o": {"field": "hello, world"}}),
                    vec![
                        "o: Invalid value: 1: o in body should have at least 20 properties",
                        "o: Too many: 1: must have at most 0 items",
                        "o.requiredField: Required value",
                    ],
                ),
                (
                    json!({"o": {"field": "a", "field2": "b", "field3": "c", "intField": "a string"}}),
                    vec![
                        "o: Invalid value: 4: o in body should have at least 20 properties",
                        "o: Too many: 4: must have at most 0 items",
                        r#"o.intField: Invalid value: "string": o.intField in body must be of type integer: "string""#,
                        "o.requiredField: Required value",
                    ],
                ),
            ],
        },
        // kube-openapi `validate/values_test.go` `TestValuMultipleOf`, on float data.
        Case {
            name: "multipleOf on floats",
            schema: json!({"type": "object", "properties": {
                "by3": {"type": "number", "multipleOf": 3},
                "by3_1": {"type": "number", "multipleOf": 3.1},
                "by0_1": {"type": "number", "multipleOf": 0.1},
                "by0_2": {"type": "number", "multipleOf": 0.2},
                "by0_25": {"type": "number", "multipleOf": 0.25},
                "by0_3": {"type": "number", "multipleOf": 0.3},
                "by0_4": {"type": "number", "multipleOf": 0.4}}}),
            valid: vec![
                json!({"by3": 9.0, "by3_1": 9.3, "by0_1": 9.1, "by0_3": 3.0, "by0_25": 1.0, "by0_2": 8.0}),
                json!({"by0_3": 6.0}),
            ],
            invalid: vec![
                (
                    json!({"by0_4": 3.0}),
                    vec!["by0_4: Invalid value: 3: by0_4 in body should be a multiple of 0.4"],
                ),
                (
                    json!({"by0_2": 9.1}),
                    vec!["by0_2: Invalid value: 9.1: by0_2 in body should be a multiple of 0.2"],
                ),
                (
                    json!({"by0_1": 9.34}),
                    vec!["by0_1: Invalid value: 9.34: by0_1 in body should be a multiple of 0.1"],
                ),
            ],
        },
        Case {
            name: "root type",
            schema: json!({"type": "object"}),
            valid: vec![json!({})],
            invalid: vec![(
                json!("x"),
                vec![
                    r#"<nil>: Invalid value: "string":  in body must be of type object: "string""#,
                ],
            )],
        },
    ]);
}
