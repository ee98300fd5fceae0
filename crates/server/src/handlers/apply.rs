//! Server-side apply (`application/apply-patch+yaml`) through crdkit-apply's field manager.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/patch.go` (`applyPatcher`): the body decoded as YAML
//! or JSON, `fieldManager` required, `force` read, the object created when it does not exist
//! (apply creates, `checkPatchedObject`), otherwise the update loop run with the current
//! object, whose merge — ownership, conflicts, `managedFields` — is the field manager's
//! (`FieldManager.Apply`); validation, strict fields, compare-and-swap and watch events are
//! shared with the other verbs.

use bytes::Bytes;
use serde_json::Value;

use super::ctx::Ctx;
use super::guaranteed::{Target, update_object};
use crate::engine::{check_patched_object, decode_apply_patch_with, validate_field_manager};
use crate::http::decode::Decoded;
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult};
use crate::object;

pub(super) async fn apply(ctx: &mut Ctx, raw: &Bytes) -> ApiResult<Resp> {
    let manager = ctx.query.get("fieldManager").unwrap_or("").to_owned();
    validate_field_manager(&manager, true, "PatchOptions").map_err(|e| ApiError::from_apply(&e))?;
    let force = ctx.query.bool("force")?;
    let options = crate::http::decode::budgeted(ctx.api.config.max_body_bytes);
    let config = decode_apply_patch_with(raw, options).map_err(|e| ApiError::from_apply(&e))?;
    let name = ctx.path.name.clone().unwrap_or_default();
    let (target, subresource) = match ctx.path.subresource.as_deref() {
        None => (Target::Main, None),
        Some("status") => (Target::Status, Some("status")),
        Some(_) => {
            return Err(ApiError::unsupported_media_type(&[
                "application/json-patch+json",
                "application/merge-patch+json",
            ]));
        }
    };
    let fm = ctx.strategy.field_manager();
    let info = ctx.strategy.info().clone();
    let now = crate::clock::format(crate::clock::now());
    let key = info.key(ctx.path.namespace.as_deref(), &name);
    let exists = ctx.api.objects.get(&key, &info.gr(), &name).await.is_ok();
    if !exists && target == Target::Main {
        let mut created = fm
            .apply(None, &config, &manager, force, None, &now)
            .map_err(|e| ApiError::from_apply(&e))?;
        let ns = info
            .namespaced
            .then(|| ctx.path.namespace.clone().unwrap_or_default());
        check_patched_object(
            &mut created,
            &name,
            ns.as_deref(),
            true,
            &info.gr().to_string(),
        )
        .map_err(|e| ApiError::from_apply(&e))?;
        return super::create::create_as(
            ctx,
            Decoded {
                value: created,
                duplicates: Vec::new(),
            },
            None,
        )
        .await;
    }
    let updated = update_object(ctx, target, &[], true, None, |live| {
        let mut new = fm
            .apply(Some(live), &config, &manager, force, subresource, &now)
            .map_err(|e| ApiError::from_apply(&e))?;
        if object::resource_version(&config).is_empty() {
            object::set_meta(&mut new, "resourceVersion", None);
        } else {
            object::set_meta(
                &mut new,
                "resourceVersion",
                Some(Value::String(object::resource_version(&config).to_owned())),
            );
        }
        Ok(new)
    })
    .await?;
    Ok(ctx.respond(200, &updated.object))
}
