use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
struct Item {
    // Cheap on its own (20 short tags)...
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags: Vec<String>,
}

// ...but it runs once per item, and the list is unbounded.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing")]
struct ThingSpec {
    items: Vec<Item>,
}

fn main() {}
