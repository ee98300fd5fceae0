//! Deleting one object of a kind, for a request or for the garbage collector.
//!
//! Mirrors apiserver `pkg/registry/generic/registry/store.go` `Delete`: preconditions (uid,
//! resourceVersion, as `rest/delete.go` `BeforeDelete` names them), an object with finalizers
//! marked as deleting (`deletionTimestamp`, `deletionGracePeriodSeconds: 0`, generation + 1,
//! `markAsDeleting`) and returned, one without removed at once. CRDs and namespaces are always
//! marked: their controllers ([`crate::controllers`]) remove their content, then them.
//!
//! Propagation (`deletionFinalizersForGarbageCollection`): `Orphan` and `Foreground` add the
//! `orphan` and `foregroundDeletion` finalizers, which the garbage collector acts on and
//! removes; `Background` leaves the dependents to it once the owner is gone.

use std::sync::Arc;

use serde_json::{Value, json};

use super::persist;
use crate::api::Api;
use crate::http::status::{ApiError, ApiResult, GroupResource};
use crate::object;
use crate::registry::Strategy;

/// `DeleteOptions`.
#[derive(Default)]
pub(crate) struct Options {
    pub uid: Option<String>,
    pub resource_version: Option<String>,
    /// `propagationPolicy`.
    pub policy: Option<Propagation>,
    /// The deprecated `orphanDependents`.
    pub orphan_dependents: Option<bool>,
}

/// `propagationPolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Propagation {
    Orphan,
    Background,
    Foreground,
}

/// The `orphan` finalizer (`metav1.FinalizerOrphanDependents`).
pub const ORPHAN_FINALIZER: &str = "orphan";
/// The `foregroundDeletion` finalizer (`metav1.FinalizerDeleteDependents`).
pub const FOREGROUND_FINALIZER: &str = "foregroundDeletion";

/// store.go `deletionFinalizersForGarbageCollection`: the finalizers the object should have
/// for the requested propagation (`shouldOrphanDependents`, `shouldDeleteDependents`; custom
/// resources have no default policy, so unspecified means background unless a finalizer says
/// otherwise), and whether they differ from its current ones.
fn gc_finalizers(obj: &Value, o: &Options) -> (bool, Vec<String>) {
    let current = object::finalizers(obj);
    let from_finalizers = || {
        current.iter().find_map(|f| match f.as_str() {
            ORPHAN_FINALIZER => Some(Propagation::Orphan),
            FOREGROUND_FINALIZER => Some(Propagation::Foreground),
            _ => None,
        })
    };
    let policy = match (o.orphan_dependents, o.policy) {
        (Some(true), _) => Some(Propagation::Orphan),
        (Some(false), _) => None,
        (None, Some(p)) => Some(p),
        (None, None) => from_finalizers(),
    };
    let mut new: Vec<String> = current
        .iter()
        .filter(|f| *f != ORPHAN_FINALIZER && *f != FOREGROUND_FINALIZER)
        .cloned()
        .collect();
    match policy {
        Some(Propagation::Orphan) => new.push(ORPHAN_FINALIZER.to_owned()),
        Some(Propagation::Foreground) => new.push(FOREGROUND_FINALIZER.to_owned()),
        _ => {}
    }
    let old_set: std::collections::BTreeSet<&String> = current.iter().collect();
    let new_set: std::collections::BTreeSet<&String> = new.iter().collect();
    if old_set == new_set {
        (false, current)
    } else {
        (true, new)
    }
}

/// What deleting one object did.
pub(crate) enum Outcome {
    /// Marked as deleting (finalizers pending): the object.
    Marked(Value),
    /// Gone: the deleted object.
    Gone(Value),
}

/// store.go `Delete` of one object of `strategy`'s kind (requests and the garbage collector).
pub(crate) async fn delete_object(
    api: &Arc<Api>,
    strategy: &Arc<dyn Strategy>,
    namespace: Option<&str>,
    name: &str,
    o: &Options,
    dry: bool,
) -> ApiResult<Outcome> {
    let info = strategy.info();
    let gr = info.gr();
    // NamespaceLifecycle: the system namespaces stay.
    if info.group.is_empty()
        && info.resource == "namespaces"
        && matches!(name, "default" | "kube-system" | "kube-public")
    {
        return Err(ApiError::forbidden(
            &gr,
            name,
            "this namespace may not be deleted",
        ));
    }
    for _ in 0..32 {
        let key = info.key(namespace, name);
        let current = api.objects.get(&key, &gr, name).await?;
        let mut obj = current.value;
        crate::registry::conversion::to_request(&**strategy, &mut obj).await?;
        // rest/delete.go `BeforeDelete`: the preconditions, named by kind.
        let kind_gr = GroupResource::new(&info.group, &info.kind);
        if let Some(uid) = &o.uid
            && uid != object::uid(&obj)
        {
            return Err(ApiError::conflict(
                &kind_gr,
                name,
                &format!(
                    "the UID in the precondition ({uid}) does not match the UID in record ({}). The object might have been deleted and then recreated",
                    object::uid(&obj)
                ),
            ));
        }
        if let Some(rv) = &o.resource_version
            && rv != &current.revision.to_string()
        {
            return Err(ApiError::conflict(
                &kind_gr,
                name,
                &format!(
                    "the ResourceVersion in the precondition ({rv}) does not match the ResourceVersion in record ({}). The object might have been modified",
                    current.revision
                ),
            ));
        }
        let (update_finalizers, finalizers) = gc_finalizers(&obj, o);
        if update_finalizers {
            object::set_finalizers(&mut obj, &finalizers);
        }
        if strategy.always_marks() || strategy.has_finalizers(&obj) {
            if object::is_deleting(&obj) && !update_finalizers {
                return Ok(Outcome::Marked(obj));
            }
            if !object::is_deleting(&obj) {
                // store.go `markAsDeleting`.
                let now = crate::clock::now();
                let generation = object::generation(&obj);
                if strategy.uses_generation() && generation > 0 {
                    object::set_meta(&mut obj, "generation", Some(json!(generation + 1)));
                }
                object::set_meta(
                    &mut obj,
                    "deletionTimestamp",
                    Some(json!(crate::clock::format(now))),
                );
                object::set_meta(&mut obj, "deletionGracePeriodSeconds", Some(json!(0)));
                strategy.mark_deleting(&mut obj, now);
            }
            if dry {
                return Ok(Outcome::Marked(obj));
            }
            let mut stored = obj.clone();
            crate::registry::conversion::to_storage(&**strategy, &mut stored).await?;
            match persist::update(api, &**strategy, &key, &mut stored, current.revision).await {
                Ok(rev) => {
                    object::set_meta(&mut obj, "resourceVersion", Some(json!(rev.to_string())));
                    return Ok(Outcome::Marked(obj));
                }
                Err(e) if e.code == 409 => continue,
                Err(e) => return Err(e),
            }
        }
        if dry {
            return Ok(Outcome::Gone(obj));
        }
        match persist::delete(api, &**strategy, &key, name, Some(current.revision)).await {
            Ok(d) => {
                let mut gone = d.value;
                // The deleted object as it was stored, if it does not convert.
                let _ = crate::registry::conversion::to_request(&**strategy, &mut gone).await;
                return Ok(Outcome::Gone(gone));
            }
            Err(e) if e.code == 409 => {}
            Err(e) => return Err(e),
        }
    }
    Err(ApiError::modified(&gr, name))
}
