use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(untagged)]
enum E {
    A(String),
    B(bool),
}

fn main() {}
