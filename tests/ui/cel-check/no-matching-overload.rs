use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(validation(rule = "self == true"))]
    n: i64,
}

fn main() {}
