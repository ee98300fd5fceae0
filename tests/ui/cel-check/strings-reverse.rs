use serde::{Deserialize, Serialize};

// `reverse` is strings v3; Kubernetes has v2.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self.reverse() != self"))]
    name: String,
}

fn main() {}
