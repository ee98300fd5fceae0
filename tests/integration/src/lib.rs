//! A resource used through kube-rs.

use serde::{Deserialize, Serialize};

/// The docs' CronTab with status and scale.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    short_name = "ct",
    status = CronTabStatus,
    scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas", label_selector = ".status.selector"),
    derive(PartialEq)
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    pub cron_spec: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[crd(minimum = 1)]
    pub replicas: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<k8s_openapi::apimachinery::pkg::api::resource::Quantity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>,
}

/// Status with conditions.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronTabStatus {
    pub replicas: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[crd(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_run: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>,
}
