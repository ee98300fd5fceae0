use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(pattern = "^[a-z]+$", default = "ABC")]
    name: String,
}

fn main() {}
