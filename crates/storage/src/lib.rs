//! Storage for crdkit's local Kubernetes API server.
//!
//! Mirrors the contract apiserver pkg/storage/etcd3 (store.go, watcher.go) relies on in etcd's
//! mvcc: one store-wide revision that every write advances, each key with its create and mod
//! revision (the mod revision is the object's resourceVersion), compare-and-swap on the mod
//! revision, snapshot lists at an old revision for pagination, and watches that replay every
//! write after a revision. Values are opaque bytes (the server's JSON); keys are strings the
//! server chooses (`/registry/<group>/<plural>/<namespace>/<name>`).
//!
//! Backends: [`MemoryStorage`] (default), [`RedbStorage`] (persistent, crash-safe) and, with the
//! `etcd` feature, `EtcdStorage`. A [`WatchCache`] sits above a backend: it keeps the current
//! state decoded once ([`Decode`]) for lists, and many watchers share its one backend watch.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use crdkit_storage::{ListOptions, MemoryStorage, Storage};
//! use futures_util::StreamExt;
//!
//! let store = MemoryStorage::new();
//! let created = store.create("/registry/ns/default", "{}".into()).await?;
//! let updated = store.update("/registry/ns/default", "{\"a\":1}".into(), created.mod_revision).await?;
//! assert!(updated.mod_revision > created.mod_revision);
//!
//! let list = store.list("/registry/", &ListOptions::default()).await?;
//! assert_eq!(list.items.len(), 1);
//!
//! // Every write after the create, then live writes.
//! let mut events = store.watch("/registry/", created.mod_revision).await?;
//! assert_eq!(events.next().await.unwrap()?.revision, updated.mod_revision);
//! # Ok::<(), crdkit_storage::Error>(())
//! # }).unwrap();
//! ```
//!
//! Depends on no other crdkit crate (it stores bytes under keys); tokio, redb and (feature `etcd`)
//! etcd-client are its only heavy dependencies, never part of the derive's or the library's build.
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::pedantic)]
// Every fallible function fails with the one documented `Error` enum; per-function `# Errors`
// sections would repeat its variants.
#![allow(clippy::missing_errors_doc)]

mod cache;
mod error;
#[cfg(feature = "etcd")]
mod etcd;
mod memory;
mod mvcc;
mod redb;
mod tail;
mod types;

use std::pin::Pin;

use async_trait::async_trait;
use bytes::Bytes;
use futures_core::Stream;

pub use cache::{
    CachedList, Change, Decode, Entry, Filter, Raw, WatchCache, WatchCacheConfig, Watcher,
};
pub use error::{Error, Result};
#[cfg(feature = "etcd")]
pub use etcd::{EtcdConfig, EtcdStorage};
pub use memory::MemoryStorage;
pub use redb::RedbStorage;
pub use types::{
    CompactionPolicy, Deleted, Event, EventKind, KeyValue, ListOptions, ListResult, Revision,
};

/// A stream of watch events, in revision order; it ends after yielding an error.
pub type EventStream = Pin<Box<dyn Stream<Item = Result<Event>> + Send>>;

/// A revisioned key-value store with the semantics of etcd3 as the API server uses it.
///
/// Object-safe: the server holds an `Arc<dyn Storage>`.
#[async_trait]
pub trait Storage: Send + Sync + 'static {
    /// The key's current value and revisions; [`Error::NotFound`] when absent.
    async fn get(&self, key: &str) -> Result<KeyValue>;

    /// The keys starting with `prefix`, sorted, paginated and optionally read at an old revision
    /// (see [`ListOptions`]).
    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult>;

    /// Creates `key`; [`Error::AlreadyExists`] when it exists. The new key's create and mod
    /// revisions are the write's revision.
    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue>;

    /// Replaces `key`'s value if its mod revision is `expected_mod_revision`:
    /// [`Error::NotFound`] when absent, [`Error::Conflict`] when modified since.
    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected_mod_revision: Revision,
    ) -> Result<KeyValue>;

    /// Deletes `key`, if given only when its mod revision is `expected_mod_revision`, and returns
    /// the deleted value: [`Error::NotFound`] when absent, [`Error::Conflict`] when modified since.
    async fn delete(&self, key: &str, expected_mod_revision: Option<Revision>) -> Result<Deleted>;

    /// Every write to a key starting with `prefix` whose revision is greater than
    /// `after_revision`, in revision order, then live writes as they happen.
    /// [`Error::Compacted`] (returned, or yielded by the stream) when that history is gone.
    async fn watch(&self, prefix: &str, after_revision: Revision) -> Result<EventStream>;

    /// The revision of the latest write (0 for an empty new store).
    async fn current_revision(&self) -> Result<Revision>;

    /// Discards history up to `revision`: reads at revisions below it and watches after
    /// revisions below it fail with [`Error::Compacted`] afterwards.
    async fn compact(&self, revision: Revision) -> Result<()>;

    /// Whether the values a watch yields are the very [`Bytes`] the writes were given (the same
    /// allocation, not a copy), so that a writer may leave what it knows of a value beside it for
    /// the watch's reader, keyed by its address. `false` unless a backend promises it.
    fn shares_values(&self) -> bool {
        false
    }
}
