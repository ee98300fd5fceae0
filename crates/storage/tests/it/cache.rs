//! The watch cache over the memory backend: slow watchers, filters, history window, bookmarks.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use crdkit_storage::{
    Change, CompactionPolicy, Error, Event, ListOptions, MemoryStorage, Storage, WatchCache,
    WatchCacheConfig, Watcher,
};
use futures_util::StreamExt;

use super::cache_list::Letters;

async fn next(watcher: &mut Watcher) -> Option<Result<Event, Error>> {
    tokio::time::timeout(Duration::from_secs(10), watcher.next())
        .await
        .expect("no cache event within 10 s")
        .map(|change| change.map(|c| c.event()))
}

fn store() -> Arc<dyn Storage> {
    Arc::new(MemoryStorage::with_policy(CompactionPolicy {
        retain_revisions: None,
    }))
}

#[tokio::test]
async fn slow_watcher_is_dropped_without_blocking_writers() {
    let s = store();
    let config = WatchCacheConfig {
        watcher_buffer: 4,
        ..WatchCacheConfig::default()
    };
    let cache = WatchCache::start(Arc::clone(&s), config).await.unwrap();
    let start = s.current_revision().await.unwrap();
    let mut slow = cache.watch("/s/", start, None).unwrap();
    let mut fast = cache.watch("/s/", start, None).unwrap();
    // The fast watcher reads as the writes happen; the slow one never reads until the end.
    for i in 0..20 {
        let kv = s
            .create(&format!("/s/{i:02}"), Bytes::from_static(b"x"))
            .await
            .unwrap();
        let e = next(&mut fast).await.unwrap().unwrap();
        assert_eq!(e.revision, kv.mod_revision);
    }
    // The slow one gets what was queued before it fell behind, in order, then Lagged.
    let mut got = Vec::new();
    let error = loop {
        match next(&mut slow).await {
            Some(Ok(e)) => got.push(e.revision),
            Some(Err(err)) => break err,
            None => panic!("slow watcher ended without an error"),
        }
    };
    assert_eq!(got.len(), 4);
    assert!(got.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(
        error,
        Error::Lagged {
            last_delivered: *got.last().unwrap()
        }
    );
    assert!(next(&mut slow).await.is_none());
}

#[tokio::test]
async fn filter_runs_before_queueing() {
    let s = store();
    let cache = WatchCache::start(
        Arc::clone(&s),
        WatchCacheConfig {
            watcher_buffer: 2,
            ..WatchCacheConfig::default()
        },
    )
    .await
    .unwrap();
    let start = s.current_revision().await.unwrap();
    let only_red = Box::new(|c: &Change| c.object.kv.value.as_ref() == b"red");
    let mut red = cache.watch("/f/", start, Some(only_red)).unwrap();
    // Ten rejected events do not fill the two-slot buffer.
    for i in 0..10 {
        s.create(&format!("/f/blue{i}"), Bytes::from_static(b"blue"))
            .await
            .unwrap();
    }
    let kv = s
        .create("/f/red", Bytes::from_static(b"red"))
        .await
        .unwrap();
    let e = next(&mut red).await.unwrap().unwrap();
    assert_eq!((e.key.as_str(), e.revision), ("/f/red", kv.mod_revision));
    // A replayed watch is filtered too.
    let only_red = Box::new(|c: &Change| c.object.kv.value.as_ref() == b"red");
    let mut replay = cache.watch("/f/", start, Some(only_red)).unwrap();
    assert_eq!(next(&mut replay).await.unwrap().unwrap().key, "/f/red");
}

#[tokio::test]
async fn history_window_and_compacted_watch() {
    let s = store();
    let cache = WatchCache::start(
        Arc::clone(&s),
        WatchCacheConfig {
            history: 5,
            ..WatchCacheConfig::default()
        },
    )
    .await
    .unwrap();
    let mut revisions = Vec::new();
    for i in 0..12 {
        revisions.push(
            s.create(&format!("/h/{i:02}"), Bytes::from_static(b"x"))
                .await
                .unwrap()
                .mod_revision,
        );
    }
    // Wait until the cache has seen the last write (a live watcher from the start sees it).
    let mut live = cache.watch("/h/", revisions[10], None).unwrap();
    assert_eq!(
        next(&mut live).await.unwrap().unwrap().revision,
        revisions[11]
    );
    assert_eq!(cache.revision(), revisions[11]);
    // The last five events are kept: a watch after the sixth-last revision replays them.
    let mut replay = cache.watch("/h/", revisions[6], None).unwrap();
    for &revision in &revisions[7..] {
        assert_eq!(next(&mut replay).await.unwrap().unwrap().revision, revision);
    }
    match cache.watch("/h/", revisions[5], None) {
        Err(Error::Compacted {
            requested,
            compacted,
        }) => assert_eq!((requested, compacted), (revisions[5], revisions[6])),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("watch before the history window succeeded"),
    }
}

#[tokio::test]
async fn watch_from_a_future_revision_waits_for_it() {
    let s = store();
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let now = s.current_revision().await.unwrap();
    let mut future = cache.watch("/u/", now + 2, None).unwrap();
    for i in 0..4 {
        s.create(&format!("/u/{i}"), Bytes::from_static(b"x"))
            .await
            .unwrap();
    }
    assert_eq!(next(&mut future).await.unwrap().unwrap().revision, now + 3);
    assert_eq!(next(&mut future).await.unwrap().unwrap().revision, now + 4);
}

#[tokio::test]
async fn bookmark_revision_covers_yielded_events_only() {
    let s = store();
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let start = s.current_revision().await.unwrap();
    let mut w = cache.watch("/bm/", start, None).unwrap();
    assert_eq!(w.bookmark_revision(), Some(start));
    let kv = s.create("/bm/a", Bytes::from_static(b"x")).await.unwrap();
    // An event for another prefix advances the bookmark without being delivered.
    let other = s.create("/other", Bytes::from_static(b"x")).await.unwrap();
    let mut sentinel = cache.watch("", other.mod_revision - 1, None).unwrap();
    assert_eq!(
        next(&mut sentinel).await.unwrap().unwrap().revision,
        other.mod_revision
    );
    // The /bm/a event is queued and not yet read: no bookmark may pass it.
    assert_eq!(w.bookmark_revision(), None);
    assert_eq!(
        next(&mut w).await.unwrap().unwrap().revision,
        kv.mod_revision
    );
    assert_eq!(w.bookmark_revision(), Some(other.mod_revision));
}

#[tokio::test]
async fn dropping_the_cache_ends_watchers() {
    let s = store();
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let mut w = cache.watch("/d/", 0, None).unwrap();
    drop(cache);
    assert!(next(&mut w).await.is_none());
}

/// A memory store whose watch streams fail on demand, to drive the cache's recovery.
struct Flaky {
    inner: MemoryStorage,
    fail: std::sync::Mutex<Vec<tokio::sync::oneshot::Sender<Error>>>,
}

impl Flaky {
    fn inject(&self, error: &Error) {
        for tx in self.fail.lock().unwrap().drain(..) {
            let _ = tx.send(error.clone());
        }
    }
}

#[async_trait::async_trait]
impl Storage for Flaky {
    async fn get(&self, key: &str) -> crdkit_storage::Result<crdkit_storage::KeyValue> {
        self.inner.get(key).await
    }
    async fn list(
        &self,
        prefix: &str,
        options: &crdkit_storage::ListOptions,
    ) -> crdkit_storage::Result<crdkit_storage::ListResult> {
        self.inner.list(prefix, options).await
    }
    async fn create(
        &self,
        key: &str,
        value: Bytes,
    ) -> crdkit_storage::Result<crdkit_storage::KeyValue> {
        self.inner.create(key, value).await
    }
    async fn update(
        &self,
        key: &str,
        value: Bytes,
        expected: u64,
    ) -> crdkit_storage::Result<crdkit_storage::KeyValue> {
        self.inner.update(key, value, expected).await
    }
    async fn delete(
        &self,
        key: &str,
        expected: Option<u64>,
    ) -> crdkit_storage::Result<crdkit_storage::Deleted> {
        self.inner.delete(key, expected).await
    }
    async fn watch(
        &self,
        prefix: &str,
        after: u64,
    ) -> crdkit_storage::Result<crdkit_storage::EventStream> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.fail.lock().unwrap().push(tx);
        let injected =
            futures_util::stream::once(rx).filter_map(|r| async move { r.ok().map(Err) });
        Ok(Box::pin(futures_util::stream::select(
            self.inner.watch(prefix, after).await?,
            injected,
        )))
    }
    async fn current_revision(&self) -> crdkit_storage::Result<u64> {
        self.inner.current_revision().await
    }
    async fn compact(&self, revision: u64) -> crdkit_storage::Result<()> {
        self.inner.compact(revision).await
    }
}

#[tokio::test]
async fn backend_watch_failure_resumes_without_loss() {
    let flaky = Arc::new(Flaky {
        inner: MemoryStorage::new(),
        fail: std::sync::Mutex::default(),
    });
    let cache = WatchCache::start(flaky.clone(), WatchCacheConfig::default())
        .await
        .unwrap();
    let mut w = cache.watch("/r/", 0, None).unwrap();
    let mut written = Vec::new();
    for i in 0..10 {
        written.push(
            flaky
                .create(&format!("/r/{i}"), Bytes::from_static(b"x"))
                .await
                .unwrap()
                .mod_revision,
        );
        if i % 3 == 0 {
            flaky.inject(&Error::Backend("connection reset".into()));
        }
    }
    for revision in written {
        assert_eq!(next(&mut w).await.unwrap().unwrap().revision, revision);
    }
    // Nothing was delivered twice: the next event is the next write.
    let last = flaky
        .create("/r/last", Bytes::from_static(b"x"))
        .await
        .unwrap();
    assert_eq!(
        next(&mut w).await.unwrap().unwrap().revision,
        last.mod_revision
    );
}

#[tokio::test]
async fn backend_compaction_past_the_cache_ends_watchers_with_compacted() {
    let flaky = Arc::new(Flaky {
        inner: MemoryStorage::new(),
        fail: std::sync::Mutex::default(),
    });
    let cache = WatchCache::start(flaky.clone(), WatchCacheConfig::default())
        .await
        .unwrap();
    let first = flaky
        .create("/c/a", Bytes::from_static(b"x"))
        .await
        .unwrap();
    let mut w = cache.watch("/c/", 0, None).unwrap();
    assert_eq!(
        next(&mut w).await.unwrap().unwrap().revision,
        first.mod_revision
    );
    flaky.inject(&Error::Compacted {
        requested: first.mod_revision,
        compacted: first.mod_revision + 1,
    });
    assert!(matches!(
        next(&mut w).await,
        Some(Err(Error::Compacted { .. }))
    ));
    assert!(next(&mut w).await.is_none());
    // The cache restarted from the backend's revision with an empty history (the watcher's
    // error is raised by that reset): older revisions are gone, new watchers work.
    assert!(matches!(
        cache.watch("/c/", first.mod_revision - 1, None),
        Err(Error::Compacted { .. })
    ));
    let now = flaky.current_revision().await.unwrap();
    let mut w2 = cache.watch("/c/", now, None).unwrap();
    let b = flaky
        .create("/c/b", Bytes::from_static(b"x"))
        .await
        .unwrap();
    assert_eq!(
        next(&mut w2).await.unwrap().unwrap().revision,
        b.mod_revision
    );
}

#[tokio::test]
async fn history_max_age_drops_old_events() {
    let s = store();
    let config = WatchCacheConfig {
        history_max_age: Some(Duration::from_millis(1)),
        ..WatchCacheConfig::default()
    };
    let cache = WatchCache::start(Arc::clone(&s), config).await.unwrap();
    let start = s.current_revision().await.unwrap();
    let mut live = cache.watch("/age/", start, None).unwrap();
    let kv = s.create("/age/a", Bytes::from_static(b"x")).await.unwrap();
    assert_eq!(
        next(&mut live).await.unwrap().unwrap().revision,
        kv.mod_revision
    );
    // Older than the 1 ms window for sure: a watch from before it is refused.
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(matches!(
        cache.watch("/age/", start, None),
        Err(Error::Compacted { .. })
    ));
    // From the latest revision is still fine.
    assert!(cache.watch("/age/", kv.mod_revision, None).is_ok());
}

#[tokio::test]
async fn a_panicking_filter_ends_only_its_watcher() {
    let s = store();
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let start = s.current_revision().await.unwrap();
    let panicky = Box::new(|c: &Change| {
        assert!(c.key() != "/p/bad", "filter bug");
        true
    });
    let mut bad = cache.watch("/p/", start, Some(panicky)).unwrap();
    let mut good = cache.watch("/p/", start, None).unwrap();
    let first = s.create("/p/ok", Bytes::from_static(b"x")).await.unwrap();
    s.create("/p/bad", Bytes::from_static(b"x")).await.unwrap();
    let last = s.create("/p/ok2", Bytes::from_static(b"x")).await.unwrap();
    assert_eq!(
        next(&mut bad).await.unwrap().unwrap().revision,
        first.mod_revision
    );
    assert!(matches!(next(&mut bad).await, Some(Err(Error::Backend(_)))));
    assert!(next(&mut bad).await.is_none());
    for _ in 0..2 {
        next(&mut good).await.unwrap().unwrap();
    }
    assert_eq!(
        next(&mut good).await.unwrap().unwrap().revision,
        last.mod_revision
    );
}

#[tokio::test]
async fn the_index_is_rebuilt_for_its_families_after_a_reset() {
    let flaky = Arc::new(Flaky {
        inner: MemoryStorage::new(),
        fail: std::sync::Mutex::default(),
    });
    let cache = WatchCache::start_with(
        flaky.clone(),
        WatchCacheConfig::default(),
        Letters::default(),
    )
    .await
    .unwrap();
    let a = flaky
        .create("/c/a", Bytes::from_static(b"a"))
        .await
        .unwrap();
    assert!(
        cache
            .wait_for(a.mod_revision, Duration::from_secs(10))
            .await
    );
    let indexed = |term: &str| {
        let page = cache
            .list_indexed("/c/", &ListOptions::default(), Some(term), &|_| true)
            .unwrap();
        page.items
            .iter()
            .map(|e| e.kv.key.clone())
            .collect::<Vec<_>>()
    };
    // "a" is indexed from here on.
    assert_eq!(indexed("a"), ["/c/a"]);
    // The backend loses the history; the cache lists again and rebuilds the index from that
    // state, with what was written meanwhile.
    flaky.inject(&Error::Compacted {
        requested: a.mod_revision,
        compacted: a.mod_revision + 1,
    });
    let b = flaky
        .create("/c/b", Bytes::from_static(b"ab"))
        .await
        .unwrap();
    flaky.delete("/c/a", None).await.unwrap();
    let now = flaky.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    assert_eq!(indexed("a"), [b.key.as_str()]);
    assert_eq!(indexed("b"), [b.key.as_str()]);
}
