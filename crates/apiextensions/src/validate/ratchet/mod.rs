//! Validation ratcheting of the OpenAPI errors of an update.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/validation/ratcheting.go`: kube-openapi
//! validates each property, map value and map-list item that correlates with the old object
//! with its own validator, and drops that validator's errors when the value is unchanged
//! (`CachedDeepEqual`). So an error is dropped exactly when the deepest correlated node whose
//! validator raised it is unchanged. What is not ratcheted follows from that: `required` errors
//! belong to the (changed) parent; errors of `allOf`/`anyOf`/`oneOf`/`not` branches belong to the
//! node with the junctor, however deep the value they name; items of atomic and set lists only
//! ratchet with their whole list; `apiVersion` and `kind` never.
//!
//! How: the new object is validated as on create; an update without errors is done (ratcheting
//! only drops errors), which is the common case and costs a create, no comparison. Otherwise
//! one walk of both objects ([`OpenApi::validate_update`]) goes where those errors are, compares
//! each correlated value on the way with its old value, and validates again what changed.
//!
//! Why not always the walk: an update cannot skip a value before comparing it with the stored
//! one, and on the benchmark object (`benches/validate.rs`) comparing costs about 0.6 of
//! validating, so the walk only pays where validation is costly and there is something to drop.

use serde_json::Value;

use super::openapi::OpenApi;
use crate::compiled::Node;
use crate::compiled::errors::to_field_errors;
use crdkit_apimachinery::field::{FieldError, FieldPath};

#[cfg(test)]
mod reference;

/// `ValidateCustomResourceUpdate` with ratcheting: the OpenAPI errors of `new` (validated
/// against `root`) that are not ratcheted against `old`.
pub(crate) fn ratcheted_openapi(root: &Node, new: &Value, old: &Value) -> Vec<FieldError> {
    ratcheted_openapi_at(root, new, old, &FieldPath::nil())
}

/// [`ratcheted_openapi`] of a value validated on its own (kube-openapi names relative to it)
/// whose field errors are reported under `base`, as the status subresource validates `status`.
pub(crate) fn ratcheted_openapi_at(
    root: &Node,
    new: &Value,
    old: &Value,
    base: &FieldPath,
) -> Vec<FieldError> {
    let mut v = OpenApi::new();
    v.validate(root, new);
    if !v.errors.is_empty() {
        let created = std::mem::take(&mut v.errors);
        v = OpenApi::new();
        v.validate_update(root, new, old, &created);
    }
    let mut out = Vec::new();
    to_field_errors(base, v.errors, &mut out);
    out
}

impl super::CompiledSchema {
    /// OpenAPI validation of an update alone (`ValidateCustomResourceUpdate` with ratcheting):
    /// the errors of [`validate_openapi`](Self::validate_openapi) for `new` that are not on
    /// parts equal to `old`.
    ///
    /// ```
    /// use crdkit_schema::{Structural, Type};
    /// use crdkit_apiextensions::validate::CompiledSchema;
    /// use serde_json::json;
    ///
    /// let mut small = Structural::of_type(Type::Integer);
    /// small.value_validation.maximum = Some(50.0);
    /// let mut root = Structural::of_type(Type::Object);
    /// root.properties.insert("small".into(), small);
    /// root.properties.insert("other".into(), Structural::of_type(Type::String));
    /// let schema = CompiledSchema::new(&root);
    ///
    /// // Still too large, but unchanged: ratcheted.
    /// let old = json!({"small": 500, "other": "a"});
    /// assert!(schema.validate_openapi_update(&json!({"small": 500, "other": "b"}), &old).is_empty());
    /// // Changed: reported.
    /// assert_eq!(schema.validate_openapi_update(&json!({"small": 501}), &old).len(), 1);
    /// ```
    #[must_use]
    pub fn validate_openapi_update(&self, new: &Value, old: &Value) -> Vec<FieldError> {
        ratcheted_openapi(&self.root, new, old)
    }
}
