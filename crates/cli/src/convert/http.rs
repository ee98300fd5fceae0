//! The HTTP side of a conversion webhook call (feature `webhook`): a blocking POST over HTTPS
//! (rustls; the CA bundle given, else the Mozilla roots), as the API server's REST client makes
//! it: `Content-Type: application/json`, the answer expected with status 200, within 30 seconds.

use std::time::Duration;

use serde_json::Value;
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

/// The API server's default timeout for a webhook call.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Posts `body` to `url` and returns the JSON answer; `ca_pem`: the PEM certificates to trust
/// instead of the usual roots.
///
/// # Errors
/// A message for a bad CA bundle, a failed request, a status other than 200 (with the body's
/// start), or an answer that is not JSON.
pub fn post(url: &str, ca_pem: Option<&[u8]>, body: &Value) -> Result<Value, String> {
    let mut config = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false);
    if let Some(pem) = ca_pem {
        let certs: Vec<Certificate<'static>> = ureq::tls::parse_pem(pem)
            .filter_map(|item| match item {
                Ok(PemItem::Certificate(c)) => Some(c),
                _ => None,
            })
            .collect();
        if certs.is_empty() {
            return Err("the CA bundle holds no certificate".to_owned());
        }
        config = config.tls_config(
            TlsConfig::builder()
                .root_certs(RootCerts::new_with_certs(&certs))
                .build(),
        );
    }
    let agent: ureq::Agent = config.build().into();
    let mut response = agent
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .send(body.to_string())
        .map_err(|e| format!("Post {url:?}: {e}"))?;
    let status = response.status();
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("Post {url:?}: reading the answer: {e}"))?;
    if status != 200 {
        let start: String = text.chars().take(200).collect();
        return Err(format!(
            "the server responded with status {status}: {start}"
        ));
    }
    serde_json::from_str(&text).map_err(|e| format!("the answer is not JSON: {e}"))
}
