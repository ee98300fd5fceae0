//! The order of a merged list: Go's `normalizeElementOrder` (patch items in the order the patch
//! or `$setElementOrder` gives, items only the server has in the server's order, then the two
//! interleaved by `mergeSortedSlice`), the partitions and lookups it rests on, and Go's
//! `sort.SliceStable` itself.
//!
//! Go looks items up by scanning lists (`index`, `findMapInSliceBasedOnKeyValue`); here each
//! list is indexed once ([`OrderTable`], [`Finder`]) with the same answers, panics included.
//! Go's comparator is not a strict weak order when an item is missing from the order list, so
//! the result then depends on the sorting algorithm: [`slice_stable`] is Go's, step by step;
//! when every item is found, any stable sort gives the same order and the standard one is used.

use std::collections::HashSet;

use serde_json::Value;

use super::directives::{DELETE, DIRECTIVE_MARKER};
use super::go_sort::slice_stable;
use crate::error::{GoPanic, PatchError};
use crate::go_value::{GoType, Key, MAP_TYPE, Positions, Scalar, Scan, sprint_map};

/// Go's `index(list, x, mergeKey, kind)` for one list: the first position of an item's merge
/// key value (of the item itself for lists of scalars), and whether the list passes Go's
/// `validateMergeKeyInLists`.
pub(super) struct OrderTable {
    positions: Positions,
    invalid: Option<PatchError>,
}

impl OrderTable {
    pub(super) fn new(list: &[Value], merge_key: &str, kind: GoType) -> OrderTable {
        let mut positions = Positions::default();
        for (i, item) in list.iter().enumerate() {
            positions.push(order_key(item, merge_key, kind), i);
        }
        let invalid = if kind == GoType::Map {
            validate_merge_key(list, merge_key).err()
        } else {
            None
        };
        OrderTable { positions, invalid }
    }

    /// The same list after Go changed it in place: the keys at each position.
    pub(super) fn with_keys(mut self, keys: Vec<Key>) -> OrderTable {
        self.positions = Positions::default();
        for (i, key) in keys.into_iter().enumerate() {
            self.positions.push(key, i);
        }
        self
    }

    fn index(&self, item: &Value, merge_key: &str, kind: GoType) -> Result<Option<usize>, GoPanic> {
        self.positions
            .scan(&order_key(item, merge_key, kind))
            .index()
    }
}

/// What Go's `index` compares: the merge key value of a map (`nil` when missing, or for a
/// non-map), or the item itself.
pub(super) fn order_key(item: &Value, merge_key: &str, kind: GoType) -> Key {
    if kind != GoType::Map {
        return Key::of(Some(item));
    }
    match item {
        Value::Object(m) => Key::of(m.get(merge_key)),
        _ => Key::Scalar(Scalar::Nil),
    }
}

/// Go's `validateMergeKeyInLists` for one list.
fn validate_merge_key(list: &[Value], merge_key: &str) -> Result<(), PatchError> {
    for item in list {
        let Value::Object(m) = item else {
            return Err(PatchError::BadArgType {
                expected: MAP_TYPE,
                actual: GoType::of(item).name(),
            });
        };
        if !m.contains_key(merge_key) {
            return Err(no_merge_key(m, merge_key));
        }
    }
    Ok(())
}

pub(super) fn no_merge_key(map: &serde_json::Map<String, Value>, merge_key: &str) -> PatchError {
    PatchError::NoMergeKey {
        map: sprint_map(map),
        key: merge_key.to_owned(),
    }
}

/// Go's `findMapInSliceBasedOnKeyValue` over one list of maps, which may grow.
pub(super) struct Finder {
    positions: Positions,
    first_non_map: Option<usize>,
    len: usize,
}

impl Finder {
    pub(super) fn new(list: &[Value], merge_key: &str) -> Finder {
        let mut finder = Finder {
            positions: Positions::default(),
            first_non_map: None,
            len: list.len(),
        };
        for (i, item) in list.iter().enumerate() {
            match item {
                Value::Object(m) => {
                    if let Some(v) = m.get(merge_key) {
                        finder.positions.push(Key::of(Some(v)), i);
                    }
                }
                _ => {
                    finder.first_non_map.get_or_insert(i);
                }
            }
        }
        finder
    }

    /// A map appended to the list, with the value of its merge key.
    pub(super) fn push(&mut self, key: Key) {
        self.positions.push(key, self.len);
        self.len += 1;
    }

    /// The first map whose merge key equals `value`; Go stops with an error at a non-map met
    /// first, and panics at a merge key value of the same uncomparable type.
    pub(super) fn find(&self, value: &Value) -> Result<Option<usize>, PatchError> {
        let scan = self.positions.scan(&Key::of(Some(value)));
        if let Some(bad) = self.first_non_map
            && scan.position().is_none_or(|p| bad < p)
        {
            return Err(PatchError::NotAMap { index: bad });
        }
        match scan {
            Scan::Found(i) => Ok(Some(i)),
            Scan::Panic(_, p) => Err(PatchError::Panic(p)),
            Scan::End => Ok(None),
        }
    }
}

/// Go's `partitionMapsByPresentInList`: the maps whose merge key is in `by`, and the others.
pub(super) fn partition_maps(
    merged: Vec<Value>,
    by: &Finder,
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let (mut found, mut rest) = (Vec::new(), Vec::new());
    for v in merged {
        let Value::Object(m) = &v else {
            return Err(PatchError::BadArgType {
                expected: MAP_TYPE,
                actual: GoType::of(&v).name(),
            });
        };
        let Some(key) = m.get(merge_key) else {
            return Err(no_merge_key(m, merge_key));
        };
        if by.find(key)?.is_some() {
            found.push(v);
        } else {
            rest.push(v);
        }
    }
    Ok((found, rest))
}

/// Go's `partitionPrimitivesByPresentInList` (a Go map of the values: maps and lists panic).
pub(super) fn partition_primitives(
    merged: Vec<Value>,
    by: &[Value],
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let scalar = |v: &Value| match Key::of(Some(v)) {
        Key::Scalar(s) => Ok(s),
        k => Err(PatchError::Panic(k.unhashable().expect("not a scalar"))),
    };
    let set = by
        .iter()
        .map(scalar)
        .collect::<Result<HashSet<Scalar>, _>>()?;
    let (mut found, mut rest) = (Vec::new(), Vec::new());
    for v in merged {
        if set.contains(&scalar(&v)?) {
            found.push(v);
        } else {
            rest.push(v);
        }
    }
    Ok((found, rest))
}

/// Go's `normalizeElementOrder`: `patch` in the order of `patch_order`, `server_only` in the
/// order of `server_order`, then interleaved.
pub(super) fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &OrderTable,
    server_order: &OrderTable,
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>, PatchError> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, kind)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, kind)?;
    merge_sorted(server_only, patch, server_order, merge_key, kind)
}

/// Go's `normalizeSliceOrder`: a stable sort by position in `order`; an item missing from it
/// is "less" than anything, and maps marked `$patch: delete` go last.
fn normalize_slice_order(
    to_sort: Vec<Value>,
    order: &OrderTable,
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>, PatchError> {
    let mut to_delete = Vec::new();
    let mut items = to_sort;
    if kind == GoType::Map {
        validate_merge_key(&items, merge_key)?;
        if let Some(e) = &order.invalid {
            return Err(e.clone());
        }
        let (keep, delete): (Vec<Value>, Vec<Value>) = items
            .into_iter()
            .partition(|v| v.get(DIRECTIVE_MARKER).and_then(Value::as_str) != Some(DELETE));
        items = keep;
        to_delete = delete;
    }
    let mut keyed: Vec<(Result<Option<usize>, GoPanic>, Value)> = items
        .into_iter()
        .map(|v| (order.index(&v, merge_key, kind), v))
        .collect();
    if keyed.iter().all(|(i, _)| matches!(i, Ok(Some(_)))) {
        keyed.sort_by_key(|(i, _)| *i.as_ref().ok().and_then(Option::as_ref).unwrap_or(&0));
    } else {
        slice_stable(&mut keyed, &mut |a, b| {
            // Go looks up the second item only when the first is found.
            if let Some(ia) = a.0?
                && let Some(ib) = b.0?
            {
                return Ok(ia < ib);
            }
            Ok(true)
        })
        .map_err(PatchError::Panic)?;
    }
    let mut out: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
    out.extend(to_delete);
    Ok(out)
}

/// Go's `mergeSortedSlice`: each item of `left` goes before the first item of `right` that
/// the server's order puts after it; an item the server's order lacks never goes first.
fn merge_sorted(
    left: Vec<Value>,
    right: Vec<Value>,
    order: &OrderTable,
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>, PatchError> {
    let index = |v: &Value| order.index(v, merge_key, kind);
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().map(|v| (index(&v), v)).peekable();
    let mut right = right.into_iter().map(|v| (index(&v), v)).peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((l, _)), Some((r, _))) => {
                let l = l.map_err(PatchError::Panic)?;
                let r = r.map_err(PatchError::Panic)?;
                matches!((l, r), (Some(l), Some(r)) if l < r)
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next.map(|(_, v)| v));
    }
    Ok(out)
}
