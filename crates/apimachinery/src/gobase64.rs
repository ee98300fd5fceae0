//! Go's `encoding/base64` on the `base64` crate: the one home of the encodings the API server
//! meets. `StdEncoding`: JSON encodes `[]byte` with it, `format: byte` strings, a webhook's
//! `caBundle`, Secret `data` and a kubeconfig's `certificate-authority-data` decode with it
//! (apiserver `pkg/cel/common/values.go`, `library/format.go`; `encoding/json` for `[]byte`).
//! `RawURLEncoding`: list continue tokens (apiserver `pkg/storage/continue.go`). `URLEncoding`:
//! the OpenAPI v2 parameter names (kube-openapi's hash suffixes).
//!
//! What Go accepts, the engines below accept: `=` padding required by the padded encodings and
//! refused by the raw one, `\r` and `\n` skipped anywhere, non-zero trailing bits allowed (the
//! encodings are not `Strict()`), each its own alphabet only. `StdEncoding` errors are Go's
//! `CorruptInputError`, at the input byte Go's `decodeQuantum` reports
//! (`encoding/base64/base64.go`).

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// `base64.StdEncoding`.
const STD: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// `base64.RawURLEncoding`.
const RAW_URL: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// `base64.StdEncoding.EncodeToString`.
///
/// ```
/// assert_eq!(crdkit_apimachinery::gobase64::encode(b"abcd"), "YWJjZA==");
/// ```
#[must_use]
pub fn encode(bytes: &[u8]) -> String {
    STD.encode(bytes)
}

/// Go's `base64.CorruptInputError`: `illegal base64 data at input byte N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorruptInputError(pub usize);

impl fmt::Display for CorruptInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal base64 data at input byte {}", self.0)
    }
}

impl std::error::Error for CorruptInputError {}

/// `base64.StdEncoding.DecodeString`.
///
/// ```
/// use crdkit_apimachinery::gobase64::decode;
/// assert_eq!(decode("YW\nJj").unwrap(), b"abc");
/// assert_eq!(decode("Y!Jj").unwrap_err().to_string(), "illegal base64 data at input byte 1");
/// ```
///
/// # Errors
/// Where Go reports the input corrupt.
pub fn decode(s: &str) -> Result<Vec<u8>, CorruptInputError> {
    let src = s.as_bytes();
    let clean: Cow<'_, [u8]> = if src.iter().any(|b| matches!(b, b'\r' | b'\n')) {
        Cow::Owned(
            src.iter()
                .copied()
                .filter(|b| !matches!(b, b'\r' | b'\n'))
                .collect(),
        )
    } else {
        Cow::Borrowed(src)
    };
    STD.decode(&clean)
        .map_err(|_| CorruptInputError(corrupt_at(src)))
}

/// The offset Go's `decodeQuantum` reports for input the decoder refused: a quantum of four
/// digits at a time, newlines skipped, padding only as the third and fourth symbol and only at
/// the end.
fn corrupt_at(src: &[u8]) -> usize {
    let digit = |b: u8| alphabet::STANDARD.as_str().as_bytes().contains(&b);
    let newline = |b: u8| b == b'\r' || b == b'\n';
    let skip_newlines = |mut si: usize| {
        while si < src.len() && newline(src[si]) {
            si += 1;
        }
        si
    };
    let mut si = 0;
    loop {
        let mut j = 0;
        while j < 4 {
            let Some(&b) = src.get(si) else {
                // Out of input inside a quantum (Go: `CorruptInputError(si - j)`).
                return if j == 0 { src.len() } else { si - j };
            };
            si += 1;
            if digit(b) {
                j += 1;
                continue;
            }
            if newline(b) {
                continue;
            }
            if b != b'=' || j < 2 {
                return si - 1;
            }
            if j == 2 {
                si = skip_newlines(si);
                match src.get(si) {
                    None => return src.len(),
                    Some(&b'=') => si += 1,
                    Some(_) => return si - 1,
                }
            }
            // After the padding only newlines may follow.
            return skip_newlines(si);
        }
    }
}

/// `base64.RawURLEncoding.EncodeToString`.
///
/// ```
/// assert_eq!(crdkit_apimachinery::gobase64::encode_raw_url(&[0xfb, 0xff]), "-_8");
/// ```
#[must_use]
pub fn encode_raw_url(bytes: &[u8]) -> String {
    RAW_URL.encode(bytes)
}

/// `base64.RawURLEncoding.DecodeString`; `None` where Go returns an error.
#[must_use]
pub fn decode_raw_url(s: &str) -> Option<Vec<u8>> {
    if s.contains(['\r', '\n']) {
        let kept: String = s.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        return RAW_URL.decode(kept).ok();
    }
    RAW_URL.decode(s).ok()
}

/// `base64.URLEncoding.EncodeToString` (padded).
///
/// ```
/// assert_eq!(crdkit_apimachinery::gobase64::encode_url(&[0xfb, 0xff]), "-_8=");
/// ```
#[must_use]
pub fn encode_url(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::{CorruptInputError, decode, decode_raw_url, encode, encode_raw_url};

    #[test]
    fn round_trip() {
        for n in 0..40u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(decode(&encode(&bytes)).unwrap(), bytes);
        }
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"\xfb\xff"), "+/8=");
    }

    /// Go's `base64.StdEncoding.DecodeString`, its results worked out from `decodeQuantum`
    /// (`encoding/base64/base64.go`).
    #[test]
    fn decode_as_go() {
        let ok: &[(&str, &[u8])] = &[
            ("", b""),
            ("\r\n", b""),
            ("Q2c9PQ==", b"Cg=="),
            ("Cg==", b"\n"),
            ("YWJj", b"abc"),
            ("YW\nJj", b"abc"),
            ("Cg=\n=\n", b"\n"),
            // Not Strict(): the unused bits of the last digit may be set.
            ("YR==", b"a"),
            ("YWJ=", b"ab"),
        ];
        for (input, want) in ok {
            assert_eq!(decode(input).as_deref(), Ok(*want), "{input:?}");
        }
        let corrupt: &[(&str, usize)] = &[
            ("YWJ", 0),
            ("YW\nJ", 1),
            ("YWJjY", 4),
            ("Y!Jj", 1),
            ("Y=Jj", 1),
            ("YW=j", 2),
            ("YQ=", 3),
            ("Cg==Cg==", 4),
            ("Cg==\n\nx", 6),
            ("YWJj====", 4),
            ("YWJj-_", 4),
        ];
        for (input, at) in corrupt {
            assert_eq!(decode(input), Err(CorruptInputError(*at)), "{input:?}");
        }
    }

    /// Go's `base64_test.go` pairs.
    #[test]
    fn std_pairs() {
        for (plain, std) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"foobar", "Zm9vYmFy"),
            (&[0x14, 0xfb, 0x9c, 0x03, 0xd9, 0x7e], "FPucA9l+"),
        ] {
            assert_eq!(encode(plain), std, "{plain:?}");
            assert_eq!(decode(std).unwrap(), plain, "{std}");
        }
        for bad in ["Zg", "Zm9v YmFy", " Zm9v", "-_-_", "Z", "="] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn raw_url_encoding() {
        assert_eq!(encode_raw_url(b"foobar"), "Zm9vYmFy");
        assert_eq!(encode_raw_url(b"fo"), "Zm8");
        assert_eq!(decode_raw_url("-_8").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode_raw_url("Zm8").unwrap(), b"fo");
        assert_eq!(decode_raw_url("Zm\n8").unwrap(), b"fo");
        assert_eq!(decode_raw_url("Zm9").unwrap(), b"fo");
        for bad in ["Zm8=", "+/8", "Z", "Zm8 ", "***"] {
            assert_eq!(decode_raw_url(bad), None, "{bad:?}");
        }
        for s in ["", "f", "fo", "foo", "{\"rv\":12}"] {
            assert_eq!(
                decode_raw_url(&encode_raw_url(s.as_bytes())).unwrap(),
                s.as_bytes()
            );
        }
    }
}
