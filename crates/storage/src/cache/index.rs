//! The cache's current state indexed by the terms [`Decode::terms`] names for each object (the
//! server: one per label, its key and value), so that a list selecting one term walks the
//! entries that have it instead of every entry under the prefix. The cacher indexes by fields
//! a kind registers (`cacher.go` `indexedTrigger`, `watch_cache.go` `indexers`); this index
//! holds the families of terms ([`Decode::family`]: the server's label keys) lists have asked
//! for, from the first such list on, so that writes pay for no index nobody reads. It is a
//! narrowing only: lists still run their whole filter on what it yields.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::Bound;
use std::sync::Arc;

use super::{Decode, Entry};

/// Entries by term, each set ordered by key. A set holds the entries themselves, ordered by
/// their own keys: a pointer per object and term, no copy of the key.
pub(super) struct Index<O> {
    by_term: HashMap<String, BTreeSet<ByKey<O>>>,
    /// The families indexed.
    families: HashSet<String>,
}

/// How many families are indexed at most: past them (family names are the clients' to choose),
/// lists of other families walk every entry.
const MAX_FAMILIES: usize = 256;

/// An entry ordered (and borrowed as) its key.
struct ByKey<O>(Arc<Entry<O>>);

impl<O> Borrow<str> for ByKey<O> {
    fn borrow(&self) -> &str {
        &self.0.kv.key
    }
}

impl<O> PartialEq for ByKey<O> {
    fn eq(&self, other: &Self) -> bool {
        self.0.kv.key == other.0.kv.key
    }
}

impl<O> Eq for ByKey<O> {}

impl<O> PartialOrd for ByKey<O> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<O> Ord for ByKey<O> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.kv.key.cmp(&other.0.kv.key)
    }
}

/// Files `entry` under `term`, replacing the entry of the same key.
fn put<O>(by_term: &mut HashMap<String, BTreeSet<ByKey<O>>>, term: String, entry: &Arc<Entry<O>>) {
    by_term
        .entry(term)
        .or_default()
        .replace(ByKey(Arc::clone(entry)));
}

impl<O> Default for Index<O> {
    fn default() -> Self {
        Index {
            by_term: HashMap::new(),
            families: HashSet::new(),
        }
    }
}

impl<O> Index<O> {
    /// Whether `family` is indexed.
    pub(super) fn indexes(&self, family: &str) -> bool {
        self.families.contains(family)
    }

    /// Whether no family is indexed (a write then needs no terms).
    pub(super) fn is_off(&self) -> bool {
        self.families.is_empty()
    }

    /// Indexes `family` over `entries` (the current state); false when [`MAX_FAMILIES`] are.
    pub(super) fn add_family<'e, D: Decode<Object = O>>(
        &mut self,
        family: &str,
        entries: impl IntoIterator<Item = &'e Arc<Entry<O>>>,
        decoder: &D,
    ) -> bool
    where
        O: 'e,
    {
        if self.indexes(family) {
            return true;
        }
        if self.families.len() >= MAX_FAMILIES {
            return false;
        }
        // Built aside, then joined: a decoder panicking half-way changes nothing.
        let mut fresh: HashMap<String, BTreeSet<ByKey<O>>> = HashMap::new();
        for entry in entries {
            for term in decoder.terms(&entry.object) {
                if decoder.family(&term) == family {
                    put(&mut fresh, term, entry);
                }
            }
        }
        self.by_term.extend(fresh);
        self.families.insert(family.to_owned());
        true
    }

    /// The index of `entries` for the same families.
    pub(super) fn rebuild<D: Decode<Object = O>>(
        &self,
        entries: &BTreeMap<String, Arc<Entry<O>>>,
        decoder: &D,
    ) -> Self {
        let mut index = Index::default();
        for family in &self.families {
            index.add_family(family, entries.values(), decoder);
        }
        index
    }

    /// Adds `entry` under `terms` (what [`Decode::terms`] said of it) of indexed families,
    /// replacing the entry of the same key.
    pub(super) fn insert<D: Decode<Object = O>>(
        &mut self,
        entry: &Arc<Entry<O>>,
        terms: Vec<String>,
        decoder: &D,
    ) {
        for term in terms {
            if self.indexes(decoder.family(&term)) {
                put(&mut self.by_term, term, entry);
            }
        }
    }

    /// Removes the entry at `key` from `terms` (what [`Decode::terms`] said of it).
    pub(super) fn remove(&mut self, key: &str, terms: Vec<String>) {
        // A term of a family not indexed has no set: nothing to look up.
        for term in terms {
            if let Some(set) = self.by_term.get_mut(&term) {
                set.remove(key);
                if set.is_empty() {
                    self.by_term.remove(&term);
                }
            }
        }
    }

    /// The entries having `term` with keys between `lower` and `upper` (`lower` before
    /// `upper`), by key.
    pub(super) fn range<'a>(
        &'a self,
        term: &str,
        lower: Bound<&str>,
        upper: Bound<&str>,
    ) -> impl Iterator<Item = &'a Arc<Entry<O>>> {
        self.by_term
            .get(term)
            .into_iter()
            .flat_map(move |set| set.range::<str, _>((lower, upper)))
            .map(|e| &e.0)
    }
}
