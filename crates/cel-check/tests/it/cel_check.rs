//! The type checker against cel-go's checker tests and the CEL spec's type deductions, as the
//! npm package `@bufbuild/cel-spec` 0.6.1 ships them (cel-spec v0.25.1), dumped to
//! `tests/data/cel/check/`:
//! - `checking.json`: cel-go `checker/checker_test.go` cases (expression, declarations,
//!   expected checked AST with `~type^reference` adornments, or expected error text);
//! - `type_deductions.json`: the conformance suite's `type_deductions` file, with cel-go's
//!   checked AST and type.
//!
//! Cases that need protobuf messages, wrappers or `google.protobuf.Any` are skipped (Kubernetes
//! objects are JSON); so are the cases cel-go's harness ran with the optional syntax enabled
//! while the npm dump's parser did not (their expected text is a parse error).

use std::collections::BTreeMap;
use std::sync::Arc;

use crdkit_cel_check::check::{check, checked_debug_string};
use crdkit_cel_check::env::{CheckEnv, Library, Overload};
use crdkit_cel_check::types::{ObjectType, Type};
use crdkit_cel_check::{EXISTS_ONE_NEW_MACRO, ParseOptions, STANDARD_MACROS, Source, parse_with};
use serde_json::Value;

fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/cel/check/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A `cel.expr.Type` in proto3 JSON.
fn proto_type(v: &Value) -> Type {
    let o = v.as_object().expect("type object");
    let (k, x) = o.iter().next().expect("one field");
    match k.as_str() {
        "primitive" => match x.as_str().unwrap() {
            "BOOL" => Type::Bool,
            "INT64" => Type::Int,
            "UINT64" => Type::Uint,
            "DOUBLE" => Type::Double,
            "STRING" => Type::String,
            "BYTES" => Type::Bytes,
            p => panic!("primitive {p}"),
        },
        "listType" => Type::list(proto_type(&x["elemType"])),
        "mapType" => Type::map(proto_type(&x["keyType"]), proto_type(&x["valueType"])),
        "dyn" => Type::Dyn,
        "null" => Type::Null,
        "typeParam" => Type::param(x.as_str().unwrap()),
        "type" => Type::Type(Some(Box::new(proto_type(x)))),
        "wellKnown" => match x.as_str().unwrap() {
            "DURATION" => Type::Duration,
            "TIMESTAMP" => Type::Timestamp,
            w => panic!("well-known {w}"),
        },
        "abstractType" => Type::Opaque(
            x["name"].as_str().unwrap().into(),
            x["parameterTypes"]
                .as_array()
                .map(|ps| ps.iter().map(proto_type).collect())
                .unwrap_or_default(),
        ),
        "messageType" => Type::Object(Arc::new(ObjectType {
            name: x.as_str().unwrap().into(),
            fields: BTreeMap::new(),
            known: false,
        })),
        other => panic!("type kind {other}"),
    }
}

/// Declarations from a `typeEnv`.
fn declare(env: &mut CheckEnv, type_env: &Value) {
    for d in type_env.as_array().into_iter().flatten() {
        let name = d["name"].as_str().unwrap().to_string();
        if let Some(ident) = d.get("ident") {
            env.variables.insert(name, proto_type(&ident["type"]));
            continue;
        }
        let overloads = d["function"]["overloads"].as_array().unwrap();
        let list = env.functions.entry(name).or_default();
        for o in overloads {
            let params: Vec<Type> = o["params"]
                .as_array()
                .map(|ps| ps.iter().map(proto_type).collect())
                .unwrap_or_default();
            list.push(Overload::new(
                o["overloadId"].as_str().unwrap(),
                o["isInstanceFunction"].as_bool().unwrap_or(false),
                params,
                proto_type(&o["resultType"]),
            ));
        }
    }
}

/// cel-go `testEnvs(t)["default"]`, used by the cases that declare nothing.
fn declare_default(env: &mut CheckEnv) {
    for (n, t) in [
        ("is", Type::String),
        ("ii", Type::Int),
        ("iu", Type::Uint),
        ("iz", Type::Bool),
        ("ib", Type::Bytes),
        ("id", Type::Double),
        ("ix", Type::Null),
    ] {
        env.variables.insert(n.into(), t);
    }
    let f =
        |id: &str, receiver_style, params| Overload::new(id, receiver_style, params, Type::String);
    env.functions
        .insert("fg_s".into(), vec![f("fg_s_0", false, vec![])]);
    env.functions.insert(
        "fi_s_s".into(),
        vec![f("fi_s_s_0", true, vec![Type::String])],
    );
}

/// Cases that need protobuf messages (or wrappers, `Any`), or whose expected text is a parse
/// error from the optional syntax being off in the dump's parser.
fn unsupported(case: &Value) -> bool {
    let text = case.to_string();
    [
        "google.",
        "cel.expr.conformance",
        "\"wrapper\"",
        "\"ANY\"",
        "unsupported syntax",
        "Msg{}",
    ]
    .iter()
    .any(|s| text.contains(s))
}

fn cel_go_test_parser() -> ParseOptions {
    ParseOptions {
        macros: [STANDARD_MACROS, EXISTS_ONE_NEW_MACRO].concat(),
        enable_optional_syntax: false,
        ..ParseOptions::default()
    }
}

#[test]
fn cel_go_checker_tests() {
    let cases = load("checking.json");
    let (mut ran, mut failures) = (0, Vec::new());
    for case in &cases {
        if unsupported(case) {
            continue;
        }
        ran += 1;
        let expr = case["expr"].as_str().unwrap();
        let mut env = CheckEnv::standard();
        env.container = case["container"].as_str().unwrap_or_default().to_string();
        if case.get("typeEnv").is_some() {
            declare(&mut env, &case["typeEnv"]);
        } else {
            declare_default(&mut env);
        }
        let expected_error = case["error"].as_str();
        let expected_ast = case["checkedAst"].as_str().unwrap_or_default();
        if expected_ast.contains("optional")
            || expected_error.is_some_and(|e| e.contains("optional"))
        {
            env.libraries.push(Library::Optionals);
        }
        // cel-go runs these with `CrossTypeNumericComparisons(false)`.
        if expected_error
            .is_some_and(|e| e.contains("overload for '_<") || e.contains("overload for '_>"))
        {
            env.cross_type_numeric_comparisons = false;
        }
        let ast = parse_with(expr, &cel_go_test_parser()).expect(expr);
        let got = check(&ast, &Source::new(expr), &env);
        let outcome = match (&got, expected_error) {
            (Err(e), Some(want)) if e.to_string() == want => continue,
            (Err(e), _) => format!("error:\n{e}"),
            (Ok(c), None) => {
                let printed = checked_debug_string(c);
                let ty = c.output_type().to_string();
                if printed == expected_ast && Some(ty.as_str()) == case["type"].as_str() {
                    continue;
                }
                format!("type {ty}\n{printed}")
            }
            (Ok(c), Some(_)) => format!("no error; type {}", c.output_type()),
        };
        failures.push(format!(
            "--- {expr}\nwant:\n{}\ngot:\n{outcome}",
            expected_error.unwrap_or(expected_ast)
        ));
    }
    assert!(ran >= 60, "only {ran} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{ran} of {} cel-go checker cases ran", cases.len());
}

#[test]
fn conformance_type_deductions() {
    let cases = load("type_deductions.json");
    let (mut ran, mut failures) = (0, Vec::new());
    for case in &cases {
        if unsupported(case) {
            continue;
        }
        ran += 1;
        let expr = case["expr"].as_str().unwrap();
        let mut env = CheckEnv::kubernetes(crdkit_cel_check::env::NEWEST_VERSION);
        env.homogeneous_aggregate_literals = false;
        env.ast_validators = false;
        declare(&mut env, &case["typeEnv"]);
        let ast = parse_with(expr, &ParseOptions::default()).expect(expr);
        match check(&ast, &Source::new(expr), &env) {
            Err(e) => failures.push(format!("--- {expr}\n{e}")),
            Ok(c) => {
                let ty = c.output_type().to_string();
                let printed = checked_debug_string(&c);
                let want_ast = case["checkedAst"].as_str().unwrap_or(&printed);
                if Some(ty.as_str()) != case["celGoType"].as_str() || printed != want_ast {
                    failures.push(format!(
                        "--- {}/{}: {expr}\nwant {}\n{want_ast}\ngot {ty}\n{printed}",
                        case["section"], case["name"], case["celGoType"]
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{ran} of {} type deductions ran", cases.len());
}
