//! A kube-rs controller for the docs' CronTab, tested end to end with crdkit-envtest.
//!
//! For each CronTab it keeps a ConfigMap `<name>-schedule` (owned: `ownerReferences` with
//! `controller` and `blockOwnerDeletion`, written by server-side apply) with the schedule, the
//! image and the replica count; writes the status through `/status` (`replicas` from the spec,
//! so `kubectl scale` shows up in it, `observedGeneration`, `labelSelector` for the scale
//! subresource); records events; and uses a finalizer to record the deletion before the object
//! goes. The ConfigMap goes with its CronTab through the garbage collector.
//!
//! The CRD carries a CEL transition rule (the image may not change once set) and bounds on
//! `replicas`, checked by the API server (crdkit's, in tests).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, ResourceExt};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::runtime::finalizer::{Event as Finalizer, finalizer};
use kube::runtime::watcher;
use kube::{Client, Resource};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The finalizer the controller puts on every CronTab.
pub const FINALIZER: &str = "stable.example.com/cleanup";
/// The field manager of the controller's writes.
pub const MANAGER: &str = "crontab-controller";

/// The docs' CronTab.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    short_name = "ct",
    status = CronTabStatus,
    scale(
        spec_replicas = ".spec.replicas",
        status_replicas = ".status.replicas",
        label_selector = ".status.labelSelector",
    ),
    print_column(name = "Spec", json_path = ".spec.cronSpec"),
    print_column(name = "Replicas", json_path = ".spec.replicas"),
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    /// When to run, in cron syntax.
    #[crd(
        pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$",
        default = "5 0 * * *"
    )]
    #[serde(default)]
    pub cron_spec: String,
    /// The image to run; fixed once set.
    #[crd(validation(rule = "self == oldSelf", message = "image is immutable"))]
    pub image: String,
    /// How many runs at once.
    #[crd(minimum = 0, maximum = 10, default = 1)]
    #[serde(default)]
    pub replicas: i32,
    /// Stops scheduling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
}

/// What the controller observed.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronTabStatus {
    /// The replicas running (the spec's, once reconciled).
    #[serde(default)]
    pub replicas: i32,
    /// The generation last reconciled.
    #[serde(default)]
    pub observed_generation: i64,
    /// The selector of the scale subresource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
    /// The owned ConfigMap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map: Option<String>,
    /// `Active` or `Suspended`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
}

/// Why a reconcile failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API refused a write.
    #[error(transparent)]
    Kube(#[from] kube::Error),
    /// The finalizer helper failed.
    #[error("finalizer: {0}")]
    Finalizer(String),
    /// An object without namespace or name.
    #[error("CronTab without namespace")]
    NoNamespace,
}

/// What reconciles share.
pub struct Context {
    /// The client.
    pub client: Client,
    /// Events about CronTabs.
    pub recorder: Recorder,
    /// Reconciles run (for tests and metrics).
    pub reconciles: AtomicUsize,
    /// Deletions cleaned up.
    pub cleanups: AtomicUsize,
}

impl Context {
    /// A context over `client`.
    #[must_use]
    pub fn new(client: Client) -> Arc<Context> {
        Arc::new(Context {
            recorder: Recorder::new(
                client.clone(),
                Reporter {
                    controller: MANAGER.into(),
                    instance: None,
                },
            ),
            client,
            reconciles: AtomicUsize::new(0),
            cleanups: AtomicUsize::new(0),
        })
    }
}

/// The name of a CronTab's ConfigMap.
#[must_use]
pub fn config_map_name(ct: &CronTab) -> String {
    format!("{}-schedule", ct.name_any())
}

/// The ConfigMap a CronTab should own.
#[must_use]
pub fn desired_config_map(ct: &CronTab) -> serde_json::Value {
    let suspended = ct.spec.suspend == Some(true);
    // Deleting the CronTab in the foreground waits for its ConfigMap.
    let owner = ct.controller_owner_ref(&()).map(|mut r| {
        r.block_owner_deletion = Some(true);
        r
    });
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {
            "name": config_map_name(ct),
            "labels": {"crontab": ct.name_any()},
            "ownerReferences": [owner],
        },
        "data": {
            "schedule": if suspended { "suspended".to_owned() } else { ct.spec.cron_spec.clone() },
            "image": ct.spec.image,
            "replicas": ct.spec.replicas.to_string(),
        },
    })
}

async fn apply(ct: Arc<CronTab>, ctx: &Context) -> Result<Action, Error> {
    let ns = ct.namespace().ok_or(Error::NoNamespace)?;
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let cm = desired_config_map(&ct);
    cms.patch(
        &config_map_name(&ct),
        &PatchParams::apply(MANAGER).force(),
        &Patch::Apply(&cm),
    )
    .await?;
    let status = CronTabStatus {
        replicas: ct.spec.replicas,
        observed_generation: ct.metadata.generation.unwrap_or(0),
        label_selector: Some(format!("crontab={}", ct.name_any())),
        config_map: Some(config_map_name(&ct)),
        phase: Some(
            if ct.spec.suspend == Some(true) {
                "Suspended"
            } else {
                "Active"
            }
            .to_owned(),
        ),
    };
    if ct.status.as_ref() != Some(&status) {
        let api: Api<CronTab> = Api::namespaced(ctx.client.clone(), &ns);
        api.patch_status(
            &ct.name_any(),
            &PatchParams::default(),
            &Patch::Merge(json!({"status": status})),
        )
        .await?;
        // Events are best effort: a terminating namespace refuses them (NamespaceLifecycle).
        let _ = ctx
            .recorder
            .publish(
                &Event {
                    type_: EventType::Normal,
                    reason: "Reconciled".into(),
                    note: Some(format!("{} replicas", ct.spec.replicas)),
                    action: "Reconcile".into(),
                    secondary: None,
                },
                &ct.object_ref(&()),
            )
            .await;
    }
    Ok(Action::requeue(Duration::from_secs(300)))
}

async fn cleanup(ct: Arc<CronTab>, ctx: &Context) -> Result<Action, Error> {
    ctx.cleanups.fetch_add(1, Ordering::SeqCst);
    // Best effort: in a terminating namespace the event is refused, and the finalizer must
    // still go (found by `a_namespace_with_crontabs_finishes_deleting`).
    let _ = ctx
        .recorder
        .publish(
            &Event {
                type_: EventType::Normal,
                reason: "Deleted".into(),
                note: Some("cleaned up".into()),
                action: "Delete".into(),
                secondary: None,
            },
            &ct.object_ref(&()),
        )
        .await;
    Ok(Action::await_change())
}

/// One reconcile: the finalizer, then the ConfigMap and the status (or the cleanup).
///
/// # Errors
/// A write refused by the API server.
pub async fn reconcile(ct: Arc<CronTab>, ctx: Arc<Context>) -> Result<Action, Error> {
    ctx.reconciles.fetch_add(1, Ordering::SeqCst);
    let ns = ct.namespace().ok_or(Error::NoNamespace)?;
    let api: Api<CronTab> = Api::namespaced(ctx.client.clone(), &ns);
    finalizer(&api, FINALIZER, ct, |event| async {
        match event {
            Finalizer::Apply(ct) => apply(ct, &ctx).await,
            Finalizer::Cleanup(ct) => cleanup(ct, &ctx).await,
        }
    })
    .await
    .map_err(|e| Error::Finalizer(e.to_string()))
}

fn error_policy(_ct: Arc<CronTab>, _e: &Error, _ctx: Arc<Context>) -> Action {
    Action::requeue(Duration::from_millis(100))
}

/// Runs the controller over every namespace until the stream ends.
pub async fn run(ctx: Arc<Context>) {
    let crontabs: Api<CronTab> = Api::all(ctx.client.clone());
    let cms: Api<ConfigMap> = Api::all(ctx.client.clone());
    Controller::new(crontabs, watcher::Config::default())
        .owns(cms, watcher::Config::default())
        .run(reconcile, error_policy, ctx)
        .for_each(|_| futures_util::future::ready(()))
        .await;
}
