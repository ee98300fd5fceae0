use serde::{Deserialize, Serialize};

fn zero() -> i32 {
    0
}

// A serde default that breaks the field's schema is reported when the CRD is built (see
// tests/it/defaults.rs); a literal one at compile time, whatever serde says.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[serde(default = "zero")]
    #[crd(minimum = 1, default = 0)]
    replicas: i32,
}

fn main() {}
