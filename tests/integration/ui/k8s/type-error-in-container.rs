use k8s_openapi::api::core::v1::PodSpec;
use serde::{Deserialize, Serialize};

// `ports` is a list of ContainerPort objects, `containerPort` an int32: not a string.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Runner")]
#[crd(validation(rule = "self.pod.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort.startsWith('8')))"))]
pub struct RunnerSpec {
    pub pod: PodSpec,
}

fn main() {}
