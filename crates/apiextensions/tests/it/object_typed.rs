//! The typed validator agrees with the JSON one: random values (serialized through their
//! `Serialize` impl) against a schema using every keyword, and typed structs.

use crate::common;

use common::compiled;
use crdkit_apiextensions::validate::{CompiledSchema, typed, validate_typed};
use serde_json::{Map, Value, json};

/// A small deterministic PRNG (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[usize::try_from(self.below(xs.len() as u64)).unwrap()]
    }
}

fn schema() -> CompiledSchema {
    compiled(
        json!({"type": "object", "required": ["spec"], "properties": {
        "spec": {"type": "object", "maxProperties": 6, "required": ["name"], "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 5, "pattern": "^[a-z]+$"},
            "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 1},
            "ratio": {"type": "number", "exclusiveMaximum": true, "maximum": 1.5, "format": "double"},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "when": {"type": "string", "format": "date-time"},
            "port": {"x-kubernetes-int-or-string": true},
            "flag": {"type": "boolean", "nullable": true},
            "tags": {"type": "array", "maxItems": 3, "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}},
            "ports": {"type": "array", "items": {"type": "object", "properties": {
                "n": {"type": "integer", "format": "int32"}, "p": {"type": "string"}}}},
            "choice": {"type": "integer", "anyOf": [{"minimum": 5}, {"maximum": 0}]},
            "any": {"x-kubernetes-preserve-unknown-fields": true}}}}}),
    )
}

fn scalar(r: &mut Rng) -> Value {
    match r.below(9) {
        0 => Value::Null,
        1 => json!(r.below(2) == 0),
        2 => json!(r.below(14) as i64 - 2),
        3 => json!(r.below(40) as f64 / 8.0 - 1.0),
        4 => json!(*r.pick(&[
            "a",
            "b",
            "abc",
            "ABC",
            "",
            "toolong",
            "2017-05-31T12:56:35Z",
            "x y"
        ])),
        5 => json!(u64::MAX),
        6 => json!(1e30),
        7 => json!(i64::from(i32::MAX) + 1),
        _ => json!("a"),
    }
}

fn value(r: &mut Rng, depth: u32) -> Value {
    if depth > 2 || r.below(3) == 0 {
        return scalar(r);
    }
    if r.below(2) == 0 {
        Value::Array((0..r.below(4)).map(|_| value(r, depth + 1)).collect())
    } else {
        let keys = ["n", "p", "a", "x"];
        let mut m = Map::new();
        for _ in 0..r.below(4) {
            m.insert((*r.pick(&keys)).to_owned(), value(r, depth + 1));
        }
        Value::Object(m)
    }
}

fn spec(r: &mut Rng) -> Value {
    let keys = [
        "name", "replicas", "ratio", "mode", "when", "port", "flag", "tags", "labels", "ports",
        "choice", "any", "other",
    ];
    let good = |k: &str| match k {
        "name" => json!("abc"),
        "replicas" => json!(3),
        "ratio" => json!(0.5),
        "mode" => json!("a"),
        "when" => json!("2017-05-31T12:56:35Z"),
        "port" => json!(80),
        "flag" => Value::Null,
        "tags" => json!(["a"]),
        "labels" => json!({"x": "ab"}),
        "ports" => json!([{"n": 1}]),
        "choice" => json!(7),
        _ => json!({"free": [1, {"x": null}]}),
    };
    let mut m = Map::new();
    if r.below(4) != 0 {
        m.insert("name".into(), good("name"));
    }
    for _ in 0..r.below(6) {
        let k = *r.pick(&keys);
        if r.below(2) == 0 {
            m.insert(k.to_owned(), good(k));
            continue;
        }
        let v = match (k, r.below(3)) {
            ("tags", 0) => json!(["a", "b", "a"]),
            ("labels", 0) => json!({"x": "ab", "y": "abcd"}),
            ("ports", 0) => json!([{"n": 1, "p": "x"}, {"n": "2"}]),
            _ => value(r, 1),
        };
        m.insert(k.to_owned(), v);
    }
    Value::Object(m)
}

#[test]
fn typed_agrees_with_json() {
    let s = schema();
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut valid = 0;
    for i in 0..4000 {
        let mut obj = Map::new();
        if r.below(10) != 0 {
            obj.insert(
                "metadata".into(),
                json!({"name": *r.pick(&["a", "A", "my-obj"])}),
            );
        }
        if r.below(10) != 0 {
            obj.insert("spec".into(), spec(&mut r));
        }
        let obj = Value::Object(obj);
        let want = s.validate(&obj);
        assert_eq!(
            typed::is_valid(&obj, &s),
            want.is_empty(),
            "case {i}: {obj} {want:?}"
        );
        assert_eq!(validate_typed(&obj, &s), want, "case {i}: {obj}");
        valid += usize::from(want.is_empty());
    }
    assert!(valid > 50, "only {valid} valid cases");
}

#[derive(serde::Serialize)]
struct Meta {
    name: String,
}

#[derive(serde::Serialize)]
struct Port {
    n: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<String>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Mode {
    A,
    C,
}

#[derive(serde::Serialize)]
struct Spec {
    name: String,
    replicas: Option<i32>,
    mode: Mode,
    ports: Vec<Port>,
    labels: std::collections::HashMap<String, String>,
    tags: Vec<String>,
}

#[derive(serde::Serialize)]
struct Root {
    metadata: Meta,
    spec: Spec,
}

#[test]
fn typed_structs() {
    let s = schema();
    let mut root = Root {
        metadata: Meta { name: "ok".into() },
        spec: Spec {
            name: "abc".into(),
            replicas: Some(3),
            mode: Mode::A,
            ports: vec![Port { n: 1, p: None }],
            labels: [("k".to_owned(), "v".to_owned())].into_iter().collect(),
            tags: vec!["x".into()],
        },
    };
    assert!(validate_typed(&root, &s).is_empty());
    root.spec.replicas = None;
    let errs = validate_typed(&root, &s);
    assert_eq!(errs, s.validate(&serde_json::to_value(&root).unwrap()));
    assert_eq!(
        errs[0].to_string(),
        r#"spec.replicas: Invalid value: "null": spec.replicas in body must be of type integer: "null""#
    );
    root.spec.replicas = Some(2);
    root.spec.mode = Mode::C;
    root.spec.ports[0].n = u64::MAX;
    root.spec.tags = vec!["x".into(), "x".into()];
    let errs: Vec<String> = validate_typed(&root, &s)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        [
            r#"spec.mode: Unsupported value: "c": supported values: "a", "b""#,
            r#"spec.ports[0].n: Invalid value: "float64": spec.ports[0].n in body must be of type int32: "float64""#,
            r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.ports[0].n"#,
            r#"spec.tags[1]: Duplicate value: "x""#,
        ]
    );
}
