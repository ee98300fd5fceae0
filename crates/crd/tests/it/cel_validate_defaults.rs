//! CEL rules on defaults, as the CRD check runs them: apiextensions
//! `pkg/apiserver/schema/defaulting/validation_test.go` (`TestDefaultValidationWithCostBudget`:
//! the rules of all defaults share one budget, and running out of it is reported once;
//! `TestDefaultValidationWithOptionalOldSelf`: a default must also pass as a new value).

use crdkit_apimachinery::field::FieldError;
use crdkit_crd::crd_check::{CheckOptions, ValueDefaultValidator, check_crd_with};
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::{Value, json};

fn crd(schema: &Value) -> CustomResourceDefinition {
    CustomResourceDefinition::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema}}]}}))
    .unwrap()
}

fn check(schema: &Value, budget: i64) -> Vec<String> {
    let v = ValueDefaultValidator::with_budget(budget);
    let opts = CheckOptions {
        default_validator: Some(&v),
        cel: None,
    };
    check_crd_with(&crd(schema), &opts)
        .iter()
        .map(FieldError::to_string)
        .collect()
}

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

#[test]
fn default_validation_with_cost_budget() {
    let schema = json!({"type": "object", "properties": {
        "embedded": {"type": "object", "properties": {
            "metadata": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                "name": {"type": "string", "default": "singleton",
                    "x-kubernetes-validations": [{"rule": "self == 'singleton'"}]}}}}},
        "value": {"type": "string", "default": "kube-everything",
            "x-kubernetes-validations": [{"rule": "self.startsWith('kube-everyt')"}]},
        "object": {"type": "object", "default": {"field1": 1, "field2": 2},
            "properties": {"field1": {"type": "integer"}, "field2": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.field1 < self.field2"}]}}});
    // A budget large enough for all rules.
    let errs = check(&schema, 10);
    assert!(errs.is_empty(), "{errs:?}");
    // Exhausted at the first rule, and at the last.
    for budget in [0, 9] {
        let errs = check(&schema, budget);
        let out = errs.iter().filter(|e| e.contains(OUT_OF_BUDGET)).count();
        assert_eq!(out, 1, "budget {budget}: {errs:?}");
    }
}

#[test]
fn default_validation_with_optional_old_self() {
    let schema = |rule: &str| {
        json!({"type": "object", "properties": {"defaultFailsRatcheting": {
            "type": "string", "default": "default",
            "x-kubernetes-validations": [{"rule": rule, "optionalOldSelf": true,
                "message": "foobarErrorMessage"}]}}})
    };
    // Fails when validated as a new value (no oldSelf).
    let errs = check(&schema("oldSelf.hasValue()"), 10);
    assert_eq!(
        errs,
        [
            "spec.validation.openAPIV3Schema.properties[defaultFailsRatcheting].default: Invalid value: \"default\": foobarErrorMessage"
        ]
    );
    let errs = check(&schema("oldSelf.orValue(self) == self"), 10);
    assert!(errs.is_empty(), "{errs:?}");
}
