//! Certificate bundles as the API server reads a webhook's `caBundle`.
//!
//! Mirrors client-go `util/cert/pem.go` (`ParseCertsPEM`, through `cert.NewPoolFromBytes`),
//! apiextensions-apiserver `validation.go` (`ValidateCABundle`) and Go's `encoding/pem`
//! (`Decode`); the base64 of a `[]byte` field in JSON is Go's `StdEncoding`
//! ([`crdkit_apimachinery::gobase64`]). What differs: a certificate is checked for the DER structure
//! of an X.509 certificate (a SEQUENCE of the to-be-signed SEQUENCE, the signature algorithm
//! SEQUENCE and the signature BIT STRING, with nothing after it), not parsed field by field as
//! `x509.ParseCertificate` does; a malformed one gets Go's `x509: malformed certificate`.
//!
//! ```
//! use crdkit_crd::cert::parse_certs_pem;
//! assert_eq!(parse_certs_pem(b"\n").unwrap_err(),
//!     "data does not contain any valid RSA or ECDSA certificates");
//! ```

use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::gobase64 as base64;

/// The bytes of a `caBundle` as Go's JSON decoding of a `[]byte` field gives them.
///
/// # Errors
/// Go's `illegal base64 data at input byte N`.
pub fn ca_bundle_bytes(ca_bundle: &str) -> Result<Vec<u8>, String> {
    base64::decode(ca_bundle).map_err(|e| e.to_string())
}

/// `ValidateCABundle` on a `caBundle` as a CRD carries it (base64 text): the bundle must hold
/// at least one certificate (`cert.NewPoolFromBytes`, [`parse_certs_pem`]).
///
/// ```
/// use crdkit_apimachinery::field::FieldPath;
/// use crdkit_crd::cert::validate_ca_bundle;
/// let errs = validate_ca_bundle(&FieldPath::new("caBundle"), "Q2c9PQ==");
/// assert_eq!(errs[0].to_string(), "caBundle: Invalid value: []byte{0x43, 0x67, 0x3d, 0x3d}: \
///     data does not contain any valid RSA or ECDSA certificates");
/// ```
#[must_use]
pub fn validate_ca_bundle(path: &FieldPath, ca_bundle: &str) -> Vec<FieldError> {
    // Go decodes the base64 with the JSON document: bad base64 never reaches validation.
    let bytes = match ca_bundle_bytes(ca_bundle) {
        Ok(b) => b,
        Err(e) => return vec![FieldError::invalid(path, ca_bundle, e)],
    };
    match parse_certs_pem(&bytes) {
        Ok(_) => Vec::new(),
        Err(e) => {
            // Go prints a `[]byte` bad value with `%#v`: `0x` and unpadded hex per byte.
            let shown: Vec<String> = bytes.iter().map(|b| format!("{b:#x}")).collect();
            let value = BadValue::Raw(format!("[]byte{{{}}}", shown.join(", ")));
            vec![FieldError::invalid(path, value, e)]
        }
    }
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
        if let Ok(bytes) = base64::decode(&body) {
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
    fn ca_bundle_base64_as_go() {
        assert_eq!(ca_bundle_bytes("Q2c9PQ==").unwrap(), b"Cg==");
        // Go's `decodeQuantum` reports a short last quantum at its start.
        assert_eq!(
            ca_bundle_bytes("YWJ").unwrap_err(),
            "illegal base64 data at input byte 0"
        );
        assert_eq!(
            ca_bundle_bytes("Cg==Cg==").unwrap_err(),
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
