//! `DELETE` of an object or a collection.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/delete.go` (`DeleteOptions` from the body and the
//! query) and `pkg/registry/generic/registry/store.go` `Delete`: preconditions (uid,
//! resourceVersion), an object with finalizers marked as deleting (`deletionTimestamp`,
//! `deletionGracePeriodSeconds: 0`, generation + 1, `markAsDeleting`) and returned, one without
//! removed at once, answered with a `Success` Status naming it (custom resources do not return
//! the deleted object). CRDs and namespaces are always marked: their controllers
//! ([`crate::controllers`]) remove their content, then them. `DeleteCollection` deletes every
//! selected object and returns the list of what it deleted.
//!
//! Propagation (`deletionFinalizersForGarbageCollection`): `Orphan` and `Foreground` add the
//! `orphan` and `foregroundDeletion` finalizers, which the garbage collector
//! (`crate::controllers::gc`) acts on and removes; `Background` leaves the dependents to it
//! once the owner is gone.

use bytes::Bytes;
use serde_json::{Map, Value, json};

use super::Ctx;
use super::list::{Selection, read};
use std::sync::Arc;

use super::guaranteed::{after_delete_in, after_write_in};
use super::write::dry_run;
use crate::api::Api;
use crate::engine::{FieldError, FieldPath};
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult, Details, GroupResource, success};
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

fn options(ctx: &Ctx, raw: &Bytes) -> ApiResult<Options> {
    let mut o = Options::default();
    let policy: Option<String>;
    if !raw.iter().all(u8::is_ascii_whitespace) {
        let body = crate::http::decode::json(raw)?.value;
        if !body.is_object() {
            return Err(ApiError::bad_request(
                "the body of a delete must be DeleteOptions",
            ));
        }
        if let Some(kind) = body.get("kind").and_then(Value::as_str)
            && kind != "DeleteOptions"
        {
            return Err(ApiError::bad_request(format!(
                "the kind in the body ({kind}) is not DeleteOptions"
            )));
        }
        policy = body
            .get("propagationPolicy")
            .and_then(Value::as_str)
            .map(str::to_owned);
        o.orphan_dependents = body.get("orphanDependents").and_then(Value::as_bool);
        if let Some(pre) = body.get("preconditions") {
            o.uid = pre.get("uid").and_then(Value::as_str).map(str::to_owned);
            o.resource_version = pre
                .get("resourceVersion")
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        if let Some(Value::Array(d)) = body.get("dryRun")
            && d.iter().any(|v| v != "All")
        {
            return Err(ApiError::bad_request(
                "dryRun: Unsupported value: supported values: \"All\"",
            ));
        }
    } else {
        // delete.go: without a body, the options come from the query.
        policy = ctx.query.get("propagationPolicy").map(str::to_owned);
        if ctx.query.get("orphanDependents").is_some() {
            o.orphan_dependents = Some(ctx.query.bool("orphanDependents")?);
        }
    }
    ctx.query.int("gracePeriodSeconds")?;
    // apimachinery `ValidateDeleteOptions`.
    let path = FieldPath::new("propagationPolicy");
    let mut errs = Vec::new();
    if let (Some(p), Some(_)) = (&policy, o.orphan_dependents) {
        errs.push(FieldError::invalid(
            &path,
            p.as_str(),
            "orphanDependents and deletionPropagation cannot be both set",
        ));
    }
    match policy.as_deref() {
        None => {}
        Some("Orphan") => o.policy = Some(Propagation::Orphan),
        Some("Background") => o.policy = Some(Propagation::Background),
        Some("Foreground") => o.policy = Some(Propagation::Foreground),
        Some(other) => errs.push(FieldError::not_supported(
            &path,
            other,
            &["Foreground", "Background", "Orphan", "nil"],
        )),
    }
    if !errs.is_empty() {
        return Err(ApiError::invalid("meta.k8s.io", "DeleteOptions", "", &errs));
    }
    Ok(o)
}

/// The `orphan` finalizer (`metav1.FinalizerOrphanDependents`).
pub const ORPHAN_FINALIZER: &str = "orphan";
/// The `foregroundDeletion` finalizer (`metav1.FinalizerDeleteDependents`).
pub const FOREGROUND_FINALIZER: &str = "foregroundDeletion";

/// store.go `deletionFinalizersForGarbageCollection`: the finalizers the object should have
/// for the requested propagation (`shouldOrphanDependents`, `shouldDeleteDependents`; custom
/// resources have no default policy, so unspecified means background unless a finalizer says
/// otherwise), and whether they differ from its current ones.
pub(crate) fn gc_finalizers(obj: &Value, o: &Options) -> (bool, Vec<String>) {
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

fn dry(ctx: &Ctx, raw: &Bytes) -> ApiResult<bool> {
    let body_dry = serde_json::from_slice::<Value>(raw)
        .ok()
        .and_then(|b| b.get("dryRun").cloned())
        .is_some_and(|d| d.as_array().is_some_and(|a| !a.is_empty()));
    Ok(dry_run(ctx)? || body_dry)
}

/// What deleting one object did.
pub(crate) enum Outcome {
    /// Marked as deleting (finalizers pending): the object.
    Marked(Value),
    /// Gone: the deleted object.
    Gone(Value),
}

async fn delete_one(ctx: &Ctx, name: &str, o: &Options, dry: bool) -> ApiResult<Outcome> {
    delete_object(
        &ctx.api,
        &ctx.strategy,
        ctx.path.namespace.as_deref(),
        name,
        o,
        dry,
    )
    .await
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
            match api
                .objects
                .update(&key, &stored, current.revision, &gr, name)
                .await
            {
                Ok(rev) => {
                    object::set_meta(&mut obj, "resourceVersion", Some(json!(rev.to_string())));
                    object::set_meta(&mut stored, "resourceVersion", Some(json!(rev.to_string())));
                    after_write_in(api, &**strategy, &stored, rev);
                    return Ok(Outcome::Marked(obj));
                }
                Err(e) if e.code == 409 => continue,
                Err(e) => return Err(e),
            }
        }
        if dry {
            return Ok(Outcome::Gone(obj));
        }
        match api
            .objects
            .delete(&key, Some(current.revision), &gr, name)
            .await
        {
            Ok(d) => {
                after_delete_in(api, &**strategy, name, d.revision);
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

pub(super) async fn delete(ctx: &mut Ctx, raw: &Bytes) -> ApiResult<Resp> {
    if ctx.path.subresource.is_some() {
        return Err(ApiError::method_not_allowed());
    }
    let o = options(ctx, raw)?;
    let dry = dry(ctx, raw)?;
    let name = ctx.path.name.clone().unwrap_or_default();
    match delete_one(ctx, &name, &o, dry).await? {
        Outcome::Marked(obj) => Ok(ctx.respond(200, &obj)),
        Outcome::Gone(obj) => {
            let info = ctx.strategy.info();
            Ok(ctx.respond(
                200,
                &success(Details {
                    name,
                    group: info.group.clone(),
                    kind: info.resource.clone(),
                    uid: object::uid(&obj).to_owned(),
                    ..Details::default()
                }),
            ))
        }
    }
}

pub(super) async fn delete_collection(ctx: &mut Ctx, raw: &Bytes) -> ApiResult<Resp> {
    if ctx.path.subresource.is_some() {
        return Err(ApiError::method_not_allowed());
    }
    let o = options(ctx, raw)?;
    let dry = dry(ctx, raw)?;
    let sel = Selection::parse(ctx)?;
    let (items, revision, _) = read(ctx, &sel).await?;
    let mut out = Vec::new();
    let mut sub = Ctx {
        api: std::sync::Arc::clone(&ctx.api),
        method: ctx.method.clone(),
        path: ctx.path.clone(),
        query: ctx.query.clone(),
        headers: ctx.headers.clone(),
        output: ctx.output,
        strategy: std::sync::Arc::clone(&ctx.strategy),
        warnings: Vec::new(),
    };
    for item in items {
        let name = object::name(&item).to_owned();
        let ns = object::namespace(&item);
        sub.path.namespace = (!ns.is_empty()).then(|| ns.to_owned());
        match delete_one(&sub, &name, &o, dry).await {
            Ok(Outcome::Marked(v) | Outcome::Gone(v)) => out.push(v),
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    let info = ctx.strategy.info();
    let mut meta = Map::new();
    meta.insert("resourceVersion".to_owned(), json!(revision.to_string()));
    Ok(ctx.respond(
        200,
        &json!({"apiVersion": info.api_version(), "kind": info.list_kind, "metadata": meta, "items": out}),
    ))
}
