//! Static cost estimates against the API server's own tables:
//! - `library_cost_test.json`: every `testCost` case of apiserver `pkg/cel/library/cost_test.go`
//!   (expression, estimated min/max, runtime cost), with that test's environment: all Kubernetes
//!   libraries, `authorizer`, no homogeneous-literal rule, and a size estimator that bounds
//!   every string and bytes value at 12;
//! - the limits and messages of apiextensions `validation.go`, its `TotalCost` and cardinality
//!   tests, and the docs' example rules.

use crdkit_cel::check::compile;
use crdkit_cel::cost::{
    self, CostEstimate, STATIC_ESTIMATED_COST_LIMIT, SizeEstimate, SizeEstimator,
};
use crdkit_cel::decl::schema_decl_type;
use crdkit_cel::env::{CheckEnv, Library, NEWEST_VERSION};
use crdkit_cel::types::Type;
use serde_json::{Value, json};

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
        "{}/../apiextensions/tests/data/cel/check/library_cost_test.json",
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
        let props: crdkit_schema::JsonSchemaProps = serde_json::from_value(v).unwrap();
        crdkit_schema::Structural::from_props(&props).unwrap()
    };
    let rule_cost = |s: &crdkit_schema::Structural, rule: &str| {
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

/// validation_test.go `TestPerCRDEstimatedCost`.
#[test]
fn per_crd_estimated_cost() {
    let cases: &[(&[u64], &[u64], u64)] = &[
        (&[], &[], 0),
        (&[1_000_000], &[1_000_000], 1_000_000),
        (&[900_000], &[], 900_000),
        (
            &[5_000_000, 25_000_000],
            &[25_000_000, 5_000_000],
            30_000_000,
        ),
        (
            &[5_000_000, 25_000_000, 900_000],
            &[25_000_000, 5_000_000],
            30_900_000,
        ),
        (
            &[16_000_000, 50_000_000, 34_000_000, 50_000_000],
            &[50_000_000, 50_000_000, 34_000_000, 16_000_000],
            150_000_000,
        ),
        (
            &[
                16_000_000, 50_000_000, 900_000, 34_000_000, 50_000_000, 50_000_001,
            ],
            &[50_000_001, 50_000_000, 50_000_000, 34_000_000],
            200_900_001,
        ),
        (
            &[u64::MAX / 2, u64::MAX / 2, 1, 10, 100, 1000],
            &[u64::MAX / 2, u64::MAX / 2],
            u64::MAX,
        ),
    ];
    for (costs, expensive, total) in cases {
        let mut t = cost::TotalCost::<()>::default();
        for c in *costs {
            t.observe((), *c);
        }
        let got: Vec<u64> = t.most_expensive.iter().map(|e| e.1).collect();
        assert_eq!((got.as_slice(), t.total), (*expensive, *total), "{costs:?}");
    }
}

/// validation_test.go `TestCostInfo`: the cardinality of a leaf under a chain of schemas.
#[test]
fn cost_info_cardinality() {
    use crdkit_crd::crd_check::cel::child_cardinality;
    use crdkit_schema::JsonSchemaProps;
    let s = |v: Value| -> JsonSchemaProps { serde_json::from_value(v).unwrap() };
    let object = || s(json!({"type": "object", "properties": {"field": {"type": "string"}}}));
    let array = |max: Option<i64>| {
        let mut v = json!({"type": "array", "items": {"type": "string"}});
        if let Some(m) = max {
            v["maxItems"] = json!(m);
        }
        s(v)
    };
    let map = |max: Option<i64>| {
        let mut v = json!({"type": "object", "additionalProperties": {"type": "string"}});
        if let Some(m) = max {
            v["maxProperties"] = json!(m);
        }
        s(v)
    };
    let cases: Vec<(Vec<JsonSchemaProps>, Option<u64>)> = vec![
        (vec![object()], Some(1)),
        (vec![array(Some(5))], Some(5)),
        (vec![array(None)], None),
        (vec![map(Some(10))], Some(10)),
        (vec![map(None)], None),
        (vec![map(Some(5)), array(Some(5))], Some(25)),
        (vec![map(Some(5)), array(None)], None),
        (vec![array(Some(3)), object()], Some(3)),
        (vec![array(Some(2)), object(), map(Some(4))], Some(8)),
        (
            vec![array(Some(i64::MAX)), array(Some(100))],
            Some(u64::MAX),
        ),
    ];
    for (chain, want) in cases {
        // The root context has cardinality 1; each schema multiplies its children's.
        let got = chain
            .iter()
            .try_fold(1, |c, s| child_cardinality(s, Some(c)));
        assert_eq!(got, want);
    }
}
