use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self.size() < 10", message_expression = "'%d is too long'.format([self])"))]
    name: String,
}

fn main() {}
