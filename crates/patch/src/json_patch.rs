//! RFC 6902 JSON patch (`application/json-patch+json`) as the API server applies it: apiserver
//! `pkg/endpoints/handlers/patch.go` (`applyPatchToObject`, its limit of 10,000 operations) over
//! `gopkg.in/evanphx/json-patch.v4`, whose behaviour and messages are reproduced:
//! `testing value /metadata/finalizers failed: test failed`, and a `test` of `null` passing on a
//! missing path (kube-rs's finalizer helper relies on it).

// `path` (of an operation) and `patch` are the RFC's words.
#![allow(clippy::similar_names)]

use std::fmt;

use serde_json::Value;

/// Why a JSON patch does not apply, with the API server's HTTP code: 400 for a patch that does
/// not decode, 413 for too many operations, 422 for an operation that does not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonPatchError {
    /// 400, 413 or 422.
    pub code: u16,
    /// The message of the `Status`.
    pub message: String,
}

impl JsonPatchError {
    fn new(code: u16, message: impl Into<String>) -> JsonPatchError {
        JsonPatchError {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for JsonPatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonPatchError {}

/// patch.go `maxJSONPatchOperations`.
const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// Applies a JSON patch (already decoded) to `doc`.
///
/// # Errors
/// 400 for a malformed patch, 413 for more than 10,000 operations, 422 when an operation does
/// not apply (a failed `test`, a missing path).
pub fn json_patch(mut doc: Value, patch: &Value) -> Result<Value, JsonPatchError> {
    let Value::Array(ops) = patch else {
        return Err(JsonPatchError::new(
            400,
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
        ));
    };
    if ops.len() > MAX_JSON_PATCH_OPERATIONS {
        return Err(JsonPatchError::new(
            413,
            format!(
                "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
                ops.len()
            ),
        ));
    }
    for op in ops {
        let Value::Object(op) = op else {
            return Err(JsonPatchError::new(
                400,
                "json: cannot unmarshal into Go value of type jsonpatch.Operation",
            ));
        };
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("unknown");
        let path = op.get("path").and_then(Value::as_str);
        let value = op.get("value");
        let from = op.get("from").and_then(Value::as_str);
        let fail = |m: String| JsonPatchError::new(422, m);
        match kind {
            "add" => {
                let path = path.ok_or_else(|| fail("add operation missing path".into()))?;
                let value = value.ok_or_else(|| fail("add operation missing value".into()))?;
                add(&mut doc, path, value.clone())
                    .map_err(|e| fail(format!("add operation does not apply: {e}")))?;
            }
            "remove" => {
                let path = path.ok_or_else(|| fail("remove operation missing path".into()))?;
                remove(&mut doc, path).map_err(fail)?;
            }
            "replace" => {
                let path = path.ok_or_else(|| fail("replace operation missing path".into()))?;
                let value = value.ok_or_else(|| fail("replace operation missing value".into()))?;
                let slot = get_mut(&mut doc, path).ok_or_else(|| {
                    fail(format!(
                        "replace operation does not apply: doc is missing key: {path}: missing value"
                    ))
                })?;
                *slot = value.clone();
            }
            "move" => {
                let from = from.ok_or_else(|| fail("move operation missing from".into()))?;
                let path = path.ok_or_else(|| fail("move operation missing path".into()))?;
                let v = take(&mut doc, from).ok_or_else(|| {
                    fail(format!(
                        "move operation does not apply: doc is missing from path: {from}: missing value"
                    ))
                })?;
                add(&mut doc, path, v)
                    .map_err(|e| fail(format!("move operation does not apply: {e}")))?;
            }
            "copy" => {
                let from = from.ok_or_else(|| fail("copy operation missing from".into()))?;
                let path = path.ok_or_else(|| fail("copy operation missing path".into()))?;
                let v = get(&doc, from).cloned().ok_or_else(|| {
                    fail(format!(
                        "copy operation does not apply: doc is missing from path: {from}: missing value"
                    ))
                })?;
                add(&mut doc, path, v)
                    .map_err(|e| fail(format!("copy operation does not apply: {e}")))?;
            }
            "test" => {
                let path = path.ok_or_else(|| fail("test operation missing path".into()))?;
                let (parent, _) = split(path).ok_or_else(|| {
                    fail(format!(
                        "test operation does not apply: is missing path: {path}: missing value"
                    ))
                })?;
                if get(&doc, &parent).is_none() {
                    return Err(fail(format!(
                        "test operation does not apply: is missing path: {path}: missing value"
                    )));
                }
                let actual = get(&doc, path).filter(|v| !v.is_null());
                let want = value.filter(|v| !v.is_null());
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
    }
    Ok(doc)
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
    let mut joined = String::new();
    for t in parent {
        joined.push('/');
        joined.push_str(&t.replace('~', "~0").replace('/', "~1"));
    }
    let parent = joined;
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
        *doc = value;
        return Ok(());
    }
    let (parent, last) =
        split(path).ok_or_else(|| format!("doc is missing path: {path:?}: missing value"))?;
    let container = get_mut(doc, &parent)
        .ok_or_else(|| format!("doc is missing path: {path:?}: missing value"))?;
    match container {
        Value::Object(m) => {
            m.insert(last, value);
            Ok(())
        }
        Value::Array(a) => {
            let i = if last == "-" {
                a.len()
            } else {
                index(&last).ok_or_else(|| {
                    format!("Unable to access invalid index: {last}: invalid index referenced")
                })?
            };
            if i > a.len() {
                return Err(format!(
                    "Unable to access invalid index: {i}: invalid index referenced"
                ));
            }
            a.insert(i, value);
            Ok(())
        }
        _ => Err(format!("doc is missing path: {path:?}: missing value")),
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
        Some(Value::Object(m)) => m.remove(&last).map(|_| ()).ok_or_else(missing),
        Some(Value::Array(a)) => match index(&last) {
            Some(i) if i < a.len() => {
                a.remove(i);
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
        let obj = json_patch(obj, &add).unwrap();
        assert_eq!(
            obj["metadata"]["finalizers"],
            json!(["stable.example.com/cleanup"])
        );
        // The same patch again fails its test: 422, as the API server answers.
        let e = json_patch(obj.clone(), &add).unwrap_err();
        assert_eq!(e.code, 422);
        assert_eq!(
            e.message,
            "testing value /metadata/finalizers failed: test failed"
        );
        // Removal guarded by a test of the element.
        let rm = json!([{"op": "test", "path": "/metadata/finalizers/0", "value": "stable.example.com/cleanup"},
            {"op": "remove", "path": "/metadata/finalizers/0"}]);
        let obj = json_patch(obj, &rm).unwrap();
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
            json_patch(doc, &p).unwrap(),
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
            assert_eq!(json_patch(doc.clone(), &p).unwrap_err().code, code, "{p}");
        }
        let many = Value::Array(vec![
            json!({"op": "test", "path": "/a", "value": 1});
            10_001
        ]);
        assert_eq!(json_patch(doc, &many).unwrap_err().code, 413);
    }
}
