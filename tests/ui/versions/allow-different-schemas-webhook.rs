mod types {
    pub mod v1beta1 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v1beta1", kind = "CronTab", namespaced)]
        pub struct CronTabSpec {
            pub host_port: String,
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

// A webhook converts whatever the schemas; `allow_different_schemas` is for `None`.
#[derive(crdkit::Versions)]
#[versions(
    webhook(url = "https://conv.example.com/convert"),
    allow_different_schemas,
    order = "newest"
)]
enum CronTab {
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
}

fn main() {}
