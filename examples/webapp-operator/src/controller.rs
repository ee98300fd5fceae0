//! The reconcile loop: server-side apply of the four owned objects, then the status.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Secret, Service, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Client, Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::{MANAGER, WebApp, owned, status};

/// Why a reconcile failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API server refused a write.
    #[error(transparent)]
    Kube(#[from] kube::Error),
    /// A WebApp without a namespace (the kind is namespaced: only a broken cache gives one).
    #[error("WebApp without namespace")]
    NoNamespace,
}

/// What reconciles share.
pub struct Context {
    /// The client.
    pub client: Client,
    /// Reconciles run (for tests and metrics).
    pub reconciles: AtomicUsize,
    /// The `resourceVersion` of each WebApp (`namespace/name`) as its last successful reconcile
    /// saw it: equal to the stored one, the operator has caught up with it.
    reconciled: Mutex<BTreeMap<String, String>>,
}

impl Context {
    /// A context over `client`.
    #[must_use]
    pub fn new(client: Client) -> Arc<Context> {
        Arc::new(Context {
            client,
            reconciles: AtomicUsize::new(0),
            reconciled: Mutex::new(BTreeMap::new()),
        })
    }

    /// The `resourceVersion` of the WebApp `namespace/name` its last successful reconcile saw.
    #[must_use]
    pub fn reconciled_version(&self, namespace: &str, name: &str) -> Option<String> {
        self.reconciled
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&format!("{namespace}/{name}"))
            .cloned()
    }

    fn record(&self, app: &WebApp) {
        if let (Some(ns), Some(rv)) = (app.namespace(), app.resource_version()) {
            self.reconciled
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(format!("{ns}/{}", app.name_any()), rv);
        }
    }
}

/// Server-side applies `obj` with the operator's field manager, forcing conflicts: the
/// operator's opinion wins over any hand edit of the fields it sets (drift correction).
async fn apply<K>(client: &Client, ns: &str, obj: &K) -> Result<K, Error>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned,
{
    let api: Api<K> = Api::namespaced(client.clone(), ns);
    let pp = PatchParams::apply(MANAGER).force();
    Ok(api.patch(&obj.name_any(), &pp, &Patch::Apply(obj)).await?)
}

/// One reconcile: the ServiceAccount, the Secret, the Deployment and the Service applied, then
/// the status from what the server returned (with its defaults and allocations).
///
/// # Errors
/// A write refused by the API server.
pub async fn reconcile(app: Arc<WebApp>, ctx: Arc<Context>) -> Result<Action, Error> {
    ctx.reconciles.fetch_add(1, Ordering::SeqCst);
    if app.metadata.deletion_timestamp.is_some() {
        // Being deleted: the garbage collector removes the owned objects; applying them now
        // would recreate what a foreground deletion is removing.
        return Ok(Action::await_change());
    }
    let ns = app.namespace().ok_or(Error::NoNamespace)?;
    let c = &ctx.client;
    apply(c, &ns, &owned::service_account(&app)).await?;
    apply(c, &ns, &owned::secret(&app)).await?;
    let deployment = apply(c, &ns, &owned::deployment(&app)).await?;
    let service = apply(c, &ns, &owned::service(&app)).await?;
    // Seconds: what a metav1.Time keeps, so a status read back compares equal.
    let now = Time(Timestamp::from_second(Timestamp::now().as_second()).unwrap_or_default());
    let status = status::status(&app, &deployment, &service, now);
    if app.status.as_ref() != Some(&status) {
        let api: Api<WebApp> = Api::namespaced(c.clone(), &ns);
        let body = json!({
            "apiVersion": WebApp::api_version(&()),
            "kind": WebApp::kind(&()),
            "status": status,
        });
        api.patch_status(
            &app.name_any(),
            &PatchParams::apply(MANAGER).force(),
            &Patch::Apply(body),
        )
        .await?;
    }
    ctx.record(&app);
    Ok(Action::requeue(Duration::from_secs(300)))
}

fn error_policy(_app: Arc<WebApp>, _e: &Error, _ctx: Arc<Context>) -> Action {
    Action::requeue(Duration::from_millis(200))
}

/// Runs the operator over every namespace until the stream ends: WebApps watched, and the
/// four owned kinds, so an edit or deletion of an owned object reconciles its WebApp.
pub async fn run(ctx: Arc<Context>) {
    let client = ctx.client.clone();
    Controller::new(
        Api::<WebApp>::all(client.clone()),
        watcher::Config::default(),
    )
    .owns(
        Api::<Deployment>::all(client.clone()),
        watcher::Config::default(),
    )
    .owns(
        Api::<Service>::all(client.clone()),
        watcher::Config::default(),
    )
    .owns(
        Api::<Secret>::all(client.clone()),
        watcher::Config::default(),
    )
    .owns(
        Api::<ServiceAccount>::all(client),
        watcher::Config::default(),
    )
    .run(reconcile, error_policy, ctx)
    .for_each(|_| futures_util::future::ready(()))
    .await;
}
