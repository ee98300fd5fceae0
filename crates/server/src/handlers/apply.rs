//! The seam for server-side apply (`application/apply-patch+yaml`), issue 13's.
//!
//! The handler does what apiserver `pkg/endpoints/handlers/patch.go` does around the merge
//! itself: the body decoded as YAML or JSON, `fieldManager` required, `force` read, the object
//! created when it does not exist (apply creates), otherwise the update loop with the current
//! object (validation, strict fields, compare-and-swap, watch events all shared with the other
//! verbs). The merge — structured-merge-diff's field ownership, conflicts and `managedFields` —
//! is an [`ApplyPatch`] given to the server; without one, an apply patch is answered 415, as by
//! an API server with server-side apply disabled.

use bytes::Bytes;

use super::Ctx;
use super::write::{Target, update_object};
use crate::http::decode;
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult};
use crate::object;
use serde_json::Value;

/// Server-side apply's merge: the object after `manager` applies `config` to `live` (`None`:
/// the object does not exist yet). Errors are the Status to answer (409 for conflicts with
/// other managers unless `force`).
pub trait ApplyPatch: Send + Sync {
    /// Merges `config` into `live`.
    ///
    /// # Errors
    /// The Status to answer.
    fn apply(
        &self,
        live: Option<&Value>,
        config: &Value,
        manager: &str,
        force: bool,
    ) -> ApiResult<Value>;
}

/// Handles an apply patch with the server's [`ApplyPatch`], or answers 415.
pub(super) async fn apply(ctx: &mut Ctx, raw: &Bytes) -> ApiResult<Resp> {
    let Some(merger) = ctx.api.apply.clone() else {
        return Err(ApiError::unsupported_media_type(&[
            "application/json-patch+json",
            "application/merge-patch+json",
        ]));
    };
    let manager = ctx.query.get("fieldManager").unwrap_or("").to_owned();
    if manager.is_empty() {
        return Err(ApiError::bad_request(
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
        ));
    }
    let force = ctx.query.bool("force")?;
    let config = decode::yaml(raw)?;
    if !config.value.is_object() {
        return Err(ApiError::bad_request(
            "the apply configuration is not an object",
        ));
    }
    let name = ctx.path.name.clone().unwrap_or_default();
    let target = if ctx.path.subresource.as_deref() == Some("status") {
        Target::Status
    } else {
        Target::Main
    };
    let info = ctx.strategy.info().clone();
    let key = info.key(ctx.path.namespace.as_deref(), &name);
    let exists = ctx.api.objects.get(&key, &info.gr(), &name).await.is_ok();
    if !exists && target == Target::Main {
        let mut created = merger.apply(None, &config.value, &manager, force)?;
        match object::name(&created) {
            "" => object::set_meta(&mut created, "name", Some(Value::String(name))),
            n if n != name => {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({n}) does not match the name on the URL ({name})"
                )));
            }
            _ => {}
        }
        return super::create::create(
            ctx,
            decode::Decoded {
                value: created,
                duplicates: config.duplicates,
            },
        )
        .await;
    }
    let updated = update_object(ctx, target, &config.duplicates, true, |live| {
        let mut new = merger.apply(Some(live), &config.value, &manager, force)?;
        if object::resource_version(&config.value).is_empty() {
            object::set_meta(&mut new, "resourceVersion", None);
        }
        Ok(new)
    })
    .await?;
    Ok(ctx.respond(200, &updated.object))
}
