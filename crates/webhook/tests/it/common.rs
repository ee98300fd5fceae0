//! The page's CronTab conversions (`hostPort` in v1beta1, `host` and `port` in v1) as a plain
//! JSON converter, an HTTPS client trusting a generated CA, and the page's reviews.
#![allow(dead_code)]

use std::sync::Arc;

use crdkit_crd::conversion::{ConversionError, Conversions};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use serde_json::Value;

pub fn data(name: &str) -> Vec<u8> {
    // The page's reviews, transcribed once in crdkit-apiextensions' test data.
    let path = format!(
        "{}/../crd/tests/data/conversion/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn json_data(name: &str) -> Value {
    serde_json::from_slice(&data(name)).expect("test data is JSON")
}

/// The e2e webhook's `convertExampleCRD`, over `example.com`.
fn convert(mut obj: Value, to: &str) -> Result<Value, ConversionError> {
    let from = obj["apiVersion"].as_str().unwrap_or_default().to_owned();
    let m = obj
        .as_object_mut()
        .ok_or_else(|| ConversionError::failed("not an object"))?;
    match (from.as_str(), to) {
        ("example.com/v1beta1", "example.com/v1") => {
            if let Some(hp) = m.remove("hostPort") {
                let parts: Vec<&str> = hp.as_str().unwrap_or_default().split(':').collect();
                let [host, port] = parts[..] else {
                    return Err(ConversionError::failed(
                        "hostPort could not be parsed into a separate host and port",
                    ));
                };
                m.insert("host".into(), host.into());
                m.insert("port".into(), port.into());
            }
        }
        ("example.com/v1", "example.com/v1beta1") => {
            let (h, p) = (m.remove("host"), m.remove("port"));
            if h.is_some() || p.is_some() {
                let s = |v: Option<Value>| {
                    v.and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default()
                };
                m.insert("hostPort".into(), format!("{}:{}", s(h), s(p)).into());
            }
        }
        _ => return Err(ConversionError::UnknownVersion(to.to_owned())),
    }
    Ok(obj)
}

pub fn conversions() -> Conversions {
    Conversions::new().kind("example.com", "CronTab", convert)
}

/// A client that trusts only `ca_pem`.
pub fn client(ca_pem: &str) -> reqwest::Client {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(ca_pem.as_bytes()).expect("CA PEM"))
        .expect("CA accepted");
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_root_certificates(roots)
    .with_no_client_auth();
    reqwest::Client::builder()
        .tls_backend_preconfigured(config)
        .build()
        .expect("client")
}
