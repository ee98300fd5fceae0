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
use crdkit_storage::{Event, EventKind, Filter};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::ctx::Ctx;
use super::list::{Selection, parse_rv};
use crate::engine::{FieldError, FieldPath};
use crate::http::negotiate::Output;
use crate::http::response::{self, Resp};
use crate::http::status::{ApiError, ApiResult};
use crate::registry::{Strategy, table};
use crate::store;

/// What a watch sends events as.
#[derive(Clone, Copy)]
enum Format {
    Object,
    Table(&'static str),
}

struct Stream {
    strategy: Arc<dyn Strategy>,
    sel: Selection,
    format: Format,
    tx: mpsc::Sender<Bytes>,
    columns_sent: bool,
}

impl Stream {
    /// Sends one event; `false` when the client is gone.
    async fn send(&mut self, ty: &str, obj: &Value) -> bool {
        let object = match self.format {
            Format::Object => obj.clone(),
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
            Format::Table(_) => obj.clone(),
        };
        let mut line =
            serde_json::to_vec(&json!({"type": ty, "object": object})).unwrap_or_default();
        line.push(b'\n');
        self.tx.send(Bytes::from(line)).await.is_ok()
    }

    fn bookmark(&self, revision: u64, initial_end: bool) -> Value {
        let info = self.strategy.info();
        let mut meta = json!({"resourceVersion": revision.to_string(), "creationTimestamp": null});
        if initial_end {
            meta["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        json!({"kind": info.kind, "apiVersion": info.api_version(), "metadata": meta})
    }

    /// A stored value in the request version.
    async fn decode(&self, bytes: &[u8], revision: u64) -> ApiResult<Value> {
        let mut v = store::decode(bytes, revision)?;
        crate::registry::conversion::to_request(&*self.strategy, &mut v).await?;
        Ok(v)
    }

    /// The event to send for a stored change, after conversion and selection.
    async fn translate(&self, event: &Event) -> ApiResult<Option<(&'static str, Value)>> {
        let (Some(new), prev) = (
            match event.kind {
                EventKind::Deleted => event.prev_value.as_ref(),
                _ => event.value.as_ref(),
            },
            event.prev_value.as_ref(),
        ) else {
            return Ok(None);
        };
        let obj = self.decode(new, event.revision).await?;
        let matches = |o: &Value| self.sel.matches(&*self.strategy, o);
        Ok(match event.kind {
            EventKind::Added => matches(&obj).then_some(("ADDED", obj)),
            EventKind::Deleted => matches(&obj).then_some(("DELETED", obj)),
            EventKind::Modified => {
                let now = matches(&obj);
                let before = match prev {
                    Some(b) => matches(&self.decode(b, event.prev_mod_revision).await?),
                    None => false,
                };
                match (before, now) {
                    (true, true) => Some(("MODIFIED", obj)),
                    (false, true) => Some(("ADDED", obj)),
                    (true, false) => Some(("DELETED", obj)),
                    (false, false) => None,
                }
            }
        })
    }
}

/// A cheap pre-filter run by the cache: a `metadata.name` (and the namespace of the path)
/// decided from the key alone.
fn key_filter(prefix: &str, sel: &Selection, namespaced: bool) -> Option<Filter> {
    let name = sel.field.required("metadata.name")?.to_owned();
    let prefix = prefix.to_owned();
    Some(Box::new(move |e: &Event| {
        let rest = e.key.strip_prefix(&prefix).unwrap_or(&e.key);
        let last = if namespaced {
            rest.rsplit('/').next().unwrap_or(rest)
        } else {
            rest
        };
        last == name
    }))
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
    let timeout = match ctx.query.int("timeoutSeconds")? {
        Some(t) if t > 0 => Duration::from_secs(u64::try_from(t).unwrap_or(u64::MAX)),
        _ => ctx.api.config.default_watch_timeout,
    };
    let format = match ctx.output {
        Output::Table(v) => Format::Table(v),
        _ => Format::Object,
    };
    let info = ctx.strategy.info().clone();
    let prefix = info.prefix_for(ctx.path.namespace.as_deref());
    let api = Arc::clone(&ctx.api);
    // Where the stream starts, and whether it begins with the current state.
    let (initial, after) = match (rv.as_str(), send_initial) {
        ("" | "0", None | Some(true)) => (true, None),
        ("" | "0", Some(false)) => (false, None),
        (n, Some(true)) => (true, Some(parse_rv(n)?)),
        (n, _) => (false, Some(parse_rv(n)?)),
    };
    let content_type = match format {
        Format::Object => "application/json".to_owned(),
        Format::Table(v) => format!("application/json;as=Table;v={v};g=meta.k8s.io"),
    };
    let (mut resp, tx) = response::stream(&content_type, 64);
    response::add_warnings(&mut resp, &ctx.warnings);
    let mut stream = Stream {
        strategy: Arc::clone(&ctx.strategy),
        sel,
        format,
        tx,
        columns_sent: false,
    };
    let filter_prefix = info.prefix.clone();
    let namespaced = info.namespaced;
    let shutdown = api.shutdown.clone();
    let bookmark_every = api.config.bookmark_interval;
    api.tasks.clone().spawn(async move {
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        // The initial state, read at one revision, then the changes after it.
        let mut start = match after {
            Some(n) if !initial => n,
            _ => {
                let gr = stream.strategy.info().gr();
                let opts = crdkit_storage::ListOptions::default();
                let (items, result) = match api.objects.list(&prefix, &opts, &gr).await {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = stream.send("ERROR", &e.to_status()).await;
                        return;
                    }
                };
                for s in items {
                    let mut obj = s.value;
                    if let Err(e) =
                        crate::registry::conversion::to_request(&*stream.strategy, &mut obj).await
                    {
                        let _ = stream.send("ERROR", &e.to_status()).await;
                        return;
                    }
                    if stream.sel.matches(&*stream.strategy, &obj)
                        && !stream.send("ADDED", &obj).await
                    {
                        return;
                    }
                }
                if send_initial == Some(true) {
                    let b = stream.bookmark(result.revision, true);
                    if !stream.send("BOOKMARK", &b).await {
                        return;
                    }
                }
                result.revision
            }
        };
        let filter = key_filter(&filter_prefix, &stream.sel, namespaced);
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
        loop {
            tokio::select! {
                () = &mut deadline => return,
                () = shutdown.cancelled() => return,
                () = stream.tx.closed() => return,
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
                    Some(Err(e)) => {
                        let err = match e {
                            crdkit_storage::Error::Lagged { .. } => store::expired(start, start),
                            e => store::error(e, &stream.strategy.info().gr(), ""),
                        };
                        let _ = stream.send("ERROR", &err.to_status()).await;
                        return;
                    }
                    Some(Ok(event)) => {
                        start = start.max(event.revision);
                        match stream.translate(&event).await {
                            Ok(Some((ty, obj))) => {
                                if !stream.send(ty, &obj).await {
                                    return;
                                }
                            }
                            Ok(None) => {}
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
