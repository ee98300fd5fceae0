//! The HTTPS server on 127.0.0.1 port 0: the page's reviews over TLS, trusting only the
//! generated CA; bad input answered; graceful shutdown.

use std::net::SocketAddr;

use crdkit_crd::conversion::ConversionReview;
use crdkit_crd::conversion::client::converted_objects;
use crdkit_webhook::{Server, ServerError, Tls, Webhook};
use serde_json::Value;

use crate::common::{client, conversions, data, json_data};

async fn start() -> crdkit_webhook::RunningServer {
    Server::new(Webhook::new(conversions()))
        .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .path("/crdconvert")
        .start()
        .await
        .expect("server starts")
}

#[tokio::test]
async fn the_pages_reviews_over_https() {
    let server = start().await;
    assert!(
        server.url().starts_with("https://127.0.0.1:"),
        "{}",
        server.url()
    );
    assert!(server.url().ends_with("/crdconvert"));
    let client = client(server.ca_pem().expect("generated CA"));
    for version in ["v1", "v1beta1"] {
        let resp = client
            .post(server.url())
            .header("content-type", "application/json")
            .body(data(&format!("request-{version}.json")))
            .send()
            .await
            .expect("request over TLS");
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.headers()["content-type"], "application/json");
        let got: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
        assert_eq!(
            got,
            json_data(&format!("response-{version}.json")),
            "{version}"
        );
        // And the API server would take the answer.
        let sent: ConversionReview =
            serde_json::from_slice(&data(&format!("request-{version}.json"))).unwrap();
        let request = sent.request.clone().unwrap();
        let objects = converted_objects(
            sent.version().unwrap(),
            &request.uid,
            &request.objects,
            &request.desired_api_version,
            &serde_json::from_value(got.clone()).unwrap(),
        )
        .expect("an answer the API server accepts");
        assert_eq!(Value::from(objects), got["response"]["convertedObjects"]);
    }
    // The failure example.
    let mut req = json_data("request-v1.json");
    req["request"]["objects"][0]["hostPort"] = "localhost".into();
    let resp = client
        .post(server.url())
        .body(req.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let got: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(got, json_data("response-failed-v1.json"));

    let health = client
        .get(format!("https://{}/healthz", server.local_addr()))
        .send()
        .await
        .unwrap();
    assert_eq!(health.text().await.unwrap(), "ok");
    server.shutdown().await;
}

#[tokio::test]
async fn bad_requests_get_a_failed_review_and_the_connection_stays_usable() {
    let server = start().await;
    let client = client(server.ca_pem().unwrap());
    type Case = (
        &'static str,
        Option<&'static str>,
        Vec<u8>,
        u16,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            "post",
            Some("application/json"),
            b"{not json".to_vec(),
            200,
            "request body is not JSON: key must be a string at line 1 column 2",
        ),
        (
            "post",
            None,
            b"[]".to_vec(),
            200,
            "expected a ConversionReview of apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1, got kind \"\" of apiVersion \"\"",
        ),
        (
            "post",
            Some("application/yaml"),
            b"kind: ConversionReview".to_vec(),
            415,
            "invalid Content-Type header `application/yaml`: expected application/json",
        ),
        (
            "put",
            Some("application/json"),
            b"{}".to_vec(),
            405,
            "method PUT is not allowed: send a ConversionReview with POST",
        ),
        (
            "get",
            None,
            Vec::new(),
            405,
            "method GET is not allowed: send a ConversionReview with POST",
        ),
    ];
    for (method, content_type, body, status, message) in cases {
        let mut req = match method {
            "post" => client.post(server.url()),
            "put" => client.put(server.url()),
            _ => client.get(server.url()),
        };
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let resp = req
            .body(body)
            .send()
            .await
            .expect("an answer, not a dropped connection");
        assert_eq!(resp.status().as_u16(), status, "{message}");
        let got: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
        assert_eq!(got["kind"], "ConversionReview");
        assert_eq!(got["response"]["result"]["status"], "Failed");
        assert_eq!(got["response"]["result"]["message"], message);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_body_over_the_limit_gets_413() {
    let server = Server::new(Webhook::new(conversions()).body_limit(1024))
        .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .start()
        .await
        .unwrap();
    assert!(server.url().ends_with("/convert"));
    let client = client(server.ca_pem().unwrap());
    let resp = client
        .post(server.url())
        .body(vec![b' '; 4096])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 413);
    let got: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(
        got["response"]["result"]["message"],
        "request body is larger than the limit of 1024 bytes"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn after_shutdown_nothing_listens() {
    let server = start().await;
    let (url, ca) = (server.url(), server.ca_pem().unwrap().to_owned());
    let client = client(&ca);
    server.shutdown().await;
    assert!(client.post(&url).body("{}").send().await.is_err());
}

#[tokio::test]
async fn a_client_not_trusting_the_ca_is_refused() {
    let server = start().await;
    let other = Server::new(Webhook::new(conversions()))
        .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .start()
        .await
        .unwrap();
    // A client trusting another server's CA: the handshake fails.
    let client = client(other.ca_pem().unwrap());
    let err = client
        .post(server.url())
        .body("{}")
        .send()
        .await
        .unwrap_err();
    assert!(err.is_connect(), "{err:?}");
    server.shutdown().await;
    other.shutdown().await;
}

#[tokio::test]
async fn a_given_certificate_is_served_and_bad_settings_are_errors() {
    let (ca, chain, key) = made_elsewhere();
    let server = Server::new(Webhook::new(conversions()))
        .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .tls(Tls::Pem {
            cert_chain: chain.into_bytes(),
            key: key.into_bytes(),
        })
        .start()
        .await
        .unwrap();
    assert!(server.ca_pem().is_none() && server.ca_bundle().is_none());
    let resp = client(&ca)
        .post(server.url())
        .body(data("request-v1.json"))
        .send()
        .await
        .unwrap();
    let got: Value = serde_json::from_slice(&resp.bytes().await.unwrap()).unwrap();
    assert_eq!(got, json_data("response-v1.json"));
    server.shutdown().await;

    let bad_path = Server::new(Webhook::new(conversions()))
        .path("convert")
        .start()
        .await;
    assert!(matches!(bad_path, Err(ServerError::Path(p)) if p == "convert"));
    let bad_pem = Server::new(Webhook::new(conversions()))
        .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .tls(Tls::Pem {
            cert_chain: b"x".to_vec(),
            key: b"y".to_vec(),
        })
        .start()
        .await;
    assert!(matches!(bad_pem, Err(ServerError::Certificate(_))));
    // The port of a running server cannot be bound twice.
    let first = start().await;
    let again = Server::new(Webhook::new(conversions()))
        .bind(first.local_addr())
        .start()
        .await;
    assert!(matches!(again, Err(ServerError::Bind(..))), "{again:?}");
    first.shutdown().await;
}

/// A CA, and a certificate for 127.0.0.1 it signed, made elsewhere (as cert-manager would):
/// the CA's PEM, the chain's PEM (leaf, then CA) and the leaf's key.
fn made_elsewhere() -> (String, String, String) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    (
        ca_cert.pem(),
        format!("{}{}", leaf.pem(), ca_cert.pem()),
        key.serialize_pem(),
    )
}
