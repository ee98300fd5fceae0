use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(max_lenght = 3)]
    name: String,
}

fn main() {}
