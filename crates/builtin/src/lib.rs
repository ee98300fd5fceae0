//! Kubernetes' built-in kinds as the API server treats them, as pure functions over
//! `serde_json::Value` (no server, no storage, no clock):
//!
//! - [`defaults`]: the defaulting of `pkg/apis/*/v1/defaults.go` (`SetObjectDefaults_*`), the
//!   registry strategies' `PrepareForCreate`/`PrepareForUpdate` (status reset, generation,
//!   Secret `stringData`, Job selectors) and the Service IP and node port allocators;
//! - [`validation`]: `pkg/apis/*/validation` for the kinds operators create, with the API server's
//!   field paths and messages.
//!
//! A create goes through them in the API server's order:
//!
//! ```
//! use crdkit_builtin::{defaults, validation};
//! use serde_json::json;
//!
//! let mut deploy = json!({
//!     "apiVersion": "apps/v1", "kind": "Deployment",
//!     "metadata": {"name": "web", "namespace": "default"},
//!     "spec": {
//!         "selector": {"matchLabels": {"app": "web"}},
//!         "template": {
//!             "metadata": {"labels": {"app": "web"}},
//!             "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}});
//! defaults::apply("apps/v1", "Deployment", &mut deploy);
//! defaults::prepare_for_create("apps/v1", "Deployment", &mut deploy);
//! assert!(validation::validate_create("apps/v1", "Deployment", &deploy).is_empty());
//! assert_eq!(deploy["spec"]["replicas"], 1);
//! assert_eq!(deploy["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"], "Always");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod defaults;
pub mod validation;
