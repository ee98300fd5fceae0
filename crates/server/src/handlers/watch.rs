//! Watches: newline-framed `{"type": …, "object": …}` events streamed from the watch cache.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/watch.go` (framing, `timeoutSeconds`, the stream
//! ending with the request) and `pkg/storage/cacher` (`cacher.go`, `cache_watcher.go`): a watch
//! without resourceVersion or with `"0"` starts with `ADDED` events for the current state;
//! from `N` it replays every change after `N`, or answers an `ERROR` event with a 410
//! `Expired` Status when that history is gone; `sendInitialEvents=true` ends the initial state
//! with a `BOOKMARK` annotated `k8s.io/initial-events-end`; `allowWatchBookmarks` adds periodic
//! `BOOKMARK`s; an object moving into or out of the selection is `ADDED` or `DELETED`. A `Table`
//! watch (`kubectl get -w`) carries one-row tables.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use crdkit_storage::{EventKind, ListOptions};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::ctx::Ctx;
use super::list::Selection;
use super::read;
use crate::api::Api;
use crate::engine::{FieldError, FieldPath};
use crate::http::negotiate::{Encoding, Output, STREAMED};
use crate::http::response::{self, Resp};
use crate::http::status::{ApiError, ApiResult};
use crate::registry::{Strategy, table};
use crate::store;
use crate::store::cached::{Change, Entry, EventType};

/// What a watch sends events as.
#[derive(Clone, Copy)]
enum Format {
    Object,
    /// `application/vnd.kubernetes.protobuf;stream=watch`: length-prefixed `WatchEvent`s.
    Protobuf,
    Table(&'static str),
}

struct Stream {
    strategy: Arc<dyn Strategy>,
    sel: Selection,
    /// The selection is decided by what the cache decoded (and the cache filters with it).
    decided: bool,
    format: Format,
    tx: mpsc::Sender<Bytes>,
    columns_sent: bool,
}

impl Stream {
    /// Sends one event built here (errors, bookmarks, tables); `false` when the client is gone.
    async fn send(&mut self, ty: &str, obj: &Value) -> bool {
        let object = match self.format {
            Format::Table(v) if ty != "BOOKMARK" && ty != "ERROR" => {
                let mut t = self.strategy.table(&[obj], crate::clock::now());
                if self.columns_sent {
                    t.columns.clear();
                }
                self.columns_sent = true;
                let rv = crate::object::resource_version(obj).to_owned();
                table::render(
                    t,
                    &[obj],
                    table::IncludeObject::Metadata,
                    v,
                    json!({"resourceVersion": rv}),
                )
            }
            _ => obj.clone(),
        };
        if matches!(self.format, Format::Protobuf) {
            return match crdkit_protobuf::Codec::default().encode_watch_event(ty, &object) {
                Ok(frame) => self.tx.send(Bytes::from(frame)).await.is_ok(),
                Err(_) => false,
            };
        }
        // watch.Event's fields in Go's order.
        let mut line =
            format!("{{\"type\":{},\"object\":", Value::String(ty.to_owned())).into_bytes();
        line.extend(serde_json::to_vec(&object).unwrap_or_default());
        line.extend_from_slice(b"}\n");
        self.tx.send(Bytes::from(line)).await.is_ok()
    }

    /// Sends a stored object: its kept frame, shared with every other watcher of the event.
    async fn send_entry(&mut self, ty: EventType, entry: &Entry) -> ApiResult<bool> {
        match self.format {
            Format::Object => {
                let frame = read::encoded(&*self.strategy, entry, ty).await?.frame(ty);
                Ok(self.tx.send(frame).await.is_ok())
            }
            Format::Table(_) | Format::Protobuf => {
                let obj = read::object(&*self.strategy, entry).await?;
                let ty = match ty {
                    EventType::Added => "ADDED",
                    EventType::Modified => "MODIFIED",
                    EventType::Deleted => "DELETED",
                };
                Ok(self.send(ty, &obj).await)
            }
        }
    }

    fn bookmark(&self, revision: u64, initial_end: bool) -> Value {
        let info = self.strategy.info();
        let mut meta = json!({"resourceVersion": revision.to_string(), "creationTimestamp": null});
        if initial_end {
            meta["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        json!({"kind": info.kind, "apiVersion": info.api_version(), "metadata": meta})
    }

    async fn selects(&self, entry: &Entry) -> ApiResult<bool> {
        if self.decided {
            return Ok(self
                .sel
                .matches_decoded(self.strategy.info().namespaced, entry));
        }
        self.sel.selects(&*self.strategy, entry).await
    }

    /// The event to send for a stored change, after selection (`cache_watcher.go`
    /// `convertToWatchEvent`; an object leaving the selection is `DELETED` with its new state).
    async fn translate<'c>(
        &self,
        change: &'c Change,
    ) -> ApiResult<Option<(EventType, &'c Arc<Entry>)>> {
        let obj = &change.object;
        Ok(match change.kind {
            EventKind::Added => self.selects(obj).await?.then_some((EventType::Added, obj)),
            EventKind::Deleted => self
                .selects(obj)
                .await?
                .then_some((EventType::Deleted, obj)),
            EventKind::Modified => {
                let now = self.selects(obj).await?;
                let before = match &change.prev {
                    Some(prev) => self.selects(prev).await?,
                    None => false,
                };
                match (before, now) {
                    (true, true) => Some((EventType::Modified, obj)),
                    (false, true) => Some((EventType::Added, obj)),
                    (true, false) => Some((EventType::Deleted, obj)),
                    (false, false) => None,
                }
            }
        })
    }
}

/// The current state under `prefix` with the revision read at: the cache's once it is fresh,
/// else the storage's. With `decided`, only the entries the selection keeps.
async fn initial(
    api: &Api,
    prefix: &str,
    namespace: Option<&str>,
    stream: &Stream,
) -> ApiResult<(Vec<Arc<Entry>>, u64)> {
    if read::fresh(api).await? {
        let namespaced = stream.strategy.info().namespaced;
        let filter = |e: &Entry| !stream.decided || stream.sel.matches_decoded(namespaced, e);
        // An object selected by name is found by its key, not among all the others.
        let key = stream.sel.only_key(&*stream.strategy, namespace);
        let scan = key
            .as_deref()
            .filter(|k| k.starts_with(prefix))
            .unwrap_or(prefix);
        let term = (key.is_none() && stream.decided)
            .then(|| stream.sel.label.required_pair())
            .flatten()
            .map(|(k, v)| store::cached::label_term(k, v));
        let options = ListOptions::default();
        if let Ok(list) = api
            .cache
            .list_indexed(scan, &options, term.as_deref(), &filter)
        {
            return Ok((list.items, list.revision));
        }
    }
    let gr = stream.strategy.info().gr();
    let result = api
        .objects
        .list_kv(prefix, &ListOptions::default(), &gr)
        .await?;
    let items = result.items.into_iter().map(read::transient).collect();
    Ok((items, result.revision))
}

/// apimachinery `pkg/apis/meta/internalversion/validation` `validateWatchOptions` (the WatchList
/// feature on, as in 1.32), and the watch cache's refusal of initial events without bookmarks.
fn validate_watch_options(ctx: &Ctx, send_initial: Option<bool>, bookmarks: bool) -> ApiResult<()> {
    let rv_match = ctx.query.get("resourceVersionMatch").unwrap_or("");
    let path = FieldPath::new("resourceVersionMatch");
    let mut errs = Vec::new();
    if send_initial.is_some() && rv_match != "NotOlderThan" {
        errs.push(FieldError::forbidden(
            &path,
            "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ));
    }
    if !rv_match.is_empty() {
        if send_initial.is_none() {
            errs.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            ));
        }
        if rv_match != "NotOlderThan" {
            errs.push(FieldError::not_supported(
                &path,
                rv_match,
                &["NotOlderThan"],
            ));
        }
        if ctx.query.get("continue").is_some_and(|c| !c.is_empty()) {
            errs.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
    }
    if send_initial == Some(true) && !bookmarks {
        errs.push(FieldError::forbidden(
            &FieldPath::new("allowWatchBookmarks"),
            "allowWatchBookmarks must be set to true when sendInitialEvents is true",
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(super::list::list_options_invalid(&errs))
    }
}

pub(super) async fn watch(ctx: Ctx) -> ApiResult<Resp> {
    if ctx.path.subresource.is_some() {
        return Err(ApiError::method_not_allowed());
    }
    let sel = Selection::parse(&ctx)?;
    let rv = ctx.query.get("resourceVersion").unwrap_or("").to_owned();
    let send_initial = match ctx.query.get("sendInitialEvents") {
        Some("") | None => None,
        Some(_) => Some(ctx.query.bool("sendInitialEvents")?),
    };
    let bookmarks = ctx.query.bool("allowWatchBookmarks")?;
    validate_watch_options(&ctx, send_initial, bookmarks)?;
    // 0 or none: the default; a negative timeout has passed already (get.go's timer fires at
    // once), so the watch ends before its first event.
    let timeout = match ctx.query.int("timeoutSeconds")? {
        Some(t) if t > 0 => Duration::from_secs(u64::try_from(t).unwrap_or(u64::MAX)),
        Some(t) if t < 0 => Duration::ZERO,
        _ => ctx.api.config.default_watch_timeout,
    };
    let format = match ctx.output {
        Output::Table(v) => Format::Table(v),
        Output::Object(Encoding::Protobuf) => Format::Protobuf,
        // YAML has no stream serializer (`NegotiateOutputMediaTypeStream`).
        Output::Object(Encoding::Yaml) => return Err(ApiError::not_acceptable(STREAMED)),
        _ => Format::Object,
    };
    let info = ctx.strategy.info().clone();
    let prefix = info.prefix_for(ctx.path.namespace.as_deref());
    let api = Arc::clone(&ctx.api);
    // Where the stream starts, and whether it begins with the current state. A resourceVersion
    // that does not parse is the storage's error (`cacher.go` `Watch`), not a Status.
    let parse_rv =
        |n: &str| crate::store::parse_resource_version(n).map_err(ApiError::not_a_status);
    // The parsed revision decides, as the cacher's `requestedWatchRV` does ("00" is 0).
    let (initial_events, after) = match (parse_rv(&rv)?, send_initial) {
        (0, None | Some(true)) => (true, None),
        (0, Some(false)) => (false, None),
        (n, Some(true)) => (true, Some(n)),
        (n, _) => (false, Some(n)),
    };
    // `sendInitialEvents=false` with no resourceVersion or "0": from now on, without the
    // current state (the watch cache's `getAllEventsSinceLocked`); "now" is taken before the
    // response starts, so what the client writes after it is seen.
    let after = match after {
        None if !initial_events => {
            read::fresh(&ctx.api).await?;
            Some(ctx.api.cache.revision())
        }
        after => after,
    };
    let content_type = match format {
        Format::Object => "application/json".to_owned(),
        Format::Protobuf => crdkit_protobuf::WATCH_CONTENT_TYPE.to_owned(),
        Format::Table(v) => format!("application/json;as=Table;v={v};g=meta.k8s.io"),
    };
    let (mut resp, tx) = response::stream(&content_type, 64);
    response::add_warnings(&mut resp, &ctx.warnings);
    let decided = sel.decided_by_cache(&*ctx.strategy);
    let mut stream = Stream {
        strategy: Arc::clone(&ctx.strategy),
        sel,
        decided,
        format,
        tx,
        columns_sent: false,
    };
    let namespaced = info.namespaced;
    let namespace = ctx.path.namespace.clone();
    let shutdown = api.shutdown.clone();
    let bookmark_every = api.config.bookmark_interval;
    api.tasks.clone().spawn(async move {
        if timeout.is_zero() {
            return;
        }
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        // The initial state, read at one revision, then the changes after it.
        let mut start = match after {
            Some(n) if !initial_events => n,
            _ => {
                // The state at least as new as the revision asked for: the cache must reach it
                // (`waitUntilWatchCacheFreshAndForceAllEvents`), else the watch's one event is
                // the 504 (`newErrWatcher`).
                if let Some(n) = after
                    && let Err(e) = read::reached(&api, n).await
                {
                    let _ = stream.send("ERROR", &e.to_status()).await;
                    return;
                }
                let (items, revision) =
                    match initial(&api, &prefix, namespace.as_deref(), &stream).await {
                        Ok(r) => r,
                        Err(e) => {
                            let _ = stream.send("ERROR", &e.to_status()).await;
                            return;
                        }
                    };
                for entry in &items {
                    let sent = match stream.selects(entry).await {
                        Ok(true) => stream.send_entry(EventType::Added, entry).await,
                        Ok(false) => Ok(true),
                        Err(e) => Err(e),
                    };
                    match sent {
                        Ok(true) => {}
                        Ok(false) => return,
                        Err(e) => {
                            let _ = stream.send("ERROR", &e.to_status()).await;
                            return;
                        }
                    }
                }
                if send_initial == Some(true) {
                    let b = stream.bookmark(revision, true);
                    if !stream.send("BOOKMARK", &b).await {
                        return;
                    }
                }
                revision
            }
        };
        // The cache runs the selection when it can: events no one selects are never queued.
        let filter: Option<crdkit_storage::Filter<store::cached::Decoded>> = if stream.decided {
            let sel = Selection {
                label: stream.sel.label.clone(),
                field: stream.sel.field.clone(),
            };
            Some(Box::new(move |c: &Change| {
                sel.matches_decoded(namespaced, &c.object)
                    || c.prev
                        .as_ref()
                        .is_some_and(|p| sel.matches_decoded(namespaced, p))
            }))
        } else {
            None
        };
        let mut watcher = match api.cache.watch(&prefix, start, filter) {
            Ok(w) => w,
            Err(e) => {
                let err = store::error(e, &stream.strategy.info().gr(), "");
                let _ = stream.send("ERROR", &err.to_status()).await;
                return;
            }
        };
        let mut ticker = tokio::time::interval(bookmark_every);
        ticker.tick().await;
        // Made once, not per event: each registers with a notifier (the shutdown token's is
        // shared by every watch).
        let cancelled = shutdown.cancelled();
        let gone = stream.tx.clone();
        let gone = gone.closed();
        // A CRD's storage torn down ends its watches, a second later (`tearDown` lets requests
        // holding the old storage register first, then destroys the cacher).
        let torn_down = stream.strategy.torn_down();
        let torn_down = async move {
            match torn_down {
                Some(t) => {
                    t.cancelled().await;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::pin!(cancelled, gone, torn_down);
        loop {
            tokio::select! {
                () = &mut deadline => return,
                () = &mut cancelled => return,
                () = &mut gone => return,
                () = &mut torn_down => return,
                _ = ticker.tick(), if bookmarks => {
                    if let Some(rev) = watcher.bookmark_revision() {
                        start = start.max(rev);
                        let b = stream.bookmark(start, false);
                        if !stream.send("BOOKMARK", &b).await {
                            return;
                        }
                    }
                }
                event = watcher.next() => match event {
                    None => return,
                    // cache_watcher.go: a watcher that did not keep up is closed, without an
                    // event; the client watches again from the last resourceVersion it saw.
                    Some(Err(crdkit_storage::Error::Lagged { .. })) => return,
                    Some(Err(e)) => {
                        let err = store::error(e, &stream.strategy.info().gr(), "");
                        let _ = stream.send("ERROR", &err.to_status()).await;
                        return;
                    }
                    Some(Ok(change)) => {
                        start = start.max(change.revision);
                        let sent = match stream.translate(&change).await {
                            Ok(Some((ty, entry))) => stream.send_entry(ty, entry).await,
                            Ok(None) => Ok(true),
                            Err(e) => Err(e),
                        };
                        match sent {
                            Ok(true) => {}
                            Ok(false) => return,
                            Err(e) => {
                                let _ = stream.send("ERROR", &e.to_status()).await;
                                return;
                            }
                        }
                    }
                },
            }
        }
    });
    Ok(resp)
}
