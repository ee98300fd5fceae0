//! Programs compiled from type-checked expressions (`Program::compile_checked`, as the API
//! server plans checked ASTs): overloads and costs as the checker resolved them (cel-go
//! `interpreter/planner.go` `resolveFunction`, `interpreter/runtimecost.go` `costCall`), `sum()`
//! from the checked element type, constant regular expressions compiled with the program (Go's
//! `regexp` messages), and the views of embedded resources (apiextensions
//! `WithTypeAndObjectMeta`).

use crdkit_apiextensions::validate::cel::CelValidator;
use crdkit_apimachinery::field::FieldPath;
use crdkit_cel::check;
use crdkit_cel::env::CheckEnv;
use crdkit_cel::eval::{Activation, CompileOptions, CostTracker, Program, Value};
use crdkit_cel::types::Type;
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::{Value as J, json};

fn structural(props: J) -> Structural {
    let p: JsonSchemaProps = serde_json::from_value(props).unwrap();
    Structural::from_props(&p).unwrap()
}

/// Runs one rule through the validator: its errors (as text) and its actual cost.
fn validate(schema: &J, rule: &str, obj: &J) -> (Vec<String>, i64) {
    let mut s = schema.clone();
    s["x-kubernetes-validations"] = json!([{ "rule": rule }]);
    let v = CelValidator::new(&structural(s), false);
    let budget = 10_000_000;
    let r = v.validate_with_budget(&FieldPath::new("root"), obj, None, None, budget);
    let errors = r.errors.iter().map(ToString::to_string).collect();
    (errors, budget - r.remaining_budget)
}

/// Checks `expr` with the given variables (Kubernetes 1.34 environment), compiles the checked
/// program and evaluates it: the result (or error) and the actual cost.
fn eval_checked(
    expr: &str,
    vars: &[(&str, Type, Value<'static>)],
) -> (Result<String, String>, u64) {
    let mut env = CheckEnv::kubernetes((1, 34));
    for (name, ty, _) in vars {
        env = env.with_variable(name, ty.clone());
    }
    let checked = check::compile(expr, &env).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let opts = CompileOptions {
        variables: vars.iter().map(|(n, _, _)| (*n).to_string()).collect(),
        ..CompileOptions::default()
    };
    let program =
        Program::compile_checked(&checked, &opts).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let mut act = Activation::new();
    for (name, _, v) in vars {
        act = act.bind(*name, v.clone());
    }
    let mut cost = CostTracker::kubernetes();
    let r = program
        .eval(&act, &mut cost)
        .map(|v| v.to_string())
        .map_err(|e| e.to_string());
    (r, cost.actual_cost())
}

const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz";

fn int_or_string_schema() -> J {
    json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "x-kubernetes-int-or-string": true, "maxLength": 64},
            "b": {"type": "string", "x-kubernetes-int-or-string": true, "maxLength": 64},
            "s": {"type": "string", "maxLength": 64}
        }
    })
}

/// Operators on int-or-string operands: the checker leaves `dyn op dyn` to dynamic dispatch,
/// which cel-go charges 1 (no overload id), where the string formulas would charge by length;
/// `dyn op string` narrows to the string overload and is charged by its formula.
#[test]
fn costs_of_dyn_operands() {
    let schema = int_or_string_schema();
    let obj = json!({"a": ALPHABET, "b": "abcdefghijklmnopqrstuvwxyy", "s": ALPHABET});
    // Each `self.x` costs 2 (the variable and the selection).
    for (rule, want) in [
        // less_* (ambiguous): 1, not ceil(26·0.1) = 3.
        ("self.b < self.a", 2 + 2 + 1),
        ("self.a >= self.b", 2 + 2 + 1),
        // less_string (the only overload for a string operand): ceil(26·0.1) = 3.
        ("self.b < self.s", 2 + 2 + 3),
        ("self.s > self.b", 2 + 2 + 3),
        // add_* (ambiguous): 1, not ceil(52·0.1) = 6; `!=` is always charged by size:
        // ceil(min(52, 0)·0.1) = 0.
        ("self.a + self.b != ''", 2 + 2 + 1),
        // add_string: ceil(52·0.1) = 6.
        ("self.a + self.s != ''", 2 + 2 + 6),
        // Equality is one overload in cel-go whatever the operands: ceil(26·0.1) = 3.
        ("self.a == self.s", 2 + 2 + 3),
        // startsWith on a dyn receiver narrows to starts_with_string: ceil(3·0.1) = 1.
        ("self.a.startsWith('abc')", 2 + 1),
    ] {
        let (errors, cost) = validate(&schema, rule, &obj);
        assert!(errors.is_empty(), "{rule}: {errors:?}");
        assert_eq!(cost, want, "{rule}");
    }
}

/// Calls whose checked overloads are ambiguous, through the checked program directly.
#[test]
fn costs_of_ambiguous_calls() {
    let s30 = Value::string("x".repeat(30));
    let five = Value::list((1..=5).map(Value::Int).collect());
    for (expr, vars, want, cost) in [
        // in_list/in_map: 1, not the list size 5.
        (
            "3 in x",
            vec![("x", Type::Dyn, five.clone())],
            "true",
            1 + 1,
        ),
        // in_list (list(int) operand): the list size.
        (
            "3 in x",
            vec![("x", Type::list(Type::Int), five.clone())],
            "true",
            1 + 5,
        ),
        // string_to_bytes/bytes_to_bytes: 1, not ceil(30·0.1) = 3; size: 1.
        (
            "size(bytes(x)) == 30",
            vec![("x", Type::Dyn, s30.clone())],
            "true",
            1 + 1 + 1 + 1,
        ),
        // string_to_bytes: ceil(30·0.1) = 3.
        (
            "size(bytes(x)) == 30",
            vec![("x", Type::String, s30.clone())],
            "true",
            1 + 3 + 1 + 1,
        ),
        // sort over list(dyn): every comparable overload applies, none tracked: 1.
        (
            "x.sort() == [1, 2, 3, 4, 5]",
            vec![("x", Type::list(Type::Dyn), five.clone())],
            "true",
            1 + 1 + 1,
        ),
        // containsIP with a dyn argument: the Kubernetes estimator adds the string parse only
        // for `cidr_contains_ip_string`: cidr() ceil(10·0.1) = 1, x 1, containsIP
        // ceil((1+1)·0.1) = 1.
        (
            "cidr('10.0.0.0/8').containsIP(x)",
            vec![("x", Type::Dyn, Value::from("10.1.2.3"))],
            "true",
            1 + 1 + 1,
        ),
        // cidr_contains_ip_string: + ceil(8·0.1) = 1.
        (
            "cidr('10.0.0.0/8').containsIP(x)",
            vec![("x", Type::String, Value::from("10.1.2.3"))],
            "true",
            1 + 1 + 2,
        ),
    ] {
        let (got, actual) = eval_checked(expr, &vars);
        assert_eq!(got.as_deref(), Ok(want), "{expr}");
        assert_eq!(actual, cost, "{expr} with {:?}", vars[0].1);
    }
}

/// `sum()` starts from the zero of the checked element type; a call left to dynamic dispatch
/// starts from the first element's (cel-go's dispatch takes the first overload that accepts
/// the list: `list(int)` for an empty one).
#[test]
fn sum_of_empty_lists() {
    let empty = Value::list(Vec::new());
    for (elem, want) in [
        (Type::Int, "int"),
        (Type::Uint, "uint"),
        (Type::Double, "double"),
        (Type::Duration, "google.protobuf.Duration"),
    ] {
        let vars = vec![("x", Type::list(elem), empty.clone())];
        let (got, _) = eval_checked("type(x.sum())", &vars);
        assert_eq!(got.as_deref(), Ok(want));
    }
    let vars = vec![("x", Type::list(Type::Duration), empty.clone())];
    let (got, _) = eval_checked("x.sum() == duration('0')", &vars);
    assert_eq!(got.as_deref(), Ok("true"));
    let (got, _) = eval_checked("type(dyn([]).sum())", &[]);
    assert_eq!(got.as_deref(), Ok("int"));
    let (got, _) = eval_checked("type(dyn([1.0]).sum())", &[]);
    assert_eq!(got.as_deref(), Ok("double"));
    // Through the validator, from the schema's `format: duration` items.
    let schema = json!({
        "type": "object",
        "properties": {"d": {"type": "array", "items": {"type": "string", "format": "duration"}}}
    });
    let (errors, _) = validate(
        &schema,
        "self.d.sum() == duration('0') && type(self.d.sum()) == google.protobuf.Duration",
        &json!({"d": []}),
    );
    assert!(errors.is_empty(), "{errors:?}");
}

/// Constant patterns are compiled with the program, and fail it with Go's `regexp` message;
/// patterns known only at run time fail when evaluated (`Illegal regex: ...`).
#[test]
fn constant_regular_expressions() {
    let compile = |src: &str| {
        Program::compile_str(src)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    for (src, want) in [
        ("'x'.find(')')", "error parsing regexp: unexpected ): `)`"),
        (
            "'x'.findAll('(')",
            "error parsing regexp: missing closing ): `(`",
        ),
        (
            "'x'.findAll('a**', 1)",
            "error parsing regexp: invalid nested repetition operator: `**`",
        ),
        (
            "'x'.matches('x++')",
            "error parsing regexp: invalid nested repetition operator: `++`",
        ),
        (
            "matches('x', 'a{1001}')",
            "error parsing regexp: invalid repeat count: `{1001}`",
        ),
        (
            "'x'.find('\\\\8')",
            "error parsing regexp: invalid escape sequence: `\\8`",
        ),
        (
            "'x'.find('(?=a)')",
            "error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
        ),
    ] {
        assert_eq!(compile(src), Err(want.to_string()), "{src}");
    }
    assert_eq!(compile("'x'.find('[a-z]+')"), Ok(()));
    let p = Program::compile_str("'x'.find(['x++'][0])").unwrap();
    let err = p
        .eval(&Activation::new(), &mut CostTracker::kubernetes())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Illegal regex: error parsing regexp: invalid nested repetition operator: `++`"
    );
    // The checker rejects what Go rejects (`ValidateRegexLiterals`).
    let env = CheckEnv::kubernetes((1, 30)).with_variable("self", Type::String);
    for (rule, ok) in [
        ("self.matches('x++')", false),
        ("self.matches('x{2}{3}')", false),
        ("self.matches('(?i)x+')", true),
        ("self.matches('\\\\pL')", true),
    ] {
        let got = check::compile(rule, &env)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(got.is_ok(), ok, "{rule}: {got:?}");
        if let Err(e) = got {
            assert!(e.contains("invalid matches argument"), "{rule}: {e}");
        }
    }
}

/// An embedded resource whose schema declares `kind`, `apiVersion`, `metadata.name` and
/// `metadata.generateName` keeps its own `metadata`; otherwise `metadata` holds only `name` and
/// `generateName`.
#[test]
fn embedded_resource_metadata() {
    let embedded = |generate_name: bool| {
        let mut meta = json!({
            "name": {"type": "string"},
            "namespace": {"type": "string"}
        });
        if generate_name {
            meta["generateName"] = json!({"type": "string"});
        }
        json!({
            "type": "object",
            "properties": {"e": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true,
                "properties": {
                    "kind": {"type": "string"},
                    "apiVersion": {"type": "string"},
                    "metadata": {"type": "object", "properties": meta}
                }
            }}
        })
    };
    let obj = json!({"e": {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "n", "generateName": "g", "namespace": "ns"}
    }});
    let declared = embedded(true);
    for rule in [
        "has(self.e.metadata.namespace) && self.e.metadata.namespace == 'ns'",
        "self.e.metadata.name == 'n' && self.e.metadata.generateName == 'g'",
        "self.e.kind == 'Pod' && self.e.apiVersion == 'v1'",
    ] {
        let (errors, _) = validate(&declared, rule, &obj);
        assert!(errors.is_empty(), "{rule}: {errors:?}");
    }
    // Without `generateName` the schema's `metadata` is replaced: the checker rejects
    // `namespace`, and the view of the object does not show it.
    let narrowed = embedded(false);
    let (errors, _) = validate(&narrowed, "has(self.e.metadata.namespace)", &obj);
    assert!(
        errors[0].contains("undefined field 'namespace'"),
        "{errors:?}"
    );
    let (errors, _) = validate(
        &narrowed,
        "self.e.metadata.generateName == 'g' && self.e.metadata.name == 'n'",
        &obj,
    );
    assert!(errors.is_empty(), "{errors:?}");
    let view = structural(narrowed["properties"]["e"].clone());
    let p = Program::compile_str("has(self.metadata.namespace)").unwrap();
    let act = Activation::new().bind_resource("self", &obj["e"], &view);
    let got = p.eval(&act, &mut CostTracker::kubernetes()).unwrap();
    assert_eq!(got.as_bool(), Some(false));
}

/// Programs compiled for a schema (`CompileOptions::self_schema`) read its declared fields
/// straight from the JSON: the results, errors and costs are those of the general path, for
/// valid, missing, null and mistyped values, for root and embedded resources, and when the
/// variable is bound to another schema.
#[test]
fn resolved_fields_match_general_path() {
    let schema = structural(json!({
        "type": "object",
        "properties": {
            "i": {"type": "integer"},
            "j": {"type": "integer", "nullable": true},
            "k": {"type": "integer"},
            "s": {"type": "string"},
            "d": {"type": "string", "format": "duration"},
            "ios": {"x-kubernetes-int-or-string": true},
            "x-y": {"type": "integer"},
            "n": {"type": "object", "properties": {"a": {"type": "integer"}, "t": {"type": "string"}}},
            "z": {"type": "object", "nullable": true, "properties": {"a": {"type": "integer"}}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "l": {"type": "array", "items": {"type": "integer"}},
            "kind": {"type": "string"},
            "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
            "e": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {"kind": {"type": "string"}, "spec": {"type": "integer"}}
            }
        }
    }));
    let rules = [
        "self.i <= self.k && self.k <= self.j",
        "self.i + self.i == 2",
        "self.n.a + self.n.a == 6 && self.n.t == 't'",
        "self.s.startsWith('a') && size(self.s) > 0",
        "self.d > duration('1s')",
        "self.ios == 5 || self.ios == 'x'",
        "type(self.ios) == int",
        "self.m.exists(k, k == 'app') && self.m.app == 'v'",
        "self.l.all(x, x > 0) && self.l[0] == 1",
        "self.z.a == 1",
        "self.x__dash__y == 2",
        "self.kind == 'K' && self.metadata.name == 'n'",
        "self.e.kind == 'E' && self.e.spec == 3",
        "has(self.n.a) && self.j == null",
    ];
    let objects = [
        json!({
            "i": 1, "j": 9, "k": 5, "s": "abc", "d": "2s", "ios": 5, "x-y": 2,
            "n": {"a": 3, "t": "t"}, "z": {"a": 1}, "m": {"app": "v", "b": "w"}, "l": [1, 2],
            "kind": "K", "metadata": {"name": "n"}, "e": {"kind": "E", "spec": 3}
        }),
        json!({"i": null, "j": null, "n": null, "z": null, "s": null, "ios": null, "m": null}),
        json!({
            "i": "1", "j": 1.5, "k": true, "s": 3, "d": "bogus", "ios": 1.5, "x-y": "2",
            "n": 5, "z": [1], "m": [1], "l": {"a": 1}, "kind": 1, "metadata": "m", "e": 1
        }),
        json!({"n": {"a": "3", "t": 1}, "e": {"spec": "3"}, "l": ["1"], "m": {"app": 1}}),
        json!({}),
    ];
    let anchored = std::sync::Arc::new(schema.clone());
    let other = schema.clone();
    let run = |p: &Program, obj: &J, s: &Structural, resource: bool| {
        let act = if resource {
            Activation::new().bind_resource("self", obj, s)
        } else {
            Activation::new().bind_json("self", obj, s)
        };
        let mut cost = CostTracker::kubernetes();
        let r = p.eval(&act, &mut cost).map(|v| v.to_string());
        (r.map_err(|e| e.to_string()), cost.actual_cost())
    };
    let mut checked = 0;
    for rule in rules {
        let ast = crdkit_cel::parse(rule).unwrap();
        let general = Program::compile(&ast, &CompileOptions::default()).unwrap();
        let opts = CompileOptions {
            self_schema: Some(anchored.clone()),
            ..CompileOptions::default()
        };
        let fast = Program::compile(&ast, &opts).unwrap();
        for obj in &objects {
            for resource in [false, true] {
                let want = run(&general, obj, &schema, resource);
                assert_eq!(
                    run(&fast, obj, &anchored, resource),
                    want,
                    "{rule} on {obj}"
                );
                assert_eq!(run(&fast, obj, &other, resource), want, "{rule} on {obj}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, rules.len() * objects.len() * 2);
}
