use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(items(validation(rule = "self.startsWith(1)")))]
    names: Vec<String>,
}

fn main() {}
