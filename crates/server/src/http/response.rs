//! Responses: JSON or YAML bodies, `Status` errors, `Warning` headers, and streamed watch bodies.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/responsewriters` (`WriteObjectNegotiated`,
//! `ErrorNegotiated`) and `pkg/warning` (`Warning: 299 - "<text>"`).

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body::Frame;
use serde_json::Value;
use tokio::sync::mpsc;

use super::negotiate::Encoding;
use super::status::ApiError;

/// A response body: whole, streamed from a channel (watch), or written from parts (a list's
/// items, each an object's kept encoding).
pub enum Body {
    /// The whole body (taken once).
    Full(Option<Bytes>),
    /// Chunks until the sender is dropped.
    Stream(mpsc::Receiver<Bytes>),
    /// Parts joined into chunks as they are written.
    Items(Items),
}

/// A JSON array inside a document: `head`, the items separated by commas, `tail`; copied into
/// chunks of about [`Items::CHUNK`] bytes as the connection takes them, so the whole document
/// never exists at once.
pub struct Items {
    head: Option<Bytes>,
    items: std::vec::IntoIter<Bytes>,
    tail: Option<Bytes>,
    first: bool,
    left: u64,
}

impl Items {
    /// The size of the chunks written.
    pub const CHUNK: usize = 64 * 1024;

    fn next_chunk(&mut self) -> Option<Bytes> {
        if let Some(head) = self.head.take() {
            self.left -= head.len() as u64;
            return Some(head);
        }
        let mut chunk = bytes::BytesMut::new();
        while chunk.len() < Self::CHUNK {
            let Some(item) = self.items.next() else {
                break;
            };
            if !std::mem::take(&mut self.first) {
                chunk.extend_from_slice(b",");
            }
            chunk.extend_from_slice(&item);
        }
        if chunk.is_empty() {
            chunk.extend_from_slice(&self.tail.take()?);
        }
        self.left -= chunk.len() as u64;
        Some(chunk.freeze())
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match &mut *self {
            Body::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Body::Stream(rx) => rx.poll_recv(cx).map(|c| c.map(|b| Ok(Frame::data(b)))),
            Body::Items(items) => Poll::Ready(items.next_chunk().map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Full(b) => b.is_none(),
            Body::Items(items) => items.left == 0,
            Body::Stream(_) => false,
        }
    }

    fn size_hint(&self) -> http_body::SizeHint {
        match self {
            Body::Full(Some(b)) => http_body::SizeHint::with_exact(b.len() as u64),
            Body::Full(None) => http_body::SizeHint::with_exact(0),
            Body::Items(items) => http_body::SizeHint::with_exact(items.left),
            Body::Stream(_) => http_body::SizeHint::default(),
        }
    }
}

/// The response type of every handler.
pub type Resp = Response<Body>;

/// `Content-Type` values.
pub mod content_type {
    /// JSON.
    pub const JSON: &str = "application/json";
    /// YAML.
    pub const YAML: &str = "application/yaml";
    /// Aggregated discovery v2.
    pub const DISCOVERY_V2: &str =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    /// Aggregated discovery v2beta1.
    pub const DISCOVERY_V2BETA1: &str =
        "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
}

/// A response with `body` as `content_type`.
#[must_use]
pub fn bytes(status: u16, content_type: &'static str, body: Bytes) -> Resp {
    // A constant: shared, not copied into the header.
    full(status, Some(HeaderValue::from_static(content_type)), body)
}

/// A status alone (Go's `w.WriteHeader` with nothing written): no body, no `Content-Type`.
#[must_use]
pub fn empty(status: u16) -> Resp {
    full(status, None, Bytes::new())
}

fn full(status: u16, content_type: Option<HeaderValue>, body: Bytes) -> Resp {
    let mut r = Response::new(Body::Full(Some(body)));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Some(v) = content_type {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    r
}

/// A JSON document around an array of already encoded items (see [`Items`]).
#[must_use]
pub fn items(
    status: u16,
    content_type: &'static str,
    head: Bytes,
    items: Vec<Bytes>,
    tail: Bytes,
) -> Resp {
    let commas = items.len().saturating_sub(1);
    let left =
        (head.len() + tail.len() + commas + items.iter().map(Bytes::len).sum::<usize>()) as u64;
    let body = Items {
        head: Some(head),
        items: items.into_iter(),
        tail: Some(tail),
        first: true,
        left,
    };
    let mut r = Response::new(Body::Items(body));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// A value encoded as JSON, YAML or protobuf (JSON when it has no protobuf form).
#[must_use]
pub fn value(status: u16, v: &Value, encoding: Encoding) -> Resp {
    match encoding {
        Encoding::Protobuf => match crdkit_protobuf::encode(v) {
            Ok(b) => bytes(status, crdkit_protobuf::CONTENT_TYPE, Bytes::from(b)),
            Err(_) => value(status, v, Encoding::Json),
        },
        Encoding::Json => bytes(
            status,
            content_type::JSON,
            Bytes::from(serde_json::to_vec(v).unwrap_or_default()),
        ),
        Encoding::Yaml => bytes(status, content_type::YAML, Bytes::from(yaml_text(v))),
    }
}

/// Nesting past which a YAML answer is written in flow style (its JSON, which is YAML).
const YAML_BLOCK_DEPTH: usize = 100;

/// The YAML of a value: block style as sigs.k8s.io/yaml writes it, except for a value nested
/// deeper than [`YAML_BLOCK_DEPTH`], whose block indentation would grow with the square of its
/// depth (300 MB for an object at the depth limit); no manifest is that deep.
fn yaml_text(v: &Value) -> Vec<u8> {
    if crate::deep::check(v, YAML_BLOCK_DEPTH).is_ok() {
        crate::engine::to_yaml(v).into_bytes()
    } else {
        serde_json::to_vec(v).unwrap_or_default()
    }
}

/// A value as JSON with a specific content type (Table, discovery).
#[must_use]
pub fn json_as(status: u16, v: &Value, content_type: &str) -> Resp {
    full(
        status,
        HeaderValue::from_str(content_type).ok(),
        Bytes::from(serde_json::to_vec(v).unwrap_or_default()),
    )
}

/// The `Status` of an error, with `Retry-After` when its details ask for one
/// (`responsewriters.ErrorNegotiated`).
#[must_use]
pub fn error(e: &ApiError, encoding: Encoding) -> Resp {
    let mut r = value(e.code, &e.to_status(), encoding);
    if let Some(d) = e.details.as_ref().filter(|d| d.retry_after_seconds > 0) {
        r.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from(d.retry_after_seconds),
        );
    }
    r
}

/// Adds `Warning: 299 - "<text>"` headers, as the API server's warning recorder adds them
/// ([`warning_headers`]).
pub fn add_warnings(r: &mut Resp, warnings: &[String]) {
    for w in warning_headers(warnings) {
        if let Ok(v) = HeaderValue::from_bytes(w.as_bytes()) {
            r.headers_mut().append(header::WARNING, v);
        }
    }
}

/// Past this many characters of warnings in all, each warning is cut to
/// [`TRUNCATE_ITEM_RUNES`] (`filters/warning.go` `truncateAtTotalRunes`).
const TRUNCATE_AT_TOTAL_RUNES: usize = 4 * 1024;
/// `truncateItemRunes`.
const TRUNCATE_ITEM_RUNES: usize = 256;

/// The `Warning` header values of `warnings`, as apiserver `filters/warning.go` `recorder`
/// writes them: empty and repeated texts skipped; a text with a control character dropped
/// (`NewWarningHeader` refuses it); once the texts pass 4,096 characters in all, every one
/// written again cut to 256 characters, and those after it too until 4,096 are written again.
#[must_use]
pub fn warning_headers(warnings: &[String]) -> Vec<String> {
    let cut = |t: &str| -> (String, usize) {
        let n = t.chars().count();
        if n > TRUNCATE_ITEM_RUNES {
            (
                t.chars().take(TRUNCATE_ITEM_RUNES).collect(),
                TRUNCATE_ITEM_RUNES,
            )
        } else {
            (t.to_owned(), n)
        }
    };
    let mut out = Vec::new();
    let mut ordered: Vec<&str> = Vec::new();
    let (mut written, mut truncating) = (0, false);
    for text in warnings.iter().map(String::as_str) {
        if text.is_empty() || ordered.contains(&text) {
            continue;
        }
        if truncating && written >= TRUNCATE_AT_TOTAL_RUNES {
            break;
        }
        ordered.push(text);
        let (t, n) = if truncating {
            cut(text)
        } else {
            (text.to_owned(), text.chars().count())
        };
        let Some(h) = warning_header(&t) else {
            continue;
        };
        if written + n <= TRUNCATE_AT_TOTAL_RUNES || truncating {
            written += n;
            out.push(h);
            continue;
        }
        truncating = true;
        written = 0;
        out.clear();
        for w in &ordered {
            let (t, n) = cut(w);
            if let Some(h) = warning_header(&t) {
                written += n;
                out.push(h);
            }
        }
    }
    out
}

/// `NewWarningHeader(299, "-", text)`: the text quoted with `"` and `\` escaped and the rest
/// as it is (UTF-8 included); `None` for a text with a control character.
#[must_use]
pub fn warning_header(text: &str) -> Option<String> {
    if text.chars().any(char::is_control) {
        return None;
    }
    let mut s = String::from("299 - \"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    Some(s)
}

/// A streamed response (watch) and the sender that feeds it.
#[must_use]
pub fn stream(content_type: &str, capacity: usize) -> (Resp, mpsc::Sender<Bytes>) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let mut r = Response::new(Body::Stream(rx));
    if let Ok(v) = HeaderValue::from_str(content_type) {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    (r, tx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_yaml_is_written_in_flow_style() {
        let mut v = serde_json::json!(1);
        for _ in 0..YAML_BLOCK_DEPTH + 1 {
            v = serde_json::json!({"x": v});
        }
        let text = String::from_utf8(yaml_text(&v)).unwrap();
        assert!(text.starts_with("{\"x\":{\"x\":"), "{text}");
        assert_eq!(
            String::from_utf8(yaml_text(&serde_json::json!({"a": {"b": 1}}))).unwrap(),
            "a:\n  b: 1\n"
        );
    }

    #[test]
    fn items_are_joined_in_chunks() {
        use http_body_util::BodyExt;
        let parts: Vec<Bytes> = (0..3000)
            .map(|i| Bytes::from(format!("{{\"i\":{i}}}")))
            .collect();
        let want = format!(
            "{{\"items\":[{}]}}",
            (0..3000)
                .map(|i| format!("{{\"i\":{i}}}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let r = items(
            200,
            "application/json",
            "{\"items\":[".into(),
            parts,
            "]}".into(),
        );
        assert_eq!(
            http_body::Body::size_hint(r.body()).exact(),
            Some(want.len() as u64)
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let got = rt.block_on(r.into_body().collect()).unwrap().to_bytes();
        assert_eq!(std::str::from_utf8(&got).unwrap(), want);
        let empty = items(200, "application/json", "[".into(), Vec::new(), "]".into());
        let got = rt.block_on(empty.into_body().collect()).unwrap().to_bytes();
        assert_eq!(&got[..], b"[]");
    }

    #[test]
    fn warning_headers_escape_quotes() {
        assert_eq!(
            warning_header("unknown field \"spec.someRandomField\"").unwrap(),
            "299 - \"unknown field \\\"spec.someRandomField\\\"\""
        );
        assert_eq!(
            warning_header("a\u{FFFD}b").unwrap(),
            "299 - \"a\u{FFFD}b\""
        );
        assert_eq!(warning_header("a\nb"), None);
    }

    /// `filters/warning.go`'s recorder: duplicates once, control characters dropped, and past
    /// 4,096 characters every warning cut to 256.
    #[test]
    fn warnings_are_recorded_as_the_api_server_records_them() {
        let w =
            |v: &[&str]| warning_headers(&v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            w(&["a", "", "a", "b\u{7}", "c"]),
            ["299 - \"a\"", "299 - \"c\""]
        );
        let long = "x".repeat(3000);
        let short = w(&[&long, "y"]);
        assert_eq!(short.len(), 2);
        assert_eq!(short[0].len(), 3000 + 8);
        // The third tips the total past 4,096: all three cut to 256, then more while the
        // total stays under 4,096, then none.
        let many: Vec<String> = (0..20)
            .map(|i| format!("{i}{}", "z".repeat(2000)))
            .collect();
        let got = warning_headers(&many);
        assert_eq!(got.len(), 16);
        assert!(got.iter().all(|h| h.chars().count() == 256 + 8));
        assert!(got[0].starts_with("299 - \"0zz"));
    }
}
