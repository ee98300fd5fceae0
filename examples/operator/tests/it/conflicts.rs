//! Optimistic concurrency: conflicts, preconditions, unconditional updates.

use kube::api::{DeleteParams, Patch, PatchParams, PostParams, Preconditions};
use serde_json::json;

use crate::common::{api_error, crontab, start};

#[tokio::test]
async fn two_writers_of_one_version_one_loses() {
    let op = start().await;
    let ct = op.create("c", 1).await;
    let mut a = ct.clone();
    a.spec.replicas = 2;
    let mut b = ct;
    b.spec.replicas = 3;
    op.api
        .replace("c", &PostParams::default(), &a)
        .await
        .unwrap();
    let e = api_error(
        op.api
            .replace("c", &PostParams::default(), &b)
            .await
            .unwrap_err(),
    );
    assert_eq!((e.code, e.reason.as_str()), (409, "Conflict"));
    assert_eq!(
        e.message,
        "Operation cannot be fulfilled on crontabs.stable.example.com \"c\": the object has been modified; please apply your changes to the latest version and try again"
    );
}

#[tokio::test]
async fn an_update_without_resource_version_is_invalid() {
    let op = start().await;
    let mut ct = op.create("c", 1).await;
    ct.metadata.resource_version = None;
    let e = api_error(
        op.api
            .replace("c", &PostParams::default(), &ct)
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 422);
    assert_eq!(
        e.message,
        "crontabs.stable.example.com \"c\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
    );
}

#[tokio::test]
async fn a_patch_naming_an_old_resource_version_conflicts() {
    let op = start().await;
    op.create("c", 1).await;
    let e = api_error(
        op.api
            .patch(
                "c",
                &PatchParams::default(),
                &Patch::Merge(
                    json!({"metadata": {"resourceVersion": "1"}, "spec": {"replicas": 2}}),
                ),
            )
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 409);
}

#[tokio::test]
async fn a_delete_precondition_on_resource_version() {
    let op = start().await;
    op.create("c", 1).await;
    let dp = DeleteParams {
        preconditions: Some(Preconditions {
            resource_version: Some("1".into()),
            uid: None,
        }),
        ..DeleteParams::default()
    };
    let e = api_error(op.api.delete("c", &dp).await.unwrap_err());
    assert_eq!(e.code, 409);
    assert!(
        e.message
            .contains("the ResourceVersion in the precondition (1) does not match"),
        "{}",
        e.message
    );
    assert!(op.api.get_opt("c").await.unwrap().is_some());
}

#[tokio::test]
async fn creating_twice_is_already_exists() {
    let op = start().await;
    op.api
        .create(&PostParams::default(), &crontab("c", 1))
        .await
        .unwrap();
    let e = api_error(
        op.api
            .create(&PostParams::default(), &crontab("c", 1))
            .await
            .unwrap_err(),
    );
    assert_eq!((e.code, e.reason.as_str()), (409, "AlreadyExists"));
    assert_eq!(
        e.message,
        "crontabs.stable.example.com \"c\" already exists"
    );
}

#[tokio::test]
async fn the_controller_retries_past_conflicts() {
    let op = start().await;
    op.create("c", 1).await;
    // Many writes while the controller writes the status: it converges on the last.
    for r in 2..=6 {
        op.api
            .patch(
                "c",
                &PatchParams::default(),
                &Patch::Merge(json!({"spec": {"replicas": r}})),
            )
            .await
            .unwrap();
    }
    let ct = op.reconciled("c").await;
    assert_eq!(ct.status.unwrap().replicas, 6);
}
