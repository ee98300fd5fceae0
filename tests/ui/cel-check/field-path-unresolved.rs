use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[crd(validation(rule = "self.minReplicas <= self.maxReplicas", field_path = ".minReplica"))]
struct Spec {
    min_replicas: i64,
    max_replicas: i64,
}

fn main() {}
