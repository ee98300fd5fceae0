//! The example webhook binary, started on 127.0.0.1 port 0: the page's ConversionReview
//! requests over HTTPS, trusting the CA bundle it prints, get the page's responses.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine as _;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use serde_json::Value;

fn data(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../crates/crd/tests/data/conversion/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json_data(name: &str) -> Value {
    serde_json::from_slice(&data(name)).unwrap()
}

/// Kills the child when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the binary; returns it with its URL and the CA's PEM.
fn start() -> (Running, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crontab-conversion-webhook"))
        .args(["--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the example binary starts");
    let stdout = child.stdout.take().unwrap();
    let running = Running(child);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // A bound on the wait, so that a broken binary fails the test instead of hanging it.
    let line = || {
        rx.recv_timeout(Duration::from_secs(60))
            .expect("a line of output")
    };
    let url = line()
        .strip_prefix("serving ")
        .expect("serving <url>")
        .to_owned();
    let bundle = line()
        .strip_prefix("caBundle: ")
        .expect("caBundle: <base64>")
        .to_owned();
    let pem = base64::engine::general_purpose::STANDARD
        .decode(bundle)
        .unwrap();
    let stanza: Vec<String> = (0..6).map(|_| line()).collect();
    assert_eq!(stanza[0], "conversion:");
    assert_eq!(stanza[5], format!("      url: \"{url}\""));
    (running, url, String::from_utf8(pem).unwrap())
}

fn client(ca_pem: &str) -> reqwest::Client {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(ca_pem.as_bytes()).unwrap())
        .unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    reqwest::Client::builder()
        .tls_backend_preconfigured(config)
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_pages_reviews_get_the_pages_responses() {
    let (_running, url, ca) = start();
    assert!(
        url.starts_with("https://127.0.0.1:") && url.ends_with("/crdconvert"),
        "{url}"
    );
    let client = client(&ca);
    let post = |body: Vec<u8>| {
        client
            .post(&url)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    for version in ["v1", "v1beta1"] {
        let resp = post(data(&format!("request-{version}.json")))
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        let got: Value = resp.json().await.unwrap();
        assert_eq!(
            got,
            json_data(&format!("response-{version}.json")),
            "{version}"
        );
    }
    let mut req = json_data("request-v1.json");
    req["request"]["objects"][1]["hostPort"] = "example.com:2345:1".into();
    let got: Value = post(req.to_string().into_bytes())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(got, json_data("response-failed-v1.json"));

    // v1 back to v1beta1: the page's response objects, converted back, are its request objects.
    let mut back = json_data("request-v1.json");
    back["request"]["desiredAPIVersion"] = "example.com/v1beta1".into();
    back["request"]["objects"] =
        json_data("response-v1.json")["response"]["convertedObjects"].clone();
    let got: Value = post(back.to_string().into_bytes())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        got["response"]["convertedObjects"],
        json_data("request-v1.json")["request"]["objects"]
    );

    // Bad input: a failed review, and the server still answers afterwards.
    for (body, message) in [
        (
            b"{\"apiVersion\": ".to_vec(),
            "request body is not JSON: EOF while parsing a value at line 1 column 15",
        ),
        (
            String::from_utf8(data("request-v1.json"))
                .unwrap()
                .replace("\"example.com/v1\"", "\"example.com/v2\"")
                .into_bytes(),
            "unexpected conversion version \"example.com/v2\"",
        ),
        (
            String::from_utf8(data("request-v1.json"))
                .unwrap()
                .replacen("\"CronTab\"", "\"Shirt\"", 1)
                .into_bytes(),
            "unexpected kind \"Shirt\" of example.com/v1beta1: this webhook converts no such kind",
        ),
    ] {
        let got: Value = post(body).await.unwrap().json().await.unwrap();
        assert_eq!(got["response"]["result"]["status"], "Failed");
        assert_eq!(got["response"]["result"]["message"], message);
    }
    let again: Value = post(data("request-v1.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(again, json_data("response-v1.json"));
}

/// A reader that goes away before the banner is printed (stdout closed) does not stop the
/// server: the binary keeps serving instead of panicking on the closed pipe.
#[test]
fn a_closed_stdout_does_not_stop_the_server() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crontab-conversion-webhook"))
        .args(["--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example binary starts");
    drop(child.stdout.take());
    let mut stderr = child.stderr.take().unwrap();
    let mut running = Running(child);
    // The banner is written within milliseconds of the start; a panic on it ends the process.
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(100));
        let status = running.0.try_wait().expect("a status");
        assert!(status.is_none(), "the binary exited: {status:?}");
    }
    drop(running);
    let mut stderr_text = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut stderr_text).unwrap();
    let stderr = stderr_text;
    assert!(!stderr.contains("panicked"), "{stderr}");
}
