//! Benchmarks of the server over loopback: in-process start, create and get round trips
//! (in memory, on redb, and on etcd when `CRDKIT_ETCD_ENDPOINT` names one and the `etcd`
//! feature is on), and watch fan-out to 100 watchers.
//!
//! `cargo bench -p crdkit-server --bench server`; memory per object is `--bench memory`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use crdkit_server::{ApiServer, ServerConfig};
use crdkit_storage::Storage;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::runtime::Runtime;

const CT: &str = "/apis/stable.example.com/v1/namespaces/default/crontabs";

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

async fn connect(s: &ApiServer) -> SendRequest<Full<Bytes>> {
    let stream = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    sender
}

async fn send(
    c: &mut SendRequest<Full<Bytes>>,
    method: &str,
    path: &str,
    body: Option<String>,
) -> u16 {
    let req = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.unwrap_or_default())))
        .unwrap();
    c.ready().await.unwrap();
    let resp = c.send_request(req).await.unwrap();
    let status = resp.status().as_u16();
    resp.into_body().collect().await.unwrap();
    status
}

async fn with_crd(storage: Option<Arc<dyn Storage>>) -> ApiServer {
    let s = ApiServer::start_with(ServerConfig {
        storage,
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let mut c = connect(&s).await;
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "kind": "CronTab"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {
                    "cronSpec": {"type": "string", "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
                    "image": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1, "maximum": 10}}}}}}}]}});
    let status = send(
        &mut c,
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        Some(crd.to_string()),
    )
    .await;
    assert_eq!(status, 201);
    s
}

fn object(name: &str) -> String {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": name},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3}})
    .to_string()
}

fn start(c: &mut Criterion) {
    let rt = runtime();
    c.bench_function("start/in_process_memory", |b| {
        b.to_async(&rt).iter(|| async {
            let s = ApiServer::start().await.unwrap();
            s.shutdown().await;
        });
    });
}

/// A backend by name: a function opening a fresh store (`None`: the in-memory default).
type Backend = (
    &'static str,
    Box<dyn Fn(&Runtime) -> Option<Arc<dyn Storage>>>,
);

fn backends() -> Vec<Backend> {
    #[allow(unused_mut)]
    let mut v: Vec<Backend> = vec![
        ("memory", Box::new(|_| None)),
        (
            "redb",
            Box::new(|_| {
                let dir = tempfile::tempdir().unwrap().keep();
                Some(crdkit_server::open_dir(&dir).unwrap())
            }),
        ),
    ];
    #[cfg(feature = "etcd")]
    if let Ok(endpoint) = std::env::var("CRDKIT_ETCD_ENDPOINT") {
        v.push((
            "etcd",
            Box::new(move |rt: &Runtime| {
                let endpoint = endpoint.clone();
                let prefix = format!("/bench-{}", uuid_like());
                // Connected on the runtime that serves, which keeps the connection's tasks.
                Some(rt.block_on(async move {
                    crdkit_server::connect_etcd(&endpoint, &prefix)
                        .await
                        .unwrap()
                }))
            }),
        ));
    }
    v
}

#[cfg(feature = "etcd")]
fn uuid_like() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

fn round_trips(c: &mut Criterion) {
    let rt = runtime();
    for (name, storage) in backends() {
        let s = rt.block_on(with_crd(storage(&rt)));
        let mut client = rt.block_on(connect(&s));
        let n = AtomicU64::new(0);
        let mut g = c.benchmark_group(format!("round_trip/{name}"));
        g.throughput(Throughput::Elements(1));
        g.bench_function("create", |b| {
            b.iter(|| {
                let i = n.fetch_add(1, Ordering::Relaxed);
                let status = rt.block_on(send(
                    &mut client,
                    "POST",
                    CT,
                    Some(object(&format!("c{i}"))),
                ));
                assert_eq!(status, 201);
            });
        });
        rt.block_on(send(&mut client, "POST", CT, Some(object("get-me"))));
        g.bench_function("get", |b| {
            b.iter(|| {
                let status = rt.block_on(send(&mut client, "GET", &format!("{CT}/get-me"), None));
                assert_eq!(status, 200);
            });
        });
        g.finish();
        drop(client);
        rt.block_on(s.shutdown());
    }
}

fn fan_out(c: &mut Criterion) {
    const WATCHERS: usize = 100;
    let rt = runtime();
    let s = rt.block_on(with_crd(None));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    rt.block_on(async {
        let mut c = connect(&s).await;
        send(&mut c, "POST", CT, Some(object("watched"))).await;
        for _ in 0..WATCHERS {
            let mut c = connect(&s).await;
            let req = http::Request::builder()
                .uri(format!(
                    "{CT}?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dwatched"
                ))
                .header("host", "localhost")
                .body(Full::new(Bytes::new()))
                .unwrap();
            let resp = c.send_request(req).await.unwrap();
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut body = resp.into_body();
                let _keep = c;
                while let Some(Ok(frame)) = body.frame().await {
                    if let Ok(data) = frame.into_data() {
                        for _ in data.iter().filter(|b| **b == b'\n') {
                            let _ = tx.send(());
                        }
                    }
                }
            });
        }
        // Each watcher's initial ADDED event.
        for _ in 0..WATCHERS {
            rx.recv().await.unwrap();
        }
    });
    let mut writer = rt.block_on(connect(&s));
    let n = AtomicU64::new(0);
    let mut g = c.benchmark_group("watch");
    g.throughput(Throughput::Elements(WATCHERS as u64));
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("fan_out_100_watchers", |b| {
        b.iter(|| {
            // Alternating values: every patch changes the object, so every one is an event.
            let i = n.fetch_add(1, Ordering::Relaxed) % 2 + 1;
            rt.block_on(async {
                let patch = json!({"spec": {"replicas": i}}).to_string();
                let req = http::Request::builder()
                    .method("PATCH")
                    .uri(format!("{CT}/watched"))
                    .header("host", "localhost")
                    .header("content-type", "application/merge-patch+json")
                    .body(Full::new(Bytes::from(patch)))
                    .unwrap();
                writer.ready().await.unwrap();
                let resp = writer.send_request(req).await.unwrap();
                resp.into_body().collect().await.unwrap();
                for _ in 0..WATCHERS {
                    rx.recv().await.unwrap();
                }
            });
        });
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    targets = start, round_trips, fan_out
}
criterion_main!(benches);
