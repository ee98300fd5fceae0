//! The rows of issue 19 about connections, filters, health and credentials: silent and idle
//! connections closed, the in-flight limit, Status bodies on 414/431/400, foreign hosts and
//! origins refused, `/healthz` with storage down, private files, token files, generated client
//! certificates, kubectl over TLS unattended.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use crdkit_server::{ApiServer, ServerConfig, StartError, TlsConfig};
use crdkit_storage::{
    Deleted, EventStream, KeyValue, ListOptions, ListResult, MemoryStorage, Result as StoreResult,
    Revision, Storage,
};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{CT, Http};

async fn start(config: ServerConfig) -> ApiServer {
    ApiServer::start_with(config).await.expect("server starts")
}

/// Whether the server closes `conn` within `secs` (whatever it writes first).
async fn closed_within(conn: &mut tokio::net::TcpStream, secs: u64) -> bool {
    let mut buf = vec![0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        match tokio::time::timeout_at(deadline, conn.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// Row 6: connections that send nothing, stop inside the protocol's first bytes or the TLS
/// handshake, or open h2 and then nothing, are closed; meanwhile others are served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_idle_connections_are_closed() {
    crdkit_server::raise_open_files_limit();
    let config = || ServerConfig {
        header_read_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        ..ServerConfig::default()
    };
    let s = start(config()).await;
    let h = Http::of(&s);
    let mut silent = Vec::new();
    for _ in 0..300 {
        silent.push(tokio::net::TcpStream::connect(s.addr()).await.unwrap());
    }
    h.get("/version").await.expect(200);
    let mut partial = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    partial.write_all(b"GE").await.unwrap();
    let mut h2c = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    h2c.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    for conn in &mut silent {
        assert!(closed_within(conn, 10).await, "a silent connection");
    }
    assert!(closed_within(&mut partial, 10).await, "a partial preface");
    assert!(closed_within(&mut h2c, 10).await, "an idle h2c connection");
    // An HTTP/1 connection idle after its request is closed too (hyper's header timeout).
    let mut kept = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    kept.write_all(b"GET /version HTTP/1.1\r\nhost: localhost\r\n\r\n")
        .await
        .unwrap();
    assert!(
        closed_within(&mut kept, 10).await,
        "an idle keep-alive connection"
    );
    h.get("/version").await.expect(200);
    s.shutdown().await;
    // TLS: a connection that never starts its handshake.
    let s = start(ServerConfig {
        tls: Some(TlsConfig::Generate),
        ..config()
    })
    .await;
    let mut silent = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    assert!(
        closed_within(&mut silent, 10).await,
        "a silent TLS connection"
    );
    s.shutdown().await;
}

/// Row 7: past the in-flight limit, 429 with `Retry-After: 1` and a Status; read-only and
/// mutating requests are counted apart, watches not at all. Each wait is bounded by 500 tries
/// 20 ms apart (10 s; with 2 s the test failed twice under load average 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_the_in_flight_limit_are_429() {
    let s = start(ServerConfig {
        max_mutating_requests_inflight: 2,
        max_requests_inflight: 4,
        ..ServerConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let body = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"generateName": "a-"}, "spec": {}});
    // The resource served first: a create held on a path not yet served would be answered 404
    // at once, without its body, and hold no place.
    let mut served = false;
    for _ in 0..500 {
        if h.post(CT, &body).await.status == 201 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(served, "the custom resource is served");
    // Two creates in flight: their bodies never come. A held create that arrived while the
    // previous create's answer still held its place was itself refused (it has an answer to
    // read): it is replaced, so that both places end up held.
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(hold_create(&s).await);
    }
    let mut refused = None;
    for _ in 0..500 {
        for c in &mut held {
            let mut buf = [0u8; 64];
            if !matches!(c.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
            {
                *c = hold_create(&s).await;
            }
        }
        let r = h.post(CT, &body).await;
        if r.status == 429 {
            refused = Some(r);
            break;
        }
        // The held requests may not have reached the handler yet.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = refused.expect("a 429 while two creates are in flight");
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(
        r.json(),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "Too many requests, please try again later.", "reason": "TooManyRequests",
            "details": {"retryAfterSeconds": 1}, "code": 429})
    );
    // Reads and watches go on.
    h.get(CT).await.expect(200);
    let w = h.watch(&format!("{CT}?watch=true")).await;
    assert_eq!(w.status, 200);
    drop(held);
    let mut created = false;
    for _ in 0..500 {
        if h.post(CT, &body).await.status == 201 {
            created = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(created, "the limit frees up when the requests end");
    // Many reads at once: each is served or told to retry, with the header.
    let tasks: Vec<_> = (0..40)
        .map(|_| tokio::spawn(async move { h.get(CT).await }))
        .collect();
    for t in tasks {
        let r = t.await.unwrap();
        match r.status {
            200 => {}
            429 => assert_eq!(r.header("retry-after"), Some("1")),
            other => panic!("{other}"),
        }
    }
    s.shutdown().await;
}

/// A create whose body never comes: it holds a mutating place while the server waits for it.
async fn hold_create(s: &ApiServer) -> tokio::net::TcpStream {
    let mut c = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    c.write_all(format!("POST {CT} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{{").as_bytes()).await.unwrap();
    c
}

/// Sends raw bytes and reads the answer until the server closes or 10 s pass.
async fn raw(s: &ApiServer, request: &[u8]) -> String {
    let mut c = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    c.write_all(request).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), c.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

/// The Status in a raw HTTP/1 answer.
fn status_of(answer: &str) -> serde_json::Value {
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// Row 9: a label selector of 100k characters, a head over 1 MiB and a malformed request line
/// are answered with Status bodies (HTTP/1: 414, 431, 400; h2 reaches the selector parser).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_uris_and_heads_get_status_bodies() {
    let s = start(ServerConfig::default()).await;
    let selector = format!("app%3D{}", "x".repeat(100_000));
    let answer = raw(
        &s,
        format!(
            "GET /api/v1/namespaces?labelSelector={selector} HTTP/1.1\r\nhost: localhost\r\n\r\n"
        )
        .as_bytes(),
    )
    .await;
    assert!(
        answer.starts_with("HTTP/1.1 414 URI Too Long\r\n"),
        "{answer}"
    );
    let st = status_of(&answer);
    assert_eq!((&st["kind"], &st["code"]), (&json!("Status"), &json!(414)));
    let answer = raw(
        &s,
        format!(
            "GET /version HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\nx-big: {}\r\n\r\n",
            "y".repeat(1_100_000)
        )
        .as_bytes(),
    )
    .await;
    assert!(
        answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    assert_eq!(status_of(&answer)["code"], 431);
    let answer = raw(&s, b"GARBAGE\r\n\r\n").await;
    assert!(
        answer.starts_with("HTTP/1.1 400 Bad Request\r\n"),
        "{answer}"
    );
    assert_eq!(status_of(&answer)["reason"], "BadRequest");
    // On h2 the `http` crate holds URIs up to 64 KiB (a longer `:path` resets the stream): a
    // selector within that reaches the selector parser, which answers.
    let selector = format!("app%3D{}", "x".repeat(60_000));
    let stream = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(conn);
    let req = http::Request::builder()
        .uri(format!(
            "http://{}/api/v1/namespaces?labelSelector={selector}",
            s.addr()
        ))
        .body(Full::new(Bytes::new()))
        .unwrap();
    let resp = sender.send_request(req).await.unwrap();
    assert_eq!(resp.status(), 400);
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    let st: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(st["kind"], "Status");
    // Still serving.
    Http::of(&s).get("/version").await.expect(200);
    s.shutdown().await;
}

/// Row 10: without a token, a foreign `Host` (DNS rebinding) and a foreign `Origin` (a web
/// page's form) are refused with a 403 Status; configurable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_hosts_and_origins_are_refused() {
    let s = start(ServerConfig::default()).await;
    let h = Http::of(&s);
    let e = h
        .send(
            "GET",
            "/api/v1/namespaces",
            &[("host", "rebind.attacker.example")],
            None,
        )
        .await
        .expect(403)
        .json();
    assert_eq!(
        (&e["kind"], &e["reason"]),
        (&json!("Status"), &json!("Forbidden"))
    );
    let form = br#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"pwned"}}"#.to_vec();
    h.send(
        "POST",
        "/api/v1/namespaces",
        &[("origin", "http://attacker.example")],
        Some(form.clone()),
    )
    .await
    .expect(403);
    h.get("/api/v1/namespaces/pwned").await.expect(404);
    // Local pages and hosts with any port are fine.
    for host in ["127.0.0.1:1", "[::1]:8001", "localhost"] {
        h.send("GET", "/version", &[("host", host)], None)
            .await
            .expect(200);
    }
    h.send(
        "GET",
        "/version",
        &[("origin", "http://localhost:3000")],
        None,
    )
    .await
    .expect(200);
    s.shutdown().await;
    // For people who know why: other hosts, or any.
    let s = start(ServerConfig {
        accept_hosts: vec![r"^dev\.local$".to_owned()],
        ..ServerConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.send("GET", "/version", &[("host", "dev.local:80")], None)
        .await
        .expect(200);
    h.get("/version").await.expect(403);
    s.shutdown().await;
    let s = start(ServerConfig {
        accept_hosts: Vec::new(),
        ..ServerConfig::default()
    })
    .await;
    Http::of(&s)
        .send(
            "GET",
            "/version",
            &[("host", "anything.example"), ("origin", "null")],
            None,
        )
        .await
        .expect(200);
    s.shutdown().await;
    // A token keeps web pages out: hosts are not checked then.
    let s = start(ServerConfig {
        token: Some("t0k3n".to_owned()),
        ..ServerConfig::default()
    })
    .await;
    Http::of(&s)
        .send(
            "GET",
            "/version",
            &[("host", "10.0.0.1"), ("authorization", "Bearer t0k3n")],
            None,
        )
        .await
        .expect(200);
    s.shutdown().await;
}

/// A store that can be taken down (its revision unreadable), as etcd going away.
struct Flaky {
    inner: MemoryStorage,
    down: AtomicBool,
}

#[async_trait]
impl Storage for Flaky {
    async fn get(&self, key: &str) -> StoreResult<KeyValue> {
        self.inner.get(key).await
    }
    async fn list(&self, prefix: &str, options: &ListOptions) -> StoreResult<ListResult> {
        self.inner.list(prefix, options).await
    }
    async fn create(&self, key: &str, value: Bytes) -> StoreResult<KeyValue> {
        self.inner.create(key, value).await
    }
    async fn update(&self, key: &str, value: Bytes, expected: Revision) -> StoreResult<KeyValue> {
        self.inner.update(key, value, expected).await
    }
    async fn delete(&self, key: &str, expected: Option<Revision>) -> StoreResult<Deleted> {
        self.inner.delete(key, expected).await
    }
    async fn watch(&self, prefix: &str, after: Revision) -> StoreResult<EventStream> {
        self.inner.watch(prefix, after).await
    }
    async fn current_revision(&self) -> StoreResult<Revision> {
        if self.down.load(Ordering::SeqCst) {
            return Err(crdkit_storage::Error::Backend(
                "dial tcp 127.0.0.1:2379: connect: connection refused".to_owned(),
            ));
        }
        self.inner.current_revision().await
    }
    async fn compact(&self, revision: Revision) -> StoreResult<()> {
        self.inner.compact(revision).await
    }
}

/// Row 8: the health endpoints with kube-apiserver's checks and output; storage down fails
/// them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_endpoints_check_storage() {
    let store = Arc::new(Flaky {
        inner: MemoryStorage::new(),
        down: AtomicBool::new(false),
    });
    let s = start(ServerConfig {
        storage: Some(Arc::clone(&store) as Arc<dyn Storage>),
        ..ServerConfig::default()
    })
    .await;
    let h = Http::of(&s);
    let text = |r: crate::common::Reply| String::from_utf8_lossy(&r.body).into_owned();
    assert_eq!(text(h.get("/healthz").await.expect(200)), "ok");
    assert_eq!(
        text(h.get("/healthz?verbose").await.expect(200)),
        "[+]ping ok\n[+]log ok\n[+]etcd ok\nhealthz check passed\n"
    );
    assert_eq!(
        text(h.get("/livez?verbose=1").await.expect(200)),
        "[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n"
    );
    assert_eq!(
        text(h.get("/readyz?verbose").await.expect(200)),
        "[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check passed\n"
    );
    assert_eq!(text(h.get("/readyz/etcd").await.expect(200)), "ok");
    h.get("/healthz/nope").await.expect(404);
    store.down.store(true, Ordering::SeqCst);
    let r = h.get("/healthz").await.expect(500);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(
        text(r),
        "[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\nhealthz check failed\n"
    );
    h.get("/livez").await.expect(500);
    assert!(
        text(h.get("/readyz/etcd").await.expect(500))
            .starts_with("internal server error: storage backend error: dial tcp")
    );
    assert_eq!(
        text(
            h.get("/healthz?verbose&exclude=etcd&exclude=nope")
                .await
                .expect(200)
        ),
        "[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\nwarn: some health checks cannot be excluded: no matches for \"nope\"\nhealthz check passed\n"
    );
    store.down.store(false, Ordering::SeqCst);
    h.get("/readyz").await.expect(200);
    s.shutdown().await;
}

#[cfg(unix)]
fn mode(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Row 11: the kubeconfig (which holds the token) and the data directory are private; the
/// token comes from a file too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_are_private_and_tokens_come_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "from-a-file\n").unwrap();
    let kubeconfig = dir.path().join("new/dir/kubeconfig");
    let data = dir.path().join("data");
    let s = start(ServerConfig {
        token_file: Some(token_file.clone()),
        kubeconfig: Some(kubeconfig.clone()),
        storage: Some(crdkit_server::open_dir(&data).unwrap()),
        ..ServerConfig::default()
    })
    .await;
    #[cfg(unix)]
    {
        assert_eq!(mode(&kubeconfig), 0o600);
        assert_eq!(mode(&dir.path().join("new")), 0o700);
        assert_eq!(mode(&dir.path().join("new/dir")), 0o700);
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join(crdkit_server::DATA_FILE)), 0o600);
    }
    assert!(
        std::fs::read_to_string(&kubeconfig)
            .unwrap()
            .contains("    token: from-a-file\n")
    );
    assert_eq!(s.token(), Some("from-a-file"));
    let h = Http::of(&s);
    h.get("/version").await.expect(401);
    h.send(
        "GET",
        "/version",
        &[("authorization", "Bearer from-a-file")],
        None,
    )
    .await
    .expect(200);
    s.shutdown().await;
    // One token, not two; not an empty one.
    let both = ApiServer::start_with(ServerConfig {
        token: Some("a".to_owned()),
        token_file: Some(token_file.clone()),
        ..ServerConfig::default()
    })
    .await;
    assert!(matches!(both, Err(StartError::Config(_))));
    std::fs::write(&token_file, "\n").unwrap();
    let empty = ApiServer::start_with(ServerConfig {
        token_file: Some(token_file),
        ..ServerConfig::default()
    })
    .await;
    assert!(matches!(empty, Err(StartError::Config(_))));
}

/// Row 12: `--tls-generate` issues a client certificate that the kubeconfig carries and that
/// authenticates; without it (and without a token) requests are 401. kubectl works with the
/// kubeconfig alone, unattended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_tls_has_a_client_certificate_kubectl_uses() {
    let s = start(ServerConfig {
        tls: Some(TlsConfig::Generate),
        ..ServerConfig::default()
    })
    .await;
    let kubeconfig = std::fs::read_to_string(s.kubeconfig()).unwrap();
    for field in [
        "certificate-authority-data: ",
        "client-certificate-data: ",
        "client-key-data: ",
    ] {
        assert!(kubeconfig.contains(field), "{kubeconfig}");
    }
    assert!(!kubeconfig.contains("user: {}"), "{kubeconfig}");
    // The kubeconfig as kube-rs reads it.
    let config = kube::Config::from_custom_kubeconfig(
        kube::config::Kubeconfig::read_from(s.kubeconfig()).unwrap(),
        &kube::config::KubeConfigOptions::default(),
    )
    .await
    .unwrap();
    let client = kube::Client::try_from(config.clone()).unwrap();
    assert_eq!(client.apiserver_version().await.unwrap().minor, "32");
    // The CA alone is not a credential.
    let mut anonymous = config;
    anonymous.auth_info = kube::config::AuthInfo::default();
    match kube::Client::try_from(anonymous)
        .unwrap()
        .apiserver_version()
        .await
    {
        Err(kube::Error::Api(e)) => assert_eq!(e.code, 401),
        other => panic!("{other:?}"),
    }
    // kubectl, with nothing on its stdin to prompt on.
    let path = s.kubeconfig().to_owned();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("/usr/bin/kubectl")
            .arg("--kubeconfig")
            .arg(path)
            .args(["get", "namespaces", "-o", "name", "--request-timeout=20s"])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("kubectl runs")
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("namespace/default"));
    s.shutdown().await;
}

/// `ApiServer::oneshot`: a request through the filters and handlers in process.
#[tokio::test]
async fn oneshot_answers_in_process() {
    let s = start(ServerConfig::default()).await;
    let req = |host: &str| {
        http::Request::get("/version")
            .header("host", host)
            .body(Bytes::new())
            .unwrap()
    };
    let ok = s.oneshot(req("localhost")).await;
    assert_eq!(ok.status(), 200);
    assert!(String::from_utf8_lossy(ok.body()).contains("\"minor\":\"32\""));
    let refused = s.oneshot(req("rebind.attacker.example")).await;
    assert_eq!(refused.status(), 403);
    s.shutdown().await;
}

/// What Go's `net/http` refuses while reading a request is refused here as Go refuses it, over
/// the wire: plain text, Go's status line, the connection closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_go_would_not_read_are_answered_as_go_answers_them() {
    let s = start(ServerConfig::default()).await;
    let post = |te: &str| {
        format!("POST /api/v1/namespaces HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n{te}\r\n2\r\n{{}}\r\n0\r\n\r\n")
            .into_bytes()
    };
    let cases: [(Vec<u8>, &str, &str); 5] = [
        (
            b"GET /version HTTP/1.1\r\nhost: localhost\r\nhost: localhost\r\n\r\n".to_vec(),
            "400 Bad Request",
            "400 Bad Request",
        ),
        (
            b"GET /version HTTP/1.1\r\n\r\n".to_vec(),
            "400 Bad Request: missing required Host header",
            "400 Bad Request: missing required Host header",
        ),
        (
            b"GET /version HTTP/1.1\r\nhost: local\xffhost\r\n\r\n".to_vec(),
            "400 Bad Request: malformed Host header",
            "400 Bad Request: malformed Host header",
        ),
        (
            post("transfer-encoding: gzip, chunked\r\n"),
            "501 Not Implemented",
            "Unsupported transfer encoding",
        ),
        (
            post("transfer-encoding: chunked\r\ntransfer-encoding: chunked\r\n"),
            "501 Not Implemented",
            "Unsupported transfer encoding",
        ),
    ];
    for (request, status, body) in cases {
        let answer = raw(&s, &request).await;
        let (head, got) = answer.split_once("\r\n\r\n").expect(&answer);
        let head = head.to_ascii_lowercase();
        assert!(
            head.starts_with(&format!("http/1.1 {}\r\n", status.to_ascii_lowercase())),
            "{answer}"
        );
        assert!(
            head.contains("content-type: text/plain; charset=utf-8"),
            "{answer}"
        );
        assert!(head.contains("connection: close"), "{answer}");
        assert_eq!(got, body);
    }
    // One `chunked` is read: the body `{}`, a namespace without a name.
    let answer = raw(
        &s,
        &post("transfer-encoding: chunked\r\nconnection: close\r\n"),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 422 "), "{answer}");
    // Each with the start of Go's answer and, when it has one to check, the end.
    let more: [(&[u8], &str, &str); 5] = [
        // HTTP/1.0 needs no Host; a local server then refuses the host it cannot see.
        (b"GET /version HTTP/1.0\r\n\r\n", "HTTP/1.0 403 Forbidden\r\n", ""),
        // A malformed escape in the path: `url.ParseRequestURI` refuses the request line.
        (
            b"GET /api/v1/namespaces/x%zz HTTP/1.1\r\nhost: localhost\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\n",
            "\r\n\r\n400 Bad Request",
        ),
        // An expectation Go does not meet: 417, empty.
        (
            b"GET /version HTTP/1.1\r\nhost: localhost\r\nexpect: foo\r\n\r\n",
            "HTTP/1.1 417 Expectation Failed\r\n",
            "\r\n\r\n",
        ),
        // An absolute-form target names the host, whatever `Host` says (`req.Host`), without
        // its user-info.
        (
            b"GET http://rebind.attacker.example/version HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n",
            "HTTP/1.1 403 Forbidden\r\n",
            "",
        ),
        (
            b"GET http://u@localhost/version HTTP/1.1\r\nhost: rebind.attacker.example\r\nconnection: close\r\n\r\n",
            "HTTP/1.1 200 OK\r\n",
            "",
        ),
    ];
    for (request, start, end) in more {
        let answer = raw(&s, request).await;
        assert!(answer.starts_with(start), "{answer}");
        assert!(answer.ends_with(end), "{answer}");
    }
    s.shutdown().await;
}
