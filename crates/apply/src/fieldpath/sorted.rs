//! Sorted, deduplicated vectors: the members and children of a [`Set`](super::Set) node.
//!
//! structured-merge-diff keeps them as sorted slices too (`PathElementSet`, `SetNodeMap` in
//! `fieldpath/set.go` and `fieldpath/element.go`). A vector costs one allocation per node where a
//! B-tree allocates nodes of eleven entries, and the set algebra becomes linear merges.
//!
//! Adding one element in the middle shifts the ones after it, so building a node element by
//! element is quadratic unless they come in order: builders collect a node's elements and sort
//! them once ([`SortedSet::from_vec`], [`SortedMap::from_vec_with`]).

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::iter::Peekable;

/// Where an element of a merge of two sorted sequences comes from.
pub(crate) enum Pair<A, B> {
    Left(A),
    Right(B),
    Both(A, B),
}

/// Two sorted sequences walked together, equal elements paired.
pub(crate) struct Merge<I: Iterator, J: Iterator, F> {
    a: Peekable<I>,
    b: Peekable<J>,
    cmp: F,
}

/// Merges `a` and `b`, both sorted by `cmp`.
pub(crate) fn merge<I, J, F>(a: I, b: J, cmp: F) -> Merge<I::IntoIter, J::IntoIter, F>
where
    I: IntoIterator,
    J: IntoIterator,
    F: FnMut(&I::Item, &J::Item) -> Ordering,
{
    Merge {
        a: a.into_iter().peekable(),
        b: b.into_iter().peekable(),
        cmp,
    }
}

impl<I, J, F> Iterator for Merge<I, J, F>
where
    I: Iterator,
    J: Iterator,
    F: FnMut(&I::Item, &J::Item) -> Ordering,
{
    type Item = Pair<I::Item, J::Item>;

    fn next(&mut self) -> Option<Self::Item> {
        let order = match (self.a.peek(), self.b.peek()) {
            (None, None) => return None,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(x), Some(y)) => (self.cmp)(x, y),
        };
        Some(match order {
            Ordering::Less => Pair::Left(self.a.next()?),
            Ordering::Greater => Pair::Right(self.b.next()?),
            Ordering::Equal => Pair::Both(self.a.next()?, self.b.next()?),
        })
    }
}

/// Each element of `mine` with its equal in `theirs` (both sorted; `cmp` orders an element of
/// `theirs` against one of `mine`), found by galloping forward through `theirs`:
/// O(m log(t/m) + m), so a small set against a large one costs what looking each element up
/// would, and two of a size what a merge would.
pub(crate) struct Lookup<'a, A, B, F> {
    mine: std::slice::Iter<'a, A>,
    theirs: &'a [B],
    cmp: F,
}

pub(crate) fn lookup<'a, A, B, F>(mine: &'a [A], theirs: &'a [B], cmp: F) -> Lookup<'a, A, B, F>
where
    F: Fn(&B, &A) -> Ordering,
{
    Lookup {
        mine: mine.iter(),
        theirs,
        cmp,
    }
}

impl<'a, A, B, F> Iterator for Lookup<'a, A, B, F>
where
    F: Fn(&B, &A) -> Ordering,
{
    type Item = (&'a A, Option<&'a B>);

    fn next(&mut self) -> Option<Self::Item> {
        let a = self.mine.next()?;
        let below = |b: &B| (self.cmp)(b, a) == Ordering::Less;
        // The first of `theirs` not below `a`: double a bound until it passes, then bisect.
        let mut hi = 1;
        while hi <= self.theirs.len() && below(&self.theirs[hi - 1]) {
            hi *= 2;
        }
        let lo = hi / 2;
        let at = lo + self.theirs[lo..hi.min(self.theirs.len())].partition_point(below);
        self.theirs = &self.theirs[at..];
        let found = (self.theirs.first()).filter(|b| (self.cmp)(b, a) == Ordering::Equal);
        Some((a, found))
    }
}

/// Drops the entries of `v` whose key is in `keys` (sorted): a binary search per key until one
/// is found, then one pass.
fn remove_keys<E, K, Q>(v: &mut Vec<E>, key: impl Fn(&E) -> &K, keys: &[Q])
where
    K: Ord,
    Q: Borrow<K>,
{
    let found = keys
        .iter()
        .any(|k| v.binary_search_by(|e| key(e).cmp(k.borrow())).is_ok());
    if !found {
        return;
    }
    let mut next = keys.iter().map(Borrow::borrow).peekable();
    v.retain(|e| {
        let e = key(e);
        while next.next_if(|k| *k < e).is_some() {}
        next.peek().is_none_or(|k| *k != e)
    });
}

/// Distinct elements in ascending order.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct SortedSet<T>(Vec<T>);

impl<T> SortedSet<T> {
    pub(crate) const fn new() -> SortedSet<T> {
        SortedSet(Vec::new())
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        &self.0
    }
}

impl<T: Ord> SortedSet<T> {
    /// Sorts and deduplicates: O(n log n), O(n) for input already in either order.
    pub(crate) fn from_vec(mut v: Vec<T>) -> SortedSet<T> {
        v.sort();
        v.dedup();
        SortedSet(v)
    }

    /// Elements known to be sorted and distinct (checked in debug builds).
    pub(crate) fn from_sorted(v: Vec<T>) -> SortedSet<T> {
        debug_assert!(v.is_sorted_by(|a, b| a < b), "sorted and distinct");
        SortedSet(v)
    }

    pub(crate) fn contains(&self, x: &T) -> bool {
        self.0.binary_search(x).is_ok()
    }

    /// Adds `x` (cloned only when absent). O(1) when it sorts last, else O(log n) to find its
    /// place and O(n) to shift what follows: not for adding many elements out of order.
    pub(crate) fn insert(&mut self, x: &T) -> bool
    where
        T: Clone,
    {
        match self.0.last() {
            None => {}
            Some(last) if *last < *x => {}
            _ => match self.0.binary_search(x) {
                Ok(_) => return false,
                Err(i) => {
                    self.0.insert(i, x.clone());
                    return true;
                }
            },
        }
        self.0.push(x.clone());
        true
    }

    /// Drops the elements of `other`.
    pub(crate) fn remove_all(&mut self, other: &SortedSet<T>) {
        remove_keys(&mut self.0, |e| e, &other.0);
    }

    /// Adds the elements of `other`, taking them: one merge.
    pub(crate) fn append(&mut self, mut other: SortedSet<T>) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            std::mem::swap(self, &mut other);
            return;
        }
        if self.0.last() < other.0.first() {
            self.0.append(&mut other.0);
            return;
        }
        let mine = std::mem::take(&mut self.0);
        self.0.reserve(mine.len() + other.0.len());
        for p in merge(mine, other.0, |a, b| a.cmp(b)) {
            match p {
                Pair::Left(x) | Pair::Right(x) | Pair::Both(x, _) => self.0.push(x),
            }
        }
    }
}

impl<T: Ord + Clone> SortedSet<T> {
    pub(crate) fn union(&self, other: &SortedSet<T>) -> SortedSet<T> {
        SortedSet(
            merge(&self.0, &other.0, |a, b| a.cmp(b))
                .map(|p| match p {
                    Pair::Left(x) | Pair::Right(x) | Pair::Both(x, _) => x.clone(),
                })
                .collect(),
        )
    }

    /// Costs follow `self` (see [`lookup`]).
    pub(crate) fn intersection(&self, other: &SortedSet<T>) -> SortedSet<T> {
        SortedSet(
            lookup(&self.0, &other.0, T::cmp)
                .filter_map(|(x, theirs)| theirs.map(|_| x.clone()))
                .collect(),
        )
    }

    /// Costs follow `self` (see [`lookup`]).
    pub(crate) fn difference(&self, other: &SortedSet<T>) -> SortedSet<T> {
        SortedSet(
            lookup(&self.0, &other.0, T::cmp)
                .filter(|(_, theirs)| theirs.is_none())
                .map(|(x, _)| x.clone())
                .collect(),
        )
    }
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet::new()
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    /// As a `BTreeSet` prints: `{a, b}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.0).finish()
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Entries with distinct keys in ascending key order.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> SortedMap<K, V> {
    pub(crate) const fn new() -> SortedMap<K, V> {
        SortedMap(Vec::new())
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub(crate) fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    pub(crate) fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }

    pub(crate) fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.0.into_iter().map(|(_, v)| v)
    }

    pub(crate) fn as_slice(&self) -> &[(K, V)] {
        &self.0
    }

    pub(crate) fn into_vec(self) -> Vec<(K, V)> {
        self.0
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// Sorts by key (stably); entries of equal keys are folded left to right with `join`.
    /// O(n log n), O(n) for input already in either order.
    pub(crate) fn from_vec_with(
        mut v: Vec<(K, V)>,
        mut join: impl FnMut(&mut V, V),
    ) -> SortedMap<K, V> {
        v.sort_by(|a, b| a.0.cmp(&b.0));
        if v.windows(2).all(|w| w[0].0 != w[1].0) {
            return SortedMap(v);
        }
        let mut out: Vec<(K, V)> = Vec::with_capacity(v.len());
        for (k, val) in v {
            match out.last_mut() {
                Some((last, acc)) if *last == k => join(acc, val),
                _ => out.push((k, val)),
            }
        }
        SortedMap(out)
    }

    /// Entries known to be sorted with distinct keys (checked in debug builds).
    pub(crate) fn from_sorted(v: Vec<(K, V)>) -> SortedMap<K, V> {
        debug_assert!(v.is_sorted_by(|a, b| a.0 < b.0), "sorted and distinct");
        SortedMap(v)
    }

    fn search(&self, k: &K) -> Result<usize, usize> {
        self.0.binary_search_by(|(e, _)| e.cmp(k))
    }

    pub(crate) fn get(&self, k: &K) -> Option<&V> {
        self.search(k).ok().map(|i| &self.0[i].1)
    }

    pub(crate) fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.search(k).ok().map(|i| &mut self.0[i].1)
    }

    /// The value at `k`, a default one added if missing (the key cloned only then). O(1) when
    /// `k` is the last key or sorts after it, else as [`SortedSet::insert`].
    pub(crate) fn get_or_insert_default(&mut self, k: &K) -> &mut V
    where
        K: Clone,
        V: Default,
    {
        let i = match self.0.last() {
            Some((last, _)) if *last == *k => self.0.len() - 1,
            Some((last, _)) if *last > *k => match self.search(k) {
                Ok(i) => i,
                Err(i) => {
                    self.0.insert(i, (k.clone(), V::default()));
                    i
                }
            },
            _ => {
                self.0.push((k.clone(), V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }

    /// Drops the entries whose keys are in `keys` (sorted and distinct).
    pub(crate) fn remove_keys<Q: Borrow<K>>(&mut self, keys: &[Q]) {
        remove_keys(&mut self.0, |(k, _)| k, keys);
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    /// As a `BTreeMap` prints: `{k: v}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_vec_sorts_and_dedups() {
        assert_eq!(
            SortedSet::from_vec(vec![3, 1, 2, 3, 1]).as_slice(),
            &[1, 2, 3]
        );
        let m = SortedMap::from_vec_with(vec![(2, 1), (1, 5), (2, 10), (2, 100)], |a, b| *a += b);
        assert_eq!(m.as_slice(), &[(1, 5), (2, 111)]);
        // Later entries replace earlier ones with a replacing join: the fold is in input order.
        let m = SortedMap::from_vec_with(vec![(2, 1), (1, 5), (2, 10)], |a, b| *a = b);
        assert_eq!(m.as_slice(), &[(1, 5), (2, 10)]);
    }

    #[test]
    fn insert_in_any_order() {
        let mut s = SortedSet::new();
        for x in [5, 1, 9, 5, 3, 9, 0] {
            s.insert(&x);
        }
        assert_eq!(s.as_slice(), &[0, 1, 3, 5, 9]);
        let mut m: SortedMap<i32, i32> = SortedMap::new();
        for k in [5, 1, 9, 5, 1] {
            *m.get_or_insert_default(&k) += 1;
        }
        assert_eq!(m.as_slice(), &[(1, 2), (5, 2), (9, 1)]);
    }

    #[test]
    fn algebra() {
        let a = SortedSet::from_vec(vec![1, 2, 4, 6]);
        let b = SortedSet::from_vec(vec![2, 3, 6, 7]);
        assert_eq!(a.union(&b).as_slice(), &[1, 2, 3, 4, 6, 7]);
        assert_eq!(a.intersection(&b).as_slice(), &[2, 6]);
        assert_eq!(a.difference(&b).as_slice(), &[1, 4]);
        let mut c = a.clone();
        c.append(b.clone());
        assert_eq!(c.as_slice(), &[1, 2, 3, 4, 6, 7]);
        let mut c = a.clone();
        c.remove_all(&b);
        assert_eq!(c.as_slice(), &[1, 4]);
        // Several keys in each gap.
        let mut c = SortedSet::from_vec(vec![1, 5, 9, 12]);
        c.remove_all(&SortedSet::from_vec(vec![
            0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        ]));
        assert_eq!(c.as_slice(), &[1, 12]);
        let mut m = SortedMap::from_sorted(vec![(1, 'a'), (2, 'b'), (3, 'c')]);
        m.remove_keys(&[0, 3, 4]);
        assert_eq!(m.as_slice(), &[(1, 'a'), (2, 'b')]);
        m.remove_keys(&[5]);
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn lookup_finds_what_binary_search_finds() {
        let cases: [(Vec<u32>, Vec<u32>); 5] = [
            (
                (0..1000).map(|x| x * 3).collect(),
                (0..2000).map(|x| x * 5).collect(),
            ),
            ((0..10).map(|x| x * 997).collect(), (0..10_000).collect()),
            ((0..10_000).collect(), (0..10).map(|x| x * 997).collect()),
            (vec![], (0..5).collect()),
            ((0..5).collect(), vec![]),
        ];
        for (mine, theirs) in &cases {
            let got: Vec<Option<&u32>> = lookup(mine, theirs, u32::cmp).map(|(_, t)| t).collect();
            let want: Vec<Option<&u32>> = (mine.iter())
                .map(|m| theirs.binary_search(m).ok().map(|i| &theirs[i]))
                .collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn debug_as_btree() {
        let s = SortedSet::from_vec(vec![2, 1]);
        assert_eq!(
            format!("{s:?}"),
            format!("{:?}", std::collections::BTreeSet::from([1, 2]))
        );
        let m = SortedMap::from_sorted(vec![(1, "a"), (2, "b")]);
        assert_eq!(
            format!("{m:?}"),
            format!(
                "{:?}",
                std::collections::BTreeMap::from([(1, "a"), (2, "b")])
            )
        );
    }
}
