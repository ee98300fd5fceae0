//! An operator owning built-in kinds: per `App`, a ServiceAccount, a Secret, a Deployment and a
//! Service, written with server-side apply and owned through controller references; drift
//! corrected through watches on the owned kinds; status read from the owned Deployment; cleanup
//! by the garbage collector. No Pod runs and no Deployment rolls out, as in envtest.

use std::sync::Arc;
use std::time::Duration;

use crdkit_envtest::TestEnv;
use futures_util::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Secret, Service, ServiceAccount};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, Resource, ResourceExt};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default)]
#[crd(group = "apps.example.com", version = "v1", kind = "App", namespaced, status = AppStatus)]
#[serde(rename_all = "camelCase")]
pub struct AppSpec {
    pub image: String,
    #[crd(minimum = 0, default = 1)]
    pub replicas: i32,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct AppStatus {
    /// The generation of the Deployment last seen.
    pub deployment_generation: i64,
    pub available_replicas: i32,
}

const MANAGER: &str = "app-operator";

async fn reconcile(app: Arc<App>, client: Arc<Client>) -> Result<Action, kube::Error> {
    let ns = app.namespace().unwrap_or_default();
    let name = app.name_any();
    let owner = app.controller_owner_ref(&()).expect("an owner reference");
    let meta = json!({"name": name, "namespace": ns, "labels": {"app": name},
        "ownerReferences": [owner]});
    let pp = PatchParams::apply(MANAGER).force();
    let apply = |kind: &str, api_version: &str, rest: serde_json::Value| {
        let mut obj = json!({"apiVersion": api_version, "kind": kind, "metadata": meta});
        if let (Some(o), serde_json::Value::Object(r)) = (obj.as_object_mut(), rest) {
            o.extend(r);
        }
        obj
    };
    let c = (*client).clone();
    Api::<ServiceAccount>::namespaced(c.clone(), &ns)
        .patch(
            &name,
            &pp,
            &Patch::Apply(apply("ServiceAccount", "v1", json!({}))),
        )
        .await?;
    Api::<Secret>::namespaced(c.clone(), &ns)
        .patch(
            &name,
            &pp,
            &Patch::Apply(apply(
                "Secret",
                "v1",
                json!({"stringData": {"token": "s3cr3t"}}),
            )),
        )
        .await?;
    let deployment = Api::<Deployment>::namespaced(c.clone(), &ns)
        .patch(
            &name,
            &pp,
            &Patch::Apply(apply(
                "Deployment",
                "apps/v1",
                json!({"spec": {"replicas": app.spec.replicas,
                    "selector": {"matchLabels": {"app": name}},
                    "template": {"metadata": {"labels": {"app": name}},
                        "spec": {"serviceAccountName": name,
                            "containers": [{"name": "app", "image": app.spec.image,
                                "envFrom": [{"secretRef": {"name": name}}],
                                "ports": [{"containerPort": 8080}]}]}}}}),
            )),
        )
        .await?;
    Api::<Service>::namespaced(c.clone(), &ns)
        .patch(
            &name,
            &pp,
            &Patch::Apply(apply(
                "Service",
                "v1",
                json!({"spec": {"selector": {"app": name},
                    "ports": [{"port": 80, "targetPort": 8080}]}}),
            )),
        )
        .await?;
    let status = json!({"apiVersion": "apps.example.com/v1", "kind": "App",
        "status": {"deploymentGeneration": deployment.metadata.generation.unwrap_or(0),
            "availableReplicas": deployment.status.and_then(|s| s.available_replicas).unwrap_or(0)}});
    Api::<App>::namespaced(c, &ns)
        .patch_status(&name, &pp, &Patch::Apply(status))
        .await?;
    Ok(Action::requeue(Duration::from_secs(300)))
}

fn error_policy(_: Arc<App>, _: &kube::Error, _: Arc<Client>) -> Action {
    Action::requeue(Duration::from_millis(200))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_owning_a_deployment_service_secret_and_service_account() {
    let env = TestEnv::start()
        .await
        .unwrap()
        .with_crd::<App>()
        .await
        .unwrap();
    let client = env.client();
    let apps: Api<App> = env.api();
    let deployments: Api<Deployment> = env.api();
    let services: Api<Service> = env.api();
    let secrets: Api<Secret> = env.api();
    let accounts: Api<ServiceAccount> = env.api();
    let controller = Controller::new(apps.clone(), watcher::Config::default())
        .owns(deployments.clone(), watcher::Config::default())
        .owns(services.clone(), watcher::Config::default())
        .run(reconcile, error_policy, Arc::new(client.clone()))
        .for_each(|_| async {});
    env.spawn(controller);

    apps.create(
        &PostParams::default(),
        &App::new(
            "web",
            AppSpec {
                image: "nginx:1.27".into(),
                replicas: 2,
            },
        ),
    )
    .await
    .unwrap();
    let app = env
        .wait_for(&apps, "web", |a| a.status.is_some())
        .await
        .unwrap();
    let uid = app.uid().unwrap();
    let owned_by_app =
        |refs: Option<&Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference>>| {
            refs.is_some_and(|r| r.iter().any(|o| o.uid == uid && o.controller == Some(true)))
        };
    // The owned objects, with the API server's defaults.
    let d = env.get(&deployments, "web").await.unwrap();
    assert!(owned_by_app(d.metadata.owner_references.as_ref()));
    let spec = d.spec;
    assert_eq!(spec.replicas, Some(2));
    assert_eq!(spec.revision_history_limit, Some(10));
    let pod = spec.template.spec.unwrap();
    assert_eq!(
        pod.containers[0].image_pull_policy.as_deref(),
        Some("IfNotPresent")
    );
    assert_eq!(app.status.as_ref().unwrap().deployment_generation, 1);
    let svc = env.get(&services, "web").await.unwrap();
    assert!(owned_by_app(svc.metadata.owner_references.as_ref()));
    let ip = svc.spec.clone().unwrap().cluster_ip.unwrap();
    assert!(ip.starts_with("10.9"), "{ip}");
    let secret = env.get(&secrets, "web").await.unwrap();
    assert_eq!(
        secret.data.unwrap()["token"].0,
        b"s3cr3t".to_vec(),
        "stringData merged into data"
    );
    assert!(owned_by_app(
        env.get(&accounts, "web")
            .await
            .unwrap()
            .metadata
            .owner_references
            .as_ref()
    ));

    // Drift: the Service deleted and the Deployment's image changed by hand come back.
    services
        .delete("web", &DeleteParams::default())
        .await
        .unwrap();
    env.wait_for(&services, "web", |s| {
        s.metadata.deletion_timestamp.is_none() && s.uid() != svc.uid()
    })
    .await
    .unwrap();
    deployments
        .patch(
            "web",
            &PatchParams::default(),
            &Patch::Strategic(json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "evil:1"}]}}}})),
        )
        .await
        .unwrap();
    env.wait_for(&deployments, "web", |d| {
        d.spec
            .template
            .spec
            .as_ref()
            .is_some_and(|p| p.containers[0].image.as_deref() == Some("nginx:1.27"))
            && d.metadata.generation == Some(3)
    })
    .await
    .unwrap();
    env.wait_for(&apps, "web", |a| {
        a.status
            .as_ref()
            .is_some_and(|s| s.deployment_generation == 3)
    })
    .await
    .unwrap();

    // Cleanup by the garbage collector.
    apps.delete("web", &DeleteParams::default()).await.unwrap();
    env.wait_deleted(&deployments, "web").await.unwrap();
    env.wait_deleted(&services, "web").await.unwrap();
    env.wait_deleted(&secrets, "web").await.unwrap();
    env.wait_deleted(&accounts, "web").await.unwrap();
}
