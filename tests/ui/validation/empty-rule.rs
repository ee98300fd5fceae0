use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    // Reported once, as the API server does: "rule is not specified", not also a syntax error.
    #[crd(validation(rule = " "))]
    n: i64,
}

fn main() {}
