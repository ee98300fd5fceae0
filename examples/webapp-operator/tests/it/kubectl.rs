//! The bundle of `tests/data/bundle.yaml` (a Namespace, the WebApp CRD, a ServiceAccount, a
//! Role and RoleBinding, a ConfigMap, a Secret, a Service, a Deployment and a WebApp) applied
//! with the real kubectl against the envtest server, client-side (strategic merge patch on the
//! second apply after an edit) and server-side, with the operator reconciling the bundle's
//! WebApp.
//!
//! `/usr/bin/kubectl` picks its minor version from the server's; kubectl 1.27 (which reads
//! `/openapi/v2`) and 1.33 (protobuf bodies for built-in kinds) are run by name too. Each run
//! has a home and cache directory of its own and a request timeout; every wait is bounded.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crdkit_envtest::TestEnv;
use crdkit_example_webapp::{Context, WebApp, run};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Secret, Service};
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::ResourceExt;
use kube::api::Api;

use crate::common::controlled_by;

const VERSIONED: &str = "/usr/lib/google-cloud-sdk/bin";
const CRD: &str = "webapps.apps.crdkit.dev";

fn bundle_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundle.yaml")
}

struct Kubectl {
    bin: PathBuf,
    kubeconfig: PathBuf,
    home: tempfile::TempDir,
}

struct Out {
    ok: bool,
    stdout: String,
    stderr: String,
}

impl Kubectl {
    fn new(env: &TestEnv, bin: impl Into<PathBuf>) -> Kubectl {
        Kubectl {
            bin: bin.into(),
            kubeconfig: env.kubeconfig().to_owned(),
            home: tempfile::tempdir().expect("home"),
        }
    }

    /// Runs kubectl on a blocking thread (the operator keeps running on the test's runtime).
    async fn run(&self, args: &[&str]) -> Out {
        let mut cmd = Command::new(&self.bin);
        cmd.args(args)
            .arg(format!(
                "--cache-dir={}",
                self.home.path().join("cache").display()
            ))
            .arg("--request-timeout=20s")
            .env("KUBECONFIG", &self.kubeconfig)
            .env("HOME", self.home.path())
            .current_dir(self.home.path());
        let o = tokio::task::spawn_blocking(move || cmd.output())
            .await
            .expect("kubectl's thread")
            .unwrap_or_else(|e| panic!("kubectl runs: {e}"));
        Out {
            ok: o.status.success(),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }

    async fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args).await;
        assert!(
            o.ok,
            "{} {args:?} failed:\n{}{}",
            self.bin.display(),
            o.stdout,
            o.stderr
        );
        o.stdout
    }

    /// Applies the bundle twice, as against a cluster: the first run creates everything but
    /// the WebApp (kubectl maps every object before it applies any, and the CRD does not exist
    /// yet: "ensure CRDs are installed first"); once the CRD is established and the operator
    /// runs, the second creates the WebApp.
    async fn apply_bundle(&self, env: &TestEnv, extra: &[&str]) -> (String, String) {
        let bundle = bundle_path().display().to_string();
        let mut args = vec!["apply", "-f", &bundle];
        args.extend(extra);
        let first = self.run(&args).await;
        assert!(!first.ok, "the WebApp before its CRD: {}", first.stdout);
        assert!(
            first.stderr.contains("ensure CRDs are installed first"),
            "{}",
            first.stderr
        );
        assert!(!first.stdout.contains("storefront"), "{}", first.stdout);
        let crd = format!("crd/{CRD}");
        self.ok(&["wait", "--for=condition=Established", "--timeout=20s", &crd])
            .await;
        env.spawn(run(Context::new(env.client())));
        let second = self.ok(&args).await;
        (first.stdout, second)
    }
}

fn shop<K>(env: &TestEnv) -> Api<K>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
{
    Api::namespaced(env.client(), "shop")
}

/// Waits until the operator reconciled the bundle's WebApp with `replicas`, and checks the
/// Deployment it owns.
async fn reconciled(env: &TestEnv, replicas: i32) -> WebApp {
    let apps: Api<WebApp> = shop(env);
    let app = env
        .wait_for(&apps, "storefront", |a| {
            a.status.as_ref().is_some_and(|s| {
                Some(s.observed_generation) == a.metadata.generation
                    && s.replicas == replicas
                    && s.cluster_ip.is_some()
            })
        })
        .await
        .expect("the operator reconciles the bundle's WebApp");
    let owned: Api<Deployment> = shop(env);
    let d = env
        .wait_for(&owned, "storefront", |d| d.spec.replicas == Some(replicas))
        .await
        .unwrap();
    assert!(controlled_by(d.metadata.owner_references.as_ref(), &app));
    app
}

fn config_data(cm: &ConfigMap) -> BTreeMap<String, String> {
    cm.data.clone().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundle_applied_client_side_then_edited_then_server_side() {
    let env = TestEnv::start().await.unwrap();
    let k = Kubectl::new(&env, "/usr/bin/kubectl");
    let (first, second) = k.apply_bundle(&env, &[]).await;
    for line in [
        "namespace/shop created",
        "customresourcedefinition.apiextensions.k8s.io/webapps.apps.crdkit.dev created",
        "serviceaccount/webapp-operator created",
        "role.rbac.authorization.k8s.io/webapp-operator created",
        "rolebinding.rbac.authorization.k8s.io/webapp-operator created",
        "configmap/webapp-operator created",
        "secret/webapp-operator-token created",
        "service/webapp-operator-metrics created",
        "deployment.apps/webapp-operator created",
    ] {
        assert!(first.contains(line), "{line} in:\n{first}");
    }
    assert!(
        second.contains("webapp.apps.crdkit.dev/storefront created"),
        "{second}"
    );
    assert!(
        second.contains("deployment.apps/webapp-operator unchanged"),
        "{second}"
    );
    reconciled(&env, 2).await;

    // The bundle's objects with the server's defaults.
    let d = env
        .get(&shop::<Deployment>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(d.spec.revision_history_limit, Some(10));
    assert!(
        d.annotations()
            .contains_key("kubectl.kubernetes.io/last-applied-configuration")
    );
    let secret = env
        .get(&shop::<Secret>(&env), "webapp-operator-token")
        .await
        .unwrap();
    assert_eq!(secret.data.unwrap()["token"].0, b"hunter2");
    let svc = env
        .get(&shop::<Service>(&env), "webapp-operator-metrics")
        .await
        .unwrap();
    let spec = svc.spec.unwrap();
    assert!(spec.cluster_ip.is_some_and(|ip| ip.starts_with("10.")));
    let port = &spec.ports.unwrap()[0];
    assert_eq!(port.target_port, Some(IntOrString::Int(8080)));
    let role = env
        .get(&shop::<Role>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(role.rules.unwrap().len(), 3);
    let binding = env
        .get(&shop::<RoleBinding>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(binding.subjects.unwrap()[0].name, "webapp-operator");

    // Edited and applied again: kubectl's three-way strategic merge patch (a merge patch for
    // the WebApp, which has no patch strategies) changes and removes what the edit did.
    let bundle = std::fs::read_to_string(bundle_path()).unwrap();
    let edited = bundle
        .replace(
            "  RUST_LOG: info\n  WATCH_NAMESPACE: shop\n",
            "  RUST_LOG: debug\n",
        )
        .replace("  replicas: 1\n  selector:", "  replicas: 2\n  selector:")
        .replace("  replicas: 2\n  env:", "  replicas: 3\n  env:");
    assert_ne!(edited, bundle);
    let edited_path = k.home.path().join("edited.yaml");
    std::fs::write(&edited_path, &edited).unwrap();
    let mark = env.mark();
    let out = k
        .ok(&["apply", "-f", &edited_path.display().to_string()])
        .await;
    for line in [
        "configmap/webapp-operator configured",
        "deployment.apps/webapp-operator configured",
        "webapp.apps.crdkit.dev/storefront configured",
        "service/webapp-operator-metrics unchanged",
    ] {
        assert!(out.contains(line), "{line} in:\n{out}");
    }
    let patches: BTreeMap<String, String> = env
        .requests_since(mark)
        .into_iter()
        .filter(|r| r.method == "PATCH" && r.user_agent.starts_with("kubectl"))
        .map(|r| (r.path, r.content_type))
        .collect();
    assert_eq!(
        patches["/api/v1/namespaces/shop/configmaps/webapp-operator"],
        "application/strategic-merge-patch+json"
    );
    assert_eq!(
        patches["/apis/apps.crdkit.dev/v1/namespaces/shop/webapps/storefront"],
        "application/merge-patch+json"
    );
    let cm = env
        .get(&shop::<ConfigMap>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(
        config_data(&cm),
        BTreeMap::from([("RUST_LOG".into(), "debug".into())])
    );
    let d = env
        .get(&shop::<Deployment>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(d.spec.replicas, Some(2));
    reconciled(&env, 3).await;

    // The original bundle applied server-side: kubectl moves the client-side apply's fields to
    // its own manager first, so what the bundle names again comes back without conflicts.
    let bundle = bundle_path().display().to_string();
    let out = k.ok(&["apply", "--server-side", "-f", &bundle]).await;
    assert!(
        out.contains("configmap/webapp-operator serverside-applied"),
        "{out}"
    );
    assert!(
        out.contains("webapp.apps.crdkit.dev/storefront serverside-applied"),
        "{out}"
    );
    let cm = env
        .get(&shop::<ConfigMap>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(
        config_data(&cm),
        BTreeMap::from([
            ("RUST_LOG".into(), "info".into()),
            ("WATCH_NAMESPACE".into(), "shop".into())
        ])
    );
    assert!(cm.managed_fields().iter().any(|m| {
        m.manager.as_deref() == Some("kubectl") && m.operation.as_deref() == Some("Apply")
    }));
    let d = env
        .get(&shop::<Deployment>(&env), "webapp-operator")
        .await
        .unwrap();
    assert_eq!(d.spec.replicas, Some(1));
    reconciled(&env, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundle_applied_server_side_by_kubectl_1_27_and_1_33() {
    for minor in [27, 33] {
        let env = TestEnv::start().await.unwrap();
        let k = Kubectl::new(&env, format!("{VERSIONED}/kubectl.1.{minor}"));
        let (_, second) = k.apply_bundle(&env, &["--server-side"]).await;
        assert!(
            second.contains("webapp.apps.crdkit.dev/storefront serverside-applied"),
            "1.{minor}: {second}"
        );
        let app = reconciled(&env, 2).await;
        // The CRD's printer columns and the four owned objects, as kubectl shows them.
        let table = k
            .ok(&["get", "webapps", "-n", "shop", "--no-headers"])
            .await;
        let cells: Vec<&str> = table.split_whitespace().collect();
        let ip = app.status.unwrap().cluster_ip.unwrap();
        assert_eq!(
            cells[..5],
            ["storefront", "nginx:1.27", "2", "0", &ip],
            "1.{minor}: {table}"
        );
        let owned = k
            .ok(&[
                "get",
                "deployments,services,secrets,serviceaccounts",
                "-n",
                "shop",
                "-l",
                "app.kubernetes.io/name=storefront",
                "-o",
                "name",
            ])
            .await;
        assert_eq!(
            owned.lines().collect::<Vec<_>>(),
            [
                "deployment.apps/storefront",
                "service/storefront",
                "secret/storefront",
                "serviceaccount/storefront"
            ],
            "1.{minor}"
        );
    }
}

/// The bundle's CRD is the one the derive writes (`cargo run -p crdkit-example-webapp -- crd`).
#[test]
fn the_bundles_crd_is_the_derived_one() {
    let text = std::fs::read_to_string(bundle_path()).unwrap();
    let docs: Vec<serde_json::Value> = serde_saphyr::from_multiple(&text).unwrap();
    let crd = docs
        .iter()
        .find(|d| d["kind"] == "CustomResourceDefinition")
        .expect("a CRD in the bundle");
    assert_eq!(*crd, WebApp::crd().unwrap().to_value());
}
