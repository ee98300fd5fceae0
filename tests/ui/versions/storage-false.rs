use serde::{Deserialize, Serialize};

// One root is one version: the API server needs it to be the storage version.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", storage = false)]
pub struct FooSpec {
    x: String,
}

fn main() {}
