//! Leader election over `coordination.k8s.io/v1` Leases (kube-lease-manager, and by hand) and
//! kube-rs' event recorder over `events.k8s.io/v1` Events.

use std::time::Duration;

use crdkit_envtest::TestEnv;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::Event as K8sEvent;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube_lease_manager::LeaseManagerBuilder;
use serde_json::json;

async fn holder(api: &Api<Lease>, name: &str) -> Option<String> {
    api.get(name).await.ok()?.spec?.holder_identity
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leader_election_with_kube_lease_manager() {
    let env = TestEnv::start().await.unwrap();
    let leases: Api<Lease> = env.api();
    let a = LeaseManagerBuilder::new(env.client(), "leader")
        .with_identity("a")
        .with_duration(5)
        .with_grace(2)
        .build()
        .await
        .unwrap();
    let b = LeaseManagerBuilder::new(env.client(), "leader")
        .with_identity("b")
        .with_duration(5)
        .with_grace(2)
        .build()
        .await
        .unwrap();
    assert!(a.changed().await.unwrap(), "a takes the free lease");
    assert_eq!(holder(&leases, "leader").await.as_deref(), Some("a"));
    // b waits while a holds it, and takes it once a lets go.
    let b_wins = tokio::spawn(async move {
        let won = b.changed().await.unwrap();
        (won, b)
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !b_wins.is_finished(),
        "b must not win while a holds the lease"
    );
    a.release().await.unwrap();
    let (won, b) = tokio::time::timeout(Duration::from_secs(15), b_wins)
        .await
        .expect("b wins in time")
        .unwrap();
    assert!(won);
    assert_eq!(holder(&leases, "leader").await.as_deref(), Some("b"));
    let lease = leases.get("leader").await.unwrap();
    assert!(lease.spec.unwrap().lease_transitions.unwrap_or(0) >= 2);
    b.release().await.unwrap();
}

#[tokio::test]
async fn leader_election_by_hand_conflicts_as_on_a_cluster() {
    let env = TestEnv::start().await.unwrap();
    let leases: Api<Lease> = env.api();
    let lease: Lease = serde_json::from_value(json!({"metadata": {"name": "l"},
        "spec": {"holderIdentity": "a", "leaseDurationSeconds": 10}}))
    .unwrap();
    let created = leases.create(&PostParams::default(), &lease).await.unwrap();
    assert_eq!(created.metadata.generation, None);
    // A second candidate's create: 409 AlreadyExists.
    match leases.create(&PostParams::default(), &lease).await {
        Err(kube::Error::Api(s)) => assert_eq!((s.code, s.reason.as_str()), (409, "AlreadyExists")),
        other => panic!("{other:?}"),
    }
    // Renewal is an update at the read resourceVersion; a stale one loses.
    let mut renewed = created.clone();
    renewed.spec.as_mut().unwrap().renew_time =
        Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime(
            k8s_openapi::jiff::Timestamp::now(),
        ));
    leases
        .replace("l", &PostParams::default(), &renewed)
        .await
        .unwrap();
    match leases.replace("l", &PostParams::default(), &created).await {
        Err(kube::Error::Api(s)) => assert_eq!((s.code, s.reason.as_str()), (409, "Conflict")),
        other => panic!("{other:?}"),
    }
    // With server-side apply, taking a field another manager owns is a conflict until forced.
    let take = |who: &str| {
        json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "ssa"}, "spec": {"holderIdentity": who}})
    };
    leases
        .patch("ssa", &PatchParams::apply("a"), &Patch::Apply(take("a")))
        .await
        .unwrap();
    match leases
        .patch("ssa", &PatchParams::apply("b"), &Patch::Apply(take("b")))
        .await
    {
        Err(kube::Error::Api(s)) => {
            assert_eq!(s.code, 409);
            assert!(s.message.contains("conflict with \"a\""), "{}", s.message);
        }
        other => panic!("{other:?}"),
    }
    leases
        .patch(
            "ssa",
            &PatchParams::apply("b").force(),
            &Patch::Apply(take("b")),
        )
        .await
        .unwrap();
    assert_eq!(holder(&leases, "ssa").await.as_deref(), Some("b"));
}

#[tokio::test]
async fn the_event_recorder_creates_then_patches_a_series() {
    let env = TestEnv::start().await.unwrap();
    let recorder = Recorder::new(
        env.client(),
        Reporter {
            controller: "crontab-controller".into(),
            instance: None,
        },
    );
    let reference = ObjectReference {
        api_version: Some("stable.example.com/v1".into()),
        kind: Some("CronTab".into()),
        name: Some("x".into()),
        namespace: Some("default".into()),
        uid: Some("0000-1".into()),
        ..ObjectReference::default()
    };
    let ev = Event {
        type_: EventType::Normal,
        reason: "Reconciled".into(),
        note: Some("all good".into()),
        action: "Reconcile".into(),
        secondary: None,
    };
    recorder.publish(&ev, &reference).await.unwrap();
    recorder.publish(&ev, &reference).await.unwrap();
    let events: Api<K8sEvent> = env.api();
    let list = events.list(&Default::default()).await.unwrap();
    assert_eq!(list.items.len(), 1);
    let e = &list.items[0];
    assert_eq!(e.reason.as_deref(), Some("Reconciled"));
    assert_eq!(
        e.reporting_controller.as_deref(),
        Some("crontab-controller")
    );
    assert_eq!(
        e.regarding.as_ref().and_then(|r| r.name.as_deref()),
        Some("x")
    );
    assert_eq!(e.series.as_ref().map(|s| s.count), Some(2));
    let methods: Vec<String> = env
        .requests()
        .iter()
        .filter(|r| r.path.contains("/events"))
        .map(|r| format!("{} {}", r.method, r.status))
        .collect();
    assert_eq!(methods, ["POST 201", "PATCH 200", "GET 200"]);
}
