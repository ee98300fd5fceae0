//! Field-set construction (`ToFieldSet`), its `FieldsV1` text, and the field manager's create
//! (`FieldManager::update` with no live object and no managed fields).
//!
//! `cargo bench -p crdkit-apply --bench fieldset`. Objects nested 10, 1,000 and 10,000 levels
//! deep under a `spec` that preserves unknown fields (deduced maps, granular), and a ~2 KB
//! CronTab with list-maps, a set, a map and scalars.

use std::sync::Arc;
use std::time::Duration;

use crdkit_apply::FieldManager;
use crdkit_apply::schema::Schema;
use crdkit_apply::typed::TypedValue;
use crdkit_schema::{JsonSchemaProps, Structural};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Map, Value, json};

fn structural(v: &Value) -> Structural {
    let props: JsonSchemaProps = serde_json::from_value(v.clone()).expect("props");
    Structural::from_props(&props).expect("structural")
}

fn deep_schema() -> Structural {
    structural(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}))
}

/// `{"a": {"a": ... {"leaf": 1}}}`, `depth` objects deep, built without recursion.
fn nested(depth: usize) -> Value {
    let mut v = json!({"leaf": 1});
    for _ in 1..depth {
        let mut m = Map::new();
        m.insert("a".to_owned(), v);
        v = Value::Object(m);
    }
    v
}

fn deep_object(depth: usize) -> Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "deep", "namespace": "default"}, "spec": nested(depth)})
}

fn crontab_crd_schema() -> Structural {
    let port = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "containerPort": {"type": "integer"},
        "protocol": {"type": "string"}}});
    let env = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "value": {"type": "string"}}});
    let container = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "image": {"type": "string"},
        "args": {"type": "array", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["containerPort", "protocol"], "items": port},
        "env": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"], "items": env}}});
    structural(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "cronSpec": {"type": "string"}, "image": {"type": "string"},
            "replicas": {"type": "integer"}, "suspend": {"type": "boolean"},
            "schedule": {"type": "object", "additionalProperties": {"type": "string"}},
            "finalizers": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "containers": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"], "items": container}}},
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}))
}

/// A CronTab of about 2 KB.
fn crontab() -> Value {
    let containers: Vec<Value> = (0..4)
        .map(|i| {
            json!({"name": format!("worker-{i}"), "image": "registry.example.com/team/cron-worker:v1.2.3",
                "args": ["--verbose", "--interval=30s", format!("--shard={i}")],
                "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"},
                          {"name": "metrics", "containerPort": 9090, "protocol": "TCP"}],
                "env": [{"name": "MODE", "value": "batch"}, {"name": "LOG_LEVEL", "value": "info"},
                        {"name": "SHARD", "value": i.to_string()}]})
        })
        .collect();
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object", "namespace": "default",
            "labels": {"app": "cron", "tier": "batch", "team": "platform"},
            "annotations": {"example.com/owner": "platform-team", "example.com/description": "a nightly job that rolls up the metrics of the previous day"}},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3,
            "suspend": false, "schedule": {"timezone": "UTC", "window": "1h", "policy": "Forbid"},
            "finalizers": ["example.com/cleanup", "example.com/audit"],
            "containers": containers}})
}

fn bench(c: &mut Criterion) {
    let deep = Arc::new(Schema::for_custom_resource(Some(&deep_schema()), false));
    let deep_fm = FieldManager::new(Some(&deep_schema()), "stable.example.com/v1", "CronTab");
    let now = "2026-11-29T08:00:00Z";
    for depth in [10, 1_000, 10_000] {
        let mut g = c.benchmark_group(format!("depth {depth}"));
        if depth >= 1_000 {
            g.sample_size(10);
            g.warm_up_time(Duration::from_millis(500));
            g.measurement_time(Duration::from_secs(3));
        }
        let tv = TypedValue::new_unchecked(deep_object(depth), deep.clone());
        g.bench_function("to_field_set", |b| {
            b.iter_with_large_drop(|| tv.to_field_set().unwrap());
        });
        let set = tv.to_field_set().unwrap();
        g.bench_function("to_json_string", |b| b.iter(|| set.to_json_string()));
        let obj = deep_object(depth);
        g.bench_function("create (FieldManager::update)", |b| {
            b.iter_with_large_drop(|| deep_fm.update(None, &obj, "kubectl", None, now));
        });
        g.finish();
    }
    let fm = FieldManager::new(
        Some(&crontab_crd_schema()),
        "stable.example.com/v1",
        "CronTab",
    )
    .with_status_subresource();
    let obj = crontab();
    let schema = Arc::new(Schema::for_custom_resource(
        Some(&crontab_crd_schema()),
        false,
    ));
    let tv = TypedValue::new_unchecked(obj.clone(), schema);
    let mut g = c.benchmark_group(format!(
        "crontab {} B",
        serde_json::to_vec(&obj).unwrap().len()
    ));
    g.bench_function("to_field_set", |b| {
        b.iter_with_large_drop(|| tv.to_field_set().unwrap());
    });
    g.bench_function("create (FieldManager::update)", |b| {
        b.iter_with_large_drop(|| fm.update(None, &obj, "kubectl", None, now));
    });
    // The object of the server's scale bench (`crates/server/benches/scale.rs`).
    let small = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "cron-000001", "labels": {"app": "bench", "bucket": "1"}},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3}});
    g.bench_function("create of the scale bench's CronTab", |b| {
        b.iter_with_large_drop(|| fm.update(None, &small, "kubectl", None, now));
    });
    g.bench_function("serde_json::to_vec (for scale)", |b| {
        b.iter(|| serde_json::to_vec(&obj).unwrap());
    });
    g.bench_function("clone (for scale)", |b| {
        b.iter_with_large_drop(|| obj.clone());
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
