use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", status = FooStatus, print_column(name = "Ready", json_path = ".status.conditions[?(@.kind==\"Ready\")].status", type = "string"))]
pub struct FooSpec {
    x: String,
}
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    conditions: Vec<Condition>,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Condition {
    #[serde(rename = "type")]
    ty: String,
    status: String,
}

fn main() {}
