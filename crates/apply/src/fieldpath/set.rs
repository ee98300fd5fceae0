//! Sets of field paths, stored as a tree.
//!
//! Mirrors structured-merge-diff `fieldpath/set.go`. A node lists its *members* (the paths that end
//! there) and its *children* (the subtrees of paths that go deeper). A path is in the set only if
//! it is a member: `.spec.replicas` in a set does not put `.spec` in it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::{Path, PathElement};

/// A set of field paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set {
    /// The elements whose paths end at this node.
    pub(crate) members: BTreeSet<PathElement>,
    /// The subtrees of paths that continue below an element. A child may be an empty set.
    pub(crate) children: BTreeMap<PathElement, Set>,
}

impl Set {
    /// The empty set.
    #[must_use]
    pub fn new() -> Set {
        Set::default()
    }

    /// A set of the given paths.
    pub fn from_paths<I: IntoIterator<Item = Path>>(paths: I) -> Set {
        let mut s = Set::new();
        for p in paths {
            s.insert(&p);
        }
        s
    }

    /// Adds `path` (not its parents). The empty path is ignored: nobody owns the whole object.
    pub fn insert(&mut self, path: &Path) {
        self.insert_elements(&path.0);
    }

    pub(crate) fn insert_elements(&mut self, path: &[PathElement]) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for pe in parents {
            // Found without cloning the element: a path is inserted once per field below it,
            // so a deep object walks this loop (depth × fields) times.
            if !node.children.contains_key(pe) {
                node.children.insert(pe.clone(), Set::default());
            }
            node = node.children.get_mut(pe).expect("inserted above");
        }
        if !node.members.contains(last) {
            node.members.insert(last.clone());
        }
    }

    /// Whether `path` is a member.
    #[must_use]
    pub fn has(&self, path: &Path) -> bool {
        let Some((last, parents)) = path.0.split_last() else {
            return false;
        };
        let mut node = self;
        for pe in parents {
            match node.children.get(pe) {
                Some(n) => node = n,
                None => return false,
            }
        }
        node.members.contains(last)
    }

    /// Whether the element `pe` is a member of this node.
    #[must_use]
    pub fn has_member(&self, pe: &PathElement) -> bool {
        self.members.contains(pe)
    }

    /// The members of this node.
    pub fn members(&self) -> impl Iterator<Item = &PathElement> {
        self.members.iter()
    }

    /// The children of this node: the subsets of paths below an element.
    pub fn children(&self) -> impl Iterator<Item = (&PathElement, &Set)> {
        self.children.iter()
    }

    /// The paths below `pe`, without `pe` (`WithPrefix`).
    #[must_use]
    pub fn with_prefix(&self, pe: &PathElement) -> &Set {
        static EMPTY: Set = Set {
            members: BTreeSet::new(),
            children: BTreeMap::new(),
        };
        self.children.get(pe).unwrap_or(&EMPTY)
    }

    /// Whether the set has no member at any depth.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        let mut stack = vec![self];
        while let Some(s) = stack.pop() {
            if !s.members.is_empty() {
                return false;
            }
            stack.extend(s.children.values());
        }
        true
    }

    /// Whether this node has neither members nor children (a node a builder never keeps).
    pub(crate) fn is_empty_node(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// The number of members at every depth.
    #[must_use]
    pub fn size(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(s) = stack.pop() {
            n += s.members.len();
            stack.extend(s.children.values());
        }
        n
    }

    /// The paths in either set.
    #[must_use]
    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.union_in_place(other);
        out
    }

    fn union_in_place(&mut self, other: &Set) {
        self.members.extend(other.members.iter().cloned());
        for (pe, child) in &other.children {
            match self.children.get_mut(pe) {
                Some(mine) => mine.union_in_place(child),
                None => {
                    self.children.insert(pe.clone(), child.clone());
                }
            }
        }
    }

    /// The paths in both sets.
    #[must_use]
    pub fn intersection(&self, other: &Set) -> Set {
        let members = self.members.intersection(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, child) in &self.children {
            if let Some(theirs) = other.children.get(pe) {
                let i = child.intersection(theirs);
                if !i.is_empty() {
                    children.insert(pe.clone(), i);
                }
            }
        }
        Set { members, children }
    }

    /// The paths of `self` that are not members of `other`. A parent minus its child stays; a
    /// child minus its parent stays too (`Difference`).
    #[must_use]
    pub fn difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, child) in &self.children {
            match other.children.get(pe) {
                Some(theirs) => {
                    let d = child.difference(theirs);
                    // Nodes without members are dropped only where both sides had them.
                    if !d.is_empty() {
                        children.insert(pe.clone(), d);
                    }
                }
                None => {
                    children.insert(pe.clone(), child.clone());
                }
            }
        }
        Set { members, children }
    }

    /// The paths of `self` that neither are in `other` nor lie below a member of `other`
    /// (`RecursiveDifference`): `a.b.c` minus `a.b` leaves nothing under `a`.
    #[must_use]
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, child) in &self.children {
            if other.members.contains(pe) {
                continue;
            }
            match other.children.get(pe) {
                Some(theirs) => {
                    let d = child.recursive_difference(theirs);
                    if !d.is_empty() {
                        children.insert(pe.clone(), d);
                    }
                }
                None => {
                    children.insert(pe.clone(), child.clone());
                }
            }
        }
        Set { members, children }
    }

    /// Only the leaves: members that have no children (`Leaves`).
    #[must_use]
    pub fn leaves(&self) -> Set {
        let members = self
            .members
            .iter()
            .filter(|pe| !self.children.contains_key(pe))
            .cloned()
            .collect();
        let children = self
            .children
            .iter()
            .map(|(pe, c)| (pe.clone(), c.leaves()))
            .collect();
        Set { members, children }
    }

    /// Every member path, members of a node before the paths below it (`Iterate`).
    #[must_use]
    pub fn iter(&self) -> SetIter {
        let mut out = Vec::new();
        self.collect_paths(&mut Vec::new(), &mut out);
        SetIter(out.into_iter())
    }

    fn collect_paths(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        for pe in &self.members {
            let mut p = prefix.clone();
            p.push(pe.clone());
            out.push(Path(p));
        }
        for (pe, child) in &self.children {
            prefix.push(pe.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    /// Adds `child` below `pe`, joining the subtree there if there is one. Builders that walk a
    /// value add each finished subtree once, in order, instead of inserting every path from the
    /// root.
    pub(crate) fn add_child(&mut self, pe: PathElement, child: Set) {
        match self.children.entry(pe) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(child);
            }
            std::collections::btree_map::Entry::Occupied(mut o) => o.get_mut().union_with(child),
        }
    }

    /// Adds the paths of `other`, taking its nodes instead of copying them (an explicit stack:
    /// both sets may be as deep as the object).
    pub(crate) fn union_with(&mut self, mut other: Set) {
        if self.members.is_empty() && self.children.is_empty() {
            std::mem::swap(self, &mut other);
            return;
        }
        let mut stack: Vec<(&mut Set, Set)> = vec![(self, other)];
        while let Some((dst, mut src)) = stack.pop() {
            if dst.members.is_empty() {
                std::mem::swap(&mut dst.members, &mut src.members);
            } else {
                dst.members.append(&mut src.members);
            }
            let mut overlap = BTreeMap::new();
            for (pe, child) in std::mem::take(&mut src.children) {
                // An `Entry` would keep the element for the occupied case; it moves to `overlap`.
                #[allow(clippy::map_entry)]
                if dst.children.contains_key(&pe) {
                    overlap.insert(pe, child);
                } else {
                    dst.children.insert(pe, child);
                }
            }
            if overlap.is_empty() {
                continue;
            }
            // Both sides in element order: one pass pairs them.
            let mut theirs = overlap.into_iter().peekable();
            for (pe, mine) in &mut dst.children {
                match theirs.peek() {
                    Some((p, _)) if p == pe => {
                        let (_, child) = theirs.next().expect("peeked");
                        stack.push((mine, child));
                    }
                    Some(_) => {}
                    None => break,
                }
            }
        }
    }

    /// [`Set::recursive_difference`] in place, for a small `other` (reset fields): the work
    /// follows `other`'s nodes, `self` is not copied.
    pub(crate) fn remove_recursive(&mut self, other: &Set) {
        for pe in &other.members {
            self.members.remove(pe);
            self.children.remove(pe);
        }
        for (pe, theirs) in &other.children {
            if other.members.contains(pe) {
                continue;
            }
            if let Some(mine) = self.children.get_mut(pe) {
                mine.remove_recursive(theirs);
                if mine.is_empty() {
                    self.children.remove(pe);
                }
            }
        }
    }

    /// [`Set::difference`] in place, for a small `other` (the fields nobody owns): the work
    /// follows `other`'s nodes, `self` is not copied.
    pub(crate) fn remove(&mut self, other: &Set) {
        for pe in &other.members {
            self.members.remove(pe);
        }
        for (pe, theirs) in &other.children {
            if let Some(mine) = self.children.get_mut(pe) {
                mine.remove(theirs);
                if mine.is_empty() {
                    self.children.remove(pe);
                }
            }
        }
    }

    /// The child set at `pe`, created if missing (`Children.Descend`).
    pub(crate) fn descend(&mut self, pe: &PathElement) -> &mut Set {
        self.children.entry(pe.clone()).or_default()
    }
}

impl Drop for Set {
    /// Takes the tree apart with an explicit stack: a set is as deep as the object it was built
    /// from, and the default drop would recurse once per level.
    fn drop(&mut self) {
        if self.children.is_empty() {
            return;
        }
        let mut stack: Vec<Set> = std::mem::take(&mut self.children).into_values().collect();
        while let Some(mut s) = stack.pop() {
            stack.extend(std::mem::take(&mut s.children).into_values());
        }
    }
}

/// The member paths of a [`Set`], in [`Set::iter`]'s order.
pub struct SetIter(std::vec::IntoIter<Path>);

impl Iterator for SetIter {
    type Item = Path;
    fn next(&mut self) -> Option<Path> {
        self.0.next()
    }
}

impl IntoIterator for &Set {
    type Item = Path;
    type IntoIter = SetIter;
    fn into_iter(self) -> SetIter {
        self.iter()
    }
}

impl fmt::Display for Set {
    /// One path per line (`Set.String`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}
