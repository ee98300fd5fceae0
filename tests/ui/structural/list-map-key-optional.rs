use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(list_type = "map", list_map_keys("name"))]
    items: Vec<Item>,
}
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Item {
    name: Option<String>,
}

fn main() {}
