//! Prune + default + validate against parsing; OpenAPI validation against the `jsonschema` crate;
//! typed validation against `serde_json::to_vec`.
//!
//! `cargo bench -p crdkit-apiextensions --bench validate`; ratios are printed from the same run. On a
//! shared machine, each ratio line takes the fastest of several interleaved rounds of every
//! quantity it compares (interference only ever slows a round down).

use std::time::{Duration, Instant};

use crdkit_apiextensions::validate::{CompiledSchema, validate_typed};
use crdkit_schema::{JsonSchemaProps, Structural};
use criterion::{Criterion, criterion_group, criterion_main};
use serde::Serialize;
use serde_json::{Value, json};

fn crontab_schema_json() -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "cronSpec": {"type": "string", "pattern": r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$", "default": "5 0 * * *"},
        "image": {"type": "string"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1}}}}})
}

fn big_schema_json() -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "entries": {"type": "array", "maxItems": 10000, "items": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "maxLength": 63, "pattern": "^[a-z0-9-]+$"},
            "port": {"type": "integer", "minimum": 1, "maximum": 65535},
            "weight": {"type": "number", "minimum": 0},
            "enabled": {"type": "boolean"},
            "mode": {"type": "string", "enum": ["fast", "slow", "auto"]},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 32}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "targets": {"type": "array", "items": {"type": "object", "properties": {
                "host": {"type": "string"}, "weight": {"type": "integer", "minimum": 0}}}}}}}}}}})
}

#[derive(Serialize, Clone)]
struct Target {
    host: String,
    weight: i64,
}

#[derive(Serialize, Clone)]
struct Entry {
    name: String,
    port: i64,
    weight: f64,
    enabled: bool,
    mode: &'static str,
    tags: Vec<String>,
    labels: std::collections::BTreeMap<String, String>,
    targets: Vec<Target>,
}

#[derive(Serialize, Clone)]
struct Meta {
    name: String,
}

#[derive(Serialize, Clone)]
struct BigSpec {
    entries: Vec<Entry>,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Big {
    api_version: &'static str,
    kind: &'static str,
    metadata: Meta,
    spec: BigSpec,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct CronSpec {
    cron_spec: String,
    image: String,
    replicas: i64,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct CronTab {
    api_version: &'static str,
    kind: &'static str,
    metadata: Meta,
    spec: CronSpec,
}

fn big() -> Big {
    let entries = (0..500)
        .map(|i| Entry {
            name: format!("entry-{i}"),
            port: 1000 + i,
            weight: 0.5 + i as f64,
            enabled: i % 2 == 0,
            mode: ["fast", "slow", "auto"][(i % 3) as usize],
            tags: (0..5).map(|t| format!("tag-{t}")).collect(),
            labels: (0..5)
                .map(|l| (format!("label-{l}"), format!("value-{i}-{l}")))
                .collect(),
            targets: (0..3)
                .map(|t| Target {
                    host: format!("host-{i}-{t}.example.com"),
                    weight: t,
                })
                .collect(),
        })
        .collect();
    Big {
        api_version: "stable.example.com/v1",
        kind: "Big",
        metadata: Meta { name: "big".into() },
        spec: BigSpec { entries },
    }
}

fn crontab() -> CronTab {
    CronTab {
        api_version: "stable.example.com/v1",
        kind: "CronTab",
        metadata: Meta {
            name: "my-new-cron-object".into(),
        },
        spec: CronSpec {
            cron_spec: "* * * * */5".into(),
            image: "my-awesome-cron-image".into(),
            replicas: 5,
        },
    }
}

fn structural(v: &Value) -> Structural {
    let p: JsonSchemaProps = serde_json::from_value(v.clone()).unwrap();
    Structural::from_props(&p).unwrap()
}

/// How long one measurement of a ratio line runs.
const BUDGET: Duration = Duration::from_millis(100);

/// Mean time per call of `f`.
fn per_call(f: &mut dyn FnMut()) -> Duration {
    for _ in 0..3 {
        f();
    }
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed() < BUDGET {
        f();
        n += 1;
    }
    start.elapsed() / n
}

/// Mean time of `run` on inputs cloned from `value` ahead, `batch` at a time (the clones are
/// not timed).
fn per_input(value: &Value, run: &mut dyn FnMut(&mut Value), batch: usize) -> Duration {
    let (mut spent, mut n) = (Duration::ZERO, 0u32);
    while spent < BUDGET {
        let mut inputs = vec![value.clone(); batch];
        let start = Instant::now();
        for v in &mut inputs {
            run(v);
        }
        spent += start.elapsed();
        n += u32::try_from(batch).unwrap();
        drop(inputs);
    }
    spent / n
}

/// The fastest of several measurements of each of `fs`, taken in turn, for the ratio lines.
fn fastest<const N: usize>(mut fs: [&mut dyn FnMut() -> Duration; N]) -> [Duration; N] {
    let mut best = [Duration::MAX; N];
    for _ in 0..8 {
        for (f, b) in fs.iter_mut().zip(&mut best) {
            *b = (*b).min(f());
        }
    }
    best
}

fn jsonschema_of(v: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(v).unwrap()
}

/// A benchmarked object: name, schema, value, `to_vec` of the typed value, typed validation.
type Case = (
    &'static str,
    Value,
    Value,
    Box<dyn Fn() -> Vec<u8>>,
    Box<dyn Fn(&CompiledSchema) -> usize>,
);

/// Every string, number and key of `v` read once, nothing else: the least any update that is
/// not told what changed must spend (it cannot know a part unchanged without reading it).
fn read_all(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len() + usize::from(s.as_bytes().first().copied().unwrap_or(0)),
        Value::Array(items) => items.iter().map(read_all).sum(),
        Value::Object(map) => map.iter().map(|(k, v)| k.len() + read_all(v)).sum(),
        _ => 1,
    }
}

/// `validate_update` of `value` with one field changed against `validate` of the changed value
/// (the change is in the 251st of the 500 entries of the big object, or `spec.replicas`); the
/// same with a stored object that has an error elsewhere (the 101st entry's port out of range),
/// so that ratcheting has something to drop and the update walks both objects; and the two
/// floors of skipping unchanged parts: reading the new object once, comparing it with a stored
/// copy that equals it.
fn update_ratio(
    c: &mut Criterion,
    name: &str,
    schema: &CompiledSchema,
    value: &Value,
    report: &mut Vec<String>,
) {
    let mut changed = value.clone();
    if let Some(e) = changed.pointer_mut("/spec/entries/250/port") {
        *e = json!(4242);
    } else if let Some(r) = changed.pointer_mut("/spec/replicas") {
        *r = json!(6);
    }
    let copy = changed.clone();
    let mut g = c.benchmark_group(format!("{name} update"));
    g.bench_function("validate", |b| b.iter(|| schema.validate(&changed).len()));
    g.bench_function("validate_update (one field changed)", |b| {
        b.iter(|| schema.validate_update(&changed, value).len())
    });
    g.finish();
    let [validate, update, read, eq] = fastest([
        &mut || per_call(&mut || drop(schema.validate(std::hint::black_box(&changed)))),
        &mut || {
            per_call(&mut || {
                drop(schema.validate_update(std::hint::black_box(&changed), value));
            })
        },
        &mut || {
            per_call(&mut || {
                std::hint::black_box(read_all(std::hint::black_box(&changed)));
            })
        },
        &mut || per_call(&mut || assert!(std::hint::black_box(&changed) == &copy)),
    ]);
    let ratio = |d: Duration| d.as_secs_f64() / validate.as_secs_f64();
    report.push(format!(
        "{name}: validate_update (one field changed) {update:?} vs validate {validate:?} ({:.2}x); \
         reading the new object once {read:?} ({:.2}x); comparing it with an equal copy (==) {eq:?} ({:.2}x)",
        ratio(update),
        ratio(read),
        ratio(eq),
    ));
    let (mut bad_old, mut bad_new) = (value.clone(), changed.clone());
    let Some(bad) = bad_old.pointer_mut("/spec/entries/100/port") else {
        return;
    };
    *bad = json!(70000);
    *bad_new.pointer_mut("/spec/entries/100/port").unwrap() = json!(70000);
    let ratcheted = schema.validate_update(&bad_new, &bad_old).len();
    let [validate, update] = fastest([
        &mut || per_call(&mut || drop(schema.validate(std::hint::black_box(&bad_new)))),
        &mut || {
            per_call(&mut || {
                drop(schema.validate_update(std::hint::black_box(&bad_new), &bad_old));
            })
        },
    ]);
    report.push(format!(
        "{name}: with an error in the stored object ({}): validate_update {update:?} vs validate {validate:?} ({:.2}x)",
        if ratcheted == 0 { "ratcheted" } else { "reported: items of atomic lists do not ratchet" },
        update.as_secs_f64() / validate.as_secs_f64(),
    ));
}

fn benches(c: &mut Criterion) {
    let cases: Vec<Case> = vec![
        (
            "crontab",
            crontab_schema_json(),
            serde_json::to_value(crontab()).unwrap(),
            Box::new({
                let v = crontab();
                move || serde_json::to_vec(&v).unwrap()
            }),
            Box::new({
                let v = crontab();
                move |s| validate_typed(&v, s).len()
            }),
        ),
        (
            "big",
            big_schema_json(),
            serde_json::to_value(big()).unwrap(),
            Box::new({
                let v = big();
                move || serde_json::to_vec(&v).unwrap()
            }),
            Box::new({
                let v = big();
                move |s| validate_typed(&v, s).len()
            }),
        ),
    ];
    let mut report = Vec::new();
    for (name, schema_json, value, _, _) in &cases {
        let schema = CompiledSchema::new(&structural(schema_json));
        let bytes = serde_json::to_vec(value).unwrap();
        let js = jsonschema_of(schema_json);
        assert!(schema.validate(value).is_empty());
        assert!(js.is_valid(value));

        let mut g = c.benchmark_group(*name);
        g.bench_function("parse (serde_json::from_slice)", |b| {
            b.iter(|| serde_json::from_slice::<Value>(&bytes).unwrap())
        });
        // About 64 KB of JSON a batch: the clones stay in cache, as an object just parsed is.
        let batch = ((64 << 10) / bytes.len()).max(1);
        g.bench_function("prune+default+validate", |b| {
            b.iter_batched_ref(
                || value.clone(),
                |v| {
                    schema.prune_and_default(v).unwrap();
                    schema.validate(v).len()
                },
                criterion::BatchSize::NumIterations(batch as u64),
            )
        });
        g.bench_function("openapi validate", |b| {
            b.iter(|| schema.validate_openapi(value, &Default::default()).len())
        });
        g.bench_function("jsonschema validate", |b| b.iter(|| js.is_valid(value)));
        g.finish();

        let [parse, pipeline, openapi, jsonschema] = fastest([
            &mut || per_call(&mut || drop(serde_json::from_slice::<Value>(&bytes).unwrap())),
            &mut || {
                let mut run = |v: &mut Value| {
                    schema.prune_and_default(v).unwrap();
                    drop(schema.validate(v));
                };
                per_input(value, &mut run, batch)
            },
            &mut || {
                per_call(&mut || {
                    drop(schema.validate_openapi(std::hint::black_box(value), &Default::default()));
                })
            },
            &mut || {
                per_call(&mut || {
                    std::hint::black_box(js.is_valid(std::hint::black_box(value)));
                })
            },
        ]);
        update_ratio(c, name, &schema, value, &mut report);
        report.push(format!(
            "{name}: {} bytes; parse {parse:?}; pipeline {pipeline:?} ({:.2}x parse); openapi {openapi:?} vs jsonschema {jsonschema:?} ({:.2}x)",
            bytes.len(),
            pipeline.as_secs_f64() / parse.as_secs_f64(),
            openapi.as_secs_f64() / jsonschema.as_secs_f64(),
        ));
    }
    {
        // The big object under a schema whose entries are a map list keyed by name.
        let mut schema_json = big_schema_json();
        let entries = &mut schema_json["properties"]["spec"]["properties"]["entries"];
        entries["x-kubernetes-list-type"] = json!("map");
        entries["x-kubernetes-list-map-keys"] = json!(["name"]);
        let schema = CompiledSchema::new(&structural(&schema_json));
        let value = serde_json::to_value(big()).unwrap();
        assert!(schema.validate(&value).is_empty());
        update_ratio(c, "big (map list)", &schema, &value, &mut report);
    }
    for (name, schema_json, _, to_vec, typed) in &cases {
        let schema = CompiledSchema::new(&structural(schema_json));
        let mut g = c.benchmark_group(format!("{name} typed"));
        g.bench_function("serde_json::to_vec", |b| b.iter(to_vec));
        g.bench_function("validate_typed", |b| b.iter(|| typed(&schema)));
        g.finish();
        let [v, t] = fastest([&mut || per_call(&mut || drop(to_vec())), &mut || {
            per_call(&mut || {
                std::hint::black_box(typed(&schema));
            })
        }]);
        report.push(format!("{name} typed: to_vec {v:?}; validate_typed {t:?} ({:.2}x to_vec; the value built once)", t.as_secs_f64() / v.as_secs_f64()));
    }
    for line in report {
        println!("{line}");
    }
}

/// A CronTab create as the server admits it: its `metadata` holds what the server and the field
/// manager set (uid, creation time, `managedFields`, an owner reference), which admission
/// checks in place once it is in its decoded form.
fn admitted_create(c: &mut Criterion) {
    let schema = CompiledSchema::new(&structural(&crontab_schema_json()));
    let value = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "cron-000001", "namespace": "default",
            "uid": "6f1c0d3e-8b1a-4c52-9a0e-1f2d3c4b5a69", "creationTimestamp": "2026-11-29T10:00:00Z",
            "generation": 1, "labels": {"app": "bench", "bucket": "1"},
            "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "owner",
                "uid": "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"}],
            "managedFields": [{"apiVersion": "stable.example.com/v1", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:bucket": {}}},
                    "f:spec": {".": {}, "f:cronSpec": {}, "f:image": {}, "f:replicas": {}}},
                "manager": "bench", "operation": "Update", "time": "2026-11-29T10:00:00Z"}]},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3}});
    assert!(schema.validate(&value).is_empty());
    let mut g = c.benchmark_group("crontab create as admitted");
    g.bench_function("prune+default+validate", |b| {
        b.iter_batched_ref(
            || value.clone(),
            |v| {
                schema.prune_and_default(v).unwrap();
                schema.validate(v).len()
            },
            criterion::BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group! {
    name = group;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2)).sample_size(20);
    targets = benches, admitted_create
}
criterion_main!(group);
