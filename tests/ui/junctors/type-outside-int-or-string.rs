use serde::{Deserialize, Serialize};

// `type` in a branch: only x-kubernetes-int-or-string's `anyOf: [{type: integer}, {type: string}]`.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(any_of(type = "integer", type = "string"))]
    a: String,
}

fn main() {}
