use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Common {
    labels_count: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.labels_count.startsWith('x')"))]
struct Spec {
    name: String,
    #[serde(flatten)]
    common: Common,
}

fn main() {}
