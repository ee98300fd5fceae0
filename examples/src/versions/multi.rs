//! "Specify multiple versions": the CronTab in `v1beta1`, the storage version, and `v1`, with
//! the same schema (`host` and `port` at the root of the object) and the `None` strategy.

/// `example.com/v1beta1`
pub mod v1beta1 {
    use serde::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v1beta1",
        kind = "CronTab",
        namespaced,
        short_name = "ct",
        flatten
    )]
    #[serde(default)]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
    }
}

/// `example.com/v1`
pub mod v1 {
    use serde::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v1",
        kind = "CronTab",
        namespaced,
        short_name = "ct",
        flatten
    )]
    #[serde(default)]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
    }
}

/// A CronTab in either version. `None` conversion: the API server only changes `apiVersion`,
/// which the derive checks is enough (the schemas are the same).
#[derive(crdkit::Versions, Clone, Debug)]
#[versions(conversion = "None")]
pub enum CronTab {
    /// `example.com/v1beta1`, where objects are stored.
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    /// `example.com/v1`
    V1(v1::CronTab),
}
