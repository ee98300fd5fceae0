use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(grup = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    x: String,
}

fn main() {}
