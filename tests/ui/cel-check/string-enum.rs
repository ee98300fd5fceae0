use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
enum Mode {
    Low,
    High,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.mode == 1"))]
struct Spec {
    mode: Mode,
}

fn main() {}
