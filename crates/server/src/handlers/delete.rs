//! `DELETE` of an object or a collection.
//!
//! Mirrors apiserver `pkg/endpoints/handlers/delete.go`: `DeleteOptions` from the body or the
//! query (validated as apimachinery's `ValidateDeleteOptions`), the deletion itself in
//! [`crate::rest::delete_object`], answered with the object when it was only marked as
//! deleting and with a `Success` Status naming it when it is gone (custom resources do not
//! return the deleted object; the built-in stores with `ReturnDeletedObject` do). `DeleteCollection` deletes every selected object and returns
//! the list of what it deleted.

use bytes::Bytes;
use serde_json::{Map, Value, json};

use super::ctx::Ctx;
use super::list::{Selection, read};
use super::write::dry_run;
use crate::engine::{FieldError, FieldPath};
use crate::http::response::Resp;
use crate::http::status::{ApiError, ApiResult, Details, success};
use crate::object;
use crate::rest::{Options, Outcome, Propagation, delete_object};

/// The delete's options, and whether it is a dry run (the query's `dryRun` or the body's).
fn options(ctx: &Ctx, raw: &Bytes) -> ApiResult<(Options, bool)> {
    let mut o = Options::default();
    let policy: Option<String>;
    let mut body_dry = false;
    if !raw.iter().all(u8::is_ascii_whitespace) {
        // delete.go: a body is decoded as its Content-Type says (`NegotiateInputSerializer`).
        let body =
            crate::http::body::decode_as(&ctx.headers, raw, ctx.api.config.max_body_bytes)?.value;
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
        if let Some(Value::Array(d)) = body.get("dryRun") {
            if d.iter().any(|v| v != "All") {
                return Err(ApiError::bad_request(
                    "dryRun: Unsupported value: supported values: \"All\"",
                ));
            }
            body_dry = !d.is_empty();
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
    Ok((o, dry_run(ctx)? || body_dry))
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

pub(super) async fn delete(ctx: &mut Ctx, raw: &Bytes) -> ApiResult<Resp> {
    if ctx.path.subresource.is_some() {
        return Err(ApiError::method_not_allowed());
    }
    let (o, dry) = options(ctx, raw)?;
    let name = ctx.path.name.clone().unwrap_or_default();
    match delete_one(ctx, &name, &o, dry).await? {
        Outcome::Marked(obj) => Ok(ctx.respond(200, &obj)),
        Outcome::Gone(obj) if ctx.strategy.returns_deleted_object() => Ok(ctx.respond(200, &obj)),
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
    let (o, dry) = options(ctx, raw)?;
    let sel = Selection::parse(ctx)?;
    let listed = read(ctx, &sel).await?;
    let revision = listed.revision;
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
    for item in listed.items {
        let name = item.object.name.clone();
        let ns = &item.object.namespace;
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
