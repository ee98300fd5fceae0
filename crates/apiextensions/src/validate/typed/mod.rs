//! Validation of `serde::Serialize` values without building a `serde_json::Value`.
//!
//! [`validate_typed`] serializes the value into a [`serde::Serializer`] that checks it against
//! the compiled schema as it goes, the way [`CompiledSchema::validate`] would check the JSON that
//! `serde_json::to_value` makes of it. Subtrees whose checks need the whole value (junctors,
//! `uniqueItems`, compound enums, embedded resources, set/map lists) are buffered into a `Value`
//! and checked with the JSON validator; everything else is streamed, the root's `metadata`,
//! `apiVersion` and `kind` included (module `meta`).
//!
//! The streaming pass only decides *whether* the value is valid. When it is not, the value is
//! converted to JSON and validated by the JSON path, so that both paths report identical errors
//! (paths, order and all) — the price of an invalid object is one extra conversion.
//!
//! What differs from the JSON path: a map serialized with a repeated key has every occurrence
//! checked (the JSON keeps the last one), so [`is_valid`] may say no where the JSON passes; it
//! never says yes where the JSON fails, except for `minProperties` and `required`, which count
//! the occurrences.

mod check;
mod key;
mod meta;
mod root;

use serde::Serialize;
use serde::ser;

use self::root::RootCheck;
use super::CompiledSchema;
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// Validates `value` as [`CompiledSchema::validate`] validates `serde_json::to_value(value)`.
///
/// ```
/// use crdkit_schema::{Structural, Type};
/// use crdkit_apiextensions::validate::{CompiledSchema, validate_typed};
/// use serde_json::json;
///
/// #[derive(serde::Serialize)]
/// struct Spec { replicas: i64 }
/// #[derive(serde::Serialize)]
/// struct CronTab { metadata: serde_json::Value, spec: Spec }
///
/// let mut replicas = Structural::of_type(Type::Integer);
/// replicas.value_validation.maximum = Some(10.0);
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("replicas".into(), replicas);
/// let mut root = Structural::of_type(Type::Object);
/// root.properties.insert("spec".into(), spec);
/// let schema = CompiledSchema::new(&root);
///
/// let ok = CronTab { metadata: json!({"name": "a"}), spec: Spec { replicas: 1 } };
/// assert!(validate_typed(&ok, &schema).is_empty());
/// let bad = CronTab { metadata: json!({"name": "a"}), spec: Spec { replicas: 15 } };
/// assert_eq!(validate_typed(&bad, &schema).len(), 1);
/// ```
pub fn validate_typed<T: Serialize + ?Sized>(
    value: &T,
    schema: &CompiledSchema,
) -> Vec<FieldError> {
    if is_valid(value, schema) {
        return Vec::new();
    }
    match serde_json::to_value(value) {
        Ok(v) => schema.validate(&v),
        Err(e) => vec![FieldError::internal(&FieldPath::nil(), e)],
    }
}

/// Whether `value` passes every check of [`CompiledSchema::validate`], decided while serializing.
#[must_use]
pub fn is_valid<T: Serialize + ?Sized>(value: &T, schema: &CompiledSchema) -> bool {
    if schema.root.needs_value {
        return serde_json::to_value(value).is_ok_and(|v| schema.validate(&v).is_empty());
    }
    let mut root = RootState::default();
    let check = RootCheck {
        schema,
        state: &mut root,
    };
    if value.serialize(check).is_err() {
        return false;
    }
    let info = &schema.resource;
    // Absent metadata fails too (a name is required).
    root.seen_object
        && (info.kind.is_empty() || root.kind == Some(true))
        && (info.api_version.is_empty() || root.api_version == Some(true))
        && root.metadata == Some(true)
}

/// What the root's `apiVersion`, `kind` and `metadata` turned out to be (the last occurrence
/// counts, as in the JSON).
#[derive(Default)]
struct RootState {
    seen_object: bool,
    /// Whether `kind` equals the resource's.
    kind: Option<bool>,
    /// Whether `apiVersion` equals the resource's.
    api_version: Option<bool>,
    /// Whether `metadata` passes.
    metadata: Option<bool>,
}

/// The error that stops serialization: the value is invalid (or not serializable as JSON).
#[derive(Debug)]
pub struct Invalid;

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid")
    }
}
impl std::error::Error for Invalid {}
impl ser::Error for Invalid {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Invalid
    }
}

type R = Result<(), Invalid>;

fn ok(b: bool) -> R {
    if b { Ok(()) } else { Err(Invalid) }
}
