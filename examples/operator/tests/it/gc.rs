//! Garbage collection of the controller's ConfigMaps, and namespaces that finish deleting.

use k8s_openapi::api::core::v1::Namespace;
use kube::ResourceExt;
use kube::api::PostParams;
use kube::api::{Api, DeleteParams, ListParams, PropagationPolicy};

use crate::common::{crontab, start};

#[tokio::test]
async fn background_deletion_collects_the_config_map() {
    let op = start().await;
    op.create("g", 1).await;
    op.config_map("g", |_| true).await;
    op.api
        .delete("g", &DeleteParams::background())
        .await
        .unwrap();
    op.env.wait_deleted(&op.cms, "g-schedule").await.unwrap();
    op.env.wait_deleted(&op.api, "g").await.unwrap();
}

#[tokio::test]
async fn foreground_deletion_removes_the_config_map_first() {
    let op = start().await;
    op.create("g", 1).await;
    op.config_map("g", |_| true).await;
    op.api
        .delete("g", &DeleteParams::foreground())
        .await
        .unwrap();
    op.env.wait_deleted(&op.api, "g").await.unwrap();
    assert!(
        op.cms.get_opt("g-schedule").await.unwrap().is_none(),
        "the blocking dependent went first"
    );
}

#[tokio::test]
async fn orphaning_keeps_the_config_map() {
    let op = start().await;
    op.create("g", 1).await;
    op.config_map("g", |_| true).await;
    // An in-flight reconcile would put the owner reference back after the GC removed it.
    op.settle().await;
    op.api.delete("g", &DeleteParams::orphan()).await.unwrap();
    op.env.wait_deleted(&op.api, "g").await.unwrap();
    let cm = op
        .config_map("g", |cm| cm.owner_references().is_empty())
        .await;
    assert_eq!(cm.name_any(), "g-schedule");
}

#[tokio::test]
async fn only_the_deleted_owners_config_map_goes() {
    let op = start().await;
    op.create("keep", 1).await;
    op.create("drop", 1).await;
    op.api
        .delete("drop", &DeleteParams::default())
        .await
        .unwrap();
    op.env.wait_deleted(&op.cms, "drop-schedule").await.unwrap();
    assert!(op.cms.get_opt("keep-schedule").await.unwrap().is_some());
}

#[tokio::test]
async fn delete_collection_collects_every_config_map() {
    let op = start().await;
    for n in ["a", "b", "c"] {
        op.create(n, 1).await;
    }
    op.api
        .delete_collection(&DeleteParams::default(), &ListParams::default())
        .await
        .unwrap();
    op.env
        .eventually("no crontabs and no config maps", || {
            let (api, cms) = (op.api.clone(), op.cms.clone());
            async move {
                let n = api.list(&ListParams::default()).await.ok()?.items.len()
                    + cms.list(&ListParams::default()).await.ok()?.items.len();
                (n == 0).then_some(())
            }
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn a_namespace_with_crontabs_finishes_deleting() {
    let op = start().await;
    let ns = op.env.fresh_namespace("doomed").await.unwrap();
    let api: Api<crdkit_example_operator::CronTab> = Api::namespaced(op.env.client(), &ns);
    api.create(&PostParams::default(), &crontab("x", 1))
        .await
        .unwrap();
    // Reconciled: it has the finalizer the controller must remove.
    op.env
        .wait_for(&api, "x", |ct| ct.status.is_some())
        .await
        .unwrap();
    let namespaces: Api<Namespace> = op.env.all();
    namespaces
        .delete(&ns, &DeleteParams::default())
        .await
        .unwrap();
    op.env.wait_deleted(&namespaces, &ns).await.unwrap();
    assert!(api.get_opt("x").await.unwrap().is_none());
}

#[tokio::test]
async fn propagation_policy_reaches_the_server() {
    let op = start().await;
    op.create("g", 1).await;
    let dp = DeleteParams {
        propagation_policy: Some(PropagationPolicy::Foreground),
        ..DeleteParams::default()
    };
    let r = op.api.delete("g", &dp).await.unwrap();
    // Marked, not gone: the response is the object with both finalizers.
    let obj = r.left().expect("the object, still there");
    let fins = obj.finalizers().to_vec();
    assert!(fins.contains(&"foregroundDeletion".to_owned()), "{fins:?}");
    assert!(obj.metadata.deletion_timestamp.is_some());
    op.env.wait_deleted(&op.api, "g").await.unwrap();
}
