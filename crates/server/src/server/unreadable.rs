//! Requests Go's `net/http` refuses while reading them, before any handler runs, answered as Go
//! writes the answer: plain text, the connection closed.
//!
//! Mirrors `net/http` `request.go` `readRequest` (a request target `url.ParseRequestURI`
//! refuses, such as a malformed escape in the path, and several `Host` headers: a bare 400),
//! `transfer.go` `parseTransferEncoding` (in HTTP/1.1, a transfer coding other than one
//! `chunked`: 501; hyper reads `gzip, chunked` as chunked), `server.go` `readRequest` (HTTP/1.1
//! without `Host`, or a `Host` with a byte no host has: 400 with the reason in the status line
//! and the body) and `conn.serve` (an `Expect` other than `100-continue`: 417, empty), in that
//! order. HTTP/2 has rules of its own, which hyper's h2 applies.

use bytes::Bytes;
use http::{HeaderValue, Method, Version, header, request::Parts};

use crate::http::response::{self, Resp};

/// Go's answer to `parts`, when Go would not have read it.
pub(super) fn refusal(parts: &Parts) -> Option<Resp> {
    if parts.version != Version::HTTP_10 && parts.version != Version::HTTP_11 {
        return None;
    }
    let http11 = parts.version == Version::HTTP_11;
    let target_ok = match parts.uri.path_and_query() {
        Some(p) => p.as_str() == "*" || crate::http::query::unescape(p.path(), false).is_ok(),
        // Authority-form, which only CONNECT may use.
        None => parts.method == Method::CONNECT,
    };
    let mut hosts = parts.headers.get_all(header::HOST).iter();
    let host = hosts.next();
    if !target_ok || hosts.next().is_some() {
        return Some(plain(400, None, "400 Bad Request"));
    }
    let mut codings = parts.headers.get_all(header::TRANSFER_ENCODING).iter();
    if http11
        && let Some(coding) = codings.next()
        && (codings.next().is_some() || !coding.as_bytes().eq_ignore_ascii_case(b"chunked"))
    {
        return Some(plain(501, None, "Unsupported transfer encoding"));
    }
    let why = match host {
        None if http11 && parts.method != Method::CONNECT => "missing required Host header",
        Some(h) if !h.as_bytes().iter().all(|&b| valid_host_byte(b)) => "malformed Host header",
        _ => return expectation_failed(parts),
    };
    let reason = format!("Bad Request: {why}");
    Some(plain(400, Some(&reason), &format!("400 {reason}")))
}

/// An `Expect` (its first value) without the token `100-continue`, which hyper answers itself:
/// `sendExpectationFailed`, a 417 without a body.
fn expectation_failed(parts: &Parts) -> Option<Resp> {
    let expect = parts.headers.get(header::EXPECT)?.as_bytes();
    let continues = expect
        .split(|b| matches!(b, b' ' | b',' | b'\t'))
        .any(|t| t.eq_ignore_ascii_case(b"100-continue"));
    if expect.is_empty() || continues {
        return None;
    }
    let mut r = response::empty(417);
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    Some(r)
}

/// `httpguts.ValidHostHeader`'s bytes: those of a host name, an IP literal and a port, and a
/// URI host's sub-delimiters and percent-encoding.
fn valid_host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!$%&'()*+,-.:;=[]_~".contains(&b)
}

/// `text/plain; charset=utf-8`, `Connection: close`, and a reason phrase of Go's when it has one.
fn plain(status: u16, reason: Option<&str>, body: &str) -> Resp {
    let mut r = response::bytes(
        status,
        "text/plain; charset=utf-8",
        Bytes::from(body.to_owned()),
    );
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    if let Some(reason) = reason
        && let Ok(p) = hyper::ext::ReasonPhrase::try_from(reason.as_bytes().to_vec())
    {
        r.extensions_mut().insert(p);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(version: Version, headers: &[(&str, &[u8])]) -> Option<(u16, String)> {
        let mut req = http::Request::builder().uri("/version").version(version);
        for (k, v) in headers {
            req = req.header(*k, HeaderValue::from_bytes(v).unwrap());
        }
        let (parts, ()) = req.body(()).unwrap().into_parts();
        let r = refusal(&parts)?;
        let reason = r
            .extensions()
            .get::<hyper::ext::ReasonPhrase>()
            .map(|p| String::from_utf8_lossy(p.as_bytes()).into_owned());
        Some((r.status().as_u16(), reason.unwrap_or_default()))
    }

    #[test]
    fn what_go_does_not_read() {
        let v11 = Version::HTTP_11;
        assert_eq!(answer(v11, &[("host", b"localhost:8001")]), None);
        assert_eq!(answer(v11, &[("host", b"[::1]:8001")]), None);
        assert_eq!(answer(Version::HTTP_10, &[]), None);
        assert_eq!(answer(Version::HTTP_2, &[]), None);
        assert_eq!(
            answer(v11, &[]),
            Some((400, "Bad Request: missing required Host header".to_owned()))
        );
        for bad in [&b"a b"[..], b"a\xffb", b"a/b", b"a\"b"] {
            assert_eq!(
                answer(v11, &[("host", bad)]),
                Some((400, "Bad Request: malformed Host header".to_owned()))
            );
        }
        assert_eq!(
            answer(v11, &[("host", b"a"), ("host", b"a")]),
            Some((400, String::new()))
        );
        let te = |codings: &[&[u8]]| {
            let mut h: Vec<(&str, &[u8])> = vec![("host", b"a")];
            h.extend(codings.iter().map(|c| ("transfer-encoding", *c)));
            answer(v11, &h).map(|(s, _)| s)
        };
        assert_eq!(te(&[b"chunked"]), None);
        assert_eq!(te(&[b"Chunked"]), None);
        assert_eq!(te(&[b"gzip, chunked"]), Some(501));
        assert_eq!(te(&[b"chunked", b"chunked"]), Some(501));
        // HTTP/1.0 has no transfer codings to refuse.
        let h10 = answer(Version::HTTP_10, &[("transfer-encoding", b"gzip, chunked")]);
        assert_eq!(h10, None);
        let expect = |v: &[u8]| answer(v11, &[("host", b"a"), ("expect", v)]).map(|(s, _)| s);
        assert_eq!(expect(b"100-continue"), None);
        assert_eq!(expect(b"foo, 100-Continue"), None);
        assert_eq!(expect(b""), None);
        assert_eq!(expect(b"foo"), Some(417));
        assert_eq!(expect(b"100-continuex"), Some(417));
        // Request targets `url.ParseRequestURI` refuses.
        let target = |method: Method, uri: &str| {
            let req = http::Request::builder()
                .method(method)
                .uri(uri)
                .header("host", "a");
            let (parts, ()) = req.body(()).unwrap().into_parts();
            refusal(&parts).map(|r| r.status().as_u16())
        };
        assert_eq!(target(Method::GET, "/api/x%zz"), Some(400));
        assert_eq!(target(Method::GET, "/api/x?a=%zz"), None);
        assert_eq!(target(Method::GET, "/api/x%2Fy"), None);
        assert_eq!(target(Method::OPTIONS, "*"), None);
        assert_eq!(target(Method::GET, "localhost:80"), Some(400));
        assert_eq!(target(Method::CONNECT, "localhost:80"), None);
    }
}
