//! Watches as kubectl (`delete`'s wait, `get -w`) and kube-rs (`watcher`) use them.

use std::time::Duration;

use crdkit_server::ApiConfig;
use serde_json::json;

use crate::common::{CRDS, CT, Http, TABLE, manifest_json, server, server_with};

fn crontab(name: &str) -> serde_json::Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": name}, "spec": {"image": "a"}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_from_a_resource_version_and_initial_state() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let a = h.post(CT, &crontab("a")).await.expect(201).json();
    let rv = a["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    // From a resourceVersion: only what came after it.
    let mut w = h
        .watch(&format!(
            "{CT}?watch=true&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=290"
        ))
        .await;
    assert_eq!(w.status, 200);
    assert_eq!(w.content_type.as_deref(), Some("application/json"));
    // Without one: the current state first.
    let mut all = h.watch(&format!("{CT}?watch=true")).await;
    let first = all.next().await;
    assert_eq!(
        (
            first["type"].as_str(),
            first["object"]["metadata"]["name"].as_str()
        ),
        (Some("ADDED"), Some("a"))
    );
    let b = h.post(CT, &crontab("b")).await.expect(201).json();
    let e = w.next().await;
    assert_eq!(e["type"], "ADDED");
    assert_eq!(e["object"]["metadata"]["name"], "b");
    assert_eq!(e["object"]["apiVersion"], "stable.example.com/v1");
    assert_eq!(
        e["object"]["metadata"]["resourceVersion"],
        b["metadata"]["resourceVersion"]
    );
    h.merge(&format!("{CT}/a"), &json!({"spec": {"image": "c"}}))
        .await
        .expect(200);
    let e = w.next().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["spec"]["image"].as_str()),
        (Some("MODIFIED"), Some("c"))
    );
    let d = h.delete(&format!("{CT}/a")).await.expect(200);
    let e = w.next().await;
    assert_eq!(e["type"], "DELETED");
    assert_eq!(e["object"]["metadata"]["name"], "a");
    // The deleted object carries the revision of its deletion.
    let listed = h.get(CT).await.expect(200).json();
    assert_eq!(
        e["object"]["metadata"]["resourceVersion"],
        listed["metadata"]["resourceVersion"]
    );
    drop(d);
    assert_eq!(all.next().await["object"]["metadata"]["name"], "b");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_delete_waits_with_list_then_watch_by_name() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(CT, &manifest_json("my-crontab-finalizer.yaml"))
        .await
        .expect(201);
    h.post(CT, &crontab("other")).await.expect(201);
    let name = "my-new-cron-object";
    h.delete(&format!("{CT}/{name}")).await.expect(200);
    let list = h
        .get(&format!(
            "{CT}?fieldSelector=metadata.name%3D{name}&limit=500&resourceVersion=0"
        ))
        .await
        .expect(200)
        .json();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let rv = list["metadata"]["resourceVersion"].as_str().unwrap();
    let mut w = h.watch(&format!("{CT}?allowWatchBookmarks=true&fieldSelector=metadata.name%3D{name}&resourceVersion={rv}&timeoutSeconds=314&watch=true")).await;
    // Changes to other objects are not sent.
    h.merge(&format!("{CT}/other"), &json!({"spec": {"image": "z"}}))
        .await
        .expect(200);
    h.merge(
        &format!("{CT}/{name}"),
        &json!({"metadata": {"finalizers": null}}),
    )
    .await
    .expect(200);
    let e = w.next().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["metadata"]["name"].as_str()),
        (Some("DELETED"), Some(name))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selection_changes_are_added_and_deleted_events() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("shirt-resource-definition.yaml").await;
    let shirts = "/apis/stable.example.com/v1/namespaces/default/shirts";
    let shirt = |name: &str, color: &str| json!({"apiVersion": "stable.example.com/v1", "kind": "Shirt", "metadata": {"name": name}, "spec": {"color": color}});
    let r = h.post(shirts, &shirt("s", "red")).await.expect(201).json();
    let rv = r["metadata"]["resourceVersion"].as_str().unwrap();
    let mut w = h
        .watch(&format!(
            "{shirts}?watch=true&resourceVersion={rv}&fieldSelector=spec.color%3Dblue"
        ))
        .await;
    h.merge(&format!("{shirts}/s"), &json!({"spec": {"color": "blue"}}))
        .await
        .expect(200);
    assert_eq!(w.next().await["type"], "ADDED");
    h.merge(
        &format!("{shirts}/s"),
        &json!({"metadata": {"labels": {"a": "b"}}}),
    )
    .await
    .expect(200);
    assert_eq!(w.next().await["type"], "MODIFIED");
    h.merge(&format!("{shirts}/s"), &json!({"spec": {"color": "green"}}))
        .await
        .expect(200);
    let e = w.next().await;
    assert_eq!(e["type"], "DELETED");
    assert_eq!(e["object"]["spec"]["color"], "green");
    // Label selectors on watches too.
    let mut lw = h
        .watch(&format!(
            "{shirts}?watch=true&resourceVersion=0&labelSelector=a%3Db"
        ))
        .await;
    assert_eq!(lw.next().await["object"]["metadata"]["name"], "s");
    assert_eq!(
        h.watch(&format!(
            "{shirts}?watch=true&fieldSelector=spec.material%3Dx"
        ))
        .await
        .status,
        400
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeout_bookmarks_and_initial_events_end() {
    let s = server_with(ApiConfig {
        bookmark_interval: Duration::from_millis(200),
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(CT, &crontab("a")).await.expect(201);
    // timeoutSeconds ends the stream.
    let mut w = h
        .watch(&format!(
            "{CT}?watch=true&resourceVersion=1&timeoutSeconds=1"
        ))
        .await;
    assert!(w.ends_within(10).await, "the watch ended");
    // A negative timeout has passed already: the watch ends at once (here before the state).
    let mut w = h.watch(&format!("{CT}?watch=true&timeoutSeconds=-1")).await;
    assert_eq!(w.status, 200);
    assert!(w.ends_within(10).await, "the watch ended");
    // A list decodes timeoutSeconds too.
    let e = h
        .get(&format!("{CT}?timeoutSeconds=abc"))
        .await
        .expect(400)
        .json();
    assert_eq!(
        e["message"],
        r#"strconv.ParseInt: parsing "abc": invalid syntax"#
    );
    // Periodic bookmarks carry only a resourceVersion.
    let list = h.get(CT).await.expect(200).json();
    let rv = list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut w = h
        .watch(&format!(
            "{CT}?watch=true&resourceVersion={rv}&allowWatchBookmarks=true"
        ))
        .await;
    let b = w.next().await;
    assert_eq!(b["type"], "BOOKMARK");
    assert_eq!(b["object"]["kind"], "CronTab");
    assert!(
        b["object"]["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= rv.parse::<u64>().unwrap()
    );
    // Streaming lists: the state, then a bookmark marking its end.
    let mut w = h.watch(&format!("{CT}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")).await;
    assert_eq!(w.next().await["type"], "ADDED");
    let b = w.next().await;
    assert_eq!(b["type"], "BOOKMARK");
    assert_eq!(
        b["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
    let e = h
        .get(&format!("{CT}?watch=true&sendInitialEvents=true"))
        .await
        .expect(422)
        .json();
    assert_eq!(e["reason"], "Invalid");
    // sendInitialEvents=false without a resourceVersion, or with "0": from now on, no state.
    for (i, rv) in ["", "0"].into_iter().enumerate() {
        let mut w = h
            .watch(&format!("{CT}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion={rv}"))
            .await;
        assert_eq!(w.status, 200);
        let name = format!("later-{i}");
        h.post(CT, &crontab(&name)).await.expect(201);
        let e = w.next().await;
        assert_eq!(e["type"], "ADDED", "{e}");
        assert_eq!(e["object"]["metadata"]["name"], name.as_str(), "rv {rv:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_old_resource_versions_are_gone() {
    let s = server_with(ApiConfig {
        watch_history: 5,
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let first = h.post(CT, &crontab("a")).await.expect(201).json();
    for i in 0..20 {
        h.merge(&format!("{CT}/a"), &json!({"spec": {"replicas": i}}))
            .await
            .expect(200);
    }
    let rv = first["metadata"]["resourceVersion"].as_str().unwrap();
    // A list waits for the cache to have every merge (and to have dropped the oldest).
    h.get(CT).await.expect(200);
    let mut w = h
        .watch(&format!("{CT}?watch=true&resourceVersion={rv}"))
        .await;
    assert_eq!(w.status, 200);
    let e = w.next().await;
    assert_eq!(e["type"], "ERROR");
    assert_eq!(e["object"]["code"], 410);
    assert_eq!(e["object"]["reason"], "Expired");
    assert!(
        e["object"]["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("too old resource version: {rv} ("))
    );
    assert!(w.ends_within(5).await);
    assert_eq!(
        h.get(&format!("{CT}?watch=true&resourceVersion=abc"))
            .await
            .status,
        500
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_watches_and_crd_watches() {
    let s = server().await;
    let h = Http::of(&s);
    let mut crds = h.watch(&format!("{CRDS}?watch=true")).await;
    h.crd("resourcedefinition-printer-columns.yaml").await;
    let e = crds.next().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["kind"].as_str()),
        (Some("ADDED"), Some("CustomResourceDefinition"))
    );
    let mut w = h.watch_as(&format!("{CT}?watch=true"), TABLE).await;
    assert_eq!(
        w.content_type.as_deref(),
        Some("application/json;as=Table;v=v1;g=meta.k8s.io")
    );
    h.post(CT, &manifest_json("my-crontab-valid.yaml"))
        .await
        .expect(201);
    let e = w.next().await;
    assert_eq!(e["object"]["kind"], "Table");
    assert_eq!(e["object"]["rows"][0]["cells"][0], "my-new-cron-object");
    assert_eq!(e["object"]["columnDefinitions"][1]["name"], "Spec");
}

/// A CRD's watches end when its storage is torn down, about a second after (the CRD deleted,
/// or its spec changed: `customresource_handler.go` `removeStorage_locked`, `tearDown`); a
/// change of its metadata or status alone keeps them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_end_when_their_crd_storage_is_torn_down() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let crd_path = format!("{CRDS}/crontabs.stable.example.com");
    let mut w = h.watch(&format!("{CT}?watch=true")).await;
    // A label on the CRD: the same storage, the watch goes on and sees what follows.
    h.merge(&crd_path, &json!({"metadata": {"labels": {"a": "b"}}}))
        .await
        .expect(200);
    assert!(!w.ends_within(2).await, "a metadata change ended the watch");
    h.post(CT, &crontab("after-label")).await.expect(201);
    let e = w.next().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["metadata"]["name"].as_str()),
        (Some("ADDED"), Some("after-label"))
    );
    // A printer column: a new storage; the old one's watch ends.
    let mut crd = h.get(&crd_path).await.expect(200).json();
    crd["spec"]["versions"][0]["additionalPrinterColumns"] =
        json!([{"name": "Image", "type": "string", "jsonPath": ".spec.image"}]);
    h.put(&crd_path, &crd).await.expect(200);
    assert!(
        w.ends_within(10).await,
        "a spec change did not end the watch"
    );
    // Deleted: the new watch ends once the CRD is gone. ("00" is revision 0, as parsed: the
    // current state first.)
    let mut w = h
        .watch(&format!("{CT}?watch=true&resourceVersion=00"))
        .await;
    let e = w.next().await;
    assert_eq!(e["type"], "ADDED");
    h.delete(&crd_path).await.expect(200);
    // The cleanup's DELETED event, then the end.
    let e = w.next().await;
    assert_eq!(e["type"], "DELETED", "{e}");
    assert!(
        w.ends_within(10).await,
        "the CRD's deletion did not end the watch"
    );
}
