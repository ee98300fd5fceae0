//! `/openapi/v3` and its per-group-version documents (the built-in ones from crdkit-builtin's
//! published schemas), rebuilt when the CRDs served change.
//!
//! Mirrors kube-aggregator's `specProxier` in front of kube-openapi `pkg/handler3`: the index of
//! paths with `?hash=` (`handleDiscovery`: `http.ServeContent` of the JSON, which it types
//! `text/plain`, modified now, no ETag); a document with its hash as `ETag` and `Vary: Accept`,
//! JSON when the `Accept` takes it (else an empty 406; the protobuf form is not served here),
//! cached for a year when asked for by its current hash (`Cache-Control: public, immutable`,
//! `Expires`), a 301 to its current URL when asked for by another, a 304 for an `If-None-Match`
//! naming its ETag; an unknown group-version an empty 404. And
//! apiextensions-apiserver `pkg/controller/openapiv3` (one document per CRD group-version).

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, header};
use serde_json::Value;

use crate::api::Api;
use crate::http::query::Query;
use crate::http::response::{self, Resp, content_type};
use crate::http::route::Route;
use crate::http::status::{ApiError, ApiResult};
use crdkit_crd::openapi;

/// Every document (`api/v1`, `apis/<g>/<v>`) with its hash, built for the current registry.
fn documents(api: &Api) -> BTreeMap<String, (Arc<Value>, String)> {
    let registry = api
        .registry
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let generation = registry.generation;
    let mut cache = api
        .openapi
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((g, docs)) = &*cache
        && *g == generation
    {
        return docs.clone();
    }
    let mut docs = BTreeMap::new();
    let mut add = |path: String, doc: Value| {
        let h = openapi::hash(&doc);
        docs.insert(path, (Arc::new(doc), h));
    };
    // The built-in group-versions: the published `components.schemas` (the namespaces'
    // paths in `api/v1`, the CRDs' document for apiextensions).
    let mut core = openapi::core_v1();
    if let (Some(Value::Object(dst)), Some(src)) = (
        core.pointer_mut("/components/schemas"),
        crdkit_builtin::openapi::components("", "v1"),
    ) {
        for (k, v) in src {
            dst.insert(k.clone(), v.clone());
        }
    }
    if let Some(Value::Object(dst)) = core.get_mut("paths") {
        dst.extend(builtin_paths(api, "", "v1"));
    }
    add("api/v1".to_owned(), core);
    add(
        "apis/apiextensions.k8s.io/v1".to_owned(),
        openapi::apiextensions_v1(),
    );
    for g in crdkit_builtin::resources::groups() {
        if g.name.is_empty() || g.name == "apiextensions.k8s.io" {
            continue;
        }
        for v in g.versions {
            if let Some(schemas) = crdkit_builtin::openapi::components(g.name, v) {
                let paths = builtin_paths(api, g.name, v);
                add(
                    format!("apis/{}/{v}", g.name),
                    builtin_document(paths, schemas),
                );
            }
        }
    }
    let crds: Vec<_> = registry
        .all()
        .filter(|e| e.served())
        .map(|e| e.crd.clone())
        .collect();
    let mut gvs = BTreeMap::new();
    for e in registry
        .all()
        .filter(|e| e.served() && !e.crd.spec.group.is_empty())
    {
        for v in e.served_versions() {
            gvs.insert(
                format!("apis/{}/{v}", e.crd.spec.group),
                (e.crd.spec.group.clone(), v),
            );
        }
    }
    let refs: Vec<_> = crds.iter().collect();
    for (path, (group, version)) in gvs {
        add(path, openapi::group_version(&group, &version, &refs));
    }
    *cache = Some((generation, docs.clone()));
    docs
}

/// A built-in group-version's document: the paths of its served resources and its published
/// schemas.
fn builtin_document(
    paths: serde_json::Map<String, Value>,
    schemas: &serde_json::Map<String, Value>,
) -> Value {
    serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": format!("v{}", crdkit_builtin::openapi::release())},
        "paths": paths,
        "components": {"schemas": schemas},
    })
}

/// The paths of the built-in resources served at `group/version`.
fn builtin_paths(api: &Api, group: &str, version: &str) -> serde_json::Map<String, Value> {
    let mut paths = serde_json::Map::new();
    for r in api
        .builtins
        .resources()
        .filter(|r| r.group == group && r.version == version)
    {
        let Some(def) = crdkit_builtin::openapi::definition_name(r.group, r.version, r.kind) else {
            continue;
        };
        let served = |name| r.subresource(name).is_some_and(|s| s.served);
        let p = openapi::builtin_paths(&openapi::BuiltinResource {
            group: r.group,
            version: r.version,
            kind: r.kind,
            plural: r.name,
            namespaced: r.namespaced,
            status: served("status"),
            scale: served("scale"),
            definition_prefix: def.rsplit_once('.').map_or(def, |(p, _)| p),
        });
        if let Value::Object(p) = p {
            paths.extend(p);
        }
    }
    paths
}

pub(super) fn serve(
    api: &Api,
    route: &Route,
    query: &Query,
    headers: &http::HeaderMap,
) -> ApiResult<Resp> {
    let header = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let if_none_match = header(header::IF_NONE_MATCH);
    let docs = documents(api);
    match route {
        Route::OpenApiIndex => {
            let hashes: BTreeMap<String, String> = docs
                .iter()
                .map(|(p, (_, h))| (p.clone(), h.clone()))
                .collect();
            let body =
                Bytes::from(serde_json::to_vec(&openapi::index(&hashes)).unwrap_or_default());
            let mut r = response::bytes(200, "text/plain; charset=utf-8", body);
            let now = jiff::Timestamp::now();
            set(&mut r, header::LAST_MODIFIED, &http_date(now));
            // `ServeContent` without an ETag: `*` matches, and an `If-Modified-Since` after
            // now (the index is always new). Go's also matches one in the current second, so
            // that kubectl's HTTP cache, revalidating an index fetched in the same second, keeps
            // the index from before a CRD just created (`explain` then does not find it); here
            // that is a 200.
            let since = header(header::IF_MODIFIED_SINCE).and_then(parse_http_date);
            let fresh = match if_none_match {
                Some(inm) => inm.split(',').any(|t| t.trim() == "*"),
                None => since.is_some_and(|t| t > now.as_second()),
            };
            Ok(if fresh { not_modified_now(r) } else { r })
        }
        Route::OpenApiDoc(path) => {
            let Some((doc, hash)) = docs.get(path) else {
                return Ok(response::empty(404));
            };
            match crate::http::negotiate::takes_json(header(header::ACCEPT)) {
                Some(true) => {}
                no => {
                    // No clause at all: nothing but the `Vary` (an empty 200).
                    let mut r = response::empty(if no.is_none() { 200 } else { 406 });
                    set(&mut r, header::VARY, "Accept");
                    return Ok(r);
                }
            }
            let mut r = match query.get("hash").filter(|h| !h.is_empty()) {
                // `http.Redirect` after the Content-Type is set: no body.
                Some(asked) if asked != hash => {
                    let mut r = response::bytes(301, content_type::JSON, Bytes::new());
                    set(
                        &mut r,
                        header::LOCATION,
                        &format!("/openapi/v3/{path}?hash={hash}"),
                    );
                    r
                }
                asked => {
                    let body = Bytes::from(serde_json::to_vec(&**doc).unwrap_or_default());
                    let mut r = response::bytes(200, content_type::JSON, body);
                    if asked.is_some() {
                        set(&mut r, header::CACHE_CONTROL, "public, immutable");
                        set(&mut r, header::EXPIRES, &a_year_from_now());
                    }
                    r
                }
            };
            set(&mut r, header::VARY, "Accept");
            set(&mut r, header::ETAG, &format!("\"{hash}\""));
            if r.status() == http::StatusCode::MOVED_PERMANENTLY {
                return Ok(r);
            }
            Ok(not_modified(r, hash, if_none_match))
        }
        _ => Err(ApiError::no_such_resource()),
    }
}

fn set(r: &mut Resp, name: header::HeaderName, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        r.headers_mut().insert(name, v);
    }
}

/// `http.ServeContent`'s `If-None-Match` (`*`, or a list of ETags compared weakly): a 304
/// without the body and its `Content-Type`, keeping the other headers.
fn not_modified(r: Resp, etag: &str, if_none_match: Option<&str>) -> Resp {
    let matches = if_none_match.is_some_and(|h| {
        h.split(',')
            .map(str::trim)
            .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == format!("\"{etag}\""))
    });
    if matches { not_modified_now(r) } else { r }
}

/// `writeNotModified`: the status, no body, no `Content-Type`; with an ETag, no
/// `Last-Modified`.
fn not_modified_now(mut r: Resp) -> Resp {
    *r.status_mut() = http::StatusCode::NOT_MODIFIED;
    let h = r.headers_mut();
    h.remove(header::CONTENT_TYPE);
    h.remove(header::CONTENT_LENGTH);
    if h.contains_key(header::ETAG) {
        h.remove(header::LAST_MODIFIED);
    }
    *r.body_mut() = response::Body::Full(Some(Bytes::new()));
    r
}

/// `http.TimeFormat`: `Mon, 02 Jan 2006 15:04:05 GMT`.
fn http_date(t: jiff::Timestamp) -> String {
    t.strftime("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// `http.ParseTime` of the `http.TimeFormat` form, in seconds since the epoch.
fn parse_http_date(s: &str) -> Option<i64> {
    let t = jiff::fmt::strtime::parse("%a, %d %b %Y %H:%M:%S GMT", s.trim()).ok()?;
    let dt = t.to_datetime().ok()?;
    Some(
        dt.to_zoned(jiff::tz::TimeZone::UTC)
            .ok()?
            .timestamp()
            .as_second(),
    )
}

/// Go's `time.Now().AddDate(1, 0, 0).Format(time.RFC1123)` in UTC.
fn a_year_from_now() -> String {
    let now = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC);
    now.checked_add(jiff::ToSpan::year(1))
        .unwrap_or(now)
        .strftime("%a, %d %b %Y %H:%M:%S UTC")
        .to_string()
}
