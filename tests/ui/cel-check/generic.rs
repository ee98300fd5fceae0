use serde::{Deserialize, Serialize};

// A generic type's rules are checked where it is instantiated.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
struct Bounded<T> {
    #[crd(validation(rule = "self > 0"))]
    value: T,
}

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Thing")]
struct ThingSpec {
    count: Bounded<i64>,
    name: Bounded<String>,
}

fn main() {}
