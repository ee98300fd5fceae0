//! `GuaranteedUpdate`: the update loop every change of an existing object goes through (PUT,
//! merge and JSON patches, `/status`, `/scale`, server-side apply).
//!
//! Mirrors apiserver `pkg/registry/generic/registry/store.go` (`Update`: read, build the new
//! object, the resourceVersion precondition, `AllowUnconditionalUpdate`, `BeforeUpdate`, no
//! write when nothing changed, the object deleted when its last finalizer goes, a lost race
//! retried when the client named no resourceVersion) and `pkg/registry/rest/update.go`.

use serde_json::{Value, json};

use super::ctx::Ctx;
use super::write::{
    FieldValidation, Held, dry_run, field_validation, finalizer_errors, finalizer_warnings,
    invalid, namespace, spec_changed, strict_fields, strict_fields_as, system_fields_for_update,
    type_meta,
};
use crate::engine::{BadValue, FieldError, FieldPath, ignore_managed_fields_timestamps};
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::object;
use crate::registry::Converted;

/// Which part of an object an update may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Main,
    Status,
}

/// The outcome of an update.
pub(crate) struct Updated {
    /// The object after the update (request version), resourceVersion set; after the last
    /// finalizer of a deleting object went, the object as it was deleted.
    pub object: Value,
}

/// How strict field validation refuses the new object.
#[derive(Clone, Copy)]
pub(crate) enum Strictness<'a> {
    /// A body (PUT, `/status`): 400 `strict decoding error: …`, its duplicate fields first.
    Body(&'a [String]),
    /// A merge, JSON or strategic merge patch with its strict errors' texts: 422 Invalid
    /// without kind or name, its cause `patch: Invalid value: "<text>": strict decoding
    /// error: …`, the text rendered from the patched object and the current one
    /// (apiserver `pkg/endpoints/handlers/patch.go`: `jsonPatcher.applyPatchToCurrentObject`,
    /// `applyPatchToObject`).
    Patch(&'a [String], &'a (dyn Fn(&Value, &Value) -> String + Sync)),
}

/// `GuaranteedUpdate`: reads the object, builds the new one with `build`, prepares, validates
/// and writes it with compare-and-swap. A lost race is retried when the new object names no
/// resourceVersion (patches of the current object, unconditional updates).
///
/// `manager` records the write in `metadata.managedFields` (an `Update` by that manager);
/// `None` for applies, whose field manager has done it.
pub(crate) async fn update_object(
    ctx: &mut Ctx,
    target: Target,
    duplicates: &[String],
    allow_unconditional: bool,
    manager: Option<&str>,
    build: impl FnMut(&Value) -> ApiResult<Value>,
) -> ApiResult<Updated> {
    let strict = Strictness::Body(duplicates);
    update_object_as(ctx, target, strict, allow_unconditional, manager, build).await
}

/// [`update_object`] with strict field validation answered as `strict` says.
pub(crate) async fn update_object_as(
    ctx: &mut Ctx,
    target: Target,
    strict: Strictness<'_>,
    allow_unconditional: bool,
    manager: Option<&str>,
    mut build: impl FnMut(&Value) -> ApiResult<Value>,
) -> ApiResult<Updated> {
    let strategy = std::sync::Arc::clone(&ctx.strategy);
    let info = strategy.info().clone();
    let gr: GroupResource = info.gr();
    let name = ctx.path.name.clone().unwrap_or_default();
    let key = info.key(ctx.path.namespace.as_deref(), &name);
    let fv = field_validation(ctx)?;
    let dry = dry_run(ctx)?;
    let api = std::sync::Arc::clone(&ctx.api);
    for _ in 0..32 {
        let current = api.objects.get(&key, &gr, &name).await?;
        let mut old = current.value;
        crate::registry::conversion::to_request(&*strategy, &mut old).await?;
        let mut new = build(&old)?;
        // The patched object as the patcher saw it, kept only for a strict refusal's text.
        let patched = match strict {
            Strictness::Patch(..) if fv == FieldValidation::Strict => Some(new.clone()),
            _ => None,
        };
        type_meta(&mut new, &*strategy)?;
        match object::name(&new) {
            "" => object::set_meta(&mut new, "name", Some(json!(name))),
            n if n != name => {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({n}) does not match the name on the URL ({name})"
                )));
            }
            _ => {}
        }
        namespace(&mut new, ctx)?;
        let want_rv = object::resource_version(&new).to_owned();
        let explicit = !want_rv.is_empty();
        if explicit && want_rv != current.revision.to_string() {
            return Err(ApiError::modified(&gr, &name));
        }
        if !explicit && !allow_unconditional {
            // store.go: the qualified kind of this error is the group and the *resource*.
            return Err(ApiError::invalid(
                &info.group,
                &info.resource,
                &name,
                &[FieldError::invalid(
                    &FieldPath::new("metadata").child("resourceVersion"),
                    BadValue::Raw("0x0".to_owned()),
                    "must be specified for an update",
                )],
            ));
        }
        let mut converted = Converted::default();
        if let Some(manager) = manager {
            let subresource = (target == Target::Status).then_some("status");
            let now = crate::clock::format(crate::clock::now());
            converted = strategy.convert_request(&mut new);
            new =
                strategy
                    .field_manager()
                    .update_owned(Some(&old), new, manager, subresource, &now);
        }
        let mut errors = system_fields_for_update(&mut new, &old);
        let mut admitted =
            strategy.update_converted(&mut new, &old, target == Target::Status, converted)?;
        let held = Held::new(&*strategy, &admitted, &new, Some(&old));
        errors.append(&mut admitted.errors);
        errors.extend(finalizer_errors(&new, &old));
        match strict {
            Strictness::Body(duplicates) => {
                strict_fields(ctx, fv, duplicates, &admitted.unknown_fields)?;
            }
            Strictness::Patch(found, render) => {
                let unknown = &admitted.unknown_fields;
                strict_fields_as(ctx, fv, found, unknown, |why| {
                    let text = render(patched.as_ref().unwrap_or(&new), &old);
                    let path = FieldPath::new("patch");
                    let cause = FieldError::invalid(&path, BadValue::String(text), why);
                    ApiError::invalid("", "", "", &[cause])
                })?;
            }
        }
        admitted.errors = errors;
        invalid(&*strategy, &name, &admitted)?;
        if target == Target::Main && strategy.uses_generation() && spec_changed(&new, &old) {
            object::set_meta(
                &mut new,
                "generation",
                Some(json!(object::generation(&old) + 1)),
            );
        }
        if info.group != "apiextensions.k8s.io" && !info.group.is_empty() {
            ctx.warnings.extend(finalizer_warnings(&new, Some(&old)));
        }
        object::set_meta(
            &mut new,
            "resourceVersion",
            Some(json!(current.revision.to_string())),
        );
        // A write that changes nothing but managed fields' times stores nothing.
        let mut new = ignore_managed_fields_timestamps(new, &old);
        if crate::store::same_stored(&new, &old) {
            return Ok(Updated { object: old });
        }
        if dry {
            return Ok(Updated { object: new });
        }
        if object::is_deleting(&new) && !strategy.has_finalizers(&new) {
            match crate::rest::delete(&api, &*strategy, &key, &name, Some(current.revision)).await {
                Ok(d) => {
                    object::set_meta(
                        &mut new,
                        "resourceVersion",
                        Some(json!(d.revision.to_string())),
                    );
                    return Ok(Updated { object: new });
                }
                Err(e) if e.code == 409 && !explicit => continue,
                Err(e) => return Err(e),
            }
        }
        // Written as it is when no conversion is needed: no copy (persist sets its
        // resourceVersion).
        let mut stored = if crate::registry::conversion::stored_as_is(&*strategy, &new)? {
            None
        } else {
            let mut stored = new.clone();
            crate::registry::conversion::to_storage(&*strategy, &mut stored).await?;
            Some(stored)
        };
        let rev = current.revision;
        let mut result = match &mut stored {
            Some(stored) => crate::rest::update(&api, &*strategy, &key, stored, rev).await,
            None => crate::rest::update(&api, &*strategy, &key, &mut new, rev).await,
        };
        // update.go, patch.go: a write storage refuses as too large goes once more without
        // managedFields (not an apply).
        if manager.is_some()
            && let Err(e) = &result
            && crate::rest::retry_without_managed_fields(e, stored.as_ref().unwrap_or(&new))
        {
            object::set_meta(&mut new, "managedFields", None);
            result = match &mut stored {
                Some(stored) => {
                    object::set_meta(stored, "managedFields", None);
                    crate::rest::update(&api, &*strategy, &key, stored, rev).await
                }
                None => crate::rest::update(&api, &*strategy, &key, &mut new, rev).await,
            };
        }
        match result {
            Ok(rev) => {
                held.stored();
                object::set_meta(&mut new, "resourceVersion", Some(json!(rev.to_string())));
                return Ok(Updated { object: new });
            }
            Err(e) if e.code == 409 && !explicit => {}
            Err(e) => return Err(e),
        }
    }
    Err(ApiError::modified(&gr, &name))
}
