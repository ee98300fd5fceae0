use k8s_openapi::api::core::v1::{EnvVar, PodTemplateSpec, ResourceRequirements, Toleration};
use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Database", namespaced)]
#[crd(validation(rule = "!has(self.template) || self.template.spec.containerz.size() > 0"))]
pub struct DatabaseSpec {
    pub replicas: i32,
    pub resources: Option<ResourceRequirements>,
    #[serde(default)]
    pub env: Vec<EnvVar>,
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    pub template: Option<PodTemplateSpec>,
}

fn main() {}
