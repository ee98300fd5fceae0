//! The rules of crdkit's `cel_eval` benchmark with the `cel` crate: each compiled once and
//! evaluated over one context holding the same object.

use std::collections::HashMap;
use std::sync::Arc;

use cel::{Context, Program, Value};
use criterion::{Criterion, criterion_group, criterion_main};

/// `{"minReplicas":1,"replicas":5,"maxReplicas":10,"list":[0..100],"name":"my-crontab",
/// "labels":{20 entries}}`, as in `cel_eval.rs`. The `cel` crate's maps are hash maps, so
/// `exists` visits the labels in no fixed order: `d_labels_absent` visits all of them in
/// every implementation.
fn object() -> Value {
    let mut m: HashMap<String, Value> = HashMap::new();
    m.insert("minReplicas".into(), Value::Int(1));
    m.insert("replicas".into(), Value::Int(5));
    m.insert("maxReplicas".into(), Value::Int(10));
    m.insert(
        "list".into(),
        Value::List(Arc::new((0..100).map(Value::Int).collect())),
    );
    m.insert("name".into(), Value::String(Arc::new("my-crontab".into())));
    let mut labels: HashMap<String, Value> = HashMap::new();
    for i in 0..19 {
        labels.insert(
            format!("a-{i:02}"),
            Value::String(Arc::new(format!("value-{i}"))),
        );
    }
    labels.insert("app".into(), Value::String(Arc::new("crontab".into())));
    m.insert("labels".into(), labels.into());
    m.into()
}

fn bench(c: &mut Criterion) {
    let rules = [
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
    let obj = object();
    for (name, rule, want) in rules {
        let p = Program::compile(rule).unwrap();
        let mut ctx = Context::default();
        ctx.add_variable_from_value("self", obj.clone());
        assert_eq!(p.execute(&ctx).unwrap(), Value::Bool(want), "{rule}");
        c.bench_function(name, |b| {
            b.iter(|| std::hint::black_box(p.execute(&ctx).unwrap()))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
