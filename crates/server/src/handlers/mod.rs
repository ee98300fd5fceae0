//! Request handling: authentication, routing, and one module per verb.
//!
//! Mirrors apiserver `pkg/endpoints/handlers` (`get.go`, `create.go`, `update.go`, `patch.go`,
//! `delete.go`, `watch.go`) with the generic store semantics of
//! `pkg/registry/generic/registry/store.go`. Handlers parse the request, call the strategy and
//! the store, and encode; semantics live in [`crate::registry`] and the engine.

mod apply;
mod create;
mod delete;
mod discovery;
mod get;
mod guaranteed;
mod list;
mod openapi;
mod patch;
mod update;
mod watch;
mod write;

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};

use crate::api::Api;
use crate::http::decode::{self, Decoded};
use crate::http::negotiate::{self, BodyType, Encoding, Output};
use crate::http::query::Query;
use crate::http::response::{self, Resp};
use crate::http::route::{self, ResourcePath, Route};
use crate::http::status::{ApiError, ApiResult};
use crate::registry::Strategy;

/// A resource request being handled.
pub(crate) struct Ctx {
    pub api: Arc<Api>,
    pub method: Method,
    pub path: ResourcePath,
    pub query: Query,
    pub headers: HeaderMap,
    pub output: Output,
    pub strategy: Arc<dyn Strategy>,
    pub warnings: Vec<String>,
}

impl Ctx {
    /// The encoding of objects and errors.
    pub fn encoding(&self) -> Encoding {
        match self.output {
            Output::Object(e) => e,
            _ => Encoding::Json,
        }
    }

    /// A response with the request's warnings.
    pub fn respond(&self, status: u16, v: &Value) -> Resp {
        let mut r = response::value(status, v, self.encoding());
        response::add_warnings(&mut r, &self.warnings);
        r
    }
}

/// Handles one request; never fails (errors are `Status` responses).
pub async fn handle<B>(api: Arc<Api>, token: Option<Arc<str>>, req: Request<B>) -> Resp
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = req.into_parts();
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    let fallback = if accept.is_some_and(|a| a.starts_with("application/yaml")) {
        Encoding::Yaml
    } else {
        Encoding::Json
    };
    if let Some(token) = &token {
        let ok = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|t| constant_time_eq(t.trim().as_bytes(), token.as_bytes()));
        if !ok {
            return response::error(&ApiError::unauthorized(), fallback);
        }
    }
    match dispatch(api, parts, body).await {
        Ok(r) => r,
        Err(e) => response::error(&e, fallback),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn dispatch<B>(api: Arc<Api>, parts: http::request::Parts, body: B) -> ApiResult<Resp>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    let query = Query::parse(parts.uri.query().unwrap_or(""))?;
    let route = route::parse(parts.uri.path());
    let get_only = |r: ApiResult<Resp>| {
        if parts.method == Method::GET || parts.method == Method::HEAD {
            r
        } else {
            Err(ApiError::method_not_allowed())
        }
    };
    match route {
        Route::Version => get_only(Ok(version(&api))),
        Route::Health => get_only(Ok(response::bytes(
            200,
            "text/plain; charset=utf-8",
            Bytes::from_static(b"ok"),
        ))),
        Route::CoreVersions | Route::Groups | Route::Group(_) | Route::GroupVersion { .. } => {
            get_only(discovery::serve(&api, &route, accept))
        }
        Route::OpenApiIndex | Route::OpenApiDoc(_) => get_only(openapi::serve(&api, &route)),
        Route::OpenApiV2 => get_only(Err(ApiError::no_such_resource())),
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
    let output = negotiate::output(accept)?;
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
    match (ctx.method.clone(), has_name) {
        (Method::GET, _) if watch => watch::watch(ctx).await,
        (Method::GET, true) => get::get(&ctx).await,
        (Method::GET, false) => list::list(&ctx).await,
        (Method::POST, false) => {
            let body = read_body(&ctx, body).await?;
            create::create(&mut ctx, body).await
        }
        (Method::PUT, true) => {
            let body = read_body(&ctx, body).await?;
            update::update(&mut ctx, body).await
        }
        (Method::PATCH, true) => {
            let body = read_raw(&ctx, body).await?;
            patch::patch(&mut ctx, &body).await
        }
        (Method::DELETE, true) => {
            let body = read_raw(&ctx, body).await?;
            delete::delete(&mut ctx, &body).await
        }
        (Method::DELETE, false) => {
            let body = read_raw(&ctx, body).await?;
            delete::delete_collection(&mut ctx, &body).await
        }
        _ => Err(ApiError::method_not_allowed()),
    }
}

/// The raw body, within the size limit and the time limit.
async fn read_raw<B>(ctx: &Ctx, body: B) -> ApiResult<Bytes>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    /// How much of a body over the limit is still read (and dropped) so that the client, still
    /// sending, receives the 413 instead of a reset connection (Go's server does the same).
    const DRAIN: usize = 16 * 1024 * 1024;
    let limit = ctx.api.config.max_body_bytes;
    let read = async {
        let mut body = std::pin::pin!(body);
        let mut buf = bytes::BytesMut::new();
        let mut total = 0usize;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| {
                let e: Box<dyn std::error::Error + Send + Sync> = e.into();
                ApiError::bad_request(format!("error reading the request body: {e}"))
            })?;
            if let Ok(data) = frame.into_data() {
                total = total.saturating_add(data.len());
                if total <= limit {
                    buf.extend_from_slice(&data);
                } else if total > limit.saturating_add(DRAIN) {
                    break;
                }
            }
        }
        if total > limit {
            return Err(ApiError::too_large(&format!("limit is {limit}")));
        }
        Ok(buf.freeze())
    };
    tokio::time::timeout(ctx.api.config.body_timeout, read)
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::timeout(
                "request did not complete within requested timeout - context deadline exceeded",
            ))
        })
}

/// The body of a create or update: JSON or YAML.
async fn read_body<B>(ctx: &Ctx, body: B) -> ApiResult<Decoded>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let ct = ctx
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let ty = negotiate::body_type(ct);
    let raw = read_raw(ctx, body).await?;
    match ty {
        BodyType::Json => decode::json(&raw),
        BodyType::Yaml => decode::yaml(&raw),
        _ => Err(ApiError::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ])),
    }
}
