use serde::{Deserialize, Serialize};

// `length(..)` becomes `maxLength`, `maxItems` or `maxProperties` by the field's kind, which a
// free-form value does not have.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[garde(length(max = 3))]
    anything: serde_json::Value,
}

fn main() {}
