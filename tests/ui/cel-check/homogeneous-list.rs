use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self in [1, 'one']"))]
    level: i64,
}

fn main() {}
