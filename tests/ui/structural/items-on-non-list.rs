use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(items(max_length = 3))]
    name: String,
}

fn main() {}
