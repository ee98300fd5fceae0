use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Inner {
    a: i32,
}

// `{"t": "A", "c": "text"}` and `{"t": "B", "c": {"a": 1}}`: `c` is a string or an object.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A(String),
    B(Inner),
    C,
}

fn main() {}
