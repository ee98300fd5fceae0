use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "isEmail(self)"))]
    contact: String,
}

fn main() {}
