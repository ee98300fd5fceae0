//! Conversions per second of the versioning page's CronTab (`v1beta1` `hostPort` -> `v1` `host`
//! and `port`, typed through `TryFrom`): the review handler alone (`review_json`, body bytes to
//! answer), with and without the round-trip check, and through the HTTPS endpoint on loopback
//! (one request at a time, a kept-alive HTTP/2 connection).
//!
//! `cargo bench -p crdkit-webhook --bench convert`

use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crdkit_crd::conversion::{Conversions, Typed};
use crdkit_webhook::{Server, Webhook};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct V1beta1 {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    host_port: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct V1 {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    port: Option<String>,
}

impl TryFrom<V1beta1> for V1 {
    type Error = &'static str;
    fn try_from(o: V1beta1) -> Result<V1, &'static str> {
        let Some(hp) = o.host_port else {
            return Ok(V1 {
                host: None,
                port: None,
            });
        };
        let (h, p) = hp
            .split_once(':')
            .ok_or("hostPort could not be parsed into a separate host and port")?;
        Ok(V1 {
            host: Some(h.into()),
            port: Some(p.into()),
        })
    }
}

impl From<V1> for V1beta1 {
    fn from(o: V1) -> V1beta1 {
        let host_port = (o.host.is_some() || o.port.is_some()).then(|| {
            format!(
                "{}:{}",
                o.host.unwrap_or_default(),
                o.port.unwrap_or_default()
            )
        });
        V1beta1 { host_port }
    }
}

fn conversions() -> Conversions {
    let t = Typed::new("CronTab")
        .version::<V1beta1>("example.com/v1beta1")
        .version::<V1>("example.com/v1")
        .convert::<V1beta1, V1>()
        .build()
        .unwrap();
    Conversions::new().typed(t)
}

/// A v1 review of `n` CronTabs of the page (the page's first object, renamed).
fn review(n: usize) -> Vec<u8> {
    let objects: Vec<_> = (0..n)
        .map(|i| {
            json!({"kind": "CronTab", "apiVersion": "example.com/v1beta1",
                   "metadata": {"creationTimestamp": "2019-09-04T14:03:02Z", "name": format!("crontab-{i}"),
                                "namespace": "default", "resourceVersion": "143",
                                "uid": "3415a7fc-162b-4300-b5da-fd6083580d66"},
                   "hostPort": format!("host-{i}.example.com:{}", 1000 + i)})
        })
        .collect();
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
           "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
                       "desiredAPIVersion": "example.com/v1", "objects": objects}})
    .to_string()
    .into_bytes()
}

fn handler(c: &mut Criterion) {
    let with_check = conversions();
    let without = conversions().round_trip_annotation(None);
    let mut g = c.benchmark_group("handler");
    for n in [1, 100] {
        let body = review(n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("{n} objects"), |b| {
            b.iter(|| black_box(with_check.review_json(black_box(&body))));
        });
        g.bench_function(format!("{n} objects, no round-trip check"), |b| {
            b.iter(|| black_box(without.review_json(black_box(&body))));
        });
    }
    g.finish();
}

fn https(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(async {
        Server::new(Webhook::new(conversions()))
            .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .start()
            .await
            .unwrap()
    });
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(server.ca_pem().unwrap().as_bytes()).unwrap())
        .unwrap();
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .build()
        .unwrap();
    let url = server.url();
    let mut g = c.benchmark_group("https");
    for n in [1, 100] {
        let body = review(n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("{n} objects"), |b| {
            b.iter(|| {
                rt.block_on(async {
                    let resp = client
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(body.clone())
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(resp.status(), 200);
                    black_box(resp.bytes().await.unwrap())
                })
            });
        });
    }
    g.finish();
    rt.block_on(server.shutdown());
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = handler, https
}
criterion_main!(benches);
