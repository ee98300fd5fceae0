//! What the controller does and what the API server checks on its way.

use std::sync::atomic::Ordering;

use crdkit_example_operator::{CronTab, FINALIZER};
use k8s_openapi::api::events::v1::Event as K8sEvent;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::common::{Op, api_error, crontab, data, start};

fn dynamic(op: &Op) -> Api<DynamicObject> {
    let ar = kube::discovery::ApiResource::erase::<CronTab>(&());
    Api::namespaced_with(op.env.client(), "default", &ar)
}

#[tokio::test]
async fn a_new_crontab_gets_the_finalizer() {
    let op = start().await;
    let ct = op.create("a", 1).await;
    assert_eq!(ct.finalizers(), [FINALIZER]);
}

#[tokio::test]
async fn the_status_reports_replicas_and_generation() {
    let op = start().await;
    let ct = op.create("a", 3).await;
    let s = ct.status.unwrap();
    assert_eq!((s.replicas, s.observed_generation), (3, 1));
    assert_eq!(s.phase.as_deref(), Some("Active"));
    assert_eq!(s.config_map.as_deref(), Some("a-schedule"));
}

#[tokio::test]
async fn the_config_map_is_owned_and_labelled() {
    let op = start().await;
    let ct = op.create("a", 1).await;
    let cm = op.config_map("a", |_| true).await;
    assert_eq!(cm.labels().get("crontab").map(String::as_str), Some("a"));
    let refs = cm.owner_references();
    assert_eq!(refs.len(), 1);
    assert_eq!(Some(&refs[0].uid), ct.metadata.uid.as_ref());
    assert_eq!(data(&cm, "image"), "busybox:1");
}

#[tokio::test]
async fn a_spec_change_reaches_the_config_map() {
    let op = start().await;
    op.create("a", 1).await;
    op.api
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"cronSpec": "1 2 3 4 5"}})),
        )
        .await
        .unwrap();
    op.config_map("a", |cm| data(cm, "schedule") == "1 2 3 4 5")
        .await;
}

#[tokio::test]
async fn suspending_shows_in_status_and_config_map() {
    let op = start().await;
    op.create("a", 1).await;
    op.api
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"suspend": true}})),
        )
        .await
        .unwrap();
    op.config_map("a", |cm| data(cm, "schedule") == "suspended")
        .await;
    let ct = op
        .env
        .wait_for(&op.api, "a", |ct| {
            ct.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Suspended")
        })
        .await
        .unwrap();
    assert_eq!(ct.spec.suspend, Some(true));
}

#[tokio::test]
async fn scaling_through_the_subresource_is_reconciled() {
    let op = start().await;
    op.create("a", 1).await;
    let mut scale = op.api.get_scale("a").await.unwrap();
    assert_eq!(scale.spec.as_ref().unwrap().replicas, Some(1));
    assert_eq!(
        scale.status.as_ref().unwrap().selector.as_deref(),
        Some("crontab=a")
    );
    scale.spec.as_mut().unwrap().replicas = Some(4);
    op.api
        .replace_scale("a", &PostParams::default(), &scale)
        .await
        .unwrap();
    op.config_map("a", |cm| data(cm, "replicas") == "4").await;
    assert_eq!(op.reconciled("a").await.status.unwrap().replicas, 4);
}

#[tokio::test]
async fn scaling_beyond_the_maximum_is_rejected() {
    let op = start().await;
    op.create("a", 1).await;
    let e = api_error(
        op.api
            .patch_scale(
                "a",
                &PatchParams::default(),
                &Patch::Merge(json!({"spec": {"replicas": 11}})),
            )
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 422);
    assert!(
        e.message.contains("spec.replicas: Invalid value: 11"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn the_image_is_immutable() {
    let op = start().await;
    let mut ct = op.create("a", 1).await;
    ct.spec.image = "other".into();
    let e = api_error(
        op.api
            .replace("a", &PostParams::default(), &ct)
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 422);
    assert_eq!(e.details.unwrap().causes[0].field, "spec.image");
}

#[tokio::test]
async fn invalid_objects_are_rejected_at_create() {
    let op = start().await;
    let mut bad = crontab("bad", 1);
    bad.spec.cron_spec = "every minute".into();
    let e = api_error(
        op.api
            .create(&PostParams::default(), &bad)
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 422);
    assert!(
        e.message
            .contains("spec.cronSpec: Invalid value: \"every minute\""),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn defaults_and_pruning_apply() {
    let op = start().await;
    let d = dynamic(&op);
    let obj: DynamicObject = serde_json::from_value(json!({"apiVersion": "stable.example.com/v1",
        "kind": "CronTab", "metadata": {"name": "d"},
        "spec": {"image": "busybox:1", "unknownField": 1}}))
    .unwrap();
    let made = d.create(&PostParams::default(), &obj).await.unwrap();
    assert_eq!(
        made.data["spec"],
        json!({"cronSpec": "5 0 * * *", "image": "busybox:1", "replicas": 1})
    );
    op.reconciled("d").await;
}

#[tokio::test]
async fn the_status_is_not_writable_through_the_main_resource() {
    let op = start().await;
    op.create("a", 2).await;
    let r = op
        .api
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"status": {"replicas": 9}})),
        )
        .await
        .unwrap();
    assert_eq!(r.status.unwrap().replicas, 2);
}

#[tokio::test]
async fn status_writes_do_not_change_the_generation() {
    let op = start().await;
    let ct = op.create("a", 2).await;
    assert_eq!(ct.metadata.generation, Some(1));
    op.api
        .patch_status(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"status": {"phase": "X"}})),
        )
        .await
        .unwrap();
    // The controller puts its status back; the generation stays.
    let ct = op
        .env
        .wait_for(&op.api, "a", |ct| {
            ct.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Active")
        })
        .await
        .unwrap();
    assert_eq!(ct.metadata.generation, Some(1));
}

#[tokio::test]
async fn a_deleted_config_map_is_recreated() {
    let op = start().await;
    op.create("a", 1).await;
    let first = op.config_map("a", |_| true).await;
    op.cms
        .delete("a-schedule", &DeleteParams::default())
        .await
        .unwrap();
    let again = op
        .config_map("a", |cm| cm.metadata.uid != first.metadata.uid)
        .await;
    assert_eq!(data(&again, "replicas"), "1");
}

#[tokio::test]
async fn a_hand_edited_config_map_is_put_back() {
    let op = start().await;
    op.create("a", 1).await;
    op.config_map("a", |_| true).await;
    op.cms
        .patch(
            "a-schedule",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"image": "hacked"}})),
        )
        .await
        .unwrap();
    op.config_map("a", |cm| data(cm, "image") == "busybox:1")
        .await;
}

#[tokio::test]
async fn deleting_runs_the_cleanup_once() {
    let op = start().await;
    op.create("a", 1).await;
    op.api.delete("a", &DeleteParams::default()).await.unwrap();
    op.env.wait_deleted(&op.api, "a").await.unwrap();
    assert_eq!(op.ctx.cleanups.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn events_are_recorded() {
    let op = start().await;
    op.create("a", 1).await;
    op.api.delete("a", &DeleteParams::default()).await.unwrap();
    op.env.wait_deleted(&op.api, "a").await.unwrap();
    let events: Api<K8sEvent> = op.env.api();
    let reasons: Vec<String> = events
        .list(&Default::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|e| e.reason)
        .collect();
    assert!(reasons.contains(&"Reconciled".to_owned()), "{reasons:?}");
    assert!(reasons.contains(&"Deleted".to_owned()), "{reasons:?}");
}

#[tokio::test]
async fn crontabs_in_other_namespaces_are_reconciled() {
    let op = start().await;
    let ns = op.env.fresh_namespace("team").await.unwrap();
    let api: Api<CronTab> = Api::namespaced(op.env.client(), &ns);
    api.create(&PostParams::default(), &crontab("x", 1))
        .await
        .unwrap();
    let ct = op
        .env
        .wait_for(&api, "x", |ct| ct.status.is_some())
        .await
        .unwrap();
    assert_eq!(ct.namespace().as_deref(), Some(ns.as_str()));
}

#[tokio::test]
async fn the_finalizer_is_added_once() {
    let op = start().await;
    op.create("a", 1).await;
    op.api
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 2}})),
        )
        .await
        .unwrap();
    op.reconciled("a").await;
    let finalizer_patches = op
        .env
        .requests()
        .iter()
        .filter(|r| {
            r.method == "PATCH"
                && r.path.ends_with("/crontabs/a")
                && r.content_type == "application/json-patch+json"
        })
        .count();
    assert_eq!(finalizer_patches, 1);
    assert!(op.ctx.reconciles.load(Ordering::SeqCst) >= 2);
}

#[tokio::test]
async fn status_writes_go_through_the_status_subresource() {
    let op = start().await;
    op.create("a", 1).await;
    let status_writes: Vec<_> = op
        .env
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with("/crontabs/a/status"))
        .collect();
    assert!(!status_writes.is_empty());
    assert!(status_writes.iter().all(|r| r.method == "PATCH"
        && r.content_type == "application/merge-patch+json"
        && r.status == 200));
}
