//! Merging two lists: Go's `mergeSlice` with `mergeSliceWithSpecialElements` (`$patch: delete`
//! and `$patch: replace` items), `mergeSliceWithoutSpecialElements` (items merged by merge key,
//! or appended), `deleteFromSlice` (`$deleteFromPrimitiveList`) and the union of scalars.
//!
//! Go changes the object's list in place (`append(original[:i], original[i+1:]...)`, appends
//! into its spare capacity), and `$setElementOrder` then orders by that changed list: deleted
//! items shift the others left, the vacated tail keeps stale copies, and new items overwrite
//! them. [`SliceMerge::visible`] is that list, so the order matches Go's.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::directives::{DELETE, DIRECTIVE_MARKER, MERGE_DIRECTIVE, REPLACE_DIRECTIVE};
use super::sort::{
    Finder, OrderTable, no_merge_key, normalize_element_order, order_key, partition_maps,
    partition_primitives,
};
use crate::error::{GoPanic, PatchError};
use crate::go_value::{GoType, Key, MAP_TYPE, Scalar, sprint_list, sprint_map, sprint_s};

/// What the items of a list of maps need from the level above: Go's `mergeMap` of two items
/// with the items' schema, and that schema's `Name()`. (Lists and maps merge each other
/// recursively; the map level passes itself down through this.)
pub(super) trait MergeItems {
    fn merge(
        &self,
        original: Map<String, Value>,
        patch: Map<String, Value>,
    ) -> Result<Map<String, Value>, PatchError>;
    fn name(&self) -> String;
}

/// A merged list, and the object's list as Go left it in place (`None`: unchanged).
pub(super) struct SliceMerge {
    pub(super) merged: Vec<Value>,
    pub(super) visible: Option<Vec<Key>>,
}

/// Go's `sliceElementType`: the one Go type of every item of the lists.
pub(super) fn element_type(lists: &[&[Value]]) -> Result<GoType, PatchError> {
    let mut prev = None;
    for list in lists {
        for v in *list {
            let t = GoType::of(v);
            match prev {
                None if t == GoType::Nil => return Err(PatchError::Panic(GoPanic::NilType)),
                None if t == GoType::Slice => return Err(PatchError::NoListOfLists),
                None => prev = Some(t),
                Some(p) if p != t => {
                    let lists: Vec<String> = lists.iter().map(|l| sprint_list(l)).collect();
                    return Err(PatchError::ElementTypesNotIdentical {
                        lists: format!("[{}]", lists.join(" ")),
                    });
                }
                Some(_) => {}
            }
        }
    }
    prev.ok_or(PatchError::NoElements)
}

/// Go's `mergeSlice`.
pub(super) fn merge_slice(
    original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
    is_delete_list: bool,
    items: &impl MergeItems,
) -> Result<SliceMerge, PatchError> {
    if original.is_empty() && patch.is_empty() {
        return Ok(SliceMerge {
            merged: original,
            visible: None,
        });
    }
    let kind = element_type(&[&original, &patch])?;
    let merged = if kind == GoType::Map {
        return merge_maps(original, patch, merge_key, items);
    } else if is_delete_list {
        delete_from_slice(original, &patch)?
    } else {
        merge_scalars(original, &patch, merge_key, kind)?
    };
    Ok(SliceMerge {
        merged,
        visible: None,
    })
}

/// The union of two lists of scalars, in Go's order.
fn merge_scalars(
    original: Vec<Value>,
    patch: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>, PatchError> {
    let patch_order = OrderTable::new(patch, merge_key, kind);
    let server_order = OrderTable::new(&original, merge_key, kind);
    // Go's deduplicateScalars reorders; the orders applied next make that invisible.
    let mut seen = HashSet::new();
    let mut merged = Vec::with_capacity(original.len() + patch.len());
    for v in original.into_iter().chain(patch.iter().cloned()) {
        if let Key::Scalar(s) = Key::of(Some(&v))
            && seen.insert(s)
        {
            merged.push(v);
        }
    }
    let (in_patch, server_only) = if merge_key.is_empty() {
        partition_primitives(merged, patch)?
    } else {
        partition_maps(merged, &Finder::new(patch, merge_key), merge_key)?
    };
    normalize_element_order(
        in_patch,
        server_only,
        &patch_order,
        &server_order,
        merge_key,
        kind,
    )
}

/// Go's `deleteFromSlice`: the items of `current` not in `to_delete`.
fn delete_from_slice(current: Vec<Value>, to_delete: &[Value]) -> Result<Vec<Value>, PatchError> {
    let scalar = |v: &Value| match Key::of(Some(v)) {
        Key::Scalar(s) => Ok(s),
        k => Err(PatchError::Panic(k.unhashable().expect("not a scalar"))),
    };
    let set = to_delete
        .iter()
        .map(scalar)
        .collect::<Result<HashSet<Scalar>, _>>()?;
    let mut out = Vec::with_capacity(current.len());
    for v in current {
        if !set.contains(&scalar(&v)?) {
            out.push(v);
        }
    }
    Ok(out)
}

/// Lists of maps, merged by `merge_key`.
fn merge_maps(
    original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
    items: &impl MergeItems,
) -> Result<SliceMerge, PatchError> {
    if merge_key.is_empty() {
        return Err(PatchError::NoMergeKeyForList { name: items.name() });
    }
    let original_keys: Vec<Key> = original
        .iter()
        .map(|v| order_key(v, merge_key, GoType::Map))
        .collect();
    let special = special_elements(&original, patch, merge_key)?;
    let removed = Removals::apply(&original, merge_key, &special.deletions);
    let survivors: Vec<Value> = original
        .into_iter()
        .zip(&removed.deleted)
        .filter_map(|(v, &d)| (!d).then_some(v))
        .collect();
    let (mut current, plain) = if special.replace {
        (special.plain, Vec::new())
    } else {
        (survivors, special.plain)
    };

    // Go's mergeSliceWithoutSpecialElements.
    let server_order = OrderTable::new(&current, merge_key, GoType::Map);
    let patch_order = OrderTable::new(&plain, merge_key, GoType::Map);
    let in_patch = Finder::new(&plain, merge_key);
    let mut finder = Finder::new(&current, merge_key);
    let mut appended = Vec::new();
    for item in plain {
        let Value::Object(m) = item else {
            return Err(not_a_map(&item));
        };
        let Some(value) = m.get(merge_key) else {
            return Err(no_merge_key(&m, merge_key));
        };
        if let Some(i) = finder.find(value)? {
            let Value::Object(o) = std::mem::take(&mut current[i]) else {
                return Err(not_a_map(&current[i]));
            };
            current[i] = Value::Object(items.merge(o, m)?);
        } else {
            let key = Key::of(Some(value));
            finder.push(key.clone());
            appended.push(key);
            current.push(Value::Object(m));
        }
    }
    let (patch_items, server_only) = partition_maps(current, &in_patch, merge_key)?;
    let merged = normalize_element_order(
        patch_items,
        server_only,
        &patch_order,
        &server_order,
        merge_key,
        GoType::Map,
    )?;
    let visible = removed.visible(&original_keys, &appended);
    Ok(SliceMerge { merged, visible })
}

fn not_a_map(v: &Value) -> PatchError {
    PatchError::BadArgType {
        expected: MAP_TYPE,
        actual: GoType::of(v).name(),
    }
}

/// The items of a patch list: plain maps, and what its `$patch` items ask.
struct Special {
    plain: Vec<Value>,
    deletions: Vec<Scalar>,
    replace: bool,
}

/// Go's `mergeSliceWithSpecialElements`, without deleting yet (see [`Removals`]).
fn special_elements(
    original: &[Value],
    patch: Vec<Value>,
    merge_key: &str,
) -> Result<Special, PatchError> {
    // Deleting by a map or list value panics at the first item whose key has that type; such
    // items are never deleted, so looking in the untouched list finds the same panic.
    let finder = Finder::new(original, merge_key);
    let mut special = Special {
        plain: Vec::new(),
        deletions: Vec::new(),
        replace: false,
    };
    for item in patch {
        let Value::Object(m) = &item else {
            return Err(not_a_map(&item));
        };
        let Some(directive) = m.get(DIRECTIVE_MARKER) else {
            special.plain.push(item);
            continue;
        };
        match directive.as_str() {
            Some(DELETE) => {
                let Some(value) = m.get(merge_key) else {
                    return Err(no_merge_key(m, merge_key));
                };
                match Key::of(Some(value)) {
                    Key::Scalar(s) => special.deletions.push(s),
                    _ => {
                        finder.find(value)?;
                    }
                }
            }
            // The other items are still checked.
            Some(REPLACE_DIRECTIVE) => special.replace = true,
            Some(MERGE_DIRECTIVE) => return Err(PatchError::MergingListsNotSupported),
            _ => {
                return Err(PatchError::BadPatchType {
                    directive: sprint_s(directive),
                    map: sprint_map(m),
                });
            }
        }
    }
    Ok(special)
}

/// The deletions of Go's `deleteMatchingEntries`, done in one pass, with what they leave in
/// the object's list in place: after each removal the last slot keeps a stale copy of the item
/// that was last.
struct Removals {
    deleted: Vec<bool>,
    /// Per removal, in order, the position in the original list of the item left stale.
    stale: Vec<usize>,
}

impl Removals {
    fn apply(original: &[Value], merge_key: &str, deletions: &[Scalar]) -> Removals {
        let mut removals = Removals {
            deleted: vec![false; original.len()],
            stale: Vec::new(),
        };
        if deletions.is_empty() {
            return removals;
        }
        let mut at: HashMap<Scalar, Vec<usize>> = HashMap::new();
        for (i, item) in original.iter().enumerate() {
            if let Some(Key::Scalar(s)) = item.get(merge_key).map(|v| Key::of(Some(v))) {
                at.entry(s).or_default().push(i);
            }
        }
        let mut last = original.len();
        for key in deletions {
            // Go removes the first match until none is left; a repeated key finds none.
            for i in at.remove(key).unwrap_or_default() {
                while last > 0 && removals.deleted[last - 1] {
                    last -= 1;
                }
                removals.stale.push(last - 1);
                removals.deleted[i] = true;
            }
        }
        removals
    }

    /// The keys of the object's list as Go leaves it: survivors, then appended items over the
    /// stale slots (the last slot holds the first removal's stale copy).
    fn visible(&self, original_keys: &[Key], appended: &[Key]) -> Option<Vec<Key>> {
        if self.stale.is_empty() {
            return None;
        }
        let len = original_keys.len();
        let kept = len - self.stale.len();
        let mut keys: Vec<Key> = original_keys
            .iter()
            .zip(&self.deleted)
            .filter(|&(_, &d)| !d)
            .map(|(k, _)| k.clone())
            .collect();
        for slot in kept..len {
            let i = slot - kept;
            keys.push(match appended.get(i) {
                Some(k) => k.clone(),
                None => original_keys[self.stale[len - 1 - slot]].clone(),
            });
        }
        Some(keys)
    }
}
