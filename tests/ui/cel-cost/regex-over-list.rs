use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self.all(n, n.matches('^[a-z]+$'))"))]
    names: Vec<String>,
}

fn main() {}
