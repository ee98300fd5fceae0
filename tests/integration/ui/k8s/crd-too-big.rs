use k8s_openapi::api::core::v1::PodTemplateSpec;
use serde::{Deserialize, Serialize};

// Eight pod templates with every description: more than etcd takes in one request.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Pipeline")]
pub struct PipelineSpec {
    pub checkout: PodTemplateSpec,
    pub build: PodTemplateSpec,
    pub lint: PodTemplateSpec,
    pub test: PodTemplateSpec,
    pub package: PodTemplateSpec,
    pub publish: PodTemplateSpec,
    pub deploy: PodTemplateSpec,
    pub verify: PodTemplateSpec,
}

fn main() {}
