use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
struct Item {
    #[crd(max_length = 63, validation(rule = "self == oldSelf", message = "name is immutable"))]
    name: String,
}

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing")]
struct ThingSpec {
    // An atomic list: old and new items do not correlate.
    #[crd(max_items = 10)]
    items: Vec<Item>,
}

fn main() {}
