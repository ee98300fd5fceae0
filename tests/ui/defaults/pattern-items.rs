use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(items(pattern = "^[a-z]+$", default = "ABC"))]
    names: Vec<String>,
    #[crd(values(pattern = "^[0-9]+$", default = "x"))]
    counts: std::collections::BTreeMap<String, String>,
}

fn main() {}
