use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.", message = "x"))]
struct S {
    name: String,
}

fn main() {}
