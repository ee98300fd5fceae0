//! Starting, installing CRDs from derived types, isolation, waiting, the request log.

use std::time::Duration;

use crdkit_envtest::{Error, TestEnv};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde::{Deserialize, Serialize};

/// The docs' CronTab, with a status and a scale subresource.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default)]
#[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced,
      status = CronTabStatus,
      scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas"))]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    #[crd(default = "5 0 * * *")]
    pub cron_spec: String,
    pub image: String,
    #[crd(minimum = 1, maximum = 10, default = 1)]
    pub replicas: i32,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct CronTabStatus {
    pub replicas: i32,
}

fn crontab(name: &str, replicas: i32) -> CronTab {
    CronTab::new(
        name,
        CronTabSpec {
            cron_spec: "* * * * *".into(),
            image: "busybox".into(),
            replicas,
        },
    )
}

#[tokio::test]
async fn start_install_and_use_a_derived_crd() {
    let env = TestEnv::start()
        .await
        .unwrap()
        .with_crd::<CronTab>()
        .await
        .unwrap();
    assert!(env.url().starts_with("http://127.0.0.1:"));
    let kubeconfig = std::fs::read_to_string(env.kubeconfig()).unwrap();
    assert!(kubeconfig.contains(env.url()));
    let api: Api<CronTab> = env.api();
    let created = api
        .create(&PostParams::default(), &crontab("a", 3))
        .await
        .unwrap();
    assert_eq!(created.spec.replicas, 3);
    // The API server's validation of the derived schema.
    let e = api
        .create(&PostParams::default(), &crontab("b", 11))
        .await
        .unwrap_err();
    match e {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 422);
            assert!(
                s.message.contains("spec.replicas: Invalid value: 11"),
                "{}",
                s.message
            );
        }
        other => panic!("{other}"),
    }
    // Installing again is an idempotent apply.
    env.install_crd::<CronTab>().await.unwrap();
    let crd_applies = env
        .requests()
        .iter()
        .filter(|r| r.method == "PATCH" && r.field_manager == "crdkit-envtest")
        .count();
    assert_eq!(crd_applies, 2);
}

#[tokio::test]
async fn each_environment_is_its_own_server() {
    let a = TestEnv::builder().crd::<CronTab>().start().await.unwrap();
    let b = TestEnv::builder().crd::<CronTab>().start().await.unwrap();
    assert_ne!(a.url(), b.url());
    a.api::<CronTab>()
        .create(&PostParams::default(), &crontab("only-in-a", 1))
        .await
        .unwrap();
    assert!(
        b.api::<CronTab>()
            .get_opt("only-in-a")
            .await
            .unwrap()
            .is_none()
    );
    // Fresh namespaces isolate tests sharing one server.
    let ns1 = a.fresh_namespace("t").await.unwrap();
    let ns2 = a.fresh_namespace("t").await.unwrap();
    assert_ne!(ns1, ns2);
    let in_ns1: Api<CronTab> = Api::namespaced(a.client(), &ns1);
    in_ns1
        .create(&PostParams::default(), &crontab("x", 1))
        .await
        .unwrap();
    let in_ns2: Api<CronTab> = Api::namespaced(a.client(), &ns2);
    assert!(in_ns2.get_opt("x").await.unwrap().is_none());
    // A builder namespace is created and is the client's default.
    let c = TestEnv::builder()
        .namespace("team-a")
        .crd::<CronTab>()
        .start()
        .await
        .unwrap();
    assert_eq!(c.namespace(), "team-a");
    let defaulted: Api<CronTab> = Api::default_namespaced(c.client());
    let made = defaulted
        .create(&PostParams::default(), &crontab("y", 1))
        .await
        .unwrap();
    assert_eq!(made.metadata.namespace.as_deref(), Some("team-a"));
    let path = a.kubeconfig().to_owned();
    // `stop` waits for the server's shutdown, which removes the kubeconfig last (a drop waits
    // 2 s at most, and a loaded machine may need longer).
    a.stop();
    assert!(!path.exists(), "the kubeconfig goes with the environment");
}

#[tokio::test]
async fn waits_see_what_a_controller_writes_and_time_out() {
    let env = TestEnv::builder()
        .crd::<CronTab>()
        // Long enough for every wait that must succeed on a loaded machine (CRD installation
        // too); the one meant to time out pays it once.
        .timeout(Duration::from_secs(3))
        .start()
        .await
        .unwrap();
    let api: Api<CronTab> = env.api();
    api.create(&PostParams::default(), &crontab("w", 2))
        .await
        .unwrap();
    // A "controller": writes the status a little later.
    let writer = api.clone();
    env.spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        writer
            .patch_status(
                "w",
                &PatchParams::default(),
                &Patch::Merge(serde_json::json!({"status": {"replicas": 2}})),
            )
            .await
            .unwrap();
    });
    let got = env
        .wait_for(&api, "w", |ct| {
            ct.status.as_ref().is_some_and(|s| s.replicas == 2)
        })
        .await
        .unwrap();
    assert_eq!(got.status.unwrap().replicas, 2);
    match env.wait_for(&api, "w", |ct| ct.spec.replicas == 9).await {
        Err(Error::Timeout { what, .. }) => assert_eq!(what, "CronTab w"),
        other => panic!("{other:?}"),
    }
    api.delete("w", &DeleteParams::default()).await.unwrap();
    env.wait_deleted(&api, "w").await.unwrap();
    let n = env
        .eventually("a list of none", || {
            let api = api.clone();
            async move {
                let l = api.list(&Default::default()).await.ok()?;
                l.items.is_empty().then_some(l.items.len())
            }
        })
        .await
        .unwrap();
    assert_eq!(n, 0);
}

#[tokio::test]
async fn the_request_log_shows_what_the_client_did() {
    let env = TestEnv::builder().crd::<CronTab>().start().await.unwrap();
    let api: Api<CronTab> = env.api();
    let mark = env.mark();
    api.patch(
        "ssa",
        &PatchParams::apply("my-controller"),
        &Patch::Apply(crontab("ssa", 1)),
    )
    .await
    .unwrap();
    api.get("ssa").await.unwrap();
    let _ = api.get("missing").await;
    let since = env.requests_since(mark);
    let shown: Vec<String> = since
        .iter()
        .map(|r| format!("{} {} {}", r.method, r.path, r.status))
        .collect();
    assert_eq!(
        shown,
        [
            "PATCH /apis/stable.example.com/v1/namespaces/default/crontabs/ssa 201",
            "GET /apis/stable.example.com/v1/namespaces/default/crontabs/ssa 200",
            "GET /apis/stable.example.com/v1/namespaces/default/crontabs/missing 404",
        ]
    );
    assert_eq!(since[0].field_manager, "my-controller");
    assert_eq!(since[0].content_type, "application/apply-patch+yaml");
    assert_eq!(
        since[0].query_param("fieldManager").as_deref(),
        Some("my-controller")
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_blocked_test_runtime_does_not_stop_the_server() {
    // The server has its own thread: a single-threaded test that blocks still gets answers.
    let env = TestEnv::builder().crd::<CronTab>().start().await.unwrap();
    let url = format!("{}/version", env.url());
    let body = std::thread::spawn(move || {
        let addr = url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        use std::io::{Read, Write};
        s.write_all(b"GET /version HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    })
    .join()
    .unwrap();
    assert!(body.contains("\"minor\":\"32\""), "{body}");
}
