use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(default = "one")]
    replicas: i64,
}

fn main() {}
