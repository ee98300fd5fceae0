use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct Node {
    children: Vec<Node>,
}

fn main() {}
