//! RFC 6902 JSON patch with evanphx/json-patch v4's behaviour and messages.
//!
//! The document being patched may nest deeper than [`crate::deep::MAX_DEPTH`] between
//! operations (a `copy` into itself doubles the depth), so nothing here recurses on it: pointers
//! are followed in a loop, values are copied and dropped with [`crate::deep`], and the caller
//! checks the depth of the result. `copy` is bounded as the API server bounds it
//! (`AccumulatedCopySizeLimit`, set from `JSONPatchMaxCopyBytes`).

use serde_json::Value;

use crate::deep;
use crate::http::status::ApiError;

/// patch.go `maxJSONPatchOperations`.
const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// Applies a JSON patch (already decoded) to `doc`; the `copy` operations together may add at
/// most `max_copy_bytes` (their values' JSON length; 0: no limit).
///
/// # Errors
/// 400 for a malformed patch, 413 for more than 10,000 operations, 422 when an operation does
/// not apply (a failed `test`, a missing path, copies past the limit).
pub fn apply(doc: Value, patch: &Value, max_copy_bytes: usize) -> Result<Value, ApiError> {
    let Value::Array(ops) = patch else {
        return Err(ApiError::bad_request(
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
        ));
    };
    if ops.len() > MAX_JSON_PATCH_OPERATIONS {
        return Err(ApiError::too_large(&format!(
            "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
            ops.len()
        )));
    }
    let mut doc = doc;
    let mut copied = 0usize;
    for op in ops {
        if let Err(e) = apply_op(&mut doc, op, max_copy_bytes, &mut copied) {
            deep::dismantle(doc);
            return Err(e);
        }
    }
    Ok(doc)
}

/// One operation; `copied` is the running total of `copy` bytes (patch.go's
/// `accumulatedCopySize`).
fn apply_op(
    doc: &mut Value,
    op: &Value,
    max_copy_bytes: usize,
    copied: &mut usize,
) -> Result<(), ApiError> {
    let Value::Object(op) = op else {
        return Err(ApiError::bad_request(
            "json: cannot unmarshal into Go value of type jsonpatch.Operation",
        ));
    };
    let kind = op.get("op").and_then(Value::as_str).unwrap_or("unknown");
    let path = op.get("path").and_then(Value::as_str);
    let value = op.get("value");
    let from = op.get("from").and_then(Value::as_str);
    let fail = |m: String| ApiError::unprocessable(m);
    match kind {
        "add" => {
            let path = path.ok_or_else(|| fail("add operation missing path".into()))?;
            let value = value.ok_or_else(|| fail("add operation missing value".into()))?;
            add(doc, path, deep::clone(value))
                .map_err(|e| fail(format!("add operation does not apply: {e}")))?;
        }
        "remove" => {
            let path = path.ok_or_else(|| fail("remove operation missing path".into()))?;
            remove(doc, path).map_err(fail)?;
        }
        "replace" => {
            let path = path.ok_or_else(|| fail("replace operation missing path".into()))?;
            let value = value.ok_or_else(|| fail("replace operation missing value".into()))?;
            let slot = get_mut(doc, path).ok_or_else(|| {
                fail(format!(
                    "replace operation does not apply: doc is missing key: {path}: missing value"
                ))
            })?;
            deep::dismantle(std::mem::replace(slot, deep::clone(value)));
        }
        "move" => {
            let from = from.ok_or_else(|| fail("move operation missing from".into()))?;
            let path = path.ok_or_else(|| fail("move operation missing path".into()))?;
            let v = take(doc, from).ok_or_else(|| {
                fail(format!(
                    "move operation does not apply: doc is missing from path: {from}: missing value"
                ))
            })?;
            add(doc, path, v).map_err(|e| fail(format!("move operation does not apply: {e}")))?;
        }
        "copy" => {
            let from = from.ok_or_else(|| fail("copy operation missing from".into()))?;
            let path = path.ok_or_else(|| fail("copy operation missing path".into()))?;
            let source = get(doc, from).ok_or_else(|| {
                fail(format!(
                    "copy operation does not apply: doc is missing from path: {from}: missing value"
                ))
            })?;
            // Charged before the copy is made, so that the limit bounds the work too.
            *copied = copied.saturating_add(deep::encoded_len(source));
            if max_copy_bytes > 0 && *copied > max_copy_bytes {
                return Err(fail(format!(
                    "Unable to complete the copy, the accumulated size increase of copy is {copied}, exceeding the limit {max_copy_bytes}"
                )));
            }
            let v = deep::clone(source);
            add(doc, path, v).map_err(|e| fail(format!("copy operation does not apply: {e}")))?;
        }
        "test" => {
            let path = path.ok_or_else(|| fail("test operation missing path".into()))?;
            let (parent, _) = split(path).ok_or_else(|| {
                fail(format!(
                    "test operation does not apply: is missing path: {path}: missing value"
                ))
            })?;
            if get(doc, &parent).is_none() {
                return Err(fail(format!(
                    "test operation does not apply: is missing path: {path}: missing value"
                )));
            }
            let actual = get(doc, path).filter(|v| !v.is_null());
            let want = value.filter(|v| !v.is_null());
            // The comparison recurses no deeper than the patch's value, which decoded within
            // the depth limit.
            let ok = match (actual, want) {
                (None, None) => true,
                (Some(a), Some(w)) => a == w,
                _ => false,
            };
            if !ok {
                return Err(fail(format!("testing value {path} failed: test failed")));
            }
        }
        other => {
            return Err(fail(format!("Unexpected kind: {other}")));
        }
    }
    Ok(())
}

/// The unescaped tokens of a JSON pointer (`/a/b~1c` → `["a", "b/c"]`).
fn tokens(path: &str) -> Option<Vec<String>> {
    if path.is_empty() {
        return Some(Vec::new());
    }
    let rest = path.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// The parent pointer and the last token.
fn split(path: &str) -> Option<(String, String)> {
    let toks = tokens(path)?;
    let (last, parent) = toks.split_last()?;
    let parent: String = parent
        .iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect();
    Some((parent, last.clone()))
}

fn get<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = doc;
    for t in tokens(path)? {
        cur = match cur {
            Value::Object(m) => m.get(&t)?,
            Value::Array(a) => a.get(index(&t)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn get_mut<'a>(doc: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    let mut cur = doc;
    for t in tokens(path)? {
        cur = match cur {
            Value::Object(m) => m.get_mut(&t)?,
            Value::Array(a) => a.get_mut(index(&t)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn index(t: &str) -> Option<usize> {
    if t.is_empty() || (t.len() > 1 && t.starts_with('0')) || !t.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    t.parse().ok()
}

fn add(doc: &mut Value, path: &str, value: Value) -> Result<(), String> {
    if path.is_empty() {
        deep::dismantle(std::mem::replace(doc, value));
        return Ok(());
    }
    let (parent, last) =
        split(path).ok_or_else(|| format!("doc is missing path: {path:?}: missing value"))?;
    let Some(container) = get_mut(doc, &parent) else {
        deep::dismantle(value);
        return Err(format!("doc is missing path: {path:?}: missing value"));
    };
    match container {
        Value::Object(m) => {
            if let Some(old) = m.insert(last, value) {
                deep::dismantle(old);
            }
            Ok(())
        }
        Value::Array(a) => {
            let i = if last == "-" {
                Some(a.len())
            } else {
                index(&last)
            };
            match i {
                Some(i) if i <= a.len() => {
                    a.insert(i, value);
                    Ok(())
                }
                Some(i) => {
                    deep::dismantle(value);
                    Err(format!(
                        "Unable to access invalid index: {i}: invalid index referenced"
                    ))
                }
                None => {
                    deep::dismantle(value);
                    Err(format!(
                        "Unable to access invalid index: {last}: invalid index referenced"
                    ))
                }
            }
        }
        _ => {
            deep::dismantle(value);
            Err(format!("doc is missing path: {path:?}: missing value"))
        }
    }
}

fn take(doc: &mut Value, path: &str) -> Option<Value> {
    let (parent, last) = split(path)?;
    match get_mut(doc, &parent)? {
        Value::Object(m) => m.remove(&last),
        Value::Array(a) => {
            let i = index(&last)?;
            (i < a.len()).then(|| a.remove(i))
        }
        _ => None,
    }
}

fn remove(doc: &mut Value, path: &str) -> Result<(), String> {
    let missing = || {
        let key = split(path).map(|(_, k)| k).unwrap_or_default();
        format!("Unable to remove nonexistent key: {key}: missing value")
    };
    let (parent, last) = split(path).ok_or_else(missing)?;
    match get_mut(doc, &parent) {
        Some(Value::Object(m)) => m.remove(&last).map(deep::dismantle).ok_or_else(missing),
        Some(Value::Array(a)) => match index(&last) {
            Some(i) if i < a.len() => {
                deep::dismantle(a.remove(i));
                Ok(())
            }
            _ => Err(format!(
                "Unable to access invalid index: {last}: invalid index referenced"
            )),
        },
        _ => Err(format!(
            "remove operation does not apply: doc is missing path: {path:?}: missing value"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kube_rs_finalizer_patches() {
        // finalizer(): add the first finalizer, guarded by a test of null on a missing path.
        let obj = json!({"metadata": {"name": "probe"}});
        let add = json!([{"op": "test", "path": "/metadata/finalizers", "value": null},
            {"op": "add", "path": "/metadata/finalizers", "value": ["stable.example.com/cleanup"]}]);
        let obj = apply(obj, &add, 0).unwrap();
        assert_eq!(
            obj["metadata"]["finalizers"],
            json!(["stable.example.com/cleanup"])
        );
        // The same patch again fails its test: 422, as the API server answers.
        let e = apply(obj.clone(), &add, 0).unwrap_err();
        assert_eq!(e.code, 422);
        assert_eq!(
            e.message,
            "testing value /metadata/finalizers failed: test failed"
        );
        // Removal guarded by a test of the element.
        let rm = json!([{"op": "test", "path": "/metadata/finalizers/0", "value": "stable.example.com/cleanup"},
            {"op": "remove", "path": "/metadata/finalizers/0"}]);
        let obj = apply(obj, &rm, 0).unwrap();
        assert_eq!(obj["metadata"]["finalizers"], json!([]));
    }

    #[test]
    fn rfc6902_operations() {
        let doc = json!({"a": {"b": [1, 2]}, "c~d": 1, "e/f": 2});
        let p = json!([
            {"op": "add", "path": "/a/b/-", "value": 3},
            {"op": "add", "path": "/a/b/0", "value": 0},
            {"op": "replace", "path": "/c~0d", "value": 5},
            {"op": "remove", "path": "/e~1f"},
            {"op": "copy", "from": "/a/b", "path": "/copy"},
            {"op": "move", "from": "/copy", "path": "/moved"},
            {"op": "test", "path": "/moved/3", "value": 3},
        ]);
        assert_eq!(
            apply(doc, &p, 0).unwrap(),
            json!({"a": {"b": [0, 1, 2, 3]}, "c~d": 5, "moved": [0, 1, 2, 3]})
        );
    }

    #[test]
    fn failures() {
        let doc = json!({"a": 1});
        for (p, code) in [
            (json!({"op": "add"}), 400),
            (json!([{"op": "replace", "path": "/x", "value": 1}]), 422),
            (json!([{"op": "remove", "path": "/x"}]), 422),
            (json!([{"op": "add", "path": "/x/y", "value": 1}]), 422),
            (json!([{"op": "bogus", "path": "/a"}]), 422),
            (json!([{"op": "test", "path": "/a", "value": 2}]), 422),
            (json!([5]), 400),
        ] {
            assert_eq!(apply(doc.clone(), &p, 0).unwrap_err().code, code, "{p}");
        }
        let many = Value::Array(vec![
            json!({"op": "test", "path": "/a", "value": 1});
            10_001
        ]);
        assert_eq!(apply(doc, &many, 0).unwrap_err().code, 413);
    }
}
