use k8s_openapi::api::core::v1::PodSpec;
use serde::{Deserialize, Serialize};

// Unbounded lists in lists in lists: the API server's estimate is over its per-rule budget.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Batch")]
#[crd(validation(rule = "self.pods.all(p, p.containers.all(c, c.env.all(e, e.name.matches('^[A-Z_]+$'))))"))]
pub struct BatchSpec {
    pub pods: Vec<PodSpec>,
}

fn main() {}
