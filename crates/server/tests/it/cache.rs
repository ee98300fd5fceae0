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
    // resourceVersion=0 reads the cache (any state is allowed; by then it has the last write).
    let last = h.get(&format!("{CT}/c19")).await.expect(200).json();
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
