//! Writes of objects in their storage form: create, compare-and-swap update and delete, each
//! followed by its effect on what is served.
//!
//! The registry of CRDs follows CRD writes made here at once, as the API server's own
//! `crdHandler` sees its informer's event; writes by other replicas on the same storage reach
//! it through the controllers' watch ([`crate::controllers`]).

use crdkit_storage::Revision;
use serde_json::{Value, json};

use crate::api::Api;
use crate::http::status::ApiResult;
use crate::object;
use crate::registry::Strategy;
use crate::store::Stored;

/// Creates `key` from `stored` (the storage version) and sets its `resourceVersion`; returns
/// the new revision.
///
/// # Errors
/// 409 when the key exists; a storage failure.
pub(crate) async fn create(
    api: &Api,
    strategy: &dyn Strategy,
    key: &str,
    stored: &mut Value,
) -> ApiResult<Revision> {
    let name = object::name(stored).to_owned();
    let rev = api
        .objects
        .create(key, stored, &strategy.info().gr(), &name)
        .await?;
    written(api, strategy, stored, rev);
    Ok(rev)
}

/// Replaces `key` with `stored` if its revision is still `expected`, and sets its
/// `resourceVersion`; returns the new revision.
///
/// # Errors
/// 404 when gone, 409 when modified since; a storage failure.
pub(crate) async fn update(
    api: &Api,
    strategy: &dyn Strategy,
    key: &str,
    stored: &mut Value,
    expected: Revision,
) -> ApiResult<Revision> {
    let name = object::name(stored).to_owned();
    let rev = api
        .objects
        .update(key, stored, expected, &strategy.info().gr(), &name)
        .await?;
    written(api, strategy, stored, rev);
    Ok(rev)
}

/// Deletes `key` (named `name`) if its revision is still `expected`; returns the deleted
/// object, its `resourceVersion` the revision of the delete.
///
/// # Errors
/// 404 when gone, 409 when modified since; a storage failure.
pub(crate) async fn delete(
    api: &Api,
    strategy: &dyn Strategy,
    key: &str,
    name: &str,
    expected: Option<Revision>,
) -> ApiResult<Stored> {
    let gone = api
        .objects
        .delete(key, expected, &strategy.info().gr(), name)
        .await?;
    if is_crd(strategy) {
        api.remove_crd(name, gone.revision);
    }
    strategy.deleted(&gone.value);
    Ok(gone)
}

fn written(api: &Api, strategy: &dyn Strategy, stored: &mut Value, rev: Revision) {
    object::set_meta(stored, "resourceVersion", Some(json!(rev.to_string())));
    if is_crd(strategy) {
        api.upsert_crd(stored, rev);
    }
}

fn is_crd(strategy: &dyn Strategy) -> bool {
    let info = strategy.info();
    info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions"
}
