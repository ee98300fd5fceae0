//! Static cost estimates against the API server's own tables:
//! - `library_cost_test.json`: every `testCost` case of apiserver `pkg/cel/library/cost_test.go`
//!   (expression, estimated min/max, runtime cost), with that test's environment: all Kubernetes
//!   libraries, `authorizer`, no homogeneous-literal rule, and a size estimator that bounds
//!   every string and bytes value at 12;
//! - the limits and messages of apiextensions `validation.go` and the docs' example rules.

use crdkit_runtime::cel::check::compile;
use crdkit_runtime::cel::cost::{
    self, CostEstimate, STATIC_ESTIMATED_COST_LIMIT, SizeEstimate, SizeEstimator,
};
use crdkit_runtime::cel::decl::schema_decl_type;
use crdkit_runtime::cel::env::{CheckEnv, Library, NEWEST_VERSION};
use crdkit_runtime::cel::types::Type;
use serde_json::Value;

/// cost_test.go `testCostEstimator`.
struct TestSizes;

impl SizeEstimator for TestSizes {
    fn estimate_size(&self, _path: &[String], ty: &Type) -> Option<SizeEstimate> {
        matches!(ty, Type::String | Type::Bytes).then_some(SizeEstimate { min: 0, max: 12 })
    }
}

fn library_test_env() -> CheckEnv {
    let mut env = CheckEnv::kubernetes(NEWEST_VERSION);
    env.libraries.push(Library::KubernetesJsonPatch);
    env.homogeneous_aggregate_literals = false;
    env.ast_validators = false;
    env.cross_type_numeric_comparisons = false;
    env.with_variable(
        "authorizer",
        Type::opaque_object("kubernetes.authorization.Authorizer"),
    )
}

#[test]
fn apiserver_library_cost_test() {
    let path = format!(
        "{}/tests/data/cel/check/library_cost_test.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let env = library_test_env();
    let mut failures = Vec::new();
    for c in &cases {
        let expr = c["expr"].as_str().unwrap();
        let want = CostEstimate {
            min: c["estimated"][0].as_u64().unwrap(),
            max: c["estimated"][1].as_u64().unwrap(),
        };
        match compile(expr, &env) {
            Err(e) => failures.push(format!("{}: {expr}\n{e}", c["test"])),
            Ok(checked) => {
                let got = cost::estimate(&checked, Some(&TestSizes), NEWEST_VERSION);
                if got != want {
                    failures.push(format!(
                        "{}: {expr}: want {}..{}, got {}..{}",
                        c["test"], want.min, want.max, got.min, got.max
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn cost_error_messages() {
    let msg = |c| cost::cost_error_message("estimated rule cost", c, STATIC_ESTIMATED_COST_LIMIT);
    let tail = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        msg(2_000_000_000),
        format!("estimated rule cost exceeds budget by factor of more than 100x {tail}")
    );
    assert_eq!(
        msg(25_000_000),
        format!("estimated rule cost exceeds budget by factor of 2.5x {tail}")
    );
    assert_eq!(
        msg(10_000_001),
        format!("estimated rule cost exceeds budget by factor of 1.000000x {tail}")
    );
    assert_eq!(cost::max_cardinality(2), 1_048_576);
    assert_eq!(
        cost::multiply_with_overflow_guard(u64::MAX / 2, 3),
        u64::MAX
    );
}

#[test]
fn docs_resource_use_examples() {
    let schema = |v: Value| {
        let props: crdkit_runtime::schema::JsonSchemaProps = serde_json::from_value(v).unwrap();
        crdkit_runtime::schema::Structural::from_props(&props).unwrap()
    };
    let rule_cost = |s: &crdkit_runtime::schema::Structural, rule: &str| {
        let decl = schema_decl_type(s, false).unwrap();
        let env = CheckEnv::kubernetes((1, 30)).with_variable("self", decl.cel_type());
        let checked = compile(rule, &env).unwrap();
        let c = cost::estimate(&checked, Some(&decl), (1, 30)).max;
        (c, cost::max_cardinality(decl.min_serialized_size))
    };
    // Unbounded list of unbounded strings: rejected.
    let foo = schema(serde_json::json!({"type": "array", "items": {"type": "string"}}));
    let (c, _) = rule_cost(&foo, "self.all(x, x.contains('a string'))");
    assert!(c > STATIC_ESTIMATED_COST_LIMIT, "{c}");
    // maxItems 25, maxLength 10: accepted.
    let foo = schema(serde_json::json!({"type": "array", "maxItems": 25,
        "items": {"type": "string", "maxLength": 10}}));
    let (c, _) = rule_cost(&foo, "self.all(x, x.contains('a string'))");
    assert!(c <= STATIC_ESTIMATED_COST_LIMIT, "{c}");
}
