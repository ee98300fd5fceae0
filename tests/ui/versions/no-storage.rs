mod types {
    pub mod v1beta1 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v1beta1", kind = "CronTab", namespaced)]
        pub struct CronTabSpec {
            pub host: String,
        }
    }
    pub mod v1 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v1", kind = "CronTab", namespaced)]
        pub struct CronTabSpec {
            pub host: String,
        }
    }
}
use types::*;

#[derive(crdkit::Versions)]
#[versions(conversion = "None")]
enum CronTab {
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
}

fn main() {}
