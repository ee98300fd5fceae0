//! Reads through the watch cache: consistent lists and gets right after writes, pages with
//! continue tokens and `remainingItemCount`, selections on cached labels, and a watcher that
//! does not keep up being closed without stalling writers.

use serde_json::{Value, json};

use crdkit_server::ApiConfig;

use crate::common::{CT, Http, server, server_with};

fn crontab(name: &str, bucket: usize) -> Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": name, "labels": {"bucket": bucket.to_string()}}, "spec": {"image": "a"}})
}

fn names(list: &Value) -> Vec<&str> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["metadata"]["name"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_see_every_write_before_them() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    for i in 0..20 {
        let name = format!("c{i:02}");
        let created = h.post(CT, &crontab(&name, i % 3)).await.expect(201).json();
        // A list and a get right after the write see it, encoded as the create answered.
        let list = h.get(CT).await.expect(200).json();
        assert_eq!(names(&list).len(), i + 1);
        let got = h.get(&format!("{CT}/{name}")).await.expect(200).json();
        assert_eq!(got, created);
        let patched = h
            .merge(&format!("{CT}/{name}"), &json!({"spec": {"image": "b"}}))
            .await
            .expect(200)
            .json();
        let got = h.get(&format!("{CT}/{name}")).await.expect(200).json();
        assert_eq!(got, patched);
        assert_eq!(
            list["metadata"]["resourceVersion"],
            created["metadata"]["resourceVersion"]
        );
    }
    // resourceVersion=0 reads the cache as it is (any state is allowed); once a read naming the
    // last write's revision has waited for the cache to reach it, that state has the write.
    let last = h.get(&format!("{CT}/c19")).await.expect(200).json();
    let rv = last["metadata"]["resourceVersion"].as_str().unwrap();
    let at = h.get(&format!("{CT}/c19?resourceVersion={rv}")).await;
    assert_eq!(at.expect(200).json(), last);
    let cached = h.get(&format!("{CT}/c19?resourceVersion=0")).await;
    assert_eq!(
        cached.expect(200).json()["metadata"]["resourceVersion"],
        last["metadata"]["resourceVersion"]
    );
    h.get(&format!("{CT}/nope?resourceVersion=0"))
        .await
        .expect(404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_from_the_cache_count_what_follows() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    for i in 0..5 {
        h.post(CT, &crontab(&format!("c{i}"), i % 2))
            .await
            .expect(201);
    }
    // At resourceVersion=0 the cache answers whole, whatever the limit (`computeListLimit`).
    let all = h
        .get(&format!("{CT}?limit=2&resourceVersion=0"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&all), ["c0", "c1", "c2", "c3", "c4"]);
    assert!(all["metadata"].get("continue").is_none(), "{all}");
    let first = h.get(&format!("{CT}?limit=2")).await.expect(200).json();
    assert_eq!(names(&first), ["c0", "c1"]);
    assert_eq!(first["metadata"]["remainingItemCount"], 3);
    let token = first["metadata"]["continue"].as_str().unwrap().to_owned();
    // A write after the first page is not in the next pages (one revision for all).
    h.post(CT, &crontab("c5", 0)).await.expect(201);
    let second = h
        .get(&format!("{CT}?limit=2&continue={token}"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&second), ["c2", "c3"]);
    assert_eq!(second["metadata"]["remainingItemCount"], 1);
    assert_eq!(
        second["metadata"]["resourceVersion"],
        first["metadata"]["resourceVersion"]
    );
    let token = second["metadata"]["continue"].as_str().unwrap().to_owned();
    let last = h
        .get(&format!("{CT}?limit=2&continue={token}"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&last), ["c4"]);
    assert!(last["metadata"].get("continue").is_none());
    assert!(last["metadata"].get("remainingItemCount").is_none());
    // Selected pages fill up with matching items and carry no count (etcd3's GetList).
    let selected = h
        .get(&format!("{CT}?limit=2&labelSelector=bucket%3D0"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&selected), ["c0", "c2"]);
    assert!(selected["metadata"]["continue"].is_string());
    assert!(selected["metadata"].get("remainingItemCount").is_none());
    let all = h
        .get(&format!("{CT}?labelSelector=bucket%3D0"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&all), ["c0", "c2", "c4", "c5"]);
    let by_name = h
        .get("/apis/stable.example.com/v1/crontabs?fieldSelector=metadata.name%3Dc3,metadata.namespace%3Ddefault")
        .await
        .expect(200)
        .json();
    assert_eq!(names(&by_name), ["c3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_that_falls_behind_is_closed_and_writers_go_on() {
    let s = server_with(ApiConfig {
        watcher_buffer: 1,
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(CT, &crontab("big", 0)).await.expect(201);
    // The watcher reads nothing while 400 events of 64 KiB wait for it: more than its buffers
    // and the socket's hold.
    let mut slow = h.watch(&format!("{CT}?watch=true&resourceVersion=0")).await;
    assert_eq!(slow.status, 200);
    let image = "x".repeat(64 * 1024);
    for i in 0..400 {
        h.merge(
            &format!("{CT}/big"),
            &json!({"spec": {"image": format!("{i}{image}")}}),
        )
        .await
        .expect(200);
    }
    // What it gets: the events queued before it fell behind, then the end of the stream,
    // without an ERROR event (cache_watcher.go closes it; the client watches again).
    let mut events = 0;
    while let Some(e) = slow.next_within(20).await {
        assert_ne!(e["type"], "ERROR", "{}", e["object"]);
        events += 1;
    }
    assert!(events > 0 && events < 401, "{events} events");
    // A new watch from the last revision still works.
    let mut again = h.watch(&format!("{CT}?watch=true")).await;
    assert_eq!(again.next().await["type"], "ADDED");
}

/// A server whose reads wait `fresh_timeout` for the cache, with the CronTab `a` and its
/// resourceVersion.
async fn one_crontab(fresh_timeout: std::time::Duration) -> (crdkit_server::ApiServer, Value, u64) {
    let s = server_with(ApiConfig {
        fresh_timeout,
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let a = h.post(CT, &crontab("a", 0)).await.expect(201).json();
    let rv = a["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    (s, a, rv)
}

/// A read that names a resourceVersion is served once the cache has reached it, and is a 504
/// when it does not in time (`watch_cache.go` `waitUntilFreshLocked`, the cacher's 3 s
/// `blockTimeout`, here shortened); a resourceVersion that does not parse is the storage's
/// error, passed on as a 500 without a reason by GET and WATCH and as a 400 by LIST.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_naming_a_revision_wait_for_the_cache_to_reach_it() {
    let (s, a, rv) = one_crontab(std::time::Duration::from_millis(300)).await;
    let h = Http::of(&s);
    let future = rv + 1000;
    let too_large = |r: Value| {
        assert_eq!(r["code"], 504, "{r}");
        assert_eq!(r["reason"], "Timeout", "{r}");
        let m = r["message"].as_str().unwrap();
        assert!(
            m.starts_with(&format!(
                "Timeout: Too large resource version: {future}, current: "
            )),
            "{m}"
        );
        assert_eq!(
            r["details"]["causes"][0]["reason"],
            "ResourceVersionTooLarge"
        );
        assert_eq!(r["details"]["retryAfterSeconds"], 1);
    };
    too_large(
        h.get(&format!("{CT}/a?resourceVersion={future}"))
            .await
            .json(),
    );
    too_large(
        h.get(&format!("{CT}?resourceVersion={future}"))
            .await
            .json(),
    );
    too_large(
        h.get(&format!(
            "{CT}?resourceVersion={future}&resourceVersionMatch=Exact"
        ))
        .await
        .json(),
    );
    let mut w = h
        .watch(&format!(
            "{CT}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true\
             &resourceVersionMatch=NotOlderThan&resourceVersion={future}"
        ))
        .await;
    let e = w.next().await;
    assert_eq!(e["type"], "ERROR", "{e}");
    too_large(e["object"].clone());
    assert!(w.ends_within(5).await);

    // A revision reached: the cache's state, as new as the revision or newer.
    let got = h
        .get(&format!("{CT}/a?resourceVersion={rv}"))
        .await
        .expect(200)
        .json();
    assert_eq!(got, a);
    h.delete(&format!("{CT}/a")).await.expect(200);
    // Once the cache has the deletion (a list waits for it), the revision named is older than
    // the cache's state, which has no `a`.
    h.get(CT).await.expect(200);
    let e = h
        .get(&format!("{CT}/a?resourceVersion={rv}"))
        .await
        .expect(404)
        .json();
    assert_eq!(e["reason"], "NotFound");
    // The legacy exact read: a first page (a limit, no match) at the revision named.
    let page = h
        .get(&format!("{CT}?limit=5&resourceVersion={rv}"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&page), ["a"]);
    assert_eq!(page["metadata"]["resourceVersion"], rv.to_string());
    let latest = h
        .get(&format!("{CT}?resourceVersion={rv}"))
        .await
        .expect(200)
        .json();
    assert_eq!(names(&latest), Vec::<&str>::new());

    // Not parsed: the storage's words, by verb.
    let why =
        "resourceVersion: Invalid value: \"+1\": strconv.ParseUint: parsing \"+1\": invalid syntax";
    for path in [
        format!("{CT}/a?resourceVersion=%2B1"),
        format!("{CT}?watch=1&resourceVersion=%2B1"),
    ] {
        let e = h.get(&path).await.expect(500).json();
        assert_eq!(e["message"], why, "{path}");
        assert!(e.get("reason").is_none(), "{e}");
    }
    let e = h
        .get(&format!("{CT}?resourceVersion=%2B1"))
        .await
        .expect(400)
        .json();
    assert_eq!(e["message"], format!("invalid resource version: {why}"));
}

/// A read waiting for a revision is answered as soon as a write brings the cache there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_of_a_future_revision_is_answered_when_a_write_reaches_it() {
    let (s, a, _) = one_crontab(std::time::Duration::from_secs(60)).await;
    let h = Http::of(&s);
    // The store's revision, from a consistent list.
    let revision = || async move {
        let l = h.get(CT).await.expect(200).json();
        l["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let next = revision().await + 1;
    let (get, list) = (h, h);
    let get = tokio::spawn(async move { get.get(&format!("{CT}/a?resourceVersion={next}")).await });
    let list = tokio::spawn(async move { list.get(&format!("{CT}?resourceVersion={next}")).await });
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    // Nothing else wrote meanwhile (the server writes nothing on its own here): both wait.
    let quiet = revision().await < next;
    if quiet {
        assert!(!get.is_finished() && !list.is_finished());
    }
    h.post(CT, &crontab("b", 1)).await.expect(201);
    let got = get.await.unwrap().expect(200).json();
    assert_eq!(got, a);
    let listed = list.await.unwrap().expect(200).json();
    if quiet {
        assert_eq!(names(&listed), ["a", "b"]);
    } else {
        assert_eq!(names(&listed)[0], "a");
    }
}
