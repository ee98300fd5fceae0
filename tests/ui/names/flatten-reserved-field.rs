use serde::{Deserialize, Serialize};

// The spec's fields sit beside apiVersion, kind, metadata and status.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "CronTab", namespaced, flatten, status = Status)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    api_version: String,
    status: String,
    #[serde(rename = "metadata")]
    meta: String,
    host: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Status {
    ready: bool,
}

fn main() {}
