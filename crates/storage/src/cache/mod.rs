//! The watch cache: one backend watch feeding many watchers, and the current state of every key
//! decoded once. Mirrors apiserver pkg/storage/cacher (`cacher.go`, `watch_cache.go`,
//! `cache_watcher.go`): the state and a ring of recent changes so that lists (also of a recent
//! revision, for continue tokens) and watches from an older resourceVersion are served without
//! the backend, per-watcher bounded channels filled without blocking, and termination of a
//! watcher that does not keep up (cacher.go's "Forcing ... watcher close due to
//! unresponsiveness") instead of stalling writers.
//!
//! What a key's value decodes to is the user's ([`Decode`]: the server keeps labels and encoded
//! responses); decoding happens once per write, in the cache's task. Differences: a slow
//! watcher's stream ends with [`Error::Lagged`] after the changes already queued for it; the
//! cache's revision only moves with writes under its prefix (etcd's progress notifications are
//! not used), so [`WatchCache::wait_for`] is bounded by a timeout.

mod index;
mod state;
mod watcher;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::{
    Error, Event, EventKind, EventStream, KeyValue, ListOptions, Result, Revision, Storage,
};
pub use state::CachedList;
use state::{CacheState, Slot};
pub use watcher::Watcher;
use watcher::WatcherShared;

/// What the cache keeps of each stored value besides its bytes (the API server's decoded
/// object): computed once per write, shared by every list and watcher that reads it.
pub trait Decode: Send + Sync + 'static {
    /// The decoded form.
    type Object: Send + Sync + 'static;
    /// Decodes one state of a key; must not fail (keep the error in the object if it can).
    fn decode(&self, kv: &KeyValue) -> Self::Object;

    /// The terms the cache indexes `object` under, for [`WatchCache::list_indexed`]: none by
    /// default. Called on every write, for the state written and the one it replaces, once a
    /// list has asked for a term.
    fn terms(&self, object: &Self::Object) -> Vec<String> {
        let _ = object;
        Vec::new()
    }

    /// The family of `term`: a list asking for a term has every term of its family indexed
    /// from then on (the term itself by default).
    fn family<'t>(&self, term: &'t str) -> &'t str {
        term
    }
}

/// Keeps the bytes only.
#[derive(Debug, Clone, Copy, Default)]
pub struct Raw;

impl Decode for Raw {
    type Object = ();
    fn decode(&self, _: &KeyValue) {}
}

/// One state of a key as the cache holds it.
#[derive(Debug)]
pub struct Entry<O = ()> {
    /// The stored key, value and revisions.
    pub kv: KeyValue,
    /// What [`Decode`] made of it.
    pub object: O,
}

/// One write, as the cache delivers it to watchers (the cacher's `watchCacheEvent`).
#[derive(Debug)]
pub struct Change<O = ()> {
    /// Added, Modified or Deleted.
    pub kind: EventKind,
    /// The revision of the write.
    pub revision: Revision,
    /// The key's state after the write; for a delete, its last state with the delete's revision
    /// as mod revision (what a Kubernetes watch event carries).
    pub object: Arc<Entry<O>>,
    /// The key's state before the write; `None` for Added.
    pub prev: Option<Arc<Entry<O>>>,
}

impl<O> Change<O> {
    /// The key written.
    #[must_use]
    pub fn key(&self) -> &str {
        &self.object.kv.key
    }

    /// The storage event of this change.
    #[must_use]
    pub fn event(&self) -> Event {
        let kv = &self.object.kv;
        Event {
            kind: self.kind,
            key: kv.key.clone(),
            revision: self.revision,
            create_revision: kv.create_revision,
            value: (self.kind != EventKind::Deleted).then(|| kv.value.clone()),
            prev_value: self.prev.as_ref().map(|p| p.kv.value.clone()),
            prev_mod_revision: self.prev.as_ref().map_or(0, |p| p.kv.mod_revision),
        }
    }
}

/// A predicate run by the cache before a change is queued for a watcher (label and field
/// selectors): changes it rejects are never sent. It sees both the new and the previous state,
/// so the server can turn a Modified event that moves an object out of a selector into a Deleted.
pub type Filter<O = ()> = Box<dyn Fn(&Change<O>) -> bool + Send + Sync>;

/// Settings of a [`WatchCache`].
#[derive(Debug, Clone)]
pub struct WatchCacheConfig {
    /// The backend prefix the cache watches (all watchers' prefixes lie under it).
    pub prefix: String,
    /// How many recent changes are kept for watches and lists at an older revision.
    pub history: usize,
    /// Changes older than this are dropped from the history even below `history`.
    pub history_max_age: Option<Duration>,
    /// How many changes may wait for one watcher before it is dropped as too slow.
    pub watcher_buffer: usize,
}

impl Default for WatchCacheConfig {
    fn default() -> Self {
        WatchCacheConfig {
            prefix: String::new(),
            history: 1000,
            history_max_age: None,
            watcher_buffer: 1000,
        }
    }
}

/// One backend watch shared by many watchers, and the state it keeps (see the module docs).
///
/// Dropping the cache stops its task and ends every watcher's stream.
pub struct WatchCache<D: Decode = Raw> {
    shared: Arc<CacheShared<D>>,
    task: JoinHandle<()>,
}

impl<D: Decode> Drop for WatchCache<D> {
    fn drop(&mut self) {
        self.task.abort();
        // End the watchers now rather than when the last reference goes.
        self.shared.write().watchers.clear();
    }
}

struct CacheShared<D: Decode> {
    storage: Arc<dyn Storage>,
    config: WatchCacheConfig,
    decoder: D,
    state: RwLock<CacheState<D::Object>>,
    /// The state's revision, for readers waiting for it to be fresh.
    revision: watch::Sender<Revision>,
}

impl WatchCache<Raw> {
    /// Starts a cache that keeps bytes only (see [`WatchCache::start_with`]).
    pub async fn start(storage: Arc<dyn Storage>, config: WatchCacheConfig) -> Result<Self> {
        Self::start_with(storage, config, Raw).await
    }
}

impl<D: Decode> WatchCache<D> {
    /// Starts the cache over `storage`: reads the state under `config.prefix` as of
    /// `config.history` revisions ago (or the oldest the backend keeps), then opens the backend
    /// watch from there, so that the recent history is in the ring, and spawns the task that
    /// keeps the state and feeds the watchers. Must be called within a tokio runtime.
    pub async fn start_with(
        storage: Arc<dyn Storage>,
        config: WatchCacheConfig,
        decoder: D,
    ) -> Result<Self> {
        let current = storage.current_revision().await?;
        let wanted = current.saturating_sub(u64::try_from(config.history).unwrap_or(u64::MAX));
        let (entries, revision, stream) =
            load(&*storage, &config.prefix, Some(wanted), &decoder).await?;
        let (revision_tx, _) = watch::channel(revision);
        let state = CacheState::new(entries, revision);
        let shared = Arc::new(CacheShared {
            storage,
            config,
            decoder,
            state: RwLock::new(state),
            revision: revision_tx,
        });
        let task = tokio::spawn(run(Arc::clone(&shared), stream));
        Ok(WatchCache { shared, task })
    }

    /// The backend the cache watches.
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.shared.storage
    }

    /// The revision of the latest change the cache has applied.
    #[must_use]
    pub fn revision(&self) -> Revision {
        self.shared.read().revision
    }

    /// Waits until the cache has applied every change up to `revision` (the cacher's
    /// `waitUntilFreshAndBlock`); `false` when `timeout` passed first.
    pub async fn wait_for(&self, revision: Revision, timeout: Duration) -> bool {
        let mut rx = self.shared.revision.subscribe();
        let fresh = rx.wait_for(|&r| r >= revision);
        matches!(tokio::time::timeout(timeout, fresh).await, Ok(Ok(_)))
    }

    /// The current state of `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Arc<Entry<D::Object>>> {
        self.shared.read().current.get(key).cloned()
    }

    /// The entries under `prefix` that `filter` accepts, as of `options.at_revision` (default:
    /// the cache's revision), after `options.continue_key`, at most `options.limit` of them.
    /// [`Error::Compacted`] when that revision is older than the cache's history,
    /// [`Error::FutureRevision`] when the cache has not reached it.
    pub fn list(
        &self,
        prefix: &str,
        options: &ListOptions,
        filter: &dyn Fn(&Entry<D::Object>) -> bool,
    ) -> Result<CachedList<D::Object>> {
        self.list_indexed(prefix, options, None, filter)
    }

    /// [`WatchCache::list`] of the entries having `term` ([`Decode::terms`]) when given: a list
    /// at the cache's revision walks only those, and `filter` still decides (the term only
    /// narrows). `remaining` counts every key after the page, as without a term. The first
    /// list of a term's family indexes the family (one walk of every entry); past the families
    /// the cache indexes, the term is not used.
    pub fn list_indexed(
        &self,
        prefix: &str,
        options: &ListOptions,
        term: Option<&str>,
        filter: &dyn Fn(&Entry<D::Object>) -> bool,
    ) -> Result<CachedList<D::Object>> {
        let decoder = &self.shared.decoder;
        // Families are only ever added: once indexed, a family stays so for the list below.
        let term = term.filter(|t| {
            let family = decoder.family(t);
            let indexed = self.shared.read().indexes(family);
            indexed || self.shared.write().index_family(family, decoder)
        });
        // Eviction only moves the history's start; a read lock suffices unless there is some.
        let state = self.shared.read();
        if state.evictable(&self.shared.config) {
            drop(state);
            self.shared.write().evict(&self.shared.config);
            return self.shared.read().list(prefix, options, term, filter);
        }
        state.list(prefix, options, term, filter)
    }

    /// Watches the keys under `prefix` (which must lie under the cache's prefix): every change
    /// after `after_revision` that `filter` accepts, in revision order, exactly once, then live
    /// changes. [`Error::Compacted`] when `after_revision` is older than the cache's history.
    /// A revision ahead of the cache is fine: the watcher gets the changes after it as they come.
    pub fn watch(
        &self,
        prefix: &str,
        after_revision: Revision,
        filter: Option<Filter<D::Object>>,
    ) -> Result<Watcher<D::Object>> {
        let mut state = self.shared.write();
        state.evict(&self.shared.config);
        if after_revision < state.oldest {
            return Err(Error::Compacted {
                requested: after_revision,
                compacted: state.oldest,
            });
        }
        let replay = state.replay(prefix, after_revision, filter.as_ref())?;
        let last_sent = replay.back().map_or(0, |change| change.revision);
        let (tx, rx) = mpsc::channel(self.shared.config.watcher_buffer.max(1));
        let shared = Arc::new(WatcherShared::new(after_revision.max(state.revision)));
        state.watchers.push(Slot {
            prefix: prefix.to_owned(),
            after: after_revision,
            filter,
            tx,
            last_sent,
            shared: Arc::clone(&shared),
        });
        Ok(Watcher::new(replay, rx, shared))
    }
}

impl<D: Decode> CacheShared<D> {
    // Filters and decoders, the only foreign code run under the lock or between its steps, are
    // caught when they panic or run before any change, and every state change is a single step:
    // a poisoned lock still guards consistent state.
    fn read(&self) -> RwLockReadGuard<'_, CacheState<D::Object>> {
        self.state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, CacheState<D::Object>> {
        self.state
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn apply(&self, event: Event) {
        let mut state = self.write();
        if let Some(change) = state.apply(event, &self.decoder) {
            let revision = change.revision;
            state.dispatch(change, &self.config);
            drop(state);
            self.revision.send_replace(revision);
        }
    }
}

/// The state under `prefix` read at `at` (or, when that is compacted, at the latest revision),
/// decoded, and the backend watch after it.
async fn load<D: Decode>(
    storage: &dyn Storage,
    prefix: &str,
    at: Option<Revision>,
    decoder: &D,
) -> Result<(
    BTreeMap<String, Arc<Entry<D::Object>>>,
    Revision,
    EventStream,
)> {
    let mut at = at;
    // A compaction between the list and the watch: read again at the latest revision.
    for _ in 0..3 {
        let options = ListOptions {
            at_revision: at,
            ..ListOptions::default()
        };
        let list = match storage.list(prefix, &options).await {
            Err(Error::Compacted { .. }) if at.is_some() => {
                at = None;
                continue;
            }
            other => other?,
        };
        let stream = match storage.watch(prefix, list.revision).await {
            Err(Error::Compacted { .. }) => {
                at = None;
                continue;
            }
            other => other?,
        };
        let entries = list
            .items
            .into_iter()
            .map(|kv| {
                let object = decoder.decode(&kv);
                (kv.key.clone(), Arc::new(Entry { kv, object }))
            })
            .collect();
        return Ok((entries, list.revision, stream));
    }
    Err(Error::backend(
        "the backend compacted faster than the cache could load",
    ))
}

/// The cache's task: applies backend events and forwards them to the watchers; re-opens the
/// backend watch when it ends or fails, from the last revision seen, or reloads the state when
/// that history is gone.
async fn run<D: Decode>(shared: Arc<CacheShared<D>>, mut stream: EventStream) {
    const MAX_BACKOFF: Duration = Duration::from_secs(5);
    let mut backoff = Duration::from_millis(50);
    loop {
        let error = match stream.next().await {
            Some(Ok(event)) => {
                shared.apply(event);
                backoff = Duration::from_millis(50);
                continue;
            }
            Some(Err(err)) => err,
            None => Error::backend("backend watch ended"),
        };
        let mut error = error;
        stream = loop {
            let after = shared.read().revision;
            let reopened = if let Error::Compacted { .. } = error {
                // Changes between `after` and the compacted revision are lost: watchers cannot
                // continue without a gap, so they end (clients re-list), and the state is read
                // again.
                match load(
                    &*shared.storage,
                    &shared.config.prefix,
                    None,
                    &shared.decoder,
                )
                .await
                {
                    Ok((entries, revision, stream)) => {
                        let error = Error::Compacted {
                            requested: after,
                            compacted: revision,
                        };
                        shared
                            .write()
                            .reset(&error, entries, revision, &shared.decoder);
                        shared.revision.send_replace(revision);
                        Ok(stream)
                    }
                    Err(err) => Err(err),
                }
            } else {
                shared.storage.watch(&shared.config.prefix, after).await
            };
            match reopened {
                Ok(stream) => break stream,
                // Re-opening found the history gone: the next round reloads.
                Err(err) => error = err,
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        };
    }
}
