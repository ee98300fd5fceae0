use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

enum E {
    A,
    B(String),
}

fn main() {}
