use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(any_of(type = "int", type = "string"))]
    a: crdkit::IntOrString,
}

fn main() {}
