//! Kubernetes strategic merge patch (`application/strategic-merge-patch+json`) as the API server
//! applies it to built-in kinds: apimachinery `pkg/util/strategicpatch`, the apply direction
//! (`StrategicMergeMapPatch`), with its errors and their HTTP answers.
//!
//! - [`strategic_merge_patch`] merges a patch into an object: maps recursively, lists by the
//!   field's strategy (`merge` by merge key or as a set of scalars; replaced otherwise), and the
//!   directives `$patch: replace|delete`, `$retainKeys`, `$setElementOrder/<field>`,
//!   `$deleteFromPrimitiveList/<field>` and `null`;
//! - [`LookupPatchMeta`] is where the strategies and merge keys come from;
//!   [`OpenApiPatchMeta`] reads them from the OpenAPI v3 documents the API server publishes
//!   (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`);
//! - [`PatchError`] carries Go's texts, and [`PatchError::code`] / [`PatchError::status`] the
//!   API server's answer (400, 422, 500, or Go's panic page).
//!
//! ```
//! use crdkit_patch::{Limits, OpenApiPatchMeta, patch_map, strategic_merge_patch};
//! use serde_json::json;
//!
//! // The published schema (OpenAPI v3 `components.schemas`, cut down).
//! let schemas = json!({
//!     "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {
//!         "containers": {"type": "array",
//!             "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}]},
//!             "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"}}},
//!     "io.k8s.api.core.v1.Container": {"type": "object", "properties": {
//!         "name": {"type": "string"}, "image": {"type": "string"}}},
//! });
//! let spec = OpenApiPatchMeta::new(schemas.as_object().unwrap(), "io.k8s.api.core.v1.PodSpec").unwrap();
//!
//! let live = json!({"containers": [{"name": "app", "image": "app:1"}, {"name": "proxy", "image": "envoy"}]});
//! // What `kubectl apply` sends after the user changed app's image.
//! let body = json!({"$setElementOrder/containers": [{"name": "app"}],
//!                   "containers": [{"name": "app", "image": "app:2"}]});
//! let merged = strategic_merge_patch(
//!     live.as_object().unwrap().clone(), patch_map(body).unwrap(), &spec, Limits::default()).unwrap();
//! assert_eq!(serde_json::Value::Object(merged),
//!     json!({"containers": [{"name": "app", "image": "app:2"}, {"name": "proxy", "image": "envoy"}]}));
//!
//! // `$patch: merge` has no meaning in a map: Go's error, which the API server answers with 500.
//! let err = strategic_merge_patch(
//!     serde_json::Map::new(), patch_map(json!({"$patch": "merge"})).unwrap(), &spec, Limits::default())
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "unknown patch type: merge in map: map[$patch:merge]");
//! assert_eq!(err.code(), 500);
//! ```
//!
//! [`merge_patch`] (RFC 7386) lives here too. JSON patch (RFC 6902) stays in crdkit-server for
//! now: its hardened form (no recursion on documents a `copy` makes deep, the copy-size bound)
//! uses the server's non-recursive JSON helpers, which would have to move below both first.
//! The creation of patches (two-way and three-way, which kubectl does) is not here: the API
//! server only applies them. Depends on serde_json and `crdkit-apimachinery` (Go's `%v`/`%q`).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::pedantic)]
// Prose names Go and OpenAPI identifiers (OpenAPI, StrategicMergeMapPatch) without backticks.
#![allow(clippy::doc_markdown)]

mod error;
mod go_value;
mod merge;
mod merge_patch;
mod meta;
mod openapi;

pub use error::{GoPanic, PANIC_BODY, PatchError};
pub use merge::{Limits, patch_map, strategic_merge_patch};
pub use merge_patch::merge_patch;
pub use meta::{LookupPatchMeta, MERGE, PatchMeta, REPLACE, RETAIN_KEYS};
pub use openapi::{FieldKind, OpenApiPatchMeta};
