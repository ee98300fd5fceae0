use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "has(self)"))]
struct Spec {
    replicas: i64,
}

fn main() {}
