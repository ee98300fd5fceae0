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
//! How: the whole object is validated once. Then, top-down along correlated children, every
//! unchanged child that some error may come from is validated on its own, and the errors it
//! raises (renamed to full paths) are removed.

use std::collections::HashSet;

use serde_json::Value;

use super::openapi::OpenApi;
use crate::compiled::errors::{OpenApiError, to_field_errors};
use crate::compiled::{Additional, Node};
use crate::ratchet::Correlated;
use crdkit_apimachinery::field::{FieldError, FieldPath, go_quote};

/// `ValidateCustomResourceUpdate` with ratcheting: the OpenAPI errors of `correlation.new`
/// (validated against `root`) that are not ratcheted.
pub(crate) fn ratcheted_openapi(root: &Node, correlation: &Correlated<'_>) -> Vec<FieldError> {
    ratcheted_openapi_at(root, correlation, &FieldPath::nil())
}

/// [`ratcheted_openapi`] of a value validated on its own (kube-openapi names relative to it)
/// whose field errors are reported under `base`, as the status subresource validates `status`.
pub(crate) fn ratcheted_openapi_at(
    root: &Node,
    correlation: &Correlated<'_>,
    base: &FieldPath,
) -> Vec<FieldError> {
    let mut v = OpenApi::new();
    v.validate(root, correlation.new);
    let mut errors = v.errors;
    if !errors.is_empty() {
        if correlation.cached_deep_equal() {
            errors.clear();
        } else {
            let mut dropped = HashSet::new();
            collect(root, correlation, "", true, &errors, &mut dropped);
            errors.retain(|e| !dropped.contains(e.message()));
        }
    }
    let mut out = Vec::new();
    to_field_errors(base, errors, &mut out);
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
        let correlation = Correlated::new(new, old, &self.structural);
        ratcheted_openapi(&self.root, &correlation)
    }
}

/// Walks the correlated children of `node` (kube-openapi name `name`), collecting the messages
/// of the errors that unchanged children raise.
fn collect(
    node: &Node,
    correlation: &Correlated<'_>,
    name: &str,
    is_root: bool,
    errors: &[OpenApiError],
    dropped: &mut HashSet<String>,
) {
    match correlation.new {
        Value::Object(map) => {
            for k in map.keys() {
                // apiVersion and kind of the root are validated without ratcheting.
                if is_root && (k == "apiVersion" || k == "kind") {
                    continue;
                }
                let (child, child_name) = if let Some(p) = node.property(k) {
                    let n = if name.is_empty() {
                        k.clone()
                    } else {
                        format!("{name}.{k}")
                    };
                    (p, n)
                } else if let Some(Additional::Schema(a)) = &node.additional {
                    (&**a, format!("{name}.{k}"))
                } else {
                    continue;
                };
                if let Some(c) = correlation.key(k) {
                    visit(child, &c, &child_name, errors, dropped);
                }
            }
        }
        Value::Array(items) => {
            let Some(item) = &node.items else {
                return;
            };
            for i in 0..items.len() {
                if let Some(c) = correlation.index(i) {
                    visit(item, &c, &format!("{name}[{i}]"), errors, dropped);
                }
            }
        }
        _ => {}
    }
}

fn visit(
    node: &Node,
    correlation: &Correlated<'_>,
    name: &str,
    errors: &[OpenApiError],
    dropped: &mut HashSet<String>,
) {
    if !may_mention(errors, name) {
        return;
    }
    if correlation.cached_deep_equal() {
        let mut v = OpenApi::new();
        v.validate(node, correlation.new);
        dropped.extend(v.errors.iter().map(|e| absolute_message(e, name)));
    } else {
        collect(node, correlation, name, false, errors, dropped);
    }
}

/// Whether an error below `name` may be among `errors` (every message names its path).
fn may_mention(errors: &[OpenApiError], name: &str) -> bool {
    let quoted = go_quote(name);
    if quoted.len() != name.len() + 2 {
        return true;
    }
    errors.iter().any(|e| e.message().contains(name))
}

/// The message an error of a validation rooted at `base` has in the whole object's validation.
fn absolute_message(e: &OpenApiError, base: &str) -> String {
    match e {
        OpenApiError::Validation { name, message, .. } => {
            let full = join(base, name);
            if let Some(rest) = message.strip_prefix(name.as_str()) {
                format!("{full}{rest}")
            } else if let Some(rest) = message.strip_prefix("factor MultipleOf declared for ") {
                let rest = rest.strip_prefix(name.as_str()).unwrap_or(rest);
                format!("factor MultipleOf declared for {full}{rest}")
            } else {
                message.clone()
            }
        }
        OpenApiError::Plain(message) => {
            // Junctor messages start with the quoted path; the rest with the path.
            let quoted = go_quote("");
            if let Some(rest) = message.strip_prefix(&quoted) {
                format!("{}{rest}", go_quote(base))
            } else {
                plain_with_path(message, base)
            }
        }
    }
}

/// A plain message of a validation rooted at `base` that starts with a relative path other
/// than the empty one (`"x" must validate ...`, `x exceeds the maximum nesting depth ...`).
fn plain_with_path(message: &str, base: &str) -> String {
    if let Some(inner) = message.strip_prefix('"')
        && let Some(end) = inner.find("\" ")
    {
        let rel = &inner[..end];
        return format!("{}{}", go_quote(&join(base, rel)), &inner[end + 1..]);
    }
    if let Some((rel, rest)) = message.split_once(" exceeds the maximum nesting depth") {
        return format!(
            "{} exceeds the maximum nesting depth{rest}",
            join(base, rel)
        );
    }
    // Range errors of formats: `Checked value must be of type integer with format int32 in x`.
    if message.contains(" value must be of type ")
        && let Some((head, rel)) = message.rsplit_once(" in ")
    {
        return format!("{head} in {}", join(base, rel));
    }
    message.to_owned()
}

/// kube-openapi's path of `rel` (a path relative to a value) under the value at `base`.
fn join(base: &str, rel: &str) -> String {
    if rel.is_empty() {
        base.to_owned()
    } else if rel.starts_with('.') || rel.starts_with('[') || base.is_empty() {
        format!("{base}{rel}")
    } else {
        format!("{base}.{rel}")
    }
}
