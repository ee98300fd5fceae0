//! "Webhook conversion": `v1beta1` writes `hostPort` (`localhost:1234`), `v1` writes `host`
//! and `port`. The conversions are `TryFrom`/`From` between the versions' root types; the
//! one that can fail returns the page's message, which a conversion webhook reports as the
//! review's failure.

/// `example.com/v1beta1`, the storage version.
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
    #[serde(rename_all = "camelCase", default)]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub host_port: Option<String>,
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

impl TryFrom<v1beta1::CronTab> for v1::CronTab {
    type Error = &'static str;

    fn try_from(old: v1beta1::CronTab) -> Result<Self, Self::Error> {
        let spec = match old.spec.host_port {
            None => v1::CronTabSpec::default(),
            Some(host_port) => {
                let (host, port) = host_port
                    .split_once(':')
                    .ok_or("hostPort could not be parsed into a separate host and port")?;
                v1::CronTabSpec {
                    host: Some(host.to_owned()),
                    port: Some(port.to_owned()),
                }
            }
        };
        Ok(v1::CronTab {
            metadata: old.metadata,
            spec,
        })
    }
}

impl From<v1::CronTab> for v1beta1::CronTab {
    fn from(new: v1::CronTab) -> Self {
        let host_port = match (new.spec.host, new.spec.port) {
            (None, None) => None,
            (host, port) => Some(format!(
                "{}:{}",
                host.unwrap_or_default(),
                port.unwrap_or_default()
            )),
        };
        v1beta1::CronTab {
            metadata: new.metadata,
            spec: v1beta1::CronTabSpec { host_port },
        }
    }
}

/// A CronTab in either version, converted by the webhook the page deploys
/// (`example-conversion-webhook-server` in `default`, path `/crdconvert`).
#[derive(crdkit::Versions, Clone, Debug)]
#[versions(webhook(
    service(
        namespace = "default",
        name = "example-conversion-webhook-server",
        path = "/crdconvert"
    ),
    ca_bundle = "Ci0tLS0tQk...<base64-encoded PEM bundle>...tLS0K",
    review_versions("v1", "v1beta1")
))]
pub enum CronTab {
    /// `example.com/v1beta1`, where objects are stored.
    #[versions(storage)]
    V1beta1(v1beta1::CronTab),
    /// `example.com/v1`
    V1(v1::CronTab),
}
