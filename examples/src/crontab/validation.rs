//! "Validation": a pattern on `cronSpec` and bounds on `replicas`.

use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    short_name = "ct"
)]
#[serde(rename_all = "camelCase", default)]
pub struct CronTabSpec {
    #[crd(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cron_spec: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[crd(minimum = 1, maximum = 10)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
}
