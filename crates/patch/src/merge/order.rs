//! `$setElementOrder/<field>`: Go's `mergePatchIntoOriginal` and
//! `validatePatchWithSetOrderList`. The list is merged as usual, then the items the order list
//! names come in its order, and the others stay where the object had them.

use serde_json::{Map, Value};

use super::directives::{extract_key, has_directive, remove_directives_list};
use super::list::{element_type, merge_slice};
use super::sort::{
    Finder, OrderTable, no_merge_key, normalize_element_order, partition_maps, partition_primitives,
};
use super::{DELETE, DIRECTIVE_MARKER, Limits, SET_ELEMENT_ORDER};
use crate::error::PatchError;
use crate::go_value::{GoType, MAP_TYPE, SLICE_TYPE, go_eq, sprint_list};
use crate::meta::{LookupPatchMeta, MERGE};

/// Applies every `$setElementOrder/<field>` of `patch` (and the `<field>` it orders), removing
/// both from `patch`.
pub(super) fn set_element_order<S: LookupPatchMeta>(
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
        let field = extract_key(&key, SET_ELEMENT_ORDER)?;
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
            (None, Some(p)) => (remove_directives_list(limits, p, depth + 1)?, None),
            (Some(o), Some(p)) if strategy == MERGE => {
                let m = merge_slice(limits, o, p, &sub, merge_key, false, depth + 1)?;
                (m.merged, m.visible)
            }
            (Some(_), Some(p)) => (p, None),
            (None, None) => unreachable!("checked above"),
        };
        let (in_order, server_only) = if merge_key.is_empty() {
            partition_primitives(merged, &order)?
        } else {
            partition_maps(merged, &Finder::new(&order, merge_key), merge_key)?
        };
        let kind = kind?;
        let mut server_order = server_order.expect("the element type is known");
        if let Some(keys) = visible {
            server_order = server_order.with_keys(keys);
        }
        let order_table = OrderTable::new(&order, merge_key, kind);
        let both = normalize_element_order(
            in_order,
            server_only,
            &order_table,
            &server_order,
            merge_key,
            kind,
        )?;
        original.insert(field, Value::Array(both));
    }
    Ok(())
}

fn bad_arg_type(expected: &'static str, actual: &Value) -> PatchError {
    PatchError::BadArgType {
        expected,
        actual: GoType::of(actual).name(),
    }
}

/// The list at `field`, if any.
fn list_at<'a>(
    map: &'a Map<String, Value>,
    field: &str,
) -> Result<Option<&'a [Value]>, PatchError> {
    match map.get(field) {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(bad_arg_type(SLICE_TYPE, other)),
    }
}

fn into_list(v: Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items,
        _ => unreachable!("checked by list_at"),
    }
}

/// Go's `validatePatchWithSetOrderList`: the patch's items (deletions and other directives
/// aside) must come in the order list, in the same order.
fn validate_patch_order(
    patch: &[Value],
    order: &[Value],
    merge_key: &str,
) -> Result<(), PatchError> {
    if order.is_empty() || patch.is_empty() {
        return Ok(());
    }
    let mut items = Vec::with_capacity(patch.len());
    for item in patch {
        if !merge_key.is_empty() {
            if !item.is_object() {
                return Err(bad_arg_type(MAP_TYPE, item));
            }
            if item.get(DIRECTIVE_MARKER).and_then(Value::as_str) == Some(DELETE) {
                continue;
            }
        }
        items.push(item);
    }
    let (mut p, mut o) = (0, 0);
    while p < items.len() && o < order.len() {
        if has_directive(items[p]) {
            p += 1;
            continue;
        }
        if merge_key_value_equal(items[p], &order[o], merge_key)? {
            p += 1;
        }
        o += 1;
    }
    if p < items.len() && o >= order.len() {
        return Err(PatchError::OrderMismatch {
            patch: sprint_list(patch),
            order: sprint_list(order),
        });
    }
    Ok(())
}

/// Go's `mergeKeyValueEqual`.
fn merge_key_value_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool, PatchError> {
    if merge_key.is_empty() {
        return go_eq(Some(left), Some(right));
    }
    let Value::Object(l) = left else {
        return Err(bad_arg_type(MAP_TYPE, left));
    };
    let Value::Object(r) = right else {
        return Err(bad_arg_type(MAP_TYPE, right));
    };
    let Some(lv) = l.get(merge_key) else {
        return Err(no_merge_key(l, merge_key));
    };
    let Some(rv) = r.get(merge_key) else {
        return Err(no_merge_key(r, merge_key));
    };
    go_eq(Some(lv), Some(rv))
}
