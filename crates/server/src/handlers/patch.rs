//! `PATCH` of an object, its status or its scale: JSON merge patch, JSON patch and strategic
//! merge patch.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/patch.go`: the patch applied to the current object
//! on every try of the update (so a lost race is retried unless the patch names a
//! resourceVersion), strict field validation of the result, and the media types: strategic
//! merge patch only for built-in kinds (custom resources answer 415), with the patch strategies
//! and merge keys of the kind's published schema (a Scale's of `autoscaling/v1`); server-side
//! apply goes to [`super::apply`]. A result nested deeper than [`crate::deep::MAX_DEPTH`] is refused
//! as `jsonPatcher.applyPatchToCurrentObject` refuses a result that does not decode: 422,
//! `patch: Invalid value: "<the result>": <why>`; so is an unknown or duplicate field under
//! `fieldValidation=Strict` (see [`Strictness::Patch`]).

use bytes::Bytes;
use crdkit_apimachinery::strict;
use http::header;
use serde_json::Value;

use super::ctx::Ctx;
use super::guaranteed::{Strictness, Target, update_object_as};
use super::update::scale_update;
use crate::deep;
use crate::engine::{BadValue, FieldError, FieldPath};
use crate::http::decode;
use crate::http::negotiate::{self, BodyType};
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult};
use crate::object;
use crate::patch as patches;

/// The kinds of patch served.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Merge,
    Json,
    Strategic,
}

pub(super) async fn patch(ctx: &mut Ctx, raw: &Bytes) -> ApiResult<Resp> {
    let ct = ctx
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let builtin = ctx.strategy.builtin();
    let kind = match negotiate::body_type(ct) {
        BodyType::MergePatch => Kind::Merge,
        BodyType::JsonPatch => Kind::Json,
        BodyType::StrategicMergePatch if builtin => Kind::Strategic,
        BodyType::ApplyPatch => return super::apply::apply(ctx, raw).await,
        _ => {
            return Err(ApiError::unsupported_media_type(&[
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/apply-patch+yaml",
            ]));
        }
    };
    let decoded = match decode::json(raw) {
        Ok(d) => d,
        Err(e) if kind == Kind::Json => return Err(e),
        Err(_) => return Err(ApiError::bad_request("Invalid JSON Patch")),
    };
    let patch = decoded.value;
    let max_copy = ctx.api.config.json_patch_max_copy_bytes;
    let info = ctx.strategy.info().clone();
    let scale = ctx.path.subresource.as_deref() == Some("scale");
    // Go's panic page, answered instead of a `Status`.
    let panicked = std::sync::atomic::AtomicBool::new(false);
    let apply = |target: &Value| -> ApiResult<Value> {
        let result = match kind {
            // patch.go: an operation that does not apply is `NewGenericServerResponse(422, …)`,
            // whose message drops evanphx's text.
            Kind::Json => patches::json_patch(target.clone(), &patch, max_copy).map_err(|e| {
                if e.code == 422 {
                    ApiError::unprocessable(
                        "the server rejected our request due to an error in our request",
                    )
                } else {
                    e
                }
            }),
            Kind::Merge => patches::apply_merge(target.clone(), &patch),
            Kind::Strategic => {
                let (group, version, kind) = if scale {
                    ("autoscaling", "v1", "Scale")
                } else {
                    (
                        info.group.as_str(),
                        info.version.as_str(),
                        info.kind.as_str(),
                    )
                };
                let served = (info.group.as_str(), info.version.as_str());
                patches::strategic(target.clone(), &patch, served, (group, version, kind)).map_err(
                    |e| match e {
                        patches::StrategicError::Status(e) => e,
                        patches::StrategicError::Panic => {
                            panicked.store(true, std::sync::atomic::Ordering::Relaxed);
                            ApiError::internal("panic")
                        }
                    },
                )
            }
        }?;
        match deep::check(&result, deep::MAX_DEPTH) {
            Ok(()) => Ok(result),
            Err(e) => Err(too_deep(result, e)),
        }
    };
    // The text of a strict refusal: the patched object's JSON (`patchedObjJS`), or for a
    // strategic merge patch Go's `%+v` of the patch (`applyPatchToObject`).
    let render = |patched: &Value, old: &Value| -> String {
        if kind == Kind::Strategic {
            return crdkit_apimachinery::gofmt::sprint(&patch);
        }
        if object::resource_version(patched).is_empty() {
            // The patch result carried the current resourceVersion before it was dropped.
            let mut patched = patched.clone();
            let rv = object::resource_version(old).to_owned();
            object::set_meta(&mut patched, "resourceVersion", Some(Value::from(rv)));
            return crdkit_apimachinery::gofmt::json(&patched);
        }
        crdkit_apimachinery::gofmt::json(patched)
    };
    let found = match kind {
        Kind::Json => json_patch_strict_errors(&patch, &decoded.duplicates),
        _ => decoded
            .duplicates
            .iter()
            .map(|d| strict::duplicate_field(d))
            .collect(),
    };
    let strict = Strictness::Patch(&found, &render);
    let result = patch_with(ctx, strict, apply).await;
    if panicked.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(crate::http::response::bytes(
            500,
            "text/plain; charset=utf-8",
            Bytes::from_static(crdkit_patch::PANIC_BODY.as_bytes()),
        ));
    }
    result
}

/// The update of the object, its status or its scale with `apply` run on the current state.
async fn patch_with(
    ctx: &mut Ctx,
    strict: Strictness<'_>,
    apply: impl Fn(&Value) -> ApiResult<Value>,
) -> ApiResult<Resp> {
    // Whether the patch itself names a resourceVersion (then a precondition).
    let names_rv = |patched: &Value, old: &Value| {
        object::resource_version(patched) != object::resource_version(old)
    };
    match ctx.path.subresource.as_deref() {
        Some("scale") => {
            scale_update(ctx, Value::Null, |s| {
                *s = apply(s)?;
                Ok(())
            })
            .await
        }
        sub => {
            let target = if sub == Some("status") {
                Target::Status
            } else {
                Target::Main
            };
            let manager = super::write::manager(ctx, "PatchOptions")?;
            let updated = update_object_as(ctx, target, strict, true, Some(&manager), |old| {
                let mut new = apply(old)?;
                if !new.is_object() {
                    return Err(ApiError::bad_request(
                        "the patched object is not a JSON object",
                    ));
                }
                if !names_rv(&new, old) {
                    // Patched from the current object: retried on conflict.
                    object::set_meta(&mut new, "resourceVersion", None);
                }
                Ok(new)
            })
            .await?;
            Ok(ctx.respond(200, &updated.object))
        }
    }
}

/// The strict errors of a JSON patch decoded as a list of `{op, path, from, value}` (patch.go
/// `applyJSPatch`: each prefixed `json patch `), an operation's in the order of the list, its
/// duplicates before its unknown fields.
fn json_patch_strict_errors(patch: &Value, duplicates: &[String]) -> Vec<String> {
    let Value::Array(ops) = patch else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let at = format!("[{i}]");
        for d in duplicates {
            if d.strip_prefix(at.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            {
                found.push(format!("json patch {}", strict::duplicate_field(d)));
            }
        }
        if let Value::Object(fields) = op {
            for key in fields.keys() {
                if !matches!(key.as_str(), "op" | "path" | "from" | "value") {
                    let field = format!("{at}.{key}");
                    found.push(format!("json patch {}", strict::unknown_field(&field)));
                }
            }
        }
    }
    found
}

/// The 422 of a patch result that does not decode for being too deep (the decoder's error as
/// `runtime.DecodeInto` reports it); the result is dropped without recursion.
fn too_deep(result: Value, e: deep::TooDeep) -> ApiError {
    let text = deep::to_json(&result);
    deep::dismantle(result);
    ApiError::invalid(
        "",
        "",
        "",
        &[FieldError::invalid(
            &FieldPath::new("patch"),
            BadValue::String(text),
            format!("couldn't get version/kind; json parse error: {e}"),
        )],
    )
}
