//! Field sets written under an older schema, brought in line with the current one.
//!
//! Mirrors structured-merge-diff `typed/reconcile_schema.go`: where a list, map or struct became
//! atomic since a manager's set was written, the manager now owns the container itself and
//! nothing below it. (The other way round, atomic to granular, needs nothing: the owner keeps the
//! container and owns none of its parts.)

use crate::fieldpath::{Path, PathElement, Set};
use crate::schema::{DEDUCED, Schema, TypeId};

use super::{TypedValue, atom_of};

/// `ReconcileFieldSetWithSchema`: the reconciled set, or `None` when nothing changes.
///
/// # Errors
/// Never for the schemas of this crate; kept for the shape of the Go function.
pub fn reconcile_field_set_with_schema(set: &Set, tv: &TypedValue) -> Result<Option<Set>, String> {
    let mut acc = Acc::default();
    let mut path = Vec::new();
    walk(
        tv.schema(),
        Some(set),
        Some(tv.schema().root()),
        false,
        &mut path,
        &mut acc,
    );
    if acc.atomic.is_empty() {
        return Ok(None);
    }
    // Go's walker unions each path into its `toRemove` and `toAdd` sets as it finds it; both end
    // up as the same set, built here once from all the paths (one union per path copied the
    // accumulated set each time: quadratic in the number of atomic containers).
    let atomic = Set::from_paths(acc.atomic);
    Ok(Some(set.recursive_difference(&atomic).union(&atomic)))
}

#[derive(Default)]
struct Acc {
    /// The containers now atomic: removed with everything below them, then added back.
    atomic: Vec<Path>,
}

impl Acc {
    fn atomic_at(&mut self, path: &[PathElement]) {
        self.atomic.push(Path(path.to_vec()));
    }
}

/// `reconcileWithSchemaWalker.reconcile` at `path`, where the manager's set below is `set` and
/// `is_atomic` says it owns the node as a whole (a member without children).
fn walk(
    schema: &Schema,
    set: Option<&Set>,
    t: Option<TypeId>,
    is_atomic: bool,
    path: &mut Vec<PathElement>,
    acc: &mut Acc,
) {
    let atom = atom_of(schema, t);
    // handleAtom's order: map, scalar, list.
    if let Some(map) = &atom.map {
        // Schemaless maps (preserved unknown fields) have no atomic parts to reconcile.
        if map.elem == Some(DEDUCED) && map.fields.is_empty() {
            return;
        }
        if !is_atomic && map.atomic {
            if set.is_some_and(|s| s.size() > 0) {
                acc.atomic_at(path);
            }
            return;
        }
        if let Some(set) = set {
            visit(schema, set, path, acc, |pe| match pe {
                PathElement::Field(name) => map.fields.get(name).map_or(map.elem, |f| f.ty),
                _ => map.elem,
            });
        }
        return;
    }
    if atom.scalar.is_some() {
        return;
    }
    if let Some(list) = &atom.list {
        if !is_atomic && !list.associative {
            acc.atomic_at(path);
            return;
        }
        if let Some(set) = set {
            visit(schema, set, path, acc, |_| list.elem);
        }
    }
}

/// Children that are not members first, then members, each under the type `type_of` gives it
/// (children without a type are skipped).
fn visit(
    schema: &Schema,
    set: &Set,
    path: &mut Vec<PathElement>,
    acc: &mut Acc,
    type_of: impl Fn(&PathElement) -> Option<TypeId>,
) {
    let mut handle = |pe: &PathElement, is_member: bool, acc: &mut Acc| {
        let Some(t) = type_of(pe) else { return };
        let child = set.children.get(pe);
        path.push(pe.clone());
        walk(
            schema,
            child,
            Some(t),
            is_member && child.is_none(),
            path,
            acc,
        );
        path.pop();
    };
    for pe in set.children.keys() {
        if !set.members.contains(pe) {
            handle(pe, false, acc);
        }
    }
    for pe in &set.members {
        handle(pe, true, acc);
    }
}
