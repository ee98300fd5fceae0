use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(minimum = 1, minimum = 2)]
    n: i64,
}

fn main() {}
