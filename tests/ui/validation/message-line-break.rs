use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(validation(rule = "self > 0", message = "must be\npositive"))]
    n: i64,
}

fn main() {}
