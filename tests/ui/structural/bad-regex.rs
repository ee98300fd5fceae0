use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(pattern = "a(b")]
    name: String,
}

fn main() {}
