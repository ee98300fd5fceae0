//! Helpers: an in-process server, a minimal HTTP/1.1 client, the docs' manifests.

use std::net::SocketAddr;

use bytes::Bytes;
use crdkit_server::{ApiConfig, ApiServer, ServerConfig};
use http::{HeaderMap, Method, Request};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde_json::Value;

pub const AGG: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
pub const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
pub const CT: &str = "/apis/stable.example.com/v1/namespaces/default/crontabs";
pub const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/// A server with default settings.
pub async fn server() -> ApiServer {
    ApiServer::start().await.expect("server starts")
}

/// A server with API settings.
pub async fn server_with(api: ApiConfig) -> ApiServer {
    ApiServer::start_with(ServerConfig {
        api,
        ..ServerConfig::default()
    })
    .await
    .expect("server starts")
}

/// The object stored at `key`, as stored (storage version, no `resourceVersion`).
pub async fn stored(s: &ApiServer, key: &str) -> Value {
    let kv = s.storage().get(key).await.expect("stored");
    serde_json::from_slice(&kv.value).expect("stored JSON")
}

/// A TLS configuration for a test's own HTTPS server on loopback: a CA and a serving
/// certificate for `127.0.0.1` signed by it; returns it with the CA's PEM.
pub fn loopback_tls() -> (std::sync::Arc<rustls::ServerConfig>, String) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    let key = rustls_pki_types::PrivateKeyDer::try_from(key.serialize_der()).unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.der().clone()], key)
        .unwrap();
    (std::sync::Arc::new(config), ca_cert.pem())
}

/// A kube-rs client of a server (without the crate's `kube` feature).
pub fn kube_client(s: &ApiServer) -> kube::Client {
    let mut config = kube::Config::new(s.url().parse().expect("URL"));
    config.default_namespace = "default".to_owned();
    kube::Client::try_from(config).expect("client")
}

/// A response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The body as text (for answers too deep for the test thread's serde).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn warnings(&self) -> Vec<String> {
        self.headers
            .get_all("warning")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_owned)
            .collect()
    }

    /// Asserts the status, showing the body when it differs.
    #[track_caller]
    pub fn expect(self, status: u16) -> Reply {
        assert_eq!(
            self.status,
            status,
            "unexpected status; body: {}",
            String::from_utf8_lossy(&self.body)
        );
        self
    }
}

/// A client of one server.
#[derive(Clone, Copy)]
pub struct Http {
    pub addr: SocketAddr,
}

impl Http {
    pub fn of(s: &ApiServer) -> Http {
        Http { addr: s.addr() }
    }

    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Reply {
        let stream = tokio::net::TcpStream::connect(self.addr)
            .await
            .expect("connect");
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(conn);
        let mut req = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(path);
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            req = req.header("host", "localhost");
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .unwrap();
        let resp = sender.send_request(req).await.expect("request");
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let body = resp.into_body().collect().await.expect("body").to_bytes();
        Reply {
            status,
            headers,
            body,
        }
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send("GET", path, &[], None).await
    }

    pub async fn get_as(&self, path: &str, accept: &str) -> Reply {
        self.send("GET", path, &[("accept", accept)], None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.send(
            "POST",
            path,
            &[("content-type", "application/json")],
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    pub async fn put(&self, path: &str, body: &Value) -> Reply {
        self.send(
            "PUT",
            path,
            &[("content-type", "application/json")],
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    pub async fn patch(&self, path: &str, content_type: &str, body: &Value) -> Reply {
        self.send(
            "PATCH",
            path,
            &[("content-type", content_type)],
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    pub async fn merge(&self, path: &str, body: &Value) -> Reply {
        self.patch(path, "application/merge-patch+json", body).await
    }

    pub async fn delete(&self, path: &str) -> Reply {
        self.send(
            "DELETE",
            path,
            &[("content-type", "application/json")],
            Some(br#"{"propagationPolicy":"Background"}"#.to_vec()),
        )
        .await
    }

    /// Creates a CRD from the walkthrough's manifests and checks it is established.
    pub async fn crd(&self, file: &str) -> Value {
        let crd = manifest_json(file);
        let r = self.post(CRDS, &crd).await.expect(201).json();
        let conds = r["status"]["conditions"].as_array().unwrap();
        assert!(
            conds
                .iter()
                .any(|c| c["type"] == "Established" && c["status"] == "True"),
            "{r}"
        );
        r
    }
}

/// The text of a walkthrough manifest.
pub fn manifest(file: &str) -> String {
    let path = format!("{}/tests/walkthrough/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A walkthrough manifest (one document) as JSON.
pub fn manifest_json(file: &str) -> Value {
    let docs: Vec<Value> = serde_saphyr::from_multiple(&manifest(file)).expect("YAML");
    docs.into_iter().find(|d| !d.is_null()).expect("a document")
}

/// Every document of a walkthrough manifest.
pub fn manifest_docs(file: &str) -> Vec<Value> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(&manifest(file)).expect("YAML");
    docs.into_iter().filter(|d| !d.is_null()).collect()
}

/// A watch response read event by event.
pub struct WatchStream {
    body: hyper::body::Incoming,
    buf: Vec<u8>,
    pub status: u16,
    pub content_type: Option<String>,
}

impl Http {
    /// Starts a watch (`GET` with `watch=true` already in `path`).
    pub async fn watch(&self, path: &str) -> WatchStream {
        self.watch_as(path, "application/json").await
    }

    pub async fn watch_as(&self, path: &str, accept: &str) -> WatchStream {
        let stream = tokio::net::TcpStream::connect(self.addr)
            .await
            .expect("connect");
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(conn);
        let req = Request::builder()
            .uri(path)
            .header("host", "localhost")
            .header("accept", accept)
            .body(Full::new(Bytes::new()))
            .unwrap();
        let resp = sender.send_request(req).await.expect("request");
        WatchStream {
            status: resp.status().as_u16(),
            content_type: resp
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            body: resp.into_body(),
            buf: Vec::new(),
        }
    }
}

impl WatchStream {
    /// The next bytes of the body (protobuf watches), `None` when the stream ended or nothing
    /// came within `secs`.
    pub async fn raw_within(&mut self, secs: u64) -> Option<Vec<u8>> {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(secs), self.body.frame())
            .await
            .ok()??;
        frame.expect("frame").into_data().ok().map(|d| d.to_vec())
    }

    /// The next event, `None` when the stream ended or nothing came within `secs`.
    pub async fn next_within(&mut self, secs: u64) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                // Objects past serde_json's default 128 levels are served too.
                let mut de = serde_json::Deserializer::from_slice(&line);
                de.disable_recursion_limit();
                let event =
                    serde::Deserialize::deserialize(&mut de).expect("a JSON event per line");
                return Some(event);
            }
            let frame = tokio::time::timeout_at(deadline, self.body.frame())
                .await
                .ok()??;
            if let Ok(data) = frame.expect("frame").into_data() {
                self.buf.extend_from_slice(&data);
            }
        }
    }

    pub async fn next(&mut self) -> Value {
        self.next_within(10).await.expect("an event within 10 s")
    }

    /// Whether the stream ends within `secs`.
    pub async fn ends_within(&mut self, secs: u64) -> bool {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            match tokio::time::timeout_at(deadline, self.body.frame()).await {
                Err(_) => return false,
                Ok(None) => return true,
                Ok(Some(Ok(f))) => {
                    if let Ok(d) = f.into_data() {
                        self.buf.extend_from_slice(&d);
                    }
                }
                Ok(Some(Err(_))) => return true,
            }
        }
    }
}
