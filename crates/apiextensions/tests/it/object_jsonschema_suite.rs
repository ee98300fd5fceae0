//! kube-openapi `pkg/validation/validate/jsonschema_test.go`: the JSON-Schema-Test-Suite
//! fixtures that `TestJSONSchemaSuite`, `TestSchemaFixtures` and `TestFormat_JSONSchemaExtended`
//! run, checked for validity (errors or none), as Go does.
//!
//! Go decodes the fixtures with `encoding/json`, so every number in the data is a `float64`;
//! the data here is converted the same way (which matters for `multipleOf: 1.5` on `35`: the
//! API server, which decodes integers as `int64`, truncates the factor to 1 there).
//!
//! Not run, as no CRD can express them (apiextensions-apiserver `schema/convert.go` and the CRD
//! validation reject these keywords; the structural schema has no place for them): groups whose
//! schema uses `patternProperties`, `dependencies`, `additionalItems`, an array of `items`
//! schemas, an array of types or the `null` type, `$ref` or `definitions`.

use crdkit_apiextensions::validate::CompiledSchema;
use crdkit_apimachinery::field::FieldPath;
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::{Value, json};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/jsonschema_suite");

/// Whether `s` uses a keyword no CRD can have.
fn outside_crds(s: &Value) -> bool {
    match s {
        Value::Object(m) => m.iter().any(|(k, v)| {
            matches!(
                k.as_str(),
                "patternProperties" | "dependencies" | "additionalItems" | "$ref" | "definitions"
            ) || (k == "items" && v.is_array())
                || (k == "type" && (v.is_array() || v == "null"))
                || outside_crds(v)
        }),
        Value::Array(a) => a.iter().any(outside_crds),
        _ => false,
    }
}

/// Numbers as `encoding/json` decodes them into `interface{}`: `float64`.
fn floats(v: &Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| v.clone(), Value::Number),
        Value::Array(a) => Value::Array(a.iter().map(floats).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), floats(v))).collect()),
        _ => v.clone(),
    }
}

#[test]
fn jsonschema_suite() {
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut run, mut failures) = (0, Vec::new());
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let groups: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for g in groups {
            // `schemas/int-enum.json` has one valid and one invalid object instead of tests.
            let tests = g.get("tests").cloned().unwrap_or_else(|| {
                json!([{"description": "valid", "data": g["valid"], "valid": true},
                       {"description": "invalid", "data": g["invalid"], "valid": false}])
            });
            if outside_crds(&g["schema"]) {
                continue;
            }
            let props: JsonSchemaProps = serde_json::from_value(g["schema"].clone())
                .unwrap_or_else(|e| panic!("{file}: {}: {e}", g["description"]));
            let s = CompiledSchema::new(&Structural::from_props(&props).unwrap());
            for t in tests.as_array().unwrap() {
                run += 1;
                let errs = s.validate_openapi(&floats(&t["data"]), &FieldPath::nil());
                if t["valid"].as_bool().unwrap() != errs.is_empty() {
                    failures.push(format!(
                        "{file}: {} / {}: {} gave {:?}",
                        g["description"], t["description"], t["data"], errs
                    ));
                }
            }
        }
    }
    assert!(run >= 270, "only {run} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
