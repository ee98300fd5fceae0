use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(group = "example.com")]
struct S {
    x: String,
}

fn main() {}
