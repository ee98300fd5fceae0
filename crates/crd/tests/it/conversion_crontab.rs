//! The versioning page's CronTab as typed versions: `v1beta1` has `hostPort`, `v1` has `host`
//! and `port` (as in the page's webhook CRD) and, beyond the page, a `timezone` that `v1beta1`
//! cannot hold. The conversions follow the Kubernetes e2e webhook's `convertExampleCRD`.
#![allow(dead_code)]

use crdkit_crd::conversion::{Conversions, Typed};
use serde::{Deserialize, Serialize};

pub const V1BETA1: &str = "example.com/v1beta1";
pub const V1: &str = "example.com/v1";

pub mod v1beta1 {
    use super::{Deserialize, Serialize};

    /// `example.com/v1beta1`: the fields besides apiVersion, kind and metadata.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct CronTab {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub host_port: Option<String>,
    }
}

pub mod v1 {
    use super::{Deserialize, Serialize};

    /// `example.com/v1`.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    pub struct CronTab {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub timezone: Option<String>,
    }
}

impl TryFrom<v1beta1::CronTab> for v1::CronTab {
    type Error = &'static str;
    fn try_from(old: v1beta1::CronTab) -> Result<v1::CronTab, Self::Error> {
        let Some(host_port) = old.host_port else {
            return Ok(v1::CronTab::default());
        };
        match host_port.split(':').collect::<Vec<_>>()[..] {
            [host, port] => Ok(v1::CronTab {
                host: Some(host.to_owned()),
                port: Some(port.to_owned()),
                timezone: None,
            }),
            _ => Err("hostPort could not be parsed into a separate host and port"),
        }
    }
}

impl From<v1::CronTab> for v1beta1::CronTab {
    fn from(new: v1::CronTab) -> v1beta1::CronTab {
        let host_port = (new.host.is_some() || new.port.is_some()).then(|| {
            format!(
                "{}:{}",
                new.host.unwrap_or_default(),
                new.port.unwrap_or_default()
            )
        });
        v1beta1::CronTab { host_port }
    }
}

/// The webhook's conversions.
pub fn conversions() -> Conversions {
    let crontab = Typed::new("CronTab")
        .version::<v1beta1::CronTab>(V1BETA1)
        .version::<v1::CronTab>(V1)
        .convert::<v1beta1::CronTab, v1::CronTab>()
        .build()
        .expect("two versions, converted both ways");
    Conversions::new().typed(crontab)
}
