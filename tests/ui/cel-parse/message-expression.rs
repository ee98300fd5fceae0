use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(validation(rule = "self > 0", message_expression = "'got ' + string(self"))]
    n: i64,
}

fn main() {}
