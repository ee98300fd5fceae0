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

/// The schema generators of apiextensions `compilation_test.go` (and the helpers of
/// `validation_test.go` its inline generators use), as OpenAPI JSON.
mod schemas {
    use serde_json::{Value, json};

    fn with(mut v: Value, key: &str, n: Option<i64>) -> Value {
        if let Some(n) = n {
            v[key] = json!(n);
        }
        v
    }

    /// `parseRuleType`: `duration`, `date`, `date-time` are string formats; `int-or-string`.
    fn rule_type(t: &str) -> Value {
        match t {
            "duration" | "date" | "date-time" => json!({"type": "string", "format": t}),
            "int-or-string" => json!({"x-kubernetes-int-or-string": true}),
            _ => json!({"type": t}),
        }
    }

    fn rule(v: Value, rule: &str) -> Value {
        let mut v = v;
        v["x-kubernetes-validations"] = json!([{ "rule": rule }]);
        v
    }

    fn required_optional() -> Value {
        json!({"type": "object", "required": ["required"],
            "properties": {"required": {"type": "string"}, "optional": {"type": "string"}}})
    }

    pub(super) fn schema(name: &str, args: &[String], max: Option<i64>) -> Value {
        let a = |i: usize| args[i].as_str();
        let string = with(json!({"type": "string"}), "maxLength", max);
        match name {
            "genArrayWithRule" => rule(
                with(
                    json!({"type": "array", "items": rule_type(a(0))}),
                    "maxItems",
                    max,
                ),
                a(1),
            ),
            "genArrayOfArraysWithRule" => rule(
                with(
                    json!({"type": "array", "items": {"type": "array", "items": {"type": a(0)}}}),
                    "maxItems",
                    max,
                ),
                a(1),
            ),
            "genObjectArrayWithRule" => rule(
                with(
                    json!({"type": "array", "items": required_optional()}),
                    "maxItems",
                    max,
                ),
                a(0),
            ),
            "getMapArrayWithRule" => rule(
                with(
                    json!({"type": "array", "items": {"type": "object",
                        "additionalProperties": {"type": a(0)}}}),
                    "maxItems",
                    max,
                ),
                a(1),
            ),
            "genMapWithRule" => rule(
                with(
                    json!({"type": "object", "additionalProperties": rule_type(a(0))}),
                    "maxProperties",
                    max,
                ),
                a(1),
            ),
            "genStringWithRule" => rule(string, a(0)),
            "genEnumWithRuleAndValues" => {
                let mut s = string;
                s["enum"] = json!(args[1..]);
                rule(s, a(0))
            }
            "genBytesWithRule" => {
                let mut s = string;
                s["format"] = json!("byte");
                rule(s, a(0))
            }
            "genNestedSpecWithRule" => rule(
                with(
                    json!({"type": "object", "additionalProperties": string}),
                    "maxProperties",
                    max,
                ),
                a(0),
            ),
            "genAllMaxNestedSpecWithRootRule" | "genOneMaxNestedSpecWithRootRule" => {
                let all = name == "genAllMaxNestedSpecWithRootRule";
                let mut inner = required_optional();
                if all {
                    inner = with(inner, "maxProperties", max);
                }
                let items = with(
                    json!({"type": "object", "additionalProperties": inner}),
                    "maxProperties",
                    max,
                );
                let mut arr = json!({"type": "array", "items": items});
                if all {
                    arr = with(arr, "maxItems", max);
                }
                rule(arr, a(0))
            }
            "genMapWithCustomItemRule" => {
                let item = match a(0) {
                    "genObjectForMap()" => required_optional(),
                    "genArrayForMap()" => json!({"type": "array", "items": {"type": "number"}}),
                    "genMapForMap()" => {
                        json!({"type": "object", "additionalProperties": {"type": "number"}})
                    }
                    other => panic!("item generator {other}"),
                };
                rule(
                    with(
                        json!({"type": "object", "additionalProperties": item}),
                        "maxProperties",
                        max,
                    ),
                    a(1),
                )
            }
            "inlineJoin" | "inlineIsSorted" => {
                let r = if name == "inlineJoin" {
                    "self.join(' ') == 'aa bb'"
                } else {
                    "self.isSorted() == true"
                };
                let arr =
                    json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": string});
                rule(with(arr, "maxItems", max), r)
            }
            "inlineReplace" => rule(
                json!({"type": "object", "properties": {"str": string,
                    "before": {"type": "string", "maxLength": 2},
                    "after": {"type": "string", "maxLength": 4}}}),
                "self.str.replace(self.before, self.after) == 'does not matter'",
            ),
            "inlineSplit" => rule(
                json!({"type": "object", "properties": {"str": string, "separator": string}}),
                "self.str.split(self.separator) == []",
            ),
            "inlineLowerAscii" => rule(string, "self.lowerAscii() == 'lower!'"),
            "inlineIntOrStringQuantity" => rule(
                with(
                    json!({"x-kubernetes-int-or-string": true}),
                    "maxLength",
                    max,
                ),
                "isQuantity(self)",
            ),
            other => panic!("generator {other}"),
        }
    }
}

/// apiextensions `compilation_test.go` `TestCostEstimation`: the `MaxCost` of one rule on a
/// generated schema, without and with max limits (`schemaChecker`).
#[test]
fn apiextensions_cost_estimation() {
    use crdkit_runtime::cel::check::compile::{RuleOptions, compile_rules};
    let path = format!(
        "{}/tests/data/cel/check/compilation_cost_estimation.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for c in &cases {
        let args: Vec<String> = c["args"]
            .as_array()
            .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let name = c["generator"].as_str().unwrap();
        let num = |k: &str| c[k].as_u64().unwrap_or(0);
        for (max, want, exceeds) in [
            (
                None,
                num("expectedCalcCost"),
                num("expectCalcCostExceedsLimit"),
            ),
            (
                c["setMaxElements"].as_i64(),
                num("expectedSetCost"),
                num("expectedSetCostExceedsLimit"),
            ),
        ] {
            let json = schemas::schema(name, &args, max);
            let props: crdkit_runtime::schema::JsonSchemaProps =
                serde_json::from_value(json.clone()).unwrap();
            let s = crdkit_runtime::schema::Structural::from_props(&props).unwrap();
            let decl = schema_decl_type(&s, false).unwrap();
            let results = compile_rules(&s.extensions.validations, &decl, &RuleOptions::default());
            let r = &results[0];
            let bad = r.error.is_some()
                || (want > 0 && r.max_cost != want)
                || (exceeds > 0 && r.max_cost < exceeds);
            if bad {
                failures.push(format!(
                    "{} (max {max:?}): want {want} (exceeds {exceeds}), got {} {:?}\n{json}",
                    c["name"], r.max_cost, r.error
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        cases.len() * 2,
        failures.join("\n")
    );
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
    use crdkit_runtime::cel::check::crd::child_cardinality;
    use crdkit_runtime::schema::JsonSchemaProps;
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
        let got = chain.iter().try_fold(1, |c, s| child_cardinality(s, Some(c)));
        assert_eq!(got, want);
    }
}
