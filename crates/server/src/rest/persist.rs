//! Writes of objects in their storage form: create, compare-and-swap update and delete, each
//! followed by its effect on what is served.
//!
//! The registry of CRDs follows CRD writes made here at once, as the API server's own
//! `crdHandler` sees its informer's event; writes by other replicas on the same storage reach
//! it through the controllers' watch ([`crate::controllers`]).
//!
//! Every object written is held to the limits of what storage can give back: at most
//! [`MAX_DEPTH`] levels (its fields in `managedFields` nest a level or four deeper than the
//! object) and the encoded size of [`crate::ApiConfig::max_object_bytes`]. A request that
//! meets either only through its `managedFields` is tried once more without them, as
//! apiserver `create.go`, `update.go` and `patch.go` do when etcd refuses a write as too large
//! ([`retry_without_managed_fields`]).

use crdkit_storage::Revision;
use serde_json::{Value, json};

use crate::api::Api;
use crate::deep::{self, MAX_DEPTH};
use crate::engine::{BadValue, FieldError, FieldPath};
use crate::http::status::{ApiError, ApiResult};
use crate::object;
use crate::registry::Strategy;
use crate::store::{self, Encoded, Stored};

/// The detail of an object too deep to store: what decoding it back would fail with.
const TOO_DEEP: &str =
    "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth";

/// 422 for an object that nests deeper than [`MAX_DEPTH`] only once its managed fields are
/// recorded (bodies and patch results were checked before).
fn check_depth(strategy: &dyn Strategy, stored: &Value) -> ApiResult<()> {
    deep::check(stored, MAX_DEPTH).map_err(|_| {
        let info = strategy.info();
        ApiError::invalid(
            &info.group,
            &info.kind,
            object::name(stored),
            &[FieldError::invalid(
                &FieldPath::new("metadata").child("managedFields"),
                BadValue::Omitted,
                TOO_DEEP,
            )],
        )
    })
}

/// Whether a write refused for its size or its depth may be tried again without
/// `metadata.managedFields` (apiserver `isTooLargeError`; never for apply, whose managed fields
/// are its point).
pub(crate) fn retry_without_managed_fields(e: &ApiError, obj: &Value) -> bool {
    let too_deep = e.code == 422
        && e.details
            .as_ref()
            .is_some_and(|d| d.causes.iter().any(|c| c.message.ends_with(TOO_DEEP)));
    (store::is_request_too_large(e) || too_deep)
        && obj
            .get("metadata")
            .and_then(|m| m.get("managedFields"))
            .is_some()
}

/// Creates `key` from `stored` (the storage version) and sets its `resourceVersion`; returns
/// the new revision and the bytes written (which give `stored`'s JSON: [`Encoded::with_version`]).
///
/// # Errors
/// 409 when the key exists; 422 too deep, 500 too large; a storage failure.
pub(crate) async fn create(
    api: &Api,
    strategy: &dyn Strategy,
    key: &str,
    stored: &mut Value,
) -> ApiResult<(Revision, Encoded)> {
    check_depth(strategy, stored)?;
    let name = object::name(stored).to_owned();
    let (rev, encoded) = api
        .objects
        .create(key, stored, &strategy.info().gr(), &name)
        .await?;
    written(api, strategy, stored, rev);
    Ok((rev, encoded))
}

/// Replaces `key` with `stored` if its revision is still `expected`, and sets its
/// `resourceVersion`; returns the new revision.
///
/// # Errors
/// 404 when gone, 409 when modified since; 422 too deep, 500 too large; a storage failure.
pub(crate) async fn update(
    api: &Api,
    strategy: &dyn Strategy,
    key: &str,
    stored: &mut Value,
    expected: Revision,
) -> ApiResult<Revision> {
    check_depth(strategy, stored)?;
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
