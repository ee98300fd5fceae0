//! The etcd backend: apiserver pkg/storage/etcd3 (store.go, watcher.go) over etcd-client.
//!
//! - resourceVersion = the key's mod revision; a list's revision = the response header revision;
//! - create: a transaction comparing `create_revision == 0`; update and delete: comparing
//!   `mod_revision == expected` (store.go `GuaranteedUpdate` / `conditionalDelete`), both
//!   falling back to a get so the caller learns `NotFound` vs. `Conflict`;
//! - list: a range read at one revision, paginated with `limit` and a start key after the
//!   previous page's last key (store.go `GetList`);
//! - watch: `start_revision = after + 1` with `prev_kv` (watcher.go), "mvcc: required revision
//!   has been compacted" and compacted watch cancellations mapped to [`Error::Compacted`].
//!
//! Several servers may share one etcd (and one prefix): all ordering comes from etcd.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use etcd_client::{
    Client, Compare, CompareOp, ConnectOptions, DeleteOptions, EventType, GetOptions, PutOptions,
    Txn, TxnOp, TxnOpResponse, WatchOptions, WatchStream,
};
use futures_util::stream;

use crate::error::check_key;
use crate::{
    CompactionPolicy, Deleted, Error, Event, EventKind, EventStream, KeyValue, ListOptions,
    ListResult, Result, Revision, Storage,
};

/// The largest etcd response accepted (`i32::MAX`, as kube-apiserver).
const MAX_MESSAGE: usize = 0x7fff_ffff;

/// How to reach etcd.
#[derive(Debug, Clone)]
pub struct EtcdConfig {
    /// Client URLs, e.g. `http://127.0.0.1:2379`.
    pub endpoints: Vec<String>,
    /// Prepended to every key (e.g. `/crdkit`); the empty string passes keys through.
    pub prefix: String,
    /// History kept: each server compacts etcd to `retain_revisions` behind its latest write
    /// (compactions by several servers are idempotent).
    pub policy: CompactionPolicy,
    /// Bound on establishing the connection.
    pub connect_timeout: Duration,
}

impl EtcdConfig {
    /// One endpoint, no key prefix, the default compaction policy.
    pub fn new(endpoint: impl Into<String>) -> Self {
        EtcdConfig {
            endpoints: vec![endpoint.into()],
            prefix: String::new(),
            policy: CompactionPolicy::default(),
            connect_timeout: Duration::from_secs(5),
        }
    }
}

/// A store in etcd (feature `etcd`).
#[derive(Clone)]
pub struct EtcdStorage {
    client: Client,
    prefix: Arc<str>,
    policy: CompactionPolicy,
    /// The highest revision this process compacted to (or learnt was compacted).
    compacted: Arc<AtomicU64>,
}

#[allow(clippy::needless_pass_by_value)] // Used as `map_err(etcd_err)`.
fn etcd_err(err: etcd_client::Error) -> Error {
    Error::Backend(err.to_string())
}

fn is_compacted(err: &etcd_client::Error) -> bool {
    err.to_string()
        .contains("required revision has been compacted")
}

fn is_future(err: &etcd_client::Error) -> bool {
    err.to_string()
        .contains("required revision is a future revision")
}

fn rev(revision: i64) -> Revision {
    // etcd revisions are positive int64s.
    u64::try_from(revision).unwrap_or(0)
}

fn etcd_rev(revision: Revision) -> Result<i64> {
    i64::try_from(revision).map_err(|_| Error::FutureRevision {
        requested: revision,
        current: 0,
    })
}

/// The end of etcd's range of keys starting with `prefix` (clientv3.GetPrefixRangeEnd).
fn prefix_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    // Every byte 0xff (or empty): to the end of the keyspace.
    vec![0]
}

impl EtcdStorage {
    /// Connects to etcd and checks that it answers.
    pub async fn connect(config: EtcdConfig) -> Result<Self> {
        let options = ConnectOptions::new()
            .with_connect_timeout(config.connect_timeout)
            .with_keep_alive(Duration::from_secs(10), Duration::from_secs(5));
        let connect = Client::connect(&config.endpoints, Some(options));
        let mut client = tokio::time::timeout(config.connect_timeout, connect)
            .await
            .map_err(|_| {
                Error::Backend(format!(
                    "connecting to etcd at {:?} timed out",
                    config.endpoints
                ))
            })?
            .map_err(etcd_err)?;
        tokio::time::timeout(config.connect_timeout, client.status())
            .await
            .map_err(|_| Error::Backend(format!("etcd at {:?} does not answer", config.endpoints)))?
            .map_err(etcd_err)?;
        Ok(EtcdStorage {
            client,
            prefix: config.prefix.into(),
            policy: config.policy,
            compacted: Arc::new(AtomicU64::new(0)),
        })
    }

    /// A KV client without gRPC's 4 MiB default response limit (a list of 10k objects exceeds
    /// it); kube-apiserver lifts it the same way (`MaxCallRecvMsgSize`, etcd3 client setup).
    fn kv_client(&self) -> etcd_client::KvClient {
        self.client
            .kv_client()
            .max_decoding_message_size(MAX_MESSAGE)
    }

    fn watch_client(&self) -> etcd_client::WatchClient {
        self.client
            .watch_client()
            .max_decoding_message_size(MAX_MESSAGE)
    }

    fn full(&self, key: &str) -> Vec<u8> {
        let mut full = Vec::with_capacity(self.prefix.len() + key.len());
        full.extend_from_slice(self.prefix.as_bytes());
        full.extend_from_slice(key.as_bytes());
        full
    }

    /// Our key of an etcd key.
    fn strip(&self, key: &[u8]) -> Result<String> {
        let key = key.strip_prefix(self.prefix.as_bytes()).ok_or_else(|| {
            Error::Corrupt(format!(
                "etcd key {} outside the prefix",
                String::from_utf8_lossy(key)
            ))
        })?;
        String::from_utf8(key.to_vec()).map_err(|_| {
            Error::Corrupt(format!(
                "etcd key {} is not UTF-8",
                String::from_utf8_lossy(key)
            ))
        })
    }

    fn kv(&self, kv: &etcd_client::KeyValue) -> Result<KeyValue> {
        Ok(KeyValue {
            key: self.strip(kv.key())?,
            value: Bytes::copy_from_slice(kv.value()),
            create_revision: rev(kv.create_revision()),
            mod_revision: rev(kv.mod_revision()),
        })
    }

    /// The compaction error for a read at `requested`, which etcd reported compacted. etcd's
    /// error does not say up to where; a watch starting at `requested` (below the compact
    /// revision, since the read failed) does: etcd confirms it and then cancels it with its
    /// compact revision (mvcc `watchable_store.go`, `syncWatchers`).
    async fn compacted_error(&self, requested: Revision) -> Error {
        let learnt = tokio::time::timeout(
            Duration::from_secs(5),
            self.watch_compact_revision(requested),
        )
        .await;
        let compacted = match learnt {
            Ok(Ok(compacted)) => compacted,
            Ok(Err(err)) => return err,
            // What this process knows: the store was compacted past `requested`.
            Err(_) => self.compacted.load(Ordering::Relaxed).max(requested + 1),
        };
        self.compacted.fetch_max(compacted, Ordering::Relaxed);
        Error::Compacted {
            requested,
            compacted,
        }
    }

    async fn watch_compact_revision(&self, requested: Revision) -> Result<Revision> {
        let options = WatchOptions::new().with_start_revision(etcd_rev(requested.max(1))?);
        let mut stream = self
            .watch_client()
            .watch(self.full("\0"), Some(options))
            .await
            .map_err(etcd_err)?;
        loop {
            let response = stream
                .message()
                .await
                .map_err(etcd_err)?
                .ok_or_else(|| Error::backend("etcd watch ended"))?;
            if response.compact_revision() > 0 {
                return Ok(rev(response.compact_revision()));
            }
        }
    }

    /// Compacts when the policy says so after a write reached `revision`.
    /// The write itself succeeded, so a failed compaction is not its error: the next due
    /// write tries again.
    async fn after_write(&self, revision: Revision) {
        if let Some(target) = self
            .policy
            .due(revision, self.compacted.load(Ordering::Relaxed))
        {
            let _ = self.compact(target).await;
        }
    }

    /// The key's current state, after a failed transaction's comparison.
    async fn explain(&self, key: &str, expected: Revision) -> Error {
        match self.get(key).await {
            Ok(current) => Error::Conflict {
                key: key.to_owned(),
                expected,
                current_revision: current.mod_revision,
            },
            Err(err) => err,
        }
    }

    fn header_revision(header: Option<&etcd_client::ResponseHeader>) -> Result<Revision> {
        header
            .map(|h| rev(h.revision()))
            .ok_or_else(|| Error::backend("etcd response without header"))
    }
}

#[async_trait]
impl Storage for EtcdStorage {
    async fn get(&self, key: &str) -> Result<KeyValue> {
        check_key(key)?;
        let mut kv = self.kv_client();
        let response = kv.get(self.full(key), None).await.map_err(etcd_err)?;
        match response.kvs().first() {
            Some(found) => self.kv(found),
            None => Err(Error::NotFound {
                key: key.to_owned(),
            }),
        }
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult> {
        let full_prefix = self.full(prefix);
        let start = match options.continue_key.as_deref() {
            // Strictly after the continue key: the key followed by a zero byte.
            Some(after) if after >= prefix => {
                let mut start = self.full(after);
                start.push(0);
                start
            }
            // etcd has no empty key: the whole keyspace starts at "\0".
            _ if full_prefix.is_empty() => vec![0],
            _ => full_prefix.clone(),
        };
        let mut get = GetOptions::new().with_range(prefix_end(&full_prefix));
        if let Some(limit) = options.limit.filter(|&n| n > 0) {
            get = get.with_limit(i64::try_from(limit).unwrap_or(i64::MAX));
        }
        if let Some(at) = options.at_revision {
            get = get.with_revision(etcd_rev(at)?);
        }
        let mut kv = self.kv_client();
        let response = match kv.get(start, Some(get)).await {
            Ok(response) => response,
            Err(err) if is_compacted(&err) => {
                return Err(self.compacted_error(options.at_revision.unwrap_or(0)).await);
            }
            Err(err) if is_future(&err) => {
                let current = self.current_revision().await?;
                return Err(Error::FutureRevision {
                    requested: options.at_revision.unwrap_or(0),
                    current,
                });
            }
            Err(err) => return Err(etcd_err(err)),
        };
        let revision = options
            .at_revision
            .map_or_else(|| Self::header_revision(response.header()), Ok)?;
        let items = response
            .kvs()
            .iter()
            .map(|kv| self.kv(kv))
            .collect::<Result<Vec<_>>>()?;
        Ok(ListResult {
            items,
            revision,
            more: response.more(),
        })
    }

    async fn create(&self, key: &str, value: Bytes) -> Result<KeyValue> {
        check_key(key)?;
        let full = self.full(key);
        let txn = Txn::new()
            .when([Compare::create_revision(full.clone(), CompareOp::Equal, 0)])
            .and_then([TxnOp::put(full, value.to_vec(), None)]);
        let response = self.kv_client().txn(txn).await.map_err(etcd_err)?;
        if !response.succeeded() {
            return Err(Error::AlreadyExists {
                key: key.to_owned(),
            });
        }
        let revision = Self::header_revision(response.header())?;
        self.after_write(revision).await;
        Ok(KeyValue {
            key: key.to_owned(),
            value,
            create_revision: revision,
            mod_revision: revision,
        })
    }

    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected_mod_revision: Revision,
    ) -> Result<KeyValue> {
        let full = self.full(key);
        let txn = Txn::new()
            .when([
                Compare::create_revision(full.clone(), CompareOp::Greater, 0),
                Compare::mod_revision(
                    full.clone(),
                    CompareOp::Equal,
                    etcd_rev(expected_mod_revision)?,
                ),
            ])
            .and_then([TxnOp::put(
                full,
                value.to_vec(),
                Some(PutOptions::new().with_prev_key()),
            )]);
        let response = self.kv_client().txn(txn).await.map_err(etcd_err)?;
        if !response.succeeded() {
            return Err(self.explain(key, expected_mod_revision).await);
        }
        let revision = Self::header_revision(response.header())?;
        let create_revision = response
            .op_responses()
            .into_iter()
            .find_map(|op| match op {
                TxnOpResponse::Put(put) => put.prev_key().map(|prev| rev(prev.create_revision())),
                _ => None,
            })
            .ok_or_else(|| Error::backend("etcd put without its previous value"))?;
        self.after_write(revision).await;
        Ok(KeyValue {
            key: key.to_owned(),
            value,
            create_revision,
            mod_revision: revision,
        })
    }

    async fn delete(&self, key: &str, expected_mod_revision: Option<Revision>) -> Result<Deleted> {
        check_key(key)?;
        let full = self.full(key);
        let mut when = vec![Compare::create_revision(
            full.clone(),
            CompareOp::Greater,
            0,
        )];
        if let Some(expected) = expected_mod_revision {
            when.push(Compare::mod_revision(
                full.clone(),
                CompareOp::Equal,
                etcd_rev(expected)?,
            ));
        }
        let txn = Txn::new().when(when).and_then([TxnOp::delete(
            full,
            Some(DeleteOptions::new().with_prev_key()),
        )]);
        let response = self.kv_client().txn(txn).await.map_err(etcd_err)?;
        if !response.succeeded() {
            return Err(self.explain(key, expected_mod_revision.unwrap_or(0)).await);
        }
        let revision = Self::header_revision(response.header())?;
        let prev = response
            .op_responses()
            .into_iter()
            .find_map(|op| match op {
                TxnOpResponse::Delete(delete) => delete.prev_kvs().first().map(|kv| self.kv(kv)),
                _ => None,
            })
            .ok_or_else(|| Error::backend("etcd delete without its previous value"))??;
        self.after_write(revision).await;
        Ok(Deleted { prev, revision })
    }

    async fn watch(&self, prefix: &str, after_revision: Revision) -> Result<EventStream> {
        let options = WatchOptions::new()
            .with_prefix()
            .with_start_revision(etcd_rev(after_revision + 1)?)
            .with_prev_key();
        let mut stream = self
            .watch_client()
            .watch(self.full(prefix), Some(options))
            .await
            .map_err(etcd_err)?;
        // Wait for etcd to confirm (or refuse) the watch, so a compacted start fails here.
        let mut buffer = VecDeque::new();
        loop {
            let response = stream
                .message()
                .await
                .map_err(etcd_err)?
                .ok_or_else(|| Error::backend("etcd watch ended"))?;
            if response.compact_revision() > 0 {
                return Err(Error::Compacted {
                    requested: after_revision,
                    compacted: rev(response.compact_revision()),
                });
            }
            self.convert(&response, &mut buffer)?;
            if response.created() || !buffer.is_empty() {
                break;
            }
        }
        let state = Watch {
            store: self.clone(),
            stream,
            after: after_revision,
            buffer,
            failed: false,
        };
        Ok(Box::pin(stream::unfold(state, Watch::next)))
    }

    async fn current_revision(&self) -> Result<Revision> {
        let mut kv = self.kv_client();
        let response = kv
            .get(self.full("\0"), Some(GetOptions::new().with_count_only()))
            .await
            .map_err(etcd_err)?;
        Self::header_revision(response.header())
    }

    async fn compact(&self, revision: Revision) -> Result<()> {
        let mut kv = self.kv_client();
        match kv.compact(etcd_rev(revision)?, None).await {
            Ok(_) => {}
            // Already compacted there (perhaps by another server): nothing to do.
            Err(err) if is_compacted(&err) => {}
            Err(err) if is_future(&err) => {
                let current = self.current_revision().await?;
                return Err(Error::FutureRevision {
                    requested: revision,
                    current,
                });
            }
            Err(err) => return Err(etcd_err(err)),
        }
        self.compacted.fetch_max(revision, Ordering::Relaxed);
        Ok(())
    }
}

/// An open etcd watch and the events of its last response.
struct Watch {
    store: EtcdStorage,
    stream: WatchStream,
    after: Revision,
    buffer: VecDeque<Event>,
    failed: bool,
}

impl Watch {
    async fn next(mut self) -> Option<(Result<Event>, Self)> {
        if self.failed {
            return None;
        }
        loop {
            if let Some(event) = self.buffer.pop_front() {
                self.after = event.revision;
                return Some((Ok(event), self));
            }
            let response = match self.stream.message().await {
                Ok(Some(response)) => response,
                Ok(None) => return None,
                Err(err) => return self.fail(etcd_err(err)),
            };
            if response.compact_revision() > 0 {
                let error = Error::Compacted {
                    requested: self.after,
                    compacted: rev(response.compact_revision()),
                };
                return self.fail(error);
            }
            if response.canceled() {
                let error = Error::Backend(format!(
                    "etcd canceled the watch: {}",
                    response.cancel_reason()
                ));
                return self.fail(error);
            }
            if let Err(err) = self.store.convert(&response, &mut self.buffer) {
                return self.fail(err);
            }
        }
    }

    #[allow(clippy::unnecessary_wraps)] // The shape `stream::unfold` wants.
    fn fail(mut self, error: Error) -> Option<(Result<Event>, Self)> {
        self.failed = true;
        Some((Err(error), self))
    }
}

impl EtcdStorage {
    /// The events of a watch response (watcher.go `parseEvent`).
    fn convert(
        &self,
        response: &etcd_client::WatchResponse,
        buffer: &mut VecDeque<Event>,
    ) -> Result<()> {
        for event in response.events() {
            let kv = event
                .kv()
                .ok_or_else(|| Error::backend("etcd event without key"))?;
            let prev = event.prev_kv();
            let key = self.strip(kv.key())?;
            let converted = match event.event_type() {
                EventType::Put => Event {
                    kind: if kv.create_revision() == kv.mod_revision() {
                        EventKind::Added
                    } else {
                        EventKind::Modified
                    },
                    key,
                    revision: rev(kv.mod_revision()),
                    create_revision: rev(kv.create_revision()),
                    value: Some(Bytes::copy_from_slice(kv.value())),
                    prev_value: prev.map(|p| Bytes::copy_from_slice(p.value())),
                    prev_mod_revision: prev.map_or(0, |p| rev(p.mod_revision())),
                },
                EventType::Delete => {
                    // The API server cannot report a delete without the deleted object either.
                    let prev = prev.ok_or_else(|| {
                        Error::Backend(format!(
                            "etcd delete event of {key} without its previous value"
                        ))
                    })?;
                    Event {
                        kind: EventKind::Deleted,
                        key,
                        revision: rev(kv.mod_revision()),
                        create_revision: rev(prev.create_revision()),
                        value: None,
                        prev_value: Some(Bytes::copy_from_slice(prev.value())),
                        prev_mod_revision: rev(prev.mod_revision()),
                    }
                }
            };
            buffer.push_back(converted);
        }
        Ok(())
    }
}
