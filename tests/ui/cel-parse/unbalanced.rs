use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(validation(rule = "self.size() > (1"))]
    name: String,
}

fn main() {}
