//! One WebApp's life, run on every storage: created with its four owned objects, an owned
//! object deleted and restored, the status following the Deployment's, deleted with the
//! owned objects.

use kube::ResourceExt;
use kube::api::{DeleteParams, Patch, PatchParams};
use serde_json::json;

use crate::common::{Op, controlled_by, start, webapp};

pub async fn lifecycle(op: &Op) {
    let app = op.create(&webapp("shop", 2)).await;
    let env = &op.env;
    let d = env.get(&op.deployments, "shop").await.unwrap();
    assert!(controlled_by(d.metadata.owner_references.as_ref(), &app));
    assert_eq!(d.spec.revision_history_limit, Some(10));
    let svc = env.get(&op.services, "shop").await.unwrap();
    assert!(controlled_by(svc.metadata.owner_references.as_ref(), &app));
    assert_eq!(
        app.status.as_ref().unwrap().cluster_ip,
        svc.spec.unwrap().cluster_ip
    );
    let secret = env.get(&op.secrets, "shop").await.unwrap();
    assert_eq!(secret.data.unwrap()["TOKEN"].0, b"s3cr3t");
    let sa = env.get(&op.accounts, "shop").await.unwrap();
    assert!(controlled_by(sa.metadata.owner_references.as_ref(), &app));

    // Drift: the Secret deleted comes back.
    op.secrets
        .delete("shop", &DeleteParams::default())
        .await
        .unwrap();
    env.wait_for(&op.secrets, "shop", |s| s.uid() != secret.metadata.uid)
        .await
        .unwrap();

    // Status from the Deployment's.
    let report = json!({"status": {"replicas": 2, "readyReplicas": 2}});
    op.deployments
        .patch_status("shop", &PatchParams::default(), &Patch::Merge(&report))
        .await
        .unwrap();
    env.wait_for(&op.apps, "shop", |a| {
        a.status.as_ref().is_some_and(|s| s.ready_replicas == 2)
    })
    .await
    .unwrap();

    op.caught_up("shop").await;
    op.apps
        .delete("shop", &DeleteParams::foreground())
        .await
        .unwrap();
    op.owned_gone("shop").await;
    env.wait_deleted(&op.apps, "shop").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_in_memory() {
    lifecycle(&start().await).await;
}
