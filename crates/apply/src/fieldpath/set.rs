//! Sets of field paths, stored as a tree.
//!
//! Mirrors structured-merge-diff `fieldpath/set.go`. A node lists its *members* (the paths that end
//! there) and its *children* (the subtrees of paths that go deeper). A path is in the set only if
//! it is a member: `.spec.replicas` in a set does not put `.spec` in it.
//!
//! Both are sorted vectors, as Go's sorted slices: the algebra merges them in one pass. Builders
//! that walk a value add a node's elements in the value's order through a [`SetBuilder`], which
//! sorts them once when the node is done (a list may hold 100,000 items in any order).

use std::fmt;

use super::sorted::{Lookup, Pair, SortedMap, SortedSet, lookup, merge};
use super::{Path, PathElement};

/// A set of field paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set {
    /// The elements whose paths end at this node.
    pub(crate) members: SortedSet<PathElement>,
    /// The subtrees of paths that continue below an element. A child may be an empty set.
    pub(crate) children: SortedMap<PathElement, Set>,
}

/// One node of a [`Set`] being built in walk order: elements are appended as they come and
/// sorted once by [`SetBuilder::finish`], so a node of n elements costs O(n log n) whatever their
/// order.
#[derive(Default)]
pub(crate) struct SetBuilder {
    members: Vec<PathElement>,
    children: Vec<(PathElement, Set)>,
    /// How many elements the node may get: each vector takes that room when it gets its first
    /// one, instead of growing (and reallocating) from four.
    hint: usize,
}

impl super::FieldsBuilder for SetBuilder {
    type Out = Set;

    fn set_hint(&mut self, hint: usize) {
        SetBuilder::set_hint(self, hint);
    }

    fn add_member(&mut self, pe: PathElement) {
        SetBuilder::add_member(self, pe);
    }

    fn attach(&mut self, pe: PathElement, member: bool, child: Set) {
        match (member, !child.is_empty_node()) {
            (true, true) => {
                self.add_member(pe.clone());
                self.add_child(pe, child);
            }
            (true, false) => self.add_member(pe),
            (false, true) => self.add_child(pe, child),
            (false, false) => {}
        }
    }

    fn finish(self) -> Set {
        SetBuilder::finish(self)
    }
}

impl SetBuilder {
    pub(crate) fn set_hint(&mut self, hint: usize) {
        self.hint = hint;
    }

    pub(crate) fn add_member(&mut self, pe: PathElement) {
        if self.members.capacity() == 0 {
            self.members.reserve_exact(self.hint);
        }
        self.members.push(pe);
    }

    /// Adds `child` below `pe`; a child given twice is joined with the earlier one.
    pub(crate) fn add_child(&mut self, pe: PathElement, child: Set) {
        if self.children.capacity() == 0 {
            self.children.reserve_exact(self.hint);
        }
        self.children.push((pe, child));
    }

    /// The node, children given twice joined.
    pub(crate) fn finish(self) -> Set {
        self.finish_with(Set::union_with)
    }

    /// The node, a child given twice replaced by the later one (`readIterV1`: `*Descend(pe) =`).
    pub(crate) fn finish_last_wins(self) -> Set {
        self.finish_with(|a, b| *a = b)
    }

    fn finish_with(mut self, join: impl FnMut(&mut Set, Set)) -> Set {
        // Room for a hint much larger than what came (one change in a long list) is given back.
        fn fit<T>(v: &mut Vec<T>) {
            if v.capacity() > 2 * v.len() + 8 {
                v.shrink_to_fit();
            }
        }
        fit(&mut self.members);
        fit(&mut self.children);
        Set {
            members: SortedSet::from_vec(self.members),
            children: SortedMap::from_vec_with(self.children, join),
        }
    }
}

impl Set {
    /// The empty set.
    #[must_use]
    pub fn new() -> Set {
        Set::default()
    }

    /// A set of the given paths. They are sorted first, so that each is added at the end of its
    /// nodes: O(n log n) in any order.
    pub fn from_paths<I: IntoIterator<Item = Path>>(paths: I) -> Set {
        let mut paths: Vec<Path> = paths.into_iter().collect();
        paths.sort();
        let mut s = Set::new();
        for p in &paths {
            s.insert(p);
        }
        s
    }

    /// Adds `path` (not its parents). The empty path is ignored: nobody owns the whole object.
    ///
    /// An element is found in O(log n); one that does not sort after its node's others shifts
    /// them (O(n)). Many paths in no particular order go through [`Set::from_paths`].
    pub fn insert(&mut self, path: &Path) {
        self.insert_elements(&path.0);
    }

    pub(crate) fn insert_elements(&mut self, path: &[PathElement]) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for pe in parents {
            // Elements are cloned only when added: a path is inserted once per field below it,
            // so a deep object walks this loop (depth × fields) times.
            node = node.children.get_or_insert_default(pe);
        }
        node.members.insert(last);
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
            members: SortedSet::new(),
            children: SortedMap::new(),
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
        let children = merge(self.children.iter(), other.children.iter(), |a, b| {
            a.0.cmp(b.0)
        })
        .map(|p| match p {
            Pair::Left((pe, c)) | Pair::Right((pe, c)) => (pe.clone(), c.clone()),
            Pair::Both((pe, mine), (_, theirs)) => (pe.clone(), mine.union(theirs)),
        })
        .collect();
        Set {
            members: self.members.union(&other.members),
            children: SortedMap::from_sorted(children),
        }
    }

    /// The paths in both sets. The work follows `self`'s nodes, each of `other`'s found by
    /// galloping (a small set against a large one is not a walk of the large one).
    #[must_use]
    pub fn intersection(&self, other: &Set) -> Set {
        let children = lookup_children(self, other)
            .filter_map(|((pe, mine), theirs)| {
                let i = mine.intersection(&theirs?.1);
                (!i.is_empty()).then(|| (pe.clone(), i))
            })
            .collect();
        Set {
            members: self.members.intersection(&other.members),
            children: SortedMap::from_sorted(children),
        }
    }

    /// The paths of `self` that are not members of `other`. A parent minus its child stays; a
    /// child minus its parent stays too (`Difference`). The work follows `self`'s nodes.
    #[must_use]
    pub fn difference(&self, other: &Set) -> Set {
        let children = lookup_children(self, other)
            .filter_map(|((pe, mine), theirs)| match theirs {
                None => Some((pe.clone(), mine.clone())),
                Some((_, theirs)) => {
                    let d = mine.difference(theirs);
                    // Nodes without members are dropped only where both sides had them.
                    (!d.is_empty()).then(|| (pe.clone(), d))
                }
            })
            .collect();
        Set {
            members: self.members.difference(&other.members),
            children: SortedMap::from_sorted(children),
        }
    }

    /// The paths of `self` that neither are in `other` nor lie below a member of `other`
    /// (`RecursiveDifference`): `a.b.c` minus `a.b` leaves nothing under `a`. The work follows
    /// `self`'s nodes.
    #[must_use]
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let children = lookup_children(self, other)
            .filter_map(|((pe, mine), theirs)| {
                if other.members.contains(pe) {
                    return None;
                }
                match theirs {
                    None => Some((pe.clone(), mine.clone())),
                    Some((_, theirs)) => {
                        let d = mine.recursive_difference(theirs);
                        (!d.is_empty()).then(|| (pe.clone(), d))
                    }
                }
            })
            .collect();
        Set {
            members: self.members.difference(&other.members),
            children: SortedMap::from_sorted(children),
        }
    }

    /// Only the leaves: members that have no children (`Leaves`).
    #[must_use]
    pub fn leaves(&self) -> Set {
        let members = merge(self.members.iter(), self.children.keys(), |a, b| a.cmp(b))
            .filter_map(|p| match p {
                Pair::Left(pe) => Some(pe.clone()),
                _ => None,
            })
            .collect();
        let children = self
            .children
            .iter()
            .map(|(pe, c)| (pe.clone(), c.leaves()))
            .collect();
        Set {
            members: SortedSet::from_sorted(members),
            children: SortedMap::from_sorted(children),
        }
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
        for (pe, child) in self.children.iter() {
            prefix.push(pe.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    /// Adds the paths of `other`, taking its nodes instead of copying them (an explicit stack:
    /// both sets may be as deep as the object). Each node is one merge of the two sides.
    pub(crate) fn union_with(&mut self, mut other: Set) {
        if self.is_empty_node() {
            std::mem::swap(self, &mut other);
            return;
        }
        let mut stack: Vec<(&mut Set, Set)> = vec![(self, other)];
        while let Some((dst, mut src)) = stack.pop() {
            dst.members.append(std::mem::take(&mut src.members));
            let theirs = std::mem::take(&mut src.children);
            if theirs.is_empty() {
                continue;
            }
            let mine = std::mem::take(&mut dst.children);
            let mut joined = Vec::with_capacity(mine.len() + theirs.len());
            // Children on both sides, by their place in `joined`, joined below once it is kept.
            let mut overlap = Vec::new();
            for p in merge(mine.into_vec(), theirs.into_vec(), |a, b| a.0.cmp(&b.0)) {
                match p {
                    Pair::Left(e) | Pair::Right(e) => joined.push(e),
                    Pair::Both(e, (_, child)) => {
                        overlap.push((joined.len(), child));
                        joined.push(e);
                    }
                }
            }
            dst.children = SortedMap::from_sorted(joined);
            let mut overlap = overlap.into_iter().peekable();
            for (i, (_, mine)) in dst.children.iter_mut().enumerate() {
                match overlap.next_if(|(j, _)| *j == i) {
                    Some((_, child)) => stack.push((mine, child)),
                    None if overlap.peek().is_none() => break,
                    None => {}
                }
            }
        }
    }

    /// [`Set::recursive_difference`] in place, for a small `other` (reset fields): the work
    /// follows `other`'s nodes, `self` is not copied.
    pub(crate) fn remove_recursive(&mut self, other: &Set) {
        self.members.remove_all(&other.members);
        self.children.remove_keys(other.members.as_slice());
        let mut emptied = Vec::new();
        for (pe, theirs) in other.children.iter() {
            if other.members.contains(pe) {
                continue;
            }
            if let Some(mine) = self.children.get_mut(pe) {
                mine.remove_recursive(theirs);
                if mine.is_empty() {
                    emptied.push(pe);
                }
            }
        }
        self.children.remove_keys(&emptied);
    }

    /// [`Set::difference`] in place, for a small `other` (the fields nobody owns): the work
    /// follows `other`'s nodes, `self` is not copied.
    pub(crate) fn remove(&mut self, other: &Set) {
        self.members.remove_all(&other.members);
        let mut emptied = Vec::new();
        for (pe, theirs) in other.children.iter() {
            if let Some(mine) = self.children.get_mut(pe) {
                mine.remove(theirs);
                if mine.is_empty() {
                    emptied.push(pe);
                }
            }
        }
        self.children.remove_keys(&emptied);
    }
}

type Child = (PathElement, Set);

/// Each child of `mine` with `theirs`' child of the same element, if any.
fn lookup_children<'a>(
    mine: &'a Set,
    theirs: &'a Set,
) -> Lookup<'a, Child, Child, impl Fn(&Child, &Child) -> std::cmp::Ordering> {
    lookup(
        mine.children.as_slice(),
        theirs.children.as_slice(),
        |b: &Child, a: &Child| b.0.cmp(&a.0),
    )
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

#[cfg(test)]
pub(crate) mod tests;
