use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Range {
    min: i64,
    max: i64,
}

// Each schema node has its own object type: two fields of one Rust type do not compare.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.current == self.desired"))]
struct Spec {
    current: Range,
    desired: Range,
}

fn main() {}
