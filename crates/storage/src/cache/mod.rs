//! The watch cache: one backend watch feeding many watchers. Mirrors apiserver
//! pkg/storage/cacher (`cacher.go`, `watch_cache.go`, `cache_watcher.go`): a ring of recent events so
//! watches can start from an older resourceVersion, per-watcher bounded channels filled without
//! blocking, and termination of a watcher that does not keep up (cacher.go's
//! "Forcing ... watcher close due to unresponsiveness") instead of stalling writers.
//!
//! Differences: the cache stores no objects (lists go to the backend, which reads consistent
//! snapshots cheaply); a slow watcher's stream ends with [`Error::Lagged`] after the events
//! already queued for it.

mod watcher;

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::{Error, Event, EventStream, Result, Revision, Storage};
pub use watcher::Watcher;
use watcher::WatcherShared;

/// A predicate run by the cache before an event is queued for a watcher (label and field
/// selectors): events it rejects are never sent. It sees both the new and the previous value, so
/// the server can turn a Modified event that moves an object out of a selector into a Deleted.
pub type Filter = Box<dyn Fn(&Event) -> bool + Send + Sync>;

/// Settings of a [`WatchCache`].
#[derive(Debug, Clone)]
pub struct WatchCacheConfig {
    /// The backend prefix the cache watches (all watchers' prefixes lie under it).
    pub prefix: String,
    /// How many recent events are kept for watches starting at an older revision.
    pub history: usize,
    /// Events older than this are dropped from the history even below `history`.
    pub history_max_age: Option<Duration>,
    /// How many events may wait for one watcher before it is dropped as too slow.
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

/// One backend watch shared by many watchers (see the module docs).
///
/// Dropping the cache stops its task and ends every watcher's stream.
pub struct WatchCache {
    shared: Arc<CacheShared>,
    task: JoinHandle<()>,
}

impl Drop for WatchCache {
    fn drop(&mut self) {
        self.task.abort();
        // End the watchers now rather than when the last reference goes.
        self.shared.lock().watchers.clear();
    }
}

struct CacheShared {
    storage: Arc<dyn Storage>,
    config: WatchCacheConfig,
    state: Mutex<CacheState>,
}

struct CacheState {
    /// Events with revisions in `(oldest, revision]` under the cache's prefix, ascending.
    ring: VecDeque<(Instant, Event)>,
    oldest: Revision,
    revision: Revision,
    watchers: Vec<Slot>,
}

/// The cache's side of one watcher.
struct Slot {
    prefix: String,
    /// Events at or below this are not for this watcher (it started after them).
    after: Revision,
    filter: Option<Filter>,
    tx: mpsc::Sender<Event>,
    last_sent: Revision,
    shared: Arc<WatcherShared>,
}

impl WatchCache {
    /// Starts the cache over `storage`: opens the backend watch (preloading the backend's
    /// retained history, up to `config.history` revisions) and spawns the task that feeds the
    /// watchers. Must be called within a tokio runtime.
    pub async fn start(storage: Arc<dyn Storage>, config: WatchCacheConfig) -> Result<WatchCache> {
        let current = storage.current_revision().await?;
        let wanted = current.saturating_sub(u64::try_from(config.history).unwrap_or(u64::MAX));
        let (start, stream) = open(&*storage, &config.prefix, wanted).await?;
        let state = CacheState {
            ring: VecDeque::new(),
            oldest: start,
            revision: start,
            watchers: Vec::new(),
        };
        let shared = Arc::new(CacheShared {
            storage,
            config,
            state: Mutex::new(state),
        });
        let task = tokio::spawn(run(Arc::clone(&shared), stream));
        Ok(WatchCache { shared, task })
    }

    /// The backend the cache watches.
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.shared.storage
    }

    /// The revision of the latest event the cache has seen.
    #[must_use]
    pub fn revision(&self) -> Revision {
        self.shared.lock().revision
    }

    /// Watches the keys under `prefix` (which must lie under the cache's prefix): every event
    /// after `after_revision` that `filter` accepts, in revision order, exactly once, then live
    /// events. [`Error::Compacted`] when `after_revision` is older than the cache's history.
    /// A revision ahead of the cache is fine: the watcher gets the events after it as they come.
    pub fn watch(
        &self,
        prefix: &str,
        after_revision: Revision,
        filter: Option<Filter>,
    ) -> Result<Watcher> {
        let mut state = self.shared.lock();
        state.evict(&self.shared.config);
        if after_revision < state.oldest {
            return Err(Error::Compacted {
                requested: after_revision,
                compacted: state.oldest,
            });
        }
        let start = state
            .ring
            .partition_point(|(_, event)| event.revision <= after_revision);
        let mut replay = VecDeque::new();
        for (_, event) in state.ring.range(start..) {
            if event.key.starts_with(prefix) && accepts(filter.as_ref(), event)? {
                replay.push_back(event.clone());
            }
        }
        let last_sent = replay.back().map_or(0, |event| event.revision);
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

impl CacheShared {
    fn lock(&self) -> MutexGuard<'_, CacheState> {
        // Filters, the only foreign code run under the lock, are caught when they panic, and
        // every state change is a single step: a poisoned lock still guards consistent state.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl CacheState {
    /// Queues `event` for every interested watcher without blocking; drops the slow ones.
    fn dispatch(&mut self, event: Event, config: &WatchCacheConfig) {
        if event.revision <= self.revision {
            return; // Already seen (a backend watch re-opened at an earlier revision).
        }
        self.revision = event.revision;
        self.watchers.retain_mut(|slot| {
            if slot.tx.is_closed() {
                return false; // The watcher was dropped.
            }
            let wanted = event.revision > slot.after
                && event.key.starts_with(&slot.prefix)
                && match accepts(slot.filter.as_ref(), &event) {
                    Ok(wanted) => wanted,
                    Err(err) => {
                        slot.shared.terminate(err);
                        return false;
                    }
                };
            if wanted {
                match slot.tx.try_send(event.clone()) {
                    Ok(()) => slot.last_sent = event.revision,
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        slot.shared.terminate(Error::Lagged {
                            last_delivered: slot.last_sent,
                        });
                        return false;
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => return false,
                }
            }
            slot.shared
                .progress
                .fetch_max(event.revision, Ordering::Release);
            true
        });
        self.ring.push_back((Instant::now(), event));
        self.evict(config);
    }

    fn evict(&mut self, config: &WatchCacheConfig) {
        let now = Instant::now();
        while let Some((at, event)) = self.ring.front() {
            let too_many = self.ring.len() > config.history;
            let too_old = config
                .history_max_age
                .is_some_and(|age| now.duration_since(*at) > age);
            if !(too_many || too_old) {
                break;
            }
            self.oldest = event.revision;
            self.ring.pop_front();
        }
    }

    /// The backend lost the history the cache needed: every watcher ends with `error` and the
    /// cache continues from `revision` with an empty history.
    fn reset(&mut self, error: &Error, revision: Revision) {
        for slot in self.watchers.drain(..) {
            slot.shared.terminate(error.clone());
        }
        self.ring.clear();
        self.oldest = revision;
        self.revision = revision;
    }
}

/// Runs a watcher's filter; a panicking filter is an error for that watcher, not for the cache.
fn accepts(filter: Option<&Filter>, event: &Event) -> Result<bool> {
    let Some(filter) = filter else {
        return Ok(true);
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| filter(event)))
        .map_err(|_| Error::backend(format!("watch filter panicked on {}", event.key)))
}

/// Opens the backend watch after `wanted`, or after the backend's compacted revision when
/// `wanted` is gone. Returns the revision the watch starts after.
async fn open(
    storage: &dyn Storage,
    prefix: &str,
    wanted: Revision,
) -> Result<(Revision, EventStream)> {
    match storage.watch(prefix, wanted).await {
        Ok(stream) => Ok((wanted, stream)),
        Err(Error::Compacted { compacted, .. }) if compacted > wanted => {
            Ok((compacted, storage.watch(prefix, compacted).await?))
        }
        Err(err) => Err(err),
    }
}

/// The cache's task: forwards backend events to the watchers; re-opens the backend watch when it
/// ends or fails, from the last revision seen (or from now when that history is gone).
async fn run(shared: Arc<CacheShared>, mut stream: EventStream) {
    const MAX_BACKOFF: Duration = Duration::from_secs(5);
    let mut backoff = Duration::from_millis(50);
    loop {
        let error = match stream.next().await {
            Some(Ok(event)) => {
                shared.lock().dispatch(event, &shared.config);
                backoff = Duration::from_millis(50);
                continue;
            }
            Some(Err(err)) => err,
            None => Error::backend("backend watch ended"),
        };
        let mut error = Some(error);
        stream = loop {
            let after = shared.lock().revision;
            if let Some(Error::Compacted { .. }) = error {
                // Events between `after` and the compacted revision are lost: watchers cannot
                // continue without a gap, so they end and clients re-list.
                let now = shared.storage.current_revision().await;
                if let Ok(now) = now {
                    shared.lock().reset(
                        &Error::Compacted {
                            requested: after,
                            compacted: now,
                        },
                        now,
                    );
                }
            }
            let after = shared.lock().revision;
            match shared.storage.watch(&shared.config.prefix, after).await {
                Ok(stream) => break stream,
                Err(err) => error = Some(err),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        };
    }
}
