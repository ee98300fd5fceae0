use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(max_length = 3)]
    replicas: i64,
}

fn main() {}
