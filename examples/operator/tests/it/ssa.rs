//! Server-side apply of CronTabs beside the controller.

use crdkit_example_operator::CronTab;
use kube::ResourceExt;
use kube::api::{Patch, PatchParams};
use serde_json::{Value, json};

use crate::common::{api_error, start};

fn applied(name: &str, fields: Value) -> Value {
    let mut spec = json!({"image": "busybox:1"});
    if let (Value::Object(s), Value::Object(f)) = (&mut spec, fields) {
        s.extend(f);
    }
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": name}, "spec": spec})
}

#[tokio::test]
async fn apply_creates_and_the_controller_takes_over() {
    let op = start().await;
    op.api
        .patch(
            "s",
            &PatchParams::apply("user"),
            &Patch::Apply(applied("s", json!({"replicas": 2}))),
        )
        .await
        .unwrap();
    let ct = op.reconciled("s").await;
    let managers: Vec<(String, String)> = ct
        .managed_fields()
        .iter()
        .map(|m| {
            (
                m.manager.clone().unwrap_or_default(),
                m.operation.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert!(
        managers.contains(&("user".into(), "Apply".into())),
        "{managers:?}"
    );
    assert!(
        managers.iter().any(|(m, o)| m != "user" && o == "Update"),
        "{managers:?}"
    );
}

#[tokio::test]
async fn two_appliers_conflict_on_a_field() {
    let op = start().await;
    op.api
        .patch(
            "s",
            &PatchParams::apply("alice"),
            &Patch::Apply(applied("s", json!({"cronSpec": "1 * * * *"}))),
        )
        .await
        .unwrap();
    let e = api_error(
        op.api
            .patch(
                "s",
                &PatchParams::apply("bob"),
                &Patch::Apply(applied("s", json!({"cronSpec": "2 * * * *"}))),
            )
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 409);
    assert_eq!(
        e.message,
        "Apply failed with 1 conflict: conflict with \"alice\": .spec.cronSpec"
    );
}

#[tokio::test]
async fn force_takes_ownership() {
    let op = start().await;
    op.api
        .patch(
            "s",
            &PatchParams::apply("alice"),
            &Patch::Apply(applied("s", json!({"cronSpec": "1 * * * *"}))),
        )
        .await
        .unwrap();
    let ct = op
        .api
        .patch(
            "s",
            &PatchParams::apply("bob").force(),
            &Patch::Apply(applied("s", json!({"cronSpec": "2 * * * *"}))),
        )
        .await
        .unwrap();
    assert_eq!(ct.spec.cron_spec, "2 * * * *");
    op.api
        .patch(
            "s",
            &PatchParams::apply("bob"),
            &Patch::Apply(applied("s", json!({"cronSpec": "3 * * * *"}))),
        )
        .await
        .expect("bob owns the field now");
}

#[tokio::test]
async fn fields_an_applier_stops_sending_are_removed() {
    let op = start().await;
    let with_label = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "s", "labels": {"team": "a"}}, "spec": {"image": "busybox:1"}});
    op.api
        .patch("s", &PatchParams::apply("alice"), &Patch::Apply(with_label))
        .await
        .unwrap();
    let ct = op
        .api
        .patch(
            "s",
            &PatchParams::apply("alice"),
            &Patch::Apply(applied("s", json!({}))),
        )
        .await
        .unwrap();
    assert!(ct.labels().get("team").is_none());
}

#[tokio::test]
async fn apply_to_status() {
    let op = start().await;
    op.create("s", 1).await;
    let ct = op
        .api
        .patch_status(
            "s",
            &PatchParams::apply("status-writer").force(),
            &Patch::Apply(
                json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
                "metadata": {"name": "s"}, "status": {"phase": "Checked"}}),
            ),
        )
        .await
        .unwrap();
    assert_eq!(
        ct.status.as_ref().unwrap().phase.as_deref(),
        Some("Checked")
    );
    let entry = ct
        .managed_fields()
        .iter()
        .find(|m| m.manager.as_deref() == Some("status-writer"))
        .cloned()
        .unwrap();
    assert_eq!(entry.subresource.as_deref(), Some("status"));
}

#[tokio::test]
async fn apply_validates_like_any_write() {
    let op = start().await;
    let e = api_error(
        op.api
            .patch(
                "s",
                &PatchParams::apply("u"),
                &Patch::Apply(applied("s", json!({"replicas": 99}))),
            )
            .await
            .unwrap_err(),
    );
    assert_eq!(e.code, 422);
    assert!(op.api.get_opt("s").await.unwrap().is_none());
}

#[tokio::test]
async fn the_controllers_config_map_apply_is_idempotent() {
    let op = start().await;
    op.create("s", 1).await;
    let before = op.config_map("s", |_| true).await;
    // Reconcile again (a spec change that does not touch the ConfigMap's data).
    op.api
        .patch(
            "s",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"labels": {"x": "y"}}})),
        )
        .await
        .unwrap();
    let ct: CronTab = op.api.get("s").await.unwrap();
    assert_eq!(ct.labels().get("x").map(String::as_str), Some("y"));
    let after = op.cms.get("s-schedule").await.unwrap();
    assert_eq!(
        before.metadata.resource_version,
        after.metadata.resource_version
    );
}
