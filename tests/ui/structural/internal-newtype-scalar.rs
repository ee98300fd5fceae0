use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum E {
    A(String),
}

fn main() {}
