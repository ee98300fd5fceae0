//! Server-side apply for custom objects, as the Kubernetes API server does it.
//!
//! Two layers, each usable alone:
//!
//! - **structured-merge-diff** (the library the API server merges with, v6): [`fieldpath`]
//!   (paths, sets and their `FieldsV1` form), [`schema`] (the type schema built from a CRD's
//!   structural schema: list types `atomic`/`set`/`map`, map types `granular`/`atomic`, unknown
//!   fields, int-or-string, embedded resources), [`typed`] (validation, the fields a value sets,
//!   merge, comparison, removal), and [`merge::Updater`] (ownership on updates and applies,
//!   conflicts, removal of fields an applier stops sending);
//! - **the API server's field manager** (apimachinery `pkg/util/managedfields`):
//!   [`FieldManager`] reads and writes `metadata.managedFields`, identifies managers by name,
//!   operation, API version and subresource, tracks objects from their first apply
//!   (`before-first-apply`), caps update managers, leaves server-owned metadata to nobody,
//!   resets `status` (main resource) or `spec` and `metadata` (`/status`), keeps kubectl's
//!   `last-applied-configuration` in step; [`manager::scale`] maps ownership across `/scale`;
//!   [`request`] has the request-side checks; [`ApplyError`] carries the API server's `Status`.
//!
//! ```
//! use crdkit_apply::FieldManager;
//! use crdkit_schema::crd::CustomResourceDefinition;
//! use serde_json::json;
//!
//! let crd: CustomResourceDefinition = serde_json::from_value(json!({
//!     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//!     "metadata": {"name": "crontabs.stable.example.com"},
//!     "spec": {
//!         "group": "stable.example.com", "scope": "Namespaced",
//!         "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "listKind": "CronTabList"},
//!         "versions": [{"name": "v1", "served": true, "storage": true,
//!             "subresources": {"status": {}},
//!             "schema": {"openAPIV3Schema": {"type": "object", "properties": {
//!                 "spec": {"type": "object", "properties": {
//!                     "replicas": {"type": "integer"},
//!                     "ports": {"type": "array", "x-kubernetes-list-type": "map",
//!                               "x-kubernetes-list-map-keys": ["name"],
//!                               "items": {"type": "object", "properties": {
//!                                   "name": {"type": "string"}, "port": {"type": "integer"}}}}}},
//!                 "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]
//!     }
//! })).unwrap();
//! let fm = FieldManager::for_crd(&crd, "v1");
//!
//! // `PATCH ...?fieldManager=kubectl` with `application/apply-patch+yaml` on a missing object.
//! let body = b"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec:\n  ports: [{name: http, port: 80}]\n";
//! let config = crdkit_apply::request::decode_apply_patch(body).unwrap();
//! let created = fm.apply(None, &config, "kubectl", false, None, "2024-01-01T00:00:00Z").unwrap();
//!
//! // A controller applies another port: the list merges by key.
//! let other = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
//!     "metadata": {"name": "c"}, "spec": {"ports": [{"name": "metrics", "port": 9090}]}});
//! let merged = fm.apply(Some(&created), &other, "controller", false, None, "2024-01-01T00:00:01Z").unwrap();
//! assert_eq!(merged["spec"]["ports"], json!([{"name": "http", "port": 80}, {"name": "metrics", "port": 9090}]));
//!
//! // Changing kubectl's port is a conflict, 409 with the API server's message.
//! let steal = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
//!     "metadata": {"name": "c"}, "spec": {"ports": [{"name": "http", "port": 8080}]}});
//! let err = fm.apply(Some(&merged), &steal, "controller", false, None, "2024-01-01T00:00:02Z").unwrap_err();
//! assert_eq!(err.to_string(),
//!     r#"Apply failed with 1 conflict: conflict with "kubectl": .spec.ports[name="http"].port"#);
//! assert_eq!(err.status()["details"]["causes"][0]["reason"], "FieldManagerConflict");
//!
//! // Writes that are not applies (create, update, merge or JSON patch) track ownership too.
//! let mut edited = merged.clone();
//! edited["spec"]["replicas"] = json!(3);
//! let updated = fm.update(Some(&merged), &edited, "kubectl-edit", None, "2024-01-01T00:00:03Z");
//! assert_eq!(updated["metadata"]["managedFields"][2]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
//! ```
//!
//! The field manager does what the API server's does inside a request: the caller still runs the
//! registry around it (status/spec reset of the subresource strategy, defaulting, validation,
//! [`request::check_patched_object`], [`request::ignore_managed_fields_timestamps`]).
//!
//! Depends on `crdkit-apimachinery` (Go's formatting and time parsing) and `crdkit-schema` (the
//! structural schema), serde and a YAML reader.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod fieldpath;
pub mod managed_fields;
pub mod manager;
pub mod merge;
pub mod request;
pub mod schema;
pub mod typed;
pub mod value;

pub use error::ApplyError;
pub use manager::FieldManager;
