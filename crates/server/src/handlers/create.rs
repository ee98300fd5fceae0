//! `POST` of a collection: create.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/create.go` and `store.go` `Create`: the body decoded
//! with the URL's kind as default, the namespace checked, `generateName` expanded,
//! `BeforeCreate` (system fields, `PrepareForCreate`, validation), strict field validation,
//! the NamespaceLifecycle check, then the write; 201 with the object.

use std::sync::Arc;

use serde_json::json;

use super::ctx::Ctx;
use super::write::{
    Held, check_namespace, dry_run, field_validation, finalizer_warnings, generate_name, invalid,
    namespace, strict_fields, system_fields_for_create, type_meta,
};
use crate::http::decode::Decoded;
use crate::http::negotiate::Encoding;
use crate::http::response::Resp;
use crate::http::response::content_type;
use crate::http::status::{ApiError, ApiResult};
use crate::object;

pub(super) async fn create(ctx: &mut Ctx, body: Decoded) -> ApiResult<Resp> {
    let manager = super::write::manager(ctx, "CreateOptions")?;
    create_as(ctx, body, Some(&manager)).await
}

/// Creates the object; `manager` records the write in `metadata.managedFields` (`None` for an
/// apply that creates, whose field manager has done it).
pub(super) async fn create_as(
    ctx: &mut Ctx,
    body: Decoded,
    manager: Option<&str>,
) -> ApiResult<Resp> {
    let strategy = Arc::clone(&ctx.strategy);
    let info = strategy.info();
    if ctx.path.subresource.is_some() {
        return Err(ApiError::method_not_allowed());
    }
    if let Some(msg) = strategy.create_refused() {
        let mut e = ApiError::method_not_supported(&info.gr(), "create");
        e.message = msg;
        return Err(e);
    }
    let fv = field_validation(ctx)?;
    let dry = dry_run(ctx)?;
    let mut obj = body.value;
    type_meta(&mut obj, &*strategy)?;
    namespace(&mut obj, ctx)?;
    let generate = object::name(&obj).is_empty()
        && object::meta_str(&obj, "generateName").is_some_and(|g| !g.is_empty());
    let now = crate::clock::now();
    system_fields_for_create(&mut obj, &*strategy, now);
    let converted = strategy.convert_request(&mut obj);
    for attempt in 0..8 {
        if generate {
            let prefix = object::meta_str(&obj, "generateName")
                .unwrap_or("")
                .to_owned();
            object::set_meta(&mut obj, "name", Some(json!(generate_name(&prefix))));
        }
        let name = object::name(&obj).to_owned();
        // Only a generated name is tried again: otherwise the object is moved on, not copied.
        let attempt_obj = if generate {
            obj.clone()
        } else {
            std::mem::take(&mut obj)
        };
        let mut candidate = match manager {
            Some(m) => strategy.field_manager().update_owned(
                None,
                attempt_obj,
                m,
                None,
                &crate::clock::format(now),
            ),
            None => attempt_obj,
        };
        let admitted = strategy.create_converted(&mut candidate, converted.clone())?;
        let held = Held::new(&*strategy, &admitted, &candidate, None);
        strict_fields(ctx, fv, &body.duplicates, &admitted.unknown_fields)?;
        invalid(&*strategy, &name, &admitted)?;
        check_namespace(ctx, &name).await?;
        if !info.group.is_empty() && info.group != "apiextensions.k8s.io" {
            ctx.warnings.extend(finalizer_warnings(&candidate, None));
        }
        if dry {
            return Ok(ctx.respond(201, &candidate));
        }
        let key = info.key(ctx.path.namespace.as_deref(), &name);
        // Written as it is when no conversion is needed: no copy (persist sets its
        // resourceVersion).
        let mut stored = if crate::registry::conversion::stored_as_is(&*strategy, &candidate)? {
            None
        } else {
            let mut stored = candidate.clone();
            crate::registry::conversion::to_storage(&*strategy, &mut stored).await?;
            Some(stored)
        };
        let mut result = match &mut stored {
            Some(stored) => crate::rest::create(&ctx.api, &*strategy, &key, stored).await,
            None => crate::rest::create(&ctx.api, &*strategy, &key, &mut candidate).await,
        };
        // create.go: a write storage refuses as too large goes once more without managedFields.
        if manager.is_some()
            && let Err(e) = &result
            && crate::rest::retry_without_managed_fields(e, stored.as_ref().unwrap_or(&candidate))
        {
            object::set_meta(&mut candidate, "managedFields", None);
            result = match &mut stored {
                Some(stored) => {
                    object::set_meta(stored, "managedFields", None);
                    crate::rest::create(&ctx.api, &*strategy, &key, stored).await
                }
                None => crate::rest::create(&ctx.api, &*strategy, &key, &mut candidate).await,
            };
        }
        match result {
            Ok((rev, encoded)) => {
                held.stored();
                // Stored as it is answered: the stored bytes with the revision are the JSON
                // answer (one encoding per write).
                if stored.is_none()
                    && ctx.encoding() == Encoding::Json
                    && let Some(body) = encoded.with_version(rev)
                {
                    return Ok(ctx.respond_bytes(201, content_type::JSON, body));
                }
                object::set_meta(
                    &mut candidate,
                    "resourceVersion",
                    Some(json!(rev.to_string())),
                );
                return Ok(ctx.respond(201, &candidate));
            }
            // A generated name taken: another try with another suffix.
            Err(e) if e.code == 409 && generate && attempt < 7 => {}
            Err(mut e) => {
                if e.code == 409 && generate {
                    e.message.push_str(
                        ", the server was not able to generate a unique name for the object",
                    );
                }
                return Err(e);
            }
        }
    }
    Err(ApiError::internal("could not generate a unique name"))
}
