use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]

struct S {
    #[crd(validation(rule = "self > 0", reason = "FieldValueWrong"))]
    n: i64,
}

fn main() {}
