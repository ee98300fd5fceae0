//! "Categories": the CronTab in the `all` category.

use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    short_name = "ct",
    category = "all"
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
