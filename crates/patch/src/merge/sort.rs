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

use super::{DELETE, DIRECTIVE_MARKER};
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

/// Go's `sort.SliceStable`: insertion sort of blocks of 20, then SymMerge of blocks of
/// doubling size (sort/zsortfunc.go `stable_func`), stopping at the first failing `less`.
pub(crate) fn slice_stable<T, E>(
    data: &mut [T],
    less: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less)?;
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less)?;
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(data, a, a + block, b, less)?;
            a = b;
            b += 2 * block;
        }
        if a + block < n {
            sym_merge(data, a, a + block, n, less)?;
        }
        block *= 2;
    }
    Ok(())
}

fn insertion_sort<T, E>(
    data: &mut [T],
    a: usize,
    b: usize,
    less: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1])? {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}

/// Merges the sorted runs `data[a..m]` and `data[m..b]` (Kim and Kutzner's SymMerge).
// Go's names, to read beside sort/zsortfunc.go.
#[allow(clippy::many_single_char_names)]
fn sym_merge<T, E>(
    data: &mut [T],
    a: usize,
    m: usize,
    b: usize,
    less: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    if m - a == 1 {
        // One item on the left: binary search for its place on the right.
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = usize::midpoint(i, j);
            if less(&data[h], &data[a])? {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            data.swap(k, k + 1);
        }
        return Ok(());
    }
    if b - m == 1 {
        // One item on the right: binary search for its place on the left.
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = usize::midpoint(i, j);
            if less(&data[m], &data[h])? {
                j = h;
            } else {
                i = h + 1;
            }
        }
        for k in (i + 1..=m).rev() {
            data.swap(k, k - 1);
        }
        return Ok(());
    }
    let mid = usize::midpoint(a, b);
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = usize::midpoint(start, r);
        if less(&data[p - c], &data[c])? {
            r = c;
        } else {
            start = c + 1;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less)?;
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less)?;
    }
    Ok(())
}

/// Swaps the blocks `data[a..m]` and `data[m..b]` by block swaps, as Go's `rotate` does.
#[allow(clippy::many_single_char_names)]
fn rotate<T>(data: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range<T>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency for a few numbers).
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        *seed >> 33
    }

    #[test]
    fn go_stable_sort_is_a_stable_sort_for_consistent_comparisons() {
        let mut seed = 7;
        for n in [0, 1, 2, 19, 20, 21, 39, 40, 41, 100, 257, 1000] {
            let mut items: Vec<(u64, usize)> = (0..n).map(|i| (lcg(&mut seed) % 10, i)).collect();
            let mut want = items.clone();
            want.sort_by_key(|x| x.0);
            slice_stable(&mut items, &mut |a, b| Ok::<_, ()>(a.0 < b.0)).unwrap();
            assert_eq!(items, want, "n = {n}");
        }
    }

    #[test]
    fn go_stable_sort_with_an_always_true_comparator() {
        // insertionSort moves each item to the front; 3 items: [2 1 0]. Traced by hand from Go's
        // insertionSort_func.
        let mut items = vec![0, 1, 2];
        slice_stable(&mut items, &mut |_, _| Ok::<_, ()>(true)).unwrap();
        assert_eq!(items, [2, 1, 0]);
        // A failing comparison stops the sort with its error.
        let mut items = vec![0, 1];
        assert_eq!(
            slice_stable(&mut items, &mut |_, _| Err::<bool, _>("panic")),
            Err("panic")
        );
        // One item: no comparison at all.
        let mut items = vec![0];
        assert_eq!(
            slice_stable(&mut items, &mut |_, _| Err::<bool, _>("panic")),
            Ok(())
        );
    }
}
