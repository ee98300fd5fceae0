//! OpenAPI v3 documents built from CRDs, as the API server publishes them under `/openapi/v3`.
//!
//! Mirrors apiextensions-apiserver `pkg/controller/openapi/builder/builder.go` (`BuildOpenAPIV3`:
//! one document per group-version, paths per scope and subresource, the CRD schema with
//! `apiVersion`, `kind` and `metadata` added, and the list kind) and `merge.go` (the documents of
//! the CRDs of one group-version merged), plus kube-openapi's `handler3` index
//! (`{"paths": {"apis/<g>/<v>": {"serverRelativeURL": "/openapi/v3/apis/<g>/<v>?hash=…"}}}`).
//!
//! This module is pure (no HTTP, no storage): it can move into the engine for `crdgen openapi`.
//! What differs from Go: the shared `meta/v1` definitions are shorter (types and our own short
//! descriptions, see [`meta`]), and the `apiextensions.k8s.io/v1` document describes the CRD kind
//! without the full recursive `JSONSchemaProps`.

mod builtin;
mod meta;
mod naming;
mod params;
mod paths;
mod schema;

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::engine::CustomResourceDefinition;

pub use builtin::{apiextensions_v1, core_v1};

/// The OpenAPI v3 document of one group-version, from every CRD of the group that serves it.
///
/// CRDs of another group, or not serving `version`, are skipped. The result has the paths of
/// each CRD's resource and subresources and, under `components.schemas`, each kind, its list
/// kind and the `meta/v1` definitions they refer to.
#[must_use]
pub fn group_version(group: &str, version: &str, crds: &[&CustomResourceDefinition]) -> Value {
    let mut doc_paths = Map::new();
    let mut schemas = Map::new();
    for crd in crds {
        if crd.spec.group != group {
            continue;
        }
        let Some(v) = crd
            .spec
            .versions
            .iter()
            .find(|v| v.name == version && v.served)
        else {
            continue;
        };
        let names = paths::Names::of(crd, version);
        for (path, item) in paths::paths(&names, v) {
            doc_paths.insert(path, item);
        }
        let props = v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref());
        schemas.insert(
            names.definition(&names.kind),
            schema::kind_schema(&names, props),
        );
        schemas.insert(
            names.definition(&names.list_kind),
            schema::list_schema(&names),
        );
        if v.subresources.as_ref().is_some_and(|s| s.scale.is_some()) {
            schemas.insert(meta::SCALE.to_owned(), meta::scale());
        }
    }
    for (name, def) in meta::definitions() {
        schemas.insert(name.to_owned(), def);
    }
    document(doc_paths, schemas)
}

/// `{"openapi": "3.0.0", "info": …, "paths": …, "components": {"schemas": …}}`.
pub(crate) fn document(paths: Map<String, Value>, schemas: Map<String, Value>) -> Value {
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
        "paths": paths,
        "components": {"schemas": schemas},
    })
}

/// A hash of a document for its `?hash=` URL: it changes whenever the document does, so that
/// kubectl's HTTP cache, keyed by URL, never serves a stale schema. (The API server uses SHA-512;
/// any digest of the serialized document does, clients compare it for equality only.)
#[must_use]
pub fn hash(doc: &Value) -> String {
    // FNV-1a over the serialized document, twice with different offsets for 128 bits.
    let bytes = serde_json::to_vec(doc).unwrap_or_default();
    let mut out = String::with_capacity(32);
    for offset in [0xcbf2_9ce4_8422_2325_u64, 0x6c62_272e_07bb_0142_u64] {
        let mut h = offset;
        for b in &bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        out.push_str(&format!("{h:016X}"));
    }
    out
}

/// The `/openapi/v3` index: for each document path (`api/v1`, `apis/<g>/<v>`), its URL with the
/// document's hash.
#[must_use]
pub fn index(docs: &BTreeMap<String, String>) -> Value {
    let paths: Map<String, Value> = docs
        .iter()
        .map(|(path, hash)| {
            (
                path.clone(),
                json!({"serverRelativeURL": format!("/openapi/v3/{path}?hash={hash}")}),
            )
        })
        .collect();
    json!({ "paths": paths })
}

#[cfg(test)]
mod tests;
