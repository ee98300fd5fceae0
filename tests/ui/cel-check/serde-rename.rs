use serde::{Deserialize, Serialize};

// Rules see the serialized names: `minReplicas`, not `min_replicas`.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[crd(validation(rule = "self.min_replicas <= self.replicas"))]
struct Spec {
    min_replicas: i64,
    replicas: i64,
}

fn main() {}
