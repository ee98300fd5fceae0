//! `/openapi/v2`: one Swagger 2.0 document with every built-in definition (crdkit-builtin's, as
//! Kubernetes 1.35 publishes them) and the CRDs' share (their paths and definitions), in JSON or
//! in gnostic protobuf, which kubectl 1.27 and 1.28 ask for (`apply`, `diff`, `explain`).
//!
//! Mirrors kube-openapi `pkg/handler` (`OpenAPIService`: JSON, or protobuf for
//! `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, with an `ETag`) and
//! apiextensions-apiserver `pkg/controller/openapi/controller.go` (the CRDs' specs merged into
//! the aggregated one). The built-in paths are not carried: kubectl reads the definitions.

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, header};
use serde_json::{Value, json};

use crate::api::{Api, OpenApiV2 as V2};
use crate::http::response::{self, Resp, content_type};
use crate::http::status::ApiResult;
use crdkit_crd::openapi;

fn document(api: &Api) -> Arc<V2> {
    // The document for the current registry, with its hash and its protobuf encoding (built
    // on first ask).
    let registry = api
        .registry
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let generation = registry.generation;
    let mut cache = api
        .openapi_v2
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((g, doc)) = &*cache
        && *g == generation
    {
        return Arc::clone(doc);
    }
    let crds: Vec<_> = registry
        .all()
        .filter(|e| e.served())
        .map(|e| e.crd.clone())
        .collect();
    let refs: Vec<_> = crds.iter().collect();
    let custom = openapi::swagger(&refs).unwrap_or_else(|_| json!({}));
    let mut definitions = crdkit_builtin::openapi::definitions_v2().clone();
    if let Some(Value::Object(defs)) = custom.get("definitions") {
        for (k, v) in defs {
            definitions.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let doc = json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": format!("v{}", crdkit_builtin::openapi::release())},
        "paths": custom.get("paths").cloned().unwrap_or_else(|| json!({})),
        "definitions": definitions,
    });
    let hash = openapi::hash(&doc);
    let v2 = Arc::new(V2 {
        json: Bytes::from(serde_json::to_vec(&doc).unwrap_or_default()),
        protobuf: std::sync::OnceLock::new(),
        hash,
        doc: Arc::new(doc),
    });
    *cache = Some((generation, Arc::clone(&v2)));
    v2
}

/// Answers `/openapi/v2`.
pub(super) fn serve(api: &Api, accept: Option<&str>) -> ApiResult<Resp> {
    let v2 = document(api);
    let protobuf = accept.is_some_and(|a| {
        a.split(',').any(|c| {
            let ty = c.split(';').next().unwrap_or("").trim();
            ty == crdkit_protobuf::OPENAPI_V2_ACCEPT
                || ty == crdkit_protobuf::OPENAPI_V2_CONTENT_TYPE
        })
    });
    let mut r = if protobuf {
        let body = v2
            .protobuf
            .get_or_init(|| Bytes::from(crdkit_protobuf::encode_openapi_v2(&v2.doc)));
        response::bytes(200, crdkit_protobuf::OPENAPI_V2_CONTENT_TYPE, body.clone())
    } else {
        response::bytes(200, content_type::JSON, v2.json.clone())
    };
    if let Ok(v) = HeaderValue::from_str(&format!("\"{}\"", v2.hash)) {
        r.headers_mut().insert(header::ETAG, v);
    }
    Ok(r)
}
