//! The HTTP handler: `POST` a `ConversionReview` as JSON, get one back.
//!
//! Mirrors the Kubernetes e2e conversion webhook's `serve`
//! (`test/images/agnhost/crd-conversion-webhook/converter/framework.go`), with one difference on
//! purpose: a body that is not a conversion review is answered `200` with a failed review naming
//! the problem (the e2e webhook answers `400` with plain text). The API server
//! (`webhook_converter.go`) reports a failed review's `result.message` to the user and only "the
//! server rejected our request" for any other answer. HTTP-level problems still get their status
//! (`405`, `413`, `415`), with a failed review as the body.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use crdkit_crd::conversion::{ConversionReview, Conversions, ReviewVersion};
use http::{HeaderValue, StatusCode, header};
use http_body_util::{BodyExt, Limited};

/// The largest request body accepted by default: 64 MiB. The API server sends a whole list in
/// one review (every object not yet at the desired version), each object up to etcd's 1.5 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 64 << 20;

/// Bodies larger than this are converted on tokio's blocking pool, so that a large list does
/// not hold up the other requests on a worker thread.
const BLOCKING_THRESHOLD: usize = 256 << 10;

/// A conversion webhook's HTTP side: [`Webhook::service`] to mount in a router of your own,
/// [`Webhook::router`] for a ready one, [`crate::Server`] for a ready HTTPS server.
#[derive(Clone, Debug)]
pub struct Webhook {
    conversions: Arc<Conversions>,
    body_limit: usize,
}

impl Webhook {
    /// A webhook answering with `conversions`.
    #[must_use]
    pub fn new(conversions: Conversions) -> Webhook {
        Webhook {
            conversions: Arc::new(conversions),
            body_limit: DEFAULT_BODY_LIMIT,
        }
    }

    /// Requests with a larger body get `413 Payload Too Large`.
    #[must_use]
    pub fn body_limit(mut self, bytes: usize) -> Webhook {
        self.body_limit = bytes;
        self
    }

    /// The conversions answered with.
    #[must_use]
    pub fn conversions(&self) -> &Conversions {
        &self.conversions
    }

    /// The handler, for any path: `POST` converts, other methods get `405`. It is a
    /// `tower::Service<http::Request<B>>`; in axum, `Router::new().route("/crdconvert",
    /// webhook.service())`.
    pub fn service(&self) -> MethodRouter {
        post(convert)
            .fallback(method_not_allowed)
            .with_state(self.clone())
    }

    /// A router with the handler at `path` (the CRD's `clientConfig.service.path` or the path
    /// of its `url`) and `GET /healthz` answering `ok` (for probes).
    ///
    /// # Panics
    /// When `path` does not start with `/` or is `/healthz` (axum's rule for routes).
    pub fn router(&self, path: &str) -> Router {
        Router::new()
            .route(path, self.service())
            .route("/healthz", get(|| async { "ok" }))
    }
}

/// A review as the body of a response with `status`.
fn review_response(status: StatusCode, review: &ConversionReview) -> Response {
    // Serializing the review's types cannot fail (string keys, no floats of our own).
    let body = serde_json::to_vec(review).unwrap_or_default();
    let mut resp = (status, body).into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}

fn failed(status: StatusCode, message: String) -> Response {
    review_response(
        status,
        &ConversionReview::failed(ReviewVersion::V1, "", message),
    )
}

/// `application/json`, with parameters (`; charset=utf-8`) or `+json` types; a request without a
/// `Content-Type` is read as JSON too (some clients send none).
fn is_json(content_type: Option<&HeaderValue>) -> bool {
    let Some(v) = content_type else {
        return true;
    };
    let Ok(v) = v.to_str() else {
        return false;
    };
    let essence = v
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

async fn convert(State(webhook): State<Webhook>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    if !is_json(parts.headers.get(header::CONTENT_TYPE)) {
        let got = parts
            .headers
            .get(header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .unwrap_or_default();
        return failed(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("invalid Content-Type header `{got}`: expected application/json"),
        );
    }
    let bytes = match Limited::new(body, webhook.body_limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return failed(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "request body is larger than the limit of {} bytes",
                    webhook.body_limit
                ),
            );
        }
        Err(e) => {
            return failed(
                StatusCode::BAD_REQUEST,
                format!("cannot read request body: {e}"),
            );
        }
    };
    let review = if bytes.len() > BLOCKING_THRESHOLD {
        let conversions = Arc::clone(&webhook.conversions);
        match tokio::task::spawn_blocking(move || conversions.review_json(&bytes)).await {
            Ok(review) => review,
            Err(e) => {
                return failed(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("conversion did not finish: {e}"),
                );
            }
        }
    } else {
        webhook.conversions.review_json(&bytes)
    };
    review_response(StatusCode::OK, &review)
}

async fn method_not_allowed(request: Request<Body>) -> Response {
    let mut resp = failed(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "method {} is not allowed: send a ConversionReview with POST",
            request.method()
        ),
    );
    resp.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    resp
}

#[cfg(test)]
mod tests {
    use super::is_json;
    use http::HeaderValue;

    #[test]
    fn json_content_types() {
        for (v, want) in [
            ("application/json", true),
            ("application/json; charset=utf-8", true),
            ("Application/JSON", true),
            ("application/merge-patch+json", true),
            ("application/yaml", false),
            ("application/x-www-form-urlencoded", false),
            ("text/plain", false),
            ("", false),
        ] {
            assert_eq!(is_json(Some(&HeaderValue::from_static(v))), want, "{v}");
        }
        assert!(is_json(None));
    }
}
