//! `/openapi/v3` and its per-group-version documents, rebuilt when the CRDs served change.
//!
//! Mirrors kube-openapi `pkg/handler3` (the index of paths with `?hash=`, and the document with
//! its hash as `ETag`; the current document is served whatever hash a client asks for, as the
//! hash in the index changes with the document) and
//! apiextensions-apiserver `pkg/controller/openapiv3` (one document per CRD group-version).

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, header};
use serde_json::Value;

use crate::api::Api;
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
    let mut core = openapi::core_v1();
    let core_kinds: Vec<_> = registry
        .all()
        .filter(|e| e.served() && e.crd.spec.group.is_empty())
        .map(|e| e.crd.clone())
        .collect();
    if !core_kinds.is_empty() {
        // Built-in core kinds served like CRDs (ConfigMaps) join the namespaces' document.
        let refs: Vec<_> = core_kinds.iter().collect();
        let extra = openapi::group_version("", "v1", &refs);
        for section in ["paths", "components"] {
            if let (Some(Value::Object(dst)), Some(Value::Object(src))) =
                (core.get_mut(section), extra.get(section))
            {
                for (k, v) in src {
                    match (dst.get_mut(k), v) {
                        (Some(Value::Object(d)), Value::Object(s)) if section == "components" => {
                            for (k2, v2) in s {
                                d.entry(k2.clone()).or_insert_with(|| v2.clone());
                            }
                        }
                        _ => {
                            dst.entry(k.clone()).or_insert_with(|| v.clone());
                        }
                    }
                }
            }
        }
    }
    add("api/v1".to_owned(), core);
    add(
        "apis/apiextensions.k8s.io/v1".to_owned(),
        openapi::apiextensions_v1(),
    );
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

pub(super) fn serve(api: &Api, route: &Route) -> ApiResult<Resp> {
    let docs = documents(api);
    match route {
        Route::OpenApiIndex => {
            let hashes: BTreeMap<String, String> = docs
                .iter()
                .map(|(p, (_, h))| (p.clone(), h.clone()))
                .collect();
            Ok(response::json_as(
                200,
                &openapi::index(&hashes),
                content_type::JSON,
            ))
        }
        Route::OpenApiDoc(path) => {
            let (doc, hash) = docs.get(path).ok_or_else(ApiError::no_such_resource)?;
            let mut r = response::bytes(
                200,
                content_type::JSON,
                Bytes::from(serde_json::to_vec(&**doc).unwrap_or_default()),
            );
            if let Ok(v) = HeaderValue::from_str(&format!("\"{hash}\"")) {
                r.headers_mut().insert(header::ETAG, v);
            }
            Ok(r)
        }
        _ => Err(ApiError::no_such_resource()),
    }
}
