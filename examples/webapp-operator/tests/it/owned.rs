//! The four owned objects as the API server keeps them: controller references, the operator's
//! field manager, and the defaults the operator leaves to the server.

use crdkit_example_webapp::MANAGER;
use crdkit_example_webapp::owned::{CONTAINER, NAME_LABEL};
use crdkit_example_webapp::status::READY;
use kube::ResourceExt;
use kube::api::{Patch, PatchParams};
use serde_json::json;

use crate::common::{controlled_by, start, webapp};

/// The manager of `obj`'s fields written by apply.
fn applied_by_operator(obj: &impl ResourceExt) -> bool {
    obj.managed_fields()
        .iter()
        .any(|m| m.manager.as_deref() == Some(MANAGER) && m.operation.as_deref() == Some("Apply"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owned_objects_carry_controller_references_and_the_servers_defaults() {
    let op = start().await;
    let app = op.create(&webapp("shop", 2)).await;

    let sa = op.env.get(&op.accounts, "shop").await.unwrap();
    assert!(controlled_by(sa.metadata.owner_references.as_ref(), &app));
    assert!(applied_by_operator(&sa));

    // Secret: `stringData` folded into `data`, never stored; `type` defaulted.
    let secret = op.env.get(&op.secrets, "shop").await.unwrap();
    assert!(controlled_by(
        secret.metadata.owner_references.as_ref(),
        &app
    ));
    assert!(applied_by_operator(&secret));
    assert_eq!(secret.data.as_ref().unwrap()["TOKEN"].0, b"s3cr3t");
    assert_eq!(secret.string_data, None);
    assert_eq!(secret.type_.as_deref(), Some("Opaque"));

    // Deployment: the strategy, history limit, deadline and the Pod template's defaults.
    let d = op.env.get(&op.deployments, "shop").await.unwrap();
    assert!(controlled_by(d.metadata.owner_references.as_ref(), &app));
    assert!(applied_by_operator(&d));
    assert_eq!(d.metadata.generation, Some(1));
    assert_eq!(d.labels()[NAME_LABEL], "shop");
    let spec = &d.spec;
    assert_eq!(spec.replicas, Some(2));
    assert_eq!(spec.revision_history_limit, Some(10));
    assert_eq!(spec.progress_deadline_seconds, Some(600));
    let strategy = serde_json::to_value(&spec.strategy).unwrap();
    assert_eq!(
        strategy,
        json!({"type": "RollingUpdate",
            "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
    );
    let pod = spec.template.spec.as_ref().unwrap();
    assert_eq!(pod.restart_policy.as_deref(), Some("Always"));
    assert_eq!(pod.dns_policy.as_deref(), Some("ClusterFirst"));
    assert_eq!(pod.scheduler_name.as_deref(), Some("default-scheduler"));
    assert_eq!(pod.termination_grace_period_seconds, Some(30));
    assert_eq!(pod.service_account_name.as_deref(), Some("shop"));
    let c = &pod.containers[0];
    assert_eq!(c.name, CONTAINER);
    assert_eq!(c.image_pull_policy.as_deref(), Some("IfNotPresent"));
    assert_eq!(
        c.termination_message_path.as_deref(),
        Some("/dev/termination-log")
    );
    let port = &c.ports.as_ref().unwrap()[0];
    assert_eq!(
        (port.container_port, port.protocol.as_deref()),
        (8080, Some("TCP"))
    );
    assert_eq!(c.env.as_ref().unwrap()[0].name, "MODE");
    // No Pod runs: the Deployment's status carries no ready replicas.
    let ready = d.status.as_ref().and_then(|s| s.ready_replicas);
    assert_eq!(ready, None);

    // Service: type, cluster IP from the range (10.96.0.0/12 by default), protocol, affinity.
    let svc = op.env.get(&op.services, "shop").await.unwrap();
    assert!(controlled_by(svc.metadata.owner_references.as_ref(), &app));
    assert!(applied_by_operator(&svc));
    let s = svc.spec.as_ref().unwrap();
    assert_eq!(s.type_.as_deref(), Some("ClusterIP"));
    assert_eq!(s.session_affinity.as_deref(), Some("None"));
    let ip = s.cluster_ip.clone().unwrap();
    let octets: Vec<u8> = ip.split('.').map(|o| o.parse().unwrap()).collect();
    assert!(octets[0] == 10 && (96..112).contains(&octets[1]), "{ip}");
    assert_eq!(s.cluster_ips.as_deref(), Some(&[ip.clone()][..]));
    assert_eq!(s.ip_families.as_deref(), Some(&["IPv4".to_owned()][..]));
    assert_eq!(
        s.ports.as_ref().unwrap()[0].protocol.as_deref(),
        Some("TCP")
    );

    // Status: what the server returned.
    let st = app.status.unwrap();
    assert_eq!(
        (st.observed_generation, st.replicas, st.ready_replicas),
        (1, 2, 0)
    );
    assert_eq!(st.cluster_ip.as_deref(), Some(ip.as_str()));
    let ready = &st.conditions[0];
    assert_eq!(
        (ready.type_.as_str(), ready.status.as_str()),
        (READY, "False")
    );
    assert_eq!(ready.message, "0/2 replicas ready");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_change_reaches_the_owned_objects_and_the_status() {
    let op = start().await;
    op.create(&webapp("shop", 1)).await;
    let patch = json!({"spec": {"replicas": 3, "image": "nginx:1.28", "port": 9090,
        "secret": {"TOKEN": "rotated"}}});
    op.apps
        .patch("shop", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let app = op.reconciled("shop").await;
    assert_eq!(app.status.as_ref().unwrap().observed_generation, 2);
    let d = op
        .env
        .wait_for(&op.deployments, "shop", |d| d.spec.replicas == Some(3))
        .await
        .unwrap();
    // One change of the template: generation 2.
    assert_eq!(d.metadata.generation, Some(2));
    let c = &d.spec.template.spec.as_ref().unwrap().containers[0];
    assert_eq!(c.image.as_deref(), Some("nginx:1.28"));
    assert_eq!(c.ports.as_ref().unwrap()[0].container_port, 9090);
    let secret = op.env.get(&op.secrets, "shop").await.unwrap();
    assert_eq!(secret.data.as_ref().unwrap()["TOKEN"].0, b"rotated");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reapplying_an_unchanged_webapp_writes_nothing() {
    let op = start().await;
    op.create(&webapp("shop", 2)).await;
    // The reconciles the operator's own first writes queued are done.
    op.caught_up("shop").await;
    let before = versions(&op).await;
    // A label on the WebApp (no new generation) makes the operator reconcile it again.
    let mark = op.env.mark();
    let patch = json!({"metadata": {"labels": {"touched": "yes"}}});
    let labelled = op
        .apps
        .patch("shop", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let app = op.caught_up("shop").await;
    // Server-side apply of an unchanged object is a no-op: no new resource version, so no
    // watch event and no reconcile loop; the status, unchanged, is not written either.
    assert_eq!(versions(&op).await, before);
    let status_writes = op
        .env
        .requests_since(mark)
        .iter()
        .filter(|r| r.path.ends_with("/webapps/shop/status"))
        .count();
    assert_eq!(status_writes, 0);
    assert_eq!(app.resource_version(), labelled.resource_version());
    let applies = op
        .env
        .requests_since(mark)
        .iter()
        .filter(|r| r.method == "PATCH" && r.field_manager == MANAGER)
        .count();
    // At least the reconcile of the labelled version (`caught_up`); one queued earlier by the
    // owned objects' first watch events may run too.
    assert!(
        applies >= 4,
        "the four owned objects applied once more: {applies}"
    );
}

/// The resource versions of the four owned objects of `shop`.
async fn versions(op: &crate::common::Op) -> [Option<String>; 4] {
    let env = &op.env;
    [
        env.get(&op.accounts, "shop")
            .await
            .unwrap()
            .resource_version(),
        env.get(&op.secrets, "shop")
            .await
            .unwrap()
            .resource_version(),
        env.get(&op.deployments, "shop")
            .await
            .unwrap()
            .resource_version(),
        env.get(&op.services, "shop")
            .await
            .unwrap()
            .resource_version(),
    ]
}
