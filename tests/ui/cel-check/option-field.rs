use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "!has(self.count) || self.count.size() > 0"))]
struct Spec {
    count: Option<i64>,
}

fn main() {}
