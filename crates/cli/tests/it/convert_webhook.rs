//! `crdgen convert` through a conversion webhook: a webhook on 127.0.0.1 (plain HTTP with
//! `--webhook-url`, HTTPS with the CA given by `--ca-bundle` or the CRD's `caBundle`) that
//! converts the versioning page's CronTab (`hostPort` in v1beta1, `host` and `port` in v1) and
//! records the reviews it gets.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// What the webhook answers to a review.
type Answer = dyn Fn(&Value) -> Value + Send + Sync;

/// The page's conversion, as the page's example webhook answers.
fn crontab_webhook(review: &Value) -> Value {
    let request = &review["request"];
    let desired = request["desiredAPIVersion"].clone();
    let mut converted = Vec::new();
    for obj in request["objects"].as_array().unwrap() {
        let mut obj = obj.clone();
        let Some(host_port) = obj.as_object_mut().unwrap().remove("hostPort") else {
            obj["apiVersion"] = desired.clone();
            converted.push(obj);
            continue;
        };
        let Some((host, port)) = host_port.as_str().and_then(|s| s.split_once(':')) else {
            return json!({"apiVersion": review["apiVersion"], "kind": "ConversionReview",
                "response": {"uid": request["uid"], "result": {"status": "Failed",
                    "message": "hostPort could not be parsed into a separate host and port"}}});
        };
        obj["host"] = json!(host);
        obj["port"] = json!(port);
        obj["apiVersion"] = desired.clone();
        // Webhooks may change labels; other metadata changes are ignored.
        obj["metadata"]["labels"] = json!({"converted": "true"});
        obj["metadata"]["resourceVersion"] = json!("changed-and-ignored");
        converted.push(obj);
    }
    json!({"apiVersion": review["apiVersion"], "kind": "ConversionReview",
        "response": {"uid": request["uid"], "result": {"status": "Success"},
                     "convertedObjects": converted}})
}

/// Serves one HTTP/1.1 request on `stream`: records the body, writes the answer.
fn serve(mut stream: impl Read + Write, answer: &Answer, seen: &Mutex<Vec<Value>>) {
    let mut reader = BufReader::new(&mut stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let review: Value = serde_json::from_slice(&body).unwrap();
    let response = answer(&review).to_string();
    seen.lock().unwrap().push(review);
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{response}",
        response.len()
    );
    let _ = stream.flush();
}

struct Webhook {
    url: String,
    seen: Arc<Mutex<Vec<Value>>>,
}

/// A webhook answering up to `requests` requests, over TLS with the test certificate when
/// `tls`.
fn start(tls: bool, requests: usize, answer: Arc<Answer>) -> Webhook {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&seen);
    let config = tls.then(server_config);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let Ok(stream) = stream else { continue };
            match &config {
                Some(config) => {
                    let Ok(conn) = rustls::ServerConnection::new(Arc::clone(config)) else {
                        continue;
                    };
                    serve(rustls::StreamOwned::new(conn, stream), &*answer, &recorded);
                }
                None => serve(stream, &*answer, &recorded),
            }
        }
    });
    let scheme = if tls { "https" } else { "http" };
    Webhook {
        url: format!("{scheme}://127.0.0.1:{port}/crdconvert"),
        seen,
    }
}

fn data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file)
}

fn server_config() -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_file_iter(data("server.pem"))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(data("server.key")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Arc::new(
        rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap(),
    )
}

/// The page's CRD with the Webhook strategy (`clientConfig`: `url` and `caBundle` when given).
fn crd(url: Option<&str>, ca_bundle: Option<&str>) -> String {
    let mut client = json!({"service": {"namespace": "default", "name": "example-conversion-webhook-server", "path": "/crdconvert"}});
    if let Some(u) = url {
        client = json!({"url": u});
    }
    if let Some(b) = ca_bundle {
        client["caBundle"] = json!(b);
    }
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "shortNames": ["ct"]},
            "versions": [
                {"name": "v1beta1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"hostPort": {"type": "string"}}}}},
                {"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"host": {"type": "string"}, "port": {"type": "string"}}}}}],
            "conversion": {"strategy": "Webhook", "webhook": {
                "conversionReviewVersions": ["v1", "v1beta1"], "clientConfig": client}}}})
    .to_string()
}

/// The page's ConversionReview objects, and one already at v1.
const OBJECTS: &str = r#"{"kind": "CronTab", "apiVersion": "example.com/v1beta1",
 "metadata": {"creationTimestamp": "2019-09-04T14:03:02Z", "name": "local-crontab", "namespace": "default",
              "resourceVersion": "143", "uid": "3415a7fc-162b-4300-b5da-fd6083580d66"},
 "hostPort": "localhost:1234"}
{"kind": "CronTab", "apiVersion": "example.com/v1beta1",
 "metadata": {"creationTimestamp": "2019-09-03T13:02:01Z", "name": "remote-crontab", "resourceVersion": "12893",
              "uid": "359a83ec-b575-460d-b553-d859cedde8a0"},
 "hostPort": "example.com:2345", "unknown": "pruned before it is sent"}
{"kind": "CronTab", "apiVersion": "example.com/v1", "metadata": {"name": "already-v1"}, "host": "h", "port": "1"}
"#;

/// Runs `crdgen` in-process with `files` in a fresh directory: exit code, stdout, stderr.
fn crdgen(name: &str, args: &[&str], files: &[(&str, &str)]) -> (u8, String, String) {
    let dir = std::env::temp_dir().join(format!("crdgen-webhook-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut argv = Vec::new();
    for a in args {
        let path = dir.join(a);
        if let Some((_, text)) = files.iter().find(|(f, _)| f == a) {
            std::fs::write(&path, text).unwrap();
            argv.push(path.into_os_string());
        } else {
            argv.push((*a).into());
        }
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crdkit_cli::run(argv, &[], &mut out, &mut err);
    let _ = std::fs::remove_dir_all(&dir);
    let strip = |b: Vec<u8>| {
        String::from_utf8(b)
            .unwrap()
            .replace(&dir.display().to_string(), "DIR")
    };
    (code, strip(out), strip(err))
}

fn lines(json_lines: &str) -> Vec<Value> {
    json_lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn converts_through_the_webhook_url() {
    let webhook = start(false, 1, Arc::new(crontab_webhook));
    let crd = crd(None, None);
    let (code, out, err) = crdgen(
        "url",
        &[
            "convert",
            "--to",
            "v1",
            "--webhook-url",
            &webhook.url,
            "--crd",
            "crd.json",
            "-o",
            "json",
            "objects.json",
        ],
        &[("crd.json", &crd), ("objects.json", OBJECTS)],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let got = lines(&out);
    assert_eq!(
        got[0],
        json!({"kind": "CronTab", "apiVersion": "example.com/v1",
            "metadata": {"creationTimestamp": "2019-09-04T14:03:02Z", "name": "local-crontab",
                         "namespace": "default", "resourceVersion": "143",
                         "uid": "3415a7fc-162b-4300-b5da-fd6083580d66",
                         "labels": {"converted": "true"}},
            "host": "localhost", "port": "1234"})
    );
    assert_eq!(got[1]["host"], "example.com");
    assert_eq!(
        got[1]["metadata"]["resourceVersion"], "12893",
        "metadata restored"
    );
    assert_eq!(got[2]["metadata"]["name"], "already-v1");
    // One review, v1 (the first of conversionReviewVersions), of the two objects not at v1,
    // decoded at their version first (the unknown field pruned).
    let seen = webhook.seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let review = &seen[0];
    assert_eq!(review["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(review["kind"], "ConversionReview");
    assert_eq!(review["request"]["desiredAPIVersion"], "example.com/v1");
    let uid = review["request"]["uid"].as_str().unwrap();
    assert_eq!(uid.len(), 36, "{uid}");
    let sent = review["request"]["objects"].as_array().unwrap();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].get("unknown"), None);
    assert_eq!(sent[1]["hostPort"], "example.com:2345");
}

#[test]
fn the_webhooks_failure() {
    let webhook = start(false, 1, Arc::new(crontab_webhook));
    let crd = crd(Some(&webhook.url.replace("http:", "https:")), None);
    let objects = r#"{"kind": "CronTab", "apiVersion": "example.com/v1beta1", "metadata": {"name": "bad"}, "hostPort": "no-port"}
{"kind": "CronTab", "apiVersion": "example.com/v1", "metadata": {"name": "fine"}}"#;
    let (code, out, err) = crdgen(
        "failed",
        &[
            "convert",
            "--to",
            "v1",
            "--webhook-url",
            &webhook.url,
            "--crd",
            "crd.json",
            "objects.json",
        ],
        &[("crd.json", &crd), ("objects.json", objects)],
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "crdgen: DIR/objects.json:1: conversion webhook for example.com/v1beta1, Kind=CronTab failed: hostPort could not be parsed into a separate host and port\n"
    );
    assert_eq!(
        out,
        "apiVersion: example.com/v1\nkind: CronTab\nmetadata:\n  name: fine\n"
    );
}

#[test]
fn a_bad_answer_is_rejected() {
    let rename = |review: &Value| {
        let mut answer = crontab_webhook(review);
        answer["response"]["convertedObjects"][0]["metadata"]["name"] = json!("renamed");
        answer
    };
    let webhook = start(false, 1, Arc::new(rename));
    let crd = crd(None, None);
    let (code, out, err) = crdgen(
        "renamed",
        &[
            "convert",
            "--to",
            "v1",
            "--webhook-url",
            &webhook.url,
            "--crd",
            "crd.json",
            "objects.json",
        ],
        &[("crd.json", &crd), ("objects.json", OBJECTS)],
    );
    assert_eq!(code, 1);
    let want = "conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid converted object at index 0: must have the same name: local-crontab != renamed";
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.lines().all(|l| l.ends_with(want)), "{err}");
    // The object already at v1 was not sent, and is written.
    assert!(out.contains("name: already-v1"), "{out}");
}

#[test]
fn https_with_the_crds_ca_bundle() {
    let webhook = start(true, 1, Arc::new(crontab_webhook));
    let ca = std::fs::read(data("ca.pem")).unwrap();
    let bundle = crdkit_apimachinery::gobase64::encode(&ca);
    let crd = crd(Some(&webhook.url), Some(&bundle));
    let (code, out, err) = crdgen(
        "https",
        &[
            "convert",
            "--to",
            "v1",
            "--crd",
            "crd.json",
            "-o",
            "json",
            "objects.json",
        ],
        &[("crd.json", &crd), ("objects.json", OBJECTS)],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(lines(&out)[0]["port"], "1234");
}

#[test]
fn https_with_a_ca_bundle_file_and_without() {
    let webhook = start(true, 2, Arc::new(crontab_webhook));
    let crd = crd(Some(&webhook.url), None);
    let ca = data("ca.pem").display().to_string();
    let (code, out, err) = crdgen(
        "https-file",
        &[
            "convert",
            "--to",
            "v1",
            "--ca-bundle",
            &ca,
            "--crd",
            "crd.json",
            "-o",
            "json",
            "objects.json",
        ],
        &[("crd.json", &crd), ("objects.json", OBJECTS)],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(lines(&out)[1]["host"], "example.com");
    // Without the CA, the certificate is not trusted.
    let (code, _, err) = crdgen(
        "https-untrusted",
        &["convert", "--to", "v1", "--crd", "crd.json", "objects.json"],
        &[("crd.json", &crd), ("objects.json", OBJECTS)],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("conversion webhook for example.com/v1beta1, Kind=CronTab failed: Post ")
            && err.contains("UnknownIssuer"),
        "{err}"
    );
}
