//! What kube-rs' runtime relies on, checked against the API server's answers: JSON patch
//! `test` ops, merge patches of `/status`, `?&` queries, set-based label selectors on lists
//! and watches, watch history, bookmarks, streaming lists, unconditional updates, pagination
//! with expired continue tokens, `resourceVersionMatch`, `DeleteOptions` validation, the
//! request log, and ConfigMaps as a built-in kind.

use std::time::Duration;

use crdkit_server::ApiConfig;
use futures_util::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{
    Api, DynamicObject, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams,
};
use serde_json::{Value, json};

use crate::common::{CT, Http, kube_client, server, server_with};

fn crontab(name: &str, labels: Value) -> Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": name, "labels": labels}, "spec": {"cronSpec": "* * * * *", "image": "i"}})
}

fn ar() -> kube::discovery::ApiResource {
    kube::discovery::ApiResource {
        group: "stable.example.com".into(),
        version: "v1".into(),
        api_version: "stable.example.com/v1".into(),
        kind: "CronTab".into(),
        plural: "crontabs".into(),
    }
}

fn rv(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_patch_tests_and_failures_are_422() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    h.post(CT, &crontab("p", json!({}))).await.expect(201);
    let path = format!("{CT}/p");
    // `test` of null passes on a missing path; of a value, fails.
    let ok = json!([{"op": "test", "path": "/metadata/finalizers", "value": null},
        {"op": "test", "path": "/spec/missing", "value": null},
        {"op": "replace", "path": "/spec/image", "value": "j"}]);
    let r = h
        .patch(&path, "application/json-patch+json", &ok)
        .await
        .expect(200)
        .json();
    assert_eq!(r["spec"]["image"], "j");
    for bad in [
        json!([{"op": "test", "path": "/spec/image", "value": "x"}]),
        json!([{"op": "test", "path": "/metadata/finalizers", "value": ["a"]}]),
        json!([{"op": "replace", "path": "/spec/nothere", "value": 1}]),
        json!([{"op": "remove", "path": "/spec/nothere"}]),
    ] {
        let e = h
            .patch(&path, "application/json-patch+json", &bad)
            .await
            .expect(422)
            .json();
        assert_eq!(
            e,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "the server rejected our request due to an error in our request",
                "reason": "Invalid", "details": {}, "code": 422}),
            "{bad}"
        );
    }
    // Through kube-rs: a typed 422.
    let api: Api<DynamicObject> = Api::namespaced_with(kube_client(&s), "default", &ar());
    let patch =
        serde_json::from_value(json!([{"op": "test", "path": "/spec/image", "value": "nope"}]))
            .unwrap();
    match api
        .patch("p", &PatchParams::default(), &Patch::Json::<()>(patch))
        .await
    {
        Err(kube::Error::Api(e)) => assert_eq!((e.code, e.reason.as_str()), (422, "Invalid")),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_merge_patch_and_query_prefix() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition-subresources.yaml").await;
    let api: Api<DynamicObject> = Api::namespaced_with(kube_client(&s), "default", &ar());
    let obj: DynamicObject = serde_json::from_value(json!({"apiVersion": "stable.example.com/v1",
        "kind": "CronTab", "metadata": {"name": "s"}, "spec": {"cronSpec": "* * * * *", "image": "i", "replicas": 1}}))
    .unwrap();
    api.create(&PostParams::default(), &obj).await.unwrap();
    // A merge patch of /status changes the status only, and not the generation.
    let r = api
        .patch_status(
            "s",
            &PatchParams::default(),
            &Patch::Merge(
                json!({"spec": {"replicas": 9}, "status": {"replicas": 2, "labelSelector": "a=b"}}),
            ),
        )
        .await
        .unwrap();
    assert_eq!(r.data["status"]["replicas"], 2);
    assert_eq!(r.data["spec"]["replicas"], 1);
    assert_eq!(r.metadata.generation, Some(1));
    // kube-rs' queries start with `?&`.
    let log = s.request_log().records();
    let status = log
        .iter()
        .find(|r| r.method == "PATCH" && r.path.ends_with("/s/status"))
        .expect("the status patch is logged");
    assert_eq!(status.status, 200);
    assert_eq!(status.content_type, "application/merge-patch+json");
    let raw = h.get(&format!("{CT}?&&limit=1&")).await.expect(200).json();
    assert_eq!(raw["items"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_based_selectors_on_lists_and_watches() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    for (n, labels) in [
        ("a", json!({"env": "prod", "tier": "web"})),
        ("b", json!({"env": "dev"})),
        ("c", json!({"env": "qa", "canary": "true"})),
        ("d", json!({})),
    ] {
        h.post(CT, &crontab(n, labels)).await.expect(201);
    }
    let api: Api<DynamicObject> = Api::namespaced_with(kube_client(&s), "default", &ar());
    let names = |sel: &'static str| {
        let api = api.clone();
        async move {
            let l = api.list(&ListParams::default().labels(sel)).await.unwrap();
            l.items
                .iter()
                .map(|o| o.metadata.name.clone().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(names("env in (prod,qa)").await, ["a", "c"]);
    assert_eq!(names("env notin (prod,qa)").await, ["b", "d"]);
    assert_eq!(names("!canary").await, ["a", "b", "d"]);
    assert_eq!(names("canary").await, ["c"]);
    assert_eq!(names("env,!tier,env!=qa").await, ["b"]);
    let e = h
        .get(&format!("{CT}?labelSelector=env%20in%20prod"))
        .await
        .expect(400)
        .json();
    assert_eq!(e["message"], "found 'prod' expected: '('");
    // A watch with a set-based selector sees objects move in and out of it.
    let mut w = h
        .watch(&format!(
            "{CT}?watch=true&labelSelector=env%20in%20(prod)&resourceVersion=0"
        ))
        .await;
    assert_eq!(w.next().await["object"]["metadata"]["name"], "a");
    h.merge(
        &format!("{CT}/b"),
        &json!({"metadata": {"labels": {"env": "prod"}}}),
    )
    .await
    .expect(200);
    let ev = w.next().await;
    assert_eq!(
        (
            ev["type"].as_str(),
            ev["object"]["metadata"]["name"].as_str()
        ),
        (Some("ADDED"), Some("b"))
    );
    h.merge(
        &format!("{CT}/a"),
        &json!({"metadata": {"labels": {"env": "dev"}}}),
    )
    .await
    .expect(200);
    let ev = w.next().await;
    assert_eq!(
        (
            ev["type"].as_str(),
            ev["object"]["metadata"]["name"].as_str()
        ),
        (Some("DELETED"), Some("a"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_history_bookmarks_and_streaming_lists() {
    let s = server_with(ApiConfig {
        bookmark_interval: Duration::from_millis(100),
        ..ApiConfig::default()
    })
    .await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let a = h
        .post(CT, &crontab("a", json!({})))
        .await
        .expect(201)
        .json();
    h.post(CT, &crontab("b", json!({}))).await.expect(201);
    h.merge(&format!("{CT}/a"), &json!({"spec": {"image": "j"}}))
        .await
        .expect(200);
    // From a's revision: what followed, in order.
    let mut w = h
        .watch(&format!("{CT}?watch=true&resourceVersion={}", rv(&a)))
        .await;
    let got: Vec<(String, String)> = [w.next().await, w.next().await]
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_owned(),
                e["object"]["metadata"]["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("ADDED".into(), "b".into()),
            ("MODIFIED".into(), "a".into())
        ]
    );
    // Bookmarks come when asked for, carrying a revision at least the last event's.
    let mut w = h
        .watch(&format!(
            "{CT}?watch=true&allowWatchBookmarks=true&resourceVersion={}",
            rv(&a)
        ))
        .await;
    let mut last = 0;
    loop {
        let e = w.next().await;
        let r = rv(&e["object"]);
        if e["type"] == "BOOKMARK" {
            assert!(r >= last);
            assert_eq!(e["object"]["kind"], "CronTab");
            break;
        }
        last = r;
    }
    // Streaming list: the current state, then the end-of-initial-events bookmark.
    let mut w = h
        .watch(&format!("{CT}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion="))
        .await;
    let mut added = Vec::new();
    loop {
        let e = w.next().await;
        if e["type"] == "BOOKMARK" {
            assert_eq!(
                e["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
                "true"
            );
            break;
        }
        assert_eq!(e["type"], "ADDED");
        added.push(e["object"]["metadata"]["name"].as_str().unwrap().to_owned());
    }
    assert_eq!(added, ["a", "b"]);
    // validateWatchOptions.
    for (q, msg) in [
        (
            "sendInitialEvents=true&allowWatchBookmarks=true",
            "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ),
        (
            "resourceVersionMatch=NotOlderThan&resourceVersion=1",
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        ),
        (
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
            "allowWatchBookmarks: Forbidden: allowWatchBookmarks must be set to true when sendInitialEvents is true",
        ),
    ] {
        let e = h
            .get(&format!("{CT}?watch=true&{q}"))
            .await
            .expect(422)
            .json();
        assert_eq!(
            e["message"],
            format!("ListOptions.meta.k8s.io \"\" is invalid: {msg}"),
            "{q}"
        );
    }
    // Through kube-rs: a raw watch with bookmarks.
    let api: Api<DynamicObject> = Api::namespaced_with(kube_client(&s), "default", &ar());
    let mut stream = api
        .watch(&WatchParams::default(), &rv(&a).to_string())
        .await
        .unwrap()
        .boxed();
    let mut saw_bookmark = false;
    for _ in 0..10 {
        match tokio::time::timeout(Duration::from_secs(5), stream.next()).await {
            Ok(Some(Ok(WatchEvent::Bookmark(_)))) => {
                saw_bookmark = true;
                break;
            }
            Ok(Some(Ok(_))) => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(saw_bookmark);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_without_resource_version_are_invalid_for_custom_resources() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let mut obj = h
        .post(CT, &crontab("u", json!({})))
        .await
        .expect(201)
        .json();
    obj["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    let e = h.put(&format!("{CT}/u"), &obj).await.expect(422).json();
    assert_eq!(
        e["message"],
        "crontabs.stable.example.com \"u\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
    );
    assert_eq!(
        e["details"],
        json!({"name": "u", "group": "stable.example.com", "kind": "crontabs",
            "causes": [{"reason": "FieldValueInvalid", "message": "Invalid value: 0x0: must be specified for an update", "field": "metadata.resourceVersion"}]})
    );
    // A stale one is a conflict; namespaces update unconditionally.
    obj["metadata"]["resourceVersion"] = json!("1");
    let e = h.put(&format!("{CT}/u"), &obj).await.expect(409).json();
    assert_eq!(
        e["message"],
        "Operation cannot be fulfilled on crontabs.stable.example.com \"u\": the object has been modified; please apply your changes to the latest version and try again"
    );
    h.post("/api/v1/namespaces", &json!({"metadata": {"name": "n1"}}))
        .await
        .expect(201);
    h.put(
        "/api/v1/namespaces/n1",
        &json!({"metadata": {"name": "n1", "labels": {"x": "y"}}}),
    )
    .await
    .expect(200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pagination_expired_continue_and_resource_version_match() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let mut revs = Vec::new();
    for i in 0..5 {
        revs.push(rv(&h
            .post(CT, &crontab(&format!("c{i}"), json!({})))
            .await
            .expect(201)
            .json()));
    }
    // Pages of two, read at one revision.
    let p1 = h.get(&format!("{CT}?limit=2")).await.expect(200).json();
    assert_eq!(p1["items"].as_array().unwrap().len(), 2);
    let token = p1["metadata"]["continue"].as_str().unwrap().to_owned();
    h.post(CT, &crontab("c5", json!({}))).await.expect(201);
    let p2 = h
        .get(&format!("{CT}?limit=2&continue={token}"))
        .await
        .expect(200)
        .json();
    assert_eq!(
        p2["metadata"]["resourceVersion"],
        p1["metadata"]["resourceVersion"]
    );
    assert_eq!(p2["items"][0]["metadata"]["name"], "c2");
    let token2 = p2["metadata"]["continue"].as_str().unwrap().to_owned();
    // Exact reads the past; NotOlderThan a future revision is a 504.
    let old = h
        .get(&format!(
            "{CT}?resourceVersion={}&resourceVersionMatch=Exact",
            revs[1]
        ))
        .await
        .expect(200)
        .json();
    assert_eq!(old["items"].as_array().unwrap().len(), 2);
    assert_eq!(old["metadata"]["resourceVersion"], revs[1].to_string());
    h.get(&format!(
        "{CT}?resourceVersion=99999&resourceVersionMatch=NotOlderThan"
    ))
    .await
    .expect(504);
    for (q, msg) in [
        (
            "resourceVersion=0&resourceVersionMatch=Exact",
            "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
        ),
        (
            "resourceVersion=1&resourceVersionMatch=Newest",
            "resourceVersionMatch: Unsupported value: \"Newest\": supported values: \"Exact\", \"NotOlderThan\", \"\"",
        ),
        (
            "sendInitialEvents=true",
            "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list",
        ),
    ] {
        let e = h.get(&format!("{CT}?{q}")).await.expect(422).json();
        assert_eq!(
            e["message"],
            format!("ListOptions.meta.k8s.io \"\" is invalid: {msg}"),
            "{q}"
        );
    }
    // Compaction: the continue token expires (410 with a token to go on at the latest revision),
    // and so does an exact read of the past.
    let now = rv(&h.get(CT).await.json());
    s.storage().compact(now).await.unwrap();
    let e = h
        .get(&format!("{CT}?limit=2&continue={token2}"))
        .await
        .expect(410)
        .json();
    assert_eq!(e["reason"], "Expired");
    assert!(e["message"].as_str().unwrap().starts_with("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response"));
    let fresh = e["metadata"]["continue"].as_str().unwrap().to_owned();
    let rest = h
        .get(&format!("{CT}?continue={fresh}"))
        .await
        .expect(200)
        .json();
    let names: Vec<&str> = rest["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["c4", "c5"]);
    let e = h
        .get(&format!(
            "{CT}?resourceVersion={}&resourceVersionMatch=Exact",
            revs[1]
        ))
        .await
        .expect(410)
        .json();
    assert_eq!(
        e["message"],
        "The resourceVersion for the provided list is too old."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_options_are_validated() {
    let s = server().await;
    let h = Http::of(&s);
    h.crd("resourcedefinition.yaml").await;
    let obj = h
        .post(CT, &crontab("d", json!({})))
        .await
        .expect(201)
        .json();
    let del = |body: Value| {
        let path = format!("{CT}/d");
        async move {
            h.send(
                "DELETE",
                &path,
                &[("content-type", "application/json")],
                Some(body.to_string().into_bytes()),
            )
            .await
        }
    };
    let e = del(json!({"propagationPolicy": "Sideways"}))
        .await
        .expect(422)
        .json();
    assert_eq!(
        e["message"],
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sideways\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
    );
    let e = del(json!({"propagationPolicy": "Orphan", "orphanDependents": true}))
        .await
        .expect(422)
        .json();
    assert!(e["message"].as_str().unwrap().ends_with("propagationPolicy: Invalid value: \"Orphan\": orphanDependents and deletionPropagation cannot be both set"), "{e}");
    let e = del(json!({"preconditions": {"uid": "nope"}}))
        .await
        .expect(409)
        .json();
    assert_eq!(
        e["message"],
        format!(
            "Operation cannot be fulfilled on CronTab.stable.example.com \"d\": the UID in the precondition (nope) does not match the UID in record ({}). The object might have been deleted and then recreated",
            obj["metadata"]["uid"].as_str().unwrap()
        )
    );
    let e = del(json!({"preconditions": {"resourceVersion": "1"}}))
        .await
        .expect(409)
        .json();
    assert!(e["message"].as_str().unwrap().contains("the ResourceVersion in the precondition (1) does not match the ResourceVersion in record"), "{e}");
    del(json!({"preconditions": {"uid": obj["metadata"]["uid"]}}))
        .await
        .expect(200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_maps_are_served_and_discovered() {
    let s = server().await;
    let c = kube_client(&s);
    let api: Api<ConfigMap> = Api::namespaced(c.clone(), "default");
    let cm: ConfigMap =
        serde_json::from_value(json!({"metadata": {"name": "cfg"}, "data": {"a": "1"}})).unwrap();
    let created = api.create(&PostParams::default(), &cm).await.unwrap();
    assert_eq!(created.metadata.generation, None);
    assert!(created.metadata.uid.is_some());
    // A strategic merge patch, as built-in kinds take.
    let p = api
        .patch(
            "cfg",
            &PatchParams::default(),
            &Patch::Strategic(json!({"data": {"b": "2"}})),
        )
        .await
        .unwrap();
    assert_eq!(p.data.unwrap().len(), 2);
    let d = kube::Discovery::new(c).run().await.unwrap();
    let (ar, caps) = d
        .groups()
        .flat_map(|g| g.recommended_resources())
        .find(|(ar, _)| ar.kind == "ConfigMap")
        .expect("ConfigMap discovered");
    assert_eq!(
        (ar.group.as_str(), ar.version.as_str(), ar.plural.as_str()),
        ("", "v1", "configmaps")
    );
    assert_eq!(caps.scope, kube::discovery::Scope::Namespaced);
    let h = Http::of(&s);
    let legacy = h.get("/api/v1").await.expect(200).json();
    let names: Vec<&str> = legacy["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"configmaps") && names.contains(&"namespaces"),
        "{names:?}"
    );
    let doc = h.get("/openapi/v3/api/v1").await.expect(200).json();
    assert!(
        doc["paths"]
            .get("/api/v1/namespaces/{namespace}/configmaps")
            .is_some()
    );
}
