//! "Version deprecation": the CronTab in `v1alpha1` (deprecated, with its own warning),
//! `v1beta1` (deprecated) and `v1` (the storage version), written once with
//! `#[crdkit::versioned]`. Over the versions the schedule is renamed, `replicas` is added, the
//! port becomes a number and `tag` is deprecated; the conversions between the versions are
//! generated, the port's through the two functions named in its history. Only `v1` has a
//! printer column and a selectable field.

use serde::{Deserialize, Serialize};

#[crdkit::versioned(
    version(
        name = "v1alpha1",
        deprecated,
        deprecation_warning = "example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab"
    ),
    version(name = "v1beta1", deprecated),
    version(
        name = "v1",
        storage,
        crd(
            print_column(name = "Port", json_path = ".spec.port"),
            selectable_field = ".spec.image"
        )
    ),
    webhook(url = "https://my-webhook.example.com:9443/my-webhook-path")
)]
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "example.com",
    kind = "CronTab",
    namespaced,
    short_name = "ct",
    status = CronTabStatus
)]
#[serde(rename_all = "camelCase", default)]
pub struct CronTabSpec {
    /// When to run, in cron syntax.
    #[versioned(renamed(since = "v1", from = "schedule"))]
    pub cron_spec: String,
    /// The image to run.
    pub image: String,
    /// How many pods run at once; 1 for objects written before `v1beta1`.
    #[versioned(added(since = "v1beta1", default = one))]
    #[crd(minimum = 1, maximum = 10)]
    #[serde(default = "one")]
    pub replicas: i32,
    /// The port the job listens on: text before `v1`.
    #[versioned(changed(
        since = "v1",
        from_type = "String",
        upgrade_with = parse_port,
        downgrade_with = port_text
    ))]
    pub port: u16,
    /// The image's tag.
    #[versioned(deprecated(since = "v1", note = "give the tag in `image`"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

/// The status of every version.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct CronTabStatus {
    /// Pods running.
    pub replicas: i32,
}

fn one() -> i32 {
    1
}

fn parse_port(text: String) -> Result<u16, std::num::ParseIntError> {
    if text.is_empty() {
        return Ok(0);
    }
    text.parse()
}

fn port_text(port: u16) -> String {
    port.to_string()
}
