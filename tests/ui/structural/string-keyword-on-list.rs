use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(max_length = 3)]
    names: Vec<String>,
}

fn main() {}
