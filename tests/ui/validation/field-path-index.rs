use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.n > 0", field_path = ".items[0]"))]
struct S {
    n: i64,
    items: Vec<String>,
}

fn main() {}
