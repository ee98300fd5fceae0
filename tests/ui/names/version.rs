use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "V1", kind = "Foo")]
pub struct FooSpec {
    x: String,
}

fn main() {}
