use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", status = FooStatus, scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas"))]
pub struct FooSpec {
    replicas: String,
}
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    replicas: i32,
}

fn main() {}
