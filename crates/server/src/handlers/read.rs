//! Reads served from the watch cache: an entry in the request version, encoded once per view
//! and kept on the entry; selections decided on what the cache decoded when they can be.
//!
//! Mirrors apiserver `pkg/storage/cacher` (`cacher.go` `GetList`/`Watch` filtering decoded
//! objects with their labels and fields, `caching_object.go` one serialization shared) and the
//! consistent-read rule of `delegator.go`/`cacher.go` (`waitUntilFreshAndBlock`: a read that must
//! see every write waits until the cache has caught up with the storage's revision, and goes to
//! the storage when that takes too long).

use std::sync::Arc;

use serde_json::Value;

use super::selection::Selection;
use crate::api::Api;
use crate::http::status::{ApiError, ApiResult};
use crate::registry::Strategy;
use crate::store::cached::{Decoder, Encoded, Entry, EventType, View};

/// The view `strategy` serves objects under.
pub(super) fn view(strategy: &dyn Strategy) -> View {
    View {
        rules: strategy.rules_revision(),
        version: strategy.info().version.clone(),
    }
}

/// Whether reading through `strategy` converts without a webhook, so that encoding needs no
/// I/O and may run while the cache is read.
pub(super) fn converts_locally(strategy: &dyn Strategy) -> bool {
    matches!(strategy.webhook(), Ok(None))
}

/// An entry read from the storage rather than the cache (decoded here, kept by nobody).
pub(super) fn transient(kv: crdkit_storage::KeyValue) -> Arc<Entry> {
    let object = crdkit_storage::Decode::decode(&Decoder::default(), &kv);
    Arc::new(Entry { kv, object })
}

/// The entry's object in the request version (decoded with the schemas of the version it was
/// written at, converted, decoded with the request version's), as JSON: kept on the entry.
///
/// # Errors
/// A stored value that does not decode (500); the conversion webhook failing.
pub(super) async fn encoded(
    strategy: &dyn Strategy,
    entry: &Entry,
    ty: EventType,
) -> ApiResult<Arc<Encoded>> {
    if let Some(e) = kept(strategy, entry) {
        return Ok(e);
    }
    let mut obj = crate::store::decode(&entry.kv.value, entry.kv.mod_revision)?;
    crate::registry::conversion::to_request(strategy, &mut obj).await?;
    Ok(keep(entry, view(strategy), ty, &obj))
}

/// [`encoded`] for a strategy that [`converts_locally`].
///
/// # Errors
/// As [`encoded`].
pub(super) fn encoded_locally(strategy: &dyn Strategy, entry: &Entry) -> ApiResult<Arc<Encoded>> {
    if let Some(e) = kept(strategy, entry) {
        return Ok(e);
    }
    let mut obj = crate::store::decode(&entry.kv.value, entry.kv.mod_revision)?;
    strategy.decode_stored(&mut obj);
    Ok(keep(entry, view(strategy), EventType::Added, &obj))
}

/// The encoding kept on the entry for `strategy`'s view (asked per watcher and per item:
/// compared in place, no view built).
fn kept(strategy: &dyn Strategy, entry: &Entry) -> Option<Arc<Encoded>> {
    entry
        .object
        .encoded_for(strategy.rules_revision(), &strategy.info().version)
}

fn keep(entry: &Entry, view: View, ty: EventType, obj: &Value) -> Arc<Encoded> {
    let json = serde_json::to_vec(obj).unwrap_or_default();
    let e = Arc::new(Encoded::new(view, ty, &json));
    entry.object.keep(Arc::clone(&e));
    e
}

/// The entry's object in the request version.
///
/// # Errors
/// As [`encoded`].
pub(super) async fn object(strategy: &dyn Strategy, entry: &Entry) -> ApiResult<Value> {
    let e = encoded(strategy, entry, EventType::Added).await?;
    crate::http::decode::json_value(&e.json()).map_err(ApiError::internal)
}

impl Selection {
    /// Whether the selection is decided by what the cache decoded (labels, name, namespace)
    /// for objects read through `strategy`: no other field, and no webhook that could change
    /// labels.
    pub(super) fn decided_by_cache(&self, strategy: &dyn Strategy) -> bool {
        self.field.only(&["metadata.name", "metadata.namespace"]) && converts_locally(strategy)
    }

    /// The key of the one object the selection can select under `prefix` (a `metadata.name`
    /// term, and a namespace given by the path or a term, or none for a cluster-scoped kind):
    /// the watch cache's objects are keyed by it, the index the selection needs.
    pub(super) fn only_key(
        &self,
        strategy: &dyn Strategy,
        namespace: Option<&str>,
    ) -> Option<String> {
        let required = |field: &str| {
            self.field
                .terms
                .iter()
                .find(|t| t.field == field && !t.negated)
                .map(|t| t.value.as_str())
        };
        let name = required("metadata.name")?;
        let info = strategy.info();
        if !info.namespaced {
            return Some(info.key(None, name));
        }
        let ns = namespace.or_else(|| required("metadata.namespace"))?;
        Some(info.key(Some(ns), name))
    }

    /// [`Selection::matches`] on what the cache decoded; see [`Selection::decided_by_cache`].
    pub(super) fn matches_decoded(&self, namespaced: bool, entry: &Entry) -> bool {
        let d = &entry.object;
        (self.label.is_empty() || self.label.matches_with(|k| d.labels.get(k)))
            && (self.field.is_empty()
                || self.field.matches_with(|f| match f {
                    "metadata.name" => Some(d.name.as_str()),
                    "metadata.namespace" if namespaced => Some(d.namespace.as_str()),
                    _ => None,
                }))
    }

    /// Whether the entry is selected, reading its object only when the selection needs it.
    ///
    /// # Errors
    /// As [`encoded`].
    pub(super) async fn selects(&self, strategy: &dyn Strategy, entry: &Entry) -> ApiResult<bool> {
        if self.label.is_empty() && self.field.is_empty() {
            return Ok(true);
        }
        if self.decided_by_cache(strategy) {
            return Ok(self.matches_decoded(strategy.info().namespaced, entry));
        }
        Ok(self.matches(strategy, &object(strategy, entry).await?))
    }

    /// [`Selection::selects`] for a strategy that [`converts_locally`].
    ///
    /// # Errors
    /// As [`encoded`].
    pub(super) fn selects_locally(
        &self,
        strategy: &dyn Strategy,
        entry: &Entry,
    ) -> ApiResult<bool> {
        if self.label.is_empty() && self.field.is_empty() {
            return Ok(true);
        }
        if self.field.only(&["metadata.name", "metadata.namespace"]) {
            return Ok(self.matches_decoded(strategy.info().namespaced, entry));
        }
        let e = encoded_locally(strategy, entry)?;
        let obj = crate::http::decode::json_value(&e.json()).map_err(ApiError::internal)?;
        Ok(self.matches(strategy, &obj))
    }
}

/// Waits until the cache has every write the storage has (a consistent read); `false` when it
/// did not catch up in time (the read goes to the storage).
///
/// # Errors
/// The storage failing to tell its revision.
pub(super) async fn fresh(api: &Api) -> ApiResult<bool> {
    let current = api.objects.current_revision().await?;
    Ok(api.cache.wait_for(current, api.config.fresh_timeout).await)
}

/// Waits until the cache has reached `revision`, as a read that names a resourceVersion must
/// (`watch_cache.go` `waitUntilFreshLocked`).
///
/// # Errors
/// 504 `Too large resource version` when it has not in time.
pub(super) async fn reached(api: &Api, revision: u64) -> ApiResult<()> {
    if api.cache.wait_for(revision, api.config.fresh_timeout).await {
        Ok(())
    } else {
        Err(crate::store::too_large(revision, api.cache.revision()))
    }
}
