//! JSON merge patch (RFC 7386) and JSON patch (RFC 6902), as the API server applies them.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/patch.go` (`applyPatchToObject` for
//! `application/json-patch+json` and `application/merge-patch+json`, its limit of 10,000
//! operations and its error codes: a patch that does not decode is 400, one that does not apply
//! is 422) over `gopkg.in/evanphx/json-patch.v4` semantics, whose messages are reproduced:
//! `testing value /metadata/finalizers failed: test failed`, and a `test` of `null` passing on a
//! missing path (kube-rs's finalizer helper relies on it).

mod json;

use serde_json::{Map, Value};

use crate::http::status::ApiError;

pub use json::apply as json_patch;

/// RFC 7386: `null` removes a key, objects merge recursively, anything else replaces.
#[must_use]
pub fn merge_patch(target: Value, patch: &Value) -> Value {
    let Value::Object(patch) = patch else {
        return patch.clone();
    };
    let mut target = match target {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    for (k, v) in patch {
        if v.is_null() {
            target.remove(k);
        } else {
            let cur = target.remove(k).unwrap_or(Value::Null);
            target.insert(k.clone(), merge_patch(cur, v));
        }
    }
    Value::Object(target)
}

/// Applies a decoded merge patch; the patch must be an object to apply to an object.
///
/// # Errors
/// 400 when the patch is not a JSON object (evanphx's `ErrBadJSONPatch` for a document).
pub fn apply_merge(target: Value, patch: &Value) -> Result<Value, ApiError> {
    if !patch.is_object() {
        return Err(ApiError::bad_request("Invalid JSON Patch"));
    }
    Ok(merge_patch(target, patch))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_rfc7386_examples() {
        // The examples of RFC 7386 appendix A.
        let cases = [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": "b"}),
                json!({"b": "c"}),
                json!({"a": "b", "b": "c"}),
            ),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (
                json!({"a": "b", "b": "c"}),
                json!({"a": null}),
                json!({"b": "c"}),
            ),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (
                json!({"a": [{"b": "c"}]}),
                json!({"a": [1]}),
                json!({"a": [1]}),
            ),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (
                json!({"e": null}),
                json!({"a": 1}),
                json!({"e": null, "a": 1}),
            ),
            (
                json!([1, 2]),
                json!({"a": "b", "c": null}),
                json!({"a": "b"}),
            ),
            (
                json!({}),
                json!({"a": {"bb": {"ccc": null}}}),
                json!({"a": {"bb": {}}}),
            ),
        ];
        for (target, patch, want) in cases {
            assert_eq!(
                merge_patch(target.clone(), &patch),
                want,
                "{target} + {patch}"
            );
        }
        assert_eq!(apply_merge(json!({}), &json!([1])).unwrap_err().code, 400);
    }
}
