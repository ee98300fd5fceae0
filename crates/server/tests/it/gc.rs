//! Garbage collection of owned objects (background, foreground with `blockOwnerDeletion`,
//! orphan, several owners, dangling references) and namespace deletion that completes.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{CT, Http, server};

const CM: &str = "/api/v1/namespaces/default/configmaps";

fn owner_ref(owner: &Value, block: bool) -> Value {
    json!({"apiVersion": owner["apiVersion"], "kind": owner["kind"],
        "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
        "controller": true, "blockOwnerDeletion": block})
}

/// A reference that is not the controller (one controller per object).
fn secondary(owner: &Value) -> Value {
    let mut r = owner_ref(owner, false);
    r["controller"] = json!(false);
    r
}

fn config_map(name: &str, owners: &[Value], finalizers: &[&str]) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "ownerReferences": owners, "finalizers": finalizers},
        "data": {"k": "v"}})
}

async fn owner(h: &Http, name: &str) -> Value {
    h.post(
        CT,
        &json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": name}, "spec": {"cronSpec": "* * * * *", "image": "i"}}),
    )
    .await
    .expect(201)
    .json()
}

async fn delete_with(h: &Http, path: &str, policy: &str) -> Value {
    h.send(
        "DELETE",
        path,
        &[("content-type", "application/json")],
        Some(format!(r#"{{"propagationPolicy":"{policy}"}}"#).into_bytes()),
    )
    .await
    .expect(200)
    .json()
}

/// Waits (up to 10 s) until `path` answers `status`; returns the last body.
async fn until(h: &Http, path: &str, status: u16) -> Value {
    for _ in 0..500 {
        let r = h.get(path).await;
        if r.status == status {
            return if r.body.is_empty() {
                Value::Null
            } else {
                r.json()
            };
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{path} never answered {status}");
}

/// Waits (up to 10 s) until the object at `path` satisfies `f`.
async fn until_obj(h: &Http, path: &str, f: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let r = h.get(path).await;
        if r.status == 200 && f(&r.json()) {
            return r.json();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "{path} never got there: {}",
        String::from_utf8_lossy(&h.get(path).await.body)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn background_deletion_collects_dependents() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let o = owner(&h, "bg").await;
    h.post(CM, &config_map("bg-child", &[owner_ref(&o, false)], &[]))
        .await
        .expect(201);
    // A dependent of a child: collected in turn.
    let child = h.get(&format!("{CM}/bg-child")).await.json();
    h.post(
        CM,
        &config_map("bg-grandchild", &[owner_ref(&child, false)], &[]),
    )
    .await
    .expect(201);
    let r = delete_with(&h, &format!("{CT}/bg"), "Background").await;
    assert_eq!(r["status"], "Success");
    until(&h, &format!("{CM}/bg-child"), 404).await;
    until(&h, &format!("{CM}/bg-grandchild"), 404).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreground_deletion_waits_for_blocking_dependents() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let o = owner(&h, "fg").await;
    h.post(CM, &config_map("fg-free", &[owner_ref(&o, true)], &[]))
        .await
        .expect(201);
    h.post(
        CM,
        &config_map("fg-held", &[owner_ref(&o, true)], &["example.com/hold"]),
    )
    .await
    .expect(201);
    h.post(
        CM,
        &config_map("fg-nonblocking", &[owner_ref(&o, false)], &[]),
    )
    .await
    .expect(201);
    // The owner is marked and keeps `foregroundDeletion` while a blocking dependent remains.
    let r = delete_with(&h, &format!("{CT}/fg"), "Foreground").await;
    assert_eq!(r["metadata"]["finalizers"], json!(["foregroundDeletion"]));
    assert!(r["metadata"]["deletionTimestamp"].is_string());
    until(&h, &format!("{CM}/fg-free"), 404).await;
    until(&h, &format!("{CM}/fg-nonblocking"), 404).await;
    let held = until_obj(&h, &format!("{CM}/fg-held"), |o| {
        o["metadata"]["deletionTimestamp"].is_string()
    })
    .await;
    assert_eq!(held["metadata"]["finalizers"], json!(["example.com/hold"]));
    let still = h.get(&format!("{CT}/fg")).await.expect(200).json();
    assert_eq!(
        still["metadata"]["finalizers"],
        json!(["foregroundDeletion"])
    );
    // The last blocking dependent goes: so does the owner.
    h.merge(
        &format!("{CM}/fg-held"),
        &json!({"metadata": {"finalizers": null}}),
    )
    .await
    .expect(200);
    until(&h, &format!("{CM}/fg-held"), 404).await;
    until(&h, &format!("{CT}/fg"), 404).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orphan_deletion_releases_dependents() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let o = owner(&h, "or").await;
    let other = owner(&h, "other").await;
    h.post(
        CM,
        &config_map("or-child", &[owner_ref(&o, true), secondary(&other)], &[]),
    )
    .await
    .expect(201);
    let r = delete_with(&h, &format!("{CT}/or"), "Orphan").await;
    assert_eq!(r["metadata"]["finalizers"], json!(["orphan"]));
    until(&h, &format!("{CT}/or"), 404).await;
    let child = until_obj(&h, &format!("{CM}/or-child"), |c| {
        c["metadata"]["ownerReferences"]
            .as_array()
            .is_some_and(|a| a.len() == 1)
    })
    .await;
    assert_eq!(child["metadata"]["ownerReferences"][0]["name"], "other");
    // The legacy `orphanDependents=false` in the query means background.
    h.send(
        "DELETE",
        &format!("{CT}/other?orphanDependents=false"),
        &[],
        None,
    )
    .await
    .expect(200);
    until(&h, &format!("{CM}/or-child"), 404).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solid_owners_keep_dependents_and_dangling_references_do_not() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let a = owner(&h, "a").await;
    let b = owner(&h, "b").await;
    h.post(
        CM,
        &config_map("two-owners", &[owner_ref(&a, false), secondary(&b)], &[]),
    )
    .await
    .expect(201);
    delete_with(&h, &format!("{CT}/a"), "Background").await;
    // a is gone but b holds: the reference to a is removed, the dependent stays.
    let c = until_obj(&h, &format!("{CM}/two-owners"), |c| {
        c["metadata"]["ownerReferences"]
            .as_array()
            .is_some_and(|r| r.len() == 1)
    })
    .await;
    assert_eq!(c["metadata"]["ownerReferences"][0]["name"], "b");
    // A reference to an object that does not exist (same name, another uid): collected.
    let mut stale = owner_ref(&b, false);
    stale["uid"] = json!("00000000-0000-0000-0000-000000000000");
    h.post(CM, &config_map("dangling", &[stale], &[]))
        .await
        .expect(201);
    until(&h, &format!("{CM}/dangling"), 404).await;
    // A reference to a kind the server does not serve is left alone.
    let unknown = json!({"apiVersion": "widgets.example.com/v1", "kind": "Widget", "name": "d",
        "uid": "11111111-1111-1111-1111-111111111111"});
    h.post(CM, &config_map("unknown-kind", &[unknown], &[]))
        .await
        .expect(201);
    h.post(CM, &config_map("marker", &[stale_ref_to(&b)], &[]))
        .await
        .expect(201);
    until(&h, &format!("{CM}/marker"), 404).await;
    h.get(&format!("{CM}/unknown-kind")).await.expect(200);
    h.get(&format!("{CM}/two-owners")).await.expect(200);
}

fn stale_ref_to(o: &Value) -> Value {
    let mut r = owner_ref(o, false);
    r["uid"] = json!("22222222-2222-2222-2222-222222222222");
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namespace_deletion_completes() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "doomed"}}),
    )
    .await
    .expect(201);
    let ct = "/apis/stable.example.com/v1/namespaces/doomed/crontabs";
    for n in ["x", "y"] {
        h.post(
            ct,
            &json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": n}, "spec": {"cronSpec": "* * * * *", "image": "i"}}),
        )
        .await
        .expect(201);
    }
    h.merge(
        &format!("{ct}/y"),
        &json!({"metadata": {"finalizers": ["example.com/hold"]}}),
    )
    .await
    .expect(200);
    h.post(
        "/api/v1/namespaces/doomed/configmaps",
        &config_map("c", &[], &[]),
    )
    .await
    .expect(201);
    h.post(
        "/apis/coordination.k8s.io/v1/namespaces/doomed/leases",
        &json!({"metadata": {"name": "l"}, "spec": {"holderIdentity": "me"}}),
    )
    .await
    .expect(201);
    let r = h
        .delete("/api/v1/namespaces/doomed")
        .await
        .expect(200)
        .json();
    assert_eq!(r["status"]["phase"], "Terminating");
    // Creating in a terminating namespace is forbidden.
    let e = h
        .post(
            "/api/v1/namespaces/doomed/configmaps",
            &config_map("late", &[], &[]),
        )
        .await
        .expect(403)
        .json();
    assert_eq!(
        e["message"],
        "configmaps \"late\" is forbidden: unable to create new content in namespace doomed because it is being terminated"
    );
    until(&h, &format!("{ct}/x"), 404).await;
    until(&h, "/api/v1/namespaces/doomed/configmaps/c", 404).await;
    until(
        &h,
        "/apis/coordination.k8s.io/v1/namespaces/doomed/leases/l",
        404,
    )
    .await;
    // y waits for its finalizer, and the namespace for y.
    until_obj(&h, &format!("{ct}/y"), |o| {
        o["metadata"]["deletionTimestamp"].is_string()
    })
    .await;
    h.get("/api/v1/namespaces/doomed").await.expect(200);
    h.merge(
        &format!("{ct}/y"),
        &json!({"metadata": {"finalizers": null}}),
    )
    .await
    .expect(200);
    until(&h, "/api/v1/namespaces/doomed", 404).await;
}
