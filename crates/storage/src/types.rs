//! The values the storage trait passes around, shaped after etcd's mvccpb.KeyValue and
//! mvccpb.Event as apiserver pkg/storage/etcd3 (store.go, watcher.go) consumes them.

use bytes::Bytes;

/// A store-wide revision: every write (create, update, delete) gets the next one, so it orders
/// all writes. The API server's resourceVersion is the mod revision of an object.
pub type Revision = u64;

/// One stored key with its value and revisions (etcd's `mvccpb.KeyValue`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyValue {
    /// The key, e.g. `/registry/stable.example.com/crontabs/default/my-cron`.
    pub key: String,
    /// The opaque value (JSON for the API server).
    pub value: Bytes,
    /// The revision of the write that created the key (unchanged by updates).
    pub create_revision: Revision,
    /// The revision of the last write to the key: the object's resourceVersion.
    pub mod_revision: Revision,
}

/// Options of [`Storage::list`](crate::Storage::list).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// At most this many items; `None` (or `Some(0)`) means all.
    pub limit: Option<usize>,
    /// Start strictly after this key (the last key of the previous page).
    pub continue_key: Option<String>,
    /// Read the state as of this revision (a consistent snapshot across pages); `None` reads
    /// the current state. Fails with [`Error::Compacted`](crate::Error::Compacted) when the
    /// revision's history is gone, [`Error::FutureRevision`](crate::Error::FutureRevision) when it
    /// is ahead of the store.
    pub at_revision: Option<Revision>,
}

/// The answer of [`Storage::list`](crate::Storage::list).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListResult {
    /// The items, sorted by key.
    pub items: Vec<KeyValue>,
    /// The revision the list was read at: the list's resourceVersion, and the `at_revision` of
    /// the following pages.
    pub revision: Revision,
    /// Whether more items follow the last one (continue with `continue_key` = its key).
    pub more: bool,
}

/// The answer of [`Storage::delete`](crate::Storage::delete).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// The key and value as they were just before the delete.
    pub prev: KeyValue,
    /// The revision of the delete itself.
    pub revision: Revision,
}

/// What a write did to a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// The key was created.
    Added,
    /// The key existed and got a new value.
    Modified,
    /// The key was deleted.
    Deleted,
}

/// One write, as a watch delivers it (etcd's `mvccpb.Event` with its `prev_kv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Added, Modified or Deleted.
    pub kind: EventKind,
    /// The key written.
    pub key: String,
    /// The revision of this write (the new mod revision; for a delete the deletion's revision).
    pub revision: Revision,
    /// The create revision of the object written (for a delete: of the object deleted).
    pub create_revision: Revision,
    /// The value after the write; `None` for [`EventKind::Deleted`].
    pub value: Option<Bytes>,
    /// The value before the write; `None` for [`EventKind::Added`].
    pub prev_value: Option<Bytes>,
    /// The mod revision of the value before the write; 0 for [`EventKind::Added`].
    pub prev_mod_revision: Revision,
}

impl Event {
    /// The object the event is about: the new value, or for a delete the deleted value (what a
    /// Kubernetes watch event carries).
    #[must_use]
    pub fn object(&self) -> &Bytes {
        match (&self.value, &self.prev_value) {
            (Some(value), _) | (None, Some(value)) => value,
            // Unreachable by construction (a delete always has its previous value); an empty
            // value keeps this total instead of panicking.
            (None, None) => {
                static EMPTY: Bytes = Bytes::from_static(b"");
                &EMPTY
            }
        }
    }

    /// The key's state after the event; `None` after a delete.
    #[must_use]
    pub fn kv(&self) -> Option<KeyValue> {
        self.value.as_ref().map(|value| KeyValue {
            key: self.key.clone(),
            value: value.clone(),
            create_revision: self.create_revision,
            mod_revision: self.revision,
        })
    }

    /// The key's state before the event; `None` before a create.
    #[must_use]
    pub fn prev_kv(&self) -> Option<KeyValue> {
        self.prev_value.as_ref().map(|value| KeyValue {
            key: self.key.clone(),
            value: value.clone(),
            create_revision: self.create_revision,
            mod_revision: self.prev_mod_revision,
        })
    }
}

/// How much history a backend keeps for snapshot reads and watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionPolicy {
    /// Keep the history of the last this many revisions; older ones are compacted
    /// automatically. `None` disables automatic compaction ([`Storage::compact`](crate::Storage::compact) still works).
    pub retain_revisions: Option<u64>,
}

impl Default for CompactionPolicy {
    /// Keep the last 1000 revisions.
    fn default() -> Self {
        CompactionPolicy {
            retain_revisions: Some(1000),
        }
    }
}

impl CompactionPolicy {
    /// The revision to compact to after a write reached `revision`, when the history grew a
    /// batch past the retained window (compacting in batches keeps it cheap).
    pub(crate) fn due(&self, revision: Revision, compacted: Revision) -> Option<Revision> {
        let retain = self.retain_revisions?;
        let batch = (retain / 8).max(1);
        let target = revision.saturating_sub(retain);
        (target >= compacted + batch).then_some(target)
    }
}
