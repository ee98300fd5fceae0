use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.replicas"))]
struct Spec {
    replicas: i64,
}

fn main() {}
