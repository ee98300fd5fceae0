use serde::{Deserialize, Serialize};

// `#[schemars(..)]` attributes that change the schema schemars writes: crdkit does not read
// them (`schema_with` and `with` only for a `#[crd(schemars)]` field), so they must not
// silently stay.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[schemars(schema_with = "conditions")]
    conditions: Vec<String>,
    #[schemars(extend("x-kubernetes-list-type" = "set"))]
    set: Vec<String>,
    #[schemars(rename = "other")]
    renamed: String,
    // What crdkit reads: validation keywords and descriptions.
    #[schemars(length(min = 1), description = "read")]
    fine: String,
}

fn main() {}
