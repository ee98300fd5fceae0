//! JSON merge patch (RFC 7386, `application/merge-patch+json`) as the API server applies it
//! (apiserver `pkg/endpoints/handlers/patch.go` through `gopkg.in/evanphx/json-patch.v4`
//! `MergePatch`).

use serde_json::{Map, Value};

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
    }
}
