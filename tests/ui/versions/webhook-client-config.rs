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
#[versions(webhook(url = "http://user:secret@conversion.example.com/convert?x=1#top", review_versions("v2")))]
enum A {
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
}

#[derive(crdkit::Versions)]
#[versions(webhook(service(namespace = "default", name = "svc", path = "convert//Now", port = 0)))]
enum B {
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
}

#[derive(crdkit::Versions)]
#[versions(webhook(ca_bundle = "Cg=="), conversion = "Sometimes")]
enum C {
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
}

fn main() {}
