//! The shared storage test suite: every backend runs these same tests through
//! `storage_suite!(open)` (see `memory.rs`), so the backends cannot drift apart.
//!
//! Revisions are compared relative to each other, never to fixed numbers, so a backend may share
//! its revision counter with other writers (etcd).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use crdkit_storage::{
    CompactionPolicy, Error, Event, EventKind, EventStream, KeyValue, ListOptions, Storage,
};
use futures_util::StreamExt;

/// A backend opened for one test, with whatever keeps it alive (a temp dir, an etcd process).
pub struct Backend {
    pub store: Arc<dyn Storage>,
    pub _guard: Box<dyn std::any::Any + Send>,
}

/// Opens a fresh, empty backend with the given compaction policy; `None` when the backend is
/// explicitly skipped (etcd with `CRDKIT_SKIP_ETCD_TESTS=1`).
pub type Open = fn(CompactionPolicy) -> Pin<Box<dyn Future<Output = Option<Backend>> + Send>>;

/// Instantiates every suite test for one backend.
#[macro_export]
macro_rules! storage_suite {
    ($open:expr) => {
        $crate::storage_suite!(@tests $open;
            create_get, create_existing_and_invalid_keys, update_compare_and_swap, delete_and_recreate,
            list_sorted_under_prefix, list_pages_read_one_snapshot, list_at_old_revision,
            list_compacted_and_future_revisions, watch_replays_then_follows, watch_filters_by_prefix,
            watch_compacted_revision, watch_from_now_sees_only_new_writes, automatic_compaction,
            concurrent_compare_and_swap, cache_fan_out, cache_under_concurrent_writes,
            shared_values_are_the_written_bytes);
    };
    (@tests $open:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let open: $crate::suite::Open = $open;
                tokio::time::timeout(std::time::Duration::from_secs(60), $crate::suite::$name(open))
                    .await
                    .expect("test timed out");
            }
        )*
    };
}

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

fn keys(items: &[KeyValue]) -> Vec<&str> {
    items.iter().map(|kv| kv.key.as_str()).collect()
}

/// The next event of a watch, bounded in time.
pub async fn next(stream: &mut EventStream) -> Result<Event, Error> {
    tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("no watch event within 10 s")
        .expect("watch stream ended")
}

const KEEP_ALL: CompactionPolicy = CompactionPolicy {
    retain_revisions: None,
};

pub async fn create_get(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let before = s.current_revision().await.unwrap();
    let a = s.create("/r/a", b("1")).await.unwrap();
    assert!(a.mod_revision > before);
    assert_eq!(a.create_revision, a.mod_revision);
    assert_eq!(s.current_revision().await.unwrap(), a.mod_revision);
    let got = s.get("/r/a").await.unwrap();
    assert_eq!(got, a);
    assert_eq!(got.value, b("1"));
    let c = s.create("/r/c", b("2")).await.unwrap();
    assert!(c.mod_revision > a.mod_revision);
    assert!(matches!(s.get("/r/b").await, Err(Error::NotFound { key }) if key == "/r/b"));
}

pub async fn create_existing_and_invalid_keys(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/r/a", b("1")).await.unwrap();
    assert!(
        matches!(s.create("/r/a", b("2")).await, Err(Error::AlreadyExists { key }) if key == "/r/a")
    );
    // The failed create changed nothing.
    assert_eq!(s.get("/r/a").await.unwrap(), a);
    assert_eq!(s.current_revision().await.unwrap(), a.mod_revision);
    assert!(matches!(
        s.create("", b("x")).await,
        Err(Error::InvalidKey { .. })
    ));
    assert!(matches!(s.get("").await, Err(Error::InvalidKey { .. })));
    assert!(matches!(
        s.update("", b("x"), a.mod_revision).await,
        Err(Error::InvalidKey { .. })
    ));
    assert!(matches!(
        s.delete("", None).await,
        Err(Error::InvalidKey { .. })
    ));
}

pub async fn update_compare_and_swap(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/r/a", b("1")).await.unwrap();
    let a2 = s.update("/r/a", b("2"), a.mod_revision).await.unwrap();
    assert!(a2.mod_revision > a.mod_revision);
    assert_eq!(a2.create_revision, a.create_revision);
    assert_eq!(s.get("/r/a").await.unwrap(), a2);
    match s.update("/r/a", b("3"), a.mod_revision).await {
        Err(Error::Conflict {
            key,
            expected,
            current_revision,
        }) => {
            assert_eq!(
                (key.as_str(), expected, current_revision),
                ("/r/a", a.mod_revision, a2.mod_revision)
            );
        }
        other => panic!("stale update: {other:?}"),
    }
    assert_eq!(s.get("/r/a").await.unwrap().value, b("2"));
    assert!(matches!(
        s.update("/r/missing", b("x"), a.mod_revision).await,
        Err(Error::NotFound { .. })
    ));
    assert_eq!(s.current_revision().await.unwrap(), a2.mod_revision);
}

pub async fn delete_and_recreate(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/r/a", b("1")).await.unwrap();
    let a2 = s.update("/r/a", b("2"), a.mod_revision).await.unwrap();
    assert!(
        matches!(s.delete("/r/a", Some(a.mod_revision)).await, Err(Error::Conflict { current_revision, .. }) if current_revision == a2.mod_revision)
    );
    let deleted = s.delete("/r/a", Some(a2.mod_revision)).await.unwrap();
    assert_eq!(deleted.prev, a2);
    assert!(deleted.revision > a2.mod_revision);
    assert_eq!(s.current_revision().await.unwrap(), deleted.revision);
    assert!(matches!(s.get("/r/a").await, Err(Error::NotFound { .. })));
    assert!(matches!(
        s.delete("/r/a", None).await,
        Err(Error::NotFound { .. })
    ));
    let again = s.create("/r/a", b("3")).await.unwrap();
    assert!(again.create_revision > deleted.revision);
    let gone = s.delete("/r/a", None).await.unwrap();
    assert_eq!(gone.prev.value, b("3"));
}

pub async fn list_sorted_under_prefix(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    for key in ["/a/y", "/b", "/ab/z", "/a/x", "/a/"] {
        s.create(key, b(key)).await.unwrap();
    }
    let list = s.list("/a/", &ListOptions::default()).await.unwrap();
    assert_eq!(keys(&list.items), ["/a/", "/a/x", "/a/y"]);
    assert_eq!(list.items[1].value, b("/a/x"));
    assert!(!list.more);
    assert_eq!(list.revision, s.current_revision().await.unwrap());
    let all = s.list("/", &ListOptions::default()).await.unwrap();
    assert_eq!(keys(&all.items), ["/a/", "/a/x", "/a/y", "/ab/z", "/b"]);
    let none = s.list("/c/", &ListOptions::default()).await.unwrap();
    assert!(none.items.is_empty() && !none.more);
    // A continue key before the prefix starts at the prefix; one past it yields nothing.
    let before = s
        .list(
            "/a/",
            &ListOptions {
                continue_key: Some("/0".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(keys(&before.items), ["/a/", "/a/x", "/a/y"]);
    let past = s
        .list(
            "/a/",
            &ListOptions {
                continue_key: Some("/a/y".into()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(past.items.is_empty() && !past.more);
}

pub async fn list_pages_read_one_snapshot(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let mut created = Vec::new();
    for i in 0..10 {
        created.push(
            s.create(&format!("/p/{i:02}"), b(&format!("v{i}")))
                .await
                .unwrap(),
        );
    }
    let snapshot = s.list("/p/", &ListOptions::default()).await.unwrap();
    let first = s
        .list(
            "/p/",
            &ListOptions {
                limit: Some(3),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(keys(&first.items), ["/p/00", "/p/01", "/p/02"]);
    assert!(first.more);
    // Writes between pages: none of them may show in the later pages.
    s.create("/p/05a", b("new")).await.unwrap();
    s.delete("/p/07", None).await.unwrap();
    s.update("/p/08", b("changed"), created[8].mod_revision)
        .await
        .unwrap();
    s.delete("/p/01", None).await.unwrap();
    let mut items = first.items.clone();
    let mut last = first;
    let mut pages = 1;
    while last.more {
        let options = ListOptions {
            limit: Some(3),
            continue_key: Some(last.items.last().unwrap().key.clone()),
            at_revision: Some(snapshot.revision),
        };
        last = s.list("/p/", &options).await.unwrap();
        assert_eq!(last.revision, snapshot.revision);
        items.extend(last.items.iter().cloned());
        pages += 1;
        assert!(pages <= 4, "too many pages");
    }
    assert_eq!(pages, 4);
    assert_eq!(items, snapshot.items);
    // The current state shows the writes.
    let now = s.list("/p/", &ListOptions::default()).await.unwrap();
    assert_eq!(
        keys(&now.items),
        [
            "/p/00", "/p/02", "/p/03", "/p/04", "/p/05", "/p/05a", "/p/06", "/p/08", "/p/09"
        ]
    );
    assert_eq!(now.items[7].value, b("changed"));
}

pub async fn list_at_old_revision(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/o/a", b("a1")).await.unwrap();
    let c = s.create("/o/c", b("c1")).await.unwrap();
    let at = c.mod_revision;
    let a2 = s.update("/o/a", b("a2"), a.mod_revision).await.unwrap();
    s.update("/o/a", b("a3"), a2.mod_revision).await.unwrap();
    s.create("/o/b", b("b1")).await.unwrap();
    s.delete("/o/c", None).await.unwrap();
    let old = s
        .list(
            "/o/",
            &ListOptions {
                at_revision: Some(at),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(old.revision, at);
    assert_eq!(old.items, vec![a.clone(), c.clone()]);
    let older = s
        .list(
            "/o/",
            &ListOptions {
                at_revision: Some(a.mod_revision),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(older.items, vec![a]);
    let now = s.list("/o/", &ListOptions::default()).await.unwrap();
    assert_eq!(keys(&now.items), ["/o/a", "/o/b"]);
    assert_eq!(now.items[0].value, b("a3"));
    // Limits apply to the snapshot's items, not to the keys changed since.
    let page = s
        .list(
            "/o/",
            &ListOptions {
                at_revision: Some(at),
                limit: Some(1),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(keys(&page.items), ["/o/a"]);
    assert!(page.more);
}

pub async fn list_compacted_and_future_revisions(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/k/a", b("1")).await.unwrap();
    let a2 = s.update("/k/a", b("2"), a.mod_revision).await.unwrap();
    let a3 = s.update("/k/a", b("3"), a2.mod_revision).await.unwrap();
    s.compact(a2.mod_revision).await.unwrap();
    match s
        .list(
            "/k/",
            &ListOptions {
                at_revision: Some(a.mod_revision),
                ..ListOptions::default()
            },
        )
        .await
    {
        Err(Error::Compacted {
            requested,
            compacted,
        }) => assert_eq!((requested, compacted), (a.mod_revision, a2.mod_revision)),
        other => panic!("list at a compacted revision: {other:?}"),
    }
    let at = s
        .list(
            "/k/",
            &ListOptions {
                at_revision: Some(a2.mod_revision),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(at.items[0].value, b("2"));
    // Compacting to an older revision again is a no-op.
    s.compact(a.mod_revision).await.unwrap();
    let future = a3.mod_revision + 100;
    assert!(matches!(
        s.list("/k/", &ListOptions { at_revision: Some(future), ..ListOptions::default() }).await,
        Err(Error::FutureRevision { requested, .. }) if requested == future
    ));
    assert!(s.compact(future).await.is_err());
}

pub async fn watch_replays_then_follows(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/w/a", b("a1")).await.unwrap();
    let a2 = s.update("/w/a", b("a2"), a.mod_revision).await.unwrap();
    let bb = s.create("/w/b", b("b1")).await.unwrap();
    let mut watch = s.watch("/w/", a.mod_revision).await.unwrap();
    let e = next(&mut watch).await.unwrap();
    assert_eq!(
        (e.kind, e.key.as_str(), e.revision),
        (EventKind::Modified, "/w/a", a2.mod_revision)
    );
    assert_eq!(
        (e.value.clone(), e.prev_value.clone(), e.prev_mod_revision),
        (Some(b("a2")), Some(b("a1")), a.mod_revision)
    );
    assert_eq!(e.create_revision, a.create_revision);
    assert_eq!(e.kv(), Some(a2.clone()));
    let e = next(&mut watch).await.unwrap();
    assert_eq!(
        (e.kind, e.revision, e.value.clone(), e.prev_value.clone()),
        (EventKind::Added, bb.mod_revision, Some(b("b1")), None)
    );
    // Live writes.
    let deleted = s.delete("/w/a", None).await.unwrap();
    let e = next(&mut watch).await.unwrap();
    assert_eq!(
        (e.kind, e.key.as_str(), e.revision),
        (EventKind::Deleted, "/w/a", deleted.revision)
    );
    assert_eq!(
        (e.value.clone(), e.prev_value.clone(), e.prev_mod_revision),
        (None, Some(b("a2")), a2.mod_revision)
    );
    assert_eq!(e.object(), &b("a2"));
    assert_eq!(e.prev_kv(), Some(a2));
    let mut last = e.revision;
    for i in 0..20 {
        s.create(&format!("/w/n{i:02}"), b("x")).await.unwrap();
    }
    for i in 0..20 {
        let e = next(&mut watch).await.unwrap();
        assert_eq!(e.key, format!("/w/n{i:02}"));
        assert!(e.revision > last);
        last = e.revision;
    }
}

/// A backend that says its watch hands out the written bytes does, for creates and updates
/// replayed and live (a writer's note keyed by their address would otherwise never be read, or
/// worse, be read for other bytes); one that does not say so owes nothing.
pub async fn shared_values_are_the_written_bytes(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let same = |e: &Event, v: &Bytes| {
        let got = e.value.as_ref().expect("a value");
        (got.as_ptr(), got.len()) == (v.as_ptr(), v.len())
    };
    let (v1, v2, v3) = (b("one"), b("two"), b("three"));
    let a = s.create("/s/a", v1.clone()).await.unwrap();
    s.update("/s/a", v2.clone(), a.mod_revision).await.unwrap();
    let mut watch = s.watch("/s/", 0).await.unwrap();
    s.create("/s/b", v3.clone()).await.unwrap();
    let seen = [
        same(&next(&mut watch).await.unwrap(), &v1),
        same(&next(&mut watch).await.unwrap(), &v2),
        same(&next(&mut watch).await.unwrap(), &v3),
    ];
    if s.shares_values() {
        assert_eq!(seen, [true; 3]);
    }
}

pub async fn watch_filters_by_prefix(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let start = s.current_revision().await.unwrap();
    let mut watch = s.watch("/f/a/", start).await.unwrap();
    s.create("/f/b/1", b("no")).await.unwrap();
    s.create("/f/ab", b("no")).await.unwrap();
    s.create("/f/a/1", b("yes")).await.unwrap();
    s.create("/f/b/2", b("no")).await.unwrap();
    s.create("/f/a/2", b("yes")).await.unwrap();
    assert_eq!(next(&mut watch).await.unwrap().key, "/f/a/1");
    assert_eq!(next(&mut watch).await.unwrap().key, "/f/a/2");
}

pub async fn watch_compacted_revision(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    let a = s.create("/c/a", b("1")).await.unwrap();
    let a2 = s.update("/c/a", b("2"), a.mod_revision).await.unwrap();
    let a3 = s.update("/c/a", b("3"), a2.mod_revision).await.unwrap();
    s.compact(a3.mod_revision).await.unwrap();
    let result = match s.watch("/c/", a.mod_revision).await {
        Err(err) => Err(err),
        Ok(mut stream) => next(&mut stream).await,
    };
    assert!(
        matches!(result, Err(Error::Compacted { requested, .. }) if requested == a.mod_revision),
        "{result:?}"
    );
    // After the compacted revision still works.
    let mut watch = s.watch("/c/", a3.mod_revision).await.unwrap();
    let a4 = s.update("/c/a", b("4"), a3.mod_revision).await.unwrap();
    assert_eq!(next(&mut watch).await.unwrap().revision, a4.mod_revision);
}

pub async fn watch_from_now_sees_only_new_writes(open: Open) {
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = &backend.store;
    s.create("/n/old", b("1")).await.unwrap();
    let now = s.current_revision().await.unwrap();
    let mut watch = s.watch("/n/", now).await.unwrap();
    let fresh = s.create("/n/new", b("2")).await.unwrap();
    let e = next(&mut watch).await.unwrap();
    assert_eq!((e.key.as_str(), e.revision), ("/n/new", fresh.mod_revision));
}

pub async fn automatic_compaction(open: Open) {
    let Some(backend) = open(CompactionPolicy {
        retain_revisions: Some(8),
    })
    .await
    else {
        return;
    };
    let s = &backend.store;
    let first = s.create("/ac/k", b("0")).await.unwrap();
    let mut last = first.clone();
    for i in 1..=40 {
        last = s
            .update("/ac/k", b(&i.to_string()), last.mod_revision)
            .await
            .unwrap();
    }
    // Old history is gone (the policy may lag its target by a batch, never by 30 revisions).
    let old = s
        .list(
            "/ac/",
            &ListOptions {
                at_revision: Some(first.mod_revision),
                ..ListOptions::default()
            },
        )
        .await;
    assert!(matches!(old, Err(Error::Compacted { .. })), "{old:?}");
    // The retained window is readable.
    let recent = last.mod_revision - 4;
    let list = s
        .list(
            "/ac/",
            &ListOptions {
                at_revision: Some(recent),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(list.items[0].mod_revision, recent);
    let mut watch = s.watch("/ac/", recent).await.unwrap();
    assert_eq!(next(&mut watch).await.unwrap().revision, recent + 1);
}

pub async fn concurrent_compare_and_swap(open: Open) {
    // Eight writers increment one counter with read-modify-CAS loops: no lost update.
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = Arc::clone(&backend.store);
    s.create("/cas/n", b("0")).await.unwrap();
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let s = Arc::clone(&s);
        tasks.push(tokio::spawn(async move {
            let mut conflicts = 0;
            for _ in 0..10 {
                loop {
                    let kv = s.get("/cas/n").await.unwrap();
                    let n: u64 = std::str::from_utf8(&kv.value).unwrap().parse().unwrap();
                    match s
                        .update("/cas/n", b(&(n + 1).to_string()), kv.mod_revision)
                        .await
                    {
                        Ok(_) => break,
                        Err(Error::Conflict { .. }) => conflicts += 1,
                        Err(err) => panic!("{err}"),
                    }
                    assert!(conflicts < 10_000, "livelock");
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(s.get("/cas/n").await.unwrap().value, b("80"));
}

pub async fn cache_fan_out(open: Open) {
    // The watch cache over this backend: history replay, many watchers, exactly-once in order.
    use crdkit_storage::{WatchCache, WatchCacheConfig};
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = Arc::clone(&backend.store);
    let early = s.create("/fan/early", b("0")).await.unwrap();
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let mut watchers: Vec<_> = (0..10)
        .map(|_| cache.watch("/fan/", early.mod_revision, None).unwrap())
        .collect();
    let mut written = Vec::new();
    for i in 0..30 {
        written.push(
            s.create(&format!("/fan/{i:02}"), b("x"))
                .await
                .unwrap()
                .mod_revision,
        );
    }
    for watcher in &mut watchers {
        for &revision in &written {
            let e = tokio::time::timeout(Duration::from_secs(10), watcher.next())
                .await
                .expect("cache event")
                .unwrap()
                .unwrap();
            assert_eq!(e.revision, revision);
        }
    }
    // A watcher from before `early` sees it first (the cache preloaded the backend's history).
    let mut replay = cache.watch("/fan/", early.mod_revision - 1, None).unwrap();
    let e = tokio::time::timeout(Duration::from_secs(10), replay.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(e.key(), "/fan/early");
}

pub async fn cache_under_concurrent_writes(open: Open) {
    // Four writers (create then update, 50 keys each) and twenty watchers of one watch cache:
    // every watcher sees every write exactly once, in revision order, each key Added then
    // Modified.
    use crdkit_storage::{WatchCache, WatchCacheConfig};
    use std::collections::{BTreeMap, BTreeSet};
    let Some(backend) = open(KEEP_ALL).await else {
        return;
    };
    let s = Arc::clone(&backend.store);
    let cache = WatchCache::start(Arc::clone(&s), WatchCacheConfig::default())
        .await
        .unwrap();
    let start = s.current_revision().await.unwrap();
    let total = 4 * 50 * 2;
    let readers: Vec<_> = (0..20)
        .map(|_| {
            let mut watcher = cache.watch("/load/", start, None).unwrap();
            tokio::spawn(async move {
                let mut events = Vec::with_capacity(total);
                while events.len() < total {
                    let event = tokio::time::timeout(Duration::from_secs(20), watcher.next())
                        .await
                        .expect("no event within 20 s")
                        .expect("watch ended")
                        .expect("watch failed");
                    events.push(event);
                }
                events
            })
        })
        .collect();
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let s = Arc::clone(&s);
            tokio::spawn(async move {
                let mut revisions = Vec::new();
                for i in 0..50 {
                    let key = format!("/load/{w}/{i:02}");
                    let kv = s.create(&key, b("1")).await.unwrap();
                    let kv2 = s.update(&key, b("2"), kv.mod_revision).await.unwrap();
                    revisions.extend([kv.mod_revision, kv2.mod_revision]);
                }
                revisions
            })
        })
        .collect();
    let mut written = BTreeSet::new();
    for writer in writers {
        written.extend(writer.await.unwrap());
    }
    assert_eq!(written.len(), total);
    for reader in readers {
        let events = reader.await.unwrap();
        assert!(
            events.windows(2).all(|w| w[0].revision < w[1].revision),
            "out of order"
        );
        let seen: BTreeSet<_> = events.iter().map(|e| e.revision).collect();
        assert_eq!(seen, written);
        let mut kinds: BTreeMap<&str, Vec<EventKind>> = BTreeMap::new();
        for e in &events {
            kinds.entry(e.key()).or_default().push(e.kind);
        }
        assert!(
            kinds
                .values()
                .all(|k| k == &[EventKind::Added, EventKind::Modified])
        );
    }
}
