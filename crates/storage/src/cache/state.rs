//! What the watch cache holds (apiserver pkg/storage/cacher `watch_cache.go`): the current state
//! of every key under its prefix, decoded once, the ring of recent changes, and the watchers;
//! changes are applied in revision order and fanned out without blocking.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use tokio::sync::mpsc;

use super::index::Index;
use super::watcher::WatcherShared;
use super::{Change, Decode, Entry, Filter, WatchCacheConfig};
use crate::{Error, Event, EventKind, KeyValue, ListOptions, Result, Revision, mvcc};

/// The cache's side of one watcher.
pub(super) struct Slot<O> {
    pub(super) prefix: String,
    /// Changes at or below this are not for this watcher (it started after them).
    pub(super) after: Revision,
    pub(super) filter: Option<Filter<O>>,
    pub(super) tx: mpsc::Sender<Arc<Change<O>>>,
    pub(super) last_sent: Revision,
    pub(super) shared: Arc<WatcherShared>,
}

pub(super) struct CacheState<O> {
    /// The current state: every key under the prefix as of `revision`.
    pub(super) current: BTreeMap<String, Arc<Entry<O>>>,
    /// `current` by term.
    index: Index<O>,
    /// Changes with revisions in `(oldest, revision]` under the cache's prefix, ascending.
    pub(super) ring: VecDeque<(Instant, Arc<Change<O>>)>,
    pub(super) oldest: Revision,
    pub(super) revision: Revision,
    pub(super) watchers: Vec<Slot<O>>,
}

/// A page read from the cache (see [`super::WatchCache::list`]).
pub struct CachedList<O> {
    /// The entries that passed the filter, sorted by key.
    pub items: Vec<Arc<Entry<O>>>,
    /// The revision the page was read at.
    pub revision: Revision,
    /// Whether keys (matching or not) follow the last item: continue after its key.
    pub more: bool,
    /// How many keys follow the last item when `more` (etcd's `Count` less the page).
    pub remaining: usize,
}

impl<O> CacheState<O> {
    /// A state read at `revision` (a backend list), with no history yet.
    pub(super) fn new(current: BTreeMap<String, Arc<Entry<O>>>, revision: Revision) -> Self {
        CacheState {
            index: Index::default(),
            current,
            ring: VecDeque::new(),
            oldest: revision,
            revision,
            watchers: Vec::new(),
        }
    }

    /// Applies a backend event to the current state; the change to fan out, `None` for an event
    /// already seen (a backend watch re-opened at an earlier revision).
    pub(super) fn apply<D: Decode<Object = O>>(
        &mut self,
        event: Event,
        decoder: &D,
    ) -> Option<Arc<Change<O>>> {
        if event.revision <= self.revision {
            return None;
        }
        let decode = |kv: KeyValue| {
            let object = decoder.decode(&kv);
            Arc::new(Entry { kv, object })
        };
        let prev = match event.kind {
            EventKind::Added => None,
            // The live entry is the previous state, with what was decoded of it; a key missing
            // from the state (never, in revision order) is decoded from the event.
            EventKind::Modified | EventKind::Deleted => self
                .current
                .get(&event.key)
                .filter(|e| e.kv.mod_revision == event.prev_mod_revision)
                .cloned()
                .or_else(|| event.prev_kv().map(decode)),
        };
        let object = match event.kind {
            EventKind::Deleted => {
                // What a watch delivers for a delete: the last state at the delete's revision.
                let last = event.prev_kv()?;
                let gone = decode(KeyValue {
                    mod_revision: event.revision,
                    ..last
                });
                if !self.index.is_off()
                    && let Some(e) = self.current.get(&event.key)
                {
                    let old = decoder.terms(&e.object);
                    self.index.remove(&event.key, old);
                }
                self.current.remove(&event.key);
                gone
            }
            EventKind::Added | EventKind::Modified => {
                // The event's key goes to the state's table, a copy to the entry.
                let entry = decode(event.kv()?);
                if !self.index.is_off() {
                    if let Some(e) = self.current.get(&event.key) {
                        let old = decoder.terms(&e.object);
                        self.index.remove(&event.key, old);
                    }
                    self.index
                        .insert(&entry, decoder.terms(&entry.object), decoder);
                }
                self.current.insert(event.key, Arc::clone(&entry));
                entry
            }
        };
        self.revision = event.revision;
        Some(Arc::new(Change {
            kind: event.kind,
            revision: event.revision,
            object,
            prev,
        }))
    }

    /// Queues `change` for every interested watcher without blocking; drops the slow ones.
    pub(super) fn dispatch(&mut self, change: Arc<Change<O>>, config: &WatchCacheConfig) {
        let revision = change.revision;
        self.watchers.retain_mut(|slot| {
            if slot.tx.is_closed() {
                return false; // The watcher was dropped.
            }
            let wanted = revision > slot.after
                && change.key().starts_with(&slot.prefix)
                && match accepts(slot.filter.as_ref(), &change) {
                    Ok(wanted) => wanted,
                    Err(err) => {
                        slot.shared.terminate(err);
                        return false;
                    }
                };
            if wanted {
                match slot.tx.try_send(Arc::clone(&change)) {
                    Ok(()) => slot.last_sent = revision,
                    // cache_watcher.go `add`: a watcher whose buffer is full is closed, never
                    // waited for.
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        slot.shared.terminate(Error::Lagged {
                            last_delivered: slot.last_sent,
                        });
                        return false;
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => return false,
                }
            }
            slot.shared.progress.fetch_max(revision, Ordering::Release);
            true
        });
        self.ring.push_back((Instant::now(), change));
        self.evict(config);
    }

    pub(super) fn evict(&mut self, config: &WatchCacheConfig) {
        let now = Instant::now();
        while self.evicts_front(config, now) {
            if let Some((_, change)) = self.ring.pop_front() {
                self.oldest = change.revision;
            }
        }
    }

    /// Whether [`CacheState::evict`] would drop anything.
    pub(super) fn evictable(&self, config: &WatchCacheConfig) -> bool {
        self.evicts_front(config, Instant::now())
    }

    fn evicts_front(&self, config: &WatchCacheConfig, now: Instant) -> bool {
        self.ring.front().is_some_and(|(at, _)| {
            self.ring.len() > config.history
                || config
                    .history_max_age
                    .is_some_and(|age| now.duration_since(*at) > age)
        })
    }

    /// Indexes the terms of `family` from now on (see [`Index`]); false when no more families
    /// are indexed.
    pub(super) fn index_family<D: Decode<Object = O>>(
        &mut self,
        family: &str,
        decoder: &D,
    ) -> bool {
        self.index
            .add_family(family, self.current.values(), decoder)
    }

    /// Whether lists of `family`'s terms may read the index.
    pub(super) fn indexes(&self, family: &str) -> bool {
        self.index.indexes(family)
    }

    /// The backend lost the history the cache needed: every watcher ends with `error`, and the
    /// cache starts again from `current` read at `revision`, with an empty history.
    pub(super) fn reset<D: Decode<Object = O>>(
        &mut self,
        error: &Error,
        current: BTreeMap<String, Arc<Entry<O>>>,
        revision: Revision,
        decoder: &D,
    ) {
        let index = self.index.rebuild(&current, decoder);
        for slot in self.watchers.drain(..) {
            slot.shared.terminate(error.clone());
        }
        self.ring.clear();
        self.index = index;
        self.current = current;
        self.oldest = revision;
        self.revision = revision;
    }

    /// The changes after `revision` under `prefix` that `filter` accepts, in order.
    pub(super) fn replay(
        &self,
        prefix: &str,
        revision: Revision,
        filter: Option<&Filter<O>>,
    ) -> Result<VecDeque<Arc<Change<O>>>> {
        let start = self.ring.partition_point(|(_, c)| c.revision <= revision);
        let mut replay = VecDeque::new();
        for (_, change) in self.ring.range(start..) {
            if change.key().starts_with(prefix) && accepts(filter, change)? {
                replay.push_back(Arc::clone(change));
            }
        }
        Ok(replay)
    }

    /// A page of the state at `options.at_revision` (default: the latest) under `prefix`: the
    /// current state with the changes since that revision undone (as the backends' snapshot
    /// reads, [`mvcc`]), filtered, cut after `options.limit` matching entries. With `term`, at
    /// the latest revision, only the entries indexed under it are looked at.
    pub(super) fn list(
        &self,
        prefix: &str,
        options: &ListOptions,
        term: Option<&str>,
        filter: &dyn Fn(&Entry<O>) -> bool,
    ) -> Result<CachedList<O>> {
        let revision = mvcc::read_revision(options.at_revision, self.revision, self.oldest)?;
        let lower = mvcc::lower_bound(prefix, options);
        let limit = options.limit.filter(|&n| n > 0).unwrap_or(usize::MAX);
        // Bounded by the prefix's end, the walk never reads a key's bytes (a cache miss per
        // entry); without such an end, keys are checked against the prefix.
        let end = mvcc::prefix_end(prefix);
        let upper = match (&end, lower) {
            (Some(end), Bound::Included(first) | Bound::Excluded(first))
                if first >= end.as_str() =>
            {
                return Ok(CachedList::empty(revision));
            }
            (Some(end), _) => Bound::Excluded(end.as_str()),
            (None, _) => Bound::Unbounded,
        };
        let checked = end.is_none().then_some(prefix);
        let range = |map| in_range(map, lower, upper, checked);
        let start = self.ring.partition_point(|(_, c)| c.revision <= revision);
        if start == self.ring.len() {
            // Nothing changed since the read revision: the current state is the answer.
            let mut current = range(&self.current).map(Ok);
            let Some(term) = term else {
                let items = page(&mut current, filter, limit)?;
                return Ok(CachedList::of(items, limit, revision, current.count()));
            };
            let mut candidates = self
                .index
                .range(term, lower, upper)
                .take_while(|entry| checked.is_none_or(|p| entry.kv.key.starts_with(p)))
                .map(Ok);
            let items = page(&mut candidates, filter, limit)?;
            // What follows the page, matching or not (as a walk of every entry counts).
            let rest = match items.last() {
                Some(last) if items.len() == limit => {
                    let after = Bound::Excluded(last.kv.key.as_str());
                    in_range(&self.current, after, upper, checked).count()
                }
                _ => 0,
            };
            return Ok(CachedList::of(items, limit, revision, rest));
        }
        // Entries are borrowed while they are looked at; only the selected ones are shared.
        let overlay = mvcc::overlay_of(
            self.ring.range(start..).map(|(_, c)| c),
            prefix,
            lower,
            |c| c.key(),
            |c| c.prev.as_ref(),
        );
        let current = range(&self.current).map(Ok);
        let mut merged = mvcc::merge(current, overlay, |e: &&Arc<Entry<O>>| e.kv.key.as_str());
        let items = page(&mut merged, filter, limit)?;
        Ok(CachedList::of(items, limit, revision, merged.count()))
    }
}

impl<O> CachedList<O> {
    fn empty(revision: Revision) -> Self {
        CachedList::of(Vec::new(), usize::MAX, revision, 0)
    }

    /// A page of `items`, cut at `limit` with `rest` keys after it when full.
    fn of(items: Vec<Arc<Entry<O>>>, limit: usize, revision: Revision, rest: usize) -> Self {
        let remaining = if items.len() == limit { rest } else { 0 };
        CachedList {
            items,
            revision,
            more: remaining > 0,
            remaining,
        }
    }
}

/// The entries of `map` between `lower` and `upper`, checked against the prefix when given.
fn in_range<'a, O>(
    map: &'a BTreeMap<String, Arc<Entry<O>>>,
    lower: Bound<&'a str>,
    upper: Bound<&'a str>,
    prefix: Option<&'a str>,
) -> impl Iterator<Item = &'a Arc<Entry<O>>> {
    map.range::<str, _>((lower, upper))
        .take_while(move |(key, _)| prefix.is_none_or(|p| key.starts_with(p)))
        .map(|(_, entry)| entry)
}

/// The entries `filter` selects among `entries` (in key order), at most `limit`; the iterator
/// is left after the last one.
fn page<'e, O: 'e>(
    entries: &mut impl Iterator<Item = Result<&'e Arc<Entry<O>>>>,
    filter: &dyn Fn(&Entry<O>) -> bool,
    limit: usize,
) -> Result<Vec<Arc<Entry<O>>>> {
    let mut items = Vec::new();
    for entry in entries.by_ref() {
        let entry = entry?;
        if !filter(entry) {
            continue;
        }
        items.push(Arc::clone(entry));
        if items.len() == limit {
            break;
        }
    }
    Ok(items)
}

/// Runs a watcher's filter; a panicking filter is an error for that watcher, not for the cache.
pub(super) fn accepts<O>(filter: Option<&Filter<O>>, change: &Change<O>) -> Result<bool> {
    let Some(filter) = filter else {
        return Ok(true);
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| filter(change)))
        .map_err(|_| Error::backend(format!("watch filter panicked on {}", change.key())))
}
