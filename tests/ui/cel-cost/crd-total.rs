use serde::{Deserialize, Serialize};

// Each rule stays within the per-rule limit (70000 items x its cost), but together they
// exceed the CRD's total.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
struct Item {
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags0: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags1: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags2: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags3: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags4: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags5: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags6: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags7: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags8: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags9: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags10: Vec<String>,
    #[crd(max_items = 20, items(max_length = 10), validation(rule = "self.all(t, t.size() < 10)"))]
    tags11: Vec<String>,
}

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing")]
struct ThingSpec {
    #[crd(max_items = 70000)]
    items: Vec<Item>,
}

fn main() {}
