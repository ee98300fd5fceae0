use serde::{Deserialize, Serialize};

// A keyword from a validation attribute and the same from `#[crd(..)]`: which one is meant?
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[garde(pattern(r"^[a-z]+$"))]
    #[crd(pattern = "^[a-z0-9]+$")]
    name: String,
    #[validate(length(min = 1))]
    #[crd(min_items = 2)]
    list: Vec<String>,
    #[garde(range(min = 0))]
    #[validate(range(min = 1))]
    count: i32,
}

fn main() {}
