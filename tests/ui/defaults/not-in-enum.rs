use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(enum = ["a", "b"], default = "c")]
    name: String,
}

fn main() {}
