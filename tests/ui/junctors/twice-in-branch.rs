use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(one_of(branch(min_length = 1, min_length = 2), max_length = 3))]
    a: String,
    #[crd(all_of(branch(property("x", min_length = 1), property("x", max_length = 2))))]
    b: Inner,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Inner {
    x: String,
}

fn main() {}
