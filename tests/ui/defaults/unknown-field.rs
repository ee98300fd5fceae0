use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(default = {"x": 1, "y": 2})]
    inner: Inner,
}
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Inner {
    x: i64,
}

fn main() {}
