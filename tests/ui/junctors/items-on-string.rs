use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(not(items(min_length = 1)))]
    a: String,
}

fn main() {}
