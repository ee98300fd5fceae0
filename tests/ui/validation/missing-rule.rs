use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(validation(message = "hi"))]
    n: i64,
}

fn main() {}
