//! What changed between two values of a type.
//!
//! Mirrors structured-merge-diff `typed/compare.go`. Leaves (scalars, atomic containers,
//! containers empty or null on both sides) are added, removed or modified; a granular container
//! that appears or disappears is itself added or removed, along with what it holds. Items of
//! associative lists given more than once are compared as one value.

use serde_json::{Map, Value};

use super::fieldset::Collect;
use super::{Shape, ValidationErrors, Walk, deduce, list_item_element, pick, validate_scalar};
use crate::fieldpath::{PathElement, Set, SetBuilder};
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
        self.removed.remove_recursive(fields);
        self.modified.remove_recursive(fields);
        self.added.remove_recursive(fields);
        self
    }
}

/// A comparison relative to one node: the changes below it (paths relative to it, sorted when
/// the node is done) and whether the node itself was removed, modified or added.
#[derive(Default)]
struct Part {
    below: Below,
    removed: bool,
    modified: bool,
    added: bool,
}

/// The three sets of a [`Comparison`] while their node is walked.
#[derive(Default)]
struct Below {
    removed: SetBuilder,
    modified: SetBuilder,
    added: SetBuilder,
}

impl Below {
    /// At most `n` children to come: room for them in whichever set takes the first.
    fn hint(&mut self, n: usize) {
        self.removed.set_hint(n);
        self.modified.set_hint(n);
        self.added.set_hint(n);
    }

    fn finish(self) -> Comparison {
        Comparison {
            removed: self.removed.finish(),
            modified: self.modified.finish(),
            added: self.added.finish(),
        }
    }
}

impl Part {
    /// `compareWalker.doLeaf`: the node is a leaf, recorded once (`inLeaf`).
    fn leaf(&mut self, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: &mut bool) {
        if std::mem::replace(in_leaf, true) {
            return;
        }
        match (lhs, rhs) {
            (None, _) => self.added = true,
            (_, None) => self.removed = true,
            (Some(l), Some(r)) => {
                if !value::equals(r, l) {
                    self.modified = true;
                }
            }
        }
    }

    /// Joins a finished child's part below `pe`.
    fn attach(&mut self, pe: PathElement, child: Part) {
        let Part {
            below,
            removed,
            modified,
            added,
        } = child;
        let Comparison {
            removed: r,
            modified: m,
            added: a,
        } = below.finish();
        let mut uses = [
            removed,
            !r.is_empty_node(),
            modified,
            !m.is_empty_node(),
            added,
            !a.is_empty_node(),
        ]
        .iter()
        .filter(|b| **b)
        .count();
        let mut slot = Some(pe);
        let mut pe = || {
            uses -= 1;
            if uses == 0 {
                slot.take().expect("one use left")
            } else {
                slot.clone().expect("uses left")
            }
        };
        for (flag, set, out) in [
            (removed, r, &mut self.below.removed),
            (modified, m, &mut self.below.modified),
            (added, a, &mut self.below.added),
        ] {
            if flag {
                out.add_member(pe());
            }
            if !set.is_empty_node() {
                out.add_child(pe(), set);
            }
        }
    }
}

/// One step of the walk: errors found at a node, or a child to walk.
enum Item<'v> {
    Errors(ValidationErrors),
    Child {
        pe: PathElement,
        lhs: Option<&'v Value>,
        rhs: Option<&'v Value>,
        t: TypeId,
    },
}

/// A node whose children are being walked.
struct Frame<'v> {
    pe: Option<PathElement>,
    part: Part,
    errs: ValidationErrors,
    items: std::vec::IntoIter<Item<'v>>,
}

impl Walk<'_> {
    /// `compareWalker.compare`, with an explicit stack: each node's changes are collected
    /// relative to it and join its parent's once, so the work is linear in the values' size at
    /// any depth.
    pub(crate) fn compare(
        &self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        t: TypeId,
    ) -> (Comparison, ValidationErrors) {
        let (part, items) = self.compare_node(lhs, rhs, t);
        // Room for an object's usual depth: frames are large, and growing the stack one push at
        // a time reallocated it on every write.
        let mut stack = Vec::with_capacity(16);
        stack.push(Frame {
            pe: None,
            part,
            errs: ValidationErrors::default(),
            items: items.into_iter(),
        });
        loop {
            let top = stack.last_mut().expect("the root stays until the end");
            match top.items.next() {
                Some(Item::Errors(e)) => top.errs.extend(e),
                Some(Item::Child { pe, lhs, rhs, t }) => {
                    // Nothing on the left: every node is added, collected in one walk without
                    // a part per node. Should it find an error, the node is compared below to
                    // report it as the comparison does.
                    if let (None, Some(r)) = (lhs, rhs) {
                        let (set, errs) =
                            self.collect_field_set::<SetBuilder>(r, t, Collect::Added);
                        if errs.is_empty() {
                            let added = &mut top.part.below.added;
                            if set.is_empty_node() {
                                added.add_member(pe);
                            } else {
                                added.add_member(pe.clone());
                                added.add_child(pe, set);
                            }
                            continue;
                        }
                    }
                    let (part, items) = self.compare_node(lhs, rhs, t);
                    let frame = Frame {
                        pe: Some(pe),
                        part,
                        errs: ValidationErrors::default(),
                        items: items.into_iter(),
                    };
                    if frame.items.as_slice().is_empty() {
                        finish(top, frame);
                    } else {
                        stack.push(frame);
                    }
                }
                None => {
                    let done = stack.pop().expect("top");
                    match stack.last_mut() {
                        Some(parent) => finish(parent, done),
                        None => return (done.part.below.finish(), done.errs),
                    }
                }
            }
        }
    }

    /// What `compareWalker.compare` finds at one node before walking its children: whether the
    /// node itself changed, and the errors and children in the walk's order.
    fn compare_node<'v>(
        &self,
        lhs: Option<&'v Value>,
        rhs: Option<&'v Value>,
        t: TypeId,
    ) -> (Part, Vec<Item<'v>>) {
        let mut part = Part::default();
        let mut items = Vec::new();
        if lhs.is_none() && rhs.is_none() {
            items.push(Item::Errors(ValidationErrors::one(
                "at least one of lhs and rhs must be provided",
            )));
            return (part, items);
        }
        let atom = self.schema.atom(t);
        let alhs = deduce(atom, lhs);
        let arhs = deduce(atom, rhs);
        let mut in_leaf = false;
        let shape = if rhs.is_none() {
            alhs
        } else if lhs.is_none() || alhs == arhs {
            arhs
        } else {
            // The left shape is walked with a leaf state of its own: its findings count, its
            // leaf state does not.
            match pick(atom, alhs) {
                Ok(s) => self.compare_shape(s, atom, lhs, rhs, &mut part, &mut items, &mut false),
                Err(e) => items.push(Item::Errors(e)),
            }
            arhs
        };
        match pick(atom, shape) {
            Ok(s) => self.compare_shape(s, atom, lhs, rhs, &mut part, &mut items, &mut in_leaf),
            Err(e) => items.push(Item::Errors(e)),
        }
        if !in_leaf {
            if lhs.is_none() {
                part.added = true;
            } else if rhs.is_none() {
                part.removed = true;
            }
        }
        part.below.hint(items.len());
        (part, items)
    }

    #[allow(clippy::too_many_arguments)]
    fn compare_shape<'v>(
        &self,
        shape: Shape,
        atom: &Atom,
        lhs: Option<&'v Value>,
        rhs: Option<&'v Value>,
        part: &mut Part,
        items: &mut Vec<Item<'v>>,
        in_leaf: &mut bool,
    ) {
        match shape {
            Shape::Scalar => {
                let t = atom.scalar.unwrap_or(Scalar::Untyped);
                let mut lerrs = validate_scalar(t, lhs, "lhs: ");
                let rerrs = validate_scalar(t, rhs, "rhs: ");
                if !lerrs.is_empty() && !rerrs.is_empty() {
                    lerrs.extend(rerrs);
                    items.push(Item::Errors(lerrs));
                    return;
                }
                part.leaf(lhs, rhs, in_leaf);
            }
            Shape::List => {
                let list = atom.list.as_ref().expect("picked");
                let l = lhs.and_then(Value::as_array);
                let r = rhs.and_then(Value::as_array);
                let empty = l.is_none_or(Vec::is_empty) && r.is_none_or(Vec::is_empty);
                if !list.associative || empty {
                    part.leaf(lhs, rhs, in_leaf);
                    return;
                }
                self.compare_list_items(
                    list,
                    l.map_or(&[], Vec::as_slice),
                    r.map_or(&[], Vec::as_slice),
                    part,
                    items,
                );
            }
            Shape::Map => {
                let map = atom.map.as_ref().expect("picked");
                let l = lhs.and_then(Value::as_object);
                let r = rhs.and_then(Value::as_object);
                let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
                if map.atomic || empty {
                    part.leaf(lhs, rhs, in_leaf);
                    return;
                }
                compare_map_items(map, l, r, items);
            }
        }
    }

    /// The items of both lists by element. Every element once, in the order it first appears
    /// (the left-hand side's first), with all its items on each side.
    fn compare_list_items<'v>(
        &self,
        list: &List,
        lhs: &'v [Value],
        rhs: &'v [Value],
        part: &mut Part,
        items: &mut Vec<Item<'v>>,
    ) {
        // Each item's element and position, the right-hand side's numbered after the left's.
        // Sorted stably by element, an element's items lie together, each side in list order.
        let mut keyed: Vec<(PathElement, usize)> = Vec::with_capacity(lhs.len() + rhs.len());
        for (offset, side) in [(0, lhs), (lhs.len(), rhs)] {
            for (i, child) in side.iter().enumerate() {
                match list_item_element(self.schema, list, child) {
                    Ok(pe) => keyed.push((pe, offset + i)),
                    Err(e) => items.push(Item::Errors(ValidationErrors::one(format!(
                        "element {i}: {e}"
                    )))),
                }
            }
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        // Each element's run in `keyed`, in the order of its first position.
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        for (i, (pe, _)) in keyed.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if keyed[run.start].0 == *pe => run.end = i + 1,
                _ => runs.push(i..i + 1),
            }
        }
        runs.sort_unstable_by_key(|run| keyed[run.start].1);
        let elem = list.elem.unwrap_or(crate::schema::DEDUCED);
        let n = lhs.len();
        for run in runs {
            // Taken, not cloned: each run is visited once.
            let pe = std::mem::replace(&mut keyed[run.start].0, PathElement::Index(0));
            let group = &keyed[run];
            let (l, r) = group.split_at(group.partition_point(|(_, at)| *at < n));
            let l0 = l.first().map(|(_, at)| &lhs[*at]);
            let r0 = r.first().map(|(_, at)| &rhs[*at - n]);
            match (l.len(), r.len()) {
                (0 | 1, 0 | 1) => items.push(Item::Child {
                    pe,
                    lhs: l0,
                    rhs: r0,
                    t: elem,
                }),
                // Duplicated on both sides: one atomic value.
                (2.., 2..) => {
                    let equal = l.len() == r.len()
                        && (l.iter().zip(r))
                            .all(|((_, a), (_, b))| value::equals(&lhs[*a], &rhs[*b - n]));
                    if !equal {
                        part.below.modified.add_member(pe);
                    }
                }
                // No longer duplicated: the single item is new, the duplicate marker goes.
                (2.., _) => {
                    part.below.removed.add_member(pe.clone());
                    if let Some(r0) = r0 {
                        items.push(Item::Child {
                            pe,
                            lhs: None,
                            rhs: Some(r0),
                            t: elem,
                        });
                    }
                }
                // Newly duplicated: the single item goes, the duplicate marker is new.
                (_, 2..) => {
                    part.below.added.add_member(pe.clone());
                    if let Some(l0) = l0 {
                        items.push(Item::Child {
                            pe,
                            lhs: Some(l0),
                            rhs: None,
                            t: elem,
                        });
                    }
                }
            }
        }
    }
}

/// The fields of both maps once each, in order (both are sorted: one pass merges them).
fn compare_map_items<'v>(
    map: &MapT,
    lhs: Option<&'v Map<String, Value>>,
    rhs: Option<&'v Map<String, Value>>,
    items: &mut Vec<Item<'v>>,
) {
    // At least the larger side's fields (and at most both sides'): one allocation per node.
    items.reserve(lhs.map_or(0, Map::len).max(rhs.map_or(0, Map::len)));
    let mut l = lhs.into_iter().flat_map(Map::keys).peekable();
    let mut r = rhs.into_iter().flat_map(Map::keys).peekable();
    loop {
        let key = match (l.peek(), r.peek()) {
            (None, None) => return,
            (Some(a), Some(b)) if a == b => {
                r.next();
                l.next()
            }
            (Some(a), Some(b)) if a < b => l.next(),
            (Some(_), None) => l.next(),
            _ => r.next(),
        }
        .expect("peeked");
        let pe = PathElement::Field(key.clone());
        let Some(t) = map.type_of(key) else {
            items.push(Item::Errors(
                ValidationErrors::one("schema error: invalid atom: inlined").prefixed(&pe),
            ));
            continue;
        };
        items.push(Item::Child {
            pe,
            lhs: lhs.and_then(|m| m.get(key)),
            rhs: rhs.and_then(|m| m.get(key)),
            t,
        });
    }
}

/// A finished child joins its parent: its errors under its element, its changes below it.
fn finish(parent: &mut Frame<'_>, child: Frame<'_>) {
    let pe = child.pe.expect("a child has an element");
    parent.errs.extend(child.errs.prefixed(&pe));
    parent.part.attach(pe, child.part);
}
