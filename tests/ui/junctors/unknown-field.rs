use serde::{Deserialize, Serialize};

// A field a branch restricts must be a field of the type (structural schemas specify every
// property of a junctor outside it).
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(one_of(property("exact", min_length = 1), property("prefixx", min_length = 1)))]
    m: Match,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Match {
    exact: Option<String>,
    prefix: Option<String>,
}

fn main() {}
