//! Objects over the storage trait: JSON values in, JSON values out, `resourceVersion` being the
//! key's mod revision, and storage errors turned into the API server's Status errors.
//!
//! Mirrors apiserver `pkg/storage/etcd3/store.go` (the versioner: `resourceVersion` is cleared
//! before an object is written and set from the mod revision when it is read; a deleted object
//! carries the revision of its deletion) and `pkg/storage/errors.go` →
//! `pkg/registry/generic/registry/store.go` `interpretGetError`/`interpretUpdateError`
//! (`NotFound`, `AlreadyExists`, `Conflict`, 410 `Expired` for a compacted revision, 504 for a
//! revision the store has not reached).

pub mod cached;
mod encode;
pub(crate) mod head;

use std::sync::Arc;

use bytes::Bytes;
use crdkit_storage::{Error as StorageError, KeyValue, ListOptions, ListResult, Revision, Storage};
use serde_json::Value;

use crate::http::status::{ApiError, ApiResult, Cause, Details, GroupResource};
use crate::object;

pub use encode::Encoded;

/// An object read from storage, with its `resourceVersion` set.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The object, as stored (storage version), `metadata.resourceVersion` set.
    pub value: Value,
    /// Its mod revision.
    pub revision: Revision,
}

/// Whether two objects are stored as the same bytes (equal but for `resourceVersion` and
/// `selfLink`), without encoding them.
#[must_use]
pub fn same_stored(a: &Value, b: &Value) -> bool {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return a == b;
    };
    a.len() == b.len()
        && a.iter().all(|(k, v)| match (k.as_str(), v, b.get(k)) {
            ("metadata", Value::Object(ma), Some(Value::Object(mb))) => kept(ma).eq(kept(mb)),
            (_, v, Some(w)) => v == w,
            (_, _, None) => false,
        })
}

/// The fields of `metadata` that are stored.
fn kept(meta: &serde_json::Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    meta.iter()
        .filter(|(k, _)| !matches!(k.as_str(), "resourceVersion" | "selfLink"))
}

/// An object from stored bytes, its `resourceVersion` set to `revision`: anything accepted for
/// storage decodes (the same depth limit as request bodies).
///
/// # Errors
/// Bytes that are not a JSON object (a damaged store): 500.
pub fn decode(bytes: &[u8], revision: Revision) -> ApiResult<Value> {
    let mut v = crate::http::decode::json_value(bytes)
        .map_err(|e| ApiError::internal(format!("stored object does not decode: {e}")))?;
    if !v.is_object() {
        return Err(ApiError::internal("stored object is not a JSON object"));
    }
    object::set_meta(
        &mut v,
        "resourceVersion",
        Some(Value::String(revision.to_string())),
    );
    Ok(v)
}

fn stored(kv: &KeyValue) -> ApiResult<Stored> {
    Ok(Stored {
        value: decode(&kv.value, kv.mod_revision)?,
        revision: kv.mod_revision,
    })
}

/// A storage error as the API server reports it for `gr`/`name`.
#[must_use]
pub fn error(e: StorageError, gr: &GroupResource, name: &str) -> ApiError {
    match e {
        StorageError::NotFound { .. } => ApiError::not_found(gr, name),
        StorageError::AlreadyExists { .. } => ApiError::already_exists(gr, name),
        StorageError::Conflict { .. } => ApiError::modified(gr, name),
        StorageError::Compacted {
            requested,
            compacted,
        } => expired(requested, compacted),
        StorageError::FutureRevision { requested, current } => too_large(requested, current),
        other => ApiError::internal(other),
    }
}

/// 410 `too old resource version: <rv> (<oldest>)`.
#[must_use]
pub fn expired(requested: Revision, compacted: Revision) -> ApiError {
    ApiError::expired(format!(
        "too old resource version: {requested} ({compacted})"
    ))
}

/// 504 `Too large resource version` (`NewTooLargeResourceVersionError`).
#[must_use]
pub fn too_large(requested: Revision, current: Revision) -> ApiError {
    let mut e = ApiError::timeout(&format!(
        "Too large resource version: {requested}, current: {current}"
    ));
    e.details = Some(Box::new(Details {
        causes: vec![Cause {
            reason: "ResourceVersionTooLarge".to_owned(),
            message: "Too large resource version".to_owned(),
            field: String::new(),
        }],
        retry_after_seconds: 1,
        ..Details::default()
    }));
    e
}

/// A `resourceVersion` parameter as the storage reads it (`APIObjectVersioner.ParseResourceVersion`):
/// `""` and `"0"` are 0, anything else a decimal `uint64` (`strconv.ParseUint`: digits only, no
/// sign).
///
/// # Errors
/// The field error the storage's `InvalidError` carries, as text; each caller wraps it as the API
/// server does for its verb (GET and WATCH pass the storage's `InvalidError` on as it is,
/// [`ApiError::not_a_status`]; LIST makes it a 400).
pub fn parse_resource_version(s: &str) -> Result<Revision, String> {
    if s.is_empty() || s == "0" {
        return Ok(0);
    }
    let why = if !s.bytes().all(|b| b.is_ascii_digit()) {
        "invalid syntax"
    } else if let Ok(n) = s.parse() {
        return Ok(n);
    } else {
        "value out of range"
    };
    let q = crdkit_apimachinery::gofmt::quote(s);
    Err(format!(
        "resourceVersion: Invalid value: {q}: strconv.ParseUint: parsing {q}: {why}"
    ))
}

/// 500 `etcdserver: request is too large`: etcd's `ErrRequestTooLarge`, which kube-apiserver
/// passes on as an error that is not a Status (`responsewriters.ErrorToAPIStatus`: code 500, no
/// reason, the error's text).
#[must_use]
pub fn request_too_large() -> ApiError {
    ApiError::not_a_status("etcdserver: request is too large".to_owned())
}

/// Whether `e` is [`request_too_large`] (apiserver `rest.go` `isTooLargeError`).
#[must_use]
pub fn is_request_too_large(e: &ApiError) -> bool {
    e.code == 500 && e.reason.is_empty() && e.message == "etcdserver: request is too large"
}

/// Objects over a storage backend.
#[derive(Clone)]
pub struct Objects {
    storage: Arc<dyn Storage>,
    max_object_bytes: usize,
    /// Where writes leave the heads of what they store for the watch cache, when storage
    /// hands the cache the bytes written ([`cached::Hints`]).
    hints: Option<Arc<cached::Hints>>,
}

impl Objects {
    /// Objects in `storage`, each at most `max_object_bytes` encoded with its key (etcd
    /// measures the whole request; its key and value are what grows).
    #[must_use]
    pub fn new(storage: Arc<dyn Storage>, max_object_bytes: usize) -> Objects {
        Objects {
            storage,
            max_object_bytes,
            hints: None,
        }
    }

    /// Writes leave the heads of what they store in `hints` (for a storage that
    /// [shares values](Storage::shares_values)).
    #[must_use]
    pub fn with_hints(mut self, hints: Arc<cached::Hints>) -> Objects {
        self.hints = Some(hints);
        self
    }

    /// The encoding of `obj` to write at `key`, within the size limit.
    fn encode_within(&self, key: &str, obj: &Value) -> ApiResult<Encoded> {
        let encoded = encode::encode(obj);
        if encoded.bytes.len().saturating_add(key.len()) > self.max_object_bytes {
            return Err(request_too_large());
        }
        // Before the write: the cache may see its event before the write returns.
        if let Some(hints) = &self.hints {
            hints.put(&encoded.bytes, obj);
        }
        Ok(encoded)
    }

    /// The outcome of writing `bytes` (kept only when hints are left): a failed write takes
    /// back the hint it left.
    fn written<T>(
        &self,
        result: crdkit_storage::Result<T>,
        bytes: Option<&Bytes>,
    ) -> crdkit_storage::Result<T> {
        if result.is_err()
            && let (Some(hints), Some(bytes)) = (&self.hints, bytes)
        {
            hints.forget(bytes);
        }
        result
    }

    /// The backend.
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    /// The object at `key`.
    ///
    /// # Errors
    /// 404 when absent.
    pub async fn get(&self, key: &str, gr: &GroupResource, name: &str) -> ApiResult<Stored> {
        let kv = self
            .storage
            .get(key)
            .await
            .map_err(|e| error(e, gr, name))?;
        stored(&kv)
    }

    /// The stored key-value at `key`.
    ///
    /// # Errors
    /// 404 when absent.
    pub async fn get_kv(&self, key: &str, gr: &GroupResource, name: &str) -> ApiResult<KeyValue> {
        self.storage.get(key).await.map_err(|e| error(e, gr, name))
    }

    /// A page of the stored key-values under `prefix`.
    ///
    /// # Errors
    /// As [`Objects::list`].
    pub async fn list_kv(
        &self,
        prefix: &str,
        options: &ListOptions,
        gr: &GroupResource,
    ) -> ApiResult<ListResult> {
        self.storage
            .list(prefix, options)
            .await
            .map_err(|e| error(e, gr, ""))
    }

    /// A page of the objects under `prefix`.
    ///
    /// # Errors
    /// 410 for a compacted revision, 504 for a future one.
    pub async fn list(
        &self,
        prefix: &str,
        options: &ListOptions,
        gr: &GroupResource,
    ) -> ApiResult<(Vec<Stored>, ListResult)> {
        let result = self
            .storage
            .list(prefix, options)
            .await
            .map_err(|e| error(e, gr, ""))?;
        let items = result.items.iter().map(stored).collect::<ApiResult<_>>()?;
        Ok((items, result))
    }

    /// Creates `key`; returns the new revision and the bytes written.
    ///
    /// # Errors
    /// 409 when the key exists.
    pub async fn create(
        &self,
        key: &str,
        obj: &Value,
        gr: &GroupResource,
        name: &str,
    ) -> ApiResult<(Revision, Encoded)> {
        let encoded = self.encode_within(key, obj)?;
        let kv = self.storage.create(key, encoded.bytes.clone()).await;
        let kv = self
            .written(kv, Some(&encoded.bytes))
            .map_err(|e| error(e, gr, name))?;
        Ok((kv.mod_revision, encoded))
    }

    /// Replaces `key` if its revision is still `expected`; returns the new revision.
    ///
    /// # Errors
    /// 404 when gone, 409 when modified since.
    pub async fn update(
        &self,
        key: &str,
        obj: &Value,
        expected: Revision,
        gr: &GroupResource,
        name: &str,
    ) -> ApiResult<Revision> {
        let bytes = self.encode_within(key, obj)?.bytes;
        // A second handle on the bytes only to take a hint back.
        let kept = self.hints.is_some().then(|| bytes.clone());
        let kv = self.storage.update(key, bytes, expected).await;
        let kv = self
            .written(kv, kept.as_ref())
            .map_err(|e| error(e, gr, name))?;
        Ok(kv.mod_revision)
    }

    /// Deletes `key` if its revision is still `expected`; returns the deleted object with the
    /// revision of the delete as its `resourceVersion`.
    ///
    /// # Errors
    /// 404 when gone, 409 when modified since.
    pub async fn delete(
        &self,
        key: &str,
        expected: Option<Revision>,
        gr: &GroupResource,
        name: &str,
    ) -> ApiResult<Stored> {
        let d = self
            .storage
            .delete(key, expected)
            .await
            .map_err(|e| error(e, gr, name))?;
        Ok(Stored {
            value: decode(&d.prev.value, d.revision)?,
            revision: d.revision,
        })
    }

    /// The store's latest revision.
    ///
    /// # Errors
    /// A backend failure.
    pub async fn current_revision(&self) -> ApiResult<Revision> {
        self.storage
            .current_revision()
            .await
            .map_err(ApiError::internal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resource_version_is_not_stored() {
        let encode = |obj: &Value| encode::encode(obj).bytes;
        let b =
            encode(&json!({"metadata": {"name": "a", "resourceVersion": "5", "selfLink": "/x"}}));
        assert_eq!(&b[..], br#"{"metadata":{"name":"a"}}"#);
        // The same bytes as the object without them.
        let obj = json!({"b": [1, {"c": null}], "metadata": {"labels": {"x": "y"}, "name": "a", "resourceVersion": "1"}, "a": "s"});
        let mut stripped = obj.clone();
        stripped["metadata"]
            .as_object_mut()
            .unwrap()
            .remove("resourceVersion");
        assert_eq!(encode(&obj), serde_json::to_vec(&stripped).unwrap());
        assert!(same_stored(&obj, &stripped));
        stripped["metadata"]["selfLink"] = json!("/x");
        assert!(same_stored(&obj, &stripped));
        stripped["metadata"]["name"] = json!("b");
        assert!(!same_stored(&obj, &stripped));
        assert!(!same_stored(
            &json!({"metadata": {}}),
            &json!({"metadata": null})
        ));
        let v = decode(&b, 9).unwrap();
        assert_eq!(v["metadata"]["resourceVersion"], "9");
        assert_eq!(decode(b"[1]", 1).unwrap_err().code, 500);
    }

    /// A write that storage refuses takes back the hint it left for the watch cache.
    #[tokio::test]
    async fn failed_writes_leave_no_hints() {
        let hints = Arc::new(cached::Hints::default());
        let storage: Arc<dyn Storage> = Arc::new(crdkit_storage::MemoryStorage::new());
        let objects = Objects::new(storage, 1 << 20).with_hints(Arc::clone(&hints));
        let gr = GroupResource::new("", "configmaps");
        let obj = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
        let (rev, _) = objects
            .create("/registry/configmaps/a", &obj, &gr, "a")
            .await
            .unwrap();
        assert_eq!(hints.len(), 1);
        assert_eq!(
            objects
                .create("/registry/configmaps/a", &obj, &gr, "a")
                .await
                .unwrap_err()
                .code,
            409
        );
        let stale = rev + 5;
        let e = objects
            .update("/registry/configmaps/a", &obj, stale, &gr, "a")
            .await;
        assert_eq!(e.unwrap_err().code, 409);
        assert_eq!(hints.len(), 1);
    }

    /// `strconv.ParseUint(s, 10, 64)`'s answers, as `field.Invalid` wraps them.
    #[test]
    fn resource_versions_parse_as_the_storage_parses_them() {
        for (s, n) in [
            ("", 0),
            ("0", 0),
            ("00", 0),
            ("17", 17),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(parse_resource_version(s), Ok(n), "{s}");
        }
        for (s, why) in [
            ("+5", "invalid syntax"),
            ("-1", "invalid syntax"),
            ("1_0", "invalid syntax"),
            (" 1", "invalid syntax"),
            ("abc", "invalid syntax"),
            ("18446744073709551616", "value out of range"),
        ] {
            let e = parse_resource_version(s).unwrap_err();
            assert_eq!(
                e,
                format!(
                    "resourceVersion: Invalid value: \"{s}\": strconv.ParseUint: parsing \"{s}\": {why}"
                )
            );
        }
        assert_eq!(
            parse_resource_version("é\n").unwrap_err(),
            "resourceVersion: Invalid value: \"é\\n\": strconv.ParseUint: parsing \"é\\n\": invalid syntax"
        );
        let e = ApiError::not_a_status("m".to_owned());
        assert_eq!((e.code, e.reason), (500, ""));
    }

    #[test]
    fn storage_errors_map_to_statuses() {
        let gr = GroupResource::new("stable.example.com", "crontabs");
        let e = error(
            StorageError::Compacted {
                requested: 3,
                compacted: 10,
            },
            &gr,
            "",
        );
        assert_eq!((e.code, e.reason), (410, "Expired"));
        assert_eq!(e.message, "too old resource version: 3 (10)");
        let e = error(
            StorageError::Conflict {
                key: "k".into(),
                expected: 1,
                current_revision: 2,
            },
            &gr,
            "x",
        );
        assert_eq!(e.code, 409);
        let e = too_large(9, 3);
        assert_eq!(e.code, 504);
        // client-java recovers from this text by a pattern.
        assert_eq!(
            e.message,
            "Timeout: Too large resource version: 9, current: 3"
        );
    }
}
