use k8s_openapi::api::core::v1::Toleration;
use serde::{Deserialize, Serialize};

// Tolerations are an atomic list: their items do not correlate with the old object's.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Placement")]
pub struct PlacementSpec {
    #[crd(items(validation(rule = "self.key == oldSelf.key", message = "immutable")))]
    pub tolerations: Vec<Toleration>,
}

fn main() {}
