use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", selectable_field = ".spec.colour")]
pub struct FooSpec {
    color: String,
}

fn main() {}
