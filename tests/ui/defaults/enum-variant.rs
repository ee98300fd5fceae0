use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(default = "Medium")]
    size: Size,
}
#[derive(crdkit::Schema, Serialize, Deserialize)]
enum Size {
    Small,
    Large,
}

fn main() {}
