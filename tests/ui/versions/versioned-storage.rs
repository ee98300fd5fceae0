use serde::{Deserialize, Serialize};

#[crdkit::versioned(version(name = "v1beta1"), version(name = "v1"))]
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", kind = "CronTab", namespaced)]
pub struct CronTabSpec {
    host: String,
}

mod two {
    use serde::{Deserialize, Serialize};

    #[crdkit::versioned(version(name = "v1beta1", storage), version(name = "v1", storage), version(name = "v1"))]
    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", kind = "CronTab", namespaced)]
    pub struct CronTabSpec {
        host: String,
    }
}

fn main() {}
