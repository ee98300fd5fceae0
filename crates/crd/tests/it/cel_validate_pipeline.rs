//! The transcribed `TestValidationExpressions` rules end to end, as `crdgen validate` runs
//! them: each schema (with its rule) becomes the `spec` of a CRD, which must pass the CRD check
//! (`check_crd_full`: compilation with the API server's new-expression environment, cost
//! limits); the object is pruned, defaulted and validated as a custom resource. A valid rule
//! must give no error; an error rule must be reported (by the check, or by validation).

use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
use crdkit_apimachinery::field::FieldError;
use crdkit_crd::crd_check::check_crd_full;
use crdkit_schema::crd::CustomResourceDefinition;
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::{Value, json};

fn data() -> Value {
    let path = format!(
        "{}/../apiextensions/tests/data/cel/validate/validation_test.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn crd(spec_schema: &Value) -> CustomResourceDefinition {
    CustomResourceDefinition::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec_schema}}}}]}}))
    .unwrap()
}

enum Outcome {
    Rejected(Vec<FieldError>),
    Validated(Vec<FieldError>),
}

fn run(schema: &Value, rule: &str, obj: &Value, old: Option<&Value>) -> Outcome {
    let mut s = schema.clone();
    s["x-kubernetes-validations"] = json!([{"rule": rule}]);
    let problems = check_crd_full(&crd(&s));
    if !problems.is_empty() {
        return Outcome::Rejected(problems);
    }
    let root = json!({"type": "object", "properties": {"spec": s}});
    let props: JsonSchemaProps = serde_json::from_value(root).unwrap();
    let compiled =
        CompiledSchema::new(&Structural::from_props(&props).unwrap()).with_resource(ResourceInfo {
            api_version: "example.com/v1".into(),
            kind: "Foo".into(),
            namespaced: Some(true),
        });
    let wrap = |spec: &Value| {
        let mut o = json!({"apiVersion": "example.com/v1", "kind": "Foo",
            "metadata": {"name": "foo", "namespace": "default"}, "spec": spec});
        compiled.prune_and_default(&mut o).map(|_| o)
    };
    let errs = match (wrap(obj), old.map(wrap)) {
        (Err(e), _) | (_, Some(Err(e))) => vec![e],
        (Ok(o), None) => compiled.validate(&o),
        (Ok(o), Some(Ok(old))) => compiled.validate_update(&o, &old),
    };
    Outcome::Validated(errs)
}

/// Rules that fail end to end for reasons outside validation: the object's embedded
/// `metadata.namespace` is not a DNS label (the API server rejects it too). Each must still
/// fail: remove it once it passes.
const EXPECTED_FAILURES: &[(&str, &str)] = &[
    (
        "embedded object with usage of reserved keywords",
        "has(self.embedded.metadata.namespace)",
    ),
    (
        "embedded object with usage of reserved keywords",
        "self.embedded.metadata.namespace == 'reserved_keyword_namespace'",
    ),
    (
        "embedded object with usage of reserved keywords",
        "has(self.embedded.spec.if)",
    ),
    (
        "embedded object with usage of reserved keywords",
        "self.embedded.spec.if == 'reserved_keyword_if'",
    ),
];

fn show(errs: &[FieldError]) -> String {
    errs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n      ")
}

#[test]
fn validation_expressions_through_crds() {
    let data = data();
    let (mut total, mut rejected, mut failures) = (0, Vec::new(), Vec::new());
    let mut expected_seen = Vec::new();
    for case in data["TestValidationExpressions"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        // Root-only cases (apiVersion, kind, metadata at the rule's level) do not fit under spec.
        if case.get("isRoot").is_some_and(|b| b == true) {
            continue;
        }
        let old = case.get("oldObj").filter(|o| !o.is_null());
        for rule in case["valid"].as_array().into_iter().flatten() {
            total += 1;
            let rule = rule.as_str().unwrap();
            match run(&case["schema"], rule, &case["obj"], old) {
                Outcome::Rejected(p) => {
                    rejected.push(format!("{name}: {rule}:\n      {}", show(&p)));
                }
                Outcome::Validated(e) if !e.is_empty() => {
                    if EXPECTED_FAILURES.contains(&(name, rule)) {
                        expected_seen.push((name, rule));
                    } else {
                        failures.push(format!("{name}: {rule}:\n      {}", show(&e)));
                    }
                }
                Outcome::Validated(_) => {}
            }
        }
        for (rule, want) in case["errors"].as_object().into_iter().flatten() {
            total += 1;
            match run(&case["schema"], rule, &case["obj"], old) {
                Outcome::Validated(e) if e.is_empty() => {
                    failures.push(format!("{name}: {rule}: no error (want {want})"));
                }
                _ => {}
            }
        }
    }
    eprintln!(
        "{total} rules; {} rejected by the CRD check (cost or compatibility):\n  {}",
        rejected.len(),
        rejected.join("\n  ")
    );
    for (name, rule) in EXPECTED_FAILURES {
        if !expected_seen.contains(&(name, rule)) {
            failures.push(format!(
                "{name}: {rule}: passes now; remove it from EXPECTED_FAILURES"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}
