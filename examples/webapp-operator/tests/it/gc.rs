//! Cleanup by the garbage collector: the operator has no finalizer; the owned objects go with
//! their WebApp through their controller references.

use k8s_openapi::api::core::v1::Namespace;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, PostParams};

use crate::common::{start, webapp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_webapp_in_the_background_removes_what_it_owns() {
    let op = start().await;
    op.create(&webapp("shop", 2)).await;
    op.create(&webapp("blog", 1)).await;
    // No reconcile in flight that could apply an owned object after the collector ran.
    op.caught_up("shop").await;
    op.apps
        .delete("shop", &DeleteParams::background())
        .await
        .unwrap();
    op.env.wait_deleted(&op.apps, "shop").await.unwrap();
    op.owned_gone("shop").await;
    // The other WebApp's objects stay.
    assert!(op.env.get(&op.deployments, "blog").await.is_ok());
    assert!(op.env.get(&op.services, "blog").await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_webapp_in_the_foreground_waits_for_what_it_owns() {
    let op = start().await;
    op.create(&webapp("shop", 2)).await;
    op.caught_up("shop").await;
    // The answer is the WebApp as the delete left it: marked, held by `foregroundDeletion`
    // until the garbage collector removed the dependents that block it.
    let answer = op
        .apps
        .delete("shop", &DeleteParams::foreground())
        .await
        .unwrap();
    let marked = answer.left().expect("the WebApp, still there");
    assert!(marked.metadata.deletion_timestamp.is_some());
    assert_eq!(marked.finalizers(), ["foregroundDeletion"]);
    op.owned_gone("shop").await;
    op.env.wait_deleted(&op.apps, "shop").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_namespace_removes_webapps_and_what_they_own() {
    let op = start().await;
    let ns = op.env.fresh_namespace("team").await.unwrap();
    let apps = Api::namespaced(op.env.client(), &ns);
    let deployments =
        Api::<k8s_openapi::api::apps::v1::Deployment>::namespaced(op.env.client(), &ns);
    apps.create(&PostParams::default(), &webapp("shop", 1))
        .await
        .unwrap();
    op.env
        .wait_for(&deployments, "shop", |_| true)
        .await
        .unwrap();
    let namespaces: Api<Namespace> = op.env.all();
    namespaces
        .delete(&ns, &DeleteParams::default())
        .await
        .unwrap();
    op.env.wait_deleted(&namespaces, &ns).await.unwrap();
    assert!(deployments.get_opt("shop").await.unwrap().is_none());
    let left: Api<crdkit_example_webapp::WebApp> = apps;
    assert!(left.get_opt("shop").await.unwrap().is_none());
}

/// What a reconcile started before the deletion may still do: apply an owned object whose
/// controller reference names the WebApp that is gone. The collector removes it, as Go's does
/// with a dependent whose owners are all absent (`garbagecollector.go` `attemptToDeleteItem`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_object_applied_for_a_deleted_webapp_is_collected() {
    let op = start().await;
    let app = op.create(&webapp("shop", 1)).await;
    op.caught_up("shop").await;
    op.apps
        .delete("shop", &DeleteParams::background())
        .await
        .unwrap();
    op.env.wait_deleted(&op.apps, "shop").await.unwrap();
    op.owned_gone("shop").await;
    let late = crdkit_example_webapp::owned::service_account(&app);
    let pp = kube::api::PatchParams::apply(crdkit_example_webapp::MANAGER).force();
    let created = op
        .accounts
        .patch("shop", &pp, &kube::api::Patch::Apply(&late))
        .await
        .unwrap();
    assert_eq!(created.owner_references()[0].uid, app.uid().unwrap());
    op.env.wait_deleted(&op.accounts, "shop").await.unwrap();
}
