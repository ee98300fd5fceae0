//! `PUT` of an object, its status or its scale.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/update.go` and `store.go` `Update` (through
//! [`update_object`]); the scale path follows apiextensions-apiserver
//! `pkg/registry/customresource/etcd.go` `ScaleREST.Update`.

use serde_json::Value;

use super::ctx::Ctx;
use super::guaranteed::{Target, update_object};
use crate::http::decode::Decoded;
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult};
use crate::object;
use crate::registry::scale;

/// Whether updates without a resourceVersion are allowed (`AllowUnconditionalUpdate`):
/// namespaces only; CRDs and custom resources need one.
pub(super) fn unconditional(ctx: &Ctx) -> bool {
    ctx.strategy.info().group.is_empty()
}

pub(super) async fn update(ctx: &mut Ctx, body: Decoded) -> ApiResult<Resp> {
    let value = body.value;
    let target = match ctx.path.subresource.as_deref() {
        None => Target::Main,
        Some("status") => Target::Status,
        Some("scale") => {
            let obj = scale_update(ctx, value, |_| Ok(())).await?;
            return Ok(obj);
        }
        Some(_) => return Err(ApiError::no_such_resource()),
    };
    let unconditional = unconditional(ctx);
    let manager = super::write::manager(ctx, "UpdateOptions")?;
    let updated = update_object(
        ctx,
        target,
        &body.duplicates,
        unconditional,
        Some(&manager),
        |_old| Ok(value.clone()),
    )
    .await?;
    Ok(ctx.respond(200, &updated.object))
}

/// Writes a Scale's replica count to the object: `scale` is the new Scale, or (for a patch)
/// computed from the current one by `patch`, which edits the current Scale in place.
pub(super) async fn scale_update(
    ctx: &mut Ctx,
    scale_body: Value,
    patch: impl Fn(&mut Value) -> ApiResult<()>,
) -> ApiResult<Resp> {
    let Some(spec) = ctx.strategy.subresources().scale else {
        return Err(ApiError::no_such_resource());
    };
    let name = ctx.path.name.clone().unwrap_or_default();
    let is_patch = scale_body.is_null();
    let options = if is_patch {
        "PatchOptions"
    } else {
        "UpdateOptions"
    };
    let manager = super::write::manager(ctx, options)?;
    let updated = update_object(ctx, Target::Main, &[], true, Some(&manager), |old| {
        let current = scale::scale_of(old, &spec);
        let new_scale = if is_patch {
            let mut s = current.clone();
            patch(&mut s)?;
            s
        } else {
            scale_body.clone()
        };
        let replicas = scale::requested_replicas(&new_scale)
            .map_err(|errs| ApiError::invalid("autoscaling", "Scale", &name, &errs))?;
        let mut new = old.clone();
        scale::set_replicas(&mut new, &spec, replicas);
        // The Scale's resourceVersion is a precondition; without one the update is
        // unconditional (retried against the latest object).
        let rv = object::resource_version(&new_scale);
        let current_rv = object::resource_version(&current);
        if rv.is_empty() || (is_patch && rv == current_rv) {
            object::set_meta(&mut new, "resourceVersion", None);
        } else {
            object::set_meta(
                &mut new,
                "resourceVersion",
                Some(Value::String(rv.to_owned())),
            );
        }
        Ok(new)
    })
    .await?;
    Ok(ctx.respond(200, &scale::scale_of(&updated.object, &spec)))
}
