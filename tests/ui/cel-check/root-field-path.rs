use serde::{Deserialize, Serialize};

// The CRD's root schema declares `spec` and `status` only.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing",
      root_validation(rule = "self.metadata.name.size() < 20", field_path = ".metadata.name"))]
struct ThingSpec {
    replicas: i64,
}

fn main() {}
