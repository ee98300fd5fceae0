//! The versioning page's conversion webhook for CronTab: `example.com/v1beta1` has `hostPort`,
//! `example.com/v1` has `host` and `port` ("Configure CustomResourceDefinition to use conversion
//! webhooks"). One Rust type per version, `TryFrom`/`From` between them, and
//! [`crdkit::conversion::Typed`] turns them into the webhook's converter; the binary
//! `crontab-conversion-webhook` serves it over HTTPS.
//!
//! ```
//! let conversions = crdkit_example_webhook::conversions();
//! let obj = serde_json::json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
//!     "metadata": {"name": "local-crontab"}, "hostPort": "localhost:1234"});
//! let v1 = conversions.convert(obj, "example.com/v1").unwrap();
//! assert_eq!((v1["host"].as_str(), v1["port"].as_str()), (Some("localhost"), Some("1234")));
//! ```

use crdkit::conversion::{Conversions, Typed};
use serde::{Deserialize, Serialize};

/// The CRD's group.
pub const GROUP: &str = "example.com";

/// `example.com/v1beta1`
pub mod v1beta1 {
    use super::{Deserialize, Serialize};

    /// A CronTab at `example.com/v1beta1`: its fields besides `apiVersion`, `kind` and
    /// `metadata`, which the conversion keeps as they are.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct CronTab {
        /// `host:port`
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub host_port: Option<String>,
    }

    /// `example.com/v1beta1`
    pub const API_VERSION: &str = "example.com/v1beta1";
}

/// `example.com/v1`
pub mod v1 {
    use super::{Deserialize, Serialize};

    /// A CronTab at `example.com/v1`.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    pub struct CronTab {
        /// The host of v1beta1's `hostPort`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub host: Option<String>,
        /// The port of v1beta1's `hostPort`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub port: Option<String>,
    }

    /// `example.com/v1`
    pub const API_VERSION: &str = "example.com/v1";
}

/// The page's failure message.
pub const HOST_PORT_ERROR: &str = "hostPort could not be parsed into a separate host and port";

/// `hostPort` split in two, as the Kubernetes e2e webhook does (`convertExampleCRD`): exactly
/// one `:`.
impl TryFrom<v1beta1::CronTab> for v1::CronTab {
    type Error = &'static str;

    fn try_from(old: v1beta1::CronTab) -> Result<v1::CronTab, &'static str> {
        let Some(host_port) = old.host_port else {
            return Ok(v1::CronTab::default());
        };
        match host_port.split(':').collect::<Vec<_>>()[..] {
            [host, port] => Ok(v1::CronTab {
                host: Some(host.to_owned()),
                port: Some(port.to_owned()),
            }),
            _ => Err(HOST_PORT_ERROR),
        }
    }
}

/// `host:port`, a missing part written empty.
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

/// The webhook's conversions: CronTab, v1beta1 and v1.
///
/// # Panics
/// Never: the two versions are distinct and converted both ways, which `build` checks.
#[must_use]
pub fn conversions() -> Conversions {
    let crontab = Typed::new("CronTab")
        .version::<v1beta1::CronTab>(v1beta1::API_VERSION)
        .version::<v1::CronTab>(v1::API_VERSION)
        .convert::<v1beta1::CronTab, v1::CronTab>()
        .build()
        .expect("two versions converted both ways");
    Conversions::new().typed(crontab)
}

/// The CRD's `spec.conversion` for a webhook at `url` whose certificate `ca_bundle` verifies
/// (the page's "Configure CustomResourceDefinition to use conversion webhooks", with `url`).
#[must_use]
pub fn conversion_stanza(url: &str, ca_bundle: Option<&str>) -> String {
    let mut out = format!(
        "conversion:\n  strategy: Webhook\n  webhook:\n    conversionReviewVersions: [\"v1\", \"v1beta1\"]\n    clientConfig:\n      url: \"{url}\"\n"
    );
    if let Some(b) = ca_bundle {
        out.push_str(&format!("      caBundle: \"{b}\"\n"));
    }
    out
}
