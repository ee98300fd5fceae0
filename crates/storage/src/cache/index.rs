//! The cache's current state indexed by the terms [`Decode::terms`] names for each object (the
//! server: one per label, its key and value), so that a list selecting one term walks the
//! entries that have it instead of every entry under the prefix. The cacher indexes by fields
//! a kind registers (`cacher.go` `indexedTrigger`, `watch_cache.go` `indexers`); this index is
//! a narrowing only: lists still run their whole filter on what it yields.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::{Decode, Entry};

/// Entries by term, each set sorted by key.
pub(super) struct Index<O> {
    by_term: HashMap<String, BTreeMap<String, Arc<Entry<O>>>>,
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

    /// Adds `entry` under `terms` (what [`Decode::terms`] said of it).
    pub(super) fn insert(&mut self, entry: &Arc<Entry<O>>, terms: Vec<String>) {
        for term in terms {
            self.by_term
                .entry(term)
                .or_default()
                .insert(entry.kv.key.clone(), Arc::clone(entry));
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

    /// The entries having `term`, by key.
    pub(super) fn get(&self, term: &str) -> Option<&BTreeMap<String, Arc<Entry<O>>>> {
        self.by_term.get(term)
    }
}
