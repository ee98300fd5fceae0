use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Item {
    name: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.items.all(i, i.nmae != '')"))]
struct Spec {
    items: Vec<Item>,
}

fn main() {}
