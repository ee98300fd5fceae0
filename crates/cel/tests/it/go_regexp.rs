//! CEL's regexes are Go's (RE2 through `regexp.Compile`): `\d`, `\w`, `\s` and `\b` are ASCII,
//! Go's syntax errors are Go's, and `findAll` follows Go's `FindAllString`. Each expectation is
//! what the API server's cel-go evaluator returns.

use crdkit_cel::eval::{Activation, CompileOptions, CostTracker, Program};

fn eval(expr: &str) -> Result<serde_json::Value, String> {
    let ast = crdkit_cel::parse(expr).map_err(|e| e.to_string())?;
    // Unoptimized as well as optimized: constant patterns are compiled by the planner, others
    // through the run-time cache; both must be Go's regexp.
    let mut results = Vec::new();
    for optimize in [true, false] {
        let opts = CompileOptions {
            optimize,
            ..CompileOptions::default()
        };
        let program = Program::compile(&ast, &opts).map_err(|e| e.to_string())?;
        let mut cost = CostTracker::kubernetes();
        let r = program
            .eval(&Activation::new(), &mut cost)
            .map(|v| v.to_json())
            .map_err(|e| e.to_string());
        results.push(r);
    }
    assert_eq!(
        results[0], results[1],
        "{expr}: optimized and plain disagree"
    );
    results.pop().unwrap_or_else(|| Err("no result".into()))
}

#[test]
fn perl_classes_are_ascii() {
    for (expr, want) in [
        (r"'١'.matches('^\\d$')", false), // ARABIC-INDIC DIGIT ONE
        (r"'1'.matches('^\\d$')", true),
        (r"'é'.matches('^\\w$')", false),
        (r"'_'.matches('^\\w$')", true),
        ("'\u{a0}'.matches('^\\\\s$')", false), // NO-BREAK SPACE
        ("'\u{b}'.matches('^\\\\s$')", false),  // Go's \s is [\t\n\f\r ]
        (r"'a b'.matches('^a\\sb$')", true),
        (r"'éa'.matches('\\ba')", true), // é is not a word character in Go: a boundary before a
        (r"'١'.matches('^[\\d]$')", false),
        (r"'١'.matches('^\\D$')", true),
    ] {
        assert_eq!(eval(expr), Ok(serde_json::json!(want)), "{expr}");
    }
}

#[test]
fn find_and_find_all_are_go_s() {
    assert_eq!(eval(r"'a١2'.find('\\d')"), Ok(serde_json::json!("2")));
    assert_eq!(
        eval(r"'x1 ٢ 3'.findAll('\\d')"),
        Ok(serde_json::json!(["1", "3"]))
    );
    assert_eq!(
        eval(r"'abc'.findAll('a*', -1)"),
        Ok(serde_json::json!(["a", "", ""]))
    );
    assert_eq!(
        eval(r"'aaa'.findAll('a', 2)"),
        Ok(serde_json::json!(["a", "a"]))
    );
}

#[test]
fn go_syntax_errors() {
    let err = eval("'x'.matches('a**')").unwrap_err();
    assert!(
        err.contains("error parsing regexp: invalid nested repetition operator: `**`"),
        "{err}"
    );
    let err = eval("'x'.find('(?x)a')").unwrap_err();
    assert!(
        err.contains("error parsing regexp: invalid or unsupported Perl syntax: `(?x`"),
        "{err}"
    );
}
