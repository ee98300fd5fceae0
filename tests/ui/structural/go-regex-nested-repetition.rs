use serde::{Deserialize, Serialize};

// Go's RE2 rejects a repetition of a repetition, which the `regex` crate accepts.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(pattern = "a**")]
    name: String,
}

fn main() {}
