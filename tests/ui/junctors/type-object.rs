use serde::{Deserialize, Serialize};

// `type = "object"` makes a `serde_json::Value` an object; other types come from the Rust type.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(type = "string")]
    a: serde_json::Value,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct T {
    #[crd(type = "object")]
    b: String,
}

fn main() {}
