//! Conversion webhooks: a CRD whose versions convert through the user's converter, served
//! over HTTPS on loopback by the test (a `ConversionReview` in, converted objects out).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{Value, json};

use crate::common::{CRDS, Http, loopback_tls, server, stored};

/// v1 has `spec.cronSpec`, v2 `spec.schedule`: the converter renames it.
fn convert(obj: &Value, desired: &str) -> Value {
    let mut out = obj.clone();
    out["apiVersion"] = json!(desired);
    if let Some(spec) = out.get_mut("spec").and_then(Value::as_object_mut) {
        if desired.ends_with("/v2") {
            if let Some(v) = spec.remove("cronSpec") {
                spec.insert("schedule".into(), v);
            }
        } else if let Some(v) = spec.remove("schedule") {
            spec.insert("cronSpec".into(), v);
        }
    }
    out
}

/// Serves the converter on a free loopback port; returns its URL, CA bundle and call counter.
async fn converter() -> (String, String, Arc<AtomicUsize>) {
    let (tls, ca_pem) = loopback_tls();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    let counter = Arc::clone(&calls);
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let acceptor = acceptor.clone();
            let counter = Arc::clone(&counter);
            tokio::spawn(async move {
                let Ok(stream) = acceptor.accept(tcp).await else {
                    return;
                };
                let svc = service_fn(move |req: http::Request<hyper::body::Incoming>| {
                    let counter = Arc::clone(&counter);
                    async move {
                        counter.fetch_add(1, Ordering::SeqCst);
                        let body = req.into_body().collect().await.unwrap().to_bytes();
                        let review: Value = serde_json::from_slice(&body).unwrap();
                        let desired = review["request"]["desiredAPIVersion"].as_str().unwrap();
                        let objects: Vec<Value> = review["request"]["objects"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|o| convert(o, desired))
                            .collect();
                        let resp = json!({"apiVersion": review["apiVersion"], "kind": "ConversionReview",
                            "response": {"uid": review["request"]["uid"], "result": {"status": "Success"}, "convertedObjects": objects}});
                        Ok::<_, std::convert::Infallible>(http::Response::new(Full::new(
                            Bytes::from(resp.to_string()),
                        )))
                    }
                });
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    (
        format!("https://{addr}/convert"),
        crdkit_apimachinery::gobase64::encode(ca_pem.as_bytes()),
        calls,
    )
}

fn crd(url: &str, ca: &str) -> Value {
    let schema = |field: &str| json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {field: {"type": "string"}}}}}});
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "kind": "CronTab"},
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": schema("cronSpec")},
                {"name": "v2", "served": true, "storage": false, "schema": schema("schedule")}],
            "conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
                "clientConfig": {"url": url, "caBundle": ca}}}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_convert_through_the_webhook() {
    let (url, ca, calls) = converter().await;
    let s = server().await;
    let h = Http::of(&s);
    h.post(CRDS, &crd(&url, &ca)).await.expect(201);
    let v2 = "/apis/stable.example.com/v2/namespaces/default/crontabs";
    let v1 = "/apis/stable.example.com/v1/namespaces/default/crontabs";
    let created = h
        .post(v2, &json!({"apiVersion": "stable.example.com/v2", "kind": "CronTab", "metadata": {"name": "c"}, "spec": {"schedule": "* * * * */5"}}))
        .await
        .expect(201)
        .json();
    assert_eq!(created["spec"], json!({"schedule": "* * * * */5"}));
    // Stored at the storage version, converted by the webhook.
    let raw = stored(&s, "/registry/stable.example.com/crontabs/default/c").await;
    assert_eq!(raw["apiVersion"], "stable.example.com/v1");
    assert_eq!(raw["spec"], json!({"cronSpec": "* * * * */5"}));
    assert_eq!(
        h.get(&format!("{v1}/c")).await.expect(200).json()["spec"],
        json!({"cronSpec": "* * * * */5"})
    );
    let got = h.get(&format!("{v2}/c")).await.expect(200).json();
    assert_eq!(
        (got["apiVersion"].as_str(), &got["spec"]),
        (
            Some("stable.example.com/v2"),
            &json!({"schedule": "* * * * */5"})
        )
    );
    let l = h.get(v2).await.expect(200).json();
    assert_eq!(l["items"][0]["spec"]["schedule"], "* * * * */5");
    let mut w = h
        .watch(&format!(
            "{v2}?watch=true&resourceVersion={}",
            created["metadata"]["resourceVersion"].as_str().unwrap()
        ))
        .await;
    h.merge(
        &format!("{v2}/c"),
        &json!({"spec": {"schedule": "0 * * * *"}}),
    )
    .await
    .expect(200);
    let e = w.next().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["spec"]["schedule"].as_str()),
        (Some("MODIFIED"), Some("0 * * * *"))
    );
    assert!(calls.load(Ordering::SeqCst) >= 6);
    // A webhook that cannot be reached: 500s naming it.
    let mut broken = crd("https://127.0.0.1:1/convert", &ca);
    broken["metadata"]["name"] = json!("gadgets.stable.example.com");
    broken["spec"]["names"] = json!({"plural": "gadgets", "kind": "Gadget"});
    h.post(CRDS, &broken).await.expect(201);
    let e = h
        .post("/apis/stable.example.com/v2/namespaces/default/gadgets", &json!({"apiVersion": "stable.example.com/v2", "kind": "Gadget", "metadata": {"name": "g"}, "spec": {}}))
        .await
        .expect(500)
        .json();
    assert!(e["message"].as_str().unwrap().starts_with("Internal error occurred: conversion webhook for stable.example.com, Kind=Gadget failed: Post \"https://127.0.0.1:1/convert\""), "{e}");
}
