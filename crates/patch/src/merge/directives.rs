//! The directives that are not about order: `$retainKeys` (Go's `applyRetainKeysDirective`),
//! the `<prefix>/<field>` keys (`extractKey`), and the cleaning of a patch value that is taken
//! as it is (`removeDirectives`, `discardNullValuesFromPatch`).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::limits::{Limits, check_depth};
use crate::error::PatchError;
use crate::go_value::Key;

pub(super) const DIRECTIVE_MARKER: &str = "$patch";
pub(super) const DELETE: &str = "delete";
pub(super) const REPLACE_DIRECTIVE: &str = "replace";
pub(super) const MERGE_DIRECTIVE: &str = "merge";
pub(super) const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
pub(super) const RETAIN_KEYS: &str = "$retainKeys";
pub(super) const SET_ELEMENT_ORDER: &str = "$setElementOrder";

/// `$retainKeys: [a, b]` in a patch map: every other key of `original` is removed, and every
/// key the patch sets must be listed (`null`s and the list directives aside). Applied whatever
/// the field's strategy says.
pub(super) fn retain_keys(
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
) -> Result<(), PatchError> {
    let Some(list) = patch.remove(RETAIN_KEYS) else {
        return Ok(());
    };
    let Value::Array(list) = list else {
        return Err(PatchError::BadPatchFormatForRetainKeys);
    };
    // Go keeps the list in a map[interface{}]struct{}: a map or a list in it panics.
    let mut keep = HashSet::new();
    for v in &list {
        if let Some(panic) = Key::of(Some(v)).unhashable() {
            return Err(PatchError::Panic(panic));
        }
        if let Value::String(s) = v {
            keep.insert(s.as_str());
        }
    }
    for (k, v) in patch.iter() {
        if v.is_null()
            || k.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            || k.starts_with(SET_ELEMENT_ORDER)
        {
            continue;
        }
        if !keep.contains(k.as_str()) {
            return Err(PatchError::BadPatchFormatForRetainKeys);
        }
    }
    original.retain(|k, _| keep.contains(k.as_str()));
    Ok(())
}

/// The field named by `<prefix>/<field>`.
pub(super) fn extract_key(key: &str, prefix: &str) -> Result<String, PatchError> {
    match key.split_once('/') {
        Some((p, field)) if p == prefix => Ok(field.to_owned()),
        _ if prefix == DELETE_FROM_PRIMITIVE_LIST => {
            Err(PatchError::BadPatchFormatForPrimitiveList)
        }
        _ => Err(PatchError::BadPatchFormatForSetElementOrderList),
    }
}

/// Whether a list item carries `$patch`.
pub(super) fn has_directive(item: &Value) -> bool {
    item.as_object()
        .is_some_and(|m| m.contains_key(DIRECTIVE_MARKER))
}

/// Go's `removeDirectives`: a map carrying `$patch` is dropped (`None`), also from lists; other
/// directive keys stay.
pub(super) fn remove_directives(
    limits: Limits,
    v: Value,
    depth: usize,
) -> Result<Option<Value>, PatchError> {
    check_depth(limits, depth)?;
    Ok(Some(match v {
        Value::Object(map) => {
            if map.contains_key(DIRECTIVE_MARKER) {
                return Ok(None);
            }
            let mut out = Map::new();
            for (k, v) in map {
                if let Some(v) = remove_directives(limits, v, depth + 1)? {
                    out.insert(k, v);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(remove_directives_list(limits, items, depth)?),
        v => v,
    }))
}

/// The items of a list without those carrying `$patch`.
pub(super) fn remove_directives_list(
    limits: Limits,
    items: Vec<Value>,
    depth: usize,
) -> Result<Vec<Value>, PatchError> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        if let Some(item) = remove_directives(limits, item, depth + 1)? {
            out.push(item);
        }
    }
    Ok(out)
}

/// Go's `discardNullValuesFromPatch`: `null` members of maps go, at any depth (a `null` item
/// of a list stays).
pub(super) fn discard_nulls(limits: Limits, v: &mut Value, depth: usize) -> Result<(), PatchError> {
    check_depth(limits, depth)?;
    match v {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            for v in map.values_mut() {
                discard_nulls(limits, v, depth + 1)?;
            }
        }
        Value::Array(items) => {
            for v in items {
                discard_nulls(limits, v, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}
