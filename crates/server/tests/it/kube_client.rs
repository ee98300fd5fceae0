//! kube-rs 5.0 against the server: discovery, dynamic and typed `Api`s, status patches, the
//! finalizer helper's patches, `await_condition`, and the watcher (list+watch and streaming
//! lists), as a controller under test uses them (research report §4).

use std::time::Duration;

use futures_util::{StreamExt, TryStreamExt};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Client;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use kube::discovery::{Discovery, Scope};
use kube::runtime::wait::{await_condition, conditions};
use kube::runtime::watcher;
use serde_json::json;

use crate::common::{manifest_json, server};

fn client(s: &crdkit_server::ApiServer) -> Client {
    let config = kube::Config::new(s.url().parse().expect("URL"));
    Client::try_from(config).expect("client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_dynamic_api_and_status() {
    let s = server().await;
    let c = client(&s);
    let crds: Api<CustomResourceDefinition> = Api::all(c.clone());
    let crd: CustomResourceDefinition =
        serde_json::from_value(manifest_json("resourcedefinition-subresources.yaml")).unwrap();
    crds.create(&PostParams::default(), &crd)
        .await
        .expect("CRD created");
    let established = await_condition(
        crds.clone(),
        "crontabs.stable.example.com",
        conditions::is_crd_established(),
    );
    tokio::time::timeout(Duration::from_secs(10), established)
        .await
        .expect("in time")
        .expect("established");

    let discovery = Discovery::new(c.clone()).run().await.expect("discovery");
    let (ar, caps) = discovery
        .groups()
        .flat_map(|g| g.recommended_resources())
        .find(|(ar, _)| ar.kind == "CronTab")
        .expect("CronTab discovered");
    assert_eq!(ar.plural, "crontabs");
    assert_eq!(caps.scope, Scope::Namespaced);
    assert!(
        caps.subresources
            .iter()
            .any(|(sr, _)| sr.plural == "crontabs/scale" || sr.plural == "scale"),
        "{:?}",
        caps.subresources
    );

    let api: Api<DynamicObject> = Api::namespaced_with(c.clone(), "default", &ar);
    let obj: DynamicObject =
        serde_json::from_value(manifest_json("my-crontab-replicas.yaml")).unwrap();
    let created = api
        .create(&PostParams::default(), &obj)
        .await
        .expect("created");
    assert_eq!(created.metadata.generation, Some(1));
    let patched = api
        .patch_status(
            "my-new-cron-object",
            &PatchParams::default(),
            &Patch::Merge(json!({"status": {"replicas": 2}})),
        )
        .await
        .expect("status patched");
    assert_eq!(patched.data["status"]["replicas"], 2);
    assert_eq!(patched.metadata.generation, Some(1));
    let scale = api.get_scale("my-new-cron-object").await.expect("scale");
    assert_eq!(scale.spec.and_then(|s| s.replicas), Some(3));
    let listed = api
        .list(&ListParams::default().fields("metadata.name=my-new-cron-object"))
        .await
        .expect("list");
    assert_eq!(listed.items.len(), 1);
    // A conflict is a typed 409.
    let mut stale = created.clone();
    stale.data["spec"]["replicas"] = json!(4);
    let err = api
        .replace("my-new-cron-object", &PostParams::default(), &stale)
        .await
        .unwrap_err();
    match err {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (409, "Conflict")),
        other => panic!("{other}"),
    }
    api.delete("my-new-cron-object", &DeleteParams::default())
        .await
        .expect("deleted");
    assert!(
        api.get_opt("my-new-cron-object")
            .await
            .expect("get")
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watcher_sees_every_change_and_finalizers() {
    let s = server().await;
    let c = client(&s);
    let crds: Api<CustomResourceDefinition> = Api::all(c.clone());
    let crd: CustomResourceDefinition =
        serde_json::from_value(manifest_json("resourcedefinition.yaml")).unwrap();
    crds.create(&PostParams::default(), &crd)
        .await
        .expect("CRD created");
    let ar = kube::discovery::ApiResource {
        group: "stable.example.com".into(),
        version: "v1".into(),
        api_version: "stable.example.com/v1".into(),
        kind: "CronTab".into(),
        plural: "crontabs".into(),
    };
    let api: Api<DynamicObject> = Api::namespaced_with(c.clone(), "default", &ar);
    for (name, config) in [
        ("a", watcher::Config::default()),
        ("b", watcher::Config::default().streaming_lists()),
    ] {
        let mut events = watcher(api.clone(), config.clone()).boxed();
        // The initial list: nothing yet (or a's object for b).
        loop {
            match tokio::time::timeout(Duration::from_secs(10), events.try_next())
                .await
                .expect("event")
                .expect("ok")
            {
                Some(watcher::Event::InitDone) => break,
                Some(_) => {}
                None => panic!("ended"),
            }
        }
        let obj: DynamicObject = serde_json::from_value(json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": name}, "spec": {}})).unwrap();
        api.create(&PostParams::default(), &obj)
            .await
            .expect("created");
        let e = tokio::time::timeout(Duration::from_secs(10), events.try_next())
            .await
            .expect("event")
            .expect("ok");
        match e {
            Some(watcher::Event::Apply(o)) => assert_eq!(o.metadata.name.as_deref(), Some(name)),
            other => panic!("{other:?}"),
        }
        // The finalizer helper's JSON patches: add, then delete, then remove.
        let add = json!([{"op": "test", "path": "/metadata/finalizers", "value": null},
            {"op": "add", "path": "/metadata/finalizers", "value": ["stable.example.com/cleanup"]}]);
        api.patch(
            name,
            &PatchParams::default(),
            &Patch::Json::<()>(serde_json::from_value(add).unwrap()),
        )
        .await
        .expect("finalizer added");
        api.delete(name, &DeleteParams::default())
            .await
            .expect("delete accepted");
        let rm = json!([{"op": "test", "path": "/metadata/finalizers/0", "value": "stable.example.com/cleanup"},
            {"op": "remove", "path": "/metadata/finalizers/0"}]);
        api.patch(
            name,
            &PatchParams::default(),
            &Patch::Json::<()>(serde_json::from_value(rm).unwrap()),
        )
        .await
        .expect("finalizer removed");
        let deleted = await_condition(api.clone(), name, conditions::is_deleted(""));
        tokio::time::timeout(Duration::from_secs(10), deleted)
            .await
            .expect("in time")
            .expect("deleted");
        let mut saw_delete = false;
        while let Ok(Ok(Some(e))) =
            tokio::time::timeout(Duration::from_secs(5), events.try_next()).await
        {
            if let watcher::Event::Delete(o) = e {
                assert_eq!(o.metadata.name.as_deref(), Some(name));
                saw_delete = true;
                break;
            }
        }
        assert!(saw_delete, "{name}: the watcher saw the delete");
    }
}

#[cfg(feature = "kube")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_server_hands_out_a_client() {
    let s = server().await;
    let c = s.client().expect("client");
    let v = c.apiserver_version().await.expect("version");
    assert_eq!((v.major.as_str(), v.minor.as_str()), ("1", "32"));
}
