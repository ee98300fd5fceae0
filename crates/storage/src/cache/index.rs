//! The cache's current state indexed by the terms [`Decode::terms`] names for each object (the
//! server: one per label, its key and value), so that a list selecting one term walks the
//! entries that have it instead of every entry under the prefix. The cacher indexes by fields
//! a kind registers (`cacher.go` `indexedTrigger`, `watch_cache.go` `indexers`); this index is
//! a narrowing only: lists still run their whole filter on what it yields.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::Arc;

use super::{Decode, Entry};

/// Entries by term, each set ordered by key. A set holds the entries themselves, ordered by
/// their own keys: a pointer per object and term, no copy of the key.
pub(super) struct Index<O> {
    by_term: HashMap<String, BTreeSet<ByKey<O>>>,
}

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

impl<O> Default for Index<O> {
    fn default() -> Self {
        Index {
            by_term: HashMap::new(),
        }
    }
}

impl<O> Index<O> {
    /// The index of `entries`.
    pub(super) fn build<'e, D: Decode<Object = O>>(
        entries: impl IntoIterator<Item = &'e Arc<Entry<O>>>,
        decoder: &D,
    ) -> Self
    where
        O: 'e,
    {
        let mut index = Index::default();
        for entry in entries {
            let terms = decoder.terms(&entry.object);
            index.insert(entry, terms);
        }
        index
    }

    /// Adds `entry` under `terms` (what [`Decode::terms`] said of it), replacing the entry of
    /// the same key.
    pub(super) fn insert(&mut self, entry: &Arc<Entry<O>>, terms: Vec<String>) {
        for term in terms {
            self.by_term
                .entry(term)
                .or_default()
                .replace(ByKey(Arc::clone(entry)));
        }
    }

    /// Removes the entry at `key` from `terms` (what [`Decode::terms`] said of it).
    pub(super) fn remove(&mut self, key: &str, terms: Vec<String>) {
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
