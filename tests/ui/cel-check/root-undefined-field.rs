use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing", status = ThingStatus,
      root_validation(rule = "self.status.ready <= self.spec.replcias"))]
struct ThingSpec {
    replicas: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
struct ThingStatus {
    ready: i64,
}

fn main() {}
