//! Go's printing of paths, error bodies and bad values.

use serde_json::json;

use super::*;

#[test]
fn paths_print_like_go() {
    let p = FieldPath::new("spec");
    assert_eq!(
        p.child("ports").index(0).child("name").to_string(),
        "spec.ports[0].name"
    );
    assert_eq!(p.child("labels").key("app").to_string(), "spec.labels[app]");
    assert_eq!(FieldPath::nil().to_string(), "<nil>");
    assert_eq!(
        FieldPath::nil().child("properties").key("a").to_string(),
        "properties[a]"
    );
    assert_eq!(FieldPath::nil().index(3).child("x").to_string(), "[3].x");
    assert_eq!(FieldPath::new("").to_string(), "[]");
    assert_eq!(FieldPath::new("").child("x").to_string(), "[].x");
    assert_eq!(FieldPath::new("a").child("").to_string(), "a[]");
    assert_eq!(p.child("a.b").to_string(), "spec.a.b");
    assert_eq!(p.child("x").root().to_string(), "spec");
    assert_eq!(FieldPath::nil().root().to_string(), "<nil>");
}

#[test]
fn bodies_print_like_go() {
    let p = FieldPath::new("f");
    let cases: Vec<(FieldError, &str)> = vec![
        (FieldError::required(&p, ""), "f: Required value"),
        (
            FieldError::required(&p, "must be set"),
            "f: Required value: must be set",
        ),
        (FieldError::forbidden(&p, "no"), "f: Forbidden: no"),
        (
            FieldError::invalid(&p, "a\"b\n", "d"),
            r#"f: Invalid value: "a\"b\n": d"#,
        ),
        (FieldError::invalid(&p, 5i64, "d"), "f: Invalid value: 5: d"),
        (
            FieldError::invalid(&p, 1.5, "d"),
            "f: Invalid value: 1.5: d",
        ),
        (
            FieldError::invalid(&p, 1e6, "d"),
            "f: Invalid value: 1e+06: d",
        ),
        (FieldError::invalid(&p, true, ""), "f: Invalid value: true"),
        (
            FieldError::invalid(&p, json!({"b": [1, 2.5], "a": "<"}), "d"),
            r#"f: Invalid value: {"a":"\u003c","b":[1,2.5]}: d"#,
        ),
        (
            FieldError::invalid(&p, &json!(null), "d"),
            "f: Invalid value: null: d",
        ),
        (
            FieldError::invalid(&p, BadValue::Json(json!("x")), "d"),
            r#"f: Invalid value: "x": d"#,
        ),
        (
            FieldError::not_supported(&p, "c", &["a", "b"]),
            r#"f: Unsupported value: "c": supported values: "a", "b""#,
        ),
        (
            FieldError::not_supported::<&str>(&p, "c", &[]),
            r#"f: Unsupported value: "c""#,
        ),
        (FieldError::duplicate(&p, "x"), r#"f: Duplicate value: "x""#),
        (
            FieldError::too_long(&p, 5),
            "f: Too long: may not be more than 5 bytes",
        ),
        (
            FieldError::too_long(&p, 1),
            "f: Too long: may not be more than 1 byte",
        ),
        (
            FieldError::too_long(&p, -1),
            "f: Too long: value is too long",
        ),
        (
            FieldError::too_many(&p, 9, 8),
            "f: Too many: 9: must have at most 8 items",
        ),
        (
            FieldError::too_many(&p, -1, 1),
            "f: Too many: must have at most 1 item",
        ),
        (
            FieldError::too_few(&p, 0, 1),
            "f: Too few: 0: must have at least 1 item",
        ),
        (
            FieldError::too_short(&p, "ab", 3),
            "f: Too short: must be at least 3 characters",
        ),
        (FieldError::internal(&p, "boom"), "f: Internal error: boom"),
        (
            FieldError::type_invalid(&p, "x", "must be int"),
            r#"f: Invalid value: "x": must be int"#,
        ),
        (FieldError::not_found(&p, "x"), r#"f: Not found: "x""#),
    ];
    for (err, want) in cases {
        assert_eq!(err.to_string(), want);
    }
}

#[test]
fn aggregates() {
    let p = FieldPath::new("a");
    let e = FieldError::required(&p, "");
    assert_eq!(aggregate(&[]), "");
    assert_eq!(aggregate(&[e.clone(), e.clone()]), "a: Required value");
    let f = FieldError::forbidden(&p, "x");
    assert_eq!(
        aggregate(&[e.clone(), f, e]),
        "[a: Required value, a: Forbidden: x]"
    );
    assert_eq!(
        ErrorType::parse("FieldValueTooMany"),
        Some(ErrorType::TooMany)
    );
}
