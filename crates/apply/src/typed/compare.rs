//! What changed between two values of a type.
//!
//! Mirrors structured-merge-diff `typed/compare.go`. Leaves (scalars, atomic containers,
//! containers empty or null on both sides) are added, removed or modified; a granular container
//! that appears or disappears is itself added or removed, along with what it holds. Items of
//! associative lists given more than once are compared as one value.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{Shape, ValidationErrors, Walk, deduce, list_item_element, pick, validate_scalar};
use crate::fieldpath::{PathElement, Set};
use crate::schema::{Atom, List, MapT, Scalar, TypeId};
use crate::value;

/// The result of [`TypedValue::compare`](super::TypedValue::compare); no path is in two sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Fields the right-hand side removed.
    pub removed: Set,
    /// Fields present on both sides with different values.
    pub modified: Set,
    /// Fields the right-hand side added.
    pub added: Set,
}

impl Comparison {
    /// Whether nothing changed.
    #[must_use]
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }

    /// The comparison without `fields` and what lies below them (`ExcludeFields`).
    #[must_use]
    pub fn exclude_fields(mut self, fields: &Set) -> Comparison {
        if fields.is_empty() {
            return self;
        }
        self.removed = self.removed.recursive_difference(fields);
        self.modified = self.modified.recursive_difference(fields);
        self.added = self.added.recursive_difference(fields);
        self
    }
}

/// Where a comparison walk is: whether it reached a leaf (`inLeaf`), which stops the recording
/// of the container itself.
struct Leaf(bool);

impl Walk<'_> {
    /// `compareWalker.compare`.
    pub(crate) fn compare(
        &self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        t: TypeId,
        path: &mut Vec<PathElement>,
        c: &mut super::Comparison,
    ) -> ValidationErrors {
        if lhs.is_none() && rhs.is_none() {
            return ValidationErrors::one("at least one of lhs and rhs must be provided");
        }
        let atom = self.schema.atom(t);
        let alhs = deduce(atom, lhs);
        let arhs = deduce(atom, rhs);
        let mut errs = ValidationErrors::default();
        let mut in_leaf = Leaf(false);
        let shape = if rhs.is_none() {
            alhs
        } else if lhs.is_none() || alhs == arhs {
            arhs
        } else {
            // The left shape is walked on a copy of the walker: its findings count, its leaf
            // state does not.
            match pick(atom, alhs) {
                Ok(s) => {
                    errs.extend(self.compare_shape(s, atom, lhs, rhs, path, c, &mut Leaf(false)))
                }
                Err(e) => errs.extend(e),
            }
            arhs
        };
        match pick(atom, shape) {
            Ok(s) => errs.extend(self.compare_shape(s, atom, lhs, rhs, path, c, &mut in_leaf)),
            Err(e) => errs.extend(e),
        }
        if !in_leaf.0 {
            if lhs.is_none() {
                c.added.insert_elements(path);
            } else if rhs.is_none() {
                c.removed.insert_elements(path);
            }
        }
        errs
    }

    #[allow(clippy::too_many_arguments)]
    fn compare_shape(
        &self,
        shape: Shape,
        atom: &Atom,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        path: &mut Vec<PathElement>,
        c: &mut Comparison,
        in_leaf: &mut Leaf,
    ) -> ValidationErrors {
        match shape {
            Shape::Scalar => {
                let t = atom.scalar.unwrap_or(Scalar::Untyped);
                let mut lerrs = validate_scalar(t, lhs, "lhs: ");
                let rerrs = validate_scalar(t, rhs, "rhs: ");
                if !lerrs.is_empty() && !rerrs.is_empty() {
                    lerrs.extend(rerrs);
                    return lerrs;
                }
                do_leaf(lhs, rhs, path, c, in_leaf);
                ValidationErrors::default()
            }
            Shape::List => {
                let list = atom.list.as_ref().expect("picked");
                let l = lhs.and_then(Value::as_array);
                let r = rhs.and_then(Value::as_array);
                let empty = l.is_none_or(Vec::is_empty) && r.is_none_or(Vec::is_empty);
                if !list.associative || empty {
                    do_leaf(lhs, rhs, path, c, in_leaf);
                    return ValidationErrors::default();
                }
                self.compare_list_items(
                    list,
                    l.map_or(&[], Vec::as_slice),
                    r.map_or(&[], Vec::as_slice),
                    path,
                    c,
                )
            }
            Shape::Map => {
                let map = atom.map.as_ref().expect("picked");
                let l = lhs.and_then(Value::as_object);
                let r = rhs.and_then(Value::as_object);
                let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
                if map.atomic || empty {
                    do_leaf(lhs, rhs, path, c, in_leaf);
                    return ValidationErrors::default();
                }
                self.compare_map_items(map, l, r, path, c)
            }
        }
    }

    fn compare_list_items(
        &self,
        list: &List,
        lhs: &[Value],
        rhs: &[Value],
        path: &mut Vec<PathElement>,
        c: &mut Comparison,
    ) -> ValidationErrors {
        let mut errs = ValidationErrors::default();
        // Every key once, left-hand side's first, with all the items of each key per side.
        let mut all = Vec::new();
        let mut lvalues: BTreeMap<PathElement, Vec<&Value>> = BTreeMap::new();
        for (i, child) in lhs.iter().enumerate() {
            match list_item_element(self.schema, list, child) {
                Ok(pe) => {
                    let entry = lvalues.entry(pe.clone()).or_default();
                    if entry.is_empty() {
                        all.push(pe);
                    }
                    entry.push(child);
                }
                Err(e) => errs.extend(ValidationErrors::one(format!("element {i}: {e}"))),
            }
        }
        let mut rvalues: BTreeMap<PathElement, Vec<&Value>> = BTreeMap::new();
        for (i, child) in rhs.iter().enumerate() {
            match list_item_element(self.schema, list, child) {
                Ok(pe) => {
                    let entry = rvalues.entry(pe.clone()).or_default();
                    if entry.is_empty() && !lvalues.contains_key(&pe) {
                        all.push(pe);
                    }
                    entry.push(child);
                }
                Err(e) => errs.extend(ValidationErrors::one(format!("element {i}: {e}"))),
            }
        }
        let elem = list.elem.unwrap_or(crate::schema::DEDUCED);
        for pe in all {
            let l = lvalues.get(&pe).map_or(&[][..], Vec::as_slice);
            let r = rvalues.get(&pe).map_or(&[][..], Vec::as_slice);
            path.push(pe.clone());
            match (l.len(), r.len()) {
                (0, 0) => {
                    path.pop();
                    return errs;
                }
                (0 | 1, 0 | 1) => {
                    errs.extend(
                        self.compare(l.first().copied(), r.first().copied(), elem, path, c)
                            .prefixed(&pe),
                    );
                }
                // Duplicated on both sides: one atomic value.
                (2.., 2..) => {
                    let equal =
                        l.len() == r.len() && l.iter().zip(r).all(|(a, b)| value::equals(a, b));
                    if !equal {
                        c.modified.insert_elements(path);
                    }
                }
                // No longer duplicated: the single item is new, the duplicate marker goes.
                (2.., _) => {
                    if let Some(r0) = r.first() {
                        errs.extend(self.compare(None, Some(r0), elem, path, c).prefixed(&pe));
                    }
                    c.removed.insert_elements(path);
                }
                // Newly duplicated: the single item goes, the duplicate marker is new.
                (_, 2..) => {
                    if let Some(l0) = l.first() {
                        errs.extend(self.compare(Some(l0), None, elem, path, c).prefixed(&pe));
                    }
                    c.added.insert_elements(path);
                }
            }
            path.pop();
        }
        errs
    }

    fn compare_map_items(
        &self,
        map: &MapT,
        lhs: Option<&Map<String, Value>>,
        rhs: Option<&Map<String, Value>>,
        path: &mut Vec<PathElement>,
        c: &mut Comparison,
    ) -> ValidationErrors {
        let mut errs = ValidationErrors::default();
        let keys: std::collections::BTreeSet<&String> = lhs
            .into_iter()
            .flat_map(Map::keys)
            .chain(rhs.into_iter().flat_map(Map::keys))
            .collect();
        for key in keys {
            let pe = PathElement::Field(key.clone());
            let Some(t) = map.type_of(key) else {
                errs.extend(
                    ValidationErrors::one("schema error: invalid atom: inlined").prefixed(&pe),
                );
                continue;
            };
            path.push(pe.clone());
            let e = self.compare(
                lhs.and_then(|m| m.get(key)),
                rhs.and_then(|m| m.get(key)),
                t,
                path,
                c,
            );
            path.pop();
            errs.extend(e.prefixed(&pe));
        }
        errs
    }
}

/// `compareWalker.doLeaf`.
fn do_leaf(
    lhs: Option<&Value>,
    rhs: Option<&Value>,
    path: &[PathElement],
    c: &mut Comparison,
    in_leaf: &mut Leaf,
) {
    if in_leaf.0 {
        return;
    }
    in_leaf.0 = true;
    match (lhs, rhs) {
        (None, _) => c.added.insert_elements(path),
        (_, None) => c.removed.insert_elements(path),
        (Some(l), Some(r)) => {
            if !value::equals(r, l) {
                c.modified.insert_elements(path);
            }
        }
    }
}
