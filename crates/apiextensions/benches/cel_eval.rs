//! CEL evaluation speed: each rule is compiled once and evaluated many times over one object,
//! with the Kubernetes cost tracking on (as the API server evaluates rules). Rules are compiled
//! as `CelValidator` compiles them: type-checked against the schema's declaration, for that
//! schema (`CompileOptions::self_schema`). The same four rules are timed for Google's C++
//! implementation by `cel_expr_python.py`.
//!
//! `cargo bench -p crdkit-apiextensions --bench cel_eval`

use std::sync::Arc;

use crdkit_cel::decl::schema_decl_type;
use crdkit_cel::eval::{Activation, CompileOptions, CostTracker, Program};
use crdkit_cel::rule::{RuleOptions, compile_rule};
use crdkit_schema::{AdditionalProperties, Structural, Type, ValidationRule};
use criterion::{Criterion, criterion_group, criterion_main};

/// (name, rule, result). `d_labels_absent` visits every label in every implementation (the
/// `cel` crate's maps iterate in no fixed order, so it may find `app` early in `d`).
const RULES: &[(&str, &str, bool)] = &[
    (
        "a_bounds",
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        true,
    ),
    ("b_list_all", "self.list.all(x, x >= 0 && x < 1000)", true),
    (
        "c_name",
        "self.name.startsWith('my-') && self.name.matches('^[a-z-]+$')",
        true,
    ),
    ("d_labels_exists", "self.labels.exists(k, k == 'app')", true),
    (
        "d_labels_absent",
        "self.labels.exists(k, k == 'zzz')",
        false,
    ),
];

/// The benchmark object: three integers, a list of 100 integers, a name and 20 labels. The
/// label keys sort before `app`, so `exists` visits all 20 (JSON objects iterate in key order).
pub fn object() -> serde_json::Value {
    let list: Vec<i64> = (0..100).collect();
    let mut labels = serde_json::Map::new();
    for i in 0..19 {
        labels.insert(format!("a-{i:02}"), format!("value-{i}").into());
    }
    labels.insert("app".into(), "crontab".into());
    serde_json::json!({
        "minReplicas": 1,
        "replicas": 5,
        "maxReplicas": 10,
        "list": list,
        "name": "my-crontab",
        "labels": labels,
    })
}

/// The matching structural schema.
pub fn schema() -> Structural {
    let mut s = Structural::of_type(Type::Object);
    for k in ["minReplicas", "replicas", "maxReplicas"] {
        s.properties
            .insert(k.into(), Structural::of_type(Type::Integer));
    }
    let mut list = Structural::of_type(Type::Array);
    list.items = Some(Box::new(Structural::of_type(Type::Integer)));
    s.properties.insert("list".into(), list);
    s.properties
        .insert("name".into(), Structural::of_type(Type::String));
    let mut labels = Structural::of_type(Type::Object);
    labels.additional_properties = Some(AdditionalProperties::Schema(Box::new(
        Structural::of_type(Type::String),
    )));
    s.properties.insert("labels".into(), labels);
    s
}

/// Compiles a rule as `CelValidator` does for a node of `schema`.
pub fn compile(rule: &str, schema: &Arc<Structural>) -> Program {
    let decl = schema_decl_type(&**schema, false).unwrap();
    let source = ValidationRule {
        rule: rule.into(),
        ..ValidationRule::default()
    };
    let checked = compile_rule(&source, &decl, &RuleOptions::default())
        .program
        .unwrap();
    let opts = CompileOptions {
        self_schema: Some(schema.clone()),
        ..CompileOptions::default()
    };
    Program::compile_checked(&checked, &opts).unwrap()
}

fn bench(c: &mut Criterion) {
    let obj = object();
    let schema = Arc::new(schema());
    for (name, rule, want) in RULES {
        let program = compile(rule, &schema);
        let act = Activation::new().bind_json("self", &obj, &*schema);
        let mut cost = CostTracker::kubernetes();
        assert_eq!(
            program.eval(&act, &mut cost).unwrap().as_bool(),
            Some(*want),
            "{rule}"
        );
        // One activation, as the other implementations are timed (binding costs ~20 ns).
        c.bench_function(name, |b| {
            b.iter(|| {
                let mut cost = CostTracker::kubernetes();
                std::hint::black_box(program.eval(&act, &mut cost).unwrap());
            });
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
