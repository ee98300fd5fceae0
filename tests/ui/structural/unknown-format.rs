use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(format = "datetime2")]
    at: String,
}

fn main() {}
