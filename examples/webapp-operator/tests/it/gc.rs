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
