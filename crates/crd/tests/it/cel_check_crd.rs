//! The CEL part of CRD validation through the CRD checker's hook, against apiextensions
//! `pkg/apis/apiextensions/validation/validation_test.go`
//! `TestValidateCustomResourceDefinitionValidation`: every case with `x-kubernetes-validations`
//! (68), transcribed to `crd_validation_test.json` with the schema as OpenAPI JSON and the
//! expected (type, path) list. Each schema is checked inside a v1 CRD (paths under
//! `spec.versions[0].schema` are mapped back to Go's `spec.validation`); the errors compared are
//! those of rules (paths with `x-kubernetes-validations`) and of the schema's total cost.

use crdkit_apimachinery::field::{ErrorType, FieldError};
use crdkit_cel::rule::RuleOptions;
use crdkit_crd::crd_check::cel::CrdRuleChecker;
use crdkit_crd::crd_check::{CheckOptions, check_crd_with};
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::{Value, json};

const ROOT: &str = "spec.validation.openAPIV3Schema";

fn crd(schema: &Value, status: bool) -> CustomResourceDefinition {
    let mut version = json!({"name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": schema}});
    if status {
        version["subresources"] = json!({"status": {}});
    }
    CustomResourceDefinition::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [version]}}))
    .unwrap()
}

fn cel_related(t: &str, path: &str) -> bool {
    path.contains("x-kubernetes-validations") || (t == "forbidden" && path == ROOT)
}

fn type_name(e: &FieldError) -> &'static str {
    match e.error_type {
        ErrorType::Forbidden => "forbidden",
        ErrorType::Invalid => "invalid",
        ErrorType::Required => "required",
        ErrorType::NotSupported => "unsupported",
        _ => "other",
    }
}

#[test]
fn validate_custom_resource_definition_validation() {
    let path = format!(
        "{}/tests/data/cel/check/crd_validation_test.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut failures, mut compared) = (Vec::new(), 0);
    for c in &cases {
        let version = c["opts"]["celEnvironmentSet"]["args"][0]["args"]
            .as_array()
            .map(|v| (v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32));
        let mut options = RuleOptions::default();
        if let Some(v) = version {
            options.version = v;
        }
        let checker = CrdRuleChecker::new(options);
        let opts = CheckOptions {
            cel: Some(&checker),
            ..CheckOptions::default()
        };
        let errs = check_crd_with(&crd(&c["schema"], c["status"].as_bool().unwrap()), &opts);
        let mut got: Vec<(String, String)> = errs
            .iter()
            .map(|e| {
                let p = e
                    .field
                    .to_string()
                    .replace("spec.versions[0].schema.openAPIV3Schema", ROOT);
                (type_name(e).to_string(), p)
            })
            .filter(|(t, p)| cel_related(t, p))
            .collect();
        let mut want: Vec<(String, String)> = c["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_str().unwrap().to_string(),
                    e[1].as_str().unwrap().to_string(),
                )
            })
            .filter(|(t, p)| cel_related(t, p))
            .collect();
        got.sort();
        want.sort();
        compared += want.len();
        if got != want {
            let all: Vec<String> = errs.iter().map(ToString::to_string).collect();
            failures.push(format!(
                "--- {}\nwant {want:?}\ngot  {got:?}\n{}",
                c["name"],
                all.join("\n")
            ));
        }
    }
    assert_eq!(compared, 73, "expected errors compared");
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn check(schema: Value) -> Vec<String> {
    let checker = CrdRuleChecker::default();
    let opts = CheckOptions {
        cel: Some(&checker),
        ..CheckOptions::default()
    };
    check_crd_with(&crd(&schema, false), &opts)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The docs' "Resource use by validation functions" example, with the API server's text (a
/// CRD whose versions share one schema reports it at `spec.validation`, as Go's conversion to
/// the internal type hoists it).
#[test]
fn docs_cost_example_messages() {
    let rule = json!([{"rule": "self.all(x, x.contains('a string'))"}]);
    let unbounded = json!({"type": "object", "properties": {"foo": {"type": "array",
        "items": {"type": "string"}, "x-kubernetes-validations": rule}}});
    assert_eq!(
        check(unbounded),
        vec![
            "spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
            "spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            "spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
        ]
    );
    let bounded = json!({"type": "object", "properties": {"foo": {"type": "array",
        "maxItems": 25, "items": {"type": "string", "maxLength": 10},
        "x-kubernetes-validations": rule}}});
    assert_eq!(check(bounded), Vec::<String>::new());
    // The same rule on the items costs the same in total (25 times a smaller rule).
    let on_items = json!({"type": "object", "properties": {"foo": {"type": "array",
        "maxItems": 25, "items": {"type": "string", "maxLength": 10,
            "x-kubernetes-validations": [{"rule": "self.contains('a string')"}]}}}});
    assert_eq!(check(on_items), Vec::<String>::new());
    // A nested list multiplies: allowed on a flat list, rejected one level down.
    let flat = json!({"type": "object", "properties": {"foo": {"type": "array",
        "items": {"type": "integer"}}}, "x-kubernetes-validations": [{"rule": "self.foo.all(x, x == 5)"}]});
    assert_eq!(check(flat), Vec::<String>::new());
    let nested = json!({"type": "object", "properties": {"foo": {"type": "array",
        "items": {"type": "array", "items": {"type": "integer"},
            "x-kubernetes-validations": [{"rule": "self.all(x, x == 5)"}]}}}});
    let errs = check(nested);
    assert!(errs[0].starts_with("spec.validation.openAPIV3Schema.properties[foo].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of"), "{errs:#?}");
}

/// Compile errors, `messageExpression`, `optionalOldSelf` and uncorrelatable `oldSelf`, as the
/// API server prints them (the bad value is Go's JSON of the internal `ValidationRule`).
#[test]
fn rule_error_messages() {
    let errs = check(json!({"type": "object", "properties": {
        "a": {"type": "integer", "x-kubernetes-validations": [
            {"rule": "self == true"},
            {"rule": "self > 0", "messageExpression": "self"},
            {"rule": "self > 0", "optionalOldSelf": true}]},
        "l": {"type": "array", "items": {"type": "string", "maxLength": 5,
            "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}}));
    let p = "spec.validation.openAPIV3Schema";
    assert_eq!(
        errs,
        vec![
            format!(
                "{p}.properties[a].x-kubernetes-validations[0].rule: Invalid value: {}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^",
                r#"{"Rule":"self == true","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}"#
            ),
            format!(
                "{p}.properties[a].x-kubernetes-validations[1].messageExpression: Invalid value: {}: messageExpression must evaluate to a string",
                r#"{"Rule":"self \u003e 0","Message":"","MessageExpression":"self","Reason":null,"FieldPath":"","OptionalOldSelf":null}"#
            ),
            format!(
                "{p}.properties[a].x-kubernetes-validations[2].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule"
            ),
            format!(
                "{p}.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {p}.properties[l]"
            ),
        ]
    );
}
