//! "Additional printer columns": `Spec`, `Replicas` and `Age`.

use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    short_name = "ct",
    print_column(
        name = "Spec",
        type = "string",
        json_path = ".spec.cronSpec",
        description = "The cron spec defining the interval a CronJob is run"
    ),
    print_column(
        name = "Replicas",
        type = "integer",
        json_path = ".spec.replicas",
        description = "The number of jobs launched by the CronJob"
    ),
    print_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp")
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
