//! Kubernetes' built-in kinds as a Kubernetes 1.35 API server serves them with its default
//! configuration, for crdkit's local API server, `crdgen validate` and `kubectl
//! explain`/`apply` against them: the catalog, as data, and what the API server does to their
//! objects, as pure functions over `serde_json::Value` (no server, no storage, no clock).
//!
//! - [`resources`]: every group, version and resource of discovery (66 resources in 21 groups):
//!   kind, scope, verbs, short names, categories, subresources (and which crdkit serves),
//!   storage version, name rule, deprecation warning; group order and preferred versions.
//! - [`openapi`]: the published OpenAPI with descriptions, patch strategies and merge keys: the
//!   `components.schemas` of each group-version's v3 document and the `definitions` of v2,
//!   built lazily from data.
//! - [`schemas`]: the published schemas as structural schemas, for validation, per minor
//!   version (1.29 to 1.35).
//! - [`tables`]: server-side printing, the columns and cells kubectl shows for each kind.
//! - [`fields`]: field selectors, the labels each kind accepts and the values it has for them.
//! - [`names`]: the name rule of each kind, with apimachinery's messages.
//! - [`defaults`]: the defaulting of `pkg/apis/*/v1/defaults.go` (`SetObjectDefaults_*`), the
//!   registry strategies' `PrepareForCreate`/`PrepareForUpdate` (status reset, generation,
//!   Secret `stringData`, Job selectors) and the Service IP and node port allocators.
//! - [`conversion`]: the conversions of the kinds served at a version other than their storage
//!   version (`autoscaling/v1` HorizontalPodAutoscalers, stored as `v2`).
//! - [`decode`]: the type errors of decoding a body into the kind's Go struct, in Go's words.
//! - [`validation`]: `pkg/apis/*/validation` for the kinds operators create, with the API
//!   server's field paths and messages.
//!
//! Pure and cheap to build: `serde_json`, `crdkit-apimachinery` and `crdkit-schema`; the data is
//! `include_str!`ed and parsed on first use. Facts come from the OpenAPI Kubernetes publishes and
//! from its Go sources, each module naming the files it mirrors.
//!
//! What the API server does for a `kubectl get deploy -o wide` of a Deployment:
//!
//! ```
//! use crdkit_builtin::{fields, openapi, resources, tables};
//! use serde_json::json;
//!
//! // kubectl resolves `deploy` through discovery.
//! let r = resources::resolve("deploy")[0];
//! assert_eq!((r.group, r.version, r.name, r.namespaced), ("apps", "v1", "deployments", true));
//!
//! // The list's field selector is checked against the kind's labels.
//! assert!(fields::convert_label(r.group, r.version, r.kind, "metadata.name").is_ok());
//!
//! // The table's columns and the row of each object.
//! let printer = tables::printer(r.group, r.kind);
//! let deploy = json!({"metadata": {"name": "web", "creationTimestamp": "2025-01-01T00:00:00Z"},
//!     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
//!              "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}},
//!     "status": {"readyReplicas": 2, "updatedReplicas": 2, "availableReplicas": 2}});
//! let row = printer.row(&deploy, 1_735_689_600 + 3 * 3600);
//! assert_eq!(row.cells, [json!("web"), json!("2/2"), json!(2), json!(2), json!("3h"),
//!                        json!("nginx"), json!("nginx:1.27"), json!("app=web")]);
//!
//! // `kubectl explain deployment.spec.replicas` reads the published description.
//! let spec = openapi::definition("io.k8s.api.apps.v1.DeploymentSpec").unwrap();
//! assert!(spec["properties"]["replicas"]["description"].as_str().unwrap().contains("Defaults to 1"));
//! ```
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
#![warn(missing_docs, clippy::pedantic)]
// Kinds and product names (CronJob, OpenAPI, APIService) are words of the prose here, not code.
#![allow(clippy::doc_markdown)]
// Validation mirrors Go's functions one by one (same length, same local names, constants next to
// the check that uses them) so that each can be read beside its Go counterpart.
#![allow(
    clippy::too_many_lines,
    clippy::similar_names,
    clippy::many_single_char_names,
    clippy::items_after_statements,
    clippy::match_same_arms
)]
// Lengths of in-memory JSON compared with Go's int64 limits never come near i64::MAX.
#![allow(clippy::cast_possible_wrap)]

pub mod conversion;
pub mod decode;
pub mod defaults;
pub mod fields;
pub mod names;
pub mod openapi;
pub mod resources;
pub mod schemas;
pub mod tables;
pub mod validation;
