use serde::{Deserialize, Serialize};

// No webhook: the None strategy, but the field is added in v1.
#[crdkit::versioned(version(name = "v1beta1", storage), version(name = "v1"))]
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", kind = "CronTab", namespaced)]
pub struct CronTabSpec {
    host: String,
    #[versioned(added(since = "v1"))]
    port: String,
}

fn main() {}
