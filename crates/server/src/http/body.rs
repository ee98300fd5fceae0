//! Reading a request body: within the size limit and the time limit, then decoded as its
//! `Content-Type` says.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/rest.go` `limitedReadBody` (a body over the limit
//! is a 413 `limit is N`) and the request timeout of `pkg/endpoints/filters/timeout.go` as the
//! client sees it (504 `context deadline exceeded`).

use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, header};
use http_body_util::BodyExt;

use super::decode::{self, Decoded};
use super::negotiate::{self, BodyType};
use super::status::{ApiError, ApiResult};

/// How much and how long a request body may take.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest body.
    pub max_bytes: usize,
    /// How long it may take to arrive.
    pub timeout: Duration,
}

/// The raw body.
///
/// # Errors
/// 413 over the size limit, 504 past the time limit, 400 when the body fails.
pub async fn raw<B>(body: B, limits: Limits) -> ApiResult<Bytes>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    /// How much of a body over the limit is still read (and dropped) so that the client, still
    /// sending, receives the 413 instead of a reset connection (Go's server does the same).
    const DRAIN: usize = 16 * 1024 * 1024;
    let limit = limits.max_bytes;
    let read = async {
        let mut body = std::pin::pin!(body);
        let mut buf = bytes::BytesMut::new();
        let mut total = 0usize;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| {
                let e: Box<dyn std::error::Error + Send + Sync> = e.into();
                ApiError::bad_request(format!("error reading the request body: {e}"))
            })?;
            if let Ok(data) = frame.into_data() {
                total = total.saturating_add(data.len());
                if total <= limit {
                    buf.extend_from_slice(&data);
                } else if total > limit.saturating_add(DRAIN) {
                    break;
                }
            }
        }
        if total > limit {
            return Err(ApiError::too_large(&format!("limit is {limit}")));
        }
        Ok(buf.freeze())
    };
    tokio::time::timeout(limits.timeout, read)
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::timeout(
                "request did not complete within requested timeout - context deadline exceeded",
            ))
        })
}

/// The body of a create or update: JSON, YAML or protobuf.
///
/// # Errors
/// As [`raw`]; 415 for another `Content-Type`; 400 for a body that does not decode.
pub async fn decoded<B>(headers: &HeaderMap, body: B, limits: Limits) -> ApiResult<Decoded>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let ty = negotiate::body_type(ct);
    let raw = raw(body, limits).await?;
    match ty {
        BodyType::Json => decode::json(&raw),
        BodyType::Yaml => decode::yaml(&raw, limits.max_bytes),
        BodyType::Protobuf => crdkit_protobuf::decode(&raw)
            .map(|value| Decoded {
                value,
                duplicates: Vec::new(),
            })
            .map_err(|e| ApiError::bad_request(e.to_string())),
        _ => Err(ApiError::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ])),
    }
}
