use serde::{Deserialize, Serialize};

// Structural schemas forbid `description` (and `default`, `nullable`, the extensions) inside
// a junctor: its branches hold value validations only.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(one_of(description = "a", min_length = 1))]
    a: String,
    #[crd(any_of(min_lenght = 1))]
    b: String,
}

fn main() {}
