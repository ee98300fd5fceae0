//! The in-memory backend: etcd's mvcc semantics (server/mvcc `kvstore.go`, `watchable_store.go`)
//! over a `BTreeMap` of current values and a log of the writes since the compacted revision.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use async_trait::async_trait;
use bytes::Bytes;
use tokio::sync::watch;

use crate::error::check_key;
use crate::{
    CompactionPolicy, Deleted, Error, Event, EventKind, EventStream, KeyValue, ListOptions,
    ListResult, Result, Revision, Storage, mvcc, tail,
};

/// A fast, non-persistent store for tests and `crdgen serve` without `--data`.
///
/// Cloning shares the store.
#[derive(Clone)]
pub struct MemoryStorage {
    shared: Arc<Shared>,
}

struct Shared {
    inner: RwLock<Inner>,
    /// The latest revision, for watches waiting for new writes.
    notify: watch::Sender<Revision>,
    policy: CompactionPolicy,
}

#[derive(Default)]
struct Inner {
    kv: BTreeMap<String, Stored>,
    /// The writes with revisions `compacted + 1 ..= revision`, one per revision.
    log: VecDeque<Event>,
    revision: Revision,
    compacted: Revision,
}

struct Stored {
    value: Bytes,
    create_revision: Revision,
    mod_revision: Revision,
}

impl Stored {
    fn kv(&self, key: &str) -> KeyValue {
        KeyValue {
            key: key.to_owned(),
            value: self.value.clone(),
            create_revision: self.create_revision,
            mod_revision: self.mod_revision,
        }
    }
}

impl Default for MemoryStorage {
    fn default() -> Self {
        Self::new()
    }
}

impl MemoryStorage {
    /// An empty store keeping the default history ([`CompactionPolicy::default`]).
    #[must_use]
    pub fn new() -> Self {
        Self::with_policy(CompactionPolicy::default())
    }

    /// An empty store with the given compaction policy.
    #[must_use]
    pub fn with_policy(policy: CompactionPolicy) -> Self {
        let (notify, _) = watch::channel(0);
        MemoryStorage {
            shared: Arc::new(Shared {
                inner: RwLock::new(Inner::default()),
                notify,
                policy,
            }),
        }
    }

    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        // A panic while holding the lock cannot leave `Inner` half-written (each write mutates
        // after all checks), so a poisoned lock is still consistent.
        self.shared
            .inner
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.shared
            .inner
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends a write to the log, compacts when due, and wakes watchers.
    fn commit(&self, mut inner: RwLockWriteGuard<'_, Inner>, event: Event) {
        let revision = event.revision;
        inner.revision = revision;
        inner.log.push_back(event);
        if let Some(target) = self.shared.policy.due(revision, inner.compacted) {
            inner.compact(target);
        }
        drop(inner);
        self.shared.notify.send_replace(revision);
    }
}

impl Inner {
    fn compact(&mut self, revision: Revision) {
        while self
            .log
            .front()
            .is_some_and(|event| event.revision <= revision)
        {
            self.log.pop_front();
        }
        self.compacted = self.compacted.max(revision);
    }

    /// The logged writes after `revision` (which must be ≥ `compacted`).
    fn events_after(&self, revision: Revision) -> impl Iterator<Item = &Event> {
        let start = usize::try_from(revision.saturating_sub(self.compacted)).unwrap_or(usize::MAX);
        self.log.range(start.min(self.log.len())..)
    }
}

#[async_trait]
impl Storage for MemoryStorage {
    async fn get(&self, key: &str) -> Result<KeyValue> {
        check_key(key)?;
        let inner = self.read();
        inner
            .kv
            .get(key)
            .map(|stored| stored.kv(key))
            .ok_or_else(|| Error::NotFound {
                key: key.to_owned(),
            })
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult> {
        let inner = self.read();
        let revision = mvcc::read_revision(options.at_revision, inner.revision, inner.compacted)?;
        let lower = mvcc::lower_bound(prefix, options);
        let overlay = if revision < inner.revision {
            mvcc::overlay(inner.events_after(revision), prefix, lower)
        } else {
            BTreeMap::new()
        };
        let current = inner
            .kv
            .range::<str, _>((lower, Bound::Unbounded))
            .take_while(|(key, _)| key.starts_with(prefix))
            .map(|(key, stored)| Ok(stored.kv(key)));
        let (items, more) = mvcc::page(current, overlay, options.limit)?;
        Ok(ListResult {
            items,
            revision,
            more,
        })
    }

    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue> {
        check_key(key)?;
        let mut inner = self.write();
        if inner.kv.contains_key(key) {
            return Err(Error::AlreadyExists {
                key: key.to_owned(),
            });
        }
        let revision = inner.revision + 1;
        let stored = Stored {
            value: value.clone(),
            create_revision: revision,
            mod_revision: revision,
        };
        let kv = stored.kv(key);
        inner.kv.insert(key.to_owned(), stored);
        let event = Event {
            kind: EventKind::Added,
            key: key.to_owned(),
            revision,
            create_revision: revision,
            value: Some(value),
            prev_value: None,
            prev_mod_revision: 0,
        };
        self.commit(inner, event);
        Ok(kv)
    }

    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected_mod_revision: Revision,
    ) -> Result<KeyValue> {
        check_key(key)?;
        let mut inner = self.write();
        let revision = inner.revision + 1;
        let Some(stored) = inner.kv.get_mut(key) else {
            return Err(Error::NotFound {
                key: key.to_owned(),
            });
        };
        if stored.mod_revision != expected_mod_revision {
            return Err(Error::Conflict {
                key: key.to_owned(),
                expected: expected_mod_revision,
                current_revision: stored.mod_revision,
            });
        }
        let prev_value = std::mem::replace(&mut stored.value, value.clone());
        let prev_mod_revision = std::mem::replace(&mut stored.mod_revision, revision);
        let kv = stored.kv(key);
        let event = Event {
            kind: EventKind::Modified,
            key: key.to_owned(),
            revision,
            create_revision: stored.create_revision,
            value: Some(value),
            prev_value: Some(prev_value),
            prev_mod_revision,
        };
        self.commit(inner, event);
        Ok(kv)
    }

    async fn delete(&self, key: &str, expected_mod_revision: Option<Revision>) -> Result<Deleted> {
        check_key(key)?;
        let mut inner = self.write();
        let Some(stored) = inner.kv.get(key) else {
            return Err(Error::NotFound {
                key: key.to_owned(),
            });
        };
        if let Some(expected) =
            expected_mod_revision.filter(|&expected| expected != stored.mod_revision)
        {
            return Err(Error::Conflict {
                key: key.to_owned(),
                expected,
                current_revision: stored.mod_revision,
            });
        }
        let revision = inner.revision + 1;
        let prev = inner
            .kv
            .remove(key)
            .map(|stored| stored.kv(key))
            .ok_or_else(|| Error::NotFound {
                key: key.to_owned(),
            })?;
        let event = Event {
            kind: EventKind::Deleted,
            key: key.to_owned(),
            revision,
            create_revision: prev.create_revision,
            value: None,
            prev_value: Some(prev.value.clone()),
            prev_mod_revision: prev.mod_revision,
        };
        self.commit(inner, event);
        Ok(Deleted { prev, revision })
    }

    async fn watch(&self, prefix: &str, after_revision: Revision) -> Result<EventStream> {
        let compacted = self.read().compacted;
        if after_revision < compacted {
            return Err(Error::Compacted {
                requested: after_revision,
                compacted,
            });
        }
        let tail = Tail {
            store: self.clone(),
            prefix: prefix.to_owned(),
            after: after_revision,
            rx: self.shared.notify.subscribe(),
        };
        Ok(tail::stream(tail))
    }

    async fn current_revision(&self) -> Result<Revision> {
        Ok(self.read().revision)
    }

    async fn compact(&self, revision: Revision) -> Result<()> {
        let mut inner = self.write();
        if revision > inner.revision {
            return Err(Error::FutureRevision {
                requested: revision,
                current: inner.revision,
            });
        }
        inner.compact(revision);
        Ok(())
    }

    /// Written values are kept and handed to watches as given.
    fn shares_values(&self) -> bool {
        true
    }
}

/// A watch: reads the log after its position in batches, then waits for the next write.
struct Tail {
    store: MemoryStorage,
    prefix: String,
    after: Revision,
    rx: watch::Receiver<Revision>,
}

/// Events read per lock acquisition, so a watch catching up does not hold writers off long.
const BATCH: usize = 256;

impl tail::LogTail for Tail {
    async fn fill(&mut self, buffer: &mut VecDeque<Event>) -> Result<bool> {
        self.rx.borrow_and_update();
        let inner = self.store.read();
        if self.after < inner.compacted {
            return Err(Error::Compacted {
                requested: self.after,
                compacted: inner.compacted,
            });
        }
        for event in inner.events_after(self.after).take(BATCH) {
            self.after = event.revision;
            if event.key.starts_with(&self.prefix) {
                buffer.push_back(event.clone());
            }
        }
        Ok(self.after >= inner.revision)
    }

    async fn wait(&mut self) -> bool {
        self.rx.changed().await.is_ok()
    }
}
