use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(format = "duration", validation(rule = "self < duration('1 hour')"))]
    timeout: String,
}

fn main() {}
