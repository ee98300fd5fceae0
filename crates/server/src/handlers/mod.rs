//! Request handling: authentication, routing, and one module per verb.
//!
//! Mirrors apiserver `pkg/endpoints/handlers` (`get.go`, `create.go`, `update.go`, `patch.go`,
//! `delete.go`, `watch.go`) with the generic store semantics of
//! `pkg/registry/generic/registry/store.go`. Handlers parse the request (bodies through
//! [`crate::http::body`]), call the strategy, and write through [`crate::rest`], and encode;
//! semantics live in [`crate::registry`] and the engine.

mod actions;
mod apply;
mod continue_token;
mod create;
mod ctx;
mod delete;
mod discovery;
mod get;
mod guaranteed;
mod health;
mod list;
mod openapi;
mod openapi_v2;
mod patch;
mod read;
mod review;
mod selection;
mod update;
mod watch;
mod write;

use std::sync::Arc;

use bytes::Bytes;
use http::{Method, Request, header};
use serde_json::json;

use crate::api::Api;
use crate::http::body;
use crate::http::negotiate::{self, Encoding};
use crate::http::query::Query;
use crate::http::response::{self, Resp};
use crate::http::route::{self, ResourcePath, Route};
use crate::http::status::{ApiError, ApiResult};
use crate::request_log::RequestRecord;
use ctx::Ctx;

/// Handles one request that the filters admitted; never fails (errors are `Status` responses).
pub async fn handle<B>(api: Arc<Api>, req: Request<B>) -> Resp
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = req.into_parts();
    // An error's encoding is negotiated only when there is an error.
    let accept = parts.headers.get(header::ACCEPT).cloned();
    let started = std::time::Instant::now();
    let header = |h: header::HeaderName| {
        parts
            .headers
            .get(h)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    let logging = api.config.request_log > 0;
    let record = logging.then(|| {
        let query = parts.uri.query().unwrap_or("").to_owned();
        let q = Query::parse(&query);
        RequestRecord {
            seq: 0,
            method: parts.method.to_string(),
            path: parts.uri.path().to_owned(),
            watch: q.bool("watch").unwrap_or(false) || parts.uri.path().contains("/watch/"),
            field_manager: q.get("fieldManager").unwrap_or("").to_owned(),
            query,
            status: 0,
            user_agent: header(header::USER_AGENT),
            content_type: header(header::CONTENT_TYPE),
            elapsed: std::time::Duration::ZERO,
        }
    });
    let log_api = logging.then(|| Arc::clone(&api));
    let resp = match dispatch(api, parts, body).await {
        Ok(r) => r,
        Err(e) => response::error(&e, negotiate::error_encoding_of(accept.as_ref())),
    };
    if let (Some(mut record), Some(api)) = (record, log_api) {
        record.status = resp.status().as_u16();
        record.elapsed = started.elapsed();
        api.request_log.push(record);
    }
    resp
}

/// `POST` of a self review ([`review`]).
async fn self_review<B>(
    api: &Api,
    parts: &http::request::Parts,
    path: &ResourcePath,
    body: B,
) -> ApiResult<Resp>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    if parts.method != Method::POST || path.name.is_some() || path.namespace.is_some() {
        return Err(ApiError::method_not_allowed());
    }
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    let output = negotiate::output_with(accept, true)?;
    let body = body::decoded(&parts.headers, body, api.config.body_limits()).await?;
    let review = review::answer(&path.group, &path.resource, body)?;
    let encoding = match output {
        negotiate::Output::Object(e) => e,
        _ => Encoding::Json,
    };
    Ok(response::value(201, &review, encoding))
}

async fn dispatch<B>(api: Arc<Api>, mut parts: http::request::Parts, body: B) -> ApiResult<Resp>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    // The query and route parsed once by the filters that admitted the request (in-process
    // callers come without).
    let query = match parts.extensions.remove::<Query>() {
        Some(query) => query,
        None => Query::parse(parts.uri.query().unwrap_or("")),
    };
    let route = parts
        .extensions
        .remove::<route::Route>()
        .unwrap_or_else(|| route::parse(parts.uri.path()));
    let get_only = |r: ApiResult<Resp>| {
        if parts.method == Method::GET || parts.method == Method::HEAD {
            r
        } else {
            Err(ApiError::method_not_allowed())
        }
    };
    match route {
        Route::Version => get_only(Ok(version(&api))),
        Route::Health => get_only(Ok(health::serve(&api, parts.uri.path(), &query).await)),
        Route::CoreVersions | Route::Groups | Route::Group(_) | Route::GroupVersion { .. } => {
            get_only(discovery::serve(&api, &route, accept))
        }
        Route::OpenApiIndex | Route::OpenApiDoc(_) => {
            get_only(openapi::serve(&api, &route, &query, &parts.headers))
        }
        Route::OpenApiV2 => get_only(openapi_v2::serve(&api, accept)),
        Route::Unknown => Err(ApiError::no_such_resource()),
        Route::Resource(path) => resource(api, parts, path, query, body).await,
    }
}

fn version(api: &Api) -> Resp {
    let (major, minor, git) = &api.config.version;
    response::value(
        200,
        &json!({
            "major": major, "minor": minor, "gitVersion": git,
            "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
            "buildDate": "1970-01-01T00:00:00Z", "goVersion": "go1.23.0", "compiler": "gc",
            "platform": format!("{}/{}", std::env::consts::OS, if cfg!(target_arch = "x86_64") { "amd64" } else { std::env::consts::ARCH }),
        }),
        Encoding::Json,
    )
}

async fn resource<B>(
    api: Arc<Api>,
    parts: http::request::Parts,
    path: ResourcePath,
    query: Query,
    body: B,
) -> ApiResult<Resp>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    if review::is_review(&path.group, &path.version, &path.resource) {
        return self_review(&api, &parts, &path, body).await;
    }
    if let Some(a) = actions::action(&path) {
        return actions::serve(&api, &parts, &path, &query, a, body).await;
    }
    let strategy = api
        .resolve(&path.group, &path.version, &path.resource)
        .ok_or_else(ApiError::no_such_resource)?;
    let info = strategy.info();
    // A namespaced resource needs a namespace except for lists and watches across all of them;
    // a cluster-scoped one has none.
    if info.namespaced != path.namespace.is_some() && !(info.namespaced && path.name.is_none()) {
        return Err(ApiError::no_such_resource());
    }
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    // Protobuf for the kinds that have a message (built-in kinds), as kube-apiserver's
    // serializers; custom resources are JSON and YAML only (not looked up: the first lookup
    // reads the whole message registry).
    let protobuf = strategy.builtin() && crdkit_protobuf::supports(&info.api_version(), &info.kind);
    let output = negotiate::output_with(accept, protobuf)?;
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    if !protobuf && negotiate::body_type(content_type) == negotiate::BodyType::Protobuf {
        return Err(ApiError::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ]));
    }
    let warnings = strategy.warnings();
    let mut ctx = Ctx {
        api,
        method: parts.method.clone(),
        path,
        query,
        headers: parts.headers,
        output,
        strategy,
        warnings,
    };
    let sub = ctx.path.subresource.clone();
    let subs = ctx.strategy.subresources();
    match sub.as_deref() {
        None => {}
        Some("status") if subs.status => {}
        Some("scale") if subs.scale.is_some() => {}
        Some(_) => return Err(ApiError::no_such_resource()),
    }
    let watch = ctx.path.watch_path || ctx.query.bool("watch")?;
    let has_name = ctx.path.name.is_some();
    // A verb the resource does not have is a 405, as the API server's installer registers no
    // route for it.
    if let Some(verbs) = ctx.strategy.verbs()
        && sub.is_none()
    {
        let verb = match (&ctx.method, has_name) {
            (&Method::GET | &Method::HEAD, _) if watch => "watch",
            (&Method::GET | &Method::HEAD, true) => "get",
            (&Method::GET | &Method::HEAD, false) => "list",
            (&Method::POST, _) => "create",
            (&Method::PUT, _) => "update",
            (&Method::PATCH, _) => "patch",
            (&Method::DELETE, true) => "delete",
            (&Method::DELETE, false) => "deletecollection",
            _ => "",
        };
        if !verbs.contains(&verb) {
            return Err(ApiError::method_not_allowed());
        }
    }
    match (ctx.method.clone(), has_name) {
        (Method::GET, _) if watch => watch::watch(ctx).await,
        (Method::GET, true) => get::get(&ctx).await,
        (Method::GET, false) => list::list(&ctx).await,
        (Method::POST, false) => {
            let body = body::decoded(&ctx.headers, body, ctx.api.config.body_limits()).await?;
            create::create(&mut ctx, body).await
        }
        (Method::PUT, true) => {
            let body = body::decoded(&ctx.headers, body, ctx.api.config.body_limits()).await?;
            update::update(&mut ctx, body).await
        }
        (Method::PATCH, true) => {
            let body = body::raw(body, ctx.api.config.body_limits()).await?;
            patch::patch(&mut ctx, &body).await
        }
        (Method::DELETE, true) => {
            let body = body::raw(body, ctx.api.config.body_limits()).await?;
            delete::delete(&mut ctx, &body).await
        }
        (Method::DELETE, false) => {
            let body = body::raw(body, ctx.api.config.body_limits()).await?;
            delete::delete_collection(&mut ctx, &body).await
        }
        _ => Err(ApiError::method_not_allowed()),
    }
}
