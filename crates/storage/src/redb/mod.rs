//! The persistent backend on redb (an embedded, crash-safe B-tree store): the memory backend's
//! design made durable, in the shape kine uses over SQL (research/apiserver.md §7):
//!
//! - `kv`: key → create revision, mod revision, value (the current state);
//! - `log`: revision → the write (for watches and snapshot reads, trimmed by compaction);
//! - `meta`: the current and the compacted revision, so revisions keep increasing across
//!   restarts.
//!
//! Writes go through one writer thread that commits them in batches with redb's
//! `Durability::Immediate` (fsync before the commit returns) and answers each only after its
//! batch committed: a write acknowledged to the caller survives `kill -9`.

mod codec;
mod writer;

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use async_trait::async_trait;
use bytes::Bytes;
use redb::{Database, ReadTransaction, ReadableDatabase, ReadableTable, TableDefinition};
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::check_key;
use crate::{
    CompactionPolicy, Deleted, Error, Event, EventStream, KeyValue, ListOptions, ListResult,
    Result, Revision, Storage, mvcc, tail,
};
use codec::{decode_event, decode_kv};
use writer::{Op, Reply, Request};

const KV: TableDefinition<&str, &[u8]> = TableDefinition::new("kv");
const LOG: TableDefinition<u64, &[u8]> = TableDefinition::new("log");
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");
const META_REVISION: &str = "revision";
const META_COMPACTED: &str = "compacted";
const META_FORMAT: &str = "format";
/// The table layout version, checked on open.
const FORMAT: u64 = 1;

/// A persistent store in one redb file (`crdgen serve --data DIR`).
///
/// Cloning shares the store. The file is locked while a `RedbStorage` (or one of its watches) is
/// alive.
#[derive(Clone)]
pub struct RedbStorage {
    core: Arc<Core>,
    writer: Arc<Writer>,
}

/// What reads and watches need.
struct Core {
    db: Database,
    /// The latest committed revision.
    notify: watch::Sender<Revision>,
}

/// The writer thread and its queue; dropping the last handle stops and joins the thread.
struct Writer {
    tx: Mutex<Option<mpsc::UnboundedSender<Request>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.tx
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(thread) = self
            .thread
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            let _ = thread.join();
        }
    }
}

impl RedbStorage {
    /// Opens (or creates) the store in the file at `path`; its directory must exist.
    /// Fails when another process has the file open, or the file is not a crdkit store.
    pub fn open(path: impl AsRef<Path>, policy: CompactionPolicy) -> Result<Self> {
        let db = Database::create(path.as_ref())
            .map_err(|err| Error::Backend(format!("opening {}: {err}", path.as_ref().display())))?;
        let revision = init(&db)?;
        let (notify, _) = watch::channel(revision);
        let core = Arc::new(Core { db, notify });
        let (tx, rx) = mpsc::unbounded_channel();
        let thread_core = Arc::clone(&core);
        let thread = std::thread::Builder::new()
            .name("crdkit-redb-writer".into())
            .spawn(move || writer::run(&thread_core, policy, rx))
            .map_err(Error::backend)?;
        let writer = Writer {
            tx: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        };
        Ok(RedbStorage {
            core,
            writer: Arc::new(writer),
        })
    }

    async fn write(&self, op: Op) -> Result<Reply> {
        let (reply, rx) = oneshot::channel();
        let sent = self
            .writer
            .tx
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .is_some_and(|tx| tx.send(Request { op, reply }).is_ok());
        if !sent {
            return Err(Error::backend("the redb writer has stopped"));
        }
        rx.await
            .map_err(|_| Error::backend("the redb writer has stopped"))?
    }

    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&ReadTransaction) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.core.read(read).await
    }
}

impl Core {
    /// Runs `read` on a blocking thread with a read transaction (a consistent snapshot).
    async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        read: impl FnOnce(&ReadTransaction) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let core = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let txn = core.db.begin_read().map_err(Error::backend)?;
            read(&txn)
        })
        .await
        .map_err(Error::backend)?
    }
}

/// Creates the tables of a new store, checks the format of an existing one; returns the
/// current revision.
fn init(db: &Database) -> Result<Revision> {
    let txn = db.begin_write().map_err(Error::backend)?;
    let revision;
    {
        txn.open_table(KV).map_err(Error::backend)?;
        txn.open_table(LOG).map_err(Error::backend)?;
        let mut meta = txn.open_table(META).map_err(Error::backend)?;
        let format = meta
            .get(META_FORMAT)
            .map_err(Error::backend)?
            .map(|v| v.value());
        match format {
            None => {
                meta.insert(META_FORMAT, FORMAT).map_err(Error::backend)?;
            }
            Some(FORMAT) => {}
            Some(other) => {
                return Err(Error::Corrupt(format!(
                    "unknown store format {other} (expected {FORMAT})"
                )));
            }
        }
        revision = meta
            .get(META_REVISION)
            .map_err(Error::backend)?
            .map_or(0, |v| v.value());
    }
    txn.commit().map_err(Error::backend)?;
    Ok(revision)
}

/// The current and compacted revision as of a read transaction.
fn revisions(txn: &ReadTransaction) -> Result<(Revision, Revision)> {
    let meta = txn.open_table(META).map_err(Error::backend)?;
    let get = |name| -> Result<Revision> {
        Ok(meta
            .get(name)
            .map_err(Error::backend)?
            .map_or(0, |v| v.value()))
    };
    Ok((get(META_REVISION)?, get(META_COMPACTED)?))
}

/// The logged writes after `after`, at most `max`.
fn events_after(txn: &ReadTransaction, after: Revision, max: usize) -> Result<Vec<Event>> {
    let log = txn.open_table(LOG).map_err(Error::backend)?;
    let mut events = Vec::new();
    for entry in log
        .range((Bound::Excluded(after), Bound::Unbounded))
        .map_err(Error::backend)?
        .take(max)
    {
        let (revision, bytes) = entry.map_err(Error::backend)?;
        events.push(decode_event(revision.value(), bytes.value())?);
    }
    Ok(events)
}

fn list(txn: &ReadTransaction, prefix: &str, options: &ListOptions) -> Result<ListResult> {
    let (current, compacted) = revisions(txn)?;
    let revision = mvcc::read_revision(options.at_revision, current, compacted)?;
    let lower = mvcc::lower_bound(prefix, options);
    let overlay = if revision < current {
        let events = events_after(txn, revision, usize::MAX)?;
        mvcc::overlay(&events, prefix, lower)
    } else {
        BTreeMap::new()
    };
    let kv = txn.open_table(KV).map_err(Error::backend)?;
    let range = kv
        .range::<&str>((lower, Bound::Unbounded))
        .map_err(Error::backend)?;
    let current = range
        .map(|entry| {
            let (key, bytes) = entry.map_err(Error::backend)?;
            Ok((key.value().to_owned(), bytes))
        })
        .take_while(|entry| {
            entry
                .as_ref()
                .map_or(true, |(key, _)| key.starts_with(prefix))
        })
        .map(|entry| entry.and_then(|(key, bytes)| decode_kv(&key, bytes.value())));
    let (items, more) = mvcc::page(current, overlay, options.limit)?;
    Ok(ListResult {
        items,
        revision,
        more,
    })
}

#[async_trait]
impl Storage for RedbStorage {
    async fn get(&self, key: &str) -> Result<KeyValue> {
        check_key(key)?;
        let key = key.to_owned();
        self.read(move |txn| {
            let kv = txn.open_table(KV).map_err(Error::backend)?;
            let found = kv.get(key.as_str()).map_err(Error::backend)?;
            match found {
                Some(bytes) => decode_kv(&key, bytes.value()),
                None => Err(Error::NotFound { key: key.clone() }),
            }
        })
        .await
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult> {
        let (prefix, options) = (prefix.to_owned(), options.clone());
        self.read(move |txn| list(txn, &prefix, &options)).await
    }

    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue> {
        match self
            .write(Op::Create {
                key: key.to_owned(),
                value,
            })
            .await?
        {
            Reply::Written(kv) => Ok(kv),
            _ => Err(Error::backend("unexpected writer reply")),
        }
    }

    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected_mod_revision: Revision,
    ) -> Result<KeyValue> {
        match self
            .write(Op::Update {
                key: key.to_owned(),
                value,
                expected: expected_mod_revision,
            })
            .await?
        {
            Reply::Written(kv) => Ok(kv),
            _ => Err(Error::backend("unexpected writer reply")),
        }
    }

    async fn delete(&self, key: &str, expected_mod_revision: Option<Revision>) -> Result<Deleted> {
        match self
            .write(Op::Delete {
                key: key.to_owned(),
                expected: expected_mod_revision,
            })
            .await?
        {
            Reply::Deleted(deleted) => Ok(deleted),
            _ => Err(Error::backend("unexpected writer reply")),
        }
    }

    async fn watch(&self, prefix: &str, after_revision: Revision) -> Result<EventStream> {
        let (_, compacted) = self.read(revisions).await?;
        if after_revision < compacted {
            return Err(Error::Compacted {
                requested: after_revision,
                compacted,
            });
        }
        let rx = self.core.notify.subscribe();
        Ok(tail::stream(Tail {
            core: Arc::clone(&self.core),
            prefix: prefix.to_owned(),
            after: after_revision,
            rx,
        }))
    }

    async fn current_revision(&self) -> Result<Revision> {
        Ok(*self.core.notify.borrow())
    }

    async fn compact(&self, revision: Revision) -> Result<()> {
        match self.write(Op::Compact { revision }).await? {
            Reply::Compacted => Ok(()),
            _ => Err(Error::backend("unexpected writer reply")),
        }
    }
}

/// A watch tailing the `log` table.
struct Tail {
    core: Arc<Core>,
    prefix: String,
    after: Revision,
    rx: watch::Receiver<Revision>,
}

/// Log records read per read transaction.
const BATCH: usize = 256;

impl tail::LogTail for Tail {
    async fn fill(&mut self, buffer: &mut VecDeque<Event>) -> Result<bool> {
        self.rx.borrow_and_update();
        let after = self.after;
        let (events, current) = self
            .core
            .read(move |txn| {
                let (current, compacted) = revisions(txn)?;
                if after < compacted {
                    return Err(Error::Compacted {
                        requested: after,
                        compacted,
                    });
                }
                Ok((events_after(txn, after, BATCH)?, current))
            })
            .await?;
        for event in events {
            self.after = event.revision;
            if event.key.starts_with(&self.prefix) {
                buffer.push_back(event);
            }
        }
        Ok(self.after >= current)
    }

    async fn wait(&mut self) -> bool {
        self.rx.changed().await.is_ok()
    }
}
