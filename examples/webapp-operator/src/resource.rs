//! The custom resource: a web application the operator runs as a Deployment behind a Service.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use serde::{Deserialize, Serialize};

/// A web application: an image served on `port`, `replicas` copies, plain environment
/// variables and secret ones (kept in an owned Secret).
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "apps.crdkit.dev",
    version = "v1",
    kind = "WebApp",
    namespaced,
    short_name = "wa",
    status = WebAppStatus,
    print_column(name = "Image", json_path = ".spec.image"),
    print_column(name = "Replicas", json_path = ".status.replicas", type = "integer"),
    print_column(name = "Ready", json_path = ".status.readyReplicas", type = "integer"),
    print_column(name = "Cluster-IP", json_path = ".status.clusterIP"),
)]
#[serde(rename_all = "camelCase")]
pub struct WebAppSpec {
    /// The container image.
    #[crd(min_length = 1)]
    pub image: String,
    /// How many Pods the Deployment asks for.
    #[crd(minimum = 0, maximum = 100, default = 1)]
    #[serde(default)]
    pub replicas: i32,
    /// The container's port; the Service exposes it on port 80.
    #[crd(minimum = 1, maximum = 65535, default = 8080)]
    #[serde(default)]
    pub port: i32,
    /// Plain environment variables of the container.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Secret environment variables: written to the owned Secret (as `stringData`), passed to
    /// the container through `envFrom`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secret: BTreeMap<String, String>,
}

/// What the operator observed of its owned objects.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct WebAppStatus {
    /// The generation of the WebApp last reconciled.
    #[serde(default)]
    pub observed_generation: i64,
    /// The owned Deployment's `spec.replicas`.
    #[serde(default)]
    pub replicas: i32,
    /// The owned Deployment's `status.readyReplicas` (absent, hence 0, while no Pod runs).
    #[serde(default)]
    pub ready_replicas: i32,
    /// The cluster IP the API server allocated to the owned Service.
    #[serde(default, rename = "clusterIP", skip_serializing_if = "Option::is_none")]
    pub cluster_ip: Option<String>,
    /// `Ready`: whether every replica the Deployment asks for is ready.
    #[crd(list_type = "map", list_map_keys("type"))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}
