//! An environment with the WebApp CRD and the operator running, and the waits the tests share.

use std::collections::BTreeMap;
use std::sync::Arc;

use crdkit_envtest::{Builder, TestEnv};
use crdkit_example_webapp::{Context, WebApp, WebAppSpec};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Secret, Service, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::ResourceExt;
use kube::api::{Api, PostParams};

pub struct Op {
    pub env: TestEnv,
    pub apps: Api<WebApp>,
    pub deployments: Api<Deployment>,
    pub services: Api<Service>,
    pub secrets: Api<Secret>,
    pub accounts: Api<ServiceAccount>,
    pub ctx: Arc<Context>,
}

pub async fn start() -> Op {
    start_with(TestEnv::builder()).await
}

pub async fn start_with(builder: Builder) -> Op {
    let env = builder.crd::<WebApp>().start().await.expect("environment");
    let ctx = Context::new(env.client());
    env.spawn(crdkit_example_webapp::run(Arc::clone(&ctx)));
    Op {
        apps: env.api(),
        deployments: env.api(),
        services: env.api(),
        secrets: env.api(),
        accounts: env.api(),
        env,
        ctx,
    }
}

pub fn webapp(name: &str, replicas: i32) -> WebApp {
    WebApp::new(
        name,
        WebAppSpec {
            image: "nginx:1.27".into(),
            replicas,
            port: 8080,
            env: BTreeMap::from([("MODE".into(), "prod".into())]),
            secret: BTreeMap::from([("TOKEN".into(), "s3cr3t".into())]),
        },
    )
}

/// Whether `refs` holds the controller reference of `app` the operator writes.
pub fn controlled_by(refs: Option<&Vec<OwnerReference>>, app: &WebApp) -> bool {
    refs.is_some_and(|r| {
        r.len() == 1
            && r[0].uid == app.uid().unwrap_or_default()
            && r[0].kind == "WebApp"
            && r[0].api_version == "apps.crdkit.dev/v1"
            && r[0].controller == Some(true)
            && r[0].block_owner_deletion == Some(true)
    })
}

impl Op {
    /// Creates a WebApp and waits until the operator reconciled it.
    pub async fn create(&self, app: &WebApp) -> WebApp {
        self.apps
            .create(&PostParams::default(), app)
            .await
            .expect("created");
        self.reconciled(&app.name_any()).await
    }

    /// Waits until the status reflects the current generation and the Deployment's replicas.
    pub async fn reconciled(&self, name: &str) -> WebApp {
        self.env
            .wait_for(&self.apps, name, |a| {
                a.status.as_ref().is_some_and(|s| {
                    Some(s.observed_generation) == a.metadata.generation
                        && s.replicas == a.spec.replicas
                        && s.cluster_ip.is_some()
                })
            })
            .await
            .expect("reconciled")
    }

    /// Waits until the operator's last successful reconcile of `name` saw the stored version:
    /// what that reconcile wrote changed nothing, and nothing is left for it to do.
    pub async fn caught_up(&self, name: &str) -> WebApp {
        let ns = self.env.namespace();
        self.env
            .eventually("the operator caught up", || async {
                let app = self.apps.get(name).await.ok()?;
                let seen = self.ctx.reconciled_version(ns, name)?;
                (app.resource_version() == Some(seen)).then_some(app)
            })
            .await
            .expect("caught up")
    }

    /// Waits until all four owned objects of `name` are gone.
    pub async fn owned_gone(&self, name: &str) {
        let env = &self.env;
        env.wait_deleted(&self.deployments, name)
            .await
            .expect("deployment gone");
        env.wait_deleted(&self.services, name)
            .await
            .expect("service gone");
        env.wait_deleted(&self.secrets, name)
            .await
            .expect("secret gone");
        env.wait_deleted(&self.accounts, name)
            .await
            .expect("service account gone");
    }
}
