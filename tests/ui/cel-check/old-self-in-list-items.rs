use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    // The items of a list that is not `list_type = "map"` cannot be correlated.
    #[crd(list_type = "set", items(validation(rule = "self == oldSelf")))]
    tags: Vec<String>,
}

fn main() {}
