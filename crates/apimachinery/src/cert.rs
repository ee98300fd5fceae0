//! Certificate bundles as the API server reads a webhook's `caBundle`.
//!
//! Mirrors client-go `util/cert/pem.go` (`ParseCertsPEM`, through `cert.NewPoolFromBytes`) and
//! Go's `encoding/pem` (`Decode`) and `encoding/base64` (`StdEncoding`, the decoding of a
//! `[]byte` field from JSON). What differs: a certificate is checked for the DER structure of
//! an X.509 certificate (a SEQUENCE of the to-be-signed SEQUENCE, the signature algorithm
//! SEQUENCE and the signature BIT STRING, with nothing after it), not parsed field by field as
//! `x509.ParseCertificate` does; a malformed one gets Go's `x509: malformed certificate`.
//!
//! ```
//! use crdkit_apimachinery::cert::parse_certs_pem;
//! assert_eq!(parse_certs_pem(b"\n").unwrap_err(),
//!     "data does not contain any valid RSA or ECDSA certificates");
//! ```

/// Decodes standard, padded base64 as Go's `base64.StdEncoding` (and so `encoding/json` for a
/// `[]byte`): `\r` and `\n` are skipped.
///
/// # Errors
/// Go's `illegal base64 data at input byte N`.
pub fn base64_decode(s: &str) -> Result<Vec<u8>, String> {
    let illegal = |i: usize| format!("illegal base64 data at input byte {i}");
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut quad = [0u8; 4];
    let mut n = 0;
    let mut padding = 0;
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' || b == b'\n' {
            continue;
        }
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' if n >= 2 => {
                padding += 1;
                0
            }
            _ => return Err(illegal(i)),
        };
        if padding > 0 && b != b'=' {
            return Err(illegal(i));
        }
        quad[n] = v;
        n += 1;
        if n == 4 {
            let bits = u32::from(quad[0]) << 18
                | u32::from(quad[1]) << 12
                | u32::from(quad[2]) << 6
                | u32::from(quad[3]);
            let [_, a, b, c] = bits.to_be_bytes();
            out.extend_from_slice(&[a, b, c][..3 - padding]);
            n = 0;
            if padding > 0 {
                // Anything after the padding is an error.
                if let Some(j) = bytes[i + 1..]
                    .iter()
                    .position(|&b| b != b'\r' && b != b'\n')
                {
                    return Err(illegal(i + 1 + j));
                }
                return Ok(out);
            }
        }
    }
    if n != 0 {
        return Err(illegal(bytes.len()));
    }
    Ok(out)
}

/// Encodes bytes as Go's `base64.StdEncoding` does (padded), as `encoding/json` writes a `[]byte`.
#[must_use]
pub fn base64_encode(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let bits = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(bits >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One PEM block: its type, whether it has headers, its decoded bytes.
struct Block {
    kind: String,
    headers: bool,
    bytes: Vec<u8>,
}

/// The blocks of `data` as `pem.Decode` finds them one after the other (a block whose body is
/// not base64 is skipped).
fn pem_blocks(data: &[u8]) -> Vec<Block> {
    let text = String::from_utf8_lossy(data);
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(kind) = line
            .trim_end()
            .strip_prefix("-----BEGIN ")
            .and_then(|r| r.strip_suffix("-----"))
        else {
            continue;
        };
        let end = format!("-----END {kind}-----");
        let mut headers = false;
        let mut body = String::new();
        let mut closed = false;
        let mut in_headers = true;
        for l in lines.by_ref() {
            let l = l.trim_end();
            if l == end {
                closed = true;
                break;
            }
            if in_headers && l.contains(':') {
                headers = true;
                continue;
            }
            in_headers = false;
            body.push_str(l.trim());
        }
        if !closed {
            break;
        }
        if let Ok(bytes) = base64_decode(&body) {
            blocks.push(Block {
                kind: kind.to_owned(),
                headers,
                bytes,
            });
        }
    }
    blocks
}

/// `ParseCertsPEM`: the number of `CERTIFICATE` blocks (without headers) in `pem`, each a
/// well-formed certificate.
///
/// # Errors
/// `data does not contain any valid RSA or ECDSA certificates` when there is none, `x509:
/// malformed certificate` for a block that is not one.
pub fn parse_certs_pem(pem: &[u8]) -> Result<usize, String> {
    let mut count = 0;
    for b in pem_blocks(pem) {
        if b.kind != "CERTIFICATE" || b.headers {
            continue;
        }
        if !is_certificate_der(&b.bytes) {
            return Err("x509: malformed certificate".to_owned());
        }
        count += 1;
    }
    if count == 0 {
        return Err("data does not contain any valid RSA or ECDSA certificates".to_owned());
    }
    Ok(count)
}

/// One DER element at the start of `d`: its tag, contents and the rest.
fn der(d: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = d.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (len, &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

fn is_certificate_der(d: &[u8]) -> bool {
    const SEQUENCE: u8 = 0x30;
    const BIT_STRING: u8 = 0x03;
    let Some((SEQUENCE, body, [])) = der(d) else {
        return false;
    };
    let Some((SEQUENCE, _, rest)) = der(body) else {
        return false;
    };
    let Some((SEQUENCE, _, rest)) = der(rest) else {
        return false;
    };
    matches!(der(rest), Some((BIT_STRING, _, [])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_go() {
        assert_eq!(base64_decode("Q2c9PQ==").unwrap(), b"Cg==");
        assert_eq!(base64_decode("Cg==").unwrap(), b"\n");
        assert_eq!(base64_decode("YWJj").unwrap(), b"abc");
        assert_eq!(base64_decode("YW\nJj").unwrap(), b"abc");
        assert_eq!(base64_decode("").unwrap(), b"");
        for s in [&b""[..], b"a", b"ab", b"abc", b"abcd", b"\xff\xfe\x00"] {
            assert_eq!(base64_decode(&base64_encode(s)).unwrap(), s);
        }
        assert_eq!(base64_encode(b"abc"), "YWJj");
        assert_eq!(base64_encode(b"\n"), "Cg==");
        assert_eq!(
            base64_decode("YWJ").unwrap_err(),
            "illegal base64 data at input byte 3"
        );
        assert_eq!(
            base64_decode("Y!Jj").unwrap_err(),
            "illegal base64 data at input byte 1"
        );
        assert_eq!(
            base64_decode("Cg==Cg==").unwrap_err(),
            "illegal base64 data at input byte 4"
        );
    }

    #[test]
    fn certificates() {
        // validation_test.go `exampleCert`.
        let cert = include_str!("../tests/data/example-cert.pem");
        assert_eq!(parse_certs_pem(cert.as_bytes()), Ok(1));
        let two = format!("{cert}\n{cert}\n");
        assert_eq!(parse_certs_pem(two.as_bytes()), Ok(2));
        let none = "data does not contain any valid RSA or ECDSA certificates";
        assert_eq!(parse_certs_pem(b"Cg==").unwrap_err(), none);
        let key = cert.replace("CERTIFICATE", "PRIVATE KEY");
        assert_eq!(parse_certs_pem(key.as_bytes()).unwrap_err(), none);
        let bad = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n";
        assert_eq!(
            parse_certs_pem(bad.as_bytes()).unwrap_err(),
            "x509: malformed certificate"
        );
        let headers = cert.replacen(
            "-----BEGIN CERTIFICATE-----\n",
            "-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n",
            1,
        );
        assert_eq!(parse_certs_pem(headers.as_bytes()).unwrap_err(), none);
    }
}
