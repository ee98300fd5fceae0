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

// Only one direction is written.
impl From<v1beta1::CronTab> for v1::CronTab {
    fn from(old: v1beta1::CronTab) -> Self {
        v1::CronTab::new("x", v1::CronTabSpec { host: old.spec.host_port })
    }
}

#[derive(crdkit::Versions)]
#[versions(webhook(url = "https://conversion.example.com/convert"))]
enum CronTab {
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
}

fn main() {}
