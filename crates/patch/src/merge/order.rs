//! `$setElementOrder/<field>`: the checks and the ordering of Go's `mergePatchIntoOriginal`
//! (`validatePatchWithSetOrderList`, then the items the order list names in its order, the
//! others where the object had them). The merge level drives it.

use serde_json::{Map, Value};

use super::directives::{DELETE, DIRECTIVE_MARKER, has_directive};
use super::sort::{
    Finder, OrderTable, no_merge_key, normalize_element_order, partition_maps, partition_primitives,
};
use crate::error::PatchError;
use crate::go_value::{GoType, Key, MAP_TYPE, SLICE_TYPE, go_eq, sprint_list};

/// The merged list `merged` in the order `order` asks. `kind` is the element type of the lists
/// before merging and `server_order` the object's list, both read before the merge; `visible`
/// is that list as the merge changed it in place.
pub(super) fn order_merged(
    merged: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    kind: Result<GoType, PatchError>,
    server_order: Option<OrderTable>,
    visible: Option<Vec<Key>>,
) -> Result<Vec<Value>, PatchError> {
    let (in_order, server_only) = if merge_key.is_empty() {
        partition_primitives(merged, order)?
    } else {
        partition_maps(merged, &Finder::new(order, merge_key), merge_key)?
    };
    let kind = kind?;
    let mut server_order = server_order.expect("the element type is known");
    if let Some(keys) = visible {
        server_order = server_order.with_keys(keys);
    }
    let order_table = OrderTable::new(order, merge_key, kind);
    normalize_element_order(
        in_order,
        server_only,
        &order_table,
        &server_order,
        merge_key,
        kind,
    )
}

pub(super) fn bad_arg_type(expected: &'static str, actual: &Value) -> PatchError {
    PatchError::BadArgType {
        expected,
        actual: GoType::of(actual).name(),
    }
}

/// The list at `field`, if any.
pub(super) fn list_at<'a>(
    map: &'a Map<String, Value>,
    field: &str,
) -> Result<Option<&'a [Value]>, PatchError> {
    match map.get(field) {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(bad_arg_type(SLICE_TYPE, other)),
    }
}

pub(super) fn into_list(v: Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items,
        _ => unreachable!("checked by list_at"),
    }
}

/// Go's `validatePatchWithSetOrderList`: the patch's items (deletions and other directives
/// aside) must come in the order list, in the same order.
pub(super) fn validate_patch_order(
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
