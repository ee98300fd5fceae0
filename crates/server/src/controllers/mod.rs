//! The controllers the API server runs beside its handlers: the CRD registry kept in step with
//! stored CRDs (for CRDs written by other replicas on the same storage), the CRD finalizer that
//! deletes a deleted CRD's objects before the CRD goes, and the namespace controller that
//! deletes a terminating namespace's content before the namespace goes.
//!
//! Mirrors apiextensions-apiserver `pkg/controller/finalizer/crd_finalizer.go` (the `Terminating`
//! condition `InstanceDeletionInProgress`, every object deleted — objects with finalizers wait
//! for them — then the `customresourcecleanup.apiextensions.k8s.io` finalizer removed) and
//! kubernetes `pkg/controller/namespace/deletion` (content deleted, then the `kubernetes` spec
//! finalizer removed). Every write is a compare-and-swap, so replicas running the same
//! controller do not conflict beyond a retry.

use std::sync::Arc;
use std::time::Duration;

use crdkit_storage::{Event, EventKind, Filter};
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::api::Api;
use crate::http::status::GroupResource;
use crate::object;
use crate::registry::Strategy;
use crate::registry::crd::{CLEANUP_FINALIZER, set_condition};
use crate::store::cached::{Change, Decoded};
use crate::store::{self, Stored};

pub(crate) mod gc;

const CRD_PREFIX: &str = "/registry/apiextensions.k8s.io/customresourcedefinitions/";
const NS_PREFIX: &str = "/registry/namespaces/";

/// Starts the controllers, watching from `revision` (what the registry was loaded at).
pub async fn start(api: &Arc<Api>, revision: u64) {
    // Resume cleanups interrupted by a restart.
    let deleting: Vec<String> = api
        .registry
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .all()
        .filter(|e| e.crd.metadata.deletion_timestamp.is_some())
        .map(|e| e.name.clone())
        .collect();
    for name in deleting {
        spawn_crd_cleanup(api, &name);
    }
    let gr = GroupResource::new("", "namespaces");
    if let Ok((items, _)) = api.objects.list(NS_PREFIX, &Default::default(), &gr).await {
        for s in items.iter().filter(|s| object::is_deleting(&s.value)) {
            spawn_namespace_cleanup(api, object::name(&s.value));
        }
    }
    let api2 = Arc::clone(api);
    api.tasks
        .spawn(async move { watch_loop(api2, revision).await });
    if api.config.garbage_collection {
        let api2 = Arc::clone(api);
        api.tasks.spawn(async move { gc::run_loop(api2).await });
    }
}

async fn watch_loop(api: Arc<Api>, mut revision: u64) {
    loop {
        let filter: Filter<Decoded> = Box::new(|c: &Change| {
            c.key().starts_with(CRD_PREFIX) || c.key().starts_with(NS_PREFIX)
        });
        let mut watcher = match api.cache.watch("/registry/", revision, Some(filter)) {
            Ok(w) => w,
            Err(_) => {
                // History gone: reload everything and carry on from now.
                revision = resync(&api).await;
                continue;
            }
        };
        loop {
            tokio::select! {
                () = api.shutdown.cancelled() => return,
                event = watcher.next() => match event {
                    Some(Ok(c)) => on_event(&api, &c.event()),
                    Some(Err(_)) | None => {
                        if api.shutdown.is_cancelled() {
                            return;
                        }
                        revision = resync(&api).await;
                        break;
                    }
                },
            }
        }
    }
}

/// Reloads the registry from storage; returns the revision read at.
async fn resync(api: &Arc<Api>) -> u64 {
    let gr = GroupResource::new("apiextensions.k8s.io", "customresourcedefinitions");
    match api.objects.list(CRD_PREFIX, &Default::default(), &gr).await {
        Ok((items, result)) => {
            let names: Vec<String> = items
                .iter()
                .map(|s| object::name(&s.value).to_owned())
                .collect();
            for s in &items {
                api.upsert_crd(&s.value, s.revision);
            }
            let stale: Vec<String> = api
                .registry
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .all()
                .filter(|e| !names.contains(&e.name))
                .map(|e| e.name.clone())
                .collect();
            for n in stale {
                api.remove_crd(&n, result.revision);
            }
            result.revision
        }
        Err(_) => {
            tokio::time::sleep(Duration::from_millis(200)).await;
            api.cache.revision()
        }
    }
}

fn on_event(api: &Arc<Api>, e: &Event) {
    let is_crd = e.key.starts_with(CRD_PREFIX);
    match e.kind {
        EventKind::Deleted => {
            if is_crd {
                let name = e.key.trim_start_matches(CRD_PREFIX);
                api.remove_crd(name, e.revision);
            }
        }
        EventKind::Added | EventKind::Modified => {
            let Some(value) = e
                .value
                .as_ref()
                .and_then(|v| store::decode(v, e.revision).ok())
            else {
                return;
            };
            if is_crd {
                api.upsert_crd(&value, e.revision);
                if object::is_deleting(&value) {
                    spawn_crd_cleanup(api, object::name(&value));
                }
            } else if object::is_deleting(&value) {
                spawn_namespace_cleanup(api, object::name(&value));
            }
        }
    }
}

/// Runs `f` once per key at a time.
fn spawn_once<F>(api: &Arc<Api>, key: String, f: F)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    {
        let mut running = api
            .cleanups
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !running.insert(key.clone()) {
            return;
        }
    }
    let api2 = Arc::clone(api);
    api.tasks.spawn(async move {
        f.await;
        api2.cleanups
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&key);
    });
}

fn spawn_crd_cleanup(api: &Arc<Api>, name: &str) {
    let api2 = Arc::clone(api);
    let name = name.to_owned();
    spawn_once(api, format!("crd/{name}"), async move {
        crd_cleanup(&api2, &name).await;
    });
}

fn spawn_namespace_cleanup(api: &Arc<Api>, name: &str) {
    let api2 = Arc::clone(api);
    let name = name.to_owned();
    spawn_once(api, format!("ns/{name}"), async move {
        namespace_cleanup(&api2, &name).await;
    });
}

/// Deletes every object under `prefix` (objects with finalizers are marked as deleting and
/// waited for); returns whether none is left.
async fn delete_all(api: &Api, prefix: &str, gr: &GroupResource) -> bool {
    delete_all_with(api, prefix, gr, None).await
}

/// [`delete_all`], telling `strategy` of each object deleted (a Service's addresses and ports
/// go back to their ranges).
async fn delete_all_with(
    api: &Api,
    prefix: &str,
    gr: &GroupResource,
    strategy: Option<&dyn Strategy>,
) -> bool {
    let Ok((items, _)) = api.objects.list(prefix, &Default::default(), gr).await else {
        return false;
    };
    if items.is_empty() {
        return true;
    }
    for Stored { value, revision } in items {
        let key = format!("{prefix}{}", key_suffix(prefix, &value));
        let name = object::name(&value).to_owned();
        if object::finalizers(&value).is_empty() {
            if let Ok(gone) = api.objects.delete(&key, Some(revision), gr, &name).await
                && let Some(s) = strategy
            {
                s.deleted(&gone.value);
            }
        } else if !object::is_deleting(&value) {
            let mut obj = value;
            let now = crate::clock::now();
            let generation = object::generation(&obj);
            if generation > 0 {
                object::set_meta(&mut obj, "generation", Some(json!(generation + 1)));
            }
            object::set_meta(
                &mut obj,
                "deletionTimestamp",
                Some(json!(crate::clock::format(now))),
            );
            object::set_meta(&mut obj, "deletionGracePeriodSeconds", Some(json!(0)));
            let _ = api.objects.update(&key, &obj, revision, gr, &name).await;
        }
    }
    false
}

/// The key of a listed object below `prefix` (its namespace, when the prefix spans several).
fn key_suffix(prefix: &str, obj: &Value) -> String {
    let ns = object::namespace(obj);
    let name = object::name(obj);
    // A prefix ending in the namespace already (namespace cleanup) or cluster-scoped objects.
    if ns.is_empty() || prefix.ends_with(&format!("/{ns}/")) {
        name.to_owned()
    } else {
        format!("{ns}/{name}")
    }
}

/// Waits a little before the next round of a cleanup, or until shutdown.
async fn pause(api: &Api, round: u32) -> bool {
    let ms = (50u64 << round.min(4)).min(1000);
    tokio::select! {
        () = api.shutdown.cancelled() => false,
        () = tokio::time::sleep(Duration::from_millis(ms)) => true,
    }
}

async fn crd_cleanup(api: &Arc<Api>, name: &str) {
    let gr = api.crds.info().gr();
    let key = api.crds.info().key(None, name);
    let mut round = 0;
    loop {
        let Ok(current) = api.objects.get(&key, &gr, name).await else {
            return;
        };
        if !object::is_deleting(&current.value) {
            return;
        }
        let crd = &current.value;
        let group = crd["spec"]["group"].as_str().unwrap_or("").to_owned();
        let plural = crd["spec"]["names"]["plural"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let prefix = crate::registry::custom_resource::storage_prefix(&group, &plural);
        let objects_gr = GroupResource::new(&group, &plural);
        if round == 0 {
            let mut obj = current.value.clone();
            set_condition(
                &mut obj,
                json!({"type": "Terminating", "status": "True",
                    "lastTransitionTime": crate::clock::format(crate::clock::now()),
                    "reason": "InstanceDeletionInProgress", "message": "CustomResource deletion is in progress"}),
            );
            if let Ok(rev) = api
                .objects
                .update(&key, &obj, current.revision, &gr, name)
                .await
            {
                api.upsert_crd(&obj, rev);
            }
        }
        if delete_all(api, &prefix, &objects_gr).await {
            let Ok(current) = api.objects.get(&key, &gr, name).await else {
                return;
            };
            let mut obj = current.value;
            let fins: Vec<String> = object::finalizers(&obj)
                .into_iter()
                .filter(|f| f != CLEANUP_FINALIZER)
                .collect();
            object::set_finalizers(&mut obj, &fins);
            set_condition(
                &mut obj,
                json!({"type": "Terminating", "status": "False",
                    "lastTransitionTime": crate::clock::format(crate::clock::now()),
                    "reason": "InstanceDeletionCompleted", "message": "removed all instances"}),
            );
            let done = if fins.is_empty() {
                match api
                    .objects
                    .delete(&key, Some(current.revision), &gr, name)
                    .await
                {
                    Ok(d) => {
                        api.remove_crd(name, d.revision);
                        true
                    }
                    Err(_) => false,
                }
            } else {
                match api
                    .objects
                    .update(&key, &obj, current.revision, &gr, name)
                    .await
                {
                    Ok(rev) => {
                        api.upsert_crd(&obj, rev);
                        true
                    }
                    Err(_) => false,
                }
            };
            if done {
                return;
            }
        }
        if !pause(api, round).await {
            return;
        }
        round += 1;
    }
}

/// The objects of one kind in a namespace: their prefix, their resource, and the strategy told
/// of each deletion (built-in kinds).
type Contents = (String, GroupResource, Option<Arc<dyn Strategy>>);

async fn namespace_cleanup(api: &Arc<Api>, name: &str) {
    let gr = GroupResource::new("", "namespaces");
    let key = api.namespaces.info().key(None, name);
    let mut round = 0;
    loop {
        let Ok(current) = api.objects.get(&key, &gr, name).await else {
            return;
        };
        if !object::is_deleting(&current.value) {
            return;
        }
        let mut prefixes: Vec<Contents> = api
            .registry
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .all()
            .filter(|e| e.namespaced())
            .map(|e| {
                let info = e.info(&e.storage_version);
                (info.prefix_for(Some(name)), info.gr(), None)
            })
            .collect();
        // Every namespaced built-in kind too (the namespace controller's
        // `deleteAllContent` over discovery).
        prefixes.extend(api.builtins.namespaced().into_iter().map(|s| {
            let info = s.info();
            let (prefix, gr) = (info.prefix_for(Some(name)), info.gr());
            (prefix, gr, Some(s as Arc<dyn Strategy>))
        }));
        let mut empty = true;
        for (prefix, ogr, strategy) in &prefixes {
            empty &= delete_all_with(api, prefix, ogr, strategy.as_deref()).await;
        }
        if empty {
            let mut obj = current.value;
            if let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) {
                spec.remove("finalizers");
            }
            let done = if object::finalizers(&obj).is_empty() {
                api.objects
                    .delete(&key, Some(current.revision), &gr, name)
                    .await
                    .is_ok()
            } else {
                api.objects
                    .update(&key, &obj, current.revision, &gr, name)
                    .await
                    .is_ok()
            };
            if done {
                return;
            }
        }
        if !pause(api, round).await {
            return;
        }
        round += 1;
    }
}
