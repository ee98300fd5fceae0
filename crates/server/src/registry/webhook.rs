//! A CRD's conversion webhook: a `ConversionReview` posted to the user's converter.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/conversion/webhook_converter.go`: the
//! review version is the first of `conversionReviewVersions` the server speaks (`v1`,
//! `v1beta1`), the request carries a new uid, the desired `apiVersion` and the objects; the
//! response must echo the uid, report `Success`, and return as many objects, each of the desired
//! `apiVersion`, with the same name, namespace, uid and kind. Failures are 500s naming the
//! webhook (`conversion webhook for <gvk> failed: …`).
//!
//! What differs: only `clientConfig.url` is reachable (a Service reference names a cluster
//! Service, which a local server does not have); `caBundle`, when given, is the only root
//! trusted for HTTPS.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};

use crate::engine::CustomResourceDefinition;
use crate::http::status::{ApiError, ApiResult};

/// The webhook's timeout (the API server's default for conversion webhooks).
const TIMEOUT: Duration = Duration::from_secs(30);

/// A CRD's conversion webhook.
pub struct Webhook {
    uri: http::Uri,
    tls: Option<Arc<rustls::ClientConfig>>,
    review_version: &'static str,
    gvk: String,
}

impl Webhook {
    /// The webhook of a CRD with `spec.conversion.strategy: Webhook`; `None` for `None`.
    ///
    /// # Errors
    /// A configuration the server cannot call (a Service reference, a bad URL or CA bundle).
    pub fn of(crd: &CustomResourceDefinition) -> Option<Result<Webhook, String>> {
        let conv = crd.spec.conversion.as_ref()?;
        if conv.strategy != "Webhook" {
            return None;
        }
        Some(Self::build(crd))
    }

    fn build(crd: &CustomResourceDefinition) -> Result<Webhook, String> {
        let gvk = format!("{}, Kind={}", crd.spec.group, crd.spec.names.kind);
        let webhook = crd
            .spec
            .conversion
            .as_ref()
            .and_then(|c| c.webhook.as_ref())
            .ok_or("spec.conversion.webhook is missing")?;
        let review_version = webhook
            .conversion_review_versions
            .iter()
            .find_map(|v| match v.as_str() {
                "v1" => Some("v1"),
                "v1beta1" => Some("v1beta1"),
                _ => None,
            })
            .ok_or("no conversionReviewVersions the server speaks (v1, v1beta1)")?;
        let config = webhook
            .client_config
            .as_ref()
            .ok_or("clientConfig is missing")?;
        let url = config.url.as_deref().ok_or(
            "clientConfig.service names a cluster Service, which a local server cannot reach; use clientConfig.url",
        )?;
        let uri: http::Uri = url
            .parse()
            .map_err(|e| format!("clientConfig.url {url}: {e}"))?;
        let tls = match uri.scheme_str() {
            Some("https") => {
                let mut roots = rustls::RootCertStore::empty();
                if let Some(b64) = &config.ca_bundle {
                    // A `[]byte` field: Go's JSON decoder reads it as `base64.StdEncoding`.
                    let pem = crdkit_apimachinery::gobase64::decode(b64)
                        .ok()
                        .ok_or("caBundle is not base64")?;
                    for cert in CertificateDer::pem_slice_iter(&pem) {
                        roots
                            .add(cert.map_err(|e| format!("caBundle: {e}"))?)
                            .map_err(|e| format!("caBundle: {e}"))?;
                    }
                }
                let provider = Arc::new(rustls::crypto::ring::default_provider());
                let config = rustls::ClientConfig::builder_with_provider(provider)
                    .with_safe_default_protocol_versions()
                    .map_err(|e| e.to_string())?
                    .with_root_certificates(roots)
                    .with_no_client_auth();
                Some(Arc::new(config))
            }
            Some("http") => None,
            other => {
                return Err(format!(
                    "clientConfig.url scheme {other:?} is not http or https"
                ));
            }
        };
        Ok(Webhook {
            uri,
            tls,
            review_version,
            gvk,
        })
    }

    fn failed(&self, why: impl std::fmt::Display) -> ApiError {
        ApiError::internal(format!("conversion webhook for {} failed: {why}", self.gvk))
    }

    /// Converts `obj` to `desired` (`group/version`).
    ///
    /// # Errors
    /// 500 when the webhook cannot be reached or answers badly.
    pub async fn convert(&self, obj: Value, desired: &str) -> ApiResult<Value> {
        let uid = uuid::Uuid::new_v4().to_string();
        let review = json!({
            "apiVersion": format!("apiextensions.k8s.io/{}", self.review_version),
            "kind": "ConversionReview",
            "request": {"uid": uid, "desiredAPIVersion": desired, "objects": [obj]},
        });
        let body = tokio::time::timeout(TIMEOUT, self.post(&review))
            .await
            .map_err(|_| self.failed("the webhook did not answer within 30s"))??;
        // The answer's object sits three levels down (`response.convertedObjects[0]`); it is
        // held to the depth of any object a request produces.
        crate::deep::scan(&body, crate::deep::MAX_DEPTH + 3)
            .map_err(|e| self.failed(format!("the response is not JSON: {e}")))?;
        let mut de = serde_json::Deserializer::from_slice(&body);
        de.disable_recursion_limit();
        let resp = serde::Deserialize::deserialize(&mut de)
            .and_then(|v: Value| de.end().map(|()| v))
            .map_err(|e| self.failed(format!("the response is not JSON: {e}")))?;
        let r = resp
            .get("response")
            .ok_or_else(|| self.failed("no response in the ConversionReview"))?;
        if r.get("uid").and_then(Value::as_str) != Some(&uid) {
            return Err(self.failed(format!(
                "expected response uid {uid}, got {}",
                r.get("uid").and_then(Value::as_str).unwrap_or("")
            )));
        }
        let result = r.get("result").cloned().unwrap_or(Value::Null);
        if result.get("status").and_then(Value::as_str) != Some("Success") {
            return Err(self.failed(format!(
                "conversion request failed: {}",
                result.get("message").and_then(Value::as_str).unwrap_or("")
            )));
        }
        let mut converted = r
            .get("convertedObjects")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if converted.len() != 1 {
            return Err(self.failed(format!(
                "expected 1 converted objects, got {}",
                converted.len()
            )));
        }
        let out = converted.remove(0);
        crate::deep::check(&out, crate::deep::MAX_DEPTH)
            .map_err(|e| self.failed(format!("invalid converted object: {e}")))?;
        let obj = review["request"]["objects"][0].clone();
        if out.get("apiVersion").and_then(Value::as_str) != Some(desired) {
            return Err(self.failed(format!(
                "invalid converted object: expected apiVersion {desired}"
            )));
        }
        for k in ["name", "namespace", "uid"] {
            if crate::object::meta_str(&out, k) != crate::object::meta_str(&obj, k) {
                return Err(self.failed(format!(
                    "invalid converted object: must not change metadata.{k}"
                )));
            }
        }
        if out.get("kind") != obj.get("kind") {
            return Err(self.failed("invalid converted object: must not change kind"));
        }
        Ok(out)
    }

    async fn post(&self, review: &Value) -> ApiResult<Bytes> {
        let host = self.uri.host().unwrap_or("localhost").to_owned();
        let port = self
            .uri
            .port_u16()
            .unwrap_or(if self.tls.is_some() { 443 } else { 80 });
        let tcp = tokio::net::TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| self.failed(format!("Post \"{}\": {e}", self.uri)))?;
        let path = self
            .uri
            .path_and_query()
            .map_or("/", http::uri::PathAndQuery::as_str)
            .to_owned();
        let req = http::Request::builder()
            .method("POST")
            .uri(path)
            .header("host", host.clone())
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body(Full::new(Bytes::from(review.to_string())))
            .map_err(|e| self.failed(e))?;
        let resp = match &self.tls {
            None => send(TokioIo::new(tcp), req).await,
            Some(config) => {
                let name = ServerName::try_from(host.clone()).map_err(|e| self.failed(e))?;
                let tls = tokio_rustls::TlsConnector::from(Arc::clone(config))
                    .connect(name, tcp)
                    .await
                    .map_err(|e| self.failed(format!("Post \"{}\": {e}", self.uri)))?;
                send(TokioIo::new(tls), req).await
            }
        }
        .map_err(|e| self.failed(format!("Post \"{}\": {e}", self.uri)))?;
        if !resp.0.is_success() {
            return Err(self.failed(format!("the webhook answered {}", resp.0)));
        }
        Ok(resp.1)
    }
}

async fn send<I>(
    io: I,
    req: http::Request<Full<Bytes>>,
) -> Result<(http::StatusCode, Bytes), String>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
    let status = resp.status();
    let body = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, body))
}
