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
//! What differs: no garbage collector runs, so `Foreground` and `Orphan` propagation behave as
//! `Background` (no `foregroundDeletion`/`orphan` finalizer is added).

use bytes::Bytes;
use serde_json::{Map, Value, json};

use super::Ctx;
use super::list::{Selection, read};
use super::write::{after_delete, after_write, dry_run};
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult, Details, success};
use crate::object;

/// `DeleteOptions`.
#[derive(Default)]
struct Options {
    uid: Option<String>,
    resource_version: Option<String>,
}

fn options(ctx: &Ctx, raw: &Bytes) -> ApiResult<Options> {
    let mut o = Options::default();
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
        if let Some(p) = body.get("propagationPolicy").and_then(Value::as_str) {
            check_policy(p)?;
        }
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
    }
    if let Some(p) = ctx.query.get("propagationPolicy") {
        check_policy(p)?;
    }
    ctx.query.int("gracePeriodSeconds")?;
    Ok(o)
}

fn check_policy(p: &str) -> ApiResult<()> {
    match p {
        "Orphan" | "Background" | "Foreground" => Ok(()),
        other => Err(ApiError::bad_request(format!(
            "propagationPolicy: Unsupported value: \"{other}\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
        ))),
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
enum Outcome {
    /// Marked as deleting (finalizers pending): the object.
    Marked(Value),
    /// Gone: the deleted object.
    Gone(Value),
}

async fn delete_one(ctx: &Ctx, name: &str, o: &Options, dry: bool) -> ApiResult<Outcome> {
    let strategy = &ctx.strategy;
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
    let ns = ctx.path.namespace.clone();
    for _ in 0..32 {
        let key = info.key(ns.as_deref(), name);
        let current = ctx.api.objects.get(&key, &gr, name).await?;
        let mut obj = current.value;
        crate::registry::conversion::to_request(&**strategy, &mut obj).await?;
        if let Some(uid) = &o.uid
            && uid != object::uid(&obj)
        {
            return Err(ApiError::conflict(
                &gr,
                name,
                &format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    object::uid(&obj)
                ),
            ));
        }
        if let Some(rv) = &o.resource_version
            && rv != &current.revision.to_string()
        {
            return Err(ApiError::conflict(
                &gr,
                name,
                &format!(
                    "Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {}",
                    current.revision
                ),
            ));
        }
        if strategy.always_marks() || strategy.has_finalizers(&obj) {
            if object::is_deleting(&obj) {
                return Ok(Outcome::Marked(obj));
            }
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
            if dry {
                return Ok(Outcome::Marked(obj));
            }
            let mut stored = obj.clone();
            crate::registry::conversion::to_storage(&**strategy, &mut stored).await?;
            match ctx
                .api
                .objects
                .update(&key, &stored, current.revision, &gr, name)
                .await
            {
                Ok(rev) => {
                    object::set_meta(&mut obj, "resourceVersion", Some(json!(rev.to_string())));
                    object::set_meta(&mut stored, "resourceVersion", Some(json!(rev.to_string())));
                    after_write(ctx, &stored, rev);
                    return Ok(Outcome::Marked(obj));
                }
                Err(e) if e.code == 409 => continue,
                Err(e) => return Err(e),
            }
        }
        if dry {
            return Ok(Outcome::Gone(obj));
        }
        match ctx
            .api
            .objects
            .delete(&key, Some(current.revision), &gr, name)
            .await
        {
            Ok(d) => {
                after_delete(ctx, name, d.revision);
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
