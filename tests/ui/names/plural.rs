use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", plural = "Foo_s")]
pub struct FooSpec {
    x: String,
}

fn main() {}
