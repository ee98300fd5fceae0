//! The patch types the API server applies, with their errors as `Status` errors: JSON patch
//! (`json`, here), JSON merge patch and strategic merge patch from crdkit-patch (built-in kinds, with the
//! published OpenAPI's patch strategies and merge keys).
//!
//! Mirrors apiserver `pkg/endpoints/handlers/patch.go` (`applyPatchToObject`,
//! `strategicPatchObject`, `interpretStrategicMergePatchError`).

mod json;

use serde_json::Value;

use crate::http::status::ApiError;

pub use json::apply as json_patch;

/// Applies a decoded merge patch; the patch must be an object to apply to an object.
///
/// # Errors
/// 400 when the patch is not a JSON object (evanphx's `ErrBadJSONPatch` for a document).
pub fn apply_merge(target: Value, patch: &Value) -> Result<Value, ApiError> {
    if !patch.is_object() {
        return Err(ApiError::bad_request("Invalid JSON Patch"));
    }
    Ok(crdkit_patch::merge_patch(target, patch))
}

/// What a strategic merge patch that failed answers.
pub enum StrategicError {
    /// A `Status`.
    Status(ApiError),
    /// Go's panic: a plain-text 500 ([`crdkit_patch::PANIC_BODY`]).
    Panic,
}

/// Applies a strategic merge patch to `target`, an object of the built-in `group/version`
/// `kind`, with the patch strategies and merge keys of its published schema in the document of
/// the resource's group-version `served` (a `/scale` of `apps/v1` patches an
/// `autoscaling/v1` `Scale`, which only `apps/v1`'s document carries).
///
/// # Errors
/// Go's errors with the API server's answers ([`crdkit_patch::PatchError::code`]).
pub fn strategic(
    target: Value,
    patch: &Value,
    served: (&str, &str),
    (group, version, kind): (&str, &str, &str),
) -> Result<Value, StrategicError> {
    let status = |e: &crdkit_patch::PatchError| -> StrategicError {
        if e.is_panic() {
            return StrategicError::Panic;
        }
        StrategicError::Status(match e.code() {
            400 => ApiError::bad_request(e.status_message()),
            422 => ApiError::unprocessable(e.status_message()),
            // `ErrorToAPIStatus` of a plain error: 500 without a reason.
            _ => ApiError {
                list_continue: None,
                code: 500,
                reason: "",
                message: e.status_message(),
                details: None,
            },
        })
    };
    let (Some(schemas), Some(name)) = (
        crdkit_builtin::openapi::components(served.0, served.1),
        crdkit_builtin::openapi::definition_name(group, version, kind),
    ) else {
        return Err(StrategicError::Status(ApiError::internal(format!(
            "no patch metadata for {kind}"
        ))));
    };
    let meta = crdkit_patch::OpenApiPatchMeta::new(schemas, name).map_err(|e| status(&e))?;
    let patch = crdkit_patch::patch_map(patch.clone()).map_err(|e| status(&e))?;
    let Value::Object(target) = target else {
        return Err(StrategicError::Status(ApiError::bad_request(
            "the object to patch is not a JSON object",
        )));
    };
    crdkit_patch::strategic_merge_patch(target, patch, &meta, crdkit_patch::Limits::default())
        .map(Value::Object)
        .map_err(|e| status(&e))
}
