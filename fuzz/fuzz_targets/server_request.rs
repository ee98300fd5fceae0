//! The local API server's whole request path in process (filters, body decoding, patches and
//! apply, admission, storage in memory, encoding) never panics, never overflows its stack and
//! answers every failure with a `Status`. The input is a few requests as text
//! (`crdkit_fuzz::requests`), after a CRD whose objects keep any field is installed.
#![no_main]

use std::sync::OnceLock;

use bytes::Bytes;
use crdkit_server::{ApiConfig, ApiServer, ServerConfig};

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

const BLOB_CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"blobs.hostile.example.com"},"spec":{"group":"hostile.example.com","scope":"Namespaced","names":{"plural":"blobs","singular":"blob","kind":"Blob"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},"additionalPrinterColumns":[{"name":"X","type":"string","jsonPath":".spec.x"}]}]}}"#;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let requests = crdkit_fuzz::requests::parse(data);
    if requests.is_empty() {
        return;
    }
    runtime().block_on(async {
        let server = ApiServer::start_with(ServerConfig {
            api: ApiConfig {
                request_log: 0,
                ..ApiConfig::default()
            },
            ..ServerConfig::default()
        })
        .await
        .expect("the server starts");
        let crd = http::Request::post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
            .header("host", "localhost")
            .header("content-type", "application/json")
            .body(Bytes::from_static(BLOB_CRD.as_bytes()))
            .expect("a request");
        assert_eq!(server.oneshot(crd).await.status(), 201);
        for req in requests {
            // A watch streams until its timeout: not a request to wait for here.
            let target = req.uri().to_string().to_ascii_lowercase();
            if target.contains("watch") {
                continue;
            }
            let health = ["/healthz", "/livez", "/readyz"]
                .iter()
                .any(|p| req.uri().path().starts_with(p));
            // OpenAPI v3 documents answer their failures with no body, as kube-openapi does.
            let openapi = req.uri().path().starts_with("/openapi/v3/");
            let resp = server.oneshot(req).await;
            // What Go's net/http refuses while reading: plain text or nothing, and the
            // connection closed.
            let unread = resp
                .headers()
                .get("connection")
                .is_some_and(|c| c.as_bytes() == b"close")
                && !resp
                    .headers()
                    .get("content-type")
                    .is_some_and(|t| t.as_bytes().starts_with(b"application/"));
            let bodiless = openapi && resp.body().is_empty();
            if resp.status().as_u16() >= 400 && !health && !unread && !bodiless {
                let yaml = resp
                    .headers()
                    .get("content-type")
                    .is_some_and(|t| t.as_bytes().starts_with(b"application/yaml"));
                let body = String::from_utf8_lossy(resp.body());
                if yaml {
                    // The Status in the encoding the client asked for.
                    assert!(body.contains("kind: Status\n"), "{body}");
                } else {
                    let status: serde_json::Value =
                        serde_json::from_str(&body).expect("a failure answered with JSON");
                    assert_eq!(status["kind"], "Status", "{status}");
                    assert_eq!(status["code"], resp.status().as_u16(), "{status}");
                }
            }
        }
        server.shutdown().await;
    });
});
