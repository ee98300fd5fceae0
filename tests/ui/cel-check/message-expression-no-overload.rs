use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    // String concatenation does not convert: the docs' `string(self)` is needed.
    #[crd(validation(rule = "self >= 0", message_expression = "'replicas: ' + self"))]
    replicas: i64,
}

fn main() {}
