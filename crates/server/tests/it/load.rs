//! A bounded load test on loopback: concurrent writers and watchers; every watcher sees every
//! write exactly once, in revision order, each object's resourceVersions increasing.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use serde_json::json;

use crate::common::{CT, Http, server};

const WRITERS: usize = 8;
const OBJECTS_PER_WRITER: usize = 5;
const UPDATES: usize = 5;
const WATCHERS: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_writers_and_watchers_lose_and_duplicate_nothing() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let start = h.get(CT).await.expect(200).json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let writes = WRITERS * OBJECTS_PER_WRITER * (UPDATES + 2);

    let mut watchers = Vec::new();
    for _ in 0..WATCHERS {
        let mut w = h
            .watch(&format!("{CT}?watch=true&resourceVersion={start}"))
            .await;
        assert_eq!(w.status, 200);
        watchers.push(tokio::spawn(async move {
            let mut events = Vec::new();
            while events.len() < writes {
                match w.next_within(60).await {
                    Some(e) => events.push(e),
                    None => break,
                }
            }
            events
        }));
    }

    let mut writers = Vec::new();
    for wi in 0..WRITERS {
        writers.push(tokio::spawn(async move {
            for oi in 0..OBJECTS_PER_WRITER {
                let name = format!("w{wi}-o{oi}");
                let obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": name}, "spec": {"replicas": 0}});
                h.post(CT, &obj).await.expect(201);
                for u in 1..=UPDATES {
                    h.merge(&format!("{CT}/{name}"), &json!({"spec": {"replicas": u}})).await.expect(200);
                }
                h.delete(&format!("{CT}/{name}")).await.expect(200);
            }
        }));
    }
    tokio::time::timeout(Duration::from_secs(120), async {
        for w in writers {
            w.await.expect("writer");
        }
    })
    .await
    .expect("writers done in time");

    for w in watchers {
        let events = tokio::time::timeout(Duration::from_secs(120), w)
            .await
            .expect("watcher in time")
            .expect("watcher");
        assert_eq!(events.len(), writes, "every write seen");
        let mut seen = HashSet::new();
        let mut last_global = 0u64;
        let mut per_object: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
        for e in &events {
            let ty = e["type"].as_str().unwrap().to_owned();
            assert_ne!(ty, "ERROR", "{e}");
            let name = e["object"]["metadata"]["name"].as_str().unwrap().to_owned();
            let rv: u64 = e["object"]["metadata"]["resourceVersion"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!(seen.insert((name.clone(), rv)), "duplicate {name}@{rv}");
            assert!(rv > last_global, "revision order: {rv} after {last_global}");
            last_global = rv;
            per_object.entry(name).or_default().push((ty, rv));
        }
        assert_eq!(per_object.len(), WRITERS * OBJECTS_PER_WRITER);
        for (name, evs) in per_object {
            let types: Vec<&str> = evs.iter().map(|(t, _)| t.as_str()).collect();
            let mut want = vec!["ADDED"];
            want.extend(std::iter::repeat_n("MODIFIED", UPDATES));
            want.push("DELETED");
            assert_eq!(types, want, "{name}");
            assert!(
                evs.windows(2).all(|w| w[0].1 < w[1].1),
                "{name}: increasing resourceVersions"
            );
        }
    }
}
