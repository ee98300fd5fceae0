use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", print_column(name = "X", json_path = ".spec.x", type = "int"))]
pub struct FooSpec {
    x: String,
}

fn main() {}
