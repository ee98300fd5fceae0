//! Applying a strategic merge patch: apimachinery `pkg/util/strategicpatch/patch.go`
//! `StrategicMergeMapPatchUsingLookupPatchMeta` with the server's options (`MergeParallelList`
//! and `IgnoreUnmatchedNulls` both true), which `mergeMap` below mirrors.
//!
//! Modules, each using only those after it: `mod` (maps: `$patch`, `null`, the walk and the
//! schema lookups, `$setElementOrder`'s steps) → `order` (`$setElementOrder`'s checks and
//! order) and `list` (`mergeSlice`: merge keys, `$patch` in lists, `$deleteFromPrimitiveList`;
//! items merge through its `MergeItems`, which this module implements) → `sort` (Go's order of
//! merged lists) → `go_sort` (Go's sort) → `directives` (names, `$retainKeys`, directive removal)
//! → `limits`, all over `go_value` (Go's `==`, types and formatting).
//!
//! What differs from Go: Go walks maps in random order, so when one patch breaks several rules
//! the error it reports varies; here keys are taken in the map's order (sorted), and a
//! `$deleteFromPrimitiveList/<field>` is applied before a merge of `<field>` given without
//! `$setElementOrder/<field>` (Go does either; kubectl never sends both). Lookups that Go does
//! by scanning lists are hash lookups here, so no step is quadratic.

mod directives;
mod go_sort;
mod limits;
mod list;
mod order;
mod sort;

use serde_json::{Map, Value};

use self::directives::{
    DELETE, DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE_MARKER, REPLACE_DIRECTIVE, SET_ELEMENT_ORDER,
};
use self::limits::check_depth;
use self::list::{MergeItems, element_type, merge_slice};
use self::order::{bad_arg_type, into_list, list_at, order_merged, validate_patch_order};
use self::sort::OrderTable;
use crate::error::PatchError;
use crate::go_value::{GoType, SLICE_TYPE, sprint_map, sprint_s};
use crate::meta::{LookupPatchMeta, MERGE, REPLACE};

pub use self::limits::Limits;

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
    set_element_order(limits, &mut original, &mut patch, schema, depth)?;

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
                    // The list is one level down, its items two.
                    let items = Items::new(limits, &sub, depth + 2);
                    merge_slice(o, p, &meta.merge_key, is_delete_list, &items)?.merged
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

/// Applies every `$setElementOrder/<field>` of `patch` (and the `<field>` it orders), removing
/// both from `patch`.
fn set_element_order<S: LookupPatchMeta>(
    limits: Limits,
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
    schema: &S,
    depth: usize,
) -> Result<(), PatchError> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER))
        .cloned()
        .collect();
    for key in keys {
        // An earlier directive may have ordered (and removed) a field named like this one.
        let Some(order) = patch.remove(&key) else {
            continue;
        };
        let Value::Array(order) = order else {
            return Err(bad_arg_type(SLICE_TYPE, &order));
        };
        let field = directives::extract_key(&key, SET_ELEMENT_ORDER)?;
        let original_list = list_at(original, &field)?;
        let patch_list = list_at(patch, &field)?;
        let (sub, meta) = schema.lookup_slice(&field)?;
        let (_, strategy) = meta.strategy()?;
        let merge_key = meta.merge_key.as_str();
        validate_patch_order(patch_list.unwrap_or_default(), &order, merge_key)?;
        if original_list.is_none() && patch_list.is_none() {
            continue;
        }
        // Go reads the element type and the object's order after merging, from lists the merge
        // changes only as `SliceMerge::visible` says.
        let kind = element_type(&[
            original_list.unwrap_or_default(),
            patch_list.unwrap_or_default(),
        ]);
        let server_order = kind
            .as_ref()
            .ok()
            .map(|&k| OrderTable::new(original_list.unwrap_or_default(), merge_key, k));

        let original_list = original.remove(&field).map(into_list);
        let patch_list = patch.remove(&field).map(into_list);
        let (merged, visible) = match (original_list, patch_list) {
            (Some(o), None) => (o, None),
            (None, Some(p)) => (
                directives::remove_directives_list(limits, p, depth + 1)?,
                None,
            ),
            (Some(o), Some(p)) if strategy == MERGE => {
                let items = Items::new(limits, &sub, depth + 2);
                let m = merge_slice(o, p, merge_key, false, &items)?;
                (m.merged, m.visible)
            }
            (Some(_), Some(p)) => (p, None),
            (None, None) => unreachable!("checked above"),
        };
        let both = order_merged(merged, &order, merge_key, kind, server_order, visible)?;
        original.insert(field, Value::Array(both));
    }
    Ok(())
}

/// The merge of two items of a list: Go's `mergeMap` with the items' schema, one level down.
struct Items<'a, S> {
    limits: Limits,
    schema: &'a S,
    depth: usize,
}

impl<'a, S: LookupPatchMeta> Items<'a, S> {
    fn new(limits: Limits, schema: &'a S, depth: usize) -> Self {
        Items {
            limits,
            schema,
            depth,
        }
    }
}

impl<S: LookupPatchMeta> MergeItems for Items<'_, S> {
    fn merge(
        &self,
        original: Map<String, Value>,
        patch: Map<String, Value>,
    ) -> Result<Map<String, Value>, PatchError> {
        merge_map(self.limits, original, patch, self.schema, self.depth)
    }

    fn name(&self) -> String {
        self.schema.name()
    }
}
