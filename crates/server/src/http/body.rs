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
        // A body of one frame (most are) is that frame, not a copy of it.
        let mut first: Option<Bytes> = None;
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
                    if total == data.len() && first.is_none() {
                        first = Some(data);
                    } else {
                        if let Some(first) = first.take() {
                            buf.extend_from_slice(&first);
                        }
                        buf.extend_from_slice(&data);
                    }
                } else if total > limit.saturating_add(DRAIN) {
                    break;
                }
            }
        }
        if total > limit {
            return Err(ApiError::too_large(&format!("limit is {limit}")));
        }
        Ok(first.unwrap_or_else(|| buf.freeze()))
    };
    // A body that came with its head is read without arming a timer.
    let mut read = std::pin::pin!(read);
    if let Some(read) = futures_util::FutureExt::now_or_never(&mut read) {
        return read;
    }
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
    let raw = raw(body, limits).await?;
    decode_as(headers, &raw, limits.max_bytes)
}

/// A body already read, decoded as its `Content-Type` says: JSON, YAML or protobuf.
///
/// # Errors
/// 415 for another `Content-Type`; 400 for a body that does not decode.
pub fn decode_as(headers: &HeaderMap, raw: &[u8], max_bytes: usize) -> ApiResult<Decoded> {
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    match negotiate::body_type(ct) {
        BodyType::Json => decode::json(raw),
        BodyType::Yaml => decode::yaml(raw, max_bytes),
        BodyType::Protobuf => crdkit_protobuf::decode(raw)
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

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use http_body::Frame;
    use http_body_util::{Full, StreamBody};

    use super::*;

    const LIMITS: Limits = Limits {
        max_bytes: 10,
        timeout: Duration::from_millis(50),
    };

    fn frames(
        parts: &[&'static str],
    ) -> StreamBody<impl futures_util::Stream<Item = Result<Frame<Bytes>, Infallible>> + Send> {
        let parts: Vec<_> = parts
            .iter()
            .map(|p| Ok(Frame::data(Bytes::from_static(p.as_bytes()))))
            .collect();
        StreamBody::new(futures_util::stream::iter(parts))
    }

    #[tokio::test]
    async fn bodies_are_read_whole_within_their_limits() {
        // One frame is handed on as it came.
        let one = Bytes::from_static(b"{\"a\":1}");
        let got = raw(Full::new(one.clone()), LIMITS).await.unwrap();
        assert_eq!(got.as_ptr(), one.as_ptr());
        // Frames are joined, empty ones included.
        for parts in [
            &["", "ab", "", "cd"][..],
            &["ab", "cd"],
            &["", "", "abcd"],
            &[],
        ] {
            assert_eq!(raw(frames(parts), LIMITS).await.unwrap(), parts.concat());
        }
        let e = raw(frames(&["abcdef", "ghijk"]), LIMITS).await.unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (413, "Request entity too large: limit is 10")
        );
        // A body that never ends is cut at the time limit.
        let pending = StreamBody::new(futures_util::stream::pending::<
            Result<Frame<Bytes>, Infallible>,
        >());
        let e = raw(pending, LIMITS).await.unwrap_err();
        assert_eq!(e.code, 504);
    }
}
