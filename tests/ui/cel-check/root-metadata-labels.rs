use serde::{Deserialize, Serialize};

// Only `metadata.name` and `metadata.generateName` are visible to rules.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing",
      root_validation(rule = "'app' in self.metadata.labels"))]
struct ThingSpec {
    replicas: i64,
}

fn main() {}
