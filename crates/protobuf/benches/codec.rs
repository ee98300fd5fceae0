//! Decode and encode of a Deployment (the one in `tests/data`): this crate's protobuf codec
//! against serde_json on the same object's JSON, and against k8s-pb's prost types (bytes to
//! structs only, with no JSON on either side: the lower bound of a prost-based codec).
//!
//! `cargo bench -p crdkit-protobuf`

use criterion::{Criterion, criterion_group, criterion_main};
use prost::Message;
use serde_json::Value;
use std::hint::black_box;

const DEPLOYMENT: &str = include_str!("../tests/data/deployment.json");

fn codec(c: &mut Criterion) {
    let value: Value = serde_json::from_str(DEPLOYMENT).unwrap();
    let json = serde_json::to_vec(&value).unwrap();
    let pb = crdkit_protobuf::encode(&value).unwrap();
    let raw = k8s_pb::apimachinery::pkg::runtime::Unknown::decode(&pb[4..])
        .unwrap()
        .raw
        .unwrap();
    let typed = k8s_pb::api::apps::v1::Deployment::decode(raw.as_slice()).unwrap();
    println!(
        "deployment: {} bytes of protobuf, {} bytes of JSON",
        pb.len(),
        json.len()
    );

    let mut g = c.benchmark_group("deployment");
    g.bench_function("protobuf decode (crdkit)", |b| {
        b.iter(|| crdkit_protobuf::decode(black_box(&pb)).unwrap())
    });
    g.bench_function("protobuf encode (crdkit)", |b| {
        b.iter(|| crdkit_protobuf::encode(black_box(&value)).unwrap())
    });
    g.bench_function("json parse (serde_json)", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(&json)).unwrap())
    });
    g.bench_function("json write (serde_json)", |b| {
        b.iter(|| serde_json::to_vec(black_box(&value)).unwrap())
    });
    g.bench_function("protobuf decode (k8s-pb prost, no JSON)", |b| {
        b.iter(|| k8s_pb::api::apps::v1::Deployment::decode(black_box(raw.as_slice())).unwrap());
    });
    g.bench_function("protobuf encode (k8s-pb prost, no JSON)", |b| {
        b.iter(|| black_box(&typed).encode_to_vec())
    });
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
