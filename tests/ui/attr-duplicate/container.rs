use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", group = "other.com")]
pub struct FooSpec {
    x: String,
}

fn main() {}
