//! The redb writer thread: applies write requests in batches, one redb write transaction (and
//! one fsync) per batch, and acknowledges each request only after its batch committed. This is
//! etcd's batched backend commit (server/mvcc/backend `batch_tx.go`) with redb's durable commit:
//! an acknowledged write survives a crash.

use std::sync::Arc;

use bytes::Bytes;
use redb::{ReadableTable, Table};
use tokio::sync::{mpsc, oneshot};

use super::codec::{decode_kv, encode_event, encode_kv};
use super::{Core, KV, LOG, META, META_COMPACTED, META_REVISION};
use crate::error::check_key;
use crate::{CompactionPolicy, Deleted, Error, Event, EventKind, KeyValue, Result, Revision};

/// One write.
pub(super) enum Op {
    Create {
        key: String,
        value: Bytes,
    },
    Update {
        key: String,
        value: Bytes,
        expected: Revision,
    },
    Delete {
        key: String,
        expected: Option<Revision>,
    },
    Compact {
        revision: Revision,
    },
}

/// The answer to one write.
pub(super) enum Reply {
    Written(KeyValue),
    Deleted(Deleted),
    Compacted,
}

pub(super) struct Request {
    pub(super) op: Op,
    pub(super) reply: oneshot::Sender<Result<Reply>>,
}

/// The most writes committed together.
const MAX_BATCH: usize = 256;

/// Runs until every sender is gone.
pub(super) fn run(
    core: &Arc<Core>,
    policy: CompactionPolicy,
    mut rx: mpsc::UnboundedReceiver<Request>,
) {
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
        let ops: Vec<&Op> = batch.iter().map(|request| &request.op).collect();
        match commit(core, policy, &ops) {
            Ok((replies, revision)) => {
                core.notify.send_replace(revision);
                for (request, reply) in batch.into_iter().zip(replies) {
                    let _ = request.reply.send(reply);
                }
            }
            Err(err) => {
                for request in batch {
                    let _ = request.reply.send(Err(err.clone()));
                }
            }
        }
    }
}

/// Applies the batch in one transaction; returns each op's result and the new revision.
fn commit(
    core: &Core,
    policy: CompactionPolicy,
    ops: &[&Op],
) -> Result<(Vec<Result<Reply>>, Revision)> {
    let txn = core.db.begin_write().map_err(Error::backend)?;
    let mut replies = Vec::with_capacity(ops.len());
    let revision;
    {
        let mut kv = txn.open_table(KV).map_err(Error::backend)?;
        let mut log = txn.open_table(LOG).map_err(Error::backend)?;
        let mut meta = txn.open_table(META).map_err(Error::backend)?;
        let mut state = State {
            revision: meta
                .get(META_REVISION)
                .map_err(Error::backend)?
                .map_or(0, |v| v.value()),
            compacted: meta
                .get(META_COMPACTED)
                .map_err(Error::backend)?
                .map_or(0, |v| v.value()),
            kv: &mut kv,
            log: &mut log,
        };
        for op in ops {
            let reply = state.apply(op);
            // A failing table operation may have left this op half-applied: abort the whole
            // transaction (dropping it rolls back) and fail the batch.
            if let Err(err @ (Error::Backend(_) | Error::Corrupt(_))) = reply {
                return Err(err);
            }
            replies.push(reply);
        }
        if let Some(target) = policy.due(state.revision, state.compacted) {
            state.compact(target)?;
        }
        meta.insert(META_REVISION, state.revision)
            .map_err(Error::backend)?;
        meta.insert(META_COMPACTED, state.compacted)
            .map_err(Error::backend)?;
        revision = state.revision;
    }
    txn.commit().map_err(Error::backend)?;
    Ok((replies, revision))
}

struct State<'a, 't> {
    revision: Revision,
    compacted: Revision,
    kv: &'a mut Table<'t, &'static str, &'static [u8]>,
    log: &'a mut Table<'t, u64, &'static [u8]>,
}

impl State<'_, '_> {
    fn get(&self, key: &str) -> Result<Option<KeyValue>> {
        match self.kv.get(key).map_err(Error::backend)? {
            None => Ok(None),
            Some(bytes) => decode_kv(key, bytes.value()).map(Some),
        }
    }

    fn apply(&mut self, op: &Op) -> Result<Reply> {
        let next = self.revision + 1;
        match op {
            Op::Create { key, value } => {
                check_key(key)?;
                if self.get(key)?.is_some() {
                    return Err(Error::AlreadyExists { key: key.clone() });
                }
                let event = Event {
                    kind: EventKind::Added,
                    key: key.clone(),
                    revision: next,
                    create_revision: next,
                    value: Some(value.clone()),
                    prev_value: None,
                    prev_mod_revision: 0,
                };
                self.put(key, next, next, value)?;
                self.log(&event)?;
                Ok(Reply::Written(KeyValue {
                    key: key.clone(),
                    value: value.clone(),
                    create_revision: next,
                    mod_revision: next,
                }))
            }
            Op::Update {
                key,
                value,
                expected,
            } => {
                check_key(key)?;
                let current = self
                    .get(key)?
                    .ok_or_else(|| Error::NotFound { key: key.clone() })?;
                if current.mod_revision != *expected {
                    return Err(Error::Conflict {
                        key: key.clone(),
                        expected: *expected,
                        current_revision: current.mod_revision,
                    });
                }
                let event = Event {
                    kind: EventKind::Modified,
                    key: key.clone(),
                    revision: next,
                    create_revision: current.create_revision,
                    value: Some(value.clone()),
                    prev_value: Some(current.value),
                    prev_mod_revision: current.mod_revision,
                };
                self.put(key, current.create_revision, next, value)?;
                self.log(&event)?;
                Ok(Reply::Written(KeyValue {
                    key: key.clone(),
                    value: value.clone(),
                    create_revision: current.create_revision,
                    mod_revision: next,
                }))
            }
            Op::Delete { key, expected } => {
                check_key(key)?;
                let current = self
                    .get(key)?
                    .ok_or_else(|| Error::NotFound { key: key.clone() })?;
                if let Some(expected) =
                    expected.filter(|&expected| expected != current.mod_revision)
                {
                    return Err(Error::Conflict {
                        key: key.clone(),
                        expected,
                        current_revision: current.mod_revision,
                    });
                }
                let event = Event {
                    kind: EventKind::Deleted,
                    key: key.clone(),
                    revision: next,
                    create_revision: current.create_revision,
                    value: None,
                    prev_value: Some(current.value.clone()),
                    prev_mod_revision: current.mod_revision,
                };
                self.kv.remove(key.as_str()).map_err(Error::backend)?;
                self.log(&event)?;
                Ok(Reply::Deleted(Deleted {
                    prev: current,
                    revision: next,
                }))
            }
            Op::Compact { revision } => {
                if *revision > self.revision {
                    return Err(Error::FutureRevision {
                        requested: *revision,
                        current: self.revision,
                    });
                }
                self.compact(*revision)?;
                Ok(Reply::Compacted)
            }
        }
    }

    fn put(
        &mut self,
        key: &str,
        create_revision: Revision,
        mod_revision: Revision,
        value: &[u8],
    ) -> Result<()> {
        self.kv
            .insert(
                key,
                encode_kv(create_revision, mod_revision, value).as_slice(),
            )
            .map_err(Error::backend)?;
        Ok(())
    }

    /// Appends the write to the log and takes its revision.
    fn log(&mut self, event: &Event) -> Result<()> {
        self.log
            .insert(event.revision, encode_event(event).as_slice())
            .map_err(Error::backend)?;
        self.revision = event.revision;
        Ok(())
    }

    fn compact(&mut self, target: Revision) -> Result<()> {
        if target > self.compacted {
            self.log
                .retain_in(..=target, |_, _| false)
                .map_err(Error::backend)?;
            self.compacted = target;
        }
        Ok(())
    }
}
