use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct AStatus {
    pub ready: bool,
}

// `subresources: {}` is for a version without subresources.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "A", status = AStatus, empty_subresources)]
pub struct ASpec {
    pub a: String,
}

// `status = ..` adds the status subresource already.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "B", status = AStatus, status_subresource)]
pub struct BSpec {
    pub b: String,
}

fn main() {}
