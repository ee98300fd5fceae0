//! Applying a strategic merge patch: apimachinery `pkg/util/strategicpatch/patch.go`
//! `StrategicMergeMapPatchUsingLookupPatchMeta` with the server's options (`MergeParallelList`
//! and `IgnoreUnmatchedNulls` both true), which `mergeMap` below mirrors.
//!
//! Layers: `mod` (maps: `$patch`, `null`, recursion) → `order` (`$setElementOrder`) →
//! `list` (`mergeSlice`: merge keys, `$patch` in lists, `$deleteFromPrimitiveList`) →
//! `sort` (Go's ordering of merged lists) → `directives` (`$retainKeys`, directive removal),
//! all over `go_value` (Go's `==`, types and formatting).
//!
//! What differs from Go: Go walks maps in random order, so when one patch breaks several rules
//! the error it reports varies; here keys are taken in the map's order (sorted), and a
//! `$deleteFromPrimitiveList/<field>` is applied before a merge of `<field>` given without
//! `$setElementOrder/<field>` (Go does either; kubectl never sends both). Lookups that Go does
//! by scanning lists are hash lookups here, so no step is quadratic.

mod directives;
mod list;
mod order;
mod sort;

use serde_json::{Map, Value};

use crate::error::PatchError;
use crate::go_value::{GoType, sprint_map, sprint_s};
use crate::meta::{LookupPatchMeta, MERGE, REPLACE};

pub(crate) const DIRECTIVE_MARKER: &str = "$patch";
pub(crate) const DELETE: &str = "delete";
pub(crate) const REPLACE_DIRECTIVE: &str = "replace";
pub(crate) const MERGE_DIRECTIVE: &str = "merge";
pub(crate) const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
pub(crate) const RETAIN_KEYS: &str = "$retainKeys";
pub(crate) const SET_ELEMENT_ORDER: &str = "$setElementOrder";

/// Bounds on the work of one patch, beyond what Go has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How deep maps and lists may nest in the object and the patch (the root object is level
    /// 1). The API server's decoder already stops bodies at 10,000 levels; crdkit's server
    /// stops them at 127, so the default of 200 only guards other callers' stacks.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 200 }
    }
}

/// Applies `patch` to `original` as the API server applies a
/// `application/strategic-merge-patch+json` body, with `schema` at the object's root.
///
/// The result is what Go's `StrategicMergeMapPatch` returns: the API server then decodes it into
/// the Go type (`FromUnstructuredWithValidation`), which drops `null`s and, with
/// `fieldValidation=Strict`, rejects unknown fields (422 `patch: Invalid value: ...`); a caller
/// does the same with the kind's schema.
///
/// # Errors
/// The [`PatchError`] Go returns; see [`PatchError::code`] for the API server's answer.
pub fn strategic_merge_patch<S: LookupPatchMeta>(
    original: Map<String, Value>,
    patch: Map<String, Value>,
    schema: &S,
    limits: Limits,
) -> Result<Map<String, Value>, PatchError> {
    merge_map(limits, original, patch, schema, 1)
}

/// The patch map of a decoded request body, as the API server's decoder (`json.Unmarshal` into
/// a `map[string]interface{}`) reads it: `null` is an empty patch.
///
/// # Errors
/// [`PatchError::NotAnObject`] (400) for an array, a string, a number or a bool.
pub fn patch_map(body: Value) -> Result<Map<String, Value>, PatchError> {
    let kind = match body {
        Value::Object(map) => return Ok(map),
        Value::Null => return Ok(Map::new()),
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
    };
    Err(PatchError::NotAnObject { kind })
}

/// Fails when `depth` is past the limit.
pub(crate) fn check_depth(limits: Limits, depth: usize) -> Result<(), PatchError> {
    if depth > limits.max_depth {
        return Err(PatchError::TooDeep {
            limit: limits.max_depth,
        });
    }
    Ok(())
}

/// Go's `mergeMap`.
pub(crate) fn merge_map<S: LookupPatchMeta>(
    limits: Limits,
    mut original: Map<String, Value>,
    mut patch: Map<String, Value>,
    schema: &S,
    depth: usize,
) -> Result<Map<String, Value>, PatchError> {
    check_depth(limits, depth)?;
    if let Some(directive) = patch.get(DIRECTIVE_MARKER) {
        return match directive.as_str() {
            Some(REPLACE_DIRECTIVE) => {
                patch.remove(DIRECTIVE_MARKER);
                Ok(patch)
            }
            Some(DELETE) => Ok(Map::new()),
            _ => Err(PatchError::BadPatchType {
                directive: sprint_s(directive),
                map: sprint_map(&patch),
            }),
        };
    }
    directives::retain_keys(&mut original, &mut patch)?;
    order::set_element_order(limits, &mut original, &mut patch, schema, depth)?;

    for (key, patch_v) in patch {
        let (key, is_delete_list) = match key.strip_prefix(DELETE_FROM_PRIMITIVE_LIST) {
            Some(_) => {
                let field = directives::extract_key(&key, DELETE_FROM_PRIMITIVE_LIST)?;
                // Go keeps the whole key when nothing follows the slash.
                (if field.is_empty() { key } else { field }, true)
            }
            None => (key, false),
        };
        if patch_v.is_null() {
            original.remove(&key);
            continue;
        }
        let same_type = match original.get(&key) {
            None => false,
            Some(o) => GoType::of(o) == GoType::of(&patch_v),
        };
        if !same_type {
            // Absent from the object, or of another type: the patch's value, cleaned.
            if !is_delete_list {
                let mut v = patch_v;
                directives::discard_nulls(limits, &mut v, depth + 1)?;
                match directives::remove_directives(limits, v, depth + 1)? {
                    Some(v) => original.insert(key, v),
                    None => original.remove(&key),
                };
            }
            continue;
        }
        let slot = original.get_mut(&key).expect("checked above");
        match (slot, patch_v) {
            (Value::Object(o), Value::Object(p)) => {
                let (sub, meta) = schema.lookup_struct(&key)?;
                let (_, strategy) = meta.strategy()?;
                let o = std::mem::take(o);
                let merged = if strategy == REPLACE {
                    p
                } else {
                    merge_map(limits, o, p, &sub, depth + 1)?
                };
                original.insert(key, Value::Object(merged));
            }
            (Value::Array(o), Value::Array(p)) => {
                let (sub, meta) = schema.lookup_slice(&key)?;
                let (_, strategy) = meta.strategy()?;
                let o = std::mem::take(o);
                // Delete lists are applied whatever the field's strategy.
                let merged = if strategy == MERGE || is_delete_list {
                    list::merge_slice(
                        limits,
                        o,
                        p,
                        &sub,
                        &meta.merge_key,
                        is_delete_list,
                        depth + 1,
                    )?
                    .merged
                } else {
                    p
                };
                original.insert(key, Value::Array(merged));
            }
            // Two scalars of one Go type: the patch's value (directives cannot hide in it).
            (slot, p) => *slot = p,
        }
    }
    Ok(original)
}
