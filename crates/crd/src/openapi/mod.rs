//! The OpenAPI documents the API server publishes for CRDs: v3 per group-version
//! (`/openapi/v3/apis/<group>/<version>`) and the CRDs' share of `/openapi/v2`.
//!
//! Mirrors apiextensions-apiserver `pkg/controller/openapi/builder/builder.go` (`BuildOpenAPIV3`,
//! `BuildOpenAPIV2`: the routes of a CRD version, the kind and list schemas),
//! `pkg/controller/openapi/v2/conversion.go` (`ToStructuralOpenAPIV2`, the lossy v2 schema),
//! `builder/merge.go` (`MergeSpecsV3`, `MergeSpecs`), `pkg/controller/openapi/controller.go` and
//! `openapiv3/controller.go` (which versions, which options, defaults pruned for v2), and
//! kube-openapi's `builder3` and `builder` (paths, common parameters, request bodies, `$ref`s
//! wrapped in `allOf`, v2's shared `#/parameters`), `handler.PruneDefaults`, and `handler3`'s
//! index. As of Kubernetes [`KUBERNETES_VERSION`]: the `meta/v1` and `autoscaling/v1` definitions
//! and the option parameters are carried as data (`data/*.json`), as that release publishes them.
//!
//! Pure: no HTTP, no storage. The local API server serves these documents; `crdgen openapi`
//! prints them.

mod builtin;
mod definitions;
mod kind;
mod merge;
mod naming;
mod params;
mod routes;
pub mod schema;
mod v2doc;
mod v3doc;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Value, json};

use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};

pub use builtin::{BuiltinResource, apiextensions_v1, builtin_paths, core_v1};

/// The Kubernetes release whose published documents these are.
pub const KUBERNETES_VERSION: &str = "1.36";

/// Why a document cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenApiError {
    /// `build_v3(crd, "v9")` where the CRD has no version `v9`.
    NoSuchVersion {
        /// The CRD's name (`metadata.name`).
        crd: String,
        /// The version asked for.
        version: String,
    },
    /// Two CRDs publish different schemas under one definition name, or the same path: two
    /// definitions of one kind in one group, which the API server never serves together.
    Conflict {
        /// The definition name (`com.example.stable.v1.CronTab`) or path.
        what: String,
    },
}

impl fmt::Display for OpenApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenApiError::NoSuchVersion { crd, version } => {
                write!(
                    f,
                    "CustomResourceDefinition {crd:?} has no version {version:?}"
                )
            }
            OpenApiError::Conflict { what } => write!(
                f,
                "two CustomResourceDefinitions publish different definitions of {what}"
            ),
        }
    }
}

impl std::error::Error for OpenApiError {}

/// `BuildOpenAPIV3` with the options of the v3 controller: the document of one version of one
/// CRD, as `/openapi/v3/apis/<group>/<version>` publishes it when no other CRD shares the
/// group-version. Unserved versions build too (the controller skips them).
///
/// # Errors
/// [`OpenApiError::NoSuchVersion`].
pub fn build_v3(crd: &CustomResourceDefinition, version: &str) -> Result<Value, OpenApiError> {
    let v = find_version(crd, version)?;
    let b = routes::Builder::new(crd, v, false);
    Ok(v3doc::build(&b))
}

/// `BuildOpenAPIV2` with the options of the v2 controller, defaults not yet pruned: one version
/// of one CRD as a Swagger 2.0 document, its parameters shared under `#/parameters`.
///
/// # Errors
/// [`OpenApiError::NoSuchVersion`].
pub fn build_v2(crd: &CustomResourceDefinition, version: &str) -> Result<Value, OpenApiError> {
    let v = find_version(crd, version)?;
    let b = routes::Builder::new(crd, v, true);
    Ok(v2doc::build(&b))
}

/// The served group-versions of `crds`, sorted: one v3 document each.
#[must_use]
pub fn served_group_versions(crds: &[&CustomResourceDefinition]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = crds
        .iter()
        .flat_map(|c| {
            c.spec
                .versions
                .iter()
                .filter(|v| v.served)
                .map(|v| (c.spec.group.clone(), v.name.clone()))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `/openapi/v3/apis/<group>/<version>`: the documents of every CRD of `group` serving
/// `version`, merged as `MergeSpecsV3` does (the shared `meta/v1` and `autoscaling/v1`
/// definitions once). With no such CRD, a document without paths.
///
/// # Errors
/// [`OpenApiError::Conflict`] when two CRDs publish one kind or one path differently.
pub fn try_group_version(
    group: &str,
    version: &str,
    crds: &[&CustomResourceDefinition],
) -> Result<Value, OpenApiError> {
    let docs: Vec<Value> = serving(group, version, crds)
        .map(|(crd, v)| v3doc::build(&routes::Builder::new(crd, v, false)))
        .collect();
    merge::v3(docs, true)
}

/// [`try_group_version`] for a server, whose CRDs never conflict (the API server's naming
/// controller serves one kind per group): a conflicting definition keeps its first form.
#[must_use]
pub fn group_version(group: &str, version: &str, crds: &[&CustomResourceDefinition]) -> Value {
    let docs: Vec<Value> = serving(group, version, crds)
        .map(|(crd, v)| v3doc::build(&routes::Builder::new(crd, v, false)))
        .collect();
    merge::v3(docs, false).unwrap_or_else(|_| merge::empty_v3())
}

/// The CRDs' share of `/openapi/v2`: every served version of every CRD (`BuildOpenAPIV2`),
/// defaults pruned from the definitions (`handler.PruneDefaults`) and merged (`MergeSpecs`),
/// as one Swagger 2.0 document with the builder's `info`.
///
/// # Errors
/// [`OpenApiError::Conflict`] when two CRDs publish one kind or one path differently.
pub fn swagger(crds: &[&CustomResourceDefinition]) -> Result<Value, OpenApiError> {
    let mut docs = Vec::new();
    for crd in crds {
        for v in crd.spec.versions.iter().filter(|v| v.served) {
            let mut doc = v2doc::build(&routes::Builder::new(crd, v, true));
            if let Some(Value::Object(defs)) = doc.get_mut("definitions") {
                for def in defs.values_mut() {
                    definitions::prune_defaults(def);
                }
            }
            docs.push(doc);
        }
    }
    merge::v2(docs)
}

fn serving<'a>(
    group: &'a str,
    version: &'a str,
    crds: &'a [&'a CustomResourceDefinition],
) -> impl Iterator<
    Item = (
        &'a CustomResourceDefinition,
        &'a CustomResourceDefinitionVersion,
    ),
> + 'a {
    crds.iter()
        .filter(move |c| c.spec.group == group)
        .filter_map(move |c| {
            c.spec
                .versions
                .iter()
                .find(|v| v.name == version && v.served)
                .map(|v| (*c, v))
        })
}

fn find_version<'a>(
    crd: &'a CustomResourceDefinition,
    version: &str,
) -> Result<&'a CustomResourceDefinitionVersion, OpenApiError> {
    crd.spec
        .versions
        .iter()
        .find(|v| v.name == version)
        .ok_or_else(|| OpenApiError::NoSuchVersion {
            crd: crd.metadata.name.clone().unwrap_or_default(),
            version: version.to_owned(),
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
    let paths: serde_json::Map<String, Value> = docs
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
