//! The stored bytes of an object, written once per write: they also give the object's JSON
//! once its revision is known (a create's answer), without encoding it a second time.
//!
//! What is stored is the object without `metadata.resourceVersion` and `metadata.selfLink`
//! (apiserver `pkg/storage/etcd3/store.go` clears the version before writing). The bytes are
//! those of `serde_json::to_vec` (compact, maps in key order), written entry by entry so that
//! the place where `resourceVersion` sorts among the `metadata` keys is known.

use std::io::Write;

use bytes::Bytes;
use crdkit_storage::Revision;
use serde_json::{Map, Value};

/// Where `"resourceVersion":"<rev>"` goes in the stored bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Before the `metadata` entry that starts at this offset (a comma follows it).
    Before(usize),
    /// Before the `}` at this offset, after other entries (a comma precedes it).
    Last(usize),
    /// Inside an empty `metadata` whose `}` is at this offset.
    Only(usize),
}

/// The stored bytes of an object.
#[derive(Clone, Debug)]
pub struct Encoded {
    /// What storage holds.
    pub bytes: Bytes,
    /// `None` when the stored form is not the object's JSON minus its version (no `metadata`
    /// object, or a `selfLink` that storage leaves out).
    slot: Option<Slot>,
}

impl Encoded {
    /// The object's JSON (as `serde_json::to_vec` writes it) with `metadata.resourceVersion`
    /// set to `rev`, when the stored bytes give it.
    #[must_use]
    pub fn with_version(&self, rev: Revision) -> Option<Bytes> {
        let (at, comma_before, comma_after) = match self.slot? {
            Slot::Before(at) => (at, false, true),
            Slot::Last(at) => (at, true, false),
            Slot::Only(at) => (at, false, false),
        };
        // Written straight into the answer: `"resourceVersion":"<rev>"` and its comma.
        let mut out = Vec::with_capacity(self.bytes.len() + 42);
        out.extend_from_slice(&self.bytes[..at]);
        if comma_before {
            out.push(b',');
        }
        out.extend_from_slice(b"\"resourceVersion\":\"");
        // Writing to a vector cannot fail.
        let _ = write!(out, "{rev}");
        out.push(b'"');
        if comma_after {
            out.push(b',');
        }
        out.extend_from_slice(&self.bytes[at..]);
        Some(Bytes::from(out))
    }
}

/// The stored bytes of `obj`: without `metadata.resourceVersion` and `metadata.selfLink`.
#[must_use]
pub fn encode(obj: &Value) -> Encoded {
    let Value::Object(map) = obj else {
        return Encoded {
            bytes: Bytes::from(serde_json::to_vec(obj).unwrap_or_default()),
            slot: None,
        };
    };
    SCRATCH.with_borrow_mut(|out| {
        out.clear();
        let mut slot = None;
        out.push(b'{');
        for (i, (k, v)) in map.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            put(out, k);
            out.push(b':');
            match v {
                Value::Object(meta) if k == "metadata" => {
                    slot = metadata(out, meta);
                }
                _ => put(out, v),
            }
        }
        out.push(b'}');
        // Stored bytes live as long as the object: exactly their size, not a grown vector's
        // capacity (up to twice it).
        let bytes = Bytes::copy_from_slice(out);
        if out.capacity() > SCRATCH_KEPT {
            *out = Vec::new();
        }
        Encoded { bytes, slot }
    })
}

/// What a thread's scratch buffer keeps between writes at most.
const SCRATCH_KEPT: usize = 1 << 20;

thread_local! {
    /// Where a thread writes stored bytes before copying them out at their size.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Writes `metadata` without its version and self link; returns where the version goes.
fn metadata(out: &mut Vec<u8>, meta: &Map<String, Value>) -> Option<Slot> {
    let mut slot = None;
    let mut first = true;
    out.push(b'{');
    for (k, v) in meta {
        match k.as_str() {
            "resourceVersion" => continue,
            "selfLink" => {
                slot = Some(None);
                continue;
            }
            key if slot.is_none() && key > "resourceVersion" => {
                if !first {
                    out.push(b',');
                }
                slot = Some(Some(Slot::Before(out.len())));
                put(out, k);
                out.push(b':');
                put(out, v);
                first = false;
                continue;
            }
            _ => {}
        }
        if !first {
            out.push(b',');
        }
        put(out, k);
        out.push(b':');
        put(out, v);
        first = false;
    }
    let end = out.len();
    out.push(b'}');
    match slot {
        // A self link is answered but not stored.
        Some(None) => None,
        Some(found) => found,
        None if first => Some(Slot::Only(end)),
        None => Some(Slot::Last(end)),
    }
}

fn put<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    // Writing into a vector fails only for values serde_json cannot represent, which a
    // `Value` never holds.
    let _ = serde_json::to_writer(&mut *out, v);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn stored_bytes_and_the_answer_from_them() {
        let objects = [
            json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": "a", "uid": "u", "labels": {"z": "<&>"}}, "spec": {"x": [1, 2.5, null]}}),
            json!({"metadata": {"name": "a", "resourceVersion": "7"}, "z": 1}),
            json!({"metadata": {"annotations": {}, "name": "a"}}),
            json!({"metadata": {"uid": "u"}}),
            json!({"metadata": {}}),
            json!({"a": 1, "metadata": {"name": "é\u{2028}\"", "selfLink": "/x", "uid": "u"}}),
            json!({"metadata": {"selfLink": "/x"}}),
            json!({"metadata": "x", "spec": {}}),
            json!({"spec": {}}),
            json!([1]),
        ];
        for obj in objects {
            let enc = encode(&obj);
            // The bytes are the object's JSON without the version and the self link.
            let mut stored = obj.clone();
            if let Some(m) = stored.get_mut("metadata").and_then(Value::as_object_mut) {
                m.remove("resourceVersion");
                m.remove("selfLink");
            }
            assert_eq!(enc.bytes, serde_json::to_vec(&stored).unwrap(), "{obj}");
            // With a version, they are what the object with that version encodes to.
            let has_self_link = obj.pointer("/metadata/selfLink").is_some();
            match enc.with_version(42) {
                Some(answer) => {
                    let mut want = obj.clone();
                    want["metadata"]["resourceVersion"] = json!("42");
                    assert_eq!(answer, serde_json::to_vec(&want).unwrap(), "{obj}");
                }
                None => assert!(
                    has_self_link || !obj.get("metadata").is_some_and(Value::is_object),
                    "{obj}"
                ),
            }
        }
    }

    #[test]
    fn maps_are_written_in_key_order() {
        // The answer is spliced where `resourceVersion` sorts: `serde_json` must keep maps
        // sorted (its `preserve_order` feature off), as the stored bytes assume.
        let v: Value = serde_json::from_str(r#"{"b": 1, "a": 2}"#).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":2,"b":1}"#);
    }
}
