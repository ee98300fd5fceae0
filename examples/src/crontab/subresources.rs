//! "Subresources": the status and scale subresources.

use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    short_name = "ct",
    status = CronTabStatus,
    scale(
        spec_replicas = ".spec.replicas",
        status_replicas = ".status.replicas",
        label_selector = ".status.labelSelector",
    ),
)]
#[serde(rename_all = "camelCase", default)]
pub struct CronTabSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cron_spec: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct CronTabStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
}
