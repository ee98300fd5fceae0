use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(maximum = 10, default = 15)]
    replicas: i64,
}

fn main() {}
