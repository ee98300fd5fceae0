//! Schema-based cost estimates against apiextensions `pkg/apiserver/schema/cel/
//! compilation_test.go` `TestCostEstimation`, transcribed to
//! `compilation_cost_estimation.json`: 68 rules on generated schemas, each costed without and
//! with max limits (the generators, and the helpers of `validation_test.go` its inline
//! generators use, are rewritten here as OpenAPI JSON).

use crdkit_cel::decl::schema_decl_type;
use serde_json::Value;

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
    use crdkit_cel::rule::{RuleOptions, compile_rules};
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
            let props: crdkit_schema::JsonSchemaProps =
                serde_json::from_value(json.clone()).unwrap();
            let s = crdkit_schema::Structural::from_props(&props).unwrap();
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

/// apiextensions `celcoststability_test.go` `TestCelEstimatedCostStability`, transcribed to
/// `cost_stability_estimated.json`: each rule on the root of its schema (not a resource root),
/// checked by its `MaxCost`, as `schemaChecker` does.
#[test]
fn apiextensions_estimated_cost_stability() {
    use crdkit_cel::rule::{RuleOptions, compile_rules};
    let path = format!(
        "{}/tests/data/cel/check/cost_stability_estimated.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut total = 0;
    for c in data["cases"].as_array().unwrap() {
        for pair in c["expectCost"].as_array().unwrap() {
            total += 1;
            let rule = pair[0].as_str().unwrap();
            let want = pair[1].as_u64().unwrap();
            let mut json = c["schema"].clone();
            json["x-kubernetes-validations"] = serde_json::json!([{ "rule": rule }]);
            let props: crdkit_schema::JsonSchemaProps = serde_json::from_value(json).unwrap();
            let s = crdkit_schema::Structural::from_props(&props).unwrap();
            let decl = schema_decl_type(&s, false).unwrap();
            let results = compile_rules(&s.extensions.validations, &decl, &RuleOptions::default());
            let r = &results[0];
            if r.error.is_some() || r.max_cost != want {
                failures.push(format!(
                    "{} / {rule}: want {want}, got {} {:?}",
                    c["name"], r.max_cost, r.error
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// apiextensions `compilation_test.go` `TestMetadataNameCostIsBounded`: on a resource root
/// with no declared properties, `metadata.name` and `metadata.generateName` have the bounded
/// length of object names, so a rule reading them costs more than 0 and at most 10000 (stored
/// expressions: the newest environment).
#[test]
fn metadata_name_cost_is_bounded() {
    use crdkit_cel::env::NEWEST_VERSION;
    use crdkit_cel::rule::{RuleOptions, compile_rules};
    for rule in [
        "self.metadata.name.contains('x')",
        "self.metadata.generateName.contains('x')",
    ] {
        let json =
            serde_json::json!({"type": "object", "x-kubernetes-validations": [{"rule": rule}]});
        let props: crdkit_schema::JsonSchemaProps = serde_json::from_value(json).unwrap();
        let s = crdkit_schema::Structural::from_props(&props).unwrap();
        let decl = schema_decl_type(&s, true).unwrap();
        let opts = RuleOptions {
            version: NEWEST_VERSION,
            ..RuleOptions::default()
        };
        let r = &compile_rules(&s.extensions.validations, &decl, &opts)[0];
        assert!(r.error.is_none(), "{rule}: {:?}", r.error);
        assert!(
            r.max_cost > 0 && r.max_cost <= 10_000,
            "{rule}: {}",
            r.max_cost
        );
    }
}
