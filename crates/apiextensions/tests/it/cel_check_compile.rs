//! Rule compilation against apiextensions `pkg/apiserver/schema/cel/compilation_test.go`
//! `TestCelCompilation`, transcribed to `tests/data/cel/check/compilation_test.json` (schema as
//! OpenAPI JSON, one list of matchers per rule: no error, an error containing a text, a
//! messageExpression error containing a text, transition rule or not), plus exact error texts
//! of the compile errors Kubernetes users meet most.

use crdkit_cel::decl::schema_decl_type;
use crdkit_cel::rule::{CompilationResult, RuleErrorType, RuleOptions, compile_rules};
use crdkit_schema::{JsonSchemaProps, Structural, ValidationRule};
use serde_json::{Value, json};

fn structural(v: &Value) -> Structural {
    let props: JsonSchemaProps = serde_json::from_value(v.clone()).unwrap();
    Structural::from_props(&props).unwrap()
}

fn compile(schema: &Value, root: bool) -> Vec<CompilationResult> {
    let s = structural(schema);
    let decl = schema_decl_type(&s, root).unwrap();
    compile_rules(&s.extensions.validations, &decl, &RuleOptions::default())
}

fn matches(m: &Value, cr: &CompilationResult) -> bool {
    let (k, v) = m.as_object().unwrap().iter().next().unwrap();
    match k.as_str() {
        "noError" => cr.error.is_none(),
        "invalidError" => cr.error.as_ref().is_some_and(|e| {
            e.error_type == RuleErrorType::Invalid && e.detail.contains(v.as_str().unwrap())
        }),
        "messageExpressionError" => cr
            .message_expression_error
            .as_ref()
            .is_some_and(|e| e.detail.contains(v.as_str().unwrap())),
        "transitionRule" => cr.uses_old_self == v.as_bool().unwrap(),
        "fn" => cr.program.is_none(),
        other => panic!("matcher {other}"),
    }
}

#[test]
fn apiextensions_cel_compilation() {
    let path = format!(
        "{}/tests/data/cel/check/compilation_test.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut ran, mut failures) = (0, Vec::new());
    for c in &cases {
        // A stored expression using a library of a future release (cel-go's `fakeLib`).
        if c["unmodified"].as_bool() == Some(true) {
            continue;
        }
        ran += 1;
        let results = compile(&c["schema"], false);
        for (i, (want, got)) in c["expected"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&results)
            .enumerate()
        {
            for m in want.as_array().unwrap() {
                if !matches(m, got) {
                    failures.push(format!(
                        "{} rule {i}: {m} but {:?} / {:?} (oldSelf {})",
                        c["name"], got.error, got.message_expression_error, got.uses_old_self
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(ran, 24);
}

fn only_error(schema: Value, rule: ValidationRule) -> String {
    let mut s = structural(&schema);
    s.extensions.validations = vec![rule];
    let decl = schema_decl_type(&s, true).unwrap();
    let r = compile_rules(&s.extensions.validations, &decl, &RuleOptions::default());
    let r = &r[0];
    r.error
        .as_ref()
        .or(r.message_expression_error.as_ref())
        .map(|e| e.detail.clone())
        .unwrap_or_default()
}

fn rule(r: &str) -> ValidationRule {
    ValidationRule {
        rule: r.into(),
        ..ValidationRule::default()
    }
}

/// The messages of the docs' examples and of compilation.go, verbatim.
#[test]
fn error_texts() {
    let spec = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "replicas": {"type": "integer"},
            "x-prop": {"type": "string"},
            "ports": {"type": "array", "items": {"type": "integer"}}}}}});
    let cases = [
        (
            rule("self.spec.replicas == true"),
            "compilation failed: ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, bool)'\n | self.spec.replicas == true\n | ...................^",
        ),
        (
            rule("self.spec.replcias > 0"),
            "compilation failed: ERROR: <input>:1:10: undefined field 'replcias'\n | self.spec.replcias > 0\n | .........^",
        ),
        (
            rule("self.spec.x__dash__prop == 'a' && foo"),
            "compilation failed: ERROR: <input>:1:35: undeclared reference to 'foo' (in container '')\n | self.spec.x__dash__prop == 'a' && foo\n | ..................................^",
        ),
        (
            rule("self.spec.replicas"),
            "cel expression must evaluate to a bool",
        ),
        (
            rule("has(self.spec.replicas.x)"),
            "compilation failed: ERROR: <input>:1:4: type 'int' does not support field selection\n | has(self.spec.replicas.x)\n | ...^",
        ),
        (
            rule("has(1)"),
            "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(1)\n | ....^",
        ),
        (
            rule("self.metadata.namespace == 'x'"),
            "compilation failed: ERROR: <input>:1:14: undefined field 'namespace'\n | self.metadata.namespace == 'x'\n | .............^",
        ),
        (
            rule("self.spec.ports.all(p, p > 'a')"),
            "compilation failed: ERROR: <input>:1:26: found no matching overload for '_>_' applied to '(int, string)'\n | self.spec.ports.all(p, p > 'a')\n | .........................^",
        ),
        (
            rule("[1, 'a'].size() == 2"),
            "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() == 2\n | ....^",
        ),
        (
            // The homogeneous-literal rule is a validator comparing with the first element: the
            // checker itself would accept `dyn` (cel-go's `joinTypes`).
            rule("[1, dyn(2)].size() == 2"),
            "compilation failed: ERROR: <input>:1:8: expected type 'int' but found 'dyn'\n | [1, dyn(2)].size() == 2\n | .......^",
        ),
        (
            rule("duration('1d') > duration('1h')"),
            "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1d') > duration('1h')\n | .........^",
        ),
        (
            rule("self.spec.x__dash__prop.matches('[')"),
            "compilation failed: ERROR: <input>:1:33: invalid matches argument\n | self.spec.x__dash__prop.matches('[')\n | ................................^",
        ),
        (
            rule("self.spec == oldSelf.spec && self.spec"),
            "compilation failed: ERROR: <input>:1:34: expected type 'bool' but found 'selfType0.spec'\n | self.spec == oldSelf.spec && self.spec\n | .................................^",
        ),
        (
            rule("quantity('1Gi').value > 0"),
            "compilation failed: ERROR: <input>:1:16: unexpected failed resolution of 'kubernetes.Quantity'\n | quantity('1Gi').value > 0\n | ...............^",
        ),
        (
            ValidationRule {
                message_expression: "self.spec.replicas".into(),
                ..rule("true")
            },
            "messageExpression must evaluate to a string",
        ),
        (
            ValidationRule {
                message_expression: "'replicas: ' + self.spec.replicas".into(),
                ..rule("true")
            },
            "messageExpression compilation failed: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'\n | 'replicas: ' + self.spec.replicas\n | .............^",
        ),
    ];
    let mut failures = Vec::new();
    for (r, want) in cases {
        let got = only_error(spec.clone(), r.clone());
        if got != want {
            failures.push(format!("{}\nwant: {want}\ngot:  {got}", r.rule));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `oldSelf` is `optional_type(T)` with `optionalOldSelf`; `self.namespace` finds the
/// property `namespace` from Kubernetes 1.31 (escaped `__namespace__` before).
#[test]
fn old_self_and_reserved_words() {
    let s = json!({"type": "object", "properties": {"namespace": {"type": "string"}}});
    let with = |r: &str, old: Option<bool>| ValidationRule {
        optional_old_self: old,
        ..rule(r)
    };
    assert_eq!(
        only_error(s.clone(), with("self.namespace == oldSelf.namespace", None)),
        ""
    );
    assert_eq!(
        only_error(
            s.clone(),
            with(
                "self.__namespace__ == oldSelf.value().__namespace__",
                Some(true)
            )
        ),
        ""
    );
    let decl = schema_decl_type(&structural(&s), false).unwrap();
    let opts = RuleOptions {
        version: (1, 30),
        ..RuleOptions::default()
    };
    let r = compile_rules(&[rule("self.namespace == 'a'")], &decl, &opts);
    assert!(
        r[0].error
            .as_ref()
            .unwrap()
            .detail
            .contains("undefined field 'namespace'"),
        "{:?}",
        r[0].error
    );
}

/// cel-go `ext/formatting_test.go` `TestStringFormat`: the compile-time errors of literal
/// `format` calls (the cases that need no protobuf message).
#[test]
fn string_format_compile_checks() {
    let cases = [
        ("%s %s", r#""abc""#, "index 1 out of range"),
        (
            "%s %s",
            r#""abc", "def", "ghi""#,
            "too many arguments supplied to string.format (expected 2, got 3)",
        ),
        ("filler %", "", "unexpected end of string"),
        (
            "%j",
            "123",
            r#"could not parse formatting clause: unrecognized formatting clause "j""#,
        ),
        (
            "int is %d",
            "5.2",
            "error during formatting: decimal clause can only be used on integers",
        ),
        (
            "double is %f",
            "true",
            "error during formatting: fixed-point clause can only be used on doubles",
        ),
        (
            "double is %.34",
            "5.0",
            "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
        ),
        (
            "double is %e",
            "true",
            "error during formatting: scientific clause can only be used on doubles",
        ),
        (
            "string is %b",
            r#""a string""#,
            "error during formatting: only integers and bools can be formatted as binary",
        ),
        (
            "%x is a double",
            "2.5",
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex",
        ),
        (
            "%X is a double",
            "2.5",
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex",
        ),
        (
            "an octal: %o",
            "3.14",
            "error during formatting: octal clause can only be used on integers",
        ),
    ];
    let env = crdkit_cel::env::CheckEnv::kubernetes((1, 36));
    for (format, args, want) in cases {
        let expr = format!("{format:?}.format([{args}])");
        let err = crdkit_cel::check::compile(&expr, &env)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{expr}: {err}");
    }
    // Mixed argument types are allowed in `format` lists; the error names the argument.
    let ok = crdkit_cel::check::compile("'%s: %d'.format(['a', 1]) == 'a: 1'", &env);
    assert!(ok.is_ok(), "{}", ok.unwrap_err());
    let err = crdkit_cel::check::compile("'%s: %d'.format(['a', 1.5]) == ''", &env)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "ERROR: <input>:1:23: error during formatting: decimal clause can only be used on integers, was given double\n | '%s: %d'.format(['a', 1.5]) == ''\n | ......................^"
    );
    // Before 1.29 (strings v0) there is no `format`.
    let old = crdkit_cel::env::CheckEnv::kubernetes((1, 28));
    assert!(crdkit_cel::check::compile("'%d'.format([1.5]) == ''", &old).is_err());
}
