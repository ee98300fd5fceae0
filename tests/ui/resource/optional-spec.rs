use serde::{Deserialize, Serialize};

// With `flatten` there is no `spec` property to make optional.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "A", flatten, optional_spec)]
pub struct ASpec {
    pub a: String,
}

// `#[serde(default)]` makes the spec optional already.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default)]
#[crd(group = "example.com", version = "v1", kind = "B", optional_spec)]
#[serde(default)]
pub struct BSpec {
    pub b: String,
}

fn main() {}
