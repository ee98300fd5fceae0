//! Go's `encoding/base64` encodings as the server's callers meet them, on the `base64` crate:
//! `StdEncoding` (a `[]byte` field in JSON, such as a CRD's `caBundle`, and a kubeconfig's
//! `certificate-authority-data`) and `RawURLEncoding` (list continue tokens, apiserver
//! `pkg/storage/continue.go`).
//!
//! Go's decoders (`encoding/base64/base64.go`) ignore `\r` and `\n` anywhere, accept non-zero
//! trailing bits (only `Strict()` refuses them), require padding with `StdEncoding` and refuse
//! it with `RawURLEncoding`; each accepts its own alphabet only.

use base64::alphabet;
use base64::engine::{DecodePaddingMode, Engine as _, GeneralPurpose, GeneralPurposeConfig};

/// `base64.StdEncoding`.
const STD: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical)
        .with_decode_allow_trailing_bits(true),
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
pub(crate) fn encode_std(data: &[u8]) -> String {
    STD.encode(data)
}

/// `base64.StdEncoding.DecodeString`; `None` where Go returns an error.
pub(crate) fn decode_std(s: &str) -> Option<Vec<u8>> {
    decode(&STD, s)
}

/// `base64.RawURLEncoding.EncodeToString`.
pub(crate) fn encode_raw_url(data: &[u8]) -> String {
    RAW_URL.encode(data)
}

/// `base64.RawURLEncoding.DecodeString`; `None` where Go returns an error.
pub(crate) fn decode_raw_url(s: &str) -> Option<Vec<u8>> {
    decode(&RAW_URL, s)
}

fn decode(engine: &GeneralPurpose, s: &str) -> Option<Vec<u8>> {
    if s.contains(['\r', '\n']) {
        let kept: String = s.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        return engine.decode(kept).ok();
    }
    engine.decode(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_encoding() {
        // Go's base64_test.go pairs.
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
            assert_eq!(encode_std(plain), std, "{plain:?}");
            assert_eq!(decode_std(std).unwrap(), plain, "{std}");
        }
    }

    #[test]
    fn std_decoding_accepts_what_go_accepts() {
        // Newlines anywhere, even inside the padding.
        assert_eq!(decode_std("Zm9v\r\nYmFy\n").unwrap(), b"foobar");
        assert_eq!(decode_std("Zg=\n=").unwrap(), b"f");
        // Non-zero trailing bits (only `Strict()` refuses them).
        assert_eq!(decode_std("Zh==").unwrap(), b"f");
        assert_eq!(decode_std("Zm9=").unwrap(), b"fo");
    }

    #[test]
    fn std_decoding_refuses_what_go_refuses() {
        for bad in [
            "Zg",        // padding missing
            "Zg=",       // padding short
            "Zm8",       // padding missing
            "Zg==Zg==",  // data after padding
            "Zm9v YmFy", // a space
            " Zm9v",     // leading space (no trimming)
            "-_-_",      // the URL alphabet
            "Z",         // a lone character
            "=",
        ] {
            assert_eq!(decode_std(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn raw_url_encoding() {
        assert_eq!(encode_raw_url(b"foobar"), "Zm9vYmFy");
        assert_eq!(encode_raw_url(b"fo"), "Zm8");
        assert_eq!(encode_raw_url(&[0xfb, 0xff]), "-_8");
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
