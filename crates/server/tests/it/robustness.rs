//! Requests that must not crash or wedge the server: malformed and huge bodies, deep nesting,
//! bad patches and selectors, unknown paths, garbage and slow clients; the transport options
//! (h2, TLS with a bearer token, the loopback rule); and persistence across `kill -9`.

use std::time::Duration;

use bytes::Bytes;
use crdkit_server::{ApiConfig, ApiServer, ServerConfig, TlsConfig};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{CT, Http, manifest_json, server, server_with};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_huge_and_deep_bodies() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let json_ct = [("content-type", "application/json")];
    let e = h
        .send("POST", CT, &json_ct, Some(b"{\"apiVersion\": ".to_vec()))
        .await
        .expect(400)
        .json();
    assert_eq!(
        (e["kind"].as_str(), e["reason"].as_str()),
        (Some("Status"), Some("BadRequest"))
    );
    assert_eq!(
        h.send("POST", CT, &json_ct, Some(b"[1,2]".to_vec()))
            .await
            .status,
        400
    );
    assert_eq!(
        h.send("POST", CT, &json_ct, Some(b"".to_vec()))
            .await
            .status,
        400
    );
    assert_eq!(
        h.send("POST", CT, &json_ct, Some(vec![0xff, 0xfe, 0x00]))
            .await
            .status,
        400
    );
    // Over the 3 MiB limit.
    let mut big = br#"{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"big"},"spec":{"image":""#.to_vec();
    big.extend(std::iter::repeat_n(b'x', 4 * 1024 * 1024));
    big.extend(br#""}}"#);
    let e = h
        .send("POST", CT, &json_ct, Some(big))
        .await
        .expect(413)
        .json();
    assert_eq!(e["reason"], "RequestEntityTooLarge");
    assert_eq!(e["message"], "Request entity too large: limit is 3145728");
    // Nesting deeper than the decoders go.
    let deep = format!(
        "{{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"CronTab\",\"metadata\":{{\"name\":\"d\"}},\"spec\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(
        h.send("POST", CT, &json_ct, Some(deep.into_bytes()))
            .await
            .status,
        400
    );
    let deep_yaml = format!(
        "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {{name: d}}\nspec: {}",
        "[".repeat(50_000)
    );
    assert_eq!(
        h.send(
            "POST",
            CT,
            &[("content-type", "application/yaml")],
            Some(deep_yaml.into_bytes())
        )
        .await
        .status,
        400
    );
    // YAML bodies work; malformed ones are 400s.
    let yaml = crate::common::manifest("my-crontab.yaml");
    h.send(
        "POST",
        CT,
        &[("content-type", "application/yaml")],
        Some(yaml.into_bytes()),
    )
    .await
    .expect(201);
    assert_eq!(
        h.send(
            "POST",
            CT,
            &[("content-type", "application/yaml")],
            Some(b"a: [".to_vec())
        )
        .await
        .status,
        400
    );
    // Media types.
    let e = h
        .send(
            "POST",
            CT,
            &[("content-type", "application/vnd.kubernetes.protobuf")],
            Some(vec![1, 2]),
        )
        .await
        .expect(415)
        .json();
    assert_eq!(e["reason"], "UnsupportedMediaType");
    assert_eq!(
        h.send(
            "GET",
            CT,
            &[("accept", "application/vnd.kubernetes.protobuf")],
            None
        )
        .await
        .status,
        406
    );
    // `MediaTypesForSerializer`: every serializer's type, or those that stream for a watch
    // (YAML does not).
    let e = h.get_as(CT, "text/html").await.expect(406).json();
    assert_eq!(
        e["message"],
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"
    );
    // The Status in the YAML asked for, as `ErrorNegotiated` answers.
    let e = h
        .get_as(&format!("{CT}?watch=true"), "application/yaml")
        .await
        .expect(406)
        .text();
    assert!(e.contains("reason: NotAcceptable\n"), "{e}");
    assert!(
        e.contains("message: 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch'\n"),
        "{e}"
    );
    // A nested patch document and a JSON patch of many operations.
    let ops: Vec<_> = (0..10_001)
        .map(|_| json!({"op": "test", "path": "/kind", "value": "CronTab"}))
        .collect();
    h.patch(
        &format!("{CT}/my-new-cron-object"),
        "application/json-patch+json",
        &json!(ops),
    )
    .await
    .expect(413);
    // Still serving.
    h.get(&format!("{CT}/my-new-cron-object")).await.expect(200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_paths_methods_and_parameters() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    for path in [
        "/apis/stable.example.com/v9/namespaces/default/crontabs",
        "/apis/stable.example.com/v1/namespaces/default/nothings",
        "/apis/stable.example.com/v1/namespaces/default/crontabs/a/b/c",
        "/apis/stable.example.com/v1/crontabs/a",
        "/api/v2/namespaces",
        "/%ff%fe",
        "/apis//v1",
    ] {
        let r = h.get(path).await;
        assert_eq!(r.status, 404, "{path}");
        assert_eq!(r.json()["kind"], "Status", "{path}");
    }
    assert_eq!(h.send("PUT", CT, &[], None).await.status, 405);
    assert_eq!(
        h.send("POST", &format!("{CT}/x"), &[], None).await.status,
        405
    );
    assert_eq!(h.send("OPTIONS", CT, &[], None).await.status, 405);
    for q in [
        "limit=abc",
        "watch=maybe",
        "fieldSelector=a",
        "resourceVersion=x&resourceVersionMatch=Exact",
        "continue=x",
        "includeObject=All",
    ] {
        let accept = if q.starts_with("includeObject") {
            crate::common::TABLE
        } else {
            "application/json"
        };
        let r = h.get_as(&format!("{CT}?{q}"), accept).await;
        assert_eq!(r.status, 400, "{q}: {}", String::from_utf8_lossy(&r.body));
    }
    // A pair with a malformed escape is dropped, as `req.URL.Query()` drops it: no selector.
    for (name, labels) in [("l", json!({"x": "1"})), ("u", json!({}))] {
        let o = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": name, "labels": labels}});
        h.post(CT, &o).await.expect(201);
    }
    let names = |path: String| async move {
        let r = h.get(&path).await.expect(200).json();
        let items = r["items"].as_array().unwrap().clone();
        items
            .iter()
            .map(|o| o["metadata"]["name"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(format!("{CT}?labelSelector=x%3D1")).await,
        [json!("l")]
    );
    assert_eq!(
        names(format!("{CT}?labelSelector=x%3D1%zz&limit=%4")).await,
        [json!("l"), json!("u")]
    );
    // ValidateListOptions: a 422 for the ListOptions.
    let r = h
        .get(&format!("{CT}?resourceVersionMatch=Exact"))
        .await
        .expect(422)
        .json();
    assert_eq!(
        r["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
    );
    assert_eq!(
        h.get(&format!("{CT}?resourceVersion=999999")).await.status,
        504
    );
    assert_eq!(
        h.send(
            "DELETE",
            &format!("{CT}/x"),
            &[("content-type", "application/json")],
            Some(b"{\"propagationPolicy\":\"Sometimes\"}".to_vec())
        )
        .await
        .status,
        422
    );
    assert_eq!(
        h.send(
            "DELETE",
            &format!("{CT}/x"),
            &[],
            Some(b"not json".to_vec())
        )
        .await
        .status,
        400
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_slow_clients_do_not_wedge_the_server() {
    let s = server_with(ApiConfig {
        body_timeout: Duration::from_millis(500),
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    // Not HTTP at all.
    let mut raw = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    raw.write_all(b"\x16\x03\x01garbage\r\n\r\n").await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), raw.read_to_end(&mut buf)).await;
    // A client announcing a body it never sends gets a Status after the body timeout.
    let mut slow = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    slow.write_all(format!("POST {CT} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{{").as_bytes()).await.unwrap();
    // Meanwhile others are served.
    for _ in 0..20 {
        h.get(CT).await.expect(200);
    }
    let mut reply = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), slow.read(&mut reply))
        .await
        .expect("answered")
        .unwrap();
    let text = String::from_utf8_lossy(&reply[..n]);
    assert!(text.starts_with("HTTP/1.1 504"), "{text}");
    assert!(
        text.contains("\"message\":\"Timeout: request did not complete within requested timeout - context deadline exceeded\""),
        "{text}"
    );
    // Many connections opened and dropped.
    for _ in 0..200 {
        drop(tokio::net::TcpStream::connect(s.addr()).await.unwrap());
    }
    h.get("/version").await.expect(200);
    // A watch whose client goes away ends on the server.
    let w = h.watch(&format!("{CT}?watch=true")).await;
    drop(w);
    h.post(CT, &manifest_json("my-crontab.yaml"))
        .await
        .expect(201);
    h.get(CT).await.expect(200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_cleartext() {
    let s = server().await;
    let stream = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .expect("h2");
    tokio::spawn(conn);
    let req = http::Request::builder()
        .uri(format!("http://{}/version", s.addr()))
        .body(Full::new(Bytes::new()))
        .unwrap();
    let resp = sender.send_request(req).await.expect("h2 request");
    assert_eq!(resp.version(), http::Version::HTTP_2);
    assert_eq!(resp.status(), 200);
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("\"minor\":\"32\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_token_and_loopback_rule() {
    let s = ApiServer::start_with(ServerConfig {
        tls: Some(TlsConfig::Generate),
        token: Some("s3cret".to_owned()),
        ..ServerConfig::default()
    })
    .await
    .expect("TLS server");
    assert!(s.url().starts_with("https://127.0.0.1:"));
    let kubeconfig = std::fs::read_to_string(s.kubeconfig()).unwrap();
    assert!(
        kubeconfig.contains("certificate-authority-data: ") && kubeconfig.contains("token: s3cret"),
        "{kubeconfig}"
    );
    let pem = s.ca_pem().unwrap();
    let mut config = kube::Config::new(s.url().parse().unwrap());
    config.root_cert = Some(vec![
        <rustls_pki_types::CertificateDer as rustls_pki_types::pem::PemObject>::pem_slice_iter(
            pem.as_bytes(),
        )
        .next()
        .unwrap()
        .unwrap()
        .to_vec(),
    ]);
    let anonymous = kube::Client::try_from(config.clone()).unwrap();
    match anonymous.apiserver_version().await {
        Err(kube::Error::Api(e)) => assert_eq!(e.code, 401),
        other => panic!("{other:?}"),
    }
    config.auth_info.token = Some("s3cret".to_owned().into());
    let client = kube::Client::try_from(config).unwrap();
    assert_eq!(
        client.apiserver_version().await.expect("version").minor,
        "32"
    );
    // Non-loopback addresses need the flag and a token.
    let any = "0.0.0.0:0".parse().unwrap();
    let e = ApiServer::start_with(ServerConfig {
        addr: any,
        ..ServerConfig::default()
    })
    .await
    .err()
    .expect("refused");
    assert!(e.to_string().contains("not a loopback address"), "{e}");
    let e = ApiServer::start_with(ServerConfig {
        addr: any,
        allow_remote: true,
        ..ServerConfig::default()
    })
    .await
    .err()
    .expect("refused");
    assert!(e.to_string().contains("bearer token"), "{e}");
    // Over plain HTTP the token would cross the network in clear text: refused unless asked.
    let e = ApiServer::start_with(ServerConfig {
        addr: any,
        allow_remote: true,
        token: Some("t".into()),
        ..ServerConfig::default()
    })
    .await
    .err()
    .expect("refused");
    assert!(e.to_string().contains("--insecure-remote-http"), "{e}");
    for (tls, insecure_remote_http) in [(Some(TlsConfig::Generate), false), (None, true)] {
        let ok = ApiServer::start_with(ServerConfig {
            addr: any,
            allow_remote: true,
            token: Some("t".into()),
            tls,
            insecure_remote_http,
            ..ServerConfig::default()
        })
        .await
        .expect("allowed");
        ok.shutdown().await;
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_ends_watches() {
    let s = server().await;
    let h = Http::of(&s);
    let mut w = h
        .watch("/api/v1/namespaces?watch=true&resourceVersion=0")
        .await;
    w.next().await;
    tokio::time::timeout(Duration::from_secs(10), s.shutdown())
        .await
        .expect("shut down in time");
    assert!(w.ends_within(5).await);
    assert!(tokio::net::TcpStream::connect(h.addr).await.is_err() || h_is_closed(h).await);
}

async fn h_is_closed(h: Http) -> bool {
    // The port may be reused by the OS only later; a connection that is refused or reset is
    // closed.
    let Ok(mut s) = tokio::net::TcpStream::connect(h.addr).await else {
        return true;
    };
    let _ = s
        .write_all(b"GET /version HTTP/1.1\r\nhost: localhost\r\n\r\n")
        .await;
    let mut buf = [0u8; 16];
    matches!(
        tokio::time::timeout(Duration::from_secs(2), s.read(&mut buf)).await,
        Ok(Ok(0) | Err(_)) | Err(_)
    )
}

/// A string's bytes that are not UTF-8, and surrogate escapes that do not pair, are read as
/// U+FFFD, as Go's `encoding/json` reads them, in creates and patches alike; what is not JSON
/// stays a 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strings_that_are_not_utf8_are_read_as_go_reads_them() {
    let s = server().await;
    let h = Http::of(&s);
    let cms = "/api/v1/namespaces/default/configmaps";
    let body = b"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"u\"},\
        \"data\":{\"a\":\"x\xffy\",\"b\":\"\\ud800z\",\"c\":\"\\ud83d\\ude00\"}}"
        .to_vec();
    let r = h
        .send(
            "POST",
            cms,
            &[("content-type", "application/json")],
            Some(body),
        )
        .await
        .expect(201)
        .json();
    assert_eq!(
        r["data"],
        json!({"a": "x\u{FFFD}y", "b": "\u{FFFD}z", "c": "\u{1F600}"})
    );
    let patch = b"{\"data\":{\"a\":\"\\udc00\xc3\"}}".to_vec();
    let r = h
        .send(
            "PATCH",
            &format!("{cms}/u"),
            &[("content-type", "application/merge-patch+json")],
            Some(patch),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(r["data"]["a"], "\u{FFFD}\u{FFFD}");
    let e = h
        .send(
            "POST",
            cms,
            &[("content-type", "application/json")],
            Some(b"{\"data\":\xff}".to_vec()),
        )
        .await
        .expect(400)
        .json();
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("json parse error: "),
        "{e}"
    );
}
