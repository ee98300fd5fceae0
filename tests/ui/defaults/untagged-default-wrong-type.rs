use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(untagged)]
enum Port {
    Number(i32),
    Name(String),
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(default = true)]
    port: Port,
}

fn main() {}
