//! The fields a value sets, and the struct fields on the way to a set's members.
//!
//! Mirrors structured-merge-diff `typed/tofieldset.go` and `fieldpath/set.go`
//! (`EnsureNamedFieldsAreMembers`). The same walk collects what a comparison finds added where
//! the left-hand side has nothing (`typed/compare.go` on a missing `lhs`: every node added),
//! which every create and every new subtree of an update goes through.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Shape, ValidationErrors, Walk, deduce, list_item_element, pick};
use crate::fieldpath::{FieldsBuilder, PathElement, Set, SetBuilder};
use crate::schema::{DEDUCED, MapT, TypeId};

/// Which set a walk collects.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Collect {
    /// `toFieldSetWalker`: the leaves a value sets, with map keys and null or empty struct
    /// fields.
    Owned,
    /// What `compareWalker` finds added when the left-hand side is missing: every node. List
    /// items without an element type are walked as deduced, and an item whose key cannot be
    /// read is an error, as in the comparison.
    Added,
}

/// What a child's walk starts from: its type, or why it has none.
#[derive(Clone, Copy)]
enum ChildType {
    Walk(TypeId),
    /// A list item without an element type: owned, not walked.
    Skip,
    /// A map field without a type: `schema error: invalid atom: inlined`.
    Invalid,
}

/// A child still to be walked: its element, its value, and whether its own path is a member
/// whatever lies below it.
struct Task<'v> {
    pe: PathElement,
    value: &'v Value,
    ty: ChildType,
    member: bool,
}

/// The children of a container still to walk, taken one at a time from the value (no list of
/// them is built).
enum Children<'v, 's> {
    None,
    Map {
        map: &'s MapT,
        fields: serde_json::map::Iter<'v>,
        collect: Collect,
    },
    List {
        items: std::iter::Zip<std::slice::Iter<'v, Value>, std::vec::IntoIter<Option<PathElement>>>,
        duplicates: BTreeSet<PathElement>,
        ty: ChildType,
    },
}

impl<'v> Iterator for Children<'v, '_> {
    type Item = Task<'v>;

    fn next(&mut self) -> Option<Task<'v>> {
        match self {
            Children::None => None,
            Children::Map {
                map,
                fields,
                collect,
            } => {
                let (key, val) = fields.next()?;
                let empty = matches!(val, Value::Object(m) if m.is_empty());
                Some(Task {
                    pe: PathElement::Field(key.clone()),
                    value: val,
                    ty: map.type_of(key).map_or(ChildType::Invalid, ChildType::Walk),
                    // Keys of maps are owned themselves, struct fields only when null or empty;
                    // every node is added.
                    member: *collect == Collect::Added
                        || val.is_null()
                        || empty
                        || !map.fields.contains_key(key),
                })
            }
            Children::List {
                items,
                duplicates,
                ty,
            } => loop {
                let (child, pe) = items.next()?;
                let Some(pe) = pe else { continue };
                if duplicates.contains(&pe) {
                    continue;
                }
                break Some(Task {
                    pe,
                    value: child,
                    ty: *ty,
                    member: true,
                });
            },
        }
    }
}

/// A container on the way down: its part of the field set (paths relative to it), built as its
/// children finish, and the children still to walk.
struct Frame<'v, 's, B> {
    pe: Option<PathElement>,
    member: bool,
    set: B,
    children: Children<'v, 's>,
}

/// What a value holds under its type, before its children are walked.
struct Node<'v, 's, B> {
    /// A leaf: scalar, atomic list or atomic map; its path is a member.
    leaf: bool,
    /// Members known before the walk (items of an associative list given twice).
    set: B,
    children: Children<'v, 's>,
}

impl<'s> Walk<'s> {
    /// `toFieldSetWalker` (or the comparison's added set, see [`Collect`]), with an explicit
    /// stack: each container's subset is built while its children are walked and joins its
    /// parent's once, so the work is linear in the value's size at any depth (a path is never
    /// inserted from the root). The set is relative to `v`, without `v` itself.
    pub(crate) fn collect_field_set<B: FieldsBuilder>(
        &self,
        v: &Value,
        t: TypeId,
        collect: Collect,
    ) -> (B::Out, ValidationErrors) {
        let mut errs = ValidationErrors::default();
        let root = match self.field_set_node::<B>(v, t, collect) {
            Ok(n) => n,
            Err(e) => return (B::default().finish(), e),
        };
        let mut stack = Vec::with_capacity(16);
        stack.push(Frame {
            pe: None,
            member: false,
            set: root.set,
            children: root.children,
        });
        loop {
            let top = stack.last_mut().expect("the root stays until the end");
            let Some(task) = top.children.next() else {
                let done = stack.pop().expect("top");
                let set = done.set.finish();
                match (stack.last_mut(), done.pe) {
                    (Some(parent), Some(pe)) => parent.set.attach(pe, done.member, set),
                    _ => return (set, errs),
                }
                continue;
            };
            let mut member = task.member;
            let node = match task.ty {
                ChildType::Walk(t) => match self.field_set_node::<B>(task.value, t, collect) {
                    Ok(n) => Some(n),
                    Err(e) => {
                        errs.extend(e);
                        None
                    }
                },
                ChildType::Skip => None,
                ChildType::Invalid => {
                    errs.extend(ValidationErrors::one("schema error: invalid atom: inlined"));
                    None
                }
            };
            match node {
                Some(Node {
                    set,
                    children: Children::None,
                    leaf,
                }) => {
                    member |= leaf;
                    top.set.attach(task.pe, member, set.finish());
                }
                Some(n) => stack.push(Frame {
                    pe: Some(task.pe),
                    member,
                    set: n.set,
                    children: n.children,
                }),
                None => top.set.attach(task.pe, member, B::default().finish()),
            }
        }
    }

    /// What `compareWalker` finds added when the left-hand side is an object holding only the
    /// root fields `same`, equal on both sides (a create: the empty object of a kind, its
    /// `apiVersion` and `kind`): every other field of the root, each with every node below it.
    /// `None` where the comparison would find more or fail: a root that is not a map compared
    /// field by field, a field without a type, a part that does not type.
    pub(crate) fn created_field_set<B: FieldsBuilder>(
        &self,
        v: &Value,
        t: TypeId,
        same: &[&str],
    ) -> Option<B::Out> {
        let atom = self.schema.atom(t);
        let (Ok(Shape::Map), Value::Object(m)) = (pick(atom, deduce(atom, Some(v))), v) else {
            return None;
        };
        let map = atom.map.as_ref().filter(|map| !map.atomic)?;
        let mut out = B::default();
        out.set_hint(m.len());
        for (key, value) in m {
            if same.contains(&key.as_str()) {
                continue;
            }
            let (set, errs) = self.collect_field_set::<B>(value, map.type_of(key)?, Collect::Added);
            if !errs.is_empty() {
                return None;
            }
            out.attach(PathElement::Field(key.clone()), true, set);
        }
        Some(out.finish())
    }

    /// One step of `toFieldSetWalker.toFieldSet`: the shape of `v` and its children.
    fn field_set_node<'v, B: FieldsBuilder>(
        &self,
        v: &'v Value,
        t: TypeId,
        collect: Collect,
    ) -> Result<Node<'v, 's, B>, ValidationErrors> {
        let atom = self.schema.atom(t);
        let shape = pick(atom, deduce(atom, Some(v)))?;
        let mut node = Node {
            leaf: false,
            set: B::default(),
            children: Children::None,
        };
        match shape {
            Shape::Scalar => node.leaf = true,
            Shape::List => {
                let list = atom.list.as_ref().expect("picked");
                if !list.associative {
                    node.leaf = true;
                    return Ok(node);
                }
                let Value::Array(items) = v else {
                    return Ok(node);
                };
                let pes: Vec<Option<PathElement>> = match collect {
                    Collect::Owned => items
                        .iter()
                        .map(|c| list_item_element(self.schema, list, c).ok())
                        .collect(),
                    Collect::Added => items
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            list_item_element(self.schema, list, c)
                                .map(Some)
                                .map_err(|e| ValidationErrors::one(format!("element {i}: {e}")))
                        })
                        .collect::<Result<_, _>>()?,
                };
                node.set.set_hint(items.len());
                // An item given twice is owned as a whole, without its fields.
                let mut seen = BTreeSet::new();
                let mut duplicates = BTreeSet::new();
                for pe in pes.iter().flatten() {
                    if !seen.insert(pe) && !duplicates.contains(pe) {
                        duplicates.insert(pe.clone());
                    }
                }
                for pe in &duplicates {
                    node.set.add_member(pe.clone());
                }
                node.children = Children::List {
                    items: items.iter().zip(pes),
                    duplicates,
                    ty: match (collect, list.elem) {
                        (_, Some(t)) => ChildType::Walk(t),
                        (Collect::Owned, None) => ChildType::Skip,
                        (Collect::Added, None) => ChildType::Walk(DEDUCED),
                    },
                };
            }
            Shape::Map => {
                let map = atom.map.as_ref().expect("picked");
                if map.atomic {
                    node.leaf = true;
                    return Ok(node);
                }
                let Value::Object(m) = v else {
                    return Ok(node);
                };
                node.set.set_hint(m.len());
                node.children = Children::Map {
                    map,
                    fields: m.iter(),
                    collect,
                };
            }
        }
        Ok(node)
    }

    /// `Set.EnsureNamedFieldsAreMembers` under type `t`.
    pub(crate) fn ensure_named_fields(&self, set: &Set, t: Option<TypeId>) -> Set {
        let atom = self.atom(t);
        let mut out = SetBuilder::default();
        for pe in set.members() {
            out.add_member(pe.clone());
        }
        for (pe, child) in set.children() {
            let mut child_type = None;
            match pe {
                PathElement::Field(name) => {
                    if let Some(map) = &atom.map {
                        child_type = map.elem;
                        if let Some(f) = map.fields.get(name) {
                            child_type = f.ty;
                            out.add_member(pe.clone());
                        }
                    }
                }
                PathElement::Key(_) => {
                    if let Some(list) = &atom.list {
                        child_type = list.elem;
                    }
                }
                _ => {}
            }
            out.add_child(pe.clone(), self.ensure_named_fields(child, child_type));
        }
        out.finish()
    }
}
