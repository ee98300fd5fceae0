//! The input of the `server_request` target: a few HTTP requests written as text, with a
//! repetition escape so that small inputs (and seeds under `-max_len`) can stand for the
//! large hostile requests (a 586 KiB JSON patch, a 2.9 MiB object, a long label selector; a URI
//! stays under the `http` crate's 64 KiB).
//!
//! ```text
//! POST /apis/hostile.example.com/v1/namespaces/default/blobs
//! content-type: application/json
//!
//! {"apiVersion":"hostile.example.com/v1","kind":"Blob","metadata":{"name":"a"},"spec":{}}
//! ---
//! PATCH /apis/hostile.example.com/v1/namespaces/default/blobs/a
//! content-type: application/json-patch+json
//!
//! [\x013300\x02{"op":"add","path":"/spec/t","value":{}},…\x03{"op":"test","path":"/spec","value":null}]
//! ```
//!
//! Requests are separated by a line `---`; each is a request line (`METHOD target`), header
//! lines, an empty line and the body. `\x01<count>\x02<text>\x03` stands for `text` repeated
//! `count` times (not nested); the expansion of an input stops at [`MAX_EXPANDED`] bytes.
//! `Host: localhost` is added when no `Host` is given.

use bytes::Bytes;

/// The most requests read from one input.
pub const MAX_REQUESTS: usize = 8;
/// The most bytes an input expands to.
pub const MAX_EXPANDED: usize = 4 << 20;

/// Expands the repetition escapes of `data`.
#[must_use]
pub fn expand(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut rest = data;
    while let Some(start) = rest.iter().position(|b| *b == 0x01) {
        out.extend_from_slice(&rest[..start]);
        rest = &rest[start + 1..];
        let Some(sep) = rest.iter().position(|b| *b == 0x02) else {
            break;
        };
        let Some(end) = rest[sep..].iter().position(|b| *b == 0x03).map(|e| e + sep) else {
            break;
        };
        let count: usize = std::str::from_utf8(&rest[..sep])
            .ok()
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or(0);
        let text = &rest[sep + 1..end];
        for _ in 0..count {
            if out.len() + text.len() > MAX_EXPANDED {
                break;
            }
            out.extend_from_slice(text);
        }
        rest = &rest[end + 1..];
    }
    out.extend_from_slice(rest);
    out.truncate(MAX_EXPANDED);
    out
}

/// The requests of an input (at most [`MAX_REQUESTS`]); malformed parts are skipped.
#[must_use]
pub fn parse(data: &[u8]) -> Vec<http::Request<Bytes>> {
    let text = expand(data);
    let mut requests = Vec::new();
    for part in split(&text, b"\n---\n").into_iter().take(MAX_REQUESTS) {
        let (head, body) = match find(part, b"\n\n") {
            Some(i) => (&part[..i], &part[i + 2..]),
            None => (part, &b""[..]),
        };
        let head = String::from_utf8_lossy(head);
        let mut lines = head.lines();
        let Some((method, target)) = lines.next().and_then(|l| l.trim().split_once(' ')) else {
            continue;
        };
        let mut req = http::Request::builder().method(method).uri(target.trim());
        let mut has_host = false;
        for line in lines {
            if let Some((k, v)) = line.split_once(':') {
                has_host |= k.trim().eq_ignore_ascii_case("host");
                req = req.header(k.trim(), v.trim());
            }
        }
        if !has_host {
            req = req.header("host", "localhost");
        }
        if let Ok(r) = req.body(Bytes::copy_from_slice(body)) {
            requests.push(r);
        }
    }
    requests
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut text: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    while let Some(i) = find(text, sep) {
        parts.push(&text[..i]);
        text = &text[i + sep.len()..];
    }
    parts.push(text);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_and_requests() {
        assert_eq!(expand(b"[\x013\x02a,\x03b]"), b"[a,a,a,b]");
        assert_eq!(expand(b"x\x01oops"), b"xoops");
        assert!(expand(b"\x0199999999\x02xxxxxxxx\x03").len() <= MAX_EXPANDED);
        let reqs = parse(b"GET /version\n\n---\nPOST /api/v1/namespaces\nhost: evil.example\ncontent-type: application/json\n\n{}");
        assert_eq!(reqs.len(), 2);
        assert_eq!(reqs[0].headers()["host"], "localhost");
        assert_eq!(reqs[1].headers()["host"], "evil.example");
        assert_eq!(reqs[1].body().as_ref(), b"{}");
    }

    /// Every seed of the target parses into at least one request.
    #[test]
    fn seeds_parse() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/seeds/server_request");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            assert!(data.len() <= 4096, "{}: over -max_len", path.display());
            assert!(!parse(&data).is_empty(), "{}", path.display());
        }
    }
}
