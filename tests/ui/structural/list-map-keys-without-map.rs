use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(list_map_keys("name"))]
    items: Vec<Item>,
}
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Item {
    name: String,
}

fn main() {}
