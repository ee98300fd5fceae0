use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.nonExistingField > 0"))]
struct Spec {
    replicas: i64,
}

fn main() {}
