//! Drift: owned objects deleted or edited by hand are put back by the operator, woken by its
//! watches on the owned kinds (`Controller::owns`), not by a resync.

use std::fmt::Debug;

use crdkit_envtest::TestEnv;
use crdkit_example_webapp::owned::MANAGED_BY_LABEL;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::{Resource, ResourceExt};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::common::{controlled_by, start, webapp};

/// Deletes `name` and waits for the operator to create it again (a new uid).
async fn deleted_comes_back<K>(env: &TestEnv, api: &Api<K>, name: &str) -> K
where
    K: Resource + Clone + Debug + Send + DeserializeOwned + 'static,
    K::DynamicType: Default,
{
    let old = env.get(api, name).await.unwrap().uid();
    api.delete(name, &DeleteParams::default()).await.unwrap();
    env.wait_for(api, name, |o| {
        o.uid() != old && o.meta().deletion_timestamp.is_none()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleted_owned_objects_come_back() {
    let op = start().await;
    let app = op.create(&webapp("shop", 2)).await;
    let env = &op.env;
    let sa = deleted_comes_back(env, &op.accounts, "shop").await;
    assert!(controlled_by(sa.metadata.owner_references.as_ref(), &app));
    let secret = deleted_comes_back(env, &op.secrets, "shop").await;
    assert_eq!(secret.data.unwrap()["TOKEN"].0, b"s3cr3t");
    let d = deleted_comes_back(env, &op.deployments, "shop").await;
    assert_eq!(d.spec.replicas, Some(2));
    assert_eq!(d.metadata.generation, Some(1));
    let old_ip = app.status.as_ref().unwrap().cluster_ip.clone();
    let svc = deleted_comes_back(env, &op.services, "shop").await;
    let ip = svc.spec.unwrap().cluster_ip;
    // A new Service gets a cluster IP of its own; the status follows it.
    env.wait_for(&op.apps, "shop", |a| {
        a.status.as_ref().is_some_and(|s| s.cluster_ip == ip)
    })
    .await
    .unwrap();
    assert!(ip.is_some() && old_ip.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hand_edits_of_the_operators_fields_are_put_back() {
    let op = start().await;
    let app = op.create(&webapp("shop", 2)).await;
    let env = &op.env;
    let by_hand = PatchParams {
        field_manager: Some("kubectl-edit".into()),
        ..PatchParams::default()
    };

    // Deployment: image and replicas changed (strategic merge patch, as `kubectl patch`).
    let edit = json!({"spec": {"replicas": 5, "template": {"spec": {"containers": [
        {"name": "web", "image": "evil:1"}]}}}});
    op.deployments
        .patch("shop", &by_hand, &Patch::Strategic(&edit))
        .await
        .unwrap();
    let d = env
        .wait_for(&op.deployments, "shop", |d| {
            let c = &d.spec.template.spec.as_ref().unwrap().containers[0];
            d.spec.replicas == Some(2) && c.image.as_deref() == Some("nginx:1.27")
        })
        .await
        .unwrap();
    // Two template changes: the edit and its reversal.
    assert_eq!(d.metadata.generation, Some(3));

    // Scaled through `/scale` (as `kubectl scale` and autoscalers do): scaled back.
    let scale = json!({"spec": {"replicas": 7}});
    let scaled = op
        .deployments
        .patch_scale("shop", &by_hand, &Patch::Merge(&scale))
        .await
        .unwrap();
    assert_eq!(scaled.spec.and_then(|s| s.replicas), Some(7));
    env.wait_for(&op.deployments, "shop", |d| {
        d.spec.replicas == Some(2) && d.metadata.generation == Some(5)
    })
    .await
    .unwrap();

    // Service: the target port changed. (Not the port: ports are a map keyed by port and
    // protocol, so another port is another entry, the editor's, which the operator's apply
    // keeps; both named `http`, the API server refuses the merge.)
    let edit = json!({"spec": {"ports": [{"name": "http", "port": 80, "targetPort": 9999}]}});
    op.services
        .patch("shop", &by_hand, &Patch::Merge(&edit))
        .await
        .unwrap();
    env.wait_for(&op.services, "shop", |s| {
        let port = &s.spec.as_ref().unwrap().ports.as_ref().unwrap()[0];
        port.target_port == Some(IntOrString::String("http".into()))
    })
    .await
    .unwrap();

    // Secret: a key overwritten in `data` (the operator gives it as `stringData`).
    let edit = json!({"data": {"TOKEN": "c3RvbGVu"}});
    op.secrets
        .patch("shop", &by_hand, &Patch::Merge(&edit))
        .await
        .unwrap();
    env.wait_for(&op.secrets, "shop", |s| {
        s.data.as_ref().unwrap()["TOKEN"].0 == b"s3cr3t"
    })
    .await
    .unwrap();

    // ServiceAccount: a label and the controller reference removed.
    let edit = json!({"metadata": {"labels": {MANAGED_BY_LABEL: null}, "ownerReferences": null}});
    op.accounts
        .patch("shop", &by_hand, &Patch::Merge(&edit))
        .await
        .unwrap();
    let sa = env
        .wait_for(&op.accounts, "shop", |s| {
            s.labels().contains_key(MANAGED_BY_LABEL) && s.metadata.owner_references.is_some()
        })
        .await
        .unwrap();
    assert!(controlled_by(sa.metadata.owner_references.as_ref(), &app));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fields_the_operator_does_not_set_are_left_alone() {
    let op = start().await;
    op.create(&webapp("shop", 2)).await;
    let by_hand = PatchParams {
        field_manager: Some("kubectl-edit".into()),
        ..PatchParams::default()
    };
    // An annotation and a default changed by hand are not the operator's: they stay, while a
    // later reconcile (a spec change) applies its own fields.
    let edit = json!({"metadata": {"annotations": {"team": "web"}},
        "spec": {"revisionHistoryLimit": 3}});
    op.deployments
        .patch("shop", &by_hand, &Patch::Merge(&edit))
        .await
        .unwrap();
    let patch = json!({"spec": {"replicas": 4}});
    op.apps
        .patch("shop", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let d = op
        .env
        .wait_for(&op.deployments, "shop", |d| d.spec.replicas == Some(4))
        .await
        .unwrap();
    assert_eq!(d.annotations()["team"], "web");
    assert_eq!(d.spec.revision_history_limit, Some(3));
}
