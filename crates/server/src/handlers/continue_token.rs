//! Continue tokens of paged lists: apiserver `pkg/storage/continue.go` (`EncodeContinue`,
//! `DecodeContinue`): `{"v":"meta.k8s.io/v1","rv":…,"start":…}` in unpadded URL-safe base64,
//! `start` the key after the list's prefix with a NUL appended.

use serde_json::{Value, json};

use crate::http::status::{ApiError, ApiResult};

/// A continue token (`rv` -1: continue at the latest revision).
pub(super) fn encode_continue(rv: i64, start: &str) -> String {
    let token = json!({"v": "meta.k8s.io/v1", "rv": rv, "start": format!("{start}\u{0}")});
    crdkit_apimachinery::gobase64::encode_raw_url(token.to_string().as_bytes())
}

pub(super) fn decode_continue(token: &str) -> ApiResult<(i64, String)> {
    let bad = || {
        ApiError::bad_request(
            "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
        )
    };
    let bytes = crdkit_apimachinery::gobase64::decode_raw_url(token).ok_or_else(bad)?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    if v.get("v").and_then(Value::as_str) != Some("meta.k8s.io/v1") {
        return Err(bad());
    }
    // storage `DecodeContinue`: 0 is not a revision; -1 is the latest.
    let rv = v
        .get("rv")
        .and_then(Value::as_i64)
        .filter(|r| *r > 0 || *r == -1)
        .ok_or_else(bad)?;
    let start = v.get("start").and_then(Value::as_str).ok_or_else(bad)?;
    let start = start.strip_suffix('\u{0}').unwrap_or(start);
    if start.contains("..") || start.starts_with('/') {
        return Err(bad());
    }
    Ok((rv, start.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_tokens_round_trip() {
        let t = encode_continue(42, "default/my-cron");
        assert_eq!(
            decode_continue(&t).unwrap(),
            (42, "default/my-cron".to_owned())
        );
        assert_eq!(decode_continue("garbage!").unwrap_err().code, 400);
        let evil = crdkit_apimachinery::gobase64::encode_raw_url(
            br#"{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}"#,
        );
        assert_eq!(decode_continue(&evil).unwrap_err().code, 400);
        // `RawURLEncoding`: padding and the standard alphabet are not base64 to Go.
        let padded =
            crdkit_apimachinery::gobase64::encode(br#"{"v":"meta.k8s.io/v1","rv":1,"start":"a"}"#);
        assert!(padded.ends_with('='));
        assert_eq!(decode_continue(&padded).unwrap_err().code, 400);
        assert_eq!(
            decode_continue(padded.trim_end_matches('=')).unwrap().1,
            "a"
        );
    }
}
