use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "A",
    api_version_property = "APIVersion",
    api_version_property,
    kind_property(required),
    metadata_property(descripton = "x")
)]
pub struct ASpec {
    pub a: String,
}

fn main() {}
