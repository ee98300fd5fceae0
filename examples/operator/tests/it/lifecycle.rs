//! The end-to-end flow the issue asks for: create, update, scale, status, a rejected invalid
//! update (CEL transition rule), a conflict on a stale resourceVersion, delete with the
//! finalizer. Run on memory here and on etcd in `etcd.rs`.

use std::sync::atomic::Ordering;

use crdkit_example_operator::FINALIZER;
use kube::ResourceExt;
use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::common::{Op, api_error, data, start};

pub async fn lifecycle(op: &Op) {
    // Create: the finalizer, the status, the owned ConfigMap.
    let ct = op.create("nightly", 2).await;
    assert_eq!(ct.finalizers(), [FINALIZER]);
    let status = ct.status.clone().unwrap();
    assert_eq!((status.replicas, status.observed_generation), (2, 1));
    assert_eq!(status.label_selector.as_deref(), Some("crontab=nightly"));
    let cm = op.config_map("nightly", |_| true).await;
    assert_eq!(data(&cm, "schedule"), "*/5 * * * *");
    let owner = &cm.metadata.owner_references.as_ref().unwrap()[0];
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str()),
        ("CronTab", "nightly")
    );
    assert_eq!(
        (owner.controller, owner.block_owner_deletion),
        (Some(true), Some(true))
    );
    assert_eq!(Some(&owner.uid), ct.metadata.uid.as_ref());

    // Update: the ConfigMap follows, the status observes the new generation.
    op.api
        .patch(
            "nightly",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"cronSpec": "0 3 * * *"}})),
        )
        .await
        .unwrap();
    op.config_map("nightly", |cm| data(cm, "schedule") == "0 3 * * *")
        .await;
    let ct = op.reconciled("nightly").await;
    assert_eq!(ct.status.unwrap().observed_generation, 2);

    // Scale through the scale subresource: spec, status and ConfigMap follow.
    op.api
        .patch_scale(
            "nightly",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 5}})),
        )
        .await
        .unwrap();
    op.config_map("nightly", |cm| data(cm, "replicas") == "5")
        .await;
    let ct = op.reconciled("nightly").await;
    assert_eq!(ct.spec.replicas, 5);
    let scale = op.api.get_scale("nightly").await.unwrap();
    assert_eq!(scale.status.unwrap().replicas, 5);

    // The CEL transition rule: the image is fixed.
    let e = api_error(
        op.api
            .patch(
                "nightly",
                &PatchParams::default(),
                &Patch::Merge(json!({"spec": {"image": "busybox:2"}})),
            )
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 422);
    assert_eq!(
        e.message,
        "CronTab.stable.example.com \"nightly\" is invalid: spec.image: Invalid value: \"busybox:2\": image is immutable"
    );

    // A stale resourceVersion: 409.
    let mut stale = ct.clone();
    stale.metadata.resource_version = Some("1".into());
    let e = api_error(
        op.api
            .replace("nightly", &PostParams::default(), &stale)
            .await
            .unwrap_err(),
    );
    assert_eq!((e.code, e.reason.as_str()), (409, "Conflict"));

    // Delete: the finalizer holds the object until the controller cleaned up, then it goes,
    // and the ConfigMap with it.
    op.api
        .delete("nightly", &DeleteParams::default())
        .await
        .unwrap();
    op.env.wait_deleted(&op.api, "nightly").await.unwrap();
    assert_eq!(op.ctx.cleanups.load(Ordering::SeqCst), 1);
    op.env
        .wait_deleted(&op.cms, "nightly-schedule")
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_in_memory() {
    let op = start().await;
    lifecycle(&op).await;
}
