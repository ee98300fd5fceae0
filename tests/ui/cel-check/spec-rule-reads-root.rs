use serde::{Deserialize, Serialize};

// A rule on the spec type sees the spec as `self`; `self.spec` is a mistake with a hint.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "stable.example.com", version = "v1", kind = "CronTab",
      validation(rule = "self.spec.replicas <= 10"))]
pub struct CronTabSpec {
    replicas: i32,
}

fn main() {}
