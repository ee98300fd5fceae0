//! Lists from the watch cache: the state decoded once, snapshots at recent revisions matching
//! the backend's, filters and pages, and the wait for freshness.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use crdkit_storage::{
    CompactionPolicy, Decode, Error, KeyValue, ListOptions, MemoryStorage, Storage, WatchCache,
    WatchCacheConfig,
};

/// Decodes the value's length, and counts the decodings.
#[derive(Default)]
struct Counting(Arc<AtomicUsize>);

impl Decode for Counting {
    type Object = usize;
    fn decode(&self, kv: &KeyValue) -> usize {
        self.0.fetch_add(1, Ordering::Relaxed);
        kv.value.len()
    }
}

fn store() -> Arc<dyn Storage> {
    Arc::new(MemoryStorage::with_policy(CompactionPolicy {
        retain_revisions: None,
    }))
}

fn keys<O>(items: &[Arc<crdkit_storage::Entry<O>>]) -> Vec<&str> {
    items.iter().map(|e| e.kv.key.as_str()).collect()
}

#[tokio::test]
async fn lists_match_the_backend_at_every_recent_revision() {
    let s = store();
    s.create("/l/before", Bytes::from_static(b"x"))
        .await
        .unwrap();
    let decoded = Arc::new(AtomicUsize::new(0));
    let cache = WatchCache::start_with(
        Arc::clone(&s),
        WatchCacheConfig {
            history: 100,
            ..WatchCacheConfig::default()
        },
        Counting(Arc::clone(&decoded)),
    )
    .await
    .unwrap();
    let mut revisions = vec![s.current_revision().await.unwrap()];
    for i in 0..10u8 {
        let key = format!("/l/{}", i % 4);
        let kv = match s.get(&key).await {
            Ok(kv) => s
                .update(
                    &key,
                    Bytes::from(vec![b'y'; usize::from(i)]),
                    kv.mod_revision,
                )
                .await
                .unwrap(),
            Err(_) => s.create(&key, Bytes::from_static(b"new")).await.unwrap(),
        };
        revisions.push(kv.mod_revision);
        if i == 6 {
            revisions.push(s.delete("/l/1", None).await.unwrap().revision);
        }
    }
    let last = *revisions.last().unwrap();
    assert!(cache.wait_for(last, Duration::from_secs(10)).await);
    for &at in &revisions {
        let options = ListOptions {
            at_revision: Some(at),
            ..ListOptions::default()
        };
        let want = s.list("/l/", &options).await.unwrap();
        let got = cache.list("/l/", &options, &|_| true).unwrap();
        assert_eq!(got.revision, want.revision);
        let got: Vec<KeyValue> = got.items.iter().map(|e| e.kv.clone()).collect();
        assert_eq!(got, want.items, "at {at}");
    }
    // Decoded once per write (and once per delete, for what a watch delivers), never per list.
    let before = decoded.load(Ordering::Relaxed);
    cache
        .list("/l/", &ListOptions::default(), &|_| true)
        .unwrap();
    assert_eq!(decoded.load(Ordering::Relaxed), before);
    assert!(matches!(
        cache.list(
            "/l/",
            &ListOptions {
                at_revision: Some(last + 5),
                ..ListOptions::default()
            },
            &|_| true
        ),
        Err(Error::FutureRevision { .. })
    ));
}

#[tokio::test]
async fn pages_fill_up_with_matching_entries_and_count_what_follows() {
    let s = store();
    for i in 0..10 {
        let v = if i % 3 == 0 { "red" } else { "blue" };
        s.create(&format!("/p/{i}"), Bytes::from(v)).await.unwrap();
    }
    let cache = WatchCache::start_with(
        Arc::clone(&s),
        WatchCacheConfig::default(),
        Counting::default(),
    )
    .await
    .unwrap();
    // The state is read at the start of the history, and the history replayed, by the cache's
    // task: readers wait for the revision they need.
    let now = s.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    let red = |e: &crdkit_storage::Entry<usize>| e.object == 3;
    let options = ListOptions {
        limit: Some(2),
        ..ListOptions::default()
    };
    let page = cache.list("/p/", &options, &red).unwrap();
    assert_eq!(keys(&page.items), ["/p/0", "/p/3"]);
    assert!(page.more);
    // Keys after the last item, matching or not (etcd's count).
    assert_eq!(page.remaining, 6);
    let next = ListOptions {
        continue_key: Some("/p/3".into()),
        at_revision: Some(page.revision),
        ..options
    };
    let page = cache.list("/p/", &next, &red).unwrap();
    assert_eq!(keys(&page.items), ["/p/6", "/p/9"]);
    assert!(!page.more);
    let all = cache
        .list("/p/", &ListOptions::default(), &|_| true)
        .unwrap();
    assert_eq!(all.items.len(), 10);
    assert!(!all.more);
}

#[tokio::test]
async fn revisions_older_than_the_history_are_refused() {
    let s = store();
    let cache = WatchCache::start_with(
        Arc::clone(&s),
        WatchCacheConfig {
            history: 3,
            ..WatchCacheConfig::default()
        },
        Counting::default(),
    )
    .await
    .unwrap();
    let mut revisions = Vec::new();
    for i in 0..8 {
        revisions.push(
            s.create(&format!("/o/{i}"), Bytes::from_static(b"x"))
                .await
                .unwrap()
                .mod_revision,
        );
    }
    assert!(cache.wait_for(revisions[7], Duration::from_secs(10)).await);
    let at = |r| ListOptions {
        at_revision: Some(r),
        ..ListOptions::default()
    };
    assert_eq!(
        cache
            .list("/o/", &at(revisions[4]), &|_| true)
            .unwrap()
            .items
            .len(),
        5
    );
    assert!(matches!(
        cache.list("/o/", &at(revisions[3]), &|_| true),
        Err(Error::Compacted { .. })
    ));
    // A revision the cache has not reached is not waited for forever.
    assert!(
        !cache
            .wait_for(revisions[7] + 1, Duration::from_millis(20))
            .await
    );
}

#[tokio::test]
async fn the_state_at_start_is_the_backends() {
    let s = store();
    for i in 0..5 {
        s.create(&format!("/s/{i}"), Bytes::from_static(b"x"))
            .await
            .unwrap();
    }
    s.delete("/s/2", None).await.unwrap();
    let cache = WatchCache::start_with(
        Arc::clone(&s),
        WatchCacheConfig::default(),
        Counting::default(),
    )
    .await
    .unwrap();
    let now = s.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    let got = cache
        .list("/s/", &ListOptions::default(), &|_| true)
        .unwrap();
    assert_eq!(keys(&got.items), ["/s/0", "/s/1", "/s/3", "/s/4"]);
    assert_eq!(got.revision, s.current_revision().await.unwrap());
    assert_eq!(cache.get("/s/3").unwrap().object, 1);
    assert!(cache.get("/s/2").is_none());
}

#[tokio::test]
async fn lists_end_where_the_prefix_ends() {
    let s = store();
    // Keys around each prefix's end: the next byte ('/' + 1 = '0'), DEL, and beyond ASCII.
    let all = [
        "/e",
        "/e/",
        "/e/a",
        "/e/\u{7f}",
        "/e/é",
        "/e0",
        "/e0a",
        "/e\u{7f}",
        "/eé",
        "/f",
        "/é",
        "/é/a",
        "/éa",
    ];
    for key in all {
        s.create(key, Bytes::from_static(b"x")).await.unwrap();
    }
    let first = s.current_revision().await.unwrap();
    s.delete("/e/a", None).await.unwrap();
    s.create("/e/b", Bytes::from_static(b"x")).await.unwrap();
    let cache = WatchCache::start_with(
        Arc::clone(&s),
        WatchCacheConfig::default(),
        Counting::default(),
    )
    .await
    .unwrap();
    let now = s.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    let prefixes = ["", "/e", "/e/", "/e/\u{7f}", "/é", "/é/", "/\u{7f}", "/f"];
    for prefix in prefixes {
        // Continue after no key, a key in range, the prefix's end and past it.
        let continues = [None, Some("/e/"), Some("/e0"), Some("/e1"), Some("/z")];
        for continue_key in continues {
            for at_revision in [None, Some(first)] {
                let options = ListOptions {
                    continue_key: continue_key.map(str::to_owned),
                    at_revision,
                    ..ListOptions::default()
                };
                let want = s.list(prefix, &options).await.unwrap();
                let got = cache.list(prefix, &options, &|_| true).unwrap();
                let got: Vec<KeyValue> = got.items.iter().map(|e| e.kv.clone()).collect();
                assert_eq!(
                    got, want.items,
                    "{prefix:?} after {continue_key:?} at {at_revision:?}"
                );
            }
        }
    }
}

/// Indexes each value's bytes as terms (`b"ab"`: terms `a` and `b`), each its own family, and
/// counts the calls for terms.
#[derive(Default)]
pub(crate) struct Letters(Arc<AtomicUsize>);

impl Decode for Letters {
    type Object = String;
    fn decode(&self, kv: &KeyValue) -> String {
        String::from_utf8_lossy(&kv.value).into_owned()
    }
    fn terms(&self, object: &String) -> Vec<String> {
        self.0.fetch_add(1, Ordering::Relaxed);
        object.chars().map(String::from).collect()
    }
}

/// Every indexed list of `cache` under `/i/` against the walk of every entry.
fn assert_indexed_lists_are_walks(cache: &WatchCache<Letters>, old: u64, terms: &[&str]) {
    // "" and "/i/\u{7f}" have no simple end: their lists check keys against the prefix.
    let cases = terms.iter().flat_map(|term| {
        ["/i/", "", "/i/\u{7f}"]
            .into_iter()
            .map(move |prefix| (*term, prefix))
    });
    for (term, prefix) in cases {
        let has = |e: &crdkit_storage::Entry<String>| e.object.contains(term);
        for limit in [None, Some(1), Some(2)] {
            for continue_key in [None, Some("/i/1")] {
                for at_revision in [None, Some(old)] {
                    let options = ListOptions {
                        limit,
                        continue_key: continue_key.map(str::to_owned),
                        at_revision,
                    };
                    let walked = cache.list(prefix, &options, &has).unwrap();
                    let indexed = cache
                        .list_indexed(prefix, &options, Some(term), &has)
                        .unwrap();
                    let what =
                        format!("{term} {prefix:?} {limit:?} {continue_key:?} {at_revision:?}");
                    assert_eq!(keys(&indexed.items), keys(&walked.items), "{what}");
                    assert_eq!(
                        (indexed.revision, indexed.more, indexed.remaining),
                        (walked.revision, walked.more, walked.remaining),
                        "{what}"
                    );
                }
            }
        }
    }
}

#[tokio::test]
async fn indexed_lists_answer_as_walks_do() {
    let s = store();
    for (i, v) in ["ab", "b", "", "ca", "a", "bb"].iter().enumerate() {
        s.create(&format!("/i/{i}"), Bytes::from(*v)).await.unwrap();
    }
    s.create("/j/0", Bytes::from_static(b"a")).await.unwrap();
    let letters = Letters::default();
    let calls = Arc::clone(&letters.0);
    let cache = WatchCache::start_with(Arc::clone(&s), WatchCacheConfig::default(), letters)
        .await
        .unwrap();
    let old = s.current_revision().await.unwrap();
    // Writes that move keys between terms, and a delete.
    let kv = s.get("/i/1").await.unwrap();
    s.update("/i/1", Bytes::from_static(b"a"), kv.mod_revision)
        .await
        .unwrap();
    let kv = s.get("/i/0").await.unwrap();
    s.update("/i/0", Bytes::from_static(b"c"), kv.mod_revision)
        .await
        .unwrap();
    s.delete("/i/4", None).await.unwrap();
    s.create("/i/6", Bytes::from_static(b"ab")).await.unwrap();
    let now = s.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    // Nothing asked for a term yet: no write read any.
    assert_eq!(calls.load(Ordering::Relaxed), 0);
    assert_indexed_lists_are_walks(&cache, old, &["a", "b", "c", "z"]);
    // The index holds the current state only: "a" is now on /i/1, /i/3 and /i/6.
    let a = cache
        .list_indexed("/i/", &ListOptions::default(), Some("a"), &|_| true)
        .unwrap();
    assert_eq!(keys(&a.items), ["/i/1", "/i/3", "/i/6"]);
    // The term narrows, the filter decides.
    let none = cache
        .list_indexed("/i/", &ListOptions::default(), Some("a"), &|_| false)
        .unwrap();
    assert!(none.items.is_empty());
    // Indexed families are kept up to date by the writes that follow, "d" (not indexed) is not.
    let before = calls.load(Ordering::Relaxed);
    let old = s.current_revision().await.unwrap();
    let kv = s.get("/i/3").await.unwrap();
    s.update("/i/3", Bytes::from_static(b"bd"), kv.mod_revision)
        .await
        .unwrap();
    s.delete("/i/6", None).await.unwrap();
    s.create("/i/7", Bytes::from_static(b"cad")).await.unwrap();
    s.create("/i/8", Bytes::from_static(b"")).await.unwrap();
    let now = s.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    // Each write read the terms of the state it wrote and of the one it replaced (an update
    // both, a delete and a create one each).
    assert_eq!(calls.load(Ordering::Relaxed) - before, 5);
    assert_indexed_lists_are_walks(&cache, old, &["a", "b", "c", "d", "z"]);
    let a = cache
        .list_indexed("/i/", &ListOptions::default(), Some("a"), &|_| true)
        .unwrap();
    assert_eq!(keys(&a.items), ["/i/1", "/i/7"]);
}

#[tokio::test]
async fn families_past_the_indexed_ones_are_walked() {
    let s = store();
    let values: Vec<String> = (0..300u32)
        .map(|i| char::from_u32(0x100 + i).unwrap().to_string())
        .collect();
    for (i, v) in values.iter().enumerate() {
        s.create(&format!("/i/{i:03}"), Bytes::from(format!("{v}a")))
            .await
            .unwrap();
    }
    let cache = WatchCache::start_with(
        Arc::clone(&s),
        WatchCacheConfig::default(),
        Letters::default(),
    )
    .await
    .unwrap();
    let now = s.current_revision().await.unwrap();
    assert!(cache.wait_for(now, Duration::from_secs(10)).await);
    // One family per letter: the first 256 asked for are indexed, the others walked, and
    // every list answers as a walk does.
    for (i, v) in values.iter().enumerate() {
        let has = |e: &crdkit_storage::Entry<String>| e.object.contains(v.as_str());
        let page = cache
            .list_indexed("/i/", &ListOptions::default(), Some(v), &has)
            .unwrap();
        assert_eq!(keys(&page.items), [format!("/i/{i:03}")]);
    }
    let all = cache
        .list_indexed("/i/", &ListOptions::default(), Some("a"), &|_| true)
        .unwrap();
    assert_eq!(all.items.len(), 300);
}
