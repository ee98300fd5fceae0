use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    // Nothing to leave out: serde has no default for the field.
    #[crd(no_default)]
    replicas: i32,
    // `no_default` and a default of crdkit's own contradict each other.
    #[serde(default)]
    #[crd(no_default, default = 1)]
    size: i32,
}

fn main() {}
