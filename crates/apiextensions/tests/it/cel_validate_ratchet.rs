//! Validation ratcheting on update:
//!
//! - apiextensions `pkg/apiserver/schema/cel/validation_test.go` `TestRatcheting` (CEL rules:
//!   which failures stay errors and which become warnings), from `validation_test.json`;
//! - `pkg/apiserver/validation/ratcheting_test.go` (OpenAPI value validation), from
//!   `ratcheting_openapi.json`;
//! - `test/integration/ratcheting_test.go` `TestRatchetingFunctionality` (sequences of schema
//!   changes and server-side applies of one object, each expected to pass or fail), from
//!   `ratcheting_integration.json`, run through pruning, defaulting and the whole validation;
//! - apiserver `pkg/cel/common/equality_test.go` `TestCorrelation` (`correlation.json`) and
//!   apiextensions `pkg/apiserver/schema/cel/maplist_test.go` `TestMapList` (`maplist.json`) for
//!   the correlation itself.

use crdkit_apiextensions::ratchet::{Correlated, MapList};
use crdkit_apiextensions::validate::cel::CelValidator;
use crdkit_apiextensions::validate::{CompiledSchema, ResourceInfo};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::{Value, json};

use crate::patch;
use patch::{merge_patch, without_nulls};

fn load(name: &str) -> Value {
    let path = format!(
        "{}/tests/data/cel/validate/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn structural(props: &Value) -> Structural {
    let p: JsonSchemaProps = serde_json::from_value(props.clone()).unwrap();
    Structural::from_props(&p).unwrap()
}

fn show(errs: &[FieldError]) -> String {
    errs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n    ")
}

fn report(name: &str, total: usize, failures: &[String]) {
    eprintln!("{name}: {}/{total} passed", total - failures.len());
    assert!(
        failures.is_empty(),
        "{name}: {} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn cel_ratcheting() {
    let data = load("validation_test.json");
    let cases = data["TestRatcheting"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let s = structural(&case["schema"]);
        let (new, old) = (&case["newObj"], &case["oldObj"]);
        let correlation = Correlated::new(new, old, &s);
        let budget = case
            .get("runtimeCostBudget")
            .and_then(Value::as_i64)
            .filter(|b| *b != 0)
            .unwrap_or(10_000_000);
        let r = CelValidator::new(&s, false).validate_with_budget(
            &FieldPath::new("root"),
            new,
            Some(old),
            Some(&correlation),
            budget,
        );
        let errors = strings(&case["errors"]);
        let warnings = strings(&case["warnings"]);
        let ok = r.errors.len() == errors.len()
            && errors
                .iter()
                .all(|e| r.errors.iter().any(|g| g.to_string().contains(e.as_str())))
            && r.warnings.len() == warnings.len()
            && warnings
                .iter()
                .all(|w| r.warnings.iter().any(|g| g.to_string() == *w));
        if !ok {
            failures.push(format!(
                "{name}:\n  errors {errors:?}, got:\n    {}\n  warnings {warnings:?}, got:\n    {}",
                show(&r.errors),
                show(&r.warnings)
            ));
        }
    }
    report("TestRatcheting", cases.len(), &failures);
}

#[test]
fn openapi_ratcheting() {
    let data = load("ratcheting_openapi.json");
    let cases = data["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let schema = CompiledSchema::new(&structural(&case["schema"]));
        let errs = schema.validate_openapi_update(&case["new"], &case["old"]);
        if errs.is_empty() != case["valid"].as_bool().unwrap() {
            failures.push(format!("{name}: got:\n    {}", show(&errs)));
        }
    }
    report("ratcheting_test.go", cases.len(), &failures);
}

#[test]
fn ratcheting_functionality() {
    let data = load("ratcheting_integration.json");
    let cases = data["cases"].as_array().unwrap();
    let mut total = 0;
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut schema = Value::Null;
        let mut stored: Option<Value> = None;
        for step in case["steps"].as_array().unwrap() {
            match step["op"].as_str().unwrap() {
                "setSchema" => schema = step["schema"].clone(),
                "patchSchema" => merge_patch(&mut schema, &step["patch"]),
                _ => {
                    total += 1;
                    let compiled =
                        CompiledSchema::new(&structural(&schema)).with_resource(ResourceInfo {
                            api_version: "mygroup.example.com/v1beta1".into(),
                            kind: "MyCoolCRD".into(),
                            namespaced: Some(true),
                        });
                    let mut obj = without_nulls(&step["object"]);
                    obj["apiVersion"] = json!("mygroup.example.com/v1beta1");
                    obj["kind"] = json!("MyCoolCRD");
                    obj["metadata"] = json!({"name": "mycrdinstance", "namespace": "default"});
                    let errs = match compiled.prune_and_default(&mut obj) {
                        Err(e) => vec![e],
                        Ok(_) => match &stored {
                            None => compiled.validate(&obj),
                            Some(old) => compiled.validate_update(&obj, old),
                        },
                    };
                    let expect_error = step["expectError"].as_bool().unwrap();
                    if errs.is_empty() == expect_error {
                        failures.push(format!(
                            "{name}: {}: expected {}, got:\n    {}",
                            step["description"].as_str().unwrap(),
                            if expect_error { "an error" } else { "no error" },
                            show(&errs)
                        ));
                    }
                    if errs.is_empty() {
                        stored = Some(obj);
                    }
                }
            }
        }
    }
    report("TestRatchetingFunctionality", total, &failures);
}

/// apiserver `pkg/cel/common/equality_test.go` `TestCorrelation`: following a key path through
/// the correlated object gives the expected new and old values (or nothing, where the path
/// does not correlate), and the cached deep-equal agrees with plain equality or the expected
/// result (map lists compare regardless of order).
#[test]
fn correlation() {
    let data = load("correlation.json");
    let cases = data["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let s = structural(&case["schema"]);
        let (root, root_old) = (&case["root"], &case["rootOld"]);
        let mut node = Some(Correlated::new(root, root_old, &s));
        for step in case["keyPath"].as_array().unwrap() {
            let Some(n) = node else { break };
            node = match step {
                Value::String(k) => n.key(k),
                Value::Number(i) => n.index(usize::try_from(i.as_u64().unwrap()).unwrap()),
                _ => panic!("{name}: bad key path"),
            };
        }
        let (want_new, want_old) = (&case["new"], &case["old"]);
        match node {
            None if want_new.is_null() && want_old.is_null() => {}
            None => failures.push(format!("{name}: the path does not correlate")),
            Some(n) => {
                if n.new != want_new || n.old != want_old {
                    failures.push(format!("{name}: got {} / {}", n.new, n.old));
                }
                let equal = case["expectEqual"].as_bool().unwrap() || n.new == n.old;
                if n.cached_deep_equal() != equal {
                    failures.push(format!("{name}: deep-equal {}", !equal));
                }
            }
        }
    }
    report("TestCorrelation", cases.len(), &failures);
}

/// apiextensions `pkg/apiserver/schema/cel/maplist_test.go` `TestMapList`: old map-list items
/// found by the keys of a new item (first wins; items and queries without all keys, or with
/// non-scalar keys, match nothing), whatever lookups came before.
#[test]
fn map_list() {
    let data = load("maplist.json");
    let cases = data["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let s = structural(&case["schema"]);
        let items = case["items"].as_array().unwrap();
        let list = MapList::new(&s, items);
        for q in case["warmUpQueries"].as_array().unwrap() {
            let _ = list.get(q);
        }
        let got = list.get(&case["query"]).cloned().unwrap_or(Value::Null);
        if got != case["expected"] {
            failures.push(format!("{name}: got {got}, want {}", case["expected"]));
        }
    }
    report("TestMapList", cases.len(), &failures);
}

/// A junctor's branches are plain validators (kube-openapi `schema_option.go`: `Options()`
/// passes no ratcheting hooks on), so what an `allOf` of a changed object says about an
/// unchanged property stays, even when the property's own schema says the same and is dropped.
#[test]
fn junctor_errors_about_unchanged_children_stay() {
    let schema = CompiledSchema::new(&structural(&json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "properties": {
                "x": {"type": "string", "maxLength": 1},
                "y": {"type": "integer"},
                "z": {"type": "string", "maxLength": 1}},
            "allOf": [{"properties": {"x": {"maxLength": 1}}}]}}})));
    let old = json!({"spec": {"x": "abc", "y": 1, "z": "abc"}});
    let new = json!({"spec": {"x": "abc", "y": 2, "z": "abc"}});
    let errs = schema.validate_openapi_update(&new, &old);
    assert_eq!(
        show(&errs),
        "spec.x: Too long: may not be more than 1 byte\n    \
         <nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf). None validated",
        "x by the allOf of the changed spec; z (unchanged, own schema) dropped"
    );
    // Nothing changed: the root's validator drops everything.
    assert!(schema.validate_openapi_update(&old, &old).is_empty());
    // On create, the allOf and x's own schema say the same once (errors are kept by message).
    assert_eq!(
        show(&schema.validate_openapi(&new, &FieldPath::nil())),
        "spec.x: Too long: may not be more than 1 byte\n    \
         <nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf). None validated\n    \
         spec.z: Too long: may not be more than 1 byte"
    );
}
