use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self.all(x, x > 0)"))]
    replicas: i64,
}

fn main() {}
