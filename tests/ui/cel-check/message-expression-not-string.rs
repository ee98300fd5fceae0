use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self >= 0", message_expression = "self"))]
    replicas: i64,
}

fn main() {}
