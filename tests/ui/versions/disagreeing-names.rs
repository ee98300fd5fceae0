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
        #[crd(group = "example.org", version = "v1", kind = "CronTab", namespaced)]
        pub struct CronTabSpec {
            pub host: String,
        }
    }
    pub mod v2 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v2", kind = "CronTab", namespaced, plural = "crontabz")]
        pub struct CronTabSpec {
            pub host: String,
        }
    }
    pub mod v3 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v3", kind = "CronTab", )]
        pub struct CronTabSpec {
            pub host: String,
        }
    }
    pub mod v4 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v4", kind = "CronTab", namespaced, short_name = "ct")]
        pub struct CronTabSpec {
            pub host: String,
        }
    }
    pub mod v5 {
        use serde::{Deserialize, Serialize};
        #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(group = "example.com", version = "v5", kind = "Crontab", namespaced)]
        pub struct CrontabSpec {
            pub host: String,
        }
    }
}
use types::*;

#[derive(crdkit::Versions)]
#[versions(conversion = "None")]
enum CronTab {
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    V1(v1::CronTab),
    V2(v2::CronTab),
    V3(v3::CronTab),
    V4(v4::CronTab),
    V5(v5::Crontab),
}

fn main() {}
