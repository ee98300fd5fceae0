use serde::{Deserialize, Serialize};

// A blank message is an error; an empty one is the same as none (the API server's rules).
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(validation(rule = "self > 0", message = "  "))]
    n: i64,
    #[crd(validation(rule = "self > 0", message = "", message_expression = "", field_path = ""))]
    m: i64,
}

fn main() {}
