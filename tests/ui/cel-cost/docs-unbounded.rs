use serde::{Deserialize, Serialize};

// The docs' example: without maxItems and maxLength the estimate assumes 3 MiB of input.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self.all(x, x.contains('a string'))"))]
    foo: Vec<String>,
}

fn main() {}
