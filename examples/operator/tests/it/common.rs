//! An environment with the CronTab CRD and the controller running.

use std::sync::Arc;

use crdkit_envtest::{Builder, TestEnv};
use crdkit_example_operator::{Context, CronTab, CronTabSpec, FINALIZER};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, PostParams};

pub struct Op {
    pub env: TestEnv,
    pub api: Api<CronTab>,
    pub cms: Api<ConfigMap>,
    pub ctx: Arc<Context>,
}

pub async fn start() -> Op {
    start_with(TestEnv::builder()).await
}

pub async fn start_with(builder: Builder) -> Op {
    let env = builder.crd::<CronTab>().start().await.expect("environment");
    let ctx = Context::new(env.client());
    env.spawn(crdkit_example_operator::run(Arc::clone(&ctx)));
    Op {
        api: env.api(),
        cms: env.api(),
        env,
        ctx,
    }
}

pub fn crontab(name: &str, replicas: i32) -> CronTab {
    CronTab::new(
        name,
        CronTabSpec {
            cron_spec: "*/5 * * * *".into(),
            image: "busybox:1".into(),
            replicas,
            suspend: None,
        },
    )
}

impl Op {
    /// Creates a CronTab and waits until the controller reconciled it.
    pub async fn create(&self, name: &str, replicas: i32) -> CronTab {
        self.api
            .create(&PostParams::default(), &crontab(name, replicas))
            .await
            .expect("created");
        self.reconciled(name).await
    }

    /// Waits (at most 5 s) until no reconcile has run for 300 ms: a reconcile started from an
    /// older copy of an object would otherwise still apply its ConfigMap after a deletion the
    /// test makes next (the same race exists against a real cluster).
    pub async fn settle(&self) {
        let mut last = self
            .ctx
            .reconciles
            .load(std::sync::atomic::Ordering::SeqCst);
        let mut quiet = 0;
        for _ in 0..50 {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            let now = self
                .ctx
                .reconciles
                .load(std::sync::atomic::Ordering::SeqCst);
            quiet = if now == last { quiet + 1 } else { 0 };
            last = now;
            if quiet == 3 {
                return;
            }
        }
    }

    /// Waits until the controller reconciled the current generation.
    pub async fn reconciled(&self, name: &str) -> CronTab {
        self.env
            .wait_for(&self.api, name, |ct| {
                ct.finalizers().iter().any(|f| f == FINALIZER)
                    && ct.status.as_ref().is_some_and(|s| {
                        Some(s.observed_generation) == ct.metadata.generation
                            && s.replicas == ct.spec.replicas
                    })
            })
            .await
            .expect("reconciled")
    }

    /// Waits for the ConfigMap of `name` to satisfy `f`.
    pub async fn config_map(&self, name: &str, f: impl Fn(&ConfigMap) -> bool) -> ConfigMap {
        self.env
            .wait_for(&self.cms, &format!("{name}-schedule"), f)
            .await
            .expect("config map")
    }
}

pub fn data<'a>(cm: &'a ConfigMap, key: &str) -> &'a str {
    cm.data
        .as_ref()
        .and_then(|d| d.get(key))
        .map_or("", String::as_str)
}

pub fn api_error(e: kube::Error) -> kube::core::Status {
    match e {
        kube::Error::Api(s) => *s,
        other => panic!("not an API error: {other}"),
    }
}
