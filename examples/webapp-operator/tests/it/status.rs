//! The WebApp's status follows its Deployment's. No Pod runs, so the test writes the
//! Deployment's `/status` as the Deployment controller would once Pods are ready.

use crdkit_example_webapp::status::READY;
use kube::api::{Patch, PatchParams};
use serde_json::json;

use crate::common::{start, webapp};

fn ready_condition(app: &crdkit_example_webapp::WebApp) -> Option<(String, String)> {
    let c = app
        .status
        .as_ref()?
        .conditions
        .iter()
        .find(|c| c.type_ == READY)?;
    Some((c.status.clone(), c.message.clone()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_follows_the_deployments_status() {
    let op = start().await;
    let app = op.create(&webapp("shop", 2)).await;
    let not_ready = ready_condition(&app).unwrap();
    assert_eq!(not_ready, ("False".into(), "0/2 replicas ready".into()));

    // The Deployment controller's report, written through /status: the spec is untouched.
    let pp = PatchParams::default();
    let report = json!({"status": {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2,
        "readyReplicas": 2, "availableReplicas": 2}});
    let d = op
        .deployments
        .patch_status("shop", &pp, &Patch::Merge(&report))
        .await
        .unwrap();
    assert_eq!(d.metadata.generation, Some(1));
    let app = op
        .env
        .wait_for(&op.apps, "shop", |a| {
            a.status.as_ref().is_some_and(|s| s.ready_replicas == 2)
        })
        .await
        .unwrap();
    assert_eq!(
        ready_condition(&app).unwrap(),
        ("True".into(), "2/2 replicas ready".into())
    );
    let became_ready = app.status.as_ref().unwrap().conditions[0]
        .last_transition_time
        .clone();

    // Scaled up: the Deployment asks for more than are ready.
    let patch = json!({"spec": {"replicas": 3}});
    op.apps
        .patch("shop", &pp, &Patch::Merge(&patch))
        .await
        .unwrap();
    let app = op.reconciled("shop").await;
    let st = app.status.as_ref().unwrap();
    assert_eq!(
        (st.replicas, st.ready_replicas, st.observed_generation),
        (3, 2, 2)
    );
    assert_eq!(
        ready_condition(&app).unwrap(),
        ("False".into(), "2/3 replicas ready".into())
    );
    assert!(st.conditions[0].last_transition_time.0 >= became_ready.0);
    assert_eq!(st.conditions[0].observed_generation, Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webapp_scaled_to_zero_is_ready() {
    let op = start().await;
    let app = op.create(&webapp("idle", 0)).await;
    let st = app.status.as_ref().unwrap();
    assert_eq!((st.replicas, st.ready_replicas), (0, 0));
    assert_eq!(
        ready_condition(&app).unwrap(),
        ("True".into(), "0/0 replicas ready".into())
    );
    let d = op.env.get(&op.deployments, "idle").await.unwrap();
    assert_eq!(d.spec.replicas, Some(0));
}
