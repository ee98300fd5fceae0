//! Storage errors, mirroring the error kinds of apiserver pkg/storage/errors.go
//! (`ErrCodeKeyNotFound`, `ErrCodeKeyExists`, `ErrCodeResourceVersionConflicts`, ...), plus the
//! compaction error etcd's mvcc returns (`ErrCompacted`), which the API server turns into 410 Gone.

use crate::Revision;

/// Everything a storage operation or a watch can fail with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// `get("/a")` or `update("/a", ..)` when `/a` does not exist.
    #[error("key not found: {key}")]
    NotFound {
        /// The key asked for.
        key: String,
    },
    /// `create("/a", ..)` when `/a` exists.
    #[error("key already exists: {key}")]
    AlreadyExists {
        /// The key asked for.
        key: String,
    },
    /// `update("/a", v, 5)` when `/a` was last modified at revision 7: the caller read a stale
    /// value (the API server answers 409 Conflict and clients re-read and retry).
    #[error(
        "conflict on {key}: expected mod revision {expected}, current mod revision {current_revision}"
    )]
    Conflict {
        /// The key asked for.
        key: String,
        /// The mod revision the caller expected.
        expected: Revision,
        /// The key's mod revision now.
        current_revision: Revision,
    },
    /// A read at, or a watch after, a revision whose history was compacted away (the API
    /// server's 410 Gone "too old resource version").
    #[error("revision {requested} has been compacted (compacted revision {compacted})")]
    Compacted {
        /// The revision asked for.
        requested: Revision,
        /// The oldest revision still readable.
        compacted: Revision,
    },
    /// A read at a revision the store has not reached (the API server's "too large resource
    /// version", 504 with a retry).
    #[error("revision {requested} is newer than the current revision {current}")]
    FutureRevision {
        /// The revision asked for.
        requested: Revision,
        /// The store's current revision.
        current: Revision,
    },
    /// A watcher of the watch cache did not keep up and was dropped; the events before this
    /// error were delivered in order, the client must watch again (or re-list).
    #[error("watcher fell behind and was dropped after revision {last_delivered}")]
    Lagged {
        /// The revision of the last event delivered to this watcher (0 if none).
        last_delivered: Revision,
    },
    /// `create("", ..)`: keys must be non-empty.
    #[error("invalid key {key:?}: {reason}")]
    InvalidKey {
        /// The key given.
        key: String,
        /// Why it is invalid.
        reason: &'static str,
    },
    /// Stored bytes that do not decode (a damaged data file): reported, never a panic.
    #[error("corrupt storage data: {0}")]
    Corrupt(String),
    /// The backend failed (I/O, database, etcd connection).
    #[error("storage backend error: {0}")]
    Backend(String),
}

impl Error {
    pub(crate) fn backend(err: impl std::fmt::Display) -> Self {
        Error::Backend(err.to_string())
    }
}

/// The result of a storage operation.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Keys must be non-empty (etcd rejects an empty key too).
pub(crate) fn check_key(key: &str) -> Result<()> {
    if key.is_empty() {
        return Err(Error::InvalidKey {
            key: String::new(),
            reason: "key must not be empty",
        });
    }
    Ok(())
}
