use serde::{Deserialize, Serialize};

// Fields of unknown type (`x-kubernetes-preserve-unknown-fields`) are invisible to CEL.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "has(self.config)"))]
struct Spec {
    config: serde_json::Value,
}

fn main() {}
